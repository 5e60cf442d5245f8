"""An equal-weight graph read off a weighted exact answer by its one-column local groups.

A column supported on a few nodes (``_local_columns``) moves, through its eigenvalue,
only the entries among those nodes: every valid Laplacian stays valid when that
eigenvalue changes, as long as those entries stay $\\le 0$. With weights free, a search
for the sparsest graph can so trade several edges for one heavier edge. The exact
eigenvectors of `relaxed_caveman_graph(5, 8, 0.15, seed=2)` (40 nodes, 140 edges, draw
0) have a column on the four nodes 33, 34, 36, 37 of one cave (sign pattern
$(+, -, -, +)$); the graph returned (114 edges, no warning) had the edges 33-34,
33-36, 34-37 and 36-37 of the truth dropped and 34-36 added at twice the weight of the
others, and no candidate with equal weights: the truth, which the eigenvectors cannot
tell from it, was not listed.

``equal_weight_on_local_columns`` sets the eigenvalue of every one-column group whose
entries are not already 0 or the graph's common weight $w$ (the median weight) so that
they all are (the candidate shifts are those that make one of its pairs 0 or $-w$), the
sparsest such setting per group, and keeps the graph when every weight is then $w$ to
``EQUAL_WEIGHT_CV``, it is connected and fits the eigenvectors to ``FITS_EXACTLY``.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._laplacian_fit import _residuals
from gsp_householder.graphs._local_columns import local_groups
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._result_checks import EQUAL_WEIGHT_CV
from gsp_householder.graphs._thresholds import FITS_EXACTLY


def equal_weight_on_local_columns(basis, B: PairBasis, W) -> sp.csr_array | None:
    """The equal-weight graph that the one-column local groups of ``B`` give from the
    weighted graph ``W`` found on exact eigenvectors, or None.

    Parameters
    ----------
    basis : dict
        The read basis (``V``, ``kind``, ``scale``).
    B : PairBasis
        The pair basis of the eigenvectors (its local groups, ``local_groups``).
    W : sparse array
        Symmetric weights of the graph found, fitting the eigenvectors exactly.

    Returns
    -------
    scipy.sparse.csr_array or None
        Symmetric weights, all equal to the median weight of ``W``, of a connected graph
        that fits the eigenvectors to ``FITS_EXACTLY``; None when a group cannot be set
        so, when weights other than the groups' are unequal, or when the graph does not
        fit.
    """
    W = sp.csr_array(W, dtype=float)
    weight = float(np.median(sp.triu(W, 1).data))
    M = W.toarray()
    groups = [grp for grp in local_groups(B) if grp.cols.size == 1]
    if not _on_levels(_outside_groups(M, groups), weight):
        return None
    for grp in groups:
        if not _on_levels(M[grp.i, grp.j], weight):
            column = B.V[:, grp.cols[0]]
            entries = _equal_entries(M[grp.i, grp.j], column[grp.i] * column[grp.j], weight)
            if entries is None:
                return None
            M[grp.i, grp.j] = M[grp.j, grp.i] = entries
    if not _on_levels(M[np.triu_indices_from(M, 1)], weight):
        return None
    A = sp.csr_array(np.where(M > weight / 2, weight, 0.0))
    if connected_components(A, directed=False)[0] != 1:
        return None
    return A if _residuals(basis, A)[0] <= FITS_EXACTLY else None


def _outside_groups(M: np.ndarray, groups: list) -> np.ndarray:
    """The weights ``M`` (dense, symmetric) of the pairs outside every group's pairs."""
    outside = np.triu(np.ones(M.shape, dtype=bool), 1)
    for grp in groups:
        outside[grp.i, grp.j] = False
    return M[outside]


def _on_levels(weights: np.ndarray, weight: float) -> bool:
    """Whether every one of ``weights`` is 0 or ``weight``, to ``EQUAL_WEIGHT_CV`` of it."""
    distance = np.minimum(np.abs(weights), np.abs(weights - weight))
    return bool(np.all(distance <= EQUAL_WEIGHT_CV * weight))


def _equal_entries(weights: np.ndarray, products: np.ndarray, weight: float) -> np.ndarray | None:
    """The weights among a one-column group's pairs (``weights``, the graph's; the column's
    entries multiplied, ``products``) after the shift of its eigenvalue that puts every one
    at 0 or ``weight`` with the fewest nonzero, or None when no shift does. A shift $t$
    changes the weight of a pair by $-t$ times its product."""
    moving = np.abs(products) > EQUAL_WEIGHT_CV * np.abs(products).max()
    targets = np.concatenate([weights[moving], weights[moving] - weight])
    shifts = targets / np.tile(products[moving], 2)
    best = None
    for t in shifts:
        shifted = weights - t * products
        if _on_levels(shifted, weight):
            levels = np.where(shifted > weight / 2, weight, 0.0)
            if best is None or np.count_nonzero(levels) < np.count_nonzero(best):
                best = levels
    return best
