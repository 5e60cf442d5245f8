"""Whether a graph fits noisy eigenvectors whose only noise level is the fitted rankings'.

With few pairs for the unknowns (the Petersen graph: 45 pairs, 9 eigenvalues) the
leverage rankings' kept pairs fit a noisy basis to rounding, and the level at which the
graph found is judged (``laplacian_inference._pair_level``) is the fitted rankings'
alone: a median over the half of the pairs that an eigenvalue vector fitted to them
fits best. A basis with large eigenspaces lets that vector choose (``_own_noise``: 50
times below on the perturbed star), and the level falls below the noise of the
eigenvectors: on the perturbed (1e-3) Petersen graph, draws 6-8 with the ``Haswell``
BLAS kernel's basis, 5.7e-5 to 7.9e-5, which the truth's residual (3.8e-4 to 5.5e-4)
exceeds 5.8 to 7.1 times, above ``RESIDUAL_CONSISTENT``, while the noise its own
non-edges show predicts its residual to within 0.88 to 1.23.

``ratio_at_own_noise`` then judges the graph at its own noise, under two conditions that a
wrong graph fails: it leaves no more than ``RESIDUAL_CONSISTENT`` times the residual its
non-edges' noise predicts (``_own_noise.own_noise``: a graph that lacks edges leaves
them in the residual), and its non-edges, read as the rankings read their kept pairs
(``_support_search.robust_noise``, an eigenvalue vector fitted to them), show a level
within ``RESIDUAL_CONSISTENT`` times the rankings' (a wrong graph's non-edges hold
edges, and show a level far above the eigenvectors': ``_own_noise``).

The same bias holds, less extremely, wherever the leverage rankings keep few pairs for
the unknowns: on paths, cycles, stars and trees of 10 to 40 nodes perturbed by 1e-3
(``path_graph(12)``: 15 to 18 pairs kept for 11 unknowns; ``path_graph(11)``: 11 for
10) the smallest estimate was 2 to 100 times below what the answer's own non-edges
show, and right answers (and the path's DCT twins) were warned as not fitting, with
residuals 5 to 230 times that level and 0.7 to 1.4 times their own non-edges'
prediction. Without a clean ranking a spanning tree (no connected graph is sparser)
is judged so with the rankings' largest estimate as the reference
(``largest_ranking_level``: each estimate is biased low by its fit, the largest
least): its non-edges, read the rankings' way, must show no more than
``RESIDUAL_CONSISTENT`` times it. The answers of those paths show 0.8 to 6.6 times it;
a path of 12 nodes with one edge moved, whose residual stays within its own
non-edges' prediction (ratio 3.2), shows 20 to 34 times it. Other graphs keep the
rankings' level: a cycle of 15 nodes (draw 3) answered by a relabelled cycle (F1 0)
fits at its own noise, but the truth's rotation residual is 1.28 times the answer's,
beyond ``RESIDUAL_SLACK``, so the twins' check does not list it, and the answer would
be left with no warning.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import scipy.sparse as sp

from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._pair_geometry import PairBasis, PairGram
from gsp_householder.graphs._support_search import robust_noise
from gsp_householder.graphs._thresholds import EXACT_LEVEL, MAX_NOISE, RESIDUAL_CONSISTENT


def fitted_level_only(history: dict) -> bool:
    """Whether the rankings' noise level is the fitted rankings' alone: the leverage
    rankings ran (``history["leverage_noise_estimates"]``) and one of them kept pairs
    clean to rounding (at most ``EXACT_LEVEL``)."""
    leverage = history.get("leverage_noise_estimates")
    return bool(leverage) and min(leverage) <= EXACT_LEVEL


def largest_ranking_level(history: dict) -> float | None:
    """The largest noise estimate of the leverage rankings within (``EXACT_LEVEL``,
    ``MAX_NOISE``] (``history["leverage_noise_estimates"]`` when the fitted rankings
    ran, else ``history["noise_estimates"]``), or None without one.

    Each estimate reads the pairs one ranking kept with an eigenvalue vector fitted to
    them: it is biased below the noise by that fit, the more so the fewer pairs were
    kept for the unknowns (a ranking of ``path_graph(11)`` keeps 11 pairs for 10
    unknowns), and the largest is the least biased."""
    estimates = history.get("leverage_noise_estimates", history.get("noise_estimates", []))
    levels = [e for e in estimates if EXACT_LEVEL < e <= MAX_NOISE]
    return max(levels) if levels else None


def non_edge_level(B: PairBasis, W) -> float:
    """The noise level the non-edges of the graph of weights ``W`` show, read as the
    rankings read the pairs they keep (``robust_noise`` with the Gram of those pairs)."""
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    gram = PairGram(B).without(upper.row, upper.col)
    return robust_noise(B, (gram, upper.row, upper.col))


def ratio_at_own_noise(basis, B: PairBasis, W, history: dict, level: float) -> float | None:
    """The residual of the graph of weights ``W`` in units of the one the noise of its
    non-edges predicts (``own_noise``), when that ratio is within
    ``RESIDUAL_CONSISTENT`` and the level its non-edges show (``non_edge_level``) is
    within ``RESIDUAL_CONSISTENT`` times a reference: ``level`` when it is the fitted
    rankings' alone (``fitted_level_only``), else, for a spanning tree, the leverage
    rankings' largest estimate (``largest_ranking_level``); else None (module
    docstring).

    Parameters
    ----------
    basis : dict
        The inference's basis (``"V"``, ``"kind"``, ``"scale"``).
    B : PairBasis
        The pair rows of the basis.
    W : sparse array
        Symmetric non-negative weights of the graph found (connected, not complete).
    history : dict
        The inference's history (``"leverage_noise_estimates"``).
    level : float
        The rankings' noise level (positive).

    Returns
    -------
    float or None
        The ratio, or None.
    """
    if fitted_level_only(history):
        reference = level
    elif sp.triu(W, 1).nnz == B.n - 1:
        reference = largest_ranking_level(history)
    else:
        return None
    if reference is None:
        return None
    _, ratio = own_noise(basis, W)
    if ratio > RESIDUAL_CONSISTENT:
        return None
    if non_edge_level(B, W) > RESIDUAL_CONSISTENT * reference:
        return None
    return ratio
