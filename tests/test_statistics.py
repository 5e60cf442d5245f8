"""SignalStatistics: streaming equals in-memory, merge, blind scale."""

import warnings

import numpy as np
import pytest

from gsp_householder import (
    BernoulliUniform,
    DegenerateStatisticsError,
    DegenerateStatisticsWarning,
    SignalStatistics,
    estimate_scale,
    make_signals,
    random_householder_product,
)


def test_streamed_equals_in_memory():
    rng = np.random.default_rng(0)
    Y = rng.standard_normal((50, 137))
    full = SignalStatistics.from_array(Y)
    streamed = SignalStatistics(50)
    for start in range(0, 137, 20):
        streamed.update(Y[:, start:start + 20])
    np.testing.assert_allclose(streamed.row_sums, full.row_sums, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(streamed.row_sq_sums, full.row_sq_sums, rtol=1e-12)
    assert streamed.count == full.count == 137
    merged = SignalStatistics.from_array(Y[:, :60]).merge(SignalStatistics.from_array(Y[:, 60:]))
    np.testing.assert_allclose(merged.row_sums, full.row_sums, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(full.variance, Y.var(axis=1, ddof=1), rtol=1e-10)
    small_blocks = SignalStatistics.from_array(Y, block_size=7)
    np.testing.assert_allclose(small_blocks.row_sums, full.row_sums, rtol=1e-12, atol=1e-12)


def test_float32_blocks_accumulate_in_float64():
    Y = np.full((3, 1000), 0.1, dtype=np.float32)
    stats = SignalStatistics.from_array(Y)
    assert stats.row_sums.dtype == np.float64
    np.testing.assert_allclose(stats.mean, np.float64(np.float32(0.1)), rtol=1e-12)


def test_blind_scale_is_unbiased():
    model = BernoulliUniform(0.5)
    estimates = []
    for t in range(200):
        V = random_householder_product(200, 2, rng=t)
        Y, _ = make_signals(V, 5, model, rng=1000 + t)
        estimates.append(estimate_scale(Y) ** 2)
    # E[a_hat^2] = a^2; sd of the mean of 200 draws is about 0.0004 here
    assert np.mean(estimates) == pytest.approx(model.mean**2, abs=0.003)


def test_blind_scale_degenerate():
    rng = np.random.default_rng(1)
    Y = rng.standard_normal((100, 10))  # zero-mean data: no first moment
    with pytest.raises(DegenerateStatisticsError, match="not positive"):
        estimate_scale(Y)
    # pure noise: a positive estimate must still be flagged (z < 3 in almost every draw)
    flagged = 0
    for seed in range(100):
        noise = np.random.default_rng(seed).standard_normal((200, 8))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                estimate_scale(noise)
            except DegenerateStatisticsError:
                flagged += 1
                continue
        flagged += any(issubclass(w.category, DegenerateStatisticsWarning) for w in caught)
    assert flagged >= 98
    with pytest.warns(DegenerateStatisticsWarning, match="single signal"):
        estimate_scale(np.ones((5, 1)))


def test_statistics_errors():
    with pytest.raises(ValueError, match="n_nodes must be at least 2"):
        SignalStatistics(1)
    with pytest.raises(TypeError, match="n_nodes must be an integer"):
        SignalStatistics(2.5)
    stats = SignalStatistics(3)
    with pytest.raises(ValueError, match="the statistics are empty"):
        stats.mean
    with pytest.raises(ValueError, match="Y_block must have 3 rows"):
        stats.update(np.ones((4, 2)))
    with pytest.raises(ValueError, match="Y_block must be finite"):
        stats.update(np.array([[1.0], [np.inf], [0.0]]))
    with pytest.raises(ValueError, match="other has n_nodes=4"):
        stats.merge(SignalStatistics(4))
    with pytest.raises(ValueError, match="at least 2 columns"):
        SignalStatistics.from_array(np.ones((3, 1))).variance
