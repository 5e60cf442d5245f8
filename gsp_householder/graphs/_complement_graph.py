"""The complement of a graph: whether it is connected, and its Laplacian on demand.

An unweighted graph and its complement share their eigenvectors: with $L$ the
Laplacian of the graph, $nI - J - L$ is the complement's, and both are diagonal in
every basis that diagonalises $L$ and holds the constant vector. The inference reports
it for every equal-weight answer whose complement is connected
(``InferredLaplacian.complement_twin``); these two functions serve that report without
forming an $n \\times n$ matrix unless the complement is asked for; a third,
``complement_residuals``, tells how well the complement fits noisy eigenvectors, for the
graphs whose weights are equal to no level the inference knows.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import _rotated_parts

__all__ = ["complement_connected", "complement_laplacian", "complement_residuals"]


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


def complement_residuals(V, W) -> tuple[float, float]:
    """``_residuals`` (residual, rotation residual) of the complement of the graph of
    ``W`` with unit weights, in the basis ``V``, without forming its $n \\times n$
    Laplacian.

    With $A$ the unit-weight adjacency of the edges of ``W``, $L_A$ its Laplacian and
    $a = V^T \\mathbf 1$, the complement's Laplacian is $nI - J - L_A$ (times a scale,
    which neither residual sees), so $V^T (nI - J - L_A) V = nI - a a^T - X$ with
    $X = V^T L_A V$: its off-diagonal part has the squared norm
    $\\|\\mathrm{off}\\,X\\|^2 - 2 \\sum_i X_{ii} a_i^2 + \\sum_{i \\ne j} a_i^2 a_j^2$
    ($a^T X a = \\mathbf 1^T L_A \\mathbf 1 = 0$), and its Frobenius norm is
    $\\sum_i (n - 1 - d_i)^2$ plus the complement's $2 \\binom n2 - 2m$ unit entries:
    $O(mn)$ work for $m$ edges, as for the graph itself. For a $d$-regular graph the
    normalized complement $I - (J - I - A)/(n - 1 - d)$ is the same matrix divided by
    $n - 1 - d$, with the same residuals.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthogonal: the eigenvectors as given (``basis["V"]``).
    W : scipy sparse array of shape (n, n)
        Symmetric weights; their nonzero off-diagonal entries are the edges.

    Returns
    -------
    tuple of float
        The residual relative to the Frobenius norm of the complement's Laplacian and
        relative to the spread of its spectrum, as ``_residuals`` gives for that
        Laplacian (up to rounding).
    """
    A = sp.csr_array(sp.triu(sp.csr_array(W), 1))
    A.eliminate_zeros()
    A.data[:] = 1.0
    A = sp.csr_array(A + A.T)
    n = A.shape[0]
    d = np.asarray(A.sum(axis=1)).ravel()
    x, off_x = _rotated_parts(V, sp.csr_array(sp.diags_array(d) - A))
    a2 = V.sum(axis=0) ** 2
    c = int(np.argmax(a2))
    rest = np.delete(a2, c)
    # sum over i != j of a_i^2 a_j^2, the large a_c^2 kept apart (no cancellation)
    aa2 = 2.0 * a2[c] * rest.sum() + rest.sum() ** 2 - float(rest @ rest)
    off = float(np.sqrt(max(off_x**2 - 2.0 * float(x @ a2) + aa2, 0.0)))
    lam = n - a2 - x
    norm = float(np.sqrt(np.sum((n - 1 - d) ** 2) + n * (n - 1) - d.sum()))
    spread = float(np.sqrt(lam.size * np.sum((lam - lam.mean()) ** 2)))
    return (off / norm if norm > 0 else 0.0), (off / spread if spread > 0 else np.inf)
