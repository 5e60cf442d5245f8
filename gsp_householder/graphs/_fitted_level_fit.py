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

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import scipy.sparse as sp

from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._pair_geometry import PairBasis, PairGram
from gsp_householder.graphs._support_search import robust_noise
from gsp_householder.graphs._thresholds import EXACT_LEVEL, RESIDUAL_CONSISTENT


def fitted_level_only(history: dict) -> bool:
    """Whether the rankings' noise level is the fitted rankings' alone: the leverage
    rankings ran (``history["leverage_noise_estimates"]``) and one of them kept pairs
    clean to rounding (at most ``EXACT_LEVEL``)."""
    leverage = history.get("leverage_noise_estimates")
    return bool(leverage) and min(leverage) <= EXACT_LEVEL


def non_edge_level(B: PairBasis, W) -> float:
    """The noise level the non-edges of the graph of weights ``W`` show, read as the
    rankings read the pairs they keep (``robust_noise`` with the Gram of those pairs)."""
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    gram = PairGram(B).without(upper.row, upper.col)
    return robust_noise(B, (gram, upper.row, upper.col))


def ratio_at_own_noise(basis, B: PairBasis, W, history: dict, level: float) -> float | None:
    """The residual of the graph of weights ``W`` in units of the one the noise of its
    non-edges predicts (``own_noise``), when the rankings' ``level`` is the fitted
    rankings' alone (``fitted_level_only``), that ratio is within
    ``RESIDUAL_CONSISTENT`` and the level its non-edges show (``non_edge_level``) is
    within ``RESIDUAL_CONSISTENT`` times ``level``; else None (module docstring).

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
    if not fitted_level_only(history):
        return None
    _, ratio = own_noise(basis, W)
    if ratio > RESIDUAL_CONSISTENT:
        return None
    if non_edge_level(B, W) > RESIDUAL_CONSISTENT * level:
        return None
    return ratio
