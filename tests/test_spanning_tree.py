"""The tree behind a dense graph found at a noise level (``_spanning_tree``)."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder.graphs import _basis_input, laplacian_inference
from gsp_householder.graphs._spanning_tree import maximum_spanning_tree, tree_behind

#: A noise level of the rankings of eigenvectors perturbed by 1e-3 (trees of 100 to 500
#: nodes: 2e-4 to 7e-4).
NOISE = 3e-4


def _edges(W):
    U = sp.triu(sp.csr_array(W), 1).tocoo()
    return set(zip(U.row.tolist(), U.col.tolist(), strict=True))


def _weights(G, n):
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr"), dtype=float)


def _basis(V):
    basis = _basis_input._read_basis(V, None, None, None, None)
    return basis, _basis_input._anchored_pair_basis(basis)


def _two_pendant_paths():
    """A path of 96 nodes with two pendant paths of two nodes, 40-96-97 and 40-98-99,
    and the equal-weight graph with its eigenvectors that rewires them: 96-97 and 98-99
    replaced by 96-99, 97-98 and 97-99 (one edge more, a cycle through node 40)."""
    G = nx.path_graph(96)
    G.add_edges_from([(40, 96), (96, 97), (40, 98), (98, 99)])
    H = G.copy()
    H.remove_edges_from([(96, 97), (98, 99)])
    H.add_edges_from([(96, 99), (97, 98), (97, 99)])
    return G, H


def _common_basis(G, H, n):
    """Eigenvectors shared by the Laplacians of ``G`` and ``H`` (they commute)."""
    Lg = nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float)
    Lh = nx.laplacian_matrix(H, nodelist=range(n)).toarray().astype(float)
    return np.linalg.eigh(Lg + 0.37 * Lh)[1]


def _distance_two(G, weight):
    """Symmetric weights ``weight`` on the pairs of ``G`` at distance 2."""
    n = G.number_of_nodes()
    pairs = {(a, b) for v in G for a in G[v] for b in G[v] if a < b and not G.has_edge(a, b)}
    rows, cols = np.array(sorted(pairs)).T
    U = sp.coo_array((np.full(rows.size, weight), (rows, cols)), shape=(n, n))
    return sp.csr_array(U + U.T)


def test_maximum_spanning_tree_takes_the_heaviest_edges():
    # a 4-cycle 0-1-2-3 with weights 3, 2, 1, 4 and the chord 0-2 of weight 2.5
    n = 4
    U = sp.coo_array(([3.0, 2.0, 1.0, 4.0, 2.5], ([0, 1, 2, 0, 0], [1, 2, 3, 3, 2])), shape=(n, n))
    tree = maximum_spanning_tree(sp.csr_array(U + U.T))
    assert _edges(tree) == {(0, 1), (0, 3), (0, 2)}
    assert np.all(tree.data == 1.0)
    # disconnected: no spanning tree
    V = sp.coo_array(([1.0, 1.0], ([0, 2], [1, 3])), shape=(n, n))
    assert maximum_spanning_tree(sp.csr_array(V + V.T)) is None


@pytest.mark.parametrize("draw", [0, 1, 2])
def test_the_tree_behind_a_dense_graph_with_its_pendant_paths_rewired(draw):
    # the graph found: the rewired graph (one cycle) plus the tree's pairs at distance 2
    # at a tenth of the weight. Its maximum spanning tree drops one edge of the cycle,
    # a wrong tree; the refit reads the rewired graph, whose rewiring is the tree
    G, H = _two_pendant_paths()
    n = G.number_of_nodes()
    basis, B = _basis(perturbed(shuffled(_common_basis(G, H, n), draw), 1e-3, draw))
    found = sp.csr_array(_weights(H, n) + _distance_two(G, 0.1))
    assert _edges(maximum_spanning_tree(found)) != _edges(_weights(G, n))
    tree = tree_behind(basis, B, found, NOISE)
    assert tree is not None
    assert _edges(tree) == _edges(_weights(G, n))


@pytest.mark.parametrize("draw", [0, 1])
def test_the_tree_behind_a_random_trees_quadratic_like_graph(draw):
    # a random tree's pairs at distance 2 beside its edges (no pendant paths rewired):
    # the maximum spanning tree is the tree, and it fits
    G = nx.random_labeled_tree(80, seed=3)
    n = G.number_of_nodes()
    V = np.linalg.eigh(nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float))[1]
    basis, B = _basis(perturbed(shuffled(V, draw), 1e-3, draw))
    found = sp.csr_array(_weights(G, n) + _distance_two(G, 0.3))
    tree = tree_behind(basis, B, found, NOISE)
    assert tree is not None
    assert _edges(tree) == _edges(_weights(G, n))


@pytest.mark.parametrize(
    "make",
    [
        lambda: nx.cycle_graph(60),
        lambda: nx.grid_2d_graph(6, 8),
        lambda: nx.random_regular_graph(3, 60, seed=1),
    ],
)
def test_no_tree_behind_a_graph_with_cycles(make):
    # every spanning tree of a graph with cycles and equal weights drops an edge of
    # weight 1: it does not fit, and the graph found stays
    G = nx.convert_node_labels_to_integers(make())
    n = G.number_of_nodes()
    V = np.linalg.eigh(nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float))[1]
    basis, B = _basis(perturbed(shuffled(V, 0), 1e-3, 0))
    assert tree_behind(basis, B, _weights(G, n), NOISE) is None


def test_the_inference_reads_trees_only_behind_noisy_graphs_denser_than_a_tree():
    G, H = _two_pendant_paths()
    n = G.number_of_nodes()
    basis, B = _basis(perturbed(shuffled(_common_basis(G, H, n), 0), 1e-3, 0))
    found = sp.csr_array(_weights(H, n) + _distance_two(G, 0.1))
    item = (sp.triu(found, 1).nnz, 0.0, None, found)
    noisy = {"noise": NOISE, "noise_ratio": 1.0}
    tree = laplacian_inference._tree_behind(basis, B, [item], noisy)
    assert tree is not None and _edges(tree) == _edges(_weights(G, n))
    # exact (no noise level), a graph that does not fit its noise level, a tree, the
    # complete graph: nothing is read
    assert laplacian_inference._tree_behind(basis, B, [item], {"noise": 0.0}) is None
    assert (
        laplacian_inference._tree_behind(basis, B, [item], {"noise": NOISE, "noise_ratio": 1e3})
        is None
    )
    tree_item = (n - 1, 0.0, None, _weights(G, n))
    assert laplacian_inference._tree_behind(basis, B, [tree_item], noisy) is None
    complete = sp.csr_array(np.ones((n, n)) - np.eye(n))
    assert (
        laplacian_inference._tree_behind(basis, B, [(n * (n - 1) // 2, 0.0, None, complete)], noisy)
        is None
    )


def test_the_tree_is_read_behind_another_candidate():
    # the graph found has no tree behind it (the complete graph less one edge: every
    # spanning tree of it misses most of its weight); the next candidate does
    G, H = _two_pendant_paths()
    n = G.number_of_nodes()
    basis, B = _basis(perturbed(shuffled(_common_basis(G, H, n), 1), 1e-3, 1))
    first = np.ones((n, n)) - np.eye(n)
    first[0, 1] = first[1, 0] = 0.0
    first = sp.csr_array(first)
    found = sp.csr_array(_weights(H, n) + _distance_two(G, 0.1))
    noisy = {"noise": NOISE, "noise_ratio": 1.0}
    ranked = [(n * (n - 1) // 2 - 1, 0.0, None, first), (sp.triu(found, 1).nnz, 0.0, None, found)]
    assert laplacian_inference._tree_behind(basis, B, ranked[:1], noisy) is None
    tree = laplacian_inference._tree_behind(basis, B, ranked, noisy)
    assert tree is not None and _edges(tree) == _edges(_weights(G, n))
