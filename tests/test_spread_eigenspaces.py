"""Eigenvalues joined into one eigenspace only when their steps are within the noise."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input
from test_edge_test_descent import _basis
from test_weighted_cycle import _random_ring

from gsp_householder import fourier_basis
from gsp_householder.graphs import compare_graphs, infer_laplacian
from gsp_householder.graphs._eigenspace_search import (
    EIGENSPACE_SEPARATION,
    _eigenspace_groups,
    _separating_step,
)

pytest.importorskip("pygsp")


def test_a_split_whose_joined_steps_are_within_the_noise_groups():
    # steps of 1.2 and 1.5 noise units joined, 500 units apart: one split
    gap = 0.01
    assert _separating_step(np.array([0.012, 5.0, 0.015]), gap) == 0.015


def test_a_split_that_joins_values_apart_at_the_noise_is_refused():
    # the largest step is 1000 times the next, but the steps joined are 50 and 60 noise
    # units: values as far apart as EIGENSPACE_SEPARATION times the noise are apart
    gap = 0.01
    assert _separating_step(np.array([0.5, 50.0, 0.6]), gap) is None


@pytest.mark.parametrize(("joined", "expected"), [(0.999, True), (1.0, False)])
def test_the_joined_step_is_held_below_the_separation(joined, expected):
    # the steps joined are below EIGENSPACE_SEPARATION noise units, or the split refused
    gap = 1.0
    step = joined * EIGENSPACE_SEPARATION * gap
    steps = np.array([step, 1e6 * gap, 0.5 * step])
    assert (_separating_step(steps, gap) == step) is expected


def _ring_400():
    """``RandomRing(400, seed=6)`` perturbed as the benchmark's draw 0 (weights 0.17 to
    3031) and the truth's weights."""
    G = _random_ring(400, 6)
    W = sp.csr_array(fourier_basis(G).laplacian)
    W = sp.csr_array(-W)
    W.setdiag(0.0)
    W.eliminate_zeros()
    return G, _basis(graph_bench_input(G, 0)), W


def test_a_ring_of_spread_weights_gives_no_eigenspaces():
    # the truth's eigenvalues (diagonal of V^T L V): the largest step 205 times the
    # next, but 30 steps below it at least EIGENSPACE_SEPARATION noise units; the split
    # joined 398 columns from 1.0e-5 to 5.9 (steps up to 395 noise units) into one group
    _, basis, W = _ring_400()
    assert _eigenspace_groups(basis, W) is None


@pytest.mark.slow
def test_a_ring_read_is_not_searched_again_on_false_eigenspaces():
    # the ring read and shown (``_weighted_cycle``) was searched again on those groups:
    # 14 of 17.5 CPU s, the ring kept; now the search is not made, the same ring
    G, _, _ = _ring_400()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = infer_laplacian(graph_bench_input(G, 0), rng=0)
    assert res.history["weighted_cycle"] is True
    assert "found_eigenspaces" not in res.history
    assert compare_graphs(fourier_basis(G).laplacian, res.laplacian)["f1"] == 1.0
