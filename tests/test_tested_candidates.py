"""A candidate that the edge tests accept, put first in place of a graph they reject."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._tested_candidates import (
    accepted_first,
    edge_tests,
    missing_rejects,
    weak_rejects,
)

AGREEMENT = 0.95


def _case(draw=0):
    """A random geometric graph of 60 nodes (largest component), its perturbed and
    shuffled eigenvectors read as ``infer_laplacian`` reads them, and the weights of the
    truth and of the truth without a fifth of its edges (kept connected)."""
    G = nx.random_geometric_graph(60, 0.3, seed=7)
    G = nx.convert_node_labels_to_integers(G.subgraph(max(nx.connected_components(G), key=len)))
    B = fourier_basis(G)
    V = perturbed(shuffled(B.eigenvectors, draw), 1e-3, draw)
    basis = _read_basis(V, None, None, None, None)
    truth = sp.csr_array(nx.adjacency_matrix(G, nodelist=range(G.number_of_nodes()), dtype=float))
    H = G.copy()
    rng = np.random.default_rng(draw)
    edges = list(H.edges)
    for k in rng.permutation(len(edges)):
        if H.number_of_edges() <= 0.8 * G.number_of_edges():
            break
        u, v = edges[k]
        H.remove_edge(u, v)
        if not nx.is_connected(H):
            H.add_edge(u, v)
    lacking = sp.csr_array(nx.adjacency_matrix(H, nodelist=range(G.number_of_nodes()), dtype=float))
    return basis, truth, lacking


def _item(W):
    return (sp.triu(W, 1).nnz, 0.0, None, W)


@pytest.mark.parametrize("draw", [0, 1])
def test_the_tests_accept_the_truth_and_reject_a_graph_lacking_edges(draw):
    """The truth read on its perturbed eigenvectors: neither test rejects it; without a
    fifth of its edges, the missing-edges test does (the dropped pairs' entries are
    their weights, far outside the noise)."""
    basis, truth, lacking = _case(draw)
    accepted = edge_tests(basis, truth)
    assert not missing_rejects(accepted, AGREEMENT)
    assert not weak_rejects(accepted, AGREEMENT)
    rejected = edge_tests(basis, lacking)
    assert missing_rejects(rejected, AGREEMENT)
    assert rejected[1] > 0.1 * rejected[0]


@pytest.mark.parametrize("draw", [0, 1])
def test_an_accepted_candidate_goes_first(draw):
    """The graph lacking edges first, the truth a candidate behind it: the truth goes
    first, the other graphs follow in their order, and the history records it."""
    basis, truth, lacking = _case(draw)
    other = _item(truth.copy())
    ranked = [_item(lacking), _item(truth), other]
    history = {}
    out = accepted_first(basis, ranked, history, AGREEMENT)
    assert out[0] is ranked[1]
    assert out[1:] == [ranked[0], other]
    assert history["tested_candidate"][:2] == (ranked[1][0], ranked[0][0])
    assert history["tested_candidate"][2] > 0


def test_an_accepted_graph_found_stays_first():
    """The truth first: nothing moves, nothing is recorded."""
    basis, truth, lacking = _case()
    ranked = [_item(truth), _item(lacking)]
    history = {}
    assert accepted_first(basis, ranked, history, AGREEMENT) is ranked
    assert not history


def test_no_accepted_candidate_leaves_the_order():
    """Every candidate rejected (graphs lacking edges), or a single graph: the order is
    kept."""
    basis, _, lacking = _case()
    history = {}
    ranked = [_item(lacking), _item(lacking.copy())]
    assert accepted_first(basis, ranked, history, AGREEMENT) is ranked
    assert accepted_first(basis, ranked[:1], history, AGREEMENT) == ranked[:1]
    assert not history


def test_exact_eigenvectors_are_not_tested():
    """At rounding level nothing is tested, and the graph found stays first."""
    G = nx.random_geometric_graph(30, 0.4, seed=2)
    B = fourier_basis(G)
    basis = _read_basis(shuffled(B.eigenvectors, 0), None, None, None, None)
    truth = sp.csr_array(nx.adjacency_matrix(G, dtype=float))
    assert edge_tests(basis, truth) is None
    ranked = [_item(truth), _item(truth.copy())]
    assert accepted_first(basis, ranked, {}, AGREEMENT) is ranked


def _bench_input(B):
    """``bench_inference.py``'s perturbed input of the ``FourierBasis`` ``B``, draw 0: the
    generator of seed 0 after the exact input's shuffle, a relative Frobenius error 1e-3,
    then a shuffle."""
    rng = np.random.default_rng(0)
    V = B.eigenvectors
    n = V.shape[1]
    rng.permutation(n), rng.choice([-1.0, 1.0], n)  # the exact input's shuffle
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E))
    P = U @ Wt
    return P[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def test_a_perturbed_rgg_missing_edges_gives_way_to_an_accepted_candidate():
    """``RGG(150, 0.13, seed 71)`` perturbed by 1e-3 (``bench_inference.py``'s draw 0):
    the searches found 486 edges for 526 (F1 0.949; 460 with OpenBLAS's SandyBridge
    kernels), 239 pairs missing (warned); a candidate the tests accept (502 edges, F1
    0.975) is returned, without that warning. With the Nehalem kernels the searches find
    a graph the tests accept themselves (F1 at least 0.95, nothing put first)."""
    G = nx.random_geometric_graph(150, 0.13, seed=71)
    B = fourier_basis(G.subgraph(max(nx.connected_components(G), key=len)).copy())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(_bench_input(B), rng=0)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] >= 0.95
    assert not [w for w in caught if "significantly negative" in str(w.message)]
    if "tested_candidate" in res.history:
        put_first, found = res.history["tested_candidate"][:2]
        assert put_first == res.n_edges > found
        # the graph found lacks edges (its non-edges show 6.9 times the candidate's
        # noise): the candidate fits clearly better, no doubt is raised
        assert "doubtful_swap" not in res.history
        assert not [w for w in caught if "denser candidate" in str(w.message)]
