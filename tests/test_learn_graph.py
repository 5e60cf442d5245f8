"""The one-call pipeline: signals on a graph -> learned Fourier basis -> inferred Laplacian."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from gsp_householder import (
    BernoulliUniform,
    InferredLaplacian,
    compare_graphs,
    fourier_basis,
    learn_graph,
    make_signals,
    matched_basis_error,
)


@pytest.fixture(scope="module")
def karate_signals():
    G = nx.karate_club_graph()
    B = fourier_basis(G)
    Y, _ = make_signals(B.eigenvectors, 20 * B.n, BernoulliUniform(0.5), rng=3)
    return G, B, Y


def test_karate_is_learned_from_its_signals(karate_signals):
    G, B, Y = karate_signals
    result = learn_graph(Y, rng=0)
    assert isinstance(result, InferredLaplacian)
    assert result.learned is not None and result.learned.converged
    V_hat = result.learned.dictionary.to_dense()
    assert matched_basis_error(B.eigenvectors, V_hat) < 1e-8
    assert compare_graphs(G, result)["f1"] >= 0.98
    # the eigenvalues refer to the learned columns: L V = V diag(lambda)
    L = result.laplacian.toarray()
    np.testing.assert_allclose(L @ V_hat, V_hat * result.eigenvalues, atol=1e-8)


def test_node_labels_label_the_learned_graph():
    G = nx.relabel_nodes(nx.cycle_graph(8), {i: f"v{i}" for i in range(8)})
    B = fourier_basis(G)
    Y, _ = make_signals(B.eigenvectors, 40 * B.n, BernoulliUniform(0.3), rng=1)
    result = learn_graph(Y, nodelist=B.nodelist, rng=0)
    H = result.to_networkx()
    assert set(H.nodes) == set(G.nodes)
    # the 8-cycle has a twin with the same eigenvectors (edges i ~ i + 3 mod 8): which
    # of the two is returned is a tie decided at rounding level, so check an 8-cycle
    # whose Laplacian the learned basis diagonalises, on the labelled nodes
    assert nx.is_isomorphic(H, G)
    V_hat = result.learned.dictionary.to_dense()
    L = result.laplacian.toarray()
    np.testing.assert_allclose(L @ V_hat, V_hat * result.eigenvalues, atol=1e-8)
    twin = {frozenset((f"v{i}", f"v{(i + 3) % 8}")) for i in range(8)}
    assert {frozenset(e) for e in H.edges} in ({frozenset(e) for e in G.edges}, twin)


@pytest.mark.parametrize("nodelist", [["a", "b"], ["a"] * 34])
def test_bad_nodelist_is_named(karate_signals, nodelist):
    _, _, Y = karate_signals
    with pytest.raises(ValueError, match="nodelist must hold 34 distinct labels"):
        learn_graph(Y, nodelist=nodelist, rng=0)


def test_bad_nodelist_is_refused_before_learning(monkeypatch):
    import gsp_householder.graphs.from_signals as from_signals

    def fail(*args, **kwargs):
        raise AssertionError("the basis was learned before the nodelist was checked")
    monkeypatch.setattr(from_signals, "learn_orthogonal_basis", fail)
    with pytest.raises(ValueError, match="nodelist must hold 5 distinct labels"):
        learn_graph(np.ones((5, 30)), nodelist=["a", "b"])


def test_a_basis_of_no_graph_is_named_as_learned_from_Y():
    # signals on a random orthogonal basis: learned exactly, but no Laplacian fits it; the
    # error must say the basis was learned from Y (the caller passed no V_hat)
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((12, 12)))[0]
    Y, _ = make_signals(Q, 120, BernoulliUniform(0.2), rng=1)
    with pytest.raises(ValueError, match=r"no combinatorial Laplacian fits the basis learned "
                                         r"from Y: infer_laplacian refused it as V_hat: V_hat "
                                         r"has no column close to the constant vector"):
        learn_graph(Y, rng=0)
