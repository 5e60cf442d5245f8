"""The paths whose quadratic $4L - L^2$ is a given cycle: a cycle unfolded.

The Laplacian $L$ of the path $p_0, p_1, \\dots, p_{n-1}$ (unit weights, degrees 1 at
its ends and 2 inside) gives $4L - L^2$ zero on the path's inner edges
($4 \\cdot (-1) + (d_j + d_{j+1}) = 0$), $-1$ on its two end edges ($-4 + 3$) and on
the pairs at distance 2, and $2$ on the diagonal ($4 d - d^2 - d$): the Laplacian of
the cycle $p_0, p_1, p_3, p_5, \\dots, p_4, p_2$ with unit weights (the path folded at
its middle). Both share every eigenvector of $L$: a basis of the path's eigenvectors
is one of that cycle's, and the search of a constant-diagonal family (which holds
regular graphs, not paths) can end at that cycle, one edge more than the path that
fits the eigenvectors as well.

Conversely, a path whose quadratic is a given cycle $c_0, \\dots, c_{n-1}$ is fixed by
the cycle's edge that is its end edge and the end node: from $p_0 = c_i$,
$p_1 = c_{i+1}$ it alternates forward and backward along the cycle,
$p_{2m} = c_{i-m}$, $p_{2m+1} = c_{i+1+m}$ (indices mod $n$). ``unfolded_paths`` lists
these $2n$ paths (each twice over its two ends when it is its own reversal: listed
once). Which of them has the eigenvectors (the cycle's eigenspaces are planes, and the
path splits them) is the fit's to say: the caller checks each.

Measured: ``nx.path_graph(8)`` draw 6 and ``path_graph(9)`` draw 10 perturbed by 1e-3
(``benchmarks/bench_inference.py``'s inputs) returned such a cycle with no warning: the
spanning-tree search (``_tree_search.search_tree``) stalled at misfits 6.5 to 9.7 from
every start, while an unfolded path fits the eigenvectors at the family's noise level.

A cycle with equal weights judged at a noise level can be such a quadratic too
(``path_graph(11)`` perturbed, draws 8 and 11: the cycle, 11 edges for 10).
``path_at_own_noise`` returns the first unfolded path that fits the eigenvectors at
the noise its own non-edges show (``_own_noise.own_noise``: its residual within
``RESIDUAL_CONSISTENT`` times the one that noise predicts) when that noise is within
``RESIDUAL_CONSISTENT`` times the noise the cycle's non-edges show, the comparison
``_fitting_tree.tree_at_own_noise`` makes of a tree and a denser graph: the path that
shares the eigenvectors fits as the cycle does (ratios 0.8 to 1.3), a wrong one leaves
600 to 900 times the cycle's residual.

Exact eigenvectors can end the searches at the cycle too (`path_graph(100)`, draws 0
and 1: the constant-diagonal family of dimension 50 gives the cycle, 100 edges, and
no search reaches a path): ``exact_unfolded_path`` returns the first unfolded path
that fits them to rounding (``FITS_EXACTLY``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import _residuals
from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._thresholds import FITS_EXACTLY, RESIDUAL_CONSISTENT


def cycle_order(W) -> np.ndarray | None:
    """The nodes of the graph of weights ``W`` in their order along it when it is one
    cycle through all of its nodes (every degree 2, connected, at least 4 nodes); else
    None.

    Examples
    --------
    >>> import networkx as nx
    >>> W = nx.to_scipy_sparse_array(nx.cycle_graph([0, 2, 1, 3]), nodelist=range(4))
    >>> cycle_order(W).tolist()
    [0, 2, 1, 3]
    """
    W = sp.csr_array(W)
    n = W.shape[0]
    if n < 4 or np.any(np.diff(W.indptr) != 2):
        return None
    order, previous, node = [0], -1, 0
    for _ in range(n - 1):
        a, b = W.indices[W.indptr[node] : W.indptr[node + 1]]
        previous, node = node, int(b if a == previous else a)
        if node == 0:
            return None
        order.append(node)
    return np.asarray(order) if len(set(order)) == n else None


def unfolded_paths(W) -> list[sp.csr_array]:
    """The paths (unit weights) whose Laplacian $L$ gives $4L - L^2$ the Laplacian of
    the cycle of weights ``W`` with unit weights (module docstring), when ``W`` is one
    cycle through all its nodes (``cycle_order``); else an empty list.

    Parameters
    ----------
    W : sparse array
        Symmetric weights on ``n`` nodes.

    Returns
    -------
    list of scipy.sparse.csr_array
        The distinct paths, each with unit weights.

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> P = nx.laplacian_matrix(nx.path_graph(6)).toarray().astype(float)
    >>> C = -(4 * P - P @ P)
    >>> np.fill_diagonal(C, 0.0)
    >>> paths = unfolded_paths(sp.csr_array(C))
    >>> any((sp.triu(T, 1) != sp.triu(-sp.csr_array(P), 1)).nnz == 0 for T in paths)
    True
    """
    order = cycle_order(W)
    if order is None:
        return []
    n = order.size
    m = np.arange(n)
    # p_{2m} = c_{i - m}, p_{2m + 1} = c_{i + 1 + m}: position k of the path on the cycle
    steps = np.where(m % 2 == 0, -(m // 2), 1 + m // 2)
    seen, paths = set(), []
    for start in range(n):
        for direction in (1, -1):
            nodes = order[(start + direction * steps) % n]
            key = min(tuple(nodes), tuple(nodes[::-1]))
            if key in seen:
                continue
            seen.add(key)
            ones = np.ones(n - 1)
            upper = sp.coo_array((ones, (nodes[:-1], nodes[1:])), shape=(n, n))
            paths.append(sp.csr_array(upper + upper.T))
    return paths


def path_at_own_noise(basis, W) -> sp.csr_array | None:
    """The first path of ``unfolded_paths(W)`` (``W`` a cycle, found at a noise level)
    whose rotation residual is within ``RESIDUAL_CONSISTENT`` times the one the noise of
    its own non-edges predicts, that noise within ``RESIDUAL_CONSISTENT`` times the
    noise the non-edges of ``W`` show (``_own_noise.own_noise``); else None (module
    docstring).

    Parameters
    ----------
    basis : dict
        The inference's basis (``"V"``, ``"kind"``, ``"scale"``).
    W : sparse array
        Symmetric weights of the graph found.

    Returns
    -------
    scipy.sparse.csr_array or None
        Unit weights of the path.
    """
    paths = unfolded_paths(W)
    if not paths:
        return None
    sigma = own_noise(basis, W)[0]
    for path in paths:
        path_sigma, ratio = own_noise(basis, path)
        if ratio <= RESIDUAL_CONSISTENT and path_sigma <= RESIDUAL_CONSISTENT * sigma:
            return path
    return None


def exact_unfolded_path(basis, W) -> sp.csr_array | None:
    """The first path of ``unfolded_paths(W)`` (``W`` a cycle that fits exact
    eigenvectors) that fits the eigenvectors to ``FITS_EXACTLY`` too; else None.

    Parameters
    ----------
    basis : dict
        The inference's basis (``"V"``, ``"kind"``, ``"scale"``).
    W : sparse array
        Symmetric weights of the graph found.

    Returns
    -------
    scipy.sparse.csr_array or None
        Unit weights of the path.

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> V = np.linalg.eigh(nx.laplacian_matrix(nx.path_graph(7)).toarray())[1]
    >>> C = nx.to_scipy_sparse_array(nx.cycle_graph([0, 1, 3, 5, 6, 4, 2]), nodelist=range(7))
    >>> path = exact_unfolded_path({"V": V, "kind": "combinatorial", "scale": None}, C)
    >>> sorted(nx.from_scipy_sparse_array(path).edges)
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (5, 6)]
    """
    for path in unfolded_paths(W):
        if _residuals(basis, path)[0] <= FITS_EXACTLY:
            return path
    return None
