"""Tori that share their eigenvectors with a relabelled copy of themselves.

The torus $C_a \\square C_b$ on nodes $(x, y)$ has the eigenspaces spanned by the
Fourier modes $(\\pm k, \\pm l)$, $e^{2 \\pi i (kx/a + ly/b)}$, joined where eigenvalues
coincide. For $q$ coprime to $a$ and $r$ coprime to $b$ the relabelling
$(x, y) \\mapsto (qx \\bmod a, ry \\bmod b)$ maps the modes $(\\pm k, \\pm l)$ to
$(\\pm q^{-1} k, \\pm r^{-1} l)$: the relabelled torus (another torus, a twin) is
constant on every span of such modes, and has the eigenvectors of the first whenever
no eigenvalue of the first joins spans that the twin keeps apart (its fit decides).
These multipliers, taken up to sign, form a group: the twins of a twin hold the torus
it came from, so listing every one puts the truth among the candidates.

Measured before this module (``bench_lattices.py --kinds torus --input perturbed``,
draws 0-2): a twin torus was returned, warned of through the other candidates found by
the searches, but the truth was often not among them (``PyGSP Torus(7, 9)`` perturbed,
draw 0: F1 0, 9 tied candidates, not the truth).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from itertools import product
from math import gcd

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._grid_twins import fitting_twins, known_edges, relabelled_source
from gsp_householder.graphs._template_lp import edge_key

#: Shortest side read (``torus_coordinates``): on a side of 3 or 4 nodes the lines
#: are not told from the squares by common neighbours.
MIN_SIDE = 5


def cycle_multipliers(s: int) -> list[int]:
    """Every multiplier $2 \\le q \\le s / 2$ coprime to ``s``: each relabels the cycle
    $C_s$ into a twin, $q$ and $s - q$ the same one up to the reflection.

    Examples
    --------
    >>> cycle_multipliers(9)
    [2, 4]
    """
    return [q for q in range(2, s // 2 + 1) if gcd(q, s) == 1]


def _straight_on(nbrs, previous: int, node: int) -> int | None:
    """The neighbour of ``node`` opposite ``previous`` (no common neighbour with it but
    ``node``), when there is exactly one."""
    ahead = [m for m in nbrs[node] if m != previous and len(nbrs[m] & nbrs[previous]) == 1]
    return ahead[0] if len(ahead) == 1 else None


def _line(nbrs, start: int, first: int) -> list[int] | None:
    """The nodes met going straight from ``start`` through ``first`` back to ``start``."""
    line, previous, node = [start], start, first
    while node != start:
        if len(line) > len(nbrs):
            return None
        line.append(node)
        nxt = _straight_on(nbrs, previous, node)
        if nxt is None:
            return None
        previous, node = node, nxt
    return line


def torus_coordinates(W) -> tuple[int, int, np.ndarray] | None:
    """``(a, b, xy)`` when the graph of weights ``W`` is the torus $C_a \\square C_b$
    ($a \\le b$, both at least ``MIN_SIDE``), ``xy[i]`` the coordinates of node ``i``;
    else None.

    Every node has four neighbours in two opposite pairs (opposite neighbours share
    no other neighbour); the lines through node 0 give the sides, each further row is
    the common neighbours of the row before and of its first node's continuation, and
    the coordinates are checked to give back exactly the graph's edges.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(5, 7, periodic=True))
    >>> torus_coordinates(nx.to_scipy_sparse_array(G))[:2]
    (5, 7)
    """
    W = sp.csr_array(W)
    n = W.shape[0]
    if n < MIN_SIDE**2 or W.nnz != 4 * n or np.any(np.diff(W.indptr) != 4):
        return None
    nbrs = [set(W.indices[W.indptr[i] : W.indptr[i + 1]].tolist()) for i in range(n)]
    first = min(nbrs[0])
    across = _straight_on(nbrs, first, 0)
    if across is None:
        return None
    side = [m for m in nbrs[0] if m not in (first, across)]
    line_x, line_y = _line(nbrs, 0, first), _line(nbrs, 0, side[0])
    if line_x is None or line_y is None or len(line_x) * len(line_y) != n:
        return None
    a, b = len(line_x), len(line_y)
    if min(a, b) < MIN_SIDE:
        return None
    grid = np.full((a, b), -1, dtype=np.int64)
    grid[:, 0], grid[0, :] = line_x, line_y
    for y in range(1, b):
        for x in range(1, a):
            common = (nbrs[grid[x, y - 1]] & nbrs[grid[x - 1, y]]) - {grid[x - 1, y - 1]}
            if len(common) != 1:
                return None
            grid[x, y] = common.pop()
    if np.unique(grid).size != n:
        return None
    xy = np.empty((n, 2), dtype=np.int64)
    xy[grid.ravel()] = np.column_stack(np.unravel_index(np.arange(n), (a, b)))
    if edge_key(sp.triu(torus_weights(a, b, xy), 1)) != edge_key(sp.triu(W, 1)):
        return None
    return (a, b, xy) if a <= b else (b, a, xy[:, ::-1].copy())


def torus_weights(a: int, b: int, xy) -> sp.csr_array:
    """Unit weights of the torus $C_a \\square C_b$ on nodes at coordinates ``xy``."""
    n = a * b
    where = np.empty(n, dtype=np.int64)
    where[xy[:, 0] * b + xy[:, 1]] = np.arange(n)
    grid = where.reshape(a, b)
    rows = np.concatenate([grid.ravel(), grid.ravel()])
    cols = np.concatenate([np.roll(grid, -1, axis=0).ravel(), np.roll(grid, -1, axis=1).ravel()])
    upper = sp.coo_array((np.ones(rows.size), (rows, cols)), shape=(n, n))
    return sp.csr_array(upper + upper.T)


def torus_twins(basis, W, candidates, noise: float = 0.0) -> list[sp.csr_array]:
    """Laplacians of the torus of weights ``W`` (with equal weights as ``grid_twins``
    asks them) relabelled by multipliers of its sides (``cycle_multipliers``, each
    side's identity or any of them, not both identities) that fit the eigenvectors as
    well (``_fits_as_well`` of ``twin_residuals``) and whose edges are neither ``W``'s
    nor those of one of the Laplacians ``candidates``; empty when ``W`` is no torus.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph returned.
    candidates : list of scipy.sparse.csr_array
        The Laplacians already among the result's candidates.
    noise : float
        The noise level the graph was found at; 0 for exact eigenvectors.

    Returns
    -------
    list of scipy.sparse.csr_array
    """
    W = sp.csr_array(W)
    weights = sp.triu(W, 1).data
    torus = torus_coordinates(W) if weights.size else None
    if torus is None:
        return []
    source = relabelled_source(basis, W, noise)
    if source is None:
        return []
    W, reference = source
    a, b, xy = torus
    seen = known_edges(candidates, W)
    relabelled = (torus_weights(a, b, np.column_stack([(q * xy[:, 0]) % a, (r * xy[:, 1]) % b]))
                  for q, r in product([1, *cycle_multipliers(a)], [1, *cycle_multipliers(b)])
                  if not q == r == 1)
    return fitting_twins(basis, relabelled, reference, seen)
