"""A graph judged at its own noise where the only noise level is the fitted rankings'."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import fourier_basis
from gsp_householder.graphs import _basis_input
from gsp_householder.graphs._fitted_level_fit import (
    fitted_level_only,
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
    # a level the leverage rankings show judges the graph as before
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
