"""SignalStatistics: streaming equals in-memory, merge, blind scale."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


# ------------------------------------------------------------- the fused kernels
from gsp_householder.statistics import _kernels  # noqa: E402

_BACKENDS = ["numpy", pytest.param("numba", marks=pytest.mark.skipif(
    not _kernels._numba_available(), reason="the optional numba package is not installed"))]


def _reference(X, axis):
    X64 = np.asarray(X, dtype=np.float64)
    return X64.sum(axis=axis), (X64 * X64).sum(axis=axis)


@pytest.mark.parametrize("backend", _BACKENDS)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int16])
@pytest.mark.parametrize("shape", [(1, 1), (1, 9), (9, 1), (3, 7), (31, 17), (257, 5), (4, 301)])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("axis", [0, 1])
def test_kernel_sums_equal_plain_numpy(backend, dtype, shape, layout, axis):
    """Both implementations give the float64 sums and sums of squares to 1e-12."""
    rng = np.random.default_rng(sum(shape))
    big = (rng.standard_normal((2 * shape[0], 2 * shape[1])) * 50).astype(dtype)
    X = {"C": np.ascontiguousarray(big[:shape[0], :shape[1]]),
         "F": np.asfortranarray(big[:shape[0], :shape[1]]),
         "strided": big[::2, ::2]}[layout]
    with _kernels.use_backend(backend):
        sums, sq = _kernels.sums_along_axis(X, axis)
    ref_s, ref_q = _reference(X, axis)
    assert sums.dtype == sq.dtype == np.float64
    np.testing.assert_allclose(sums, ref_s, rtol=1e-12, atol=1e-12 * np.abs(ref_q).max() ** 0.5)
    np.testing.assert_allclose(sq, ref_q, rtol=1e-12)


@pytest.mark.skipif(not _kernels._numba_available(), reason="numba is not installed")
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("shape", [(203, 1031), (5003, 97), (3, 70001), (2629, 100), (1, 1),
                                   (1, 5), (7, 1), (0, 5), (5, 0)])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_compiled_and_numpy_kernels_agree(dtype, shape, layout):
    """The compiled loop and the numpy fallback agree to 1e-12 on both axes, any threads,
    in C and F order and on a non-contiguous view; (5003, 97): several row blocks of the
    numpy kernel (a multiple of 8 rows each), the last one shorter, converted (float32)
    into the buffer's blocks in turn; (2629, 100): two blocks and 9 rows, the third
    block back in the buffer's first slot; (3, 70001): rows longer than a block; tiny
    and empty inputs give their exact sums (zero over an empty axis)."""
    rng = np.random.default_rng(5)
    big = (rng.standard_normal((2 * shape[0], 2 * shape[1])) + 3.0).astype(dtype)
    X = {"C": np.ascontiguousarray(big[:shape[0], :shape[1]]),
         "F": np.asfortranarray(big[:shape[0], :shape[1]]),
         "strided": big[::2, ::2]}[layout]
    if shape[0] > 1000:
        rows = _kernels._last_rows(shape[1])
        assert rows % 8 == 0 and shape[0] % rows != 0 and shape[0] > 2 * rows
    for axis in (0, 1):
        ref_s, ref_q = _reference(X, axis)
        with _kernels.use_backend("numpy"):
            ref = _kernels.sums_along_axis(X, axis, n_threads=1)
            for n_threads in (2, 3):
                many = _kernels.sums_along_axis(X, axis, n_threads=n_threads)
                np.testing.assert_array_equal(many[0], ref[0])
                np.testing.assert_array_equal(many[1], ref[1])
        np.testing.assert_allclose(ref[0], ref_s, rtol=1e-12)
        np.testing.assert_allclose(ref[1], ref_q, rtol=1e-12)
        for n_threads in (1, 2, 3):
            with _kernels.use_backend("numba"):
                got = _kernels.sums_along_axis(X, axis, n_threads=n_threads)
            np.testing.assert_allclose(got[0], ref[0], rtol=1e-12)
            np.testing.assert_allclose(got[1], ref[1], rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float32, np.int16])
@pytest.mark.parametrize("n", [8, 9, 16, 43])
def test_numpy_row_kernel_converts_into_buffer_slots_in_turn(monkeypatch, dtype, n):
    """Blocks that are not float64 are converted into the buffer's slots in turn (the
    first block in the first slot, the next one ``rows`` rows further on, and so on),
    never into the slot the previous block used; the sums are the same bits as with one
    slot, whatever the number of threads, and equal the float64 sums to 1e-12."""
    p, rows = 13, 8
    monkeypatch.setattr(_kernels, "_LAST_CHUNK", rows * p)
    X = (np.random.default_rng(n).standard_normal((n, p)) * 100 + 5).astype(dtype)
    copyto, starts = np.copyto, []

    def recorded(dst, src, **kwargs):
        starts.append(dst.__array_interface__["data"][0])
        return copyto(dst, src, **kwargs)

    with _kernels.use_backend("numpy"):
        monkeypatch.setattr(np, "copyto", recorded)
        got = _kernels.sums_along_axis(X, 1, n_threads=1)
        monkeypatch.setattr(np, "copyto", copyto)
        blocks = -(-n // rows)
        assert len(starts) == blocks
        slot = rows * p * 8  # bytes of one slot
        offsets = [(a - starts[0]) // slot for a in starts]
        assert offsets == [k % _kernels._CONVERT_SLOTS for k in range(blocks)]
        assert _kernels._CONVERT_SLOTS >= 2
        for n_threads in (2, 3):
            many = _kernels.sums_along_axis(X, 1, n_threads=n_threads)
            np.testing.assert_array_equal(many[0], got[0])
            np.testing.assert_array_equal(many[1], got[1])
        monkeypatch.setattr(_kernels, "_CONVERT_SLOTS", 1)
        one = _kernels.sums_along_axis(X, 1, n_threads=1)
    np.testing.assert_array_equal(got[0], one[0])
    np.testing.assert_array_equal(got[1], one[1])
    ref_s, ref_q = _reference(X, 1)
    np.testing.assert_allclose(got[0], ref_s, rtol=1e-12)
    np.testing.assert_allclose(got[1], ref_q, rtol=1e-12)


@pytest.mark.parametrize("backend", _BACKENDS)
@pytest.mark.parametrize("axis", [0, 1])
def test_kernel_threads_give_identical_bits(backend, axis):
    X = np.random.default_rng(2).random((97, 389)).astype(np.float32)
    with _kernels.use_backend(backend):
        one = _kernels.sums_along_axis(X, axis, n_threads=1)
        for n_threads in (2, 4):
            many = _kernels.sums_along_axis(X, axis, n_threads=n_threads)
            np.testing.assert_array_equal(one[0], many[0])
            np.testing.assert_array_equal(one[1], many[1])


@pytest.mark.parametrize("backend", _BACKENDS)
def test_statistics_of_float32_accumulate_in_float64(backend):
    """2**24 + 1 is not a float32; its float64 sum is exact."""
    Y = np.zeros((2, 3), dtype=np.float32)
    Y[0] = [2.0**24, 1.0, 1.0]
    with _kernels.use_backend(backend):
        stats = SignalStatistics.from_array(Y)
    assert stats.row_sums[0] == 2.0**24 + 2.0
    assert stats.row_sq_sums[0] == 2.0**48 + 2.0


@pytest.mark.parametrize("backend", _BACKENDS)
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_kernel_paths_report_non_finite_input(backend, bad):
    Y = np.ones((4, 6))
    Y[2, 3] = bad
    with _kernels.use_backend(backend), pytest.raises(ValueError, match="Y"):
        SignalStatistics.from_array(Y)


def test_use_backend_rejects_unknown_names():
    with pytest.raises(ValueError, match="'numba' or 'numpy'"), _kernels.use_backend("fortran"):
        pass
    assert _kernels.active_backend() in ("numba", "numpy")


def test_without_numba_the_numpy_kernel_is_used(monkeypatch):
    """A machine without the optional package falls back to numpy, and says so on request."""
    import sys

    monkeypatch.setitem(sys.modules, "numba", None)  # import numba -> ImportError
    monkeypatch.setitem(_kernels._state, "backend", None)
    assert not _kernels._numba_available()
    assert _kernels.active_backend() == "numpy"
    with pytest.raises(ImportError, match="optional 'numba' package"), \
            _kernels.use_backend("numba"):
        pass
    Y = np.random.default_rng(0).random((6, 9)).astype(np.float32)
    stats = SignalStatistics.from_array(Y)
    np.testing.assert_allclose(stats.row_sums, Y.astype(np.float64).sum(axis=1), rtol=1e-12)


@pytest.mark.parametrize("dot_max", [4096, 4])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_numpy_row_kernel_threads_and_blocking(monkeypatch, dtype, dot_max):
    """For any block size (here 1, 3, 7, 8 and 16 rows) the threads give the same bits,
    and the blockings agree to rounding (BLAS ``gemv`` may group rows differently)."""
    monkeypatch.setattr(_kernels, "_DOT_MAX", dot_max)  # 4: the einsum path for long rows
    rng = np.random.default_rng(11)
    X = (rng.standard_normal((53, 29)) * 7 + 2).astype(dtype)
    with _kernels.use_backend("numpy"):
        whole = _kernels.sums_along_axis(X, 1, n_threads=1)
        for rows in (1, 3, 7, 8, 16):
            monkeypatch.setattr(_kernels, "_LAST_CHUNK", rows * X.shape[1])
            one = _kernels.sums_along_axis(X, 1, n_threads=1)
            for n_threads in (2, 3, 8):
                got = _kernels.sums_along_axis(X, 1, n_threads=n_threads)
                np.testing.assert_array_equal(got[0], one[0])
                np.testing.assert_array_equal(got[1], one[1])
            np.testing.assert_allclose(one[0], whole[0], rtol=1e-14,
                                       atol=1e-14 * np.abs(X).sum(axis=1).max())
            np.testing.assert_array_equal(one[1], whole[1])  # one dot per row
            acc = _kernels.sums_along_axis(X, 1, out=(got[0].copy(), got[1].copy()),
                                           accumulate=True)
            np.testing.assert_allclose(acc[0], 2 * got[0], rtol=1e-15)
            np.testing.assert_allclose(acc[1], 2 * got[1], rtol=1e-15)
    ref_s, ref_q = _reference(X, 1)
    np.testing.assert_allclose(whole[0], ref_s, rtol=1e-12, atol=1e-12 * np.abs(ref_q).max() ** 0.5)
    np.testing.assert_allclose(whole[1], ref_q, rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(shape=st.tuples(st.integers(1, 70), st.integers(1, 40)),
       dtype=st.sampled_from([np.float64, np.float32]),
       layout=st.sampled_from(["C", "F", "strided"]), rows=st.integers(1, 20),
       scale=st.sampled_from([1e-3, 1.0, 1e6]), seed=st.integers(0, 2**32 - 1))
def test_property_numpy_row_kernel(shape, dtype, layout, rows, scale, seed):
    """The numpy row kernel (any block size, 1-3 threads) gives the float64 sums and sums
    of squares to 1e-12, the same bits for every number of threads, and agrees with the
    compiled kernel when it is installed."""
    rng = np.random.default_rng(seed)
    big = (rng.standard_normal((2 * shape[0], 2 * shape[1])) * scale + scale).astype(dtype)
    X = {"C": np.ascontiguousarray(big[:shape[0], :shape[1]]),
         "F": np.asfortranarray(big[:shape[0], :shape[1]]),
         "strided": big[::2, ::2]}[layout]
    ref_s, ref_q = _reference(X, 1)
    with pytest.MonkeyPatch.context() as mp, _kernels.use_backend("numpy"):
        mp.setattr(_kernels, "_LAST_CHUNK", rows * shape[1])
        one = _kernels.sums_along_axis(X, 1, n_threads=1)
        for n_threads in (2, 3):
            many = _kernels.sums_along_axis(X, 1, n_threads=n_threads)
            np.testing.assert_array_equal(many[0], one[0])
            np.testing.assert_array_equal(many[1], one[1])
    atol = 1e-12 * np.abs(ref_q).max() ** 0.5
    np.testing.assert_allclose(one[0], ref_s, rtol=1e-12, atol=atol)
    np.testing.assert_allclose(one[1], ref_q, rtol=1e-12)
    if _kernels._numba_available():
        with _kernels.use_backend("numba"):
            compiled = _kernels.sums_along_axis(X, 1)
        np.testing.assert_allclose(compiled[0], one[0], rtol=1e-12, atol=atol)
        np.testing.assert_allclose(compiled[1], one[1], rtol=1e-12)


@pytest.mark.parametrize("dtype, calls", [(np.float64, 2), (np.float32, 3)])
def test_numpy_row_kernel_work_per_block(monkeypatch, dtype, calls):
    """The numpy row kernel picks its row reduction once per call and makes only its numpy
    calls per block (the squares and the sums; float32 first converts the block), on
    blocks of more than 512 KiB and at most 1 MiB of float64 rows, a multiple of 8 rows."""
    for p in (1, 3, 100, 1000, 4096):
        rows = _kernels._last_rows(p)
        assert rows * p * 8 <= 2**20 and (rows % 8 == 0 or rows < 16)
    rows = _kernels._last_rows(100)
    assert rows * 100 * 8 > 2**19
    X = np.random.default_rng(4).standard_normal((3 * rows + 5, 100)).astype(dtype)
    counts = {"choices": 0, "calls": 0}
    choose, matmul, copyto = _kernels._row_squares, np.matmul, np.copyto

    def counted(func):
        def call(*args, **kwargs):
            counts["calls"] += 1
            return func(*args, **kwargs)
        return call

    def counted_choice(p):
        counts["choices"] += 1
        return counted(choose(p))

    monkeypatch.setattr(_kernels, "_row_squares", counted_choice)
    monkeypatch.setattr(np, "matmul", counted(matmul))
    monkeypatch.setattr(np, "copyto", counted(copyto))
    with _kernels.use_backend("numpy"):
        sums, sq = _kernels.sums_along_axis(X, 1, n_threads=1)
    monkeypatch.undo()
    assert counts == {"choices": 1, "calls": 4 * calls}
    ref_s, ref_q = _reference(X, 1)
    np.testing.assert_allclose(sums, ref_s, rtol=1e-12, atol=1e-12 * np.abs(ref_q).max() ** 0.5)
    np.testing.assert_allclose(sq, ref_q, rtol=1e-12)


def test_statistics_without_numba_reject_empty_and_one_row_inputs(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "numba", None)
    monkeypatch.setitem(_kernels._state, "backend", None)
    for shape, match in (((0, 5), "must not be empty"), ((5, 0), "must not be empty"),
                         ((1, 7), "at least 2 rows")):
        with pytest.raises(ValueError, match=match):
            SignalStatistics.from_array(np.ones(shape, dtype=np.float32))
    assert _kernels.active_backend() == "numpy"


@settings(max_examples=60, deadline=None)
@given(shape=st.tuples(st.integers(2, 60), st.integers(1, 30)),
       dtype=st.sampled_from([np.float64, np.float32, np.int32]),
       layout=st.sampled_from(["C", "F", "strided"]), rows=st.integers(1, 20),
       bad=st.sampled_from([None, None, np.nan, np.inf, -np.inf]),
       seed=st.integers(0, 2**32 - 1))
def test_property_statistics_without_numba(shape, dtype, layout, rows, bad, seed):
    """Without numba, `SignalStatistics.from_array` runs the numpy kernel (several blocks,
    two threads): float64 sums and sums of squares to 1e-12 for any layout and dtype, the
    compiled kernel's results to 1e-12 when it is installed, and a NaN or inf entry is
    rejected with an error that names ``Y``."""
    import sys

    rng = np.random.default_rng(seed)
    big = rng.standard_normal((2 * shape[0], 2 * shape[1])) * 40 + 3
    big = big.astype(dtype)
    X = {"C": np.ascontiguousarray(big[:shape[0], :shape[1]]),
         "F": np.asfortranarray(big[:shape[0], :shape[1]]),
         "strided": big[::2, ::2]}[layout]
    if bad is not None and dtype != np.int32:
        X[rng.integers(shape[0]), rng.integers(shape[1])] = bad
    else:
        bad = None
    with pytest.MonkeyPatch.context() as mp:
        mp.setitem(sys.modules, "numba", None)  # import numba -> ImportError
        mp.setitem(_kernels._state, "backend", None)
        mp.setattr(_kernels, "_LAST_CHUNK", rows * shape[1])
        mp.setattr(_kernels, "_PARALLEL_MIN", 0)  # the default thread count: two or more
        if bad is not None:
            with pytest.raises(ValueError, match="Y"):
                SignalStatistics.from_array(X)
            return
        stats = SignalStatistics.from_array(X)
        assert _kernels.active_backend() == "numpy"
    ref_s, ref_q = _reference(X, 1)
    atol = 1e-12 * np.abs(ref_q).max() ** 0.5
    np.testing.assert_allclose(stats.row_sums, ref_s, rtol=1e-12, atol=atol)
    np.testing.assert_allclose(stats.row_sq_sums, ref_q, rtol=1e-12)
    if _kernels._numba_available():
        with _kernels.use_backend("numba"):
            compiled = SignalStatistics.from_array(X)
        np.testing.assert_allclose(compiled.row_sums, stats.row_sums, rtol=1e-12, atol=atol)
        np.testing.assert_allclose(compiled.row_sq_sums, stats.row_sq_sums, rtol=1e-12)


def _blind_scale_from_the_definition(Y):
    """The blind scale, its null sd and the noise level of Algorithm 3, straight from
    their formulas on the float64 array (no statistics object, no shortcuts)."""
    Y = np.asarray(Y, dtype=np.float64)
    p = Y.shape[1]
    mean = Y.mean(axis=1)
    var = Y.var(axis=1, ddof=1)
    sq = mean @ mean - var.sum() / p
    null_sd = np.sqrt(2.0) * np.linalg.norm(var) / p
    return sq, null_sd, var.sum()


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), p=st.integers(2, 12), offset=st.floats(-3, 3),
       scale=st.sampled_from([1e-3, 1.0, 1e3]), seed=st.integers(0, 2**32 - 1))
def test_property_blind_scale_and_variance_sum_match_their_definitions(n, p, offset, scale,
                                                                       seed):
    """One pass of the variances gives the blind scale, the z-score warning and the
    variance sum of the noise level; they agree with the formulas computed directly."""
    from gsp_householder.learning.paper import _scale_and_noise

    rng = np.random.default_rng(seed)
    Y = (rng.standard_normal((n, p)) + offset) * scale
    stats = SignalStatistics.from_array(Y)
    sq, null_sd, var_sum = _blind_scale_from_the_definition(Y)
    assert stats._variance_sum() == pytest.approx(var_sum, rel=1e-9, abs=1e-12 * scale**2)
    np.testing.assert_allclose(stats._variance_sum(), stats.variance.sum(), rtol=1e-12,
                               atol=1e-14 * scale**2)
    if sq <= 1e-9 * (var_sum / p + 1e-300):
        return  # too close to zero to tell the sign apart from rounding
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            got = stats.scale_estimate()
        except DegenerateStatisticsError:
            assert sq < 0
            return
    assert sq > 0
    assert got == pytest.approx(np.sqrt(sq / n), rel=1e-7)
    z_warned = any("not significantly different" in str(w.message) for w in caught)
    if abs(sq - 3.0 * null_sd) > 1e-6 * sq:
        assert z_warned == (sq < 3.0 * null_sd)
    buffer = np.full(n, np.nan)  # the scratch vector is overwritten, never read
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        blind, noise = _scale_and_noise(stats, None, None, scratch=buffer)
        oracle, noise_oracle = _scale_and_noise(stats, 0.5, 2.0)
    assert blind == got
    assert noise == pytest.approx(var_sum / (4 * p * blind**2), rel=1e-9)
    assert oracle == 1.0
    assert noise_oracle == pytest.approx(var_sum / (4 * p), rel=1e-9, abs=1e-12 * scale**2)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 20000), seed=st.integers(0, 2**32 - 1))
def test_property_vector_dot_equals_the_float64_sum(n, seed):
    """The blocked single-thread dot product equals x @ y to rounding, every length
    (below, at and across the block length), contiguous or strided."""
    from gsp_householder.statistics._kernels import vector_dot

    rng = np.random.default_rng(seed)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    ref = float(np.sum(x.astype(np.longdouble) * y))
    bound = 1e-14 * max(1.0, float(np.abs(x) @ np.abs(y)))
    assert abs(vector_dot(x, y) - ref) <= bound
    assert abs(vector_dot(x[::-1], y[::-1]) - ref) <= bound  # strided views
    with np.errstate(over="raise"):  # an overflow gives inf without a warning
        assert vector_dot(np.full(5000, 1e300), np.full(5000, 1e300)) == np.inf


@settings(max_examples=25, deadline=None)
@given(n=st.sampled_from([2, 7, 8192, 8193, 20000]), p=st.integers(2, 6),
       offset=st.floats(-2, 2), seed=st.integers(0, 2**32 - 1))
def test_property_variances_in_place_equal_the_variances_apart(n, p, offset, seed):
    """The variances written over the sums of squares (in blocks) equal those written into
    a separate vector, bit for bit, and equal `variance` times p - 1 to rounding."""
    rng = np.random.default_rng(seed)
    Y = rng.standard_normal((n, p)) + offset
    apart = SignalStatistics.from_array(Y)._scaled_variance(np.empty(n))
    stats = SignalStatistics.from_array(Y)
    reference = stats.variance * (p - 1)
    in_place = stats._scaled_variance(stats.row_sq_sums)
    np.testing.assert_array_equal(in_place, apart)
    np.testing.assert_allclose(in_place, reference, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kw", [{}, {"theta": 0.5, "mu": 1.5}, {"prune": False}])
@pytest.mark.parametrize("m", [1, 3])
def test_estimator_from_an_array_equals_it_from_its_statistics(kw, m):
    """From an array, the estimator reuses the statistics' buffer for the basis of the
    plane; from a SignalStatistics it leaves them untouched: both give the same product."""
    from gsp_householder import estimate_householder_product

    rng = np.random.default_rng(m)
    V = random_householder_product(300, 4, rng=rng)
    Y, _ = make_signals(V, 40, BernoulliUniform(0.5), rng=rng)
    stats = SignalStatistics.from_array(Y)
    sums, squares = stats.row_sums.copy(), stats.row_sq_sums.copy()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        from_array = estimate_householder_product(Y, m, **kw)
        from_stats = estimate_householder_product(stats, m, **kw)
    np.testing.assert_array_equal(stats.row_sums, sums)  # the user's statistics are kept
    np.testing.assert_array_equal(stats.row_sq_sums, squares)
    np.testing.assert_allclose(from_array.vectors, from_stats.vectors, rtol=0, atol=1e-15)


@pytest.mark.parametrize("backend", _BACKENDS)
@pytest.mark.parametrize("p", [1, 2, 37])
@pytest.mark.parametrize("magnitude", [1e-3, 1.0, 2e151])
def test_moments_of_the_statistics_equal_their_numpy_passes(backend, p, magnitude):
    """`_moments` (one compiled pass, or numpy passes; at 2e151 the squares of the scaled
    variances overflow and the compiled pass hands over to numpy) gives ||mean||^2, the variance
    sum and the norm of the scaled variances to 1e-12 of the plain float64 formulas."""
    rng = np.random.default_rng(p)
    Y = (rng.standard_normal((5003, p)) + 0.4) * magnitude
    Y[7] = 2.0 * magnitude  # a constant row: its variance rounds to zero or below
    stats = SignalStatistics.from_array(Y)
    with _kernels.use_backend(backend):
        sq, var_sum, norm = stats._moments()
    scaled_mean = Y.mean(axis=1) / magnitude
    assert sq / magnitude**2 == pytest.approx(scaled_mean @ scaled_mean, rel=1e-12)
    if p == 1:
        assert var_sum is None and norm is None
        return
    scaled_var = (Y / magnitude).var(axis=1, ddof=0) * p  # (p - 1) s_i^2 / magnitude^2
    assert var_sum / magnitude**2 == pytest.approx(scaled_var.sum() / (p - 1), rel=1e-12)
    assert norm / magnitude**2 == pytest.approx(np.linalg.norm(scaled_var), rel=1e-12)
    if backend == "numba":
        fast = _kernels.sums_moments(stats.row_sums, stats.row_sq_sums, p)
        if magnitude > 1e100:
            assert fast is None
        else:
            s2, v1, v2 = fast
            var = np.maximum(stats.row_sq_sums - stats.row_sums * stats.row_sums / p, 0.0)
            assert s2 == pytest.approx(stats.row_sums @ stats.row_sums, rel=1e-13)
            assert v1 == pytest.approx(var.sum(), rel=1e-13)
            assert v2 == pytest.approx(var @ var, rel=1e-13)


@pytest.mark.parametrize("backend", _BACKENDS)
@pytest.mark.parametrize(("a", "b"), [(1.0, 0.0), (1.0, -0.3), (0.7, 0.0), (-2.5, 1e-3)])
@pytest.mark.parametrize("in_place", [False, True])
def test_affine_moments_equal_numpy(backend, a, b, in_place):
    """out = x * a + b entry by entry as numpy computes it (each operation rounded once),
    with its sum and sum of squares to 1e-13, in place or not."""
    x = np.random.default_rng(3).standard_normal(10007) + 0.5
    ref = x * a + b if a != 1.0 else x + b
    src = x.copy()
    out = src if in_place else np.empty_like(x)
    with _kernels.use_backend(backend):
        total, squares = _kernels.affine_moments(src, a, b, out)
    np.testing.assert_array_equal(out, ref)
    assert total == pytest.approx(ref.sum(), rel=1e-13, abs=1e-13 * np.abs(ref).sum())
    assert squares == pytest.approx(ref @ ref, rel=1e-13)


@pytest.mark.parametrize("backend", _BACKENDS)
@pytest.mark.parametrize("accumulate", [False, True])
def test_kernel_total_is_the_sum_of_its_results(backend, accumulate):
    """The total that the row kernel hands to the finiteness check (compiled: from its own
    loop; numpy: None, the check sums the results) is the sum of both results, any
    threads; an inf, a NaN and squares that overflow each make it non-finite."""
    rng = np.random.default_rng(4)
    X = (rng.standard_normal((1001, 37)) + 1.0).astype(np.float32)
    for n_threads in (1, 2, 3):
        out = (np.ones(1001), np.full(1001, 2.0)) if accumulate else None
        with _kernels.use_backend(backend):
            sums, sq, total = _kernels._sums_and_total(X, 1, n_threads=n_threads, out=out,
                                                       accumulate=accumulate)
        if backend == "numpy":
            assert total is None
        else:
            assert total == pytest.approx(sums.sum() + sq.sum(), rel=1e-12)
    for bad in (np.inf, np.nan, 1e200):
        Y = X.astype(np.float64)
        Y[500, 3] = bad
        with _kernels.use_backend(backend):
            total = _kernels._sums_and_total(Y, 1)[2]
            with pytest.raises(ValueError, match=r"must be finite|overflow float64"):
                _kernels.row_sums_and_squares(Y)
        assert total is None or not np.isfinite(total)
