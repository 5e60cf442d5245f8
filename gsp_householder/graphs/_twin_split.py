"""Heavy edges read as twins: a pair of unjoined nodes whose difference is a column.

A weighted cycle with a few heavy edges (PyGSP ``RandomRing``: weights 0.1 to 90 and
more) has, for each heavy edge $(i, j)$, an eigenvector close to $(e_i - e_j) / \\sqrt 2$
with a large eigenvalue. A noisy search can return a graph in which $i$ and $j$ are
not joined but share their neighbours (twins: the column's eigenvalue is then free, and
the graph without the edge is sparser among the twin graphs): it holds the pairs at
distance 2 around the heavy edge in its place, two wrong edges and one missed for each
such edge. The split reads the edge back: for each pair of unjoined nodes that carries a
column of the eigenvectors (a share of at least ``MIN_COS`` squared of its squared norm
on the two, of opposite signs), the pair is joined and each neighbour the two share
keeps its edge to one of them or to both: of the choices whose refitted graph
(``_edge_test_descent.anchored_fit``) fits better in rotation residual (``_residuals``)
than the graph before, the one of fewest edges is taken (the lowest rotation residual
among those). The edge-test descent (``_edge_test_descent``) then starts from the graph
split, and its end is taken when it has no more edges than that graph (on a weighted
cycle with heavy edges the missing-edges test can flag pairs that are no edges of the
cycle, and the descent add them). The caller compares the fit and the size of what it
ends at with the graph found.

Perturbed PyGSP ``RandomRing(160, seed=6)`` (draw 0 of ``bench_inference.py
--pygsp``; 1e-3): 174 edges returned (F1 0.928), five heavy edges read as twins; the
graph returned has 162 edges (F1 0.994), rotation residual 7.80e-5 against 9.61e-5
(the ring's 7.82e-5).
"""

from __future__ import annotations

import itertools

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._basis_input import MIN_COS
from gsp_householder.graphs._edge_set_fits import EdgeSetFits
from gsp_householder.graphs._edge_test_descent import anchored_fit, edge_test_descent
from gsp_householder.graphs._laplacian_fit import _residuals

#: Most neighbours shared by a pair that the split tries the choices of ($3^k$ fits).
MAX_SHARED = 4

#: Rotation residuals of two choices within this share of each other are compared as
#: fitted for the graph taken (an updated Gram's fit differs from that fit by up to
#: 1e-9 of the residual on the rings and sensor networks measured).
NEAR = 1e-7


def twin_pairs(V, W) -> list[tuple[int, int]]:
    """The pairs $(i, j)$, $i < j$, not joined in the graph of weights ``W``, on which a
    column of ``V`` has at least ``MIN_COS`` squared of its squared norm, with entries
    of opposite signs (the column is their difference to cosine ``MIN_COS``)."""
    V = np.asarray(V)
    W = sp.csr_array(W)
    pairs = set()
    for k in range(V.shape[1]):
        column = V[:, k]
        i, j = sorted(int(t) for t in np.argsort(column**2)[-2:])
        share = (column[i] ** 2 + column[j] ** 2) / float(column @ column)
        if share >= MIN_COS**2 and column[i] * column[j] < 0.0 and W[i, j] == 0.0:
            pairs.add((i, j))
    return sorted(pairs)


def _fit(basis, edges) -> sp.csr_array:
    rows, cols = zip(*sorted(edges), strict=True)
    return anchored_fit(basis, np.array(rows), np.array(cols))


def _choices(edges, i: int, j: int, shared):
    """Each choice of the split of ``(i, j)`` over its ``shared`` neighbours, in the order
    of ``itertools.product``: the pairs it adds to ``edges`` and those it takes out."""
    join = [] if (i, j) in edges else [(i, j)]
    for choice in itertools.product((0, 1, 2), repeat=len(shared)):
        removed = []
        for k, keep in zip(shared, choice, strict=True):
            if keep == 1:
                removed.append((min(j, k), max(j, k)))
            elif keep == 2:
                removed.append((min(i, k), max(i, k)))
        yield join, [pair for pair in removed if pair in edges]


def _near(a: float, b: float) -> bool:
    """Whether ``a`` and ``b`` are within ``NEAR`` of each other, relative to ``b``."""
    return abs(a - b) <= NEAR * abs(b)


def twin_split(basis, W) -> sp.csr_array | None:
    """The weights of the graph the split of the module docstring ends at (or the
    edge-test descent after it, when no denser), from the graph of weights ``W``; None
    when no pair is split (no pair of ``twin_pairs`` with at most ``MAX_SHARED`` shared
    neighbours has a split that fits better).

    The choices of a pair are fitted from the pair Gram of the graph before, updated
    (``_edge_set_fits``); a choice whose rotation residual comes within ``NEAR`` of the
    one it is compared with (the graph before's, or the best choice's of as many edges)
    is fitted again as the graph taken is (``_edge_test_descent.anchored_fit``), so is
    the choice taken."""
    W = sp.csr_array(W, copy=True)
    W.eliminate_zeros()
    upper = sp.triu(W, 1).tocoo()
    edges = set(zip(upper.row.tolist(), upper.col.tolist(), strict=True))
    neighbours = [set(W.indices[W.indptr[a] : W.indptr[a + 1]].tolist()) for a in range(W.shape[0])]
    current, fitted = _exact(basis, edges, [], [])
    split, fits = False, None
    for i, j in twin_pairs(basis["V"], W):
        shared = sorted(neighbours[i] & neighbours[j])
        if len(shared) > MAX_SHARED:
            continue
        fits = EdgeSetFits(basis, edges) if fits is None else fits
        # (edges, rotation, added, removed, fitted as the graph taken, its weights)
        best = None
        for added, removed in _choices(edges, i, j, shared):
            size = len(edges) + len(added) - len(removed)
            A = fits.fit(added, removed)
            if A is None:
                (rotation, A), exact = _exact(basis, edges, added, removed), True
            else:
                rotation, exact = _residuals(basis, A)[1], False
            same = best is not None and size == best[0]
            if not exact and (_near(rotation, current) or (same and _near(rotation, best[1]))):
                (rotation, A), exact = _exact(basis, edges, added, removed), True
                if same and not best[4]:
                    refit, B = _exact(basis, edges, best[2], best[3])
                    best = (best[0], refit, best[2], best[3], True, B)
            if rotation < current and (best is None or (size, rotation) < best[:2]):
                best = (size, rotation, added, removed, exact, A)
        if best is not None:
            trial = (edges | set(best[2])) - set(best[3])
            current, fitted = (best[1], best[5]) if best[4] else _exact(basis, trial, [], [])
            edges, split, fits = trial, True, None
    if not split:
        return None
    descended = edge_test_descent(basis, fitted)
    if descended is None or sp.triu(descended, 1).nnz > len(edges):
        return fitted
    return descended


def _exact(basis, edges, added, removed) -> tuple[float, sp.csr_array]:
    """The rotation residual (``_residuals``) and the weights of the `_fit` of ``edges``
    with the pairs ``added`` and without those ``removed``."""
    A = _fit(basis, (edges | set(added)) - set(removed))
    return _residuals(basis, A)[1], A
