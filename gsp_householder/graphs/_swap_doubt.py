"""Whether a denser candidate put first by the tested-candidate swap is doubtful.

``_tested_candidates.accepted_first`` puts first, in place of the graph found when the
missing-edges test rejects it, the first candidate that fits as well and that the edge
tests accept. That candidate is often denser: on a weighted star the graph found (the
truth, or a wrong tree) fits the eigenvectors to their noise level, yet the star's large
eigenspace lets the missing-edges test flag 15 to 30 of its non-edges, and the swap
returns a candidate of 2 to 7 times its edges that fits no better (rotation residuals
0.75 to 1.2 times the graph found's): the lognormal ($\\sigma$ = 0.5) star of 90 leaves,
seed 906, perturbed by 1e-3, draws 0-1 (594 and 511 edges for 90), the near-star of 100
leaves with 3 leaf edges, seed 902, draw 1 (201 edges for 103). When the graph found
lacks edges of the graph sought, its weight goes to the pairs around them and it does
not fit the eigenvectors to their noise level (``RGG(190, 0.13, seed 41)``: 807 edges
for 868, 422 flagged pairs at z-scores up to 272, the candidate's residual 0.41 times
its own).

Two readings of the noise show that the graph found lacks edges, and then the candidate
is shown to fit clearly better: the noise level its non-edges show (``_own_noise``) is
above ``RESIDUAL_CONSISTENT`` times the one the candidate's non-edges show (the
comparison of two graphs' own levels that ``_fitting_tree.tree_at_own_noise`` makes:
the RGG of 150 nodes in ``tests/test_tested_candidates.py``, 486 edges for 526 replaced
by 502, F1 0.949 to 0.975: 3.9e-4 against 5.8e-5, 6.9 times, while the weighted stars'
graphs found show 0.76 to 1.19 times their candidates'), or its residual is above
``RESIDUAL_CONSISTENT`` times the noise level of the rankings' pairs (the test the
result makes of its own graph, ``history["noise_ratio"]``) while the candidate's is
not. Otherwise the eigenvectors do not tell the two apart, and when the answer is still
denser than the graph found once the result's later reads are made, the sparser graph
found is returned in its place, warned of (`AmbiguousGraphWarning`), the denser answer
the next candidate (``laplacian_inference._swapped_back``): the inference's sparsest
graph that fits. A swap that later reads reduce to a graph no denser than the graph
found is not doubted (the unit star of 150 leaves with a leaf edge, seed 603, draw 0:
a 150-edge wrong tree replaced by 429 edges, then by the star).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import _laplacian, _residual
from gsp_householder.graphs._own_noise import non_edge_noise
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT


def fits_noise(basis, W, level: float | None) -> bool:
    """Whether the graph of weights ``W`` fits the eigenvectors of ``basis`` to their
    noise ``level`` (the rankings' pairs', ``_pair_level``): its residual
    (``_laplacian_fit._residual``) at most ``RESIDUAL_CONSISTENT`` times it; True
    without a level (nothing shows that it does not)."""
    return level is None or _residual(basis, W) <= RESIDUAL_CONSISTENT * level


def clearly_better(basis, candidate, found, level: float | None) -> bool:
    """Whether the graph of weights ``candidate`` fits the eigenvectors of ``basis``
    clearly better than the graph of weights ``found`` (module docstring): the noise
    level that the non-edges of ``found`` show (``_own_noise.non_edge_noise``) is above
    ``RESIDUAL_CONSISTENT`` times the candidate's, or ``found`` does not fit the pairs'
    noise ``level`` and the candidate does (``fits_noise``)."""
    V = basis["V"]
    mine = non_edge_noise(V, _laplacian(found, basis))
    if mine > RESIDUAL_CONSISTENT * non_edge_noise(V, _laplacian(candidate, basis)):
        return True
    return not fits_noise(basis, found, level) and fits_noise(basis, candidate, level)


def doubtful_swap(basis, returned, swap, level: float | None) -> bool:
    """Whether the graph ``returned`` (a candidate item ``(n_edges, cv, lam, W)``, the
    result's first) answers through a doubtful swap: ``swap`` (``(candidate, found)``,
    the weights of the graph ``accepted_first`` put first and of the graph it replaced,
    or None) replaced the graph found by a denser one, ``returned`` is denser than the
    graph found too, and the candidate does not fit clearly better (``clearly_better``):
    then the graph found is returned in its place.

    Parameters
    ----------
    basis : dict
        The inference's basis.
    returned : tuple
        The result's first candidate item.
    swap : tuple of sparse arrays or None
        The candidate put first and the graph found, as ``accepted_first`` records them.
    level : float or None
        The noise level of the rankings' pairs.

    Returns
    -------
    bool
        True when the graph found is to be returned, warned of.
    """
    if swap is None:
        return False
    candidate, found = swap
    edges = sp.triu(found, 1).nnz
    if sp.triu(candidate, 1).nnz <= edges or int(returned[0]) <= edges:
        return False
    return not clearly_better(basis, candidate, found, level)
