"""The signal model: moments, sampling, SNR, reproducibility."""

import numpy as np
import pytest

from gsp_householder import BernoulliUniform, make_signals, random_householder_product


def test_moments_match_samples():
    model = BernoulliUniform(0.3, low=1.0, high=3.0)
    x = model.sample(400_000, rng=0)
    # standard errors: sqrt(var / N) ~ 1.7e-3 for the mean; 4 sigma bounds
    assert abs(x.mean() - model.mean) < 4 * np.sqrt(model.variance / x.size)
    assert x.var() == pytest.approx(model.variance, rel=0.01)
    assert np.mean(x != 0) == pytest.approx(0.3, abs=4 * np.sqrt(0.21 / x.size))
    nz = x[x != 0]
    assert nz.min() >= 1.0 and nz.max() <= 3.0


@pytest.mark.parametrize("theta,expected", [(0.5, -1.7308), (0.1, 6.5607), (0.9, 1.5968)])
def test_excess_kurtosis(theta, expected):
    model = BernoulliUniform(theta)
    assert model.excess_kurtosis == pytest.approx(expected, abs=1e-3)
    x = model.sample(1_000_000, rng=1)
    xc = x - x.mean()
    empirical = np.mean(xc**4) / np.mean(xc**2) ** 2 - 3
    assert empirical == pytest.approx(expected, abs=0.05)


def test_theta_one_has_full_support():
    x = BernoulliUniform(1.0).sample((50, 50), rng=2)
    assert np.all(x >= 1.0)


def test_random_householder_product_distributions():
    V = random_householder_product(500, 3, rng=0)
    assert np.all(V.vectors >= 0)  # uniform[0, 1] entries, normalised
    assert V.vectors.sum(axis=0) == pytest.approx(np.sqrt(3 * 500) / 2, rel=0.1)
    G = random_householder_product(500, 3, distribution="gaussian", rng=0)
    assert np.all(np.abs(G.vectors.sum(axis=0)) < 5)  # c = O(1)
    with pytest.raises(ValueError, match="distribution must be"):
        random_householder_product(5, 1, distribution="laplace")


def test_make_signals_noiseless_and_snr():
    V = random_householder_product(200, 2, rng=0)
    model = BernoulliUniform(0.5)
    Y, X = make_signals(V, 300, model, rng=1)
    np.testing.assert_allclose(Y, V @ X, atol=1e-13)
    for snr in (0.0, 10.0, 30.0):
        Yn, Xn = make_signals(V, 300, model, snr_db=snr, rng=1)
        clean = V @ Xn
        measured = 10 * np.log10(np.mean(clean**2) / np.mean((Yn - clean) ** 2))
        assert measured == pytest.approx(snr, abs=0.1)
    # dense V gives the same signals as the HouseholderProduct
    Y2, X2 = make_signals(V.to_dense(), 300, model, rng=1)
    np.testing.assert_allclose(Y2, Y, atol=1e-12)
    np.testing.assert_array_equal(X2, X)


def test_same_seed_bit_identical():
    V = random_householder_product(100, 2, rng=5)
    a = make_signals(V, 10, BernoulliUniform(0.5), snr_db=10, rng=7)
    b = make_signals(V, 10, BernoulliUniform(0.5), snr_db=10, rng=7)
    np.testing.assert_array_equal(a[0], b[0])
    np.testing.assert_array_equal(a[1], b[1])


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"theta": 1.5}, ValueError, r"theta must be in \(0, 1\], got 1.5"),
    ({"theta": 0}, ValueError, "theta must be in"),
    ({"theta": float("nan")}, ValueError, "theta must be"),
    ({"theta": 0.5, "low": 2.0, "high": 1.0}, ValueError, "low must be smaller than high"),
    ({"theta": 0.5, "low": float("inf")}, ValueError, "low must be finite"),
])
def test_model_errors(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        BernoulliUniform(**kwargs)


def test_make_signals_errors():
    V = random_householder_product(10, 1, rng=0)
    with pytest.raises(TypeError, match="model must be a BernoulliUniform"):
        make_signals(V, 5, 0.5)
    with pytest.raises(ValueError, match="n_signals must be >= 1"):
        make_signals(V, 0, BernoulliUniform(0.5))
    with pytest.raises(TypeError, match="snr_db must be a real number"):
        make_signals(V, 5, BernoulliUniform(0.5), snr_db="high")
    with pytest.raises(ValueError, match="V must be square"):
        make_signals(np.ones((3, 4)), 5, BernoulliUniform(0.5))
