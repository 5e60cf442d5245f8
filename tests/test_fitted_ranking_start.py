"""The trimmed fit of ``fitted_ranking`` starts from halves that rounding does not choose."""

import networkx as nx
import numpy as np
import pytest

from gsp_householder.graphs._fitted_ranking import _smaller_beyond_rounding, fitted_ranking
from gsp_householder.graphs._pair_geometry import pair_basis
from gsp_householder.graphs.fourier import fourier_basis


def _pairs(V):
    V = V.copy()
    V[:, 0] = 1.0 / np.sqrt(V.shape[0])
    return pair_basis(V, 0, V[:, 0])


@pytest.mark.parametrize(("n", "p", "seed"), [(60, 0.35, 4), (50, 0.4, 3), (80, 0.3, 2)])
def test_eigenvectors_equal_to_rounding_give_the_same_ranking(n, p, seed):
    # the all-pairs fit (y = 0 to rounding, every residual 1) kept a first half chosen by
    # the last bits of the products: eigenvectors that differ by a few units in the last
    # place, as another BLAS kernel leaves them, kept another half and reached another
    # vector (G(60, 0.35) seed 4: 126 against 614 of 616 edges first); the starts from
    # the smallest leverage and the smallest rows are the same halves for both
    V = fourier_basis(nx.gnp_random_graph(n, p, seed=seed)).eigenvectors
    rng = np.random.default_rng(seed)
    jittered = V * (1.0 + 4 * np.finfo(float).eps * rng.standard_normal(V.shape))
    for r, keep in ((16, 0.5), (32, 0.5), (16, 0.7)):
        scores, (_, I, J) = fitted_ranking(_pairs(V), r=r, keep=keep)
        scores2, (_, I2, J2) = fitted_ranking(_pairs(jittered), r=r, keep=keep)
        assert np.array_equal(I, I2) and np.array_equal(J, J2)
        # the same kept pairs, so the same fit up to the jitter
        np.testing.assert_allclose(scores2, scores, rtol=1e-6, atol=1e-10 * scores.max())


def test_an_objective_smaller_by_rounding_only_is_not_smaller():
    k = 1000
    assert not _smaller_beyond_rounding(29.5 * (1 - 1e-12), 29.5, k)
    assert _smaller_beyond_rounding(29.4, 29.5, k)
    # exact eigenvectors: both ends fit to rounding
    assert not _smaller_beyond_rounding(1e-28, 3e-26, k)
    assert _smaller_beyond_rounding(1e-28, 1e-6, k)
