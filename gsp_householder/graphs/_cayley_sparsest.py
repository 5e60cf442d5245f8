"""Whether a Cayley graph of the basis's abelian group is the sparsest Cayley graph with it.

Exact eigenvectors of a Cayley graph of an abelian group $A$ (a circulant, a Harary
graph, a torus, a circular ladder) are read as $A$'s characters (``group_table``), and
the Cayley graphs of $A$ that they diagonalise are found by the group's connection sets
alone: each class $\\{s, -s\\}$ of nonzero elements has the Laplacian $L_s$ of
$x \\sim x \\pm s$ and the off-diagonal part $O_s$ of $V^T L_s V$, and a Cayley graph
with weights $w_s \\ge 0$ on the classes $S$ has the eigenvectors $V$ exactly when
$\\sum_{s \\in S} w_s O_s = 0$, i.e. when the Gram matrix of the $O_s$, $s \\in S$, is
singular. So every set of classes with fewer edges than a given Cayley graph is checked
at once by the smallest eigenvalue of its Gram matrix (``sparsest_cayley``).

Below ``GROUPED_ONLY_MIN_N`` nodes the search with the eigenspaces grouped as the
group's characters (``_character_search``) was followed by the ungrouped search, whose
exact ladder gives on such bases dense graphs that do not fit the eigenvectors and then
runs its noisy ladders at three refit levels (``_refit_misfit``): 7.5 of the 8.9 CPU s
of ``hkn_harary_graph(5, 60)`` exact, draw 1, to end at another 120-edge Cayley graph
of the same level as the grouped search's graph. When the grouped search's graph is a
Cayley graph of the group read with equal weights, fits the eigenvectors exactly and no
set of classes with fewer edges has a singular Gram (no Cayley graph, weighted or not,
is sparser), the grouped search answers alone, as it does above ``GROUPED_ONLY_MIN_N``.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._abelian_twins import (
    MAX_NODES,
    MAX_TWINS,
    _class_weights,
    _classes,
    group_table,
)
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian

#: Sets of classes checked at most; more, and the graph is not settled (the ungrouped
#: search runs).
MAX_SETS = 50_000
#: A set of classes fits when the smallest eigenvalue of its Gram matrix, relative to
#: the largest $\|L_s\|_F^2$ of its classes, is below this (exact fits are at 1e-28 to
#: 1e-30 of it; generous: a set taken to fit only keeps the ungrouped search).
SINGULAR_GRAM = 1e-12
#: A Cayley graph of the level fits the eigenvectors when its off-diagonal part in the
#: basis is below this relative to $\|L\|_F$ (exact fits are at 1e-14).
LEVEL_FIT = 1e-9
#: Weights equal to this relative spread (the grouped search's graphs of equal weights).
EQUAL_WEIGHTS = 1e-6


def _differences(table: np.ndarray, W: sp.csr_array) -> np.ndarray:
    """The elements $y - x$ of the group ``table`` over the edges $(x, y)$ of ``W``."""
    n = table.shape[0]
    # minus[x, y] = the element s with x + s = y
    minus = np.empty((n, n), dtype=np.int64)
    rows = np.arange(n)
    minus[rows[:, None], table] = rows[None, :]
    upper = sp.triu(W, 1).tocoo()
    return np.unique(minus[upper.row, upper.col])


def sparsest_cayley(basis: dict, W: sp.csr_array) -> list[sp.csr_array] | None:
    """The other Cayley graphs of the sparsest level, when the graph of weights ``W`` is
    a Cayley graph with equal weights of the abelian group read off the exact
    eigenvectors (``group_table``) that no Cayley graph of that group with fewer edges
    and any weights $w_s \\ge 0$ on its classes shares eigenvectors with; else None.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``): combinatorial, without eigenvalue order.
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph (the grouped search's first graph, which fits
        the eigenvectors exactly).

    Returns
    -------
    list of scipy.sparse.csr_array or None
        None when no group is read, the graph is no Cayley graph of it with equal
        weights, more than ``MAX_SETS`` sets of classes would be checked, or a set of
        classes with fewer edges that generates the group (a connected graph) has a
        singular Gram matrix (``SINGULAR_GRAM``) whose null space may hold positive
        weights on all of them (``_positive_fit``). Otherwise the weights (those of
        ``W``'s mean) of the connected Cayley graphs with as many edges as ``W``, other
        edges, that fit the eigenvectors to ``LEVEL_FIT`` (the level's twins), best
        fitting first, at most ``MAX_TWINS`` or $n$.
    """
    V = basis["V"]
    n = V.shape[0]
    if basis["kind"] != "combinatorial" or basis["ordered"] or not 5 <= n <= MAX_NODES:
        return None
    W = sp.csr_array(W)
    weights = sp.triu(W, 1).data
    if weights.size == 0 or np.ptp(weights) > EQUAL_WEIGHTS * weights.max():
        return None
    lam = _diagonal_fit(V, _laplacian(W, basis))[0]
    table = group_table(V, lam)
    if table is None:
        return None
    classes = _classes(table)
    steps = _differences(table, W)
    members = [c for c in classes if np.isin(c, steps).any()]
    if not members or not np.isin(np.concatenate(members), steps).all():
        return None
    edges = sp.triu(W, 1).nnz
    if sp.triu(_class_weights(table, np.concatenate(members)), 1).nnz != edges:
        return None
    own = {int(c) for c in range(len(classes)) if np.isin(classes[c], steps).any()}
    sizes = np.array([n * c.size // 2 for c in classes])
    offs = []
    for c in classes:
        A = _class_weights(table, c)
        L = sp.diags_array(np.asarray(A.sum(axis=1)).ravel()) - A
        M = V.T @ (L @ V)
        np.fill_diagonal(M, 0.0)
        offs.append(M.ravel())
    F = np.asarray(offs)
    gram = F @ F.T
    # ||L_s||_F^2 = n (d^2 + d) for the unit weights of degree d = |{s, -s}|
    degrees = np.array([c.size for c in classes])
    norms = n * (degrees * degrees + degrees)
    level: list[tuple[float, np.ndarray]] = []
    total = 0
    for size in range(1, len(classes) + 1):
        if np.sort(sizes)[:size].sum() > edges:
            break
        total += comb(len(classes), size)
        if total > MAX_SETS:
            return None
        subsets = np.array(list(combinations(range(len(classes)), size)), dtype=np.int64)
        counts = sizes[subsets].sum(axis=1)
        fewer = subsets[counts < edges]
        if fewer.size:
            G = gram[fewer[:, :, None], fewer[:, None, :]]
            scale = norms[fewer].max(axis=1)
            values, vectors = np.linalg.eigh(G)
            for t in np.flatnonzero(values[:, 0] <= SINGULAR_GRAM * scale):
                null = vectors[t][:, values[t] <= SINGULAR_GRAM * scale[t]]
                if _positive_fit(null) and _connected(table, classes, fewer[t]):
                    return None
        same = subsets[counts == edges]
        if same.size:
            r2 = gram[same[:, :, None], same[:, None, :]].sum(axis=(1, 2))
            d = degrees[same].sum(axis=1)
            rel = np.sqrt(np.maximum(r2, 0.0) / (n * (d * d + d)))
            level += [(float(rel[t]), same[t]) for t in np.flatnonzero(rel <= LEVEL_FIT)]
    twins = []
    for _, subset in sorted(level, key=lambda item: item[0]):
        if {int(c) for c in subset} == own or not _connected(table, classes, subset):
            continue
        members = np.concatenate([classes[c] for c in subset])
        twins.append(weights.mean() * _class_weights(table, members))
        if len(twins) >= max(MAX_TWINS, n):
            break
    return twins


def _positive_fit(null: np.ndarray) -> bool:
    """Whether the null space ``null`` (orthonormal columns) of a set's Gram matrix may
    hold weights on every class of the set, all of one sign: one direction with no
    entry near 0 and all of one sign; several directions are taken to (generous)."""
    if null.shape[1] > 1:
        return True
    v = null[:, 0] * np.sign(null[np.argmax(np.abs(null[:, 0])), 0])
    return bool(np.all(v > 1e-6))


def _connected(table: np.ndarray, classes: list[np.ndarray], subset: np.ndarray) -> bool:
    """Whether the Cayley graph of the classes ``subset`` is connected."""
    A = _class_weights(table, np.concatenate([classes[c] for c in subset]))
    return connected_components(A, directed=False)[0] == 1
