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

#: Smallest twin class searched: three twins always carry a sparse graph (a path).
MIN_TWINS = 4


def twin_classes(W, min_size: int = MIN_TWINS) -> list[np.ndarray]:
    """Classes of at least ``min_size`` nodes of the graph of weights ``W`` (symmetric,
    sparse) with the same neighbours: equal open neighbourhoods (non-adjacent twins) or
    equal closed ones (adjacent twins). Their weights are not compared: the basis tells
    whether they are equal (``twin_basis``)."""
    W = sp.csr_array(W)
    out = []
    for closed in (False, True):
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
