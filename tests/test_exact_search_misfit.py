"""A graph searched as for exact eigenvectors that does not fit them is warned of."""

from __future__ import annotations

import warnings

import networkx as nx
import pytest
from _basis_inputs import audit_input as _audit_input
from _basis_inputs import shuffled

from gsp_householder import (
    AmbiguousGraphWarning,
    ConvergenceWarning,
    compare_graphs,
    fourier_basis,
    infer_laplacian,
)
from gsp_householder.graphs._exact_search_misfit import exact_search_misfit, exact_search_noise


@pytest.mark.parametrize(("history", "residual", "expected"), [
    ({"noise": 0.0, "noise_estimates": [0.02, 1e-12, 0.05]}, 0.06, True),
    ({"noise": 1e-11, "noise_estimates": [0.02, 0.03]}, 0.06, True),
    # found at a noise level, or fitting exactly: nothing to say
    ({"noise": 3e-4, "noise_estimates": [3e-4, 4e-4]}, 6e-4, False),
    ({"noise": 0.0, "noise_estimates": [0.02, 0.03]}, 1e-12, False),
    # most rankings fit to rounding (few pairs per unknown: the perturbed Petersen graph)
    ({"noise": 0.0, "noise_estimates": [2e-15, 2e-15, 0.01]}, 4e-4, False),
    # no estimate, or already said not to fit
    ({"noise": 0.0}, 0.06, False),
    ({"noise": 0.0, "noise_estimates": [0.02], "exact_misfit": 0.06}, 0.06, False),
    ({"noise": 0.0, "noise_estimates": [0.02], "complete_graph_found": True}, 0.06, False),
    # held to the constant-diagonal family's noise level (a perturbed 16-regular graph)
    ({"noise": 0.0, "noise_estimates": [0.027], "constant_diagonal_graph": True}, 2.4e-4,
     False),
])
def test_exact_search_misfit_conditions(history, residual, expected):
    assert exact_search_misfit(history, residual, 10, 45) is expected
    assert ("exact_search_misfit" in history) is expected
    assert exact_search_misfit({"noise": 0.0, "noise_estimates": [0.02]}, 0.06, 45, 45) is False


@pytest.mark.parametrize("seed", [0, 2, 4])
def test_exact_normalized_basis_is_right_or_warned(seed):
    # before: random_geometric_graph(100, 0.2, seed=21)'s normalized eigenvectors,
    # shuffled (seeds 0, 2, 4), gave 440 edges (F1 0.984) or 1131 (F1 0.554) at
    # residuals 0.06-0.066 (the truth fits to 2e-15), with no warning
    G = nx.random_geometric_graph(100, 0.2, seed=21)
    G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
    B = fourier_basis(G, laplacian="normalized")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(shuffled(B.eigenvectors, seed), laplacian="normalized",
                                 rng=0)
    warned = [w for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert result.residual <= 1e-6 or warned
    assert compare_graphs(B.laplacian, result)["f1"] >= 0.95 or warned


@pytest.mark.parametrize(("history", "residual", "expected"), [
    # the icosahedron perturbed by 1e-4 (draw 0): the leverage rankings' estimates, the
    # constant-diagonal family's graph at 4.5 times their median
    ({"noise": 0.0, "noise_estimates": [7e-6, 7e-6, 0.21],
      "leverage_noise_estimates": [1.7e-5, 1.6e-5, 1.6e-5, 1.6e-5, 5.7e-6, 2.6e-6, 2.6e-6,
                                   2.6e-6], "constant_diagonal_graph": True}, 4.9e-5, 1.1e-5),
    ({"noise": 0.0, "noise_estimates": [2e-5, 4e-5, 0.2]}, 6e-5, 3e-5),
    # found at a noise level (its own checks), or fitting exactly: none
    ({"noise": 3e-4, "noise_estimates": [3e-4, 4e-4]}, 6e-4, 0.0),
    ({"noise": 0.0, "noise_estimates": [2e-5, 4e-5]}, 1e-12, 0.0),
    # most rankings fit to rounding (few pairs per unknown: the perturbed Petersen graph)
    ({"noise": 0.0, "noise_estimates": [2e-15, 2e-15, 1e-4]}, 4e-4, 0.0),
    # the graph does not fit to the level (another check's concern), no level, or one
    # where no edge leaves the noise band
    ({"noise": 0.0, "noise_estimates": [1e-5, 1e-5]}, 6e-5, 0.0),
    ({"noise": 0.0, "noise_estimates": [0.2, 0.3]}, 6e-5, 0.0),
    ({"noise": 0.0}, 6e-5, 0.0),
    ({"noise": 0.0, "noise_estimates": [0.02, 0.03]}, 0.06, 0.0),
])
def test_exact_search_noise_conditions(history, residual, expected):
    assert exact_search_noise(history, residual) == pytest.approx(expected, rel=0.02)
    assert history.get("exact_search_noise", 0.0) == pytest.approx(expected, rel=0.02)


def test_icosahedron_searched_as_exact_at_small_noise_is_right_or_warned():
    # before: at 1e-4 (draw 0) the constant-diagonal family's graph, found by searches
    # that took the eigenvectors as exact, was an isomorphic copy (F1 0.0) with no
    # warning: neither checked as exact (residual 4.9e-5) nor at a noise level
    B = fourier_basis(nx.icosahedral_graph())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(_audit_input(B.eigenvectors, 1e-4, 0), rng=0)
    ambiguous = [w for w in caught if issubclass(w.category, AmbiguousGraphWarning)]
    assert compare_graphs(B.laplacian, result)["f1"] >= 0.95 or ambiguous
