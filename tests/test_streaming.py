"""Streaming statistics: blocks, memory-mapped files and partial_fit equal the in-memory pass."""

from __future__ import annotations

import numpy as np
import pytest

from gsp_householder import (
    BernoulliUniform,
    SignalStatistics,
    estimate_householder_product,
    make_signals,
    random_householder_product,
)
from gsp_householder.estimator import HouseholderDictionaryLearning
from gsp_householder.statistics import _kernels
from gsp_householder.statistics._kernels import block_sums
from gsp_householder.statistics.streaming import (
    iter_column_blocks,
    statistics_from_blocks,
    statistics_from_npy,
)


def _assert_stats_equal(a: SignalStatistics, b: SignalStatistics, rtol=1e-12):
    assert a.count == b.count
    np.testing.assert_allclose(a.row_sums, b.row_sums, rtol=rtol, atol=0)
    np.testing.assert_allclose(a.row_sq_sums, b.row_sq_sums, rtol=rtol, atol=0)


@pytest.fixture(scope="module")
def signals():
    V = random_householder_product(60, 3, rng=0)
    Y, _ = make_signals(V, 257, BernoulliUniform(0.5), snr_db=20, rng=1)
    return V, Y


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32])
def test_block_sums_match_float64_reference(dtype):
    rng = np.random.default_rng(3)
    rows = (rng.standard_normal((7, 1000)) * 100).astype(dtype)
    sums, sq = block_sums(rows)
    ref = rows.astype(np.float64)
    assert sums.dtype == np.float64 and sq.dtype == np.float64
    np.testing.assert_allclose(sums, ref.sum(axis=0), rtol=1e-13, atol=1e-10)
    np.testing.assert_allclose(sq, (ref**2).sum(axis=0), rtol=1e-13)


def test_block_sums_chunking_is_invisible(monkeypatch):
    """Sums over cache-sized chunks equal one numpy reduction (chunk width 3 here)."""
    import gsp_householder.statistics._kernels as kernels

    rows = np.random.default_rng(0).random((5, 101))
    ref = block_sums(rows)
    monkeypatch.setattr(kernels, "_CHUNK", 15)
    chunked = kernels.block_sums(rows)
    np.testing.assert_array_equal(ref[0], chunked[0])
    np.testing.assert_array_equal(ref[1], chunked[1])


@pytest.mark.parametrize("n_threads", [2, 3])
def test_block_sums_threads_give_identical_bits(n_threads):
    rows = np.random.default_rng(1).standard_normal((9, 1001)).astype(np.float32)
    one = block_sums(rows, n_threads=1)
    many = block_sums(rows, n_threads=n_threads)
    np.testing.assert_array_equal(one[0], many[0])
    np.testing.assert_array_equal(one[1], many[1])


@pytest.mark.parametrize("bad, word", [(np.nan, "NaN"), (np.inf, "inf")])
def test_block_sums_rejects_non_finite(bad, word):
    rows = np.ones((3, 4), dtype=np.float32)
    rows[1, 2] = bad
    with pytest.raises(ValueError, match=f"Y_block must be finite, found {word}"):
        block_sums(rows)


def test_block_sums_rejects_overflowing_squares():
    rows = np.array([[1e200, 1.0], [1.0, 1.0]])
    with pytest.raises(ValueError, match="Y_block has entries whose squares overflow"):
        block_sums(rows)


@pytest.mark.parametrize("block_size", [1, 10, 64, 256, 1000])
@pytest.mark.parametrize("signal_axis", [1, 0])
def test_statistics_from_blocks_equal_in_memory(signals, block_size, signal_axis):
    _, Y = signals
    data = Y if signal_axis == 1 else np.ascontiguousarray(Y.T)
    stats = statistics_from_blocks(iter_column_blocks(data, block_size, signal_axis=signal_axis))
    _assert_stats_equal(stats, SignalStatistics.from_array(Y))


def test_iter_column_blocks_orientation_and_cover(signals):
    _, Y = signals
    blocks = list(iter_column_blocks(Y.T, 100, signal_axis=0))
    assert [b.shape for b in blocks] == [(60, 100), (60, 100), (60, 57)]
    np.testing.assert_array_equal(np.hstack(blocks), Y)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("signal_axis", [0, 1])
def test_statistics_from_npy_memmap(tmp_path, signals, dtype, signal_axis):
    _, Y = signals
    Y = Y.astype(dtype)
    path = tmp_path / "signals.npy"
    np.save(path, np.ascontiguousarray(Y.T) if signal_axis == 0 else Y)
    stats = statistics_from_npy(path, block_size=50, signal_axis=signal_axis)
    _assert_stats_equal(stats, SignalStatistics.from_array(Y))


def _rss_file_bytes() -> int | None:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("RssFile:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def test_file_memmap_blocks_are_read_ahead_and_released(tmp_path):
    """Blocks of a file memmap equal the data; used pages leave the process."""
    rng = np.random.default_rng(4)
    rows = rng.standard_normal((48, 1 << 17)).astype(np.float32)  # 24 MiB, 512 KiB per row
    path = tmp_path / "signals.npy"
    np.save(path, rows)
    mm = np.load(path, mmap_mode="r")
    before = _rss_file_bytes()
    peak = 0
    for i, block in enumerate(iter_column_blocks(mm, 4, signal_axis=0)):
        np.testing.assert_array_equal(block.T, rows[4 * i:4 * i + 4])
        now = _rss_file_bytes()
        if now is not None:
            peak = max(peak, now - before)
    if before is not None:
        # the current block and at most two read ahead: 3 x 2 MiB, never the 24 MiB file
        assert peak <= 8 * 2**20


def test_read_ahead_thread_stops_when_iteration_stops(tmp_path):
    import threading

    path = tmp_path / "signals.npy"
    np.save(path, np.ones((40, 1024), dtype=np.float32))
    threads = threading.active_count()
    blocks = iter_column_blocks(np.load(path, mmap_mode="r"), 2, signal_axis=0)
    next(blocks)
    blocks.close()
    assert threading.active_count() == threads


def test_copy_on_write_memmap_keeps_its_modifications(tmp_path):
    """Pages of a private (mode "c") map are never dropped: changes survive the iteration."""
    path = tmp_path / "signals.npy"
    np.save(path, np.zeros((12, 2048)))
    mm = np.load(path, mmap_mode="c")
    mm[:] = 1.0
    sums = [float(b.sum()) for b in iter_column_blocks(mm, 3, signal_axis=0)]
    assert sums == [3 * 2048.0] * 4
    assert float(mm.sum()) == 12 * 2048.0


@pytest.mark.parametrize("backend", ["numpy", "numba"])
def test_statistics_from_npy_both_kernels(tmp_path, signals, backend):
    from gsp_householder.statistics import _kernels

    if backend == "numba" and not _kernels._numba_available():
        pytest.skip("the optional numba package is not installed")
    _, Y = signals
    path = tmp_path / "signals.npy"
    np.save(path, np.ascontiguousarray(Y.T, dtype=np.float32))
    with _kernels.use_backend(backend):
        stats = statistics_from_npy(path, block_size=50)
    _assert_stats_equal(stats, SignalStatistics.from_array(Y.astype(np.float32)))


def test_statistics_from_blocks_progress_bar(signals, capsys):
    _, Y = signals
    stats = statistics_from_blocks(iter_column_blocks(Y, 100), progress=True, total=3)
    assert stats.count == Y.shape[1]
    assert "statistics" in capsys.readouterr().err


def test_statistics_from_blocks_errors(signals):
    _, Y = signals
    with pytest.raises(ValueError, match="blocks must hold at least one block"):
        statistics_from_blocks([])
    with pytest.raises(ValueError, match="Y_block has 59 nodes, expected 60"):
        statistics_from_blocks([Y[:, :5], Y[:-1, 5:]])
    with pytest.raises(TypeError, match="Y_block must be real"):
        statistics_from_blocks([Y.astype(complex)])
    with pytest.raises(ValueError, match="Y_block must be 2-D"):
        statistics_from_blocks([Y[:, 0]])
    with pytest.raises(ValueError, match="signal_axis must be 0"):
        statistics_from_blocks([Y], signal_axis=2)
    with pytest.raises(ValueError, match="block_size must be >= 1"):
        next(iter_column_blocks(Y, 0))


# with m > 1, steps 2..m are not identifiable from the first moment (documented warning)
@pytest.mark.filterwarnings("ignore::gsp_householder.exceptions.DegenerateStatisticsWarning")
@pytest.mark.parametrize("n_reflectors, oracle", [(1, True), (1, False), (3, True), (3, False)])
def test_partial_fit_equals_fit(signals, n_reflectors, oracle):
    """partial_fit on column blocks gives fit's dictionary (and the function's) to 1e-12."""
    _, Y = signals
    kw = {"theta": 0.5, "mu": 1.5} if oracle else {}
    full = HouseholderDictionaryLearning(n_reflectors, **kw).fit(Y.T)
    stream = HouseholderDictionaryLearning(n_reflectors, **kw)
    for block in iter_column_blocks(Y, 37):
        stream.partial_fit(block.T)
    _assert_stats_equal(stream.statistics_, full.statistics_)
    assert stream.dictionary_.m == full.dictionary_.m
    np.testing.assert_allclose(stream.dictionary_.vectors, full.dictionary_.vectors,
                               rtol=0, atol=1e-12)
    ref = estimate_householder_product(Y, n_reflectors, kw.get("theta"), kw.get("mu"))
    np.testing.assert_allclose(full.dictionary_.vectors, ref.vectors, rtol=0, atol=1e-12)


def test_partial_fit_from_memmap_file(tmp_path, signals):
    _, Y = signals
    path = tmp_path / "signals.npy"
    np.save(path, np.ascontiguousarray(Y.T, dtype=np.float32))
    est = HouseholderDictionaryLearning(1, theta=0.5, mu=1.5)
    for block in iter_column_blocks(np.load(path, mmap_mode="r"), 64, signal_axis=0):
        est.partial_fit(block.T)
    ref = estimate_householder_product(Y.astype(np.float32), 1, 0.5, 1.5)
    np.testing.assert_allclose(est.dictionary_.vectors, ref.vectors, rtol=0, atol=1e-12)


def test_partial_fit_state_does_not_grow_with_the_signals():
    """Between calls only the O(n) statistics and a bounded sample for the threshold
    (at most max(n, 2**16) entries) are kept, whatever the number of signals."""
    n = 300
    V = random_householder_product(n, 1, rng=0)
    sizes = []
    for p in (800, 4000):
        Y, _ = make_signals(V, p, BernoulliUniform(0.5), rng=1)
        est = HouseholderDictionaryLearning(1)
        for block in iter_column_blocks(Y, 400):
            est.partial_fit(block.T)
        kept = [v for v in vars(est).values() if isinstance(v, np.ndarray)]
        kept += [est.statistics_.row_sums, est.statistics_.row_sq_sums]
        sizes.append(sum(a.size for a in kept))
    assert sizes[0] == sizes[1] <= max(n, 2**16) + 2 * n


def test_read_ahead_profile_counts_blocks_and_waits(tmp_path, monkeypatch):
    """The profile hook of the read-ahead (used by the benchmarks) counts every block."""
    from gsp_householder.statistics import _readahead

    rows = np.random.default_rng(6).standard_normal((64, 4096)).astype(np.float32)
    path = tmp_path / "rows.npy"
    np.save(path, rows)
    mapped = np.load(path, mmap_mode="r")
    for populate in (True, False):
        monkeypatch.setattr(_readahead, "profile", {})
        seen = np.concatenate(list(_readahead.mapped_row_blocks(mapped, 16, populate=populate)))
        np.testing.assert_array_equal(seen, rows)
        assert _readahead.profile["items"] == 4
        assert _readahead.profile["populate_s"] >= 0.0 and _readahead.profile["wait_s"] >= 0.0


@pytest.mark.parametrize("backend", ["numpy", pytest.param("numba", marks=pytest.mark.skipif(
    not _kernels._numba_available(), reason="the optional numba package is not installed"))])
def test_statistics_from_blocks_reports_the_block_or_the_running_sums(backend):
    """The running sums are accumulated in place: a bad block is still named as such
    (NaN, inf, squares that overflow), and sums that overflow only when added up are
    reported as the accumulation's overflow; finite blocks equal the sums of the whole."""
    rng = np.random.default_rng(3)
    good = [rng.standard_normal((5, 7)).astype(np.float32) for _ in range(3)]
    with _kernels.use_backend(backend):
        stats = statistics_from_blocks(good, signal_axis=0)
        whole = np.vstack(good).astype(np.float64)
        np.testing.assert_allclose(stats.row_sums, whole.sum(axis=0), rtol=1e-12, atol=1e-12)
        np.testing.assert_allclose(stats.row_sq_sums, (whole**2).sum(axis=0), rtol=1e-12)
        for bad, match in ((np.nan, "Y_block must be finite, found NaN"),
                           (np.inf, "Y_block must be finite, found inf"),
                           (1e200, "Y_block has entries whose squares overflow")):
            block = np.ones((2, 7))
            block[1, 3] = bad
            with pytest.raises(ValueError, match=match):
                statistics_from_blocks([good[0], block, good[1]], signal_axis=0)
        huge = np.full((2, 7), 1e153)  # squares 1e306: finite per block, not summed 200 times
        with pytest.raises(ValueError, match="accumulated sums overflow"):
            statistics_from_blocks([huge] * 200, signal_axis=0)
