"""Local twins of an equal-weight answer listed among the candidates: two pendant paths
closed into a cycle (tadpoles), classes of twins joined into cliques (lollipops)."""

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import canonical, perturbed, shuffled, stored_eigenvectors

from gsp_householder import fourier_basis, infer_laplacian
from gsp_householder.graphs._pendant_cycles import (
    closed_pair,
    cycle_order,
    opened_cycle,
    pendant_odd_cycles,
    pendant_path_pairs,
)


def _edges(L) -> frozenset:
    U = sp.triu(-sp.csr_array(L), 1).tocoo()
    return frozenset(zip(U.row[U.data > 1e-9].tolist(), U.col[U.data > 1e-9].tolist(), strict=True))


def _laplacian(W) -> np.ndarray:
    A = sp.csr_array(W).toarray()
    return np.diag(A.sum(axis=1)) - A


def _spider(legs) -> nx.Graph:
    G = nx.Graph()
    start = 1
    for m in legs:
        nx.add_path(G, [0, *range(start, start + m)])
        start += m
    return G


@pytest.mark.parametrize("m", [2, 3, 4, 5])
def test_closed_pendant_paths_commute_with_the_spider(m):
    # a spider with legs m, m, m + 1: its two legs of m nodes closed into the cycle of
    # ``cycle_order`` give the tadpole (2m + 1, m + 1), one edge more, and the two
    # Laplacians commute (the same eigenvectors)
    G = _spider([m, m, m + 1])
    W = nx.to_scipy_sparse_array(G, nodelist=range(len(G)), dtype=float)
    pairs = pendant_path_pairs(W)
    assert [(q, len(a), len(b)) for q, a, b in pairs] == [(0, m, m)]
    A = closed_pair(W, *pairs[0])
    assert sp.triu(A, 1).nnz == G.number_of_edges() + 1
    assert nx.is_isomorphic(nx.from_scipy_sparse_array(A), nx.tadpole_graph(2 * m + 1, m + 1))
    LW, LA = _laplacian(W), _laplacian(A)
    assert np.abs(LW @ LA - LA @ LW).max() < 1e-12
    assert sorted(cycle_order(*pairs[0])) == sorted([0, *pairs[0][1], *pairs[0][2]])


@pytest.mark.parametrize("m", [2, 3, 4, 5])
def test_opening_the_closed_cycle_gives_the_spider_back(m):
    # ``opened_cycle`` undoes ``closed_pair``: the tadpole's cycle of 2m + 1 nodes is
    # found hanging off the spider's centre, and opening it gives the spider's edges
    G = _spider([m, m, m + 1])
    W = nx.to_scipy_sparse_array(G, nodelist=range(len(G)), dtype=float)
    assert pendant_odd_cycles(W) == []
    A = closed_pair(W, *pendant_path_pairs(W)[0])
    cycles = pendant_odd_cycles(A)
    assert len(cycles) == 1 and cycles[0][0] == 0 and len(cycles[0][1]) == 2 * m
    assert _edges(_laplacian(opened_cycle(A, *cycles[0]))) == _edges(_laplacian(W))
    # either way round the cycle: the same two paths
    q, order = cycles[0]
    assert _edges(_laplacian(opened_cycle(A, q, order[::-1]))) == _edges(_laplacian(W))


@pytest.mark.parametrize(
    "G",
    [
        nx.cycle_graph(7),  # no node of degree 3
        nx.tadpole_graph(6, 2),  # an even cycle
        nx.tadpole_graph(3, 2),  # a triangle: twin leaves, not paths
        nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (1, 3), (0, 5)]),  # a chord
        nx.Graph([(0, 1), (1, 2), (2, 3), (3, 4), (4, 0), (0, 5), (2, 6)]),  # two exits
    ],
)
def test_cycles_that_do_not_hang_off_one_node_are_not_opened(G):
    assert pendant_odd_cycles(nx.to_scipy_sparse_array(G, nodelist=range(len(G)))) == []


def test_a_pendant_leaf_pair_and_a_path_have_no_pair():
    # one node each (twins, not paths of two nodes) and a graph that is a path
    assert pendant_path_pairs(nx.to_scipy_sparse_array(nx.star_graph(3))) == []
    assert pendant_path_pairs(nx.to_scipy_sparse_array(nx.path_graph(7))) == []


@pytest.mark.parametrize(
    ("G", "kind", "seed"),
    [
        (nx.tadpole_graph(7, 5), "exact", 2),
        (nx.tadpole_graph(7, 5), "perturbed", 2),
        (nx.tadpole_graph(9, 4), "perturbed", 2),
    ],
)
def test_the_tadpole_is_listed_beside_the_spider_returned(G, kind, seed):
    # the spider (legs m, m, k) and the tadpole (2m + 1, k) have the same eigenvectors
    # and equal weights: the sparser spider is returned, with no warning, and the
    # tadpole, which no search reached on these inputs, is the next candidate
    V = canonical(fourier_basis(G))
    V = shuffled(V, seed) if kind == "exact" else shuffled(perturbed(V, 1e-3, seed), seed + 7)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    assert not caught
    assert res.n_edges == len(G) - 1
    assert _edges(res.candidates[1]) == _edges(nx.laplacian_matrix(G))
    assert res.history["pendant_cycle_edges"] == [G.number_of_edges()] * 2
    assert res.history["candidate_edges"] == [sp.triu(C, 1).nnz for C in res.candidates]


def test_a_tree_with_two_pendant_paths_of_two_nodes_stays_the_answer():
    # the same pair of graphs with the tree as the truth: the tree returned, right and
    # quiet, the closed form (one 5-cycle more) listed next
    G = nx.random_labeled_tree(60, seed=1)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(shuffled(canonical(fourier_basis(G)), 0), rng=0)
    assert not caught
    assert _edges(res.laplacian) == _edges(nx.laplacian_matrix(G, nodelist=range(60)))
    assert res.history["pendant_cycle_edges"] == [60, 60]


def test_a_tree_whose_searches_end_at_the_closed_form_is_opened_back():
    # the eigensolver's basis of this tree (stored), shuffled: the searches end at the
    # tree with its pendant paths 119-27 and 85-74 on one node closed into a 5-cycle
    # (160 edges, equal weights, fitting to rounding); the cycle opened gives the tree,
    # one edge sparser, returned quiet with the closed form listed next
    G = nx.random_labeled_tree(160, seed=65)
    V = stored_eigenvectors("tree_160_65", nx.laplacian_matrix(G, nodelist=range(160)))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(shuffled(V, 1), rng=0)
    assert not caught
    assert _edges(res.laplacian) == _edges(nx.laplacian_matrix(G, nodelist=range(160)))
    assert res.history["opened_pendant_cycles"] == 1
    assert res.history["pendant_cycle_edges"] == [160, 160]


def test_the_lollipop_is_listed_beside_the_tree_returned():
    # the clique's nodes but the one it hangs on are twins: the tree with a star in the
    # clique's place is returned, quiet, and the clique joined back is the next candidate
    G = nx.lollipop_graph(8, 6)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(shuffled(canonical(fourier_basis(G)), 0), rng=0)
    assert not caught
    assert res.n_edges == len(G) - 1
    assert res.history["completed_twin_edges"] == G.number_of_edges()
    assert _edges(res.candidates[1]) == _edges(nx.laplacian_matrix(G))
