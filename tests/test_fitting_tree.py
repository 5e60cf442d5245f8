"""A spanning tree that fits noisy eigenvectors at their noise level is the answer."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input, stored_eigenvectors

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import _basis_input
from gsp_householder.graphs._fitting_tree import (
    exact_tree,
    fits_at_noise,
    fits_to_rounding,
    tree_at_own_noise,
    tree_family,
    tree_for_exact,
    tree_for_halves,
    tree_in_place,
)
from gsp_householder.graphs._hopeless_basis import sparse_fit
from gsp_householder.graphs._own_noise import own_noise

#: The noise level the rankings show on these inputs (eigenvectors perturbed by 1e-3):
#: 2.3e-4 to 2.6e-4 on the trees below.
LEVEL = 2.5e-4


def _bench_input(G, draw):
    """The eigenvectors of ``G`` perturbed by 1e-3, then shuffled (as
    ``bench_inference_sweep`` draws them, ``default_rng(draw)``)."""
    V = fourier_basis(nx.convert_node_labels_to_integers(G)).eigenvectors
    return audit_input(V, 1e-3, draw)


def _basis(V):
    return {"kind": "combinatorial", "ordered": False, "V": V, "scale": None}


def _pair_basis(V):
    return _basis_input._anchored_pair_basis(_basis_input._read_basis(V, None, None, None, None))


def _unit(G):
    return sp.csr_array(
        nx.to_scipy_sparse_array(nx.convert_node_labels_to_integers(G), dtype=float)
    )


@pytest.fixture(scope="module")
def tree():
    """``balanced_tree(6, 2)`` (43 nodes; sibling leaves in groups of 6, an eigenvalue
    of multiplicity 30) and its perturbed eigenvectors, draw 0."""
    G = nx.balanced_tree(6, 2)
    return G, _bench_input(G, 0)


def test_a_tree_that_fits_is_answered_without_searches(tree):
    G, V = tree
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, rng=0)
    assert compare_graphs(fourier_basis(G).laplacian, result.laplacian)["f1"] == 1.0
    assert not caught
    # the tree read before the searches (none made: no noisy graph recorded), at the
    # noise level (its residual within 5 times the rankings' smallest estimate)
    assert result.history["fitting_tree"] <= 5.0
    assert "noisy_graphs" not in result.history
    assert "hopeless_basis" not in result.history
    # no other graph with the tree's non-edges fits: a family of one dimension
    assert result.family_dimension == 1


def test_the_truth_fits_at_the_noise_level_and_a_wrong_edge_does_not(tree):
    G, V = tree
    basis = _basis(V)
    T = _unit(G)
    assert fits_at_noise(basis, T, LEVEL)
    # one leaf moved to another parent: a spanning tree with one wrong edge
    H = nx.convert_node_labels_to_integers(G)
    leaf = max(H)
    parent = next(iter(H[leaf]))
    other = next(v for v in H[0] if v != parent)
    H.remove_edge(leaf, parent)
    H.add_edge(leaf, other)
    assert nx.is_tree(H)
    assert not fits_at_noise(basis, _unit(H), LEVEL)
    # nor at a level 10 times smaller, nor without a level, nor disconnected
    assert not fits_at_noise(basis, T, LEVEL / 10)
    assert not fits_at_noise(basis, T, 0.0)
    H = nx.convert_node_labels_to_integers(G)
    H.remove_edge(0, 1)
    assert not fits_at_noise(basis, _unit(H), LEVEL)


def test_the_tree_sparse_fit_reads_is_the_truth(tree):
    G, V = tree
    found = sparse_fit(_pair_basis(V), {**_basis(V), "twin_class": False})
    assert found is not None
    assert abs(found - _unit(G)).sum() == 0
    assert tree_family(_pair_basis(V), found, LEVEL) == 1


def _weighted_superset(G, seed):
    """``G``'s edges with weights spread 0.5 to 1.5 plus 10 random non-edges of weight
    0.3: a denser weighted graph (unit weights on ``G`` would be equal)."""
    rng = np.random.default_rng(seed)
    H = nx.convert_node_labels_to_integers(G)
    n = H.number_of_nodes()
    W = nx.Graph()
    W.add_nodes_from(range(n))
    for u, v in H.edges:
        W.add_edge(u, v, weight=rng.uniform(0.5, 1.5))
    while W.number_of_edges() < H.number_of_edges() + 10:
        u, v = rng.choice(n, 2, replace=False)
        if not W.has_edge(u, v):
            W.add_edge(int(u), int(v), weight=0.3)
    return sp.csr_array(nx.to_scipy_sparse_array(W))


def test_a_weighted_member_of_a_large_family_gives_way_to_the_tree(tree):
    G, V = tree
    B = _pair_basis(V)
    A = _weighted_superset(G, 0)
    found = (int(sp.triu(A, 1).nnz), 0.5, None, A)
    T = tree_in_place(_basis(V), B, found, 64, LEVEL, LEVEL)
    assert T is not None
    assert abs(T - _unit(G)).sum() == 0
    # not a family member that cannot be far from its sparsest member, nor a graph with
    # equal weights, nor a graph found without a noise level
    assert tree_in_place(_basis(V), B, found, 2, LEVEL, LEVEL) is None
    E = sp.csr_array((A > 0).astype(float))
    assert tree_in_place(_basis(V), B, (found[0], 0.0, None, E), 64, LEVEL, LEVEL) is None
    assert tree_in_place(_basis(V), B, found, 64, 0.0, LEVEL) is None


def test_no_tree_in_place_of_a_graph_with_cycles():
    # a perturbed 6 x 7 grid: the tree searched keeps a misfit far above the noise's
    G = nx.grid_2d_graph(6, 7)
    V = _bench_input(G, 0)
    A = _weighted_superset(G, 1)
    found = (int(sp.triu(A, 1).nnz), 0.5, None, A)
    assert tree_in_place(_basis(V), _pair_basis(V), found, 64, LEVEL, LEVEL) is None


def _exact_input(G, draw):
    """The exact eigenvectors of ``G``, shuffled (as ``bench_inference_sweep`` draws
    them, ``default_rng(draw)``)."""
    rng = np.random.default_rng(draw)
    V = fourier_basis(nx.convert_node_labels_to_integers(G)).eigenvectors
    return V[:, rng.permutation(V.shape[1])] * rng.choice([-1.0, 1.0], V.shape[1])


def _exact_answer(G):
    """The inference from the exact shuffled eigenvectors of ``G`` (draw 0), asserted
    to be ``G``, and the warnings it raised."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(_exact_input(G, 0), rng=0)
    assert compare_graphs(fourier_basis(G).laplacian, result.laplacian)["f1"] == 1.0
    return result, caught


def test_an_exact_tree_fits_to_rounding_and_a_wrong_or_noisy_one_does_not(tree):
    G, V = tree
    exact = _exact_input(G, 0)
    T = exact_tree(_basis(exact), G.number_of_nodes())
    assert T is not None
    assert abs(T - _unit(G)).sum() == 0
    assert fits_to_rounding(_basis(exact), T)
    # perturbed eigenvectors: the truth fits at their noise level, not to rounding
    assert not fits_to_rounding(_basis(V), T)
    assert exact_tree(_basis(V), G.number_of_nodes()) is None
    # a leaf moved to another parent
    H = nx.convert_node_labels_to_integers(G)
    leaf = max(H)
    H.remove_edge(leaf, next(iter(H[leaf])))
    H.add_edge(leaf, 0)
    assert not fits_to_rounding(_basis(exact), _unit(H))


def test_no_exact_tree_on_graphs_with_cycles():
    for G in (nx.grid_2d_graph(6, 7), nx.cycle_graph(30), nx.karate_club_graph()):
        V = _exact_input(G, 0)
        assert exact_tree(_basis(V), G.number_of_nodes()) is None


def test_exact_tree_asked_only_for_a_denser_member_of_a_large_family(tree):
    G, _ = tree
    V = _exact_input(G, 0)
    B = _pair_basis(V)
    n = G.number_of_nodes()
    A = _weighted_superset(G, 0)
    found = (int(sp.triu(A, 1).nnz), 0.0, None, A)
    assert abs(tree_for_exact(_basis(V), B, found, 30, 0.0) - _unit(G)).sum() == 0
    # not for a graph found at a noise level, nor for one of a family that cannot be
    # far from its sparsest member, nor for a graph no denser than a tree, nor for the
    # complete graph (searched where the searches end at it)
    assert tree_for_exact(_basis(V), B, found, 30, 1e-4) is None
    assert tree_for_exact(_basis(V), B, found, 2, 0.0) is None
    assert tree_for_exact(_basis(V), B, (n - 1, 0.0, None, _unit(G)), 30, 0.0) is None
    K = sp.csr_array(np.ones((n, n)) - np.eye(n))
    assert tree_for_exact(_basis(V), B, (n * (n - 1) // 2, 0.0, None, K), 30, 0.0) is None


def test_an_exact_tree_replaces_a_denser_exact_family_member():
    # full_rary_tree(6, 100), exact, draw 0: the exact searches end at a member of
    # 135 edges (family 36; F1 0.744 without a warning before); the tree fits to
    # rounding and is returned, the member is the last of the candidates
    G = nx.full_rary_tree(6, 100)
    result, caught = _exact_answer(G)
    assert result.residual <= 1e-9
    assert not caught
    # which of the family's members the exact searches end at is decided by rounding:
    # with one OpenBLAS thread the member of 135 edges, with two the tree itself
    if "exact_tree_edges" in result.history:
        assert result.history["exact_tree_edges"] == 36
        assert int((sp.triu(-result.candidates[-1], 1) > 0).sum()) == 135


def test_an_exact_tree_answers_before_the_other_searches():
    # balanced_tree(2, 7), exact, draw 0: no exact graph, and the other searches ended
    # at the complete graph; the tree fits to rounding and is returned first
    G = nx.balanced_tree(2, 7)
    result, caught = _exact_answer(G)
    assert result.history["exact_tree"] is True
    assert "noisy_graphs" not in result.history
    assert not caught


def test_an_exact_tree_replaces_the_halves_bipartite_graph():
    # binomial_tree(7), exact, draw 0: the searches end at the complete bipartite graph
    # between the halves of a +-1 column (4096 edges, warned); the tree found from a
    # hub's star fits to rounding and is returned, quiet, the bipartite graph next
    G = nx.binomial_tree(7)
    result, caught = _exact_answer(G)
    assert result.history["exact_tree"] is True
    assert "column_halves_graph" not in result.history
    assert int((sp.triu(-result.candidates[1], 1) > 0).sum()) == 4096
    assert not caught


def test_no_tree_for_the_halves_graph_at_a_noise_level_or_searched_before(tree):
    G, _ = tree
    n = G.number_of_nodes()
    assert tree_for_halves(_basis(_exact_input(G, 0)), n, {"noise": 1e-4}) is None
    assert tree_for_halves(_basis(_exact_input(G, 0)), n, {"exact_tree": False}) is None
    history = {}
    T = tree_for_halves(_basis(_exact_input(G, 0)), n, history)
    assert abs(T - _unit(G)).sum() == 0 and history["exact_tree"] is True


#: The level the searches found a denser graph at on the perturbed ``star_graph(80)``
#: (draw 0), and that graph's residual in units of the rankings' smallest estimate.
STAR_NOISE, STAR_RATIO = 2.3e-5, 262.0


def test_a_star_that_fits_its_own_noise_replaces_a_weighted_graph_that_does_not_fit():
    G = nx.star_graph(80)
    V = _bench_input(G, 0)
    basis, B = _basis(V), _pair_basis(V)
    A = _weighted_superset(G, 0)
    found = (int(sp.triu(A, 1).nnz), 0.5, None, A)
    T, ratio = tree_at_own_noise(basis, B, found, STAR_NOISE, STAR_RATIO)
    assert abs(T - _unit(G)).sum() == 0
    # its residual is the one the noise of its non-edges predicts, while the rankings'
    # smallest estimate is far below that noise (the eigenspace of dimension 79)
    assert 0.8 < ratio < 1.25
    # not asked for a graph that fits at the rankings' level, one found without a noise
    # level, one with equal weights, or a tree
    assert tree_at_own_noise(basis, B, found, STAR_NOISE, 5.0) is None
    # unless it lacks edges the eigenvectors show: the tree searched from one start
    T, ratio = tree_at_own_noise(basis, B, found, STAR_NOISE, 1.0, lacks_edges=True)
    assert abs(T - _unit(G)).sum() == 0
    assert tree_at_own_noise(basis, B, found, 0.0, STAR_RATIO) is None
    E = sp.csr_array((A > 0).astype(float))
    assert tree_at_own_noise(basis, B, (found[0], 0.0, None, E), STAR_NOISE, STAR_RATIO) is None
    star = (80, 0.5, None, _weighted_superset(G, 0).multiply(_unit(G)))
    assert tree_at_own_noise(basis, B, star, STAR_NOISE, STAR_RATIO) is None


def test_no_tree_at_its_own_noise_on_graphs_with_cycles(monkeypatch):
    # a perturbed 6 x 7 grid: no tree searched fits (misfit far above the noise's)
    G = nx.grid_2d_graph(6, 7)
    V = _bench_input(G, 0)
    A = _weighted_superset(G, 1)
    found = (int(sp.triu(A, 1).nnz), 0.5, None, A)
    assert tree_at_own_noise(_basis(V), _pair_basis(V), found, 1e-4, 100.0) is None
    assert tree_at_own_noise(_basis(V), _pair_basis(V), found, 1e-4, 1.0, lacks_edges=True) is None
    # weighted karate, the truth found: a spanning tree whose residual is spread over its
    # pairs (within 5 times what its non-edges predict) shows on them a noise some 300
    # times the truth's, and is not returned
    K = nx.karate_club_graph()
    V = _bench_input(K, 0)
    W = sp.csr_array(nx.to_scipy_sparse_array(K, dtype=float))
    tree = _unit(nx.bfs_tree(K, 0).to_undirected())
    assert own_noise(_basis(V), tree)[1] <= 5.0
    monkeypatch.setattr("gsp_householder.graphs._fitting_tree._searched", lambda basis, *_: tree)
    found = (int(sp.triu(W, 1).nnz), 0.5, None, W)
    assert tree_at_own_noise(_basis(V), _pair_basis(V), found, 1e-4, 10.0) is None
    # nor in place of a graph that fits and lacks edges the eigenvectors show
    assert tree_at_own_noise(_basis(V), _pair_basis(V), found, 1e-4, 1.0, lacks_edges=True) is None


def _stored_star_input(leaves, draw):
    """``_bench_input`` of ``star_graph(leaves)`` from its stored eigenvectors
    (``stored_eigenvectors``: ``fourier_basis``'s before its
    pivot rows' ties went to the earlier node, under Haswell's kernels; an eigenspace of
    dimension ``leaves - 1``)."""
    L = fourier_basis(nx.star_graph(leaves)).laplacian
    V = stored_eigenvectors(f"star_{leaves}", L)
    return audit_input(V, 1e-3, draw)


@pytest.mark.parametrize(
    ("leaves", "draw", "tree_edges", "searches_ratio", "found_edges"),
    [
        # star_graph(30) perturbed, draw 0: the searches end at 278 edges whose residual is
        # 62 times the rankings' smallest estimate; the star searched for it fits the noise
        # its own non-edges show (0.88 times it)
        (30, 0, 248, (5.0, np.inf), 278),
        # star_graph(150) perturbed, draw 1, from its stored eigenvectors: the searches end
        # at a weighted graph of 445 edges that fits at the rankings' level (2.8 times it)
        # and lacks edges the eigenvectors show (F1 0.50, quiet before); the star searched
        # for it fits the noise its own non-edges show. On ``fourier_basis``'s eigenvectors
        # draws 0 to 5 are answered by the star without this search, warned (of negative
        # entries of pairs it does not join on draws 0 to 2, 4 and 5; of its misfit on 3)
        (150, 1, 295, (1.0, 5.0), 445),
    ],
)
def test_a_perturbed_star_is_answered_by_the_star_that_fits_its_own_noise(
    leaves, draw, tree_edges, searches_ratio, found_edges
):
    G = nx.star_graph(leaves)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        V = _stored_star_input(leaves, draw) if leaves == 150 else _bench_input(G, draw)
        result = infer_laplacian(V, rng=0)
    assert compare_graphs(fourier_basis(G).laplacian, result.laplacian)["f1"] == 1.0
    assert not caught
    assert result.history["own_noise_tree_edges"] == tree_edges
    low, high = searches_ratio
    assert low < result.history["searches_noise_ratio"] <= high
    assert 0.8 < result.history["noise_ratio"] < 1.25
    # the graph the searches found is the last of the candidates
    assert result.history["candidate_edges"][-1] == found_edges
