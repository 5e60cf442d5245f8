"""Graph Fourier bases, Householder Fourier bases and their approximation."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from gsp_householder import HouseholderProduct
from gsp_householder.graphs.datasets import load_graph
from gsp_householder.graphs.fourier import (
    adjacency_matrix,
    fourier_basis,
    gft,
    igft,
    laplacian_matrix,
)
from gsp_householder.graphs.householder_basis import (
    aligned_eigenbasis,
    approximate_householder,
    householder_fourier_basis,
)
from gsp_householder.graphs.signals import make_graph_signals
from gsp_householder.model import BernoulliUniform


def _check_eigenbasis(B):
    L = B.laplacian.toarray()
    V = B.eigenvectors
    np.testing.assert_allclose(V.T @ V, np.eye(B.n), atol=1e-10)
    np.testing.assert_allclose(L @ V, V * B.eigenvalues, atol=1e-10)
    assert np.all(np.diff(B.eigenvalues) >= -1e-12)


@pytest.mark.parametrize("kind", ["nx", "sparse", "dense", "pygsp"])
def test_fourier_basis_inputs_agree(kind):
    G = nx.karate_club_graph()
    W = nx.to_numpy_array(G)
    inputs = {"nx": G, "sparse": sp.csr_array(W), "dense": W}
    if kind == "pygsp":
        import pygsp
        inputs["pygsp"] = pygsp.graphs.Graph(W)
    B = fourier_basis(inputs[kind])
    _check_eigenbasis(B)
    ref = fourier_basis(G)
    np.testing.assert_allclose(B.eigenvalues, ref.eigenvalues, atol=1e-10)
    # Simple spectrum: the sign fix makes the vectors identical, not just equal up to sign.
    np.testing.assert_allclose(B.eigenvectors, ref.eigenvectors, atol=1e-8)
    assert B.connected and B.n_components == 1


def test_sign_fix_largest_entry_positive():
    B = fourier_basis(nx.path_graph(7))
    V = B.eigenvectors
    idx = np.argmax(np.abs(V) >= np.abs(V).max(axis=0) * (1 - 1e-8), axis=0)
    assert np.all(V[idx, np.arange(7)] > 0)


def test_repeated_eigenspaces_and_canonical_basis():
    G = nx.complete_graph(5)
    B = fourier_basis(G)
    assert [len(g) for g in B.eigenspaces] == [1, 4]
    _check_eigenbasis(B)
    # The same subspace from a relabelled-then-restored graph gives the same columns.
    perm = [3, 1, 4, 0, 2]
    B2 = fourier_basis(G, nodelist=perm)
    P = np.eye(5)[:, perm]
    np.testing.assert_allclose(B2.eigenvalues, B.eigenvalues, atol=1e-12)
    span1 = B.eigenvectors[:, 1:]
    span2 = P @ B2.eigenvectors[:, 1:]
    np.testing.assert_allclose(span1 @ span1.T, span2 @ span2.T, atol=1e-10)


def test_disconnected_graph_reported():
    G = nx.disjoint_union(nx.complete_graph(3), nx.path_graph(4))
    B = fourier_basis(G)
    assert B.n_components == 2 and not B.connected
    assert len(B.eigenspaces[0]) == 2
    _check_eigenbasis(B)


def test_normalized_laplacian():
    G = nx.karate_club_graph()
    L = laplacian_matrix(G, "normalized").toarray()
    ref = nx.normalized_laplacian_matrix(G).toarray()
    np.testing.assert_allclose(L, ref, atol=1e-12)
    B = fourier_basis(G, laplacian="normalized")
    assert B.eigenvalues.max() <= 2 + 1e-10


def test_laplacian_matches_networkx():
    G = load_graph("les_miserables")
    np.testing.assert_allclose(laplacian_matrix(G).toarray(),
                               nx.laplacian_matrix(G).toarray(), atol=1e-12)
    assert isinstance(laplacian_matrix(G), sp.csr_array)


@pytest.mark.parametrize("bad, match", [
    (nx.DiGraph([(0, 1)]), "undirected"),
    (np.array([[0.0, 1.0], [0.0, 0.0]]), "undirected"),
    (np.array([[0.0, -1.0], [-1.0, 0.0]]), "non-negative"),
    (np.array([[0.0, np.nan], [np.nan, 0.0]]), "NaN"),
    (np.array([[1.0, 1.0], [1.0, 0.0]]), "self-loops"),
    (nx.Graph([(0, 0), (0, 1)]), "self-loops"),
])
def test_invalid_graphs(bad, match):
    with pytest.raises(ValueError, match=match):
        fourier_basis(bad)


def test_invalid_arguments():
    with pytest.raises(ValueError, match="laplacian"):
        fourier_basis(nx.path_graph(3), laplacian="random-walk")
    with pytest.raises(TypeError, match="networkx"):
        adjacency_matrix("karate")
    with pytest.raises(ValueError, match="nodelist"):
        adjacency_matrix(nx.path_graph(3), nodelist=[0, 7])


def test_gft_roundtrip_product_and_dense():
    G = nx.complete_multipartite_graph(3, 3, 2)
    V = householder_fourier_basis(G)
    rng = np.random.default_rng(0)
    X = rng.standard_normal((8, 5))
    np.testing.assert_allclose(igft(V, gft(V, X)), X, atol=1e-12)
    Vd = V.to_dense()
    np.testing.assert_allclose(gft(V, X), Vd.T @ X, atol=1e-12)
    np.testing.assert_allclose(gft(Vd, X), Vd.T @ X, atol=1e-12)
    with pytest.raises(ValueError):
        gft(Vd, X[:4])


@pytest.mark.parametrize("G, expected", [
    (nx.complete_graph(12), 1),
    (nx.disjoint_union_all([nx.complete_graph(5)] * 4), 4),
    (nx.disjoint_union_all([nx.complete_graph(3), nx.complete_graph(6)]), 2),
])
def test_householder_basis_minimal_counts(G, expected):
    V, lam = householder_fourier_basis(G, return_eigenvalues=True)
    assert V.m == expected
    L = laplacian_matrix(G).toarray()
    D = V.to_dense()
    np.testing.assert_allclose(L @ D, D * lam, atol=1e-10)
    np.testing.assert_allclose(D.T @ D, np.eye(V.n), atol=1e-10)


def test_householder_basis_generic_graph_is_exact():
    G = load_graph("karate")
    V, lam = householder_fourier_basis(G, return_eigenvalues=True)
    L = laplacian_matrix(G).toarray()
    D = V.to_dense()
    np.testing.assert_allclose(L @ D, D * lam, atol=1e-9)
    assert V.m <= V.n
    # Cartan-Dieudonne lower bound: no product of fewer than rank(Q - I) reflectors.
    Q, _ = aligned_eigenbasis(fourier_basis(G))
    assert V.m <= np.linalg.matrix_rank(Q - np.eye(V.n), tol=1e-8)


def test_approximate_householder_exact_at_rank():
    rng = np.random.default_rng(1)
    V = HouseholderProduct(rng.standard_normal((15, 4)))
    Q = V.to_dense()
    W, err, _perm, _signs = approximate_householder(Q, 4, align=False)
    assert err[-1] < 1e-10
    np.testing.assert_allclose(W.to_dense(), Q, atol=1e-10)
    assert np.all(np.diff(err) <= 1e-12)   # each greedy reflector lowers the error


def test_approximate_householder_aligned_and_errors():
    Q = fourier_basis(nx.cycle_graph(12)).eigenvectors
    W, err, perm, signs = approximate_householder(Q, 12)
    target = Q[:, perm] * signs
    assert err[-1] < 1e-8
    assert abs(np.linalg.norm(target - W.to_dense()) - err[-1]) < 1e-8
    with pytest.raises(ValueError, match="orthogonal"):
        approximate_householder(2 * np.eye(3), 1)


def test_make_graph_signals_uses_basis():
    G = nx.complete_graph(6)
    Y, X, V = make_graph_signals(G, 50, BernoulliUniform(0.5), rng=3)
    np.testing.assert_allclose(Y, V @ X, atol=1e-12)
    Y2, _X2, _ = make_graph_signals(G, 50, BernoulliUniform(0.5), rng=3, basis=V)
    np.testing.assert_array_equal(Y, Y2)
    with pytest.raises(ValueError, match="basis"):
        make_graph_signals(G, 5, BernoulliUniform(0.5), basis=np.eye(4))
