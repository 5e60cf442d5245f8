"""Equal-weight graphs on the heavy levels of the candidates' weights.

With repeated eigenvalues, noisy eigenvectors fit members of a family whose weights
fall into levels: a complete multipartite graph $K(a, b, c)$ plus cliques inside its
parts at a fraction of its weight, or a heavy edge between adjacent twins beside the
rest of the graph. The graph sought can be the heaviest level alone at equal weights
($K(3, 3, 4)$ perturbed by 1e-3: a 39-edge candidate with 33 edges at weight 1 and 6
at 0.23, whose heavy 33 edges are the truth), while the sparsest graph that fits is a
two-level member of the family that is not it (22 edges: 21 at 0.57 and one at 1, F1
0.76). When such an equal-weight graph fits the eigenvectors to their noise level and
the graph returned has no equal weights, the eigenvectors do not tell the two apart.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._laplacian_fit import _equal_within_noise, _residual
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT

#: Two consecutive weights of a candidate (sorted) at least this far apart in ratio
#: separate two levels: a level's own weights are equal to the noise (relative spread
#: of 1e-3 to 1e-2 at noise 1e-3), the families' levels are 2 to 5 apart.
LEVEL_RATIO = 2.0


def heavy_levels(W, ratio: float = LEVEL_RATIO) -> list[sp.csr_array]:
    """The graphs, at unit weights, of the edges of ``W`` above each gap of at least
    ``ratio`` between consecutive weights (sorted), that are connected on all nodes.

    Parameters
    ----------
    W : scipy.sparse array of shape (n, n)
        Symmetric nonnegative weights.
    ratio : float
        Smallest ratio of two consecutive weights that separates two levels.

    Returns
    -------
    list of scipy.sparse.csr_array
        Symmetric 0/1 weights, heaviest level first; empty when the weights have no
        such gap or no heavy part is connected.
    """
    U = sp.triu(sp.coo_array(W), 1).tocoo()
    keep = U.data > 0
    rows, cols, w = U.row[keep], U.col[keep], U.data[keep]
    n = W.shape[0]
    order = np.argsort(-w)
    w = w[order]
    gaps = np.flatnonzero(w[:-1] >= ratio * w[1:])
    out = []
    for g in gaps:
        top = order[: g + 1]
        if top.size < n - 1:
            continue
        A = sp.coo_array((np.ones(top.size), (rows[top], cols[top])), shape=(n, n))
        A = sp.csr_array(A + A.T)
        if connected_components(A, directed=False)[0] == 1:
            out.append(A)
    return out


def level_rivals(weights, returned) -> list[sp.csr_array]:
    """The distinct graphs of `heavy_levels` of every weight matrix in ``weights``,
    other than the graph of ``returned`` (compared by edge set)."""
    seen = {_edge_set(returned)}
    out = []
    for W in weights:
        for A in heavy_levels(W):
            key = _edge_set(A)
            if key not in seen:
                seen.add(key)
                out.append(A)
    return out


def equal_weight_rival(basis, weights, noise_floor: float,
                       noise: float) -> tuple[sp.csr_array, float] | None:
    """The best-fitting graph of `level_rivals` of the candidates' ``weights`` (the
    graph returned first) that fits the eigenvectors to their noise level (residual
    within ``RESIDUAL_CONSISTENT`` times ``noise_floor``, the yardstick the graph
    returned passed), when the graph returned has no equal weights to the noise level
    ``noise``; else None. For combinatorial Laplacians only.

    Returns
    -------
    tuple (scipy.sparse.csr_array, float) or None
        The rival's 0/1 weights and its residual over ``noise_floor``.
    """
    if basis["kind"] != "combinatorial" or _equal_within_noise(basis, weights[0], noise):
        return None
    best = None
    for A in level_rivals(weights, weights[0]):
        ratio = _residual(basis, A) / noise_floor
        if ratio <= RESIDUAL_CONSISTENT and (best is None or ratio < best[1]):
            best = (A, ratio)
    return best


def _edge_set(W) -> bytes:
    """The upper-triangle pattern of ``W`` as a hashable key."""
    U = sp.triu(sp.csr_array(W), 1).tocoo()
    keep = U.data != 0
    idx = np.sort(U.row[keep].astype(np.int64) * W.shape[0] + U.col[keep])
    return idx.tobytes()
