"""A regular graph's quadratic family: its members read off the classes of node pairs.

A regular graph's Laplacian $L$ and its square $L^2$ have constant diagonals, so the
constant-diagonal family of its eigenvectors (module ``_regular_family``) holds
$\\mathrm{span}\\{\\mathbf 1, \\lambda, \\lambda^2\\}$: the complete graph, the graph
and its square. When that span is the whole family (the family has two directions
besides $\\mathbf 1$ and both $\\lambda$ and $\\lambda^2$ lie in it), a member
$a \\mathbf 1 + b \\lambda + c \\lambda^2$ has, on the pair $(i, j)$, the off-diagonal
entry $-f(p_{ij})$ with $f$ affine and $p_{ij} = (W_{ij}, (L^2)_{ij})$ the pair's point
($W$ the graph's weights). A valid member has $f \\ge 0$ at every point, so the pairs it
leaves at zero are the points on a supporting line of their convex hull: its edges are
the pairs off that line. The members with at most as many edges as the graph are then
known without a linear program: one per edge or vertex of a convex polygon of a few
points (equal weights: $W_{ij} \\in \\{0, w\\}$ and $(W^2)_{ij}$ a multiple of $w^2$).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.spatial import ConvexHull, QhullError

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._regular_family import NULL_LEVEL, _diagonal_svd, _noisy_null

#: $\lambda$ and $\lambda^2$ lie in the exact family when their parts outside it are below
#: this fraction of their norms (the family's null level is 1e-9; a polished graph's
#: eigenvalues are exact to about 1e-10).
SPAN_TOLERANCE = 1e-6
#: With noise, $\lambda^2$ is in the family's near-null space when its centred diagonal
#: is at most this many times as far from constant as that of $\lambda$ (relative to
#: their norms): the square of a Laplacian with relative error $\epsilon$ has error
#: $2\epsilon$ to first order.
SQUARE_ERROR = 2.0
#: A pair's point lies on a line when it is within this distance of it, the points
#: scaled to [-1, 1]: wider than any entry a linear program or the edge threshold
#: leaves at zero (1e-6 of the largest), so that the count of pairs left at zero by a
#: member is never underestimated.
LINE_TOLERANCE = 1e-4


def quadratic_family(B: PairBasis, lam) -> bool:
    """Whether the exact constant-diagonal family of ``B`` is
    $\\mathrm{span}\\{\\mathbf 1, \\lambda, \\lambda^2\\}$ for the eigenvalue vector
    ``lam`` of a graph found (one unknown per column, a combinatorial Laplacian).
    """
    svd = _diagonal_svd(B)
    if svd is None:
        return False
    Q, s, Wt = svd
    null = s <= NULL_LEVEL * s[0]
    if int(np.count_nonzero(null)) != 2:
        return False
    N = Q @ Wt[null].T                                     # orthonormal, orthogonal to 1
    X = np.column_stack([lam, lam * lam])
    X = X - X.mean(axis=0)
    C = N.T @ X
    outside = np.linalg.norm(X - N @ C, axis=0)
    if np.any(outside > SPAN_TOLERANCE * np.linalg.norm(X, axis=0)):
        return False
    sv = np.linalg.svd(C, compute_uv=False)
    return bool(sv[-1] > SPAN_TOLERANCE * sv[0])


def noisy_quadratic_family(B: PairBasis, lam) -> bool:
    """Whether the noisy constant-diagonal family of ``B`` (its near-null space beyond
    $\\mathbf 1$ below the widest gap, ``_noisy_null``) has two directions, as
    $\\mathrm{span}\\{\\lambda, \\lambda^2\\}$ has, and $\\lambda^2$ is as near it as
    ``lam`` (the eigenvalue vector of a graph found at the noise level) to the first
    order (``SQUARE_ERROR``). No when the family has an exact null space.

    A graph found whose square is far from constant on the diagonal is not the family's
    quadratic family: the distance-2 graph of a cubic graph of girth 5 found from
    perturbed eigenvectors (3-regular(100, seed 5), 1e-3) is 690 times its noise level
    off, the graph 3.3 times.
    """
    svd = _diagonal_svd(B)
    if svd is None:
        return False
    Q, s, Wt = svd
    if np.any(s <= NULL_LEVEL * s[0]):
        return False
    null, _ = _noisy_null(s)
    if int(np.count_nonzero(null)) != 2:
        return False
    off = []
    for x in (lam, lam * lam):
        x = x - x.mean()
        off.append(float(np.linalg.norm(s * (Wt @ (Q.T @ x)))) / float(np.linalg.norm(x)))
    return off[1] <= SQUARE_ERROR * off[0]


def pair_points(W) -> tuple[np.ndarray, np.ndarray, int]:
    """The distinct points $p_{ij} = (W_{ij}, (L^2)_{ij})$ of the node pairs $i < j$ of
    the weights ``W`` (a symmetric sparse array), each coordinate scaled to $[-1, 1]$,
    the number of pairs at each, and the number of pairs; $O(n d^2)$ for degree $d$ (the
    pairs off the support of $W$ and $W^2$ are all at the origin)."""
    W = sp.csr_array(W)
    n = W.shape[0]
    degree = np.asarray(W.sum(axis=1)).ravel()
    A = sp.triu(W, 1).tocoo()
    S = sp.triu(W @ W, 1).tocoo()
    codes = np.concatenate([A.row.astype(np.int64) * n + A.col, S.row.astype(np.int64) * n
                            + S.col])
    keys, inverse = np.unique(codes, return_inverse=True)
    w = np.bincount(inverse[: A.nnz], weights=A.data, minlength=keys.size)
    square = np.bincount(inverse[A.nnz:], weights=S.data, minlength=keys.size)
    i, j = np.divmod(keys, n)
    square -= (degree[i] + degree[j]) * w                  # (D - W)^2 off the diagonal
    points = np.column_stack([w, square])
    n_pairs = n * (n - 1) // 2
    rest = n_pairs - keys.size
    if rest:
        points = np.vstack([points, np.zeros((1, 2))])
    scale = np.abs(points).max(axis=0)
    points = points / np.where(scale > 0, scale, 1.0)
    counts = np.ones(len(points), dtype=np.int64)
    if rest:
        counts[-1] = rest
    distinct, inverse = np.unique(np.round(points, 9), axis=0, return_inverse=True)
    return distinct, np.bincount(inverse.ravel(), weights=counts).astype(np.int64), n_pairs


def sparser_member_possible(W, n_edges: int) -> bool:
    """Whether a member of the quadratic family of the graph of weights ``W`` (with
    ``n_edges`` edges) other than the graph itself may have at most ``n_edges`` edges;
    False is a proof that none has.

    The pairs a valid member leaves at zero are the points on a supporting line of the
    pairs' points (``pair_points``); a line holding two of them holds an edge of their
    convex hull, so the lines through the hull's edges and vertices are all there are.
    The graph's own line is $W_{ij} = 0$. Lines are thick (``LINE_TOLERANCE``), which
    can only count more pairs at zero; when the hull is not a polygon (fewer than three
    points, or all on a line) the answer is True.

    >>> import networkx as nx
    >>> cubic = nx.random_regular_graph(3, 60, seed=7)   # girth 5: A^2 - 3I is 0/1
    >>> A = nx.to_scipy_sparse_array(cubic)
    >>> sparser_member_possible(A, 90)
    False
    >>> dense = nx.to_scipy_sparse_array(nx.complement(cubic))   # 1680 edges
    >>> sparser_member_possible(dense, 1680)             # the cubic graph is a member
    True
    """
    points, counts, n_pairs = pair_points(W)
    if len(points) < 3:
        return True
    try:
        hull = ConvexHull(points)
    except QhullError:
        return True
    for a, b in hull.simplices:
        normal = np.array([points[a, 1] - points[b, 1], points[b, 0] - points[a, 0]])
        normal /= np.linalg.norm(normal)
        on = np.abs((points - points[a]) @ normal) <= LINE_TOLERANCE
        if np.all(np.abs(points[on, 0]) <= LINE_TOLERANCE):
            continue                                       # W_ij = 0: the graph itself
        if n_pairs - int(counts[on].sum()) <= n_edges:
            return True
    return bool(np.any(n_pairs - counts[hull.vertices] <= n_edges))
