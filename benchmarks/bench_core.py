"""Speed of the core: the statistics pass, Algorithm 3 from statistics, the WY-form apply.

Prints ratio tables; every ratio is the median over ``--repeat`` rounds of the
ratio of two timings taken back to back, so the shared machine's load cancels
out to first order. The load
average (``os.getloadavg``) is printed beside each table. "before" columns run the
implementation this package had before the fused kernels (a copy kept in this
script, `_before_*`), "after" the current one.

    python benchmarks/bench_core.py            # the full sizes (n = 100000; n = 8192)
    python benchmarks/bench_core.py --quick    # small sizes, a few seconds

Table 1: the statistics pass (`SignalStatistics.from_array`) against one
``Y.sum(axis=1)``, n = 100000, p = 100, on the paper's model signals and on
arbitrary data (uniform, Gaussian), float64 and float32, with the compiled
kernel (numba, if installed) and the numpy fallback.
Table 2: ``estimate_householder_product(Y, m)`` against one ``Y.sum(axis=1)``,
n = 100000, p = 100, on the paper's model signals and on arbitrary data
(uniform, Gaussian), oracle / blind scale, with and without pruning.
Table 3: ``V.T @ Y`` through the compact WY form against the dense product
``V.to_dense().T @ Y`` (the dense matrix formed outside the timing) and against
the two GEMMs the WY form is made of, n = 8192, m = 32, p = 1024.
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import os
import resource
import time
import warnings
from unittest import mock

import numpy as np
import scipy.linalg.blas
from _threads import limit_blas_threads

from gsp_householder import (
    BernoulliUniform,
    DegenerateStatisticsWarning,
    SignalStatistics,
    estimate_householder_product,
    make_signals,
    random_householder_product,
)
from gsp_householder.learning.paper import _noise_level, estimate_scale
from gsp_householder.statistics import _kernels, signal_statistics

# the clock of every timing: wall time by default; ``--clock cpu`` uses the process CPU
# time, which a loaded machine does not inflate (threads add up their CPU time)
_clock = {"now": time.perf_counter}


def median_time(func, repeat: int) -> float:
    func()  # warm-up: compilation, caches, first-touch of buffers
    now = _clock["now"]
    times = []
    for _ in range(repeat):
        start = now()
        func()
        times.append(now() - start)
    return float(np.median(times))


# How ``median_ratio`` orders its timings (``--order``, ``--settle``):
# - "settled" (default): each round times ``base`` and ``func`` once, in alternating order
#   (base first in even rounds, func first in odd ones), each call after ``settle``
#   seconds of sleep. OpenBLAS's idle workers spin for about 0.1 s after every threaded
#   call, and numpy and SciPy each bring their own OpenBLAS: without the sleep, a function
#   whose last call went to SciPy's BLAS slows whatever numpy product is timed right after
#   it (and the reverse), so the ratio depends on which function ran before which;
# - "loop": each round times ``base`` three times in a row, then ``func`` three times
#   (order alternating between rounds), and keeps the mean of the last two of each: each
#   timed call follows a call of itself, as in a loop that applies the same operation;
# - "pairs": ``base`` then ``func`` back to back, as this script did before; each call of
#   ``base`` follows a call of ``func``.
_timing = {"order": "settled", "settle": 0.15}


def _minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def _timed(func) -> tuple[float, int]:
    """Time of one call of ``func`` on the benchmark's clock, and its minor page faults."""
    now = _clock["now"]
    faults = _minor_faults()
    start = now()
    func()
    elapsed = now() - start
    return elapsed, _minor_faults() - faults


def median_ratio(func, base, repeat: int, faults: list | None = None) -> float:
    """Median over ``repeat`` rounds of time(func) / time(base), both timed in each round
    in the order ``_timing["order"]`` says (see above). ``faults``, if given, receives the
    minor page faults of each timed call of ``func``."""
    func()
    base()
    order, settle = _timing["order"], _timing["settle"]
    ratios = []
    for i in range(repeat):
        if order == "pairs":
            (t_base, _), (t_func, f_func) = _timed(base), _timed(func)
        elif order == "settled":
            first, second = (base, func) if i % 2 == 0 else (func, base)
            time.sleep(settle)
            t_first, f_first = _timed(first)
            time.sleep(settle)
            t_second, f_second = _timed(second)
            (t_base, _), (t_func, f_func) = (
                ((t_first, f_first), (t_second, f_second)) if i % 2 == 0
                else ((t_second, f_second), (t_first, f_first)))
        else:  # "loop"
            runs = {}
            for name, f in (("base", base), ("func", func))[::1 if i % 2 == 0 else -1]:
                f()  # follows the other function: not timed
                calls = [_timed(f) for _ in range(2)]
                runs[name] = (float(np.mean([c[0] for c in calls])),
                              int(np.median([c[1] for c in calls])))
            (t_base, _), (t_func, f_func) = runs["base"], runs["func"]
        ratios.append(t_func / t_base)
        if faults is not None:
            faults.append(f_func)
    return float(np.median(ratios))


def load() -> str:
    clock = "" if _clock["now"] is time.perf_counter else "; CPU time"
    order = _timing["order"] + (f" {_timing['settle']:g} s" if _timing["order"] == "settled"
                                else "")
    return ("load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()) + clock
            + f"; order {order}")


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in rows:
        print("| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) + " |")
    print()


# ---------------------------------------------------------------- "before"
def _before_statistics(Y):
    """The statistics pass as it was: BLAS row sums and einsum squares on 2 MB row blocks."""
    n, p = Y.shape
    sums, squares, ones = np.empty(n), np.empty(n), np.ones(p)
    rows = max(1, (1 << 21) // max(1, 8 * p))
    for start in range(0, n, rows):
        part = Y[start:start + rows]
        if part.dtype != np.float64:
            part = part.astype(np.float64)
        np.dot(part, ones, out=sums[start:start + rows])
        np.einsum("ij,ij->i", part, part, out=squares[start:start + rows])
    if not (np.isfinite(sums).all() and np.isfinite(squares).all()):
        raise ValueError("not finite")
    stats = SignalStatistics(n)
    stats.row_sums, stats.row_sq_sums, stats.count = sums, squares, p
    return stats


def _blocked_row_pass(Y, block_entries, reduce):
    """Row sums and row sums of squares as the package's numpy fallback once computed
    them: blocks of ``block_entries`` float64 entries of rows (converted in a reused
    buffer), each reduced by ``reduce(block, sums, squares)``; threads split the rows
    evenly."""
    n, p = Y.shape
    sums, squares = np.empty(n), np.empty(n)

    def work(lo, hi):
        rows = max(1, block_entries // p)
        buf = None if Y.dtype == np.float64 else np.empty((min(rows, hi - lo), p))
        for i in range(lo, hi, rows):
            j = min(hi, i + rows)
            block = Y[i:j]
            if buf is not None:
                block = buf[:j - i]
                np.copyto(block, Y[i:j], casting="unsafe")
            reduce(block, sums[i:j], squares[i:j])

    _kernels._run_split(work, n, _kernels._default_threads(Y.size, False))
    _kernels.check_sums(Y, sums, squares, "Y")
    return sums, squares


def _einsum_row_sums(Y):
    """The numpy fallback of the fused pass as it was: 1 MiB blocks, ``einsum`` for the
    sums, then for the squares."""
    def reduce(block, sums, squares):
        np.einsum("ij->i", block, out=sums)
        np.einsum("ij,ij->i", block, block, out=squares)

    return _blocked_row_pass(Y, 1 << 17, reduce)


def _dot_row_sums(Y):
    """The numpy fallback of the fused pass as it was before the ``gemv`` sums: 2 MiB
    blocks, one BLAS ``dot`` per row for the squares, then one per row against ones for
    the sums."""
    ones = np.ones(Y.shape[1])

    def reduce(block, sums, squares):
        np.vecdot(block, block, out=squares)
        np.vecdot(block, ones, out=sums)

    return _blocked_row_pass(Y, 1 << 18, reduce)


def _wide_blocks(Y):
    """The numpy fallback's block size before its 512 KiB (then 1 MiB) blocks: the current
    kernel on 2 MiB blocks of rows (float32: converted into two 2 MiB buffer slots in turn;
    ``--base-kernels`` times an older kernel as it was)."""
    chunk = _kernels._LAST_CHUNK
    _kernels._LAST_CHUNK = 1 << 18
    try:
        return SignalStatistics.from_array(Y)
    finally:
        _kernels._LAST_CHUNK = chunk


# the statistics kernels of another source tree (``--base-kernels``), timed in the same run
_compare = {"kernels": None}


def _kernels_of(tree: str):
    """``gsp_householder/statistics/_kernels.py`` of the source tree ``tree`` (an export of
    main, say), loaded as a separate module beside this tree's."""
    path = os.path.join(tree, "gsp_householder", "statistics", "_kernels.py")
    spec = importlib.util.spec_from_file_location("base_statistics_kernels", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _from_array_with(kernels, Y):
    """`SignalStatistics.from_array` with the numpy row kernel of ``kernels``."""
    with kernels.use_backend("numpy"), mock.patch.object(
            signal_statistics, "row_sums_and_squares", kernels.row_sums_and_squares):
        return SignalStatistics.from_array(Y)


def _before_estimator(Y, m, theta=None, mu=None, prune=True):
    """Algorithm 3 from the identity as it was: Gram-matrix loop, then U formed and renormalised."""
    stats = _before_statistics(Y)
    scale = estimate_scale(stats, theta, mu)
    noise = _noise_level(stats, scale)
    y0 = stats.mean / scale
    n = y0.shape[0]
    total = float(y0.sum())
    gram = np.array([[float(n), total], [total, float(y0 @ y0)]])
    one, y = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    kept = []
    for _ in range(m):
        k = 0.5 * (one - y)
        norm_sq = float(k @ gram @ k)
        significant = noise is None or norm_sq > noise
        if norm_sq <= (1e-12 * np.sqrt(n)) ** 2 or (prune and not significant):
            continue
        u = k / np.sqrt(norm_sq)
        kept.append(u)
        y = y - 2.0 * u * float(u @ gram @ y)
    if not kept:
        return np.zeros((n, 0))
    U = np.column_stack([np.ones(n), y0]) @ np.column_stack(kept)
    return U / np.linalg.norm(U, axis=0)


def _main_estimator(Y, m, theta=None, mu=None, prune=True):
    """Algorithm 3 from the identity as it was before the one-pass summaries: the same
    statistics pass, then the numpy passes (row variances over the sums of squares, the
    largest |sum|, the mean over the scale written out, Gram-Schmidt by separate passes)
    and the steps on numpy 2-vectors; the basis kept factored as the package does."""
    from gsp_householder.householder import HouseholderProduct
    from gsp_householder.learning.paper import _scale_and_noise

    stats = SignalStatistics.from_array(Y)
    base = stats.row_sums.base
    columns = base if base is not None and base.shape == (2, stats.n_nodes) else None
    if columns is None:
        columns = np.empty((2, stats.n_nodes))
    with _kernels.use_backend("numpy"):
        scale, noise = _scale_and_noise(stats, theta, mu, scratch=columns[1])
    peak = max(abs(float(stats.row_sums.max())), abs(float(stats.row_sums.min())))
    if not peak / stats.count / scale <= 1e150:
        raise ValueError("out of range")
    n = columns.shape[1]
    np.multiply(stats.row_sums, 1.0 / (stats.count * scale), out=columns[1])
    root = np.sqrt(n)
    rest = columns[1]
    along = float(rest.sum()) / root
    norm_before = float(np.sqrt(_kernels.vector_dot(rest, rest)))
    rest -= along / root
    norm_rest = float(np.sqrt(_kernels.vector_dot(rest, rest)))
    for _ in range(2):
        if norm_rest == 0.0 or norm_rest > 0.5 * norm_before:
            break
        correction = float(rest.sum()) / root
        along += correction
        rest -= correction / root
        norm_before, norm_rest = norm_rest, float(np.sqrt(_kernels.vector_dot(rest, rest)))
    columns[0] = 1.0 / root
    if not norm_rest > 0.0:
        basis, one, y = columns[:1].T, np.array([root]), np.array([along])
    else:
        rest /= norm_rest
        basis, one, y = columns.T, np.array([root, 0.0]), np.array([along, norm_rest])
    kept = []
    for _ in range(m):
        k = 0.5 * (one - y)
        norm_sq = float(k @ k)
        significant = noise is None or norm_sq > noise
        if norm_sq <= (1e-12 * np.sqrt(n)) ** 2 or (prune and not significant):
            continue
        u = k / np.sqrt(norm_sq)
        u /= np.linalg.norm(u)
        kept.append(u)
        y = y - 2.0 * u * float(u @ y)
    if not kept:
        return HouseholderProduct.identity(n)
    return HouseholderProduct._trusted_factored(basis, np.column_stack(kept))


def _before_apply_transpose(V, Y):
    """V.T @ Y as it was: U^T Y, T^T W, one n x p product, subtraction, a reduction."""
    U, T = V.vectors, V.wy_factor
    W = T.T @ (U.T @ Y)
    out = U @ W
    np.subtract(Y, out, out=out)
    if not np.isfinite(np.add.reduce(out, axis=None)):
        raise ValueError("not finite")
    return out


def _main_apply_transpose(V, Y):
    """V.T @ Y as it was before the folded factor and the threaded copy: W = M (B^T Y) (a
    GEMM and an m x m product), the copy of Y by 512 KB blocks with their bounds on one
    thread, then one GEMM with beta = 1."""
    from gsp_householder.householder import _copy_with_bounds, _subtract_product

    A, M, B = V.T._apply_factors(Y.dtype, False)
    W = M @ (B.T @ Y)
    out = np.empty_like(Y)
    high = _copy_with_bounds(Y, out, None, True, n_threads=1)
    _subtract_product(A, W, out)
    if not high + float(np.abs(W).sum(axis=0).max()) < 1e300:
        raise ValueError("not finite")
    return out


def _unfused_apply_transpose(V, Y):
    """V.T @ Y as it was before the fused second half: W = C^T Y (one GEMM, the factor
    folded into C), the copy of Y by 512 KB blocks with their bounds (threads share the
    blocks), then one GEMM ``out -= A W`` with beta = 1 over the whole result."""
    from gsp_householder.householder import _copy_with_bounds, _subtract_product

    Vt = V.T
    A, C = Vt._apply_pair(Y.dtype, False)
    W = C.T @ Y
    out = np.empty_like(Y)
    high = _copy_with_bounds(Y, out, None, True)
    _subtract_product(A, W, out)
    if not high + float(np.abs(W).sum(axis=0).max()) < 1e300:
        raise ValueError("not finite")
    return out


def _bounds_apply_transpose(V, Y):
    """V.T @ Y with several BLAS threads as it was before the flagged subtraction: W = C^T Y
    and out = (D A) W by numpy's BLAS, then out = D (Y - out) by 512 KB blocks on threads,
    the largest and smallest entry of each block of the result read while it is in cache
    (`_subtract_from`) to prove the result finite."""
    from gsp_householder.householder import _product_into, _subtract_from

    Vt = V.T
    C = Vt._apply_pair(Y.dtype, False)[1]
    W = C.T @ Y
    out = np.empty_like(Y)
    _product_into(Vt._apply_signed(Y.dtype, False), W, out, True)
    if not _subtract_from(Y, out, None, True) < np.inf:
        raise ValueError("not finite")
    return out


def _flagged_apply_transpose(V, Y):
    """V.T @ Y with several BLAS threads as it was before the fresh result by AXPY (and as
    it still is for a product with signs): W = C_e^T Y and out = (D A) W by numpy's BLAS
    into np.empty, then out = D (Y - out) by 512 KB blocks on the package's threads,
    checked by numpy's overflow flags (`_subtract_flagged`)."""
    from gsp_householder.householder import _product_into, _subtract_flagged

    Vt = V.T
    W = Vt._apply_watched(Y.dtype, False).T @ Y
    signed = Vt._apply_signed(Y.dtype, False)
    out = np.empty_like(Y)
    _product_into(signed, W[:signed.shape[1]], out, True)
    if _subtract_flagged(Y, out, None, True) or not np.isfinite(W).all():
        raise ValueError("not finite")
    return out


def _axpy_apply_transpose(V, Y):
    """V.T @ Y with several BLAS threads as it was before both GEMMs moved to the
    package's threads: W = C_s^T Y by numpy's threaded BLAS, out = np.zeros + Y by AXPY
    and out -= A W (beta = 1), both on numpy's BLAS threads."""
    from gsp_householder._numpy_blas import add_into, gemm_update

    Vt = V.T
    A = Vt._apply_pair(Y.dtype, False)[0]
    W = Vt._apply_sentinel(Y.dtype, False).T @ Y
    out = np.zeros(Y.shape, Y.dtype)
    add_into(Y, out)
    gemm_update(A, W[:-1], out)
    if not (np.isfinite(W[-1]).all() and float(np.abs(W[:-1]).sum(axis=0).max()) < 1e300):
        raise ValueError("not finite")
    return out


def _rowblock_apply_transpose(V, Y, block_bytes=1 << 22):
    """V.T @ Y with the second GEMM by blocks of rows (an alternative, not the package's):
    W = M (B^T Y) by one GEMM, then for each 4 MB block of rows, the block of Y is copied
    into the result, its bounds read, and ``out_r -= A_r W`` (beta = 1) runs while it is in
    cache. Memory traffic: Y read twice, the result written once (the package's apply
    writes it, then reads and writes it again in GEMM 2); one BLAS call per block."""
    from gsp_householder.householder import _subtract_product

    A, M, B = V.T._apply_factors(Y.dtype, False)
    W = M @ (B.T @ Y)
    out = np.empty_like(Y)
    rows = max(1, block_bytes // (Y.shape[1] * Y.itemsize))
    high = 0.0
    for start in range(0, Y.shape[0], rows):
        block = out[start:start + rows]
        np.copyto(block, Y[start:start + rows])
        high = max(high, abs(float(block.max())), abs(float(block.min())))
        _subtract_product(A[start:start + rows], W, block)
    if not high + float(np.abs(W).sum(axis=0).max()) < 1e300:
        raise ValueError("not finite")
    return out


# ------------------------------------------------------------------ tables
def _data(n, p, rng):
    V = random_householder_product(n, 50, rng=rng)
    model, _ = make_signals(V, p, BernoulliUniform(0.5), rng=rng)
    return {"model": model, "uniform": rng.random((n, p)),
            "Gaussian": rng.standard_normal((n, p)) + 0.1}


def bench_statistics(n: int, p: int, repeat: int) -> None:
    """The fused pass against one read; "numpy, einsum blocks" is the numpy fallback as it
    was before the row-wise BLAS dot products (`_einsum_row_sums`), "numpy, dot per row"
    as it was before the ``gemv`` sums (`_dot_row_sums`), "numpy, 2 MiB blocks" as it was
    before its 512 KiB blocks (`_wide_blocks`), in the same run; with ``--base-kernels
    TREE``, "numpy, base" is the numpy kernel of that source tree (`_from_array_with`)."""
    rng = np.random.default_rng(0)
    backends = ["numba", "numpy"] if _kernels._numba_available() else ["numpy"]
    other = _compare["kernels"]
    rows = []
    for (name, data), dtype in itertools.product(_data(n, p, rng).items(),
                                                 (np.float64, np.float32)):
        Y = np.ascontiguousarray(data, dtype=dtype)
        base = lambda Y=Y: Y.sum(axis=1)  # noqa: E731
        before = median_ratio(lambda Y=Y: _before_statistics(Y), base, repeat)
        einsum = median_ratio(lambda Y=Y: _einsum_row_sums(Y), base, repeat)
        dots = median_ratio(lambda Y=Y: _dot_row_sums(Y), base, repeat)
        cells = [name, np.dtype(dtype).name, f"{median_time(base, repeat) * 1e3:.2f}",
                 f"{before:.2f}", f"{einsum:.2f}", f"{dots:.2f}"]
        with _kernels.use_backend("numpy"):
            cells.append(f"{median_ratio(lambda Y=Y: _wide_blocks(Y), base, repeat):.2f}")
        if other is not None:
            ratio = median_ratio(lambda Y=Y: _from_array_with(other, Y), base, repeat)
            cells.append(f"{ratio:.2f}")
        for backend in backends:
            with _kernels.use_backend(backend):
                after = median_ratio(lambda Y=Y: SignalStatistics.from_array(Y), base, repeat)
            cells.append(f"{after:.2f}")
        rows.append(cells)
    print(f"Statistics pass / one Y.sum(axis=1) (n={n}, p={p}; medians of {repeat}; "
          f"target <= 1.2; {load()})")
    table(rows, ["data", "dtype", "sum ms", "before", "numpy, einsum blocks",
                 "numpy, dot per row", "numpy, 2 MiB blocks",
                 *(["numpy, base"] if other is not None else []),
                 *[f"after, {b}" for b in backends]])


def bench_estimator(n: int, p: int, ms, repeat: int) -> None:
    rng = np.random.default_rng(1)
    rows = []
    settings = (("oracle, pruned", {"theta": 0.5, "mu": 1.5}), ("blind, pruned", {}),
                ("oracle, prune=False", {"theta": 0.5, "mu": 1.5, "prune": False}))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        for name, Y in _data(n, p, rng).items():
            base = lambda Y=Y: Y.sum(axis=1)  # noqa: E731
            for m in ms:
                cells = [name, m]
                for _, kw in settings:
                    before = median_ratio(
                        lambda Y=Y, m=m, kw=kw: _before_estimator(Y, m, **kw), base, repeat)
                    main = median_ratio(
                        lambda Y=Y, m=m, kw=kw: _main_estimator(Y, m, **kw), base, repeat)
                    after = median_ratio(
                        lambda Y=Y, m=m, kw=kw: estimate_householder_product(Y, m, **kw), base,
                        repeat)
                    cells.append(f"{before:.2f} -> {main:.2f} -> {after:.2f}")
                rows.append(cells)
    print(f"Algorithm 3 from statistics / one Y.sum(axis=1), before -> numpy passes and "
          f"2-vector steps (`_main_estimator`) -> after (n={n}, p={p}; "
          f"medians of {repeat}; kernel: {_kernels.active_backend()}; target <= 1.3; {load()})")
    table(rows, ["data", "m", *[name for name, _ in settings]])


def _apply_case(n, m, p):
    rng = np.random.default_rng(2)
    V = random_householder_product(n, m, rng=rng)
    Y = rng.standard_normal((n, p))
    return V, Y, V.vectors, rng.standard_normal((m, p))


def bench_apply(n: int, m: int, p: int, repeat: int, rounds: int = 3) -> None:
    """``V.T @ Y`` against the two GEMMs it is made of, ``U.T @ Y`` and ``U @ W``.

    The baseline is numpy's ``U.T @ Y`` and ``U @ W`` (W random, m x p): the two
    products every WY apply needs whatever else it does. The apply's second GEMM
    runs through scipy's BLAS (``gemm`` with ``beta = 1``); the column "GEMMs
    scipy / numpy" times the same two GEMMs through scipy's BLAS against numpy's,
    to show the ratio is not won by a faster library. "main" is the apply before the
    folded factor and the threaded copy (`_main_apply_transpose`); "unfused" the apply
    before the fused second half (`_unfused_apply_transpose`: the copy of Y, then GEMM 2
    through SciPy's BLAS over the whole result), which is also the apply with several
    BLAS threads before GEMM 2 moved to numpy's BLAS. "bounds" is the apply with
    several BLAS threads before the flagged subtraction (`_bounds_apply_transpose`: the
    same two numpy GEMMs, then the subtraction reading each block's maximum and
    minimum); "flagged" the apply before the fresh result by AXPY
    (`_flagged_apply_transpose`: the same two GEMMs, then the subtraction checked by
    numpy's overflow flags; still the path of a small product with signs); "axpy" the
    apply before both GEMMs moved to the package's threads (`_axpy_apply_transpose`:
    GEMM 1 on numpy's threaded BLAS, a fresh result by AXPY into zeros, GEMM 2 with
    beta = 1 over the whole result). "after" runs every BLAS call on the package's
    threads with BLAS held to one thread. "dense / GEMMs" is
    the ceiling of every "dense / ..." column: an apply
    that costs exactly its two GEMMs. "row blocks" is an
    alternative that runs the second GEMM by 4 MB blocks of rows while each block
    is in cache (`_rowblock_apply_transpose`); "overwrite_y" is
    ``V.T.matvec(Y, overwrite_y=True)``, which writes into Y and so saves
    allocating, first-touching and copying the result (an opt-in, reported apart).
    "GEMMs / GEMMs" times the baseline against itself, back to back as every other
    ratio: the spread of the measurement itself. ``rounds`` rounds, then the medians
    and ranges over the rounds; the ratios are timed as ``--order`` says (see
    `median_ratio`), and the minor page faults of each timed call are printed after.
    """
    V, Y, U, W = _apply_case(n, m, p)
    dense = V.to_dense()
    ref = dense.T @ Y
    err = np.linalg.norm(V.T @ Y - ref) / np.linalg.norm(Y)
    err_before = np.linalg.norm(_before_apply_transpose(V, Y) - ref) / np.linalg.norm(Y)
    gemm = scipy.linalg.blas.get_blas_funcs("gemm", (Y,))
    rows = []
    gemms = lambda: (U.T @ Y, U @ W)  # noqa: E731
    # the same products through scipy's BLAS, beta = 0 (results F-ordered: W^T Y... as
    # transposes of C-ordered views, no copies)
    gemms_scipy = lambda: (gemm(1.0, Y.T, U), gemm(1.0, W.T, U.T))  # noqa: E731
    wy = lambda: V.T @ Y  # noqa: E731
    rowblock = lambda: _rowblock_apply_transpose(V, Y)  # noqa: E731
    scratch = Y.copy()  # overwritten again and again: V^T is orthogonal, it stays finite
    Vt = V.T
    overwrite = lambda: Vt.matvec(scratch, overwrite_y=True)  # noqa: E731
    main_apply = lambda: _main_apply_transpose(V, Y)  # noqa: E731
    unfused_apply = lambda: _unfused_apply_transpose(V, Y)  # noqa: E731
    err_unfused = np.linalg.norm(unfused_apply() - ref) / np.linalg.norm(Y)
    bounds_apply = lambda: _bounds_apply_transpose(V, Y)  # noqa: E731
    err_bounds = np.linalg.norm(bounds_apply() - ref) / np.linalg.norm(Y)
    flagged_apply = lambda: _flagged_apply_transpose(V, Y)  # noqa: E731
    err_flagged = np.linalg.norm(flagged_apply() - ref) / np.linalg.norm(Y)
    axpy_apply = lambda: _axpy_apply_transpose(V, Y)  # noqa: E731
    err_axpy = np.linalg.norm(axpy_apply() - ref) / np.linalg.norm(Y)
    names = ["GEMMs", "before", "main", "row blocks", "unfused", "bounds", "flagged",
             "axpy", "after", "overwrite_y", "GEMMs scipy"]
    faults = {name: [] for name in names}
    for _ in range(rounds):
        itself = median_ratio(gemms, gemms, repeat, faults["GEMMs"])
        before = median_ratio(lambda: _before_apply_transpose(V, Y), gemms, repeat,
                              faults["before"])
        main = median_ratio(main_apply, gemms, repeat, faults["main"])
        blocks = median_ratio(rowblock, gemms, repeat, faults["row blocks"])
        unfused = median_ratio(unfused_apply, gemms, repeat, faults["unfused"])
        bounds = median_ratio(bounds_apply, gemms, repeat, faults["bounds"])
        flagged = median_ratio(flagged_apply, gemms, repeat, faults["flagged"])
        axpy = median_ratio(axpy_apply, gemms, repeat, faults["axpy"])
        after = median_ratio(wy, gemms, repeat, faults["after"])
        inplace = median_ratio(overwrite, gemms, repeat, faults["overwrite_y"])
        library = median_ratio(gemms_scipy, gemms, repeat, faults["GEMMs scipy"])
        dense_repeat = max(2, repeat // 3)
        dense_gemms = median_ratio(lambda: dense.T @ Y, gemms, dense_repeat)
        dense_main = median_ratio(lambda: dense.T @ Y, main_apply, dense_repeat)
        dense_unfused = median_ratio(lambda: dense.T @ Y, unfused_apply, dense_repeat)
        dense_bounds = median_ratio(lambda: dense.T @ Y, bounds_apply, dense_repeat)
        dense_flagged = median_ratio(lambda: dense.T @ Y, flagged_apply, dense_repeat)
        dense_axpy = median_ratio(lambda: dense.T @ Y, axpy_apply, dense_repeat)
        dense_ratio = median_ratio(lambda: dense.T @ Y, wy, dense_repeat)
        dense_inplace = median_ratio(lambda: dense.T @ Y, overwrite, dense_repeat)
        rows.append([f"{median_time(gemms, repeat) * 1e3:.1f}", f"{itself:.2f}",
                     f"{before:.2f}", f"{main:.2f}",
                     f"{blocks:.2f}", f"{unfused:.2f}", f"{bounds:.2f}", f"{flagged:.2f}",
                     f"{axpy:.2f}", f"{after:.2f}", f"{inplace:.2f}", f"{library:.2f}",
                     f"{dense_gemms:.1f}x", f"{dense_main:.1f}x", f"{dense_unfused:.1f}x",
                     f"{dense_bounds:.1f}x", f"{dense_flagged:.1f}x", f"{dense_axpy:.1f}x",
                     f"{dense_ratio:.1f}x",
                     f"{dense_inplace:.1f}x"])
    print(f"V.T @ Y, compact WY form (n={n}, m={m}, p={p}; medians of {repeat}; relative "
          f"difference to the dense product: before {err_before:.1e}, unfused "
          f"{err_unfused:.1e}, bounds {err_bounds:.1e}, flagged {err_flagged:.1e}, "
          f"axpy {err_axpy:.1e}, "
          f"after {err:.1e}; "
          f"BLAS threads {_blas_threads()}; {load()})")
    if rounds > 1:
        rows.append(["median of rounds"] + [
            f"{np.median([float(r[i].rstrip('x')) for r in rows]):.2f}"
            + ("x" if rows[0][i].endswith("x") else "") for i in range(1, len(rows[0]))])
        rows.append(["range of rounds"] + [
            "{:.2f}-{:.2f}".format(*(f([float(r[i].rstrip('x')) for r in rows[:-1]])
                                    for f in (min, max)))
            for i in range(1, len(rows[0]))])
    table(rows, ["two GEMMs ms", "GEMMs / GEMMs", "before / GEMMs", "main / GEMMs",
                 "row blocks / GEMMs",
                 "unfused / GEMMs", "bounds / GEMMs", "flagged / GEMMs", "axpy / GEMMs",
                 "after / GEMMs (<= 1.3)", "overwrite_y / GEMMs", "GEMMs scipy / numpy",
                 "dense / GEMMs (ceiling)", "dense / main", "dense / unfused",
                 "dense / bounds", "dense / flagged", "dense / axpy", "dense / after (>= 40)",
                 "dense / overwrite_y"])
    print("Minor page faults per timed call (median, quartiles; the two GEMMs: "
          f"{np.median(faults['GEMMs']):.0f})")
    table([[name, f"{np.median(f):.0f}",
            "{:.0f}-{:.0f}".format(*np.percentile(f, [25, 75]))] for name, f in faults.items()],
          ["call", "minor faults", "quartiles"])


def _spin_cpu(call, sleep: float, repeat: int) -> float:
    """Median process CPU time (s) spent during a ``sleep`` of the calling thread right
    after ``call()``: the time BLAS's idle threads spin before they sleep."""
    call()
    spent = []
    for _ in range(repeat):
        call()
        cpu = time.process_time()
        time.sleep(sleep)
        spent.append(time.process_time() - cpu)
    return float(np.median(spent))


def profile_apply(n: int, m: int, p: int, repeat: int) -> None:
    """Per-phase medians of the default WY apply and of its two GEMMs, with minor page
    faults, process CPU time beside wall time, and the rate of the memory phases (bytes
    moved over CPU time, which the load does not inflate: a read of ``Y`` is
    ``Y.nbytes``, a copy twice that). The phases are those of `_fused_sentinel_apply`
    (several BLAS threads, a fresh result): BLAS held to one thread, $W = C_s^T Y$ by
    chunks of ``Y`` on the package's threads, then per block (last first) the copy of
    ``Y`` and ``out_block -= A_block W`` (``beta = 1``) while the block is in cache; each
    is timed alone here (the apply overlaps the end of the first with the start of the
    second), into fresh and into warm memory, to show what the page faults of the fresh
    result cost. Then the CPU time BLAS's idle threads spend spinning after a call, for
    numpy's BLAS and for scipy's."""

    from gsp_householder._blas_threads import blas_threads, one_blas_thread
    from gsp_householder._numpy_blas import gemm_update, routines
    from gsp_householder.householder import (
        _FUSED_BLOCK_BYTES,
        _GEMM1_CHUNK_BYTES,
        _copy_threads,
        _fused_sentinel_apply,
        _shared_claims,
    )

    V, Y, U, Wr = _apply_case(n, m, p)
    Vt = V.T
    A, _ = Vt._apply_pair(Y.dtype, False)
    Cs = Vt._apply_sentinel(Y.dtype, False)
    W = Cs.T @ Y
    warm, scratch = Y.copy(), Y.copy()
    threads = min(blas_threads() or 1, _copy_threads())
    line = p * Y.itemsize
    step, block = max(1, _GEMM1_CHUNK_BYTES // line), max(1, _FUSED_BLOCK_BYTES // line)
    chunks, blocks = -(-n // step), -(-n // block)

    def gemm1():  # W by chunks, partial products summed in order (the apply's first half)
        parts = [None] * chunks

        def work(claim):
            while (i := claim()) is not None:
                parts[i] = Cs[i * step:(i + 1) * step].T @ Y[i * step:(i + 1) * step]

        with one_blas_thread():
            _shared_claims(chunks, threads, work)
        total = parts[0]
        for part in parts[1:]:
            total += part

    def blocks_pass(out, copy=True, product=True):  # the apply's second half
        def work(claim):
            while (j := claim()) is not None:
                sl = slice(j * block, (j + 1) * block)
                if copy:
                    np.copyto(out[sl], Y[sl])
                if product:
                    gemm_update(A[sl], W[:-1], out[sl])

        with one_blas_thread():
            _shared_claims(blocks, threads, work, last_first=True)

    def limit():
        with one_blas_thread():
            pass

    mb = Y.nbytes / 1e6
    have = routines() is not None
    skip = lambda: None  # noqa: E731
    phases = {
        "apply: BLAS held to one thread and restored (threadpoolctl), empty": (limit, 0),
        f"apply: W = C_s^T Y by {_GEMM1_CHUNK_BYTES >> 20} MB chunks, package threads, "
        "BLAS on one thread": (gemm1, 0),
        f"apply: per {_FUSED_BLOCK_BYTES >> 20} MB block copy + out -= A W (beta = 1), "
        "fresh result": ((lambda: blocks_pass(np.empty_like(Y))) if have else skip, 0),
        f"apply: per {_FUSED_BLOCK_BYTES >> 20} MB block copy + out -= A W, warm result": (
            (lambda: blocks_pass(warm)) if have else skip, 0),
        "apply: per block copy only, fresh result (the page faults)": (
            (lambda: blocks_pass(np.empty_like(Y), product=False)), 2 * mb),
        "apply: per block copy only, warm result": (
            (lambda: blocks_pass(warm, product=False)), 2 * mb),
        "apply: per block out -= A W only, warm result": (
            (lambda: blocks_pass(warm, copy=False)) if have else skip, 0),
        "apply: _fused_sentinel_apply, fresh result (both halves)": (
            (lambda: _fused_sentinel_apply(Y, np.empty_like(Y), None, True, A, Cs, threads))
            if have else skip, 0),
        "apply: _fused_sentinel_apply into Y itself (no copy), warm": (
            (lambda: _fused_sentinel_apply(scratch, scratch, None, True, A, Cs, threads))
            if have else skip, 0),
        "whole apply V.T @ Y (the default)": (lambda: Vt @ Y, 0),
        "whole apply, overwrite_y=True": (lambda: Vt.matvec(scratch, overwrite_y=True), 0),
        "baseline: U^T Y (GEMM 1)": (lambda: U.T @ Y, 0),
        "baseline: U W (GEMM 2, beta=0, fresh output)": (lambda: U @ Wr, 0),
        "baseline: the two GEMMs": (lambda: (U.T @ Y, U @ Wr), 0),
        "memory: np.empty + first touch (np.copyto Y)": (
            lambda: np.copyto(np.empty_like(Y), Y), 2 * mb),
        "memory: copy into warm memory": (lambda: np.copyto(warm, Y), 2 * mb),
        "memory: read Y once (np.add.reduce)": (lambda: np.add.reduce(Y, axis=None), mb),
    }
    samples = {name: ([], [], []) for name in phases}
    for func, _ in phases.values():
        func()
    for _ in range(repeat):
        for name, (func, _) in phases.items():
            faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            start, cpu = time.perf_counter(), time.process_time()
            func()
            samples[name][0].append(time.perf_counter() - start)
            samples[name][1].append(time.process_time() - cpu)
            samples[name][2].append(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults)
    rows = []
    for name, (t, c, f) in samples.items():
        moved = phases[name][1]
        rate = f"{moved / 1e3 / np.median(c):.1f}" if moved else ""
        rows.append([name, f"{np.median(t) * 1e3:.2f}", f"{np.median(c) * 1e3:.2f}",
                     f"{np.median(f):.0f}", rate])
    print(f"Profile of V.T @ Y (n={n}, m={m}, p={p}; Y is {mb:.0f} MB; medians of {repeat}; "
          f"BLAS threads {_blas_threads()}; package threads {threads}; {chunks} chunks, "
          f"{blocks} blocks; {load()})")
    table(rows, ["phase", "wall ms", "CPU ms", "minor page faults", "GB/s (bytes / CPU s)"])
    gemm = scipy.linalg.blas.get_blas_funcs("gemm", (Y,))
    spin_rows = []
    for name, call in (("numpy U.T @ Y", lambda: U.T @ Y),
                       ("scipy gemm(U^T, Y)", lambda: gemm(1.0, Y.T, U))):
        spin_rows.append([name] + [f"{_spin_cpu(call, s, repeat) * 1e3:.1f}"
                                   for s in (0.02, 0.1)])
    print(f"CPU time of the process during a sleep of the calling thread right after one "
          f"BLAS call (medians of {repeat}; BLAS threads {_blas_threads()}; {load()})")
    table(spin_rows, ["call", "CPU ms in 20 ms of sleep", "CPU ms in 100 ms of sleep"])


def _blas_threads() -> str:
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return "unknown"
    return ",".join(str(i["num_threads"]) for i in threadpool_info() if i["user_api"] == "blas")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--rounds", type=int, default=3,
                        help="rounds of the apply table (each a median of --repeat ratios)")
    parser.add_argument("--only", choices=("statistics", "estimator", "apply"))
    parser.add_argument("--threads", type=int, default=None,
                        help="limit BLAS threads (threadpoolctl); default: BLAS's own")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="wall time (default) or process CPU time, which the load of "
                             "a shared machine does not inflate; use it with one thread")
    parser.add_argument("--order", choices=("settled", "loop", "pairs"), default="settled",
                        help="how each ratio's two timings are ordered (see median_ratio): "
                             "alternating with a sleep before each call (default), in runs "
                             "of calls of the same function, or back to back as before")
    parser.add_argument("--settle", type=float, default=0.15,
                        help="seconds of sleep before each timed call with --order settled "
                             "(OpenBLAS's idle workers spin for about 0.1 s)")
    parser.add_argument("--base-kernels", metavar="TREE",
                        help="also time the numpy statistics kernel of this source tree "
                             "(e.g. an export of main) in the statistics table")
    parser.add_argument("--profile", action="store_true",
                        help="also print the per-phase time breakdown of each target")
    args = parser.parse_args(argv)
    limit_blas_threads(args.threads)
    _timing.update(order=args.order, settle=args.settle)
    if args.base_kernels:
        _compare["kernels"] = _kernels_of(args.base_kernels)
    if args.clock == "cpu":
        _clock["now"] = time.process_time
    if args.quick:
        sizes = {"statistics": (20_000, 50, 3), "estimator": (20_000, 50, (1, 10), 3),
                 "apply": (1024, 16, 128, 3)}
    else:
        r = args.repeat
        sizes = {"statistics": (100_000, 100, r), "estimator": (100_000, 100, (1, 10, 50), r),
                 "apply": (8192, 32, 1024, r)}
    sizes["apply"] = (*sizes["apply"], args.rounds)
    for name, func in (("statistics", bench_statistics), ("estimator", bench_estimator),
                       ("apply", bench_apply)):
        if args.only in (None, name):
            func(*sizes[name])
    if args.profile and args.only in (None, "apply"):
        profile_apply(*sizes["apply"][:4])


if __name__ == "__main__":
    main()
