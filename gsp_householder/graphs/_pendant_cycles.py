"""Two pendant paths of one length on one node, and the cycle through that node that
has their eigenvectors.

Let a node $q$ of a graph carry two pendant paths of $m \\ge 2$ nodes each,
$q - a_1 - \\dots - a_m$ and $q - b_1 - \\dots - b_m$ (the $a_i$, $b_i$ of degree 2 but
the leaves $a_m$, $b_m$), with equal weights. Swapping the two paths is an automorphism,
so the eigenvectors are symmetric or antisymmetric across them. Replace the $2m$ edges
of the two paths by the cycle $C_{2m+1}$ through $q$ that visits the nodes in the
order

$$q,\\ a_1,\\ b_2,\\ a_3,\\ \\dots \\ (\\text{$a$ at odd, $b$ at even steps up to } m),
\\ \\dots,\\ b_3,\\ a_2,\\ b_1$$

(step $c \\le m$ goes to path position $(-1)^c c$, step $c > m$ to $(-1)^{c'+1} c'$
with $c' = 2m + 1 - c$; negative positions are the $a$, positive ones the $b$). The
graph so made has one edge more, equal weights, and the same eigenvectors: its Laplacian
commutes with the first one (checked to rounding on the tadpoles $(5, 6)$, $(7, 5)$,
$(9, 4)$ and on every such pair of `random_labeled_tree` of 60 to 200 nodes, seeds 0-8).
For $m = 1$ the cycle is a triangle: the edge between two sibling leaves (twins).

So exact eigenvectors do not tell a tree with two pendant paths of $m$ nodes on one node
from the graph with those paths closed into a cycle: `tadpole_graph(2m + 1, k)` is the
closed form of a spider with legs $m$, $m$ and $k$, and `infer_laplacian` returns the
spider (the sparsest). The same choice is made, rightly, on every random tree with such
a pair of legs (two pendant paths of two nodes are common: 5 nodes of 100 in
`random_labeled_tree(100, seed=8)`). When the searches end at the closed form, the
cycle is opened (``pendant_odd_cycles``, ``opened_cycle``, ``opened_pendant_cycles``:
the inverse of the closing, kept when the opened graph fits as well). No rule on the
eigenvectors can tell the two cases apart, so the cycles are listed among the
candidates (``pendant_cycles``) and not warned of, as sibling leaves are not (section
"Cliques hanging off one node" of the docs).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import itertools

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._laplacian_fit import _residuals
from gsp_householder.graphs._twin_cliques import fits_as_well


def pendant_path_pairs(W) -> list[tuple[int, list[int], list[int]]]:
    """Every pair of pendant paths of one length $m \\ge 2$ on one node of the graph of
    weights ``W`` (symmetric, sparse): ``(q, a, b)``, with ``a`` and ``b`` the paths'
    nodes from the one next to ``q`` to the leaf.

    A pendant path runs from a leaf through nodes of degree 2 to a node ``q`` of degree
    at least 3 (a graph that is a path has none).

    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1), (1, 2), (0, 3), (3, 4), (0, 5)])
    >>> pendant_path_pairs(nx.to_scipy_sparse_array(G, nodelist=range(6)))
    [(0, [1, 2], [3, 4])]
    """
    A = sp.csr_array(W)
    degree = np.diff(A.indptr)
    legs: dict[tuple[int, int], list[list[int]]] = {}
    for leaf in np.flatnonzero(degree == 1).tolist():
        path, previous, node = [leaf], -1, leaf
        while True:
            step = [
                u for u in A.indices[A.indptr[node] : A.indptr[node + 1]].tolist() if u != previous
            ]
            previous, node = node, step[0]
            if degree[node] != 2:
                break
            path.append(node)
        if degree[node] >= 3 and len(path) >= 2:
            legs.setdefault((node, len(path)), []).append(path[::-1])
    return [
        (q, a, b)
        for (q, _), paths in sorted(legs.items())
        for a, b in itertools.combinations(paths, 2)
    ]


def cycle_order(q: int, a: list[int], b: list[int]) -> list[int]:
    """The nodes of the cycle through ``q`` that closes the pendant paths ``a`` and
    ``b`` (each from the node next to ``q`` to the leaf), in the order the module's
    docstring gives.

    >>> cycle_order(0, [1, 2], [3, 4])
    [0, 1, 4, 2, 3]
    """
    m = len(a)
    order = [q]
    for c in range(1, 2 * m + 1):
        position = (-1) ** c * c if c <= m else (-1) ** (2 * m + 2 - c) * (2 * m + 1 - c)
        order.append(a[-position - 1] if position < 0 else b[position - 1])
    return order


def closed_pair(W, q: int, a: list[int], b: list[int]) -> sp.csr_array:
    """The weights ``W`` with the pendant paths ``a`` and ``b`` on ``q`` replaced by the
    cycle of ``cycle_order``, every edge of it at the paths' mean weight."""
    W = sp.lil_array(sp.csr_array(W, dtype=float))
    old = [*zip([q, *a[:-1]], a, strict=True), *zip([q, *b[:-1]], b, strict=True)]
    weight = float(np.mean([W[i, j] for i, j in old]))
    for i, j in old:
        W[i, j] = W[j, i] = 0.0
    order = cycle_order(q, a, b)
    for i, j in zip(order, order[1:] + order[:1], strict=True):
        W[i, j] = W[j, i] = weight
    W = sp.csr_array(W)
    W.eliminate_zeros()
    return W


def pendant_cycles(basis, W, noise: float) -> list[sp.csr_array]:
    """The graphs made from the graph of weights ``W`` by closing one pair of its
    pendant paths into a cycle (``pendant_path_pairs``, ``closed_pair``), both ways
    round (the paths swapped), that fit the eigenvectors as well as ``W``
    (`_twin_cliques.fits_as_well`: to rounding at no ``noise``, else at ``noise``).
    ``W`` has equal weights (the caller checks)."""
    pairs = pendant_path_pairs(W)
    if not pairs:
        return []
    reference = None if noise <= 0.0 else _residuals(basis, W)
    out = []
    for q, a, b in pairs:
        for first, second in ((a, b), (b, a)):
            A = closed_pair(W, q, first, second)
            if fits_as_well(basis, A, reference, noise):
                out.append(A)
    return out


def _cycle_positions(m: int) -> list[tuple[int, int]]:
    """For each step $c = 1, \\dots, 2m$ of ``cycle_order``, the path (0 for ``a``, 1 for
    ``b``) and the index on it of the node visited."""
    out = []
    for c in range(1, 2 * m + 1):
        position = (-1) ** c * c if c <= m else (-1) ** (2 * m + 2 - c) * (2 * m + 1 - c)
        out.append((0, -position - 1) if position < 0 else (1, position - 1))
    return out


def pendant_odd_cycles(W) -> list[tuple[int, list[int]]]:
    """Every cycle of $2m + 1 \\ge 5$ nodes hanging off one node $q$ of the graph of
    weights ``W`` (symmetric, sparse): ``(q, order)``, with ``order`` the cycle's other
    nodes, all of degree 2, from a neighbour of ``q`` round to the other, and ``q`` of
    degree at least 3.

    >>> import networkx as nx
    >>> pendant_odd_cycles(nx.to_scipy_sparse_array(nx.tadpole_graph(5, 2)))
    [(4, [0, 1, 2, 3])]
    """
    A = sp.csr_array(W)
    degree = np.diff(A.indptr)
    chain = np.flatnonzero(degree == 2)
    if chain.size < 4:
        return []
    inner = A[chain][:, chain]
    count, label = connected_components(inner, directed=False)
    out = []
    for component in range(count):
        nodes = chain[label == component]
        if nodes.size < 4 or nodes.size % 2:
            continue
        inside = set(nodes.tolist())
        outside = [
            (node, u)
            for node in nodes.tolist()
            for u in A.indices[A.indptr[node] : A.indptr[node + 1]].tolist()
            if u not in inside
        ]
        if len(outside) != 2 or outside[0][1] != outside[1][1] or degree[outside[0][1]] < 3:
            continue
        q, (start, end) = outside[0][1], (outside[0][0], outside[1][0])
        order, previous = [start], q
        while order[-1] != end:
            node = order[-1]
            step = [
                u for u in A.indices[A.indptr[node] : A.indptr[node + 1]].tolist() if u != previous
            ]
            previous = node
            order.append(step[0])
        out.append((int(q), [int(u) for u in order]))
    return out


def opened_cycle(W, q: int, order: list[int]) -> sp.csr_array:
    """The weights ``W`` with the cycle through ``q`` of the other nodes ``order``
    (``pendant_odd_cycles``) replaced by the two pendant paths on ``q`` it closes
    (``closed_pair``'s inverse), every edge of them at the cycle's mean weight.

    >>> import networkx as nx
    >>> W = nx.to_scipy_sparse_array(nx.tadpole_graph(5, 2), dtype=float)
    >>> sorted(nx.from_scipy_sparse_array(opened_cycle(W, 4, [0, 1, 2, 3])).edges)
    [(0, 2), (0, 4), (1, 3), (3, 4), (4, 5), (5, 6)]
    """
    m = len(order) // 2
    paths: tuple[list[int], list[int]] = ([0] * m, [0] * m)
    for node, (path, index) in zip(order, _cycle_positions(m), strict=True):
        paths[path][index] = node
    W = sp.lil_array(sp.csr_array(W, dtype=float))
    ring = list(zip([q, *order], [*order, q], strict=True))
    weight = float(np.mean([W[i, j] for i, j in ring]))
    for i, j in ring:
        W[i, j] = W[j, i] = 0.0
    for path in paths:
        for i, j in zip([q, *path[:-1]], path, strict=True):
            W[i, j] = W[j, i] = weight
    W = sp.csr_array(W)
    W.eliminate_zeros()
    return W


def opened_pendant_cycles(basis, W, noise: float) -> tuple[sp.csr_array, int] | None:
    """The graph of weights ``W`` with every pendant odd cycle (``pendant_odd_cycles``)
    opened (``opened_cycle``) whose opening fits the eigenvectors as well as ``W``
    (`_twin_cliques.fits_as_well`: to rounding at no ``noise``, else at ``noise``), and
    the number of cycles opened; None when none is. ``W`` has equal weights (the caller
    checks); each opening takes one edge out."""
    cycles = pendant_odd_cycles(W)
    if not cycles:
        return None
    reference = None if noise <= 0.0 else _residuals(basis, W)
    opened = 0
    for q, order in cycles:
        A = opened_cycle(W, q, order)
        if fits_as_well(basis, A, reference, noise):
            W, opened = A, opened + 1
    return (W, opened) if opened else None
