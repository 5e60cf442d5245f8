"""Dask arrays: one parallel pass for the statistics, equal to numpy to 1e-12."""

from __future__ import annotations

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

from gsp_householder import (  # noqa: E402
    BernoulliUniform,
    SignalStatistics,
    estimate_householder,
    estimate_householder_given,
    estimate_householder_product,
    estimate_scale,
    make_signals,
    random_householder_product,
)
from gsp_householder.estimator import HouseholderDictionaryLearning  # noqa: E402
from gsp_householder.statistics.dask_arrays import statistics_from_dask  # noqa: E402


def _assert_stats_equal(a, b, rtol=1e-12):
    assert a.count == b.count
    np.testing.assert_allclose(a.row_sums, b.row_sums, rtol=rtol, atol=0)
    np.testing.assert_allclose(a.row_sq_sums, b.row_sq_sums, rtol=rtol, atol=0)


@pytest.fixture(scope="module")
def signals():
    V = random_householder_product(120, 1, rng=0)
    Y, _ = make_signals(V, 400, BernoulliUniform(0.5), snr_db=20, rng=1)
    return V, Y


@pytest.mark.parametrize("chunks", [(120, 400), (120, 64), (50, 100), (7, 33)])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_statistics_from_dask_equal_numpy(signals, chunks, dtype):
    _, Y = signals
    Y = Y.astype(dtype)
    stats = statistics_from_dask(da.from_array(Y, chunks=chunks))
    _assert_stats_equal(stats, SignalStatistics.from_array(Y))


def test_every_estimator_accepts_dask(signals):
    _, Y = signals
    Yd = da.from_array(Y, chunks=(120, 50))
    np.testing.assert_allclose(estimate_scale(Yd), estimate_scale(Y), rtol=1e-12)
    for fn, args in [(estimate_householder, (0.5, 1.5)),
                     (estimate_householder_product, (1, 0.5, 1.5))]:
        np.testing.assert_allclose(fn(Yd, *args).vectors, fn(Y, *args).vectors,
                                   rtol=0, atol=1e-12)
    Q = random_householder_product(120, 1, rng=5)
    np.testing.assert_allclose(estimate_householder_given(Yd, Q).vectors,
                               estimate_householder_given(Y, Q).vectors, rtol=0, atol=1e-12)


def test_estimator_fit_and_partial_fit_accept_dask(signals):
    _, Y = signals
    Xd = da.from_array(Y.T, chunks=(64, 120))
    est = HouseholderDictionaryLearning(1).fit(Xd)
    ref = HouseholderDictionaryLearning(1).fit(Y.T)
    np.testing.assert_allclose(est.dictionary_.vectors, ref.dictionary_.vectors, rtol=0, atol=1e-12)
    assert est.threshold_ == pytest.approx(ref.threshold_, rel=1e-12)
    stream = HouseholderDictionaryLearning(1)
    for start in range(0, 400, 150):
        stream.partial_fit(Xd[start:start + 150])
    np.testing.assert_allclose(stream.dictionary_.vectors, ref.dictionary_.vectors,
                               rtol=0, atol=1e-12)


def test_dask_errors(signals):
    _, Y = signals
    with pytest.raises(TypeError, match="Y must be real"):
        statistics_from_dask(da.from_array(Y.astype(complex)))
    with pytest.raises(ValueError, match="Y must be 2-D"):
        statistics_from_dask(da.from_array(Y[:, 0]))
    with pytest.raises(ValueError, match="Y must have at least 2 rows"):
        statistics_from_dask(da.from_array(Y[:1]))
    bad = Y.copy()
    bad[3, 7] = np.nan
    with pytest.raises(ValueError, match="Y must be finite"):
        statistics_from_dask(da.from_array(bad, chunks=(60, 100)))
    Yd = da.from_array(Y, chunks=(120, 100))
    unknown = Yd[:, Yd[0] > -1e9]  # boolean mask: unknown chunk sizes
    with pytest.raises(ValueError, match="unknown chunk sizes"):
        statistics_from_dask(unknown)
    with pytest.raises(TypeError, match="Y must be a dask array"):
        statistics_from_dask(Y)
    with pytest.raises(ValueError, match="Complex data not supported"):
        HouseholderDictionaryLearning().fit(da.from_array(Y.T + 1j))


def test_local_cluster_two_processes(signals):
    """A LocalCluster of 2 worker processes on loopback gives numpy's statistics to 1e-12."""
    distributed = pytest.importorskip("distributed")
    _, Y = signals
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  host="127.0.0.1", dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        assert len(client.scheduler_info()["workers"]) == 2
        Yd = da.from_array(Y, chunks=(120, 50))
        with distributed.get_task_stream(client) as tasks:
            stats = statistics_from_dask(Yd)
        # the reduction ran as tasks on the worker processes
        assert tasks.data and all(t["worker"] in cluster.scheduler_address or
                                  t["worker"].startswith("tcp://127.0.0.1") for t in tasks.data)
        est = HouseholderDictionaryLearning(1, theta=0.5, mu=1.5).fit(Yd.T)
    _assert_stats_equal(stats, SignalStatistics.from_array(Y))
    ref = estimate_householder_product(Y, 1, 0.5, 1.5)
    np.testing.assert_allclose(est.dictionary_.vectors, ref.vectors, rtol=0, atol=1e-12)


def test_memory_mapped_chunks_are_summed_in_parts_read_ahead(tmp_path, monkeypatch):
    """Chunks that are windows of a file (signals one per row) give the in-memory statistics."""
    import dask

    from gsp_householder.statistics import dask_arrays

    monkeypatch.setattr(dask_arrays, "_PART_BYTES", 4096)  # parts of 2 signals of 512 floats
    calls = []

    def counted(rows, block_rows, **kwargs):
        calls.append(block_rows)
        return dask_arrays.mapped_row_blocks.__wrapped__(rows, block_rows, **kwargs)

    counted.__wrapped__ = dask_arrays.mapped_row_blocks
    monkeypatch.setattr(dask_arrays, "mapped_row_blocks", counted)
    rng = np.random.default_rng(8)
    rows = rng.standard_normal((37, 512)).astype(np.float32)
    path = tmp_path / "signals.npy"
    np.save(path, rows)
    offset = np.load(path, mmap_mode="r").offset

    def window(start, count):
        return np.memmap(path, dtype=np.float32, mode="r", shape=(count, 512),
                         offset=offset + start * 512 * 4)

    chunks = [da.from_delayed(dask.delayed(window)(s, min(16, 37 - s)),
                              shape=(min(16, 37 - s), 512), dtype=np.float32)
              for s in range(0, 37, 16)]
    with dask.config.set(scheduler="synchronous"):
        stats = statistics_from_dask(da.concatenate(chunks, axis=0).T)
    ref = SignalStatistics.from_array(rows.T)
    np.testing.assert_allclose(stats.row_sums, ref.row_sums, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(stats.row_sq_sums, ref.row_sq_sums, rtol=1e-12)
    assert stats.count == 37
    assert calls == [2, 2, 2]  # every chunk of at least 5 signals was read ahead in parts
