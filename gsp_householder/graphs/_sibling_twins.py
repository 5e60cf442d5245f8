"""Sibling branches of a normalized graph: the twin that swaps their nodes of odd depth.

A branch of a node $r$ is a tree hung on $r$ by a single edge (a component of the
graph without $r$ that is a tree joined to $r$ by one edge). Two isomorphic branches
of the same node, $a$ and $b = \\varphi(a)$ ($\\varphi$ an isomorphism of the rooted
trees), can be relabelled by swapping $x \\leftrightarrow \\varphi(x)$ for every node
$x$ of $a$ at odd distance from $r$: a graph isomorphic to the first with other edges
(two pendant paths $r a_1 a_2 \\dots$ and $r b_1 b_2 \\dots$ become $r b_1 a_2 b_3
\\dots$ and $r a_1 b_2 a_3 \\dots$; two nodes with two leaves each exchange their
leaves). The normalized Laplacian of the twin often has the same eigenvectors, the
combinatorial one not (measured, not proved here): on ``random_labeled_tree(80,
seed)``, pendant paths of 5 and 2 nodes on one root (seeds 11, 15, 18) gave twins whose
residual on the exact eigenvectors is 4e-14 to 2e-15, some pairs on seeds 14 and 17 (3
and 2 nodes, where eigenvalues repeat) 0.04 to 0.13; the fit decides.

No inference from the eigenvectors tells such twins apart: ``random_labeled_tree(80,
seed=11)``'s perturbed eigenvectors (1e-3, draw 0) were answered by its twin (F1
0.899, 79 edges, no warning), ``random_labeled_tree(60, seed=13)``'s (draws 1 and 2)
by the twin that exchanges two nodes' leaves (F1 0.932). The twins of the graph
returned that fit the eigenvectors as well join the candidates, and the answer is
warned of.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._grid_twins import fitting_twins, relabelled_source, split_listed
from gsp_householder.graphs._template_lp import edge_key

#: Most pairs of sibling branches relabelled (their twins' fits read at
#: $O(\\mathrm{nnz}(L)\\, n)$ each).
MAX_PAIRS = 64
#: Most nodes of a branch (the breadth-first walks stay $O(n \cdot$ ``MAX_BRANCH``$)$ per
#: node's degree).
MAX_BRANCH = 100


def _neighbours(A: sp.csr_array, node: int) -> list[int]:
    return [int(j) for j in A.indices[A.indptr[node] : A.indptr[node + 1]] if j != node]


def _branch(A: sp.csr_array, root: int, top: int, limit: int) -> list[tuple[int, int]] | None:
    """The nodes of the branch hung on ``root`` through ``top`` as ``(node, parent)``
    in breadth-first order, or None if it is no tree joined to ``root`` by that one
    edge or has more than ``limit`` nodes."""
    order, seen, k = [(top, root)], {root, top}, 0
    while k < len(order):
        node, parent = order[k]
        k += 1
        for j in _neighbours(A, node):
            if j == parent:
                continue
            if j in seen:
                return None  # a cycle, or a second edge to the root
            seen.add(j)
            order.append((j, node))
            if len(order) > limit:
                return None
    return order


def _shape(children: dict[int, list[int]], node: int, memo: dict[int, str]) -> str:
    """The canonical string of the rooted tree below ``node`` (AHU encoding)."""
    if node not in memo:
        memo[node] = "(" + "".join(sorted(_shape(children, c, memo) for c in children[node])) + ")"
    return memo[node]


def sibling_branches(W, limit: int | None = None) -> list[list[tuple[int, dict, dict]]]:
    """The branches of every node of the graph of weights ``W`` of 2 to ``limit``
    nodes (default: fewer than half the graph's, at most ``MAX_BRANCH``; a single leaf
    swapped with another gives the same graph), grouped by root and rooted shape:
    a list of groups of at least two ``(top, children, shapes)``, ``children[x]`` the
    children of ``x`` in the branch and ``shapes`` their canonical strings.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1), (1, 2), (0, 3), (3, 4), (0, 5)])
    >>> [[top for top, _, _ in group] for group in sibling_branches(
    ...     nx.to_scipy_sparse_array(G, nodelist=range(6)))]
    [[1, 3]]
    """
    A = sp.csr_array(W)
    n = A.shape[0]
    limit = min((n - 1) // 2, MAX_BRANCH) if limit is None else limit
    groups: dict[tuple[int, str], list[tuple[int, dict, dict]]] = defaultdict(list)
    for root in range(n):
        for top in _neighbours(A, root):
            order = _branch(A, root, top, limit)
            if order is None or len(order) < 2:
                continue
            children: dict[int, list[int]] = {node: [] for node, _ in order}
            for node, parent in order[1:]:
                children[parent].append(node)
            shapes: dict[int, str] = {}
            groups[(root, _shape(children, top, shapes))].append((top, children, shapes))
    return [group for group in groups.values() if len(group) > 1]


def _matched(first, second, x: int, y: int, odd: bool, perm: np.ndarray) -> None:
    """Swap in ``perm`` the nodes of odd depth of the isomorphic subtrees at ``x`` (of
    ``first``) and ``y`` (of ``second``), ``odd`` whether ``x`` is at odd depth."""
    if odd:
        perm[x], perm[y] = y, x
    cx = sorted(first[1][x], key=lambda c: first[2][c])
    cy = sorted(second[1][y], key=lambda c: second[2][c])
    for a, b in zip(cx, cy, strict=True):
        _matched(first, second, a, b, not odd, perm)


def odd_depth_swap(n: int, first, second) -> np.ndarray:
    """The permutation of ``n`` nodes that swaps the nodes of odd depth of two
    isomorphic sibling branches (items of a ``sibling_branches`` group), matched by
    their canonical strings.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.Graph([(0, 1), (1, 2), (0, 3), (3, 4), (0, 5)])
    >>> group = sibling_branches(nx.to_scipy_sparse_array(G, nodelist=range(6)))[0]
    >>> odd_depth_swap(6, *group).tolist()
    [0, 3, 2, 1, 4, 5]
    """
    perm = np.arange(n)
    _matched(first, second, first[0], second[0], True, perm)
    return perm


def sibling_twins(basis, W, candidates, noise: float = 0.0) -> tuple[list[sp.csr_array], list[int]]:
    """Laplacians of the graph of weights ``W`` (the graph returned, with equal weights
    as ``_grid_twins.relabelled_source`` asks them) with two isomorphic sibling
    branches relabelled (``odd_depth_swap``), at most ``MAX_PAIRS`` pairs, that fit the
    eigenvectors as well (``_fits_as_well`` of ``twin_residuals``): those whose edges
    are not those of one of the Laplacians ``candidates``, and the indices of the
    candidates that are such twins (a search can list the twin and still return the
    graph without a warning); empty for combinatorial Laplacians or a graph without
    such branches.

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
    tuple of (list of scipy.sparse.csr_array, list of int)
    """
    W = sp.csr_array(W)
    if basis["kind"] != "normalized" or sp.triu(W, 1).nnz == 0:
        return [], []
    pairs = [pair for group in sibling_branches(W) for pair in combinations(group, 2)]
    if not pairs:
        return [], []
    source = relabelled_source(basis, W, noise)
    if source is None:
        return [], []
    W, reference = source
    coo = W.tocoo()
    n = W.shape[0]

    def swapped(first, second):
        perm = odd_depth_swap(n, first, second)
        return sp.csr_array(sp.coo_array((coo.data, (perm[coo.row], perm[coo.col])),
                                         shape=W.shape))

    fitting = fitting_twins(basis, (swapped(*pair) for pair in pairs[:MAX_PAIRS]),
                            reference, {edge_key(sp.triu(W, 1))})
    return split_listed(fitting, candidates)
