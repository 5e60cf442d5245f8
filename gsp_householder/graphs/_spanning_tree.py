"""The tree behind a dense graph found at a noise level: spanning trees read and refitted.

A noisy search can return a valid graph that holds most edges of a tree among many
more: the window prefixes of the uncapped rankings (``_prefix_window``) gave
``random_labeled_tree(400, seed=30)`` perturbed by 1e-3 986 edges for 399 (F1 0.572,
warned; 396 of the tree's edges among them). The eigenvectors determine those trees:
with its own eigenvalues (each column's $v_k^T L_0 v_k$) the tree's Laplacian leaves
its non-edges within 7e-4 of zero and its edges within 4e-4 of $-1$ on the perturbed
eigenvectors of trees of 400 to 500 nodes (seeds 26, 30, 31), and the maximum spanning
tree of that matrix is the tree. What the searches miss is the member of their
families, not the information.

``tree_behind`` reads a spanning tree $T$ of the graph found (its maximum spanning
tree; if it is far from fitting, residual above ``MAX_TREE_MISFIT``, nothing more), then
refits: the smallest direction $\\lambda$ of the Gram of every pair but
$T$'s (``PairGram``; the true edges that $T$ misses are among those pairs, outliers
that move the least-squares direction, so it is not at the noise level) gives
$\\tilde L(\\lambda)$, whose pairs below minus ``READ_FRACTIONS`` of the median entry
on $T$'s pairs are read as the graph. A graph so read is kept if it is a tree, or if
the sparser graph on the local columns (``_local_rewiring.sparser_on_local_columns``)
is one: a tree with
two pendant paths of two nodes on one node shares every eigenvector with the graph
that rewires them (one edge more), and on tree(400, seed 30) the refit reads that graph
(400 edges), whose rewiring is the tree. Otherwise the maximum spanning tree of
$\\tilde L(\\lambda)$ is the next $T$, up to ``MAX_READS`` trees. The caller
(``laplacian_inference._tree_behind``) reads the other candidates in turn when no tree
read from the graph found fits (``reference``: the graph found's residuals).

A tree is returned only when it fits the eigenvectors as well as the graph found and
has equal weights to the noise level (``_equal_graph_fits``), as every sparser graph
returned in place of a noisy search's must. No connected graph is sparser than a tree,
and a spanning tree that drops an edge of the graph sought leaves an entry of the size
of the edge weights in $\\mathrm{off}(V^T L V)$, far above the noise: a wrong tree is
refused and the graph found stays, warned or not as before. Only equal weights are
tried (the trees of the sweeps are unweighted): with weights free the tree's weights
would have to be fitted.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, minimum_spanning_tree

from gsp_householder.graphs._laplacian_fit import (
    _equal_graph_fits,
    _equal_within_noise,
    _fits_as_well,
    _residuals,
)
from gsp_householder.graphs._local_rewiring import sparser_on_local_columns
from gsp_householder.graphs._pair_geometry import PairBasis, PairGram
from gsp_householder.graphs._support_search import trace_scaled

#: Spanning trees read at most (``tree_behind``).
MAX_READS = 4
#: The refit runs only when the first tree's residual relative to $\\|L\\|_F$
#: (``_residual``) is at most this: a tree with a few wrong edges (tree(400, seed 30):
#: 4 of 399, 0.054), not a spanning tree of a graph with many cycles, which leaves out
#: about $m - n + 1$ edges of weight 1 (a residual near $\\sqrt{(m - n + 1) / 3n}$
#: for a tree's $\\|L\\|_F^2 \\approx 6n$: 0.2 is some $0.12\\,n$ edges).
MAX_TREE_MISFIT = 0.2
#: The graphs read off a refitted $\\tilde L(\\lambda)$: pairs whose entry is below
#: minus these fractions of the median entry on the last tree's pairs (the refit is not
#: at the noise level: the true edges the tree missed are among the pairs it fits).
READ_FRACTIONS = tuple(2.0 ** (-k / 2.0) for k in range(1, 9))


def maximum_spanning_tree(W) -> sp.csr_array | None:
    """The spanning tree of largest total weight of the graph of symmetric weights
    ``W`` (sparse; its positive weights), with unit weights (symmetric, sorted
    indices); None when those weights leave the graph disconnected."""
    n = W.shape[0]
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    keep = upper.data > 0.0
    rows, cols, weights = upper.row[keep], upper.col[keep], upper.data[keep]
    if weights.size < n - 1:
        return None
    # the largest weights first: Kruskal on positive costs that reverse their order
    top = float(weights.max())
    G = sp.coo_array(((top - weights) + top, (rows, cols)), shape=(n, n)).tocsr()
    T = sp.coo_array(minimum_spanning_tree(G)).tocoo()
    if T.nnz != n - 1:
        return None
    return _unit_graph(T.row, T.col, n)


def _unit_graph(rows, cols, n: int) -> sp.csr_array:
    """Symmetric unit weights on the pairs ``(rows, cols)`` of ``n`` nodes."""
    U = sp.coo_array((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    A = sp.csr_array(U + U.T)
    A.sort_indices()
    return A


def refitted_graphs(B: PairBasis, tree):
    """The distinct connected graphs read off $\\tilde L(\\lambda)$ for the smallest
    direction $\\lambda$ of the Gram of every pair but those of ``tree``
    (``READ_FRACTIONS``, at most $2n$ edges), then the maximum spanning tree of
    $\\tilde L(\\lambda)$ (None if it has none)."""
    upper = sp.triu(tree, 1).tocoo()
    _, Lam = PairGram(B).without(upper.row, upper.col).null_directions(8)
    weights = -np.triu(B.matrix(trace_scaled(B, Lam[:, 0])), 1)
    unit = float(np.median(weights[upper.row, upper.col]))
    if unit > 0.0:
        last = -1
        for fraction in READ_FRACTIONS:
            rows, cols = np.nonzero(weights > fraction * unit)
            if rows.size > 2 * B.n:
                break
            if rows.size < B.n - 1 or rows.size == last:
                continue
            last = rows.size
            A = _unit_graph(rows, cols, B.n)
            if connected_components(A, directed=False)[0] == 1:
                yield A
    yield maximum_spanning_tree(sp.csr_array(np.where(weights > 0.0, weights, 0.0)))


def tree_behind(basis, B: PairBasis, W, noise: float, reference=None) -> sp.csr_array | None:
    """A tree with equal weights that fits the eigenvectors as well as the graph of
    weights ``W`` (or a graph of residuals ``reference``, ``_residuals``) and has equal
    weights to ``noise`` (``_equal_graph_fits``), read from ``W`` and refitted (module
    docstring), or None.

    Parameters
    ----------
    basis : dict
        The read basis (``V``, ``V_anchored``, ``zero_column``, ``kind``, ``scale``).
    B : PairBasis
        Its pair basis.
    W : sparse array
        Symmetric weights of the graph found, with more than $n - 1$ edges.
    noise : float
        The noise level the graph was found at (positive).
    reference : tuple of float, optional
        The residuals of the graph the tree must fit as well as (default: ``W``'s).

    Returns
    -------
    scipy.sparse.csr_array or None
        Symmetric unit weights of the tree.
    """
    n = B.n
    reference = _residuals(basis, W) if reference is None else reference

    def fits(A) -> bool:
        return _equal_graph_fits(basis, A, reference, noise)

    tree, seen = maximum_spanning_tree(W), set()
    while tree is not None and len(seen) < MAX_READS:
        key = tree.indptr.tobytes() + tree.indices.tobytes()
        if key in seen:
            return None
        seen.add(key)
        residuals = _residuals(basis, tree)
        if _fits_as_well(residuals, reference) and _equal_within_noise(basis, tree, noise):
            return tree
        if len(seen) == 1 and residuals[0] > MAX_TREE_MISFIT:
            return None
        nxt = None
        for A in refitted_graphs(B, tree):
            nxt = A
            if A is None:
                break
            edges = sp.triu(A, 1).nnz
            if edges == n - 1 and fits(A):
                return A
            if edges > n - 1:
                lean = sparser_on_local_columns(basis, B, A, noise)
                if lean is not None and sp.triu(lean, 1).nnz == n - 1 and fits(lean):
                    return sp.csr_array(lean)
        tree = nxt if nxt is not None and sp.triu(nxt, 1).nnz == n - 1 else None
    return None
