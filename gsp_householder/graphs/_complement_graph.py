"""The complement of a graph: whether it is connected, and its Laplacian on demand.

An unweighted graph and its complement share their eigenvectors: with $L$ the
Laplacian of the graph, $nI - J - L$ is the complement's, and both are diagonal in
every basis that diagonalises $L$ and holds the constant vector. The inference reports
it for every equal-weight answer whose complement is connected
(``InferredLaplacian.complement_twin``); these two functions serve that report without
forming an $n \\times n$ matrix unless the complement is asked for.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

__all__ = ["complement_connected", "complement_laplacian"]


def complement_connected(W) -> bool:
    """Whether the complement of the graph with adjacency (or weights) ``W`` is connected.

    A breadth-first search on the complement that keeps the set of nodes not reached:
    each node taken out of the queue reaches every such node that is not its neighbour
    in ``W``. Every node left unreached at a step is a neighbour of the node taken, so
    the work is $O(n + m)$ for $m$ edges and no dense matrix is formed.

    Parameters
    ----------
    W : scipy sparse array or array_like of shape (n, n)
        Symmetric; its nonzero off-diagonal entries are the edges (stored zeros are
        not).

    Returns
    -------
    bool
        True for one node, or when the complement has a single connected component.

    Examples
    --------
    >>> import networkx as nx
    >>> complement_connected(nx.to_scipy_sparse_array(nx.cycle_graph(5)))
    True
    >>> complement_connected(nx.to_scipy_sparse_array(nx.complete_bipartite_graph(2, 3)))
    False
    """
    A = sp.csr_array(W, copy=True)
    A.eliminate_zeros()  # a stored zero is no edge
    n = A.shape[0]
    unreached = set(range(1, n))
    queue = [0]
    while queue and unreached:
        u = queue.pop()
        neighbours = set(A.indices[A.indptr[u] : A.indptr[u + 1]].tolist())
        reached = [v for v in unreached if v not in neighbours]
        unreached.difference_update(reached)
        queue.extend(reached)
    return not unreached


def complement_laplacian(L, kind: str = "combinatorial") -> sp.csr_array:
    """The Laplacian of the complement of the graph of ``L``, with unit weights.

    With $A$ the adjacency of the edges of ``L`` (its nonzero off-diagonal entries) and
    $C = J - I - A$ that of the complement, $D_C$ its degrees: for a combinatorial
    ``L``, $t\\,(D_C - C)$, $t$ such that its trace is that of ``L`` (for an
    equal-weight ``L`` this is $c(nI - J) - L$ at the scale of ``L``, the inference's
    trace ``n * scale``); for a normalized one, $I - D_C^{-1/2} C D_C^{-1/2}$
    ($I - C/(n - 1 - d)$ for a $d$-regular graph). Either has the eigenvectors of ``L``
    when ``L`` has equal weights (and is regular, if normalized) and the complement is
    connected.

    Parameters
    ----------
    L : scipy sparse array or array_like of shape (n, n)
        A Laplacian that is not that of the complete graph.
    kind : {"combinatorial", "normalized"}, default "combinatorial"
        The type of ``L`` and of the result.

    Returns
    -------
    scipy.sparse.csr_array of shape (n, n)
        Dense in its pattern: the complement of a sparse graph holds most pairs.

    Raises
    ------
    ValueError
        If ``L`` is the Laplacian of the complete graph (its complement has no edge),
        or, normalized, the complement has an isolated node.
    """
    L = sp.csr_array(L)
    n = L.shape[0]
    edges = sp.triu(L, 1).tocoo()
    keep = edges.data != 0
    adjacent = np.zeros((n, n), dtype=bool)
    adjacent[edges.row[keep], edges.col[keep]] = True
    C = ~(adjacent | adjacent.T)
    np.fill_diagonal(C, False)
    degrees = C.sum(axis=1).astype(float)
    if not degrees.any():
        raise ValueError("the graph is complete: its complement has no edge")
    if kind == "normalized":
        if not degrees.all():
            raise ValueError("the complement has an isolated node: no normalized Laplacian")
        s = 1.0 / np.sqrt(degrees)
        return sp.csr_array(np.eye(n) - C * np.outer(s, s))
    Lc = np.diag(degrees) - C
    return sp.csr_array(Lc * (float(L.diagonal().sum()) / float(degrees.sum())))
