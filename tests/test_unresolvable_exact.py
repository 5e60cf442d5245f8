"""Dense graphs whose leverage rankings agree on an unresolvable noise level: the fitted
rankings' graph is taken when it fits the eigenvectors to rounding or to the noise its
kept pairs show (``_unresolvable_exact``); eigenvectors too noisy for that keep the
complete graph and its warning."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import audit_input, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import ConvergenceWarning


def _basis(G):
    return fourier_basis(nx.convert_node_labels_to_integers(G))


@pytest.mark.parametrize(
    "G",
    [
        # the fifth audit's row (developed on), then held-out G(n, p) graphs
        nx.dense_gnm_random_graph(60, 400, seed=307),
        nx.gnp_random_graph(70, 0.25, seed=24),
        nx.gnp_random_graph(60, 0.3, seed=59),
    ],
    ids=["gnm(60, 400) s307", "gnp(70, 0.25) s24", "gnp(60, 0.3) s59"],
)
def test_exact_dense_graph_found_not_called_noisy(G):
    # main answered each by the complete graph with "too noisy to tell edges from
    # non-edges" (noise 0): the leverage rankings agreed on a level above 1/60
    B = _basis(G)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(shuffled(B.eigenvectors, 0), rng=0)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert res.n_edges == G.number_of_edges()
    assert not [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert res.history["unresolvable_exact"] > 1 / 60
    assert "unresolvable" not in res.history


@pytest.mark.parametrize("noise", [1e-3, 1e-2])
def test_noisy_input_found_at_the_fitted_rankings_noise(noise):
    # main answered the complete graph, "too noisy to tell edges from non-edges": the
    # leverage rankings agreed on 0.037, the fitted rankings' kept pairs show 1.6e-4
    # (1e-3) and 1.6e-3 (1e-2), and their graph fits to that level
    G = nx.dense_gnm_random_graph(60, 400, seed=307)
    B = _basis(G)
    res = infer_laplacian(audit_input(B.eigenvectors, noise, 0), rng=0)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert res.history["unresolvable_exact"] > 1 / 60
    assert "unresolvable" not in res.history


def test_block_model_found_at_the_fitted_rankings_noise():
    # three blocks of 50 at density 0.8, 0.05 between them, perturbed by 1e-3
    # (benchmarks/bench_inference.py's draw 0): the leverage rankings agreed on 0.041,
    # main answered the complete graph (F1 0.46, warned)
    pygsp = pytest.importorskip("pygsp")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # scipy's diags, inside PyGSP
        W = pygsp.graphs.StochasticBlockModel(150, k=3, p=0.8, q=0.05, seed=1).W
    G = nx.from_scipy_sparse_array(W)
    assert nx.is_connected(G)
    B = fourier_basis(G)
    res = infer_laplacian(_bench_perturbed(B.eigenvectors), rng=0)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert res.history["unresolvable_exact"] > 1 / 60


def _bench_perturbed(V, draw=0):
    """The perturbed input of ``benchmarks/bench_inference.py``: one generator, seed
    ``draw``, the exact input's shuffle drawn first, then the perturbation by 1e-3 and
    its shuffle."""
    rng = np.random.default_rng(draw)
    n = V.shape[1]
    rng.permutation(n)  # the exact input's shuffle and signs, drawn first
    rng.choice([-1.0, 1.0], n)
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E))
    return (U @ Wt)[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def test_too_noisy_input_keeps_the_unresolvable_answer(monkeypatch):
    # at 3e-2 the input reaches the rule, whose graph fits neither to rounding nor to
    # the fitted rankings' level: the complete graph and its warning
    from gsp_householder.graphs import _basis_search, _unresolvable_exact

    B = _basis(nx.dense_gnm_random_graph(60, 400, seed=307))
    calls = []

    def spy(*args):
        calls.append(_unresolvable_exact.fitted_when_unresolvable(*args))
        return calls[-1]

    monkeypatch.setattr(_basis_search, "fitted_when_unresolvable", spy)
    with pytest.warns(ConvergenceWarning, match="too noisy to tell edges"):
        res = infer_laplacian(audit_input(B.eigenvectors, 3e-2, 0), rng=0)
    assert calls == [None]
    assert res.n_edges == 60 * 59 // 2
    assert "unresolvable" in res.history
    assert "unresolvable_exact" not in res.history
