"""Twin classes whose eigenspace hides a sparse graph: a valid graph that holds the one found.

If nodes $S$ of a graph are twins with equal weights (the same weights to every other
node, and equal weights among themselves, or none), every vector supported on $S$ that
sums to zero is an eigenvector of its Laplacian $L$: the $|S| - 1$ columns of a basis
that live on $S$ may be any orthonormal basis of that space. If they are the
eigenvectors of a graph $L_S$ on $S$ (with $\\mathbf 1_S$), every other column is
constant on $S$ and $L_S$ maps it to zero, so $L + c L_S$ is valid for every $c > 0$,
with more edges. A graph on $S$ with these eigenvectors always exists (the complete
graph, and, for $|S| = 3$, a path), but a generic basis gives none with fewer than
$\\binom{|S|}{2} - (|S| - 2)$ edges (one zero per free eigenvalue, up to scale); one
sparser than that is evidence that the basis is the eigenvectors of $L + c L_S$, not of
$L$: the wheel's eigenvectors give the star (sparser, valid), whose leaves are twins and
whose leaves' columns are the rim cycle's eigenvectors.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import _rotated_parts, rotation_residual

#: Smallest twin class searched: three twins always carry a sparse graph (a path).
MIN_TWINS = 4
#: Gap, relative to a column's largest entry, that separates two of its level sets
#: (`component_graph`); also the relative size of the weights it drops.
LEVEL_GAP = 1e-2
#: Largest cost, in flops, of `component_graph`'s singular value decomposition
#: ($\binom{s}{2} P^2$ for a class of $s$ nodes with $P$ pairs within components);
#: above it the components are taken as complete graphs with equal weights, with no
#: projection (two cliques of 79 nodes, windmill(2, 80): 4.7e11 flops, 170 CPU s;
#: windmill(2, 40): 6.6e9, 2 s).
MAX_COMPONENT_FLOPS = 1e10


def twin_classes(W, min_size: int = MIN_TWINS, *,
                 adjacent_only: bool = False) -> list[np.ndarray]:
    """Classes of at least ``min_size`` nodes of the graph of weights ``W`` (symmetric,
    sparse) with the same neighbours: equal open neighbourhoods (non-adjacent twins) or
    equal closed ones (adjacent twins; only those with ``adjacent_only``). Their weights
    are not compared: the basis tells whether they are equal (``twin_basis``)."""
    W = sp.csr_array(W)
    out = []
    for closed in ((True,) if adjacent_only else (False, True)):
        classes: dict[tuple, list[int]] = {}
        for i in range(W.shape[0]):
            nbrs = set(W.indices[W.indptr[i]:W.indptr[i + 1]].tolist())
            key = tuple(sorted(nbrs | {i} if closed else nbrs))
            classes.setdefault(key, []).append(i)
        out += [np.array(c) for c in classes.values() if len(c) >= min_size]
    return out


def twin_basis(V, nodes, min_cos: float) -> np.ndarray | None:
    """The orthogonal basis of the vectors on ``nodes`` (rows of ``V``) that ``V``'s
    columns give, the constant vector first, if ``len(nodes) - 1`` columns live on them
    and sum to zero there: the columns whose restriction to ``nodes``, centred, has a
    squared norm above 1/2 (the others are constant there up to the noise), whose
    restriction has singular values of at least ``min_cos``; else None."""
    s = len(nodes)
    X = V[nodes] - V[nodes].mean(axis=0)
    cols = np.flatnonzero(np.einsum("ij,ij->j", X, X) > 0.5)
    if cols.size != s - 1:
        return None
    Q = np.column_stack([np.full(s, 1.0 / np.sqrt(s)), V[np.ix_(nodes, cols)]])
    U, sigma, Wt = np.linalg.svd(Q)
    if sigma.min() < min_cos:
        return None
    Q = U @ Wt
    return Q * np.sign(Q[0, 0])


def generic_edges(s: int) -> int:
    """Fewest edges of a graph on ``s`` nodes diagonalised by a generic basis with a
    constant column: $\binom{s}{2}$ pairs less one zero per free eigenvalue up to scale
    ($s - 2$)."""
    return s * (s - 1) // 2 - (s - 2)


def _level_sets(q, gap: float) -> list[np.ndarray] | None:
    """The groups of entries of ``q`` that no gap above ``gap`` separates (in sorted
    order), or None if one of them is a single entry."""
    order = np.argsort(q)
    cuts = np.flatnonzero(np.diff(q[order]) > gap) + 1
    groups = np.split(order, cuts)
    return None if min(g.size for g in groups) < 2 else groups


def component_graph(Q, gap: float = LEVEL_GAP) -> sp.coo_array | None:
    """Weights (upper triangle, on the rows of ``Q``) of a disconnected graph whose
    eigenvectors are the columns of the twin basis ``Q`` (constant column first), or
    None if none shows.

    A graph on a twin class with $c > 1$ components has a zero eigenspace spanned by
    the components' indicators, so $c$ columns of ``Q`` are constant on every component
    and the others sum to zero on each. The components are read as the common
    refinement of the level sets of the columns whose entries fall into groups of at
    least two (groups separated by more than ``gap`` times the column's largest
    entry); they are kept if exactly $c$ columns lie in the span of their indicators
    (squared projection above 1/2) and at least two components have two nodes or
    more. The weights on the pairs within components are the projection of equal
    weights on the family of graphs with these eigenvectors: the right singular
    vectors of the map from those weights to the off-diagonal of $Q^T L Q$ whose
    singular values are at most ``gap`` times the largest squared norm of two rows'
    difference (2 for an orthogonal ``Q``: the scale of one pair's term). The weights
    below ``gap`` times the largest are dropped, and a projection of both signs beyond
    that is refused. The eigenvectors of the components may mix them (a shared
    eigenvalue): 8 triangles sharing one eigenvalue in the windmill's leaves. When that
    projection would cost more than ``MAX_COMPONENT_FLOPS``, the weights are equal on
    every pair within a component (complete components, the windmill's cliques), with
    no projection: the caller's fit of the whole graph then decides (a component that
    is not complete does not fit).
    """
    s = Q.shape[0]
    label = np.zeros(s, dtype=np.intp)
    for q in Q[:, 1:].T:
        groups = _level_sets(q, gap * np.abs(q).max())
        if groups is None:
            continue
        split = np.empty(s, dtype=np.intp)
        for k, g in enumerate(groups):
            split[g] = k
        label = np.unique(label * s + split, return_inverse=True)[1]
    sizes = np.bincount(label)
    c = sizes.size
    if c < 2 or np.count_nonzero(sizes >= 2) < 2:
        return None
    ind = np.zeros((s, c))
    ind[np.arange(s), label] = 1.0 / np.sqrt(sizes[label])
    if np.count_nonzero(np.einsum("ij,ij->j", ind.T @ Q, ind.T @ Q) > 0.5) != c:
        return None
    n_pairs = int((sizes * (sizes - 1) // 2).sum())
    rows, cols = np.nonzero(np.triu(label[:, None] == label[None, :], 1))
    if s * (s - 1) // 2 * n_pairs ** 2 > MAX_COMPONENT_FLOPS:
        return sp.coo_array((np.ones(rows.size), (rows, cols)), shape=(s, s))
    D = Q[rows] - Q[cols]
    iu = np.triu_indices(s, 1)
    A = (D[:, iu[0]] * D[:, iu[1]]).T
    _, sigma, Vt = np.linalg.svd(A, full_matrices=False)
    family = Vt[sigma <= gap * np.einsum("ij,ij->i", D, D).max()]
    if not family.size:
        return None
    w = family.T @ family.sum(axis=1)
    keep = w > gap * w.max()
    if w.min() < -gap * w.max() or not keep.any():
        return None
    return sp.coo_array((w[keep], (rows[keep], cols[keep])), shape=(s, s))


def star_rotation(Q: np.ndarray) -> float:
    """Rotation residual of the star on the rows of the twin basis ``Q`` (constant
    column first) centred at the row of ``Q``'s largest entry off that column: the
    off-diagonal part of $Q^T L_S Q$ relative to $\\sqrt{s \\sum_k (\\lambda_k -
    \\bar\\lambda)^2}$ for the star's Laplacian $L_S$ (``_laplacian_fit.rotation_residual``,
    which estimates the rotation of ``Q`` from the star's eigenvectors).

    A unit vector that sums to zero over $s$ nodes has no entry larger than
    $\\sqrt{(s - 1) / s}$, reached only by the star's centre in its column
    $s e_c - \\mathbf 1$: the row of the largest entry is the only centre a star whose
    eigenvectors ``Q`` holds can have (``_tree_search.hub_nodes`` reads hubs so)."""
    s = Q.shape[0]
    centre = int(np.argmax(np.abs(Q[:, 1:]).max(axis=1)))
    L = np.zeros((s, s))
    L[centre, :] = L[:, centre] = -1.0
    np.fill_diagonal(L, 1.0)
    L[centre, centre] = s - 1.0
    return rotation_residual(*_rotated_parts(Q, L))
