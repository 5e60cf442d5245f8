"""A graph judged at its own noise where the only noise level is the fitted rankings'."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input, perturbed, shuffled
from test_cycle_unfolding import _edges

from gsp_householder import fourier_basis, infer_laplacian
from gsp_householder.exceptions import AmbiguousGraphWarning, ConvergenceWarning
from gsp_householder.graphs import _basis_input
from gsp_householder.graphs._fitted_level_fit import (
    fitted_level_only,
    largest_ranking_level,
    non_edge_level,
    ratio_at_own_noise,
)
from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT

#: The leverage rankings' estimates on the perturbed Petersen graph: clean to rounding.
EXACT_LEVERAGE = {"leverage_noise_estimates": [1e-15, 4e-13]}


def _petersen(draw):
    """The inference's basis and pair rows for the Petersen graph's eigenvectors
    perturbed by 1e-3 and shuffled (draw ``draw``), and the graph's unit weights."""
    V = shuffled(perturbed(fourier_basis(nx.petersen_graph()).eigenvectors, 1e-3, draw), draw)
    basis = _basis_input._read_basis(V, None, None, None, None)
    B = _basis_input._anchored_pair_basis(basis)
    W = sp.csr_array(nx.to_scipy_sparse_array(nx.petersen_graph(), dtype=float))
    return basis, B, W


def _moved_edge(W):
    """``W`` with its edge (0, 1) moved to the non-edge (0, 2)."""
    moved = W.tolil()
    assert moved[0, 1] == 1.0 and moved[0, 2] == 0.0
    moved[0, 1] = moved[1, 0] = 0.0
    moved[0, 2] = moved[2, 0] = 1.0
    return sp.csr_array(moved)


def test_the_level_is_the_fitted_rankings_alone_when_a_leverage_ranking_is_clean():
    assert fitted_level_only(EXACT_LEVERAGE)
    assert not fitted_level_only({"leverage_noise_estimates": [3e-4, 4e-4]})
    assert not fitted_level_only({"noise_estimates": [1e-15]})
    assert not fitted_level_only({})


@pytest.mark.parametrize("draw", [0, 7])
def test_the_petersen_graph_fits_its_own_noise_within_the_rankings_level(draw):
    basis, B, W = _petersen(draw)
    _, ratio = own_noise(basis, W)
    # the graph behind the eigenvectors leaves what its non-edges predict (about 1)
    assert ratio <= RESIDUAL_CONSISTENT
    shown = non_edge_level(B, W)
    assert 0.0 < shown < 1e-3
    # within RESIDUAL_CONSISTENT times the rankings' level, beyond it not (1% either side)
    within = 1.01 * shown / RESIDUAL_CONSISTENT
    assert ratio_at_own_noise(basis, B, W, EXACT_LEVERAGE, within) == ratio
    below = shown / RESIDUAL_CONSISTENT / 1.01
    assert ratio_at_own_noise(basis, B, W, EXACT_LEVERAGE, below) is None
    # a level the leverage rankings show judges a graph other than a tree as before
    noisy = {"leverage_noise_estimates": [3e-4]}
    assert ratio_at_own_noise(basis, B, W, noisy, within) is None


@pytest.mark.parametrize("draw", [0, 7])
def test_a_graph_with_an_edge_moved_shows_a_level_far_above_the_truths(draw):
    # its residual is 4 times what its own non-edges predict (within RESIDUAL_CONSISTENT:
    # that ratio alone does not reject it), but its non-edges hold an edge of the truth,
    # and read as the rankings read their pairs they show some 200 times the truth's level
    basis, B, W = _petersen(draw)
    moved = _moved_edge(W)
    level = non_edge_level(B, W)
    assert non_edge_level(B, moved) > RESIDUAL_CONSISTENT**2 * level
    assert ratio_at_own_noise(basis, B, moved, EXACT_LEVERAGE, level) is None


@pytest.mark.parametrize("draw", [0, 7])
def test_a_relabelled_petersen_graph_shows_a_level_far_above_the_truths(draw):
    # another Petersen graph on the nodes: the same spectrum, and its non-edges hold
    # edges of the truth, which show far above the eigenvectors' noise
    basis, B, W = _petersen(draw)
    perm = np.random.default_rng(draw).permutation(10)
    other = sp.csr_array(W.toarray()[np.ix_(perm, perm)])
    assert sp.triu(other.multiply(W), 1).nnz < 15
    level = non_edge_level(B, W)
    assert non_edge_level(B, other) > RESIDUAL_CONSISTENT * level
    assert ratio_at_own_noise(basis, B, other, EXACT_LEVERAGE, level) is None


def test_the_largest_ranking_level_is_the_leverage_rankings_largest_estimate():
    # the leverage rankings' estimates, set aside when the fitted rankings ran
    history = {"leverage_noise_estimates": [1e-15, 2e-5, 6e-5], "noise_estimates": [0.04]}
    assert largest_ranking_level(history) == 6e-5
    assert largest_ranking_level({"noise_estimates": [3e-5, 1e-4, 0.2]}) == 1e-4
    assert largest_ranking_level({"noise_estimates": [1e-15]}) is None
    assert largest_ranking_level({}) is None


@pytest.mark.parametrize(("n", "draw"), [(12, 0), (13, 2), (16, 1), (20, 0)])
def test_a_perturbed_path_is_judged_at_its_own_noise_and_its_twins_listed(n, draw):
    # the rankings keep few pairs for the unknowns (18 for 11 on 12 nodes): their
    # smallest estimate is 4 to 10 times below the noise the answer's non-edges show,
    # and the path (or a DCT twin) was warned as not fitting, its twins not listed
    G = nx.path_graph(n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(graph_bench_input(G, draw), rng=0)
    categories = [w.category for w in caught]
    edges = _edges(result.laplacian)
    assert len(edges) == n - 1
    assert result.history["searches_noise_ratio"] > RESIDUAL_CONSISTENT
    assert result.history["noise_ratio"] <= RESIDUAL_CONSISTENT
    assert ConvergenceWarning not in categories
    # the answer is one of several paths with these eigenvectors: warned, the truth listed
    assert AmbiguousGraphWarning in categories
    truth = {tuple(sorted(e)) for e in G.edges()}
    assert truth == edges or truth in [_edges(L) for L in result.candidates]


@pytest.mark.parametrize("draw", [0, 2])
def test_a_path_with_an_edge_moved_is_not_judged_at_its_own_noise(draw):
    # on 12 nodes a wrong tree's residual can stay within what its own non-edges
    # predict (ratio 3.2), but those non-edges, read as the rankings read their pairs,
    # show some 20 times the rankings' largest estimate (the truth's: 3.5 times)
    G = nx.path_graph(12)
    V = graph_bench_input(G, draw)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = infer_laplacian(V, rng=0)
    history = result.history
    basis = _basis_input._read_basis(V, None, None, None, None)
    B = _basis_input._anchored_pair_basis(basis)
    W = sp.csr_array(nx.to_scipy_sparse_array(G, dtype=float))
    answer = sp.csr_array(-sp.triu(sp.csr_array(result.laplacian), 1))
    answer = sp.csr_array((answer + answer.T) / answer.max())
    moved = W.tolil()
    moved[5, 6] = moved[6, 5] = 0.0
    moved[5, 7] = moved[7, 5] = 1.0
    moved = sp.csr_array(moved)
    reference = largest_ranking_level(history)
    assert non_edge_level(B, moved) > 2 * RESIDUAL_CONSISTENT * reference
    assert ratio_at_own_noise(basis, B, moved, history, reference) is None
    # the path the inference returned (the truth or a DCT twin) is judged so
    assert ratio_at_own_noise(basis, B, answer, history, reference) == pytest.approx(
        history["noise_ratio"], rel=1e-6
    )


def test_no_box_product_is_read_off_a_spanning_tree(monkeypatch):
    # a box product of connected factors has (a - 1)(b - 1) edges more than a tree: the
    # factors are not inferred for a tree judged at a noise level
    from gsp_householder.graphs import laplacian_inference

    def refuse(*args):
        raise AssertionError("a box product was read off a tree")

    monkeypatch.setattr(laplacian_inference, "box_from_partitions", refuse)
    monkeypatch.setattr(laplacian_inference, "box_from_levels", refuse)
    G = nx.path_graph(14)
    basis = _basis_input._read_basis(graph_bench_input(G, 8), None, None, None, None)
    W = sp.csr_array(nx.to_scipy_sparse_array(G, dtype=float))
    assert laplacian_inference._box_read(basis, W, 1e-4) is None
    # a graph with a cycle is read as before
    C = sp.csr_array(nx.to_scipy_sparse_array(nx.cycle_graph(14), dtype=float))
    with pytest.raises(AssertionError, match="read off a tree"):
        laplacian_inference._box_read(basis, C, 1e-4)
