"""Exact eigenvectors of dense random graphs whose leverage rankings agree on an
unresolvable noise level: the fitted rankings' graph is taken when it fits them to
rounding (``_unresolvable_exact``); noisy eigenvectors keep the complete graph and its
warning."""

from __future__ import annotations

import warnings

import networkx as nx
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


def test_noisy_input_keeps_the_unresolvable_answer():
    # at 1e-3 no graph fits to rounding: the complete graph and its warning, as before
    B = _basis(nx.dense_gnm_random_graph(60, 400, seed=307))
    with pytest.warns(ConvergenceWarning, match="too noisy to tell edges"):
        res = infer_laplacian(audit_input(B.eigenvectors, 1e-3, 0), rng=0)
    assert res.n_edges == 60 * 59 // 2
    assert "unresolvable" in res.history
    assert "unresolvable_exact" not in res.history


def test_fitted_rankings_searched_and_refused_on_noisy_input(monkeypatch):
    # the noisy input reaches the rule, whose graph does not fit to rounding
    from gsp_householder.graphs import _basis_search, _unresolvable_exact

    B = _basis(nx.dense_gnm_random_graph(60, 400, seed=307))
    calls = []

    def spy(*args):
        calls.append(_unresolvable_exact.fitted_exact(*args))
        return calls[-1]

    monkeypatch.setattr(_basis_search, "fitted_exact", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        infer_laplacian(audit_input(B.eigenvectors, 1e-3, 0), rng=0)
    assert calls == [None]
