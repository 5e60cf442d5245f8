"""The one-call pipeline: signals on a graph -> learned Fourier basis -> inferred Laplacian."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest

from gsp_householder import (
    AmbiguousGraphWarning,
    BernoulliUniform,
    ConvergenceWarning,
    HouseholderProduct,
    InferredLaplacian,
    compare_graphs,
    fourier_basis,
    learn_graph,
    make_graph_signals,
    make_signals,
    matched_basis_error,
)
from gsp_householder.graphs.inferred import to_networkx


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
    with warnings.catch_warnings():
        # the 8-cycle's eigenspaces hold other 8-cycles, which the result says
        warnings.filterwarnings("ignore", category=AmbiguousGraphWarning)
        result = learn_graph(Y, nodelist=B.nodelist, rng=0)
    H = result.to_networkx()
    assert set(H.nodes) == set(G.nodes)
    # the 8-cycle's eigenspaces hold other 8-cycles (edges i ~ i + 3 mod 8, and mixes
    # of the two), and which one a learned basis gives is decided at rounding level
    # (the BLAS kernels): check an 8-cycle whose Laplacian the learned basis
    # diagonalises, on the labelled nodes
    assert nx.is_isomorphic(H, G)
    V_hat = result.learned.dictionary.to_dense()
    L = result.laplacian.toarray()
    np.testing.assert_allclose(L @ V_hat, V_hat * result.eigenvalues, atol=1e-8)
    # the labels name the rows of the learned basis: the labelled graph's adjacency, in
    # the order of the labels, is the pattern of the Laplacian that diagonalises it
    A = nx.to_numpy_array(H, nodelist=B.nodelist, weight=None)
    assert np.array_equal(A != 0, (L != 0) & ~np.eye(8, dtype=bool))


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


@pytest.mark.parametrize(("options", "message"), [
    ({"laplacian": "signless"}, "laplacian must be one of"),
    ({"scale": -1.0}, "scale must be > 0"),
    ({"scale": float("nan")}, "scale must be finite"),
    ({"laplacian": "normalized", "scale": 2.0}, "scale applies to combinatorial"),
])
def test_bad_inference_options_are_named_before_learning(monkeypatch, options, message):
    # they were refused only by infer_laplacian, after the basis was learned (minutes at
    # n = 1000), as "no signless Laplacian fits the basis learned from Y"
    import gsp_householder.graphs.from_signals as from_signals

    def fail(*args, **kwargs):
        raise AssertionError("the basis was learned before the options were checked")
    monkeypatch.setattr(from_signals, "learn_orthogonal_basis", fail)
    with pytest.raises(ValueError, match=message) as caught:
        learn_graph(np.ones((5, 30)), **options)
    assert "fits the basis learned" not in str(caught.value)


@pytest.mark.parametrize("nodelist", [5, "abcde"])
def test_nodelist_that_is_not_a_sequence_of_labels_is_named(nodelist):
    with pytest.raises(TypeError, match="nodelist must be a sequence of node labels"):
        learn_graph(np.ones((5, 30)), nodelist=nodelist)


def test_graph_signals_are_taken_with_their_node_labels():
    # what make_graph_signals returns, passed as it is: its signals and its labels
    # (it was refused as "Y could not be converted to an array")
    G = nx.florentine_families_graph()
    signals = make_graph_signals(G, 5 * G.number_of_nodes(), BernoulliUniform(0.1), rng=0)
    result = learn_graph(signals, rng=0)
    assert result.nodelist == signals.nodelist
    assert list(result.to_networkx()) == signals.nodelist
    assert compare_graphs(G, result)["f1"] == 1.0
    # an explicit nodelist wins
    labels = [f"n{i}" for i in range(G.number_of_nodes())]
    assert learn_graph(signals, nodelist=labels, rng=0).nodelist == labels


def test_a_basis_of_no_graph_is_named_as_learned_from_Y():
    # signals on a random orthogonal basis: learned exactly, but no Laplacian fits it; the
    # error must say the basis was learned from Y (the caller passed no V_hat)
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((12, 12)))[0]
    Y, _ = make_signals(Q, 120, BernoulliUniform(0.2), rng=1)
    with pytest.raises(ValueError, match=r"no combinatorial Laplacian fits the basis learned "
                                         r"from Y: infer_laplacian refused it as V_hat: V_hat "
                                         r"has no column close to the constant vector"):
        learn_graph(Y, rng=0)


def test_constant_vector_across_two_learned_columns_is_rotated_out(monkeypatch):
    # a learner may return the constant vector mixed at 45 degrees with another column
    # (Petersen from 50 signals at 30 dB, seed 0, on some BLAS kernels: |cos| 0.708 and
    # 0.706); no column is close to it, but their plane holds it: rotated there, the
    # graph is found, with a warning. The learned basis is that mix, made exactly.
    from gsp_householder.graphs import from_signals
    from gsp_householder.learning.result import DictionaryResult

    B = fourier_basis(nx.petersen_graph())
    V = B.eigenvectors.copy()
    c = s = np.sqrt(0.5)
    V[:, 0], V[:, 3] = c * B.eigenvectors[:, 0] + s * B.eigenvectors[:, 3], \
        -s * B.eigenvectors[:, 0] + c * B.eigenvectors[:, 3]
    Y, _ = make_signals(B.eigenvectors, 50, BernoulliUniform(0.1), snr_db=30, rng=0)
    learned = DictionaryResult(HouseholderProduct.from_orthogonal(V), V.T @ Y, converged=True)
    monkeypatch.setattr(from_signals, "learn_orthogonal_basis", lambda *a, **k: learned)
    with pytest.warns((ConvergenceWarning, AmbiguousGraphWarning)) as caught:
        res = learn_graph(Y, rng=0)       # exact: Petersen's complement is reported too
    assert any(issubclass(w.category, ConvergenceWarning)
               and "only across its columns" in str(w.message) for w in caught)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert len(res.history["constant_plane"]) == 2


def test_constant_plane_rotation_is_the_only_one_in_that_plane():
    from gsp_householder.graphs.from_signals import _constant_plane

    V = fourier_basis(nx.cycle_graph(9)).eigenvectors
    c, s = np.cos(0.6), np.sin(0.6)
    mixed = V.copy()
    mixed[:, 0], mixed[:, 4] = c * V[:, 0] + s * V[:, 4], -s * V[:, 0] + c * V[:, 4]
    R, plane = _constant_plane(mixed)
    assert plane is not None and {plane[0], plane[1]} == {0, 4}
    assert np.allclose(np.abs(R.T @ V), np.eye(9), atol=1e-12)
    assert _constant_plane(V)[1] is None
    # a third column needed: not rotated (the rotation in three columns is not unique)
    three = mixed.copy()
    three[:, 0], three[:, 5] = c * mixed[:, 0] + s * V[:, 5], -s * mixed[:, 0] + c * V[:, 5]
    assert _constant_plane(three)[1] is None


def test_star_inside_the_wheel_is_reported_from_noisy_signals():
    # wheel(60) from 300 signals at 40 dB, seed 1: the star is returned (valid, sparser);
    # the rim's sub-search finds the 59-cycle but does not fit the twin class's few
    # columns to their noise level (5.5 times); the sum fits the whole basis as well as
    # the star, so the wheel is reported, not left silent
    # (signals on the eigenvectors fourier_basis gave before its repeated eigenspaces
    # took ties by node order, stored)
    from _basis_inputs import stored_eigenvectors

    B = fourier_basis(nx.wheel_graph(60))
    V = stored_eigenvectors("wheel_60", B.laplacian)
    Y, _ = make_signals(V, 300, BernoulliUniform(0.1), snr_db=40, rng=1)
    with pytest.warns(AmbiguousGraphWarning, match="twin nodes"):
        res = learn_graph(Y, rng=0)
    assert res.n_edges == 59 and res.history["superset_edges"] == 118 and res.ambiguous
    assert set(to_networkx(res.laplacian).edges()) <= set(to_networkx(res.candidates[-1]).edges())


def test_normalized_laplacian_from_signals_is_right_or_warned():
    # before: random_geometric_graph(100, 0.2, seed=21) (largest component), normalized
    # Laplacian, theta = 0.1, p = 5n: the learned basis was exact to 1e-12, the graph
    # inferred from it had 1131 edges for 454 (F1 0.554) at a residual of 0.061, found
    # by searches that took the basis as exact, and nothing warned
    G = nx.random_geometric_graph(100, 0.2, seed=21)
    G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
    signals = make_graph_signals(G, 5 * G.number_of_nodes(), BernoulliUniform(0.1), rng=0,
                                 laplacian="normalized")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = learn_graph(signals, rng=0, laplacian="normalized")
    assert matched_basis_error(signals.V.to_dense(), result.learned.dictionary.to_dense()) < 1e-8
    f1 = compare_graphs(fourier_basis(G, laplacian="normalized").laplacian, result)["f1"]
    warned = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert f1 >= 0.95 or warned
    if result.residual > 1e-6:
        # a graph that does not fit an exact basis is never returned silently
        assert warned


def test_grid_from_signals_is_right_or_warned_with_its_twins():
    # before: nx.grid_2d_graph(8, 9) from its signals (theta = 0.1, p = 5n, basis exact
    # to 5e-13) came back as an isomorphic DCT twin (127 edges, F1 0.0) with no
    # warning; a grid's eigenvectors are those of its twins too (not identifiable):
    # the answer now lists them and says so
    G = nx.grid_2d_graph(8, 9)
    signals = make_graph_signals(G, 5 * G.number_of_nodes(), BernoulliUniform(0.1), rng=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = learn_graph(signals, rng=0)
    f1 = compare_graphs(G, result)["f1"]
    assert f1 == 1.0 or any(issubclass(w.category, AmbiguousGraphWarning) for w in caught)
    found = result.to_networkx()
    if nx.is_isomorphic(found, G):
        # the answer is a grid: its twins, the grid itself among them when the answer
        # is a twin, are candidates of as many edges, and the warning says so
        assert any(issubclass(w.category, AmbiguousGraphWarning) for w in caught)
        assert result.history.get("equally_sparse_edges")


def test_dense_codes_below_the_threshold_are_refused_saying_why(monkeypatch):
    # karate from p = 5n at theta = 0.5 (0/10 documented): the refusal says that dense codes
    # need about 0.4 n^2 signals; a short learner keeps the test fast
    import gsp_householder.graphs.from_signals as from_signals

    learn = from_signals.learn_orthogonal_basis
    monkeypatch.setattr(
        from_signals,
        "learn_orthogonal_basis",
        lambda Y, **kw: learn(Y, max_iter=20, n_restarts=0, **kw),
    )
    G = nx.karate_club_graph()
    Y, _, _ = make_graph_signals(G, 5 * 34, BernoulliUniform(0.5), rng=0)
    with pytest.warns(ConvergenceWarning, match="the codes are dense"):
        with pytest.raises(ValueError, match=r"did not settle \(.*0\.4 n\^2 = 463.*\), and"):
            learn_graph(Y, rng=0)
