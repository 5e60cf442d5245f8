"""A sparser valid graph with none of the edges of the graph found (the Tutte graph)."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import laplacian_inference
from gsp_householder.graphs._disjoint_member import disjoint_member


@pytest.fixture(scope="module")
def tutte():
    G = nx.convert_node_labels_to_integers(nx.tutte_graph())
    return G, fourier_basis(G)


def _distance2(G):
    """The Laplacian's distance-2 member of a triangle-free cubic graph: the weights of
    $A^2$ off the diagonal ($6L - L^2$), on the pairs at distance 2 only."""
    A = nx.to_scipy_sparse_array(G, nodelist=range(G.number_of_nodes()), format="csr",
                                 dtype=float)
    A2 = sp.csr_array(A @ A)
    A2.setdiag(0)
    A2.eliminate_zeros()
    return A2


def _captured(monkeypatch, V):
    """The arguments of the call of ``disjoint_member`` of an inference on ``V``."""
    calls = []
    original = laplacian_inference.disjoint_member

    def capture(B, basis, found, noisy):
        calls.append((B, basis, found, noisy))
        return original(B, basis, found, noisy)

    monkeypatch.setattr(laplacian_inference, "disjoint_member", capture)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        infer_laplacian(V, rng=0)
    monkeypatch.undo()
    return calls[0]


def test_the_distance2_graph_gives_the_cubic_graph(tutte, monkeypatch):
    # exact eigenvectors: the edge rows of the distance-2 graph (126 pairs, 45 unknowns)
    # vanish on the Tutte graph's eigenvalues and on no other direction
    G, basis = tutte
    B, kept, _, _ = _captured(monkeypatch, shuffled(basis.eigenvectors, 0))
    D = _distance2(G)
    assert sp.triu(D, 1).nnz == 126
    member = disjoint_member(B, kept, (126, 0.5, None, D), noisy=False)
    assert member is not None
    assert member[0] == 69
    upper = sp.triu(member[3], 1).tocoo()
    assert {(int(i), int(j)) for i, j in zip(upper.row, upper.col, strict=True)} == {
        (min(e), max(e)) for e in G.edges}
    # the other way round the member (the distance-2 graph) is denser: none
    A = nx.to_scipy_sparse_array(G, nodelist=range(46), format="csr", dtype=float)
    assert disjoint_member(B, kept, (69, 0.0, None, A), noisy=False) is None


def test_too_few_edge_rows_give_nothing(tutte, monkeypatch):
    # a spanning tree of 45 edges has fewer rows than twice the unknowns: a null
    # direction would be chance
    G, basis = tutte
    B, kept, _, _ = _captured(monkeypatch, shuffled(basis.eigenvectors, 0))
    T = nx.to_scipy_sparse_array(nx.minimum_spanning_tree(G), nodelist=range(46),
                                 format="csr", dtype=float)
    assert disjoint_member(B, kept, (45, 0.0, None, T), noisy=False) is None


@pytest.mark.parametrize("draw", [0, 1, 2])
def test_perturbed_tutte_graph_is_not_its_distance2_graph(tutte, draw):
    # perturbed by 1e-3 the noisy rankings reach the distance-2 graph (126 edges, F1 0,
    # no warning before): the cubic graph is returned, or the result warns
    _, basis = tutte
    V = shuffled(perturbed(basis.eigenvectors, 1e-3, draw), draw)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    f1 = compare_graphs(basis.laplacian, res.laplacian)["f1"]
    assert f1 == 1.0 or caught
    edges = [int(np.count_nonzero(np.triu(C.toarray(), 1))) for C in res.candidates]
    assert 69 in edges

