"""The fitted rankings searched before the leverage ladder when no leverage ranking is
clean (``_basis_search._fitted_before_leverage``)."""

import copy

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import bench_input, pygsp_block_model

import gsp_householder.graphs._basis_search as basis_search
from gsp_householder.graphs._pair_geometry import pair_basis
from gsp_householder.graphs._ranking_ladder import RANKINGS, kept_ranking
from gsp_householder.graphs._thresholds import MAX_NOISE
from gsp_householder.graphs.comparison import compare_graphs
from gsp_householder.graphs.fourier import fourier_basis
from gsp_householder.graphs.laplacian_inference import infer_laplacian


def _no_leverage_ladder(*args, **kwargs):
    raise AssertionError("the leverage ladder was searched")


@pytest.fixture(scope="module")
def block_model():
    G = pygsp_block_model(120, 3, 1)
    return G, fourier_basis(G)


@pytest.mark.parametrize("perturbed", [False, True])
def test_unclean_leverage_rankings_are_not_searched_when_the_fitted_graph_fits(
    block_model, perturbed, monkeypatch
):
    # every leverage ranking of the block model keeps edges (estimates 0.07 to 0.11):
    # their exact searches and the uncapped rankings find no graph, the fitted
    # rankings' graph is the truth
    _, B = block_model
    monkeypatch.setattr(basis_search, "capped_fallback", _no_leverage_ladder)
    res = infer_laplacian(bench_input(B.eigenvectors, 0, perturbed), rng=0)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    levels = res.history["leverage_noise_estimates"]
    assert len(levels) == len(RANKINGS) and min(levels) > MAX_NOISE


def _pairs(V):
    return pair_basis(V, 0, np.abs(V[:, 0]))


def test_a_clean_first_ranking_computes_no_other():
    # a sparse graph's first leverage ranking is clean: the ladder searches it, and no
    # other ranking is computed for the rule
    G = nx.connected_watts_strogatz_graph(80, 6, 0.1, seed=1)
    B = _pairs(fourier_basis(G).eigenvectors)
    history = {"noise": 0.0, "noise_estimates": []}
    assert kept_ranking(B, RANKINGS[0])[2] <= MAX_NOISE
    assert basis_search._fitted_before_leverage(B, {}, None, None, history) is None
    assert len(B.rankings["same"]) == 1
    assert history == {"noise": 0.0, "noise_estimates": []}


class _LeverageLadder(Exception):
    """Raised where the leverage ladder would start: the test has seen what it needs."""


def test_a_fitted_graph_that_does_not_fit_leaves_history_and_generator():
    # a random 16-regular graph: no leverage ranking is clean, the fitted rankings give
    # no graph that fits, and the leverage ladder starts from the state the rule found
    # (three blocks of 33 at density 0.7, once such a case, are now found by the fitted
    # rankings with their flat unknowns, ``_fitted_ranking.flat_unknowns``)
    B = fourier_basis(nx.random_regular_graph(16, 80, seed=1))
    seen = {}
    original = basis_search._fitted_before_leverage

    def checked(B, basis, tol, rng, history):
        seen["before"] = (copy.deepcopy(history), copy.deepcopy(rng.bit_generator.state))
        seen["out"] = original(B, basis, tol, rng, history)
        return seen["out"]

    def leverage_ladder(ladder, B, basis, tol, rng, history):
        seen["at_ladder"] = (copy.deepcopy(history), copy.deepcopy(rng.bit_generator.state))
        raise _LeverageLadder

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(basis_search, "_fitted_before_leverage", checked)
        mp.setattr(basis_search, "capped_fallback", leverage_ladder)
        with pytest.raises(_LeverageLadder):
            infer_laplacian(bench_input(B.eigenvectors, 0), rng=0)
    assert seen["out"] is None
    assert seen["at_ladder"] == seen["before"]
