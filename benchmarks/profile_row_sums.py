"""Where the numpy kernel of the statistics pass spends its time, pass by pass.

CPU time (``time.process_time``, which the load of a shared machine does not
inflate), one BLAS thread, one kernel thread, n = 100000, p = 100, medians of 15.
Each line adds one pass to the blocked loop of the numpy row kernel
(`gsp_householder.statistics._kernels`), into outputs that are already in memory.
Every line also gives the bytes of ``Y`` read per second of CPU time, against a
plain streaming read of the same bytes (BLAS ``dot`` over rows of 4096 entries of
the flat array, the fastest read numpy offers) and the compiled kernel if installed.
Last, on float32, the conversion alone and the whole loop by block size and by the
number of buffer slots the blocks are converted into in turn (the kernel: 1 MiB
blocks, two slots):

    python benchmarks/profile_row_sums.py

With ``--threads K``, the same loop on float32 instead, run by the kernel's own threads
(K of them, sharing the blocks as the kernel does) in wall time, medians of 11 with a
pause before each call, against one ``Y.sum(axis=1)`` timed in the same rounds: the
conversion alone, with the squares, with the sums, and the kernel itself. Run it on an
idle machine (wall time)::

    python benchmarks/profile_row_sums.py --threads 2
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
from _threads import limit_blas_threads

from gsp_householder.statistics import _kernels


def cpu_ms(func, repeat: int = 15) -> float:
    func()
    times = []
    for _ in range(repeat):
        start = time.process_time()
        func()
        times.append(time.process_time() - start)
    return float(np.median(times)) * 1e3


def blocked_loop(Y, passes: int, slots: int = 1, rows: int | None = None):
    """The kernel's loop with its first ``passes`` reductions (0: blocks, conversion only;
    2: sums by a dot per row; 3: sums by one gemv per block), float32 blocks of ``rows``
    rows (default: the kernel's) converted into ``slots`` buffer slots in turn."""
    n, p = Y.shape
    rows = _kernels._last_rows(p) if rows is None else rows
    buf = np.empty((slots * rows, p))
    sums, squares, ones = np.empty(n), np.empty(n), np.ones(p)

    def run():
        slot = 0
        for i in range(0, n, rows):
            j = min(n, i + rows)
            block = Y[i:j]
            if Y.dtype != np.float64:
                block = buf[slot * rows : slot * rows + j - i]
                slot = (slot + 1) % slots
                np.copyto(block, Y[i:j])
            if passes >= 1:
                np.vecdot(block, block, out=squares[i:j])
            if passes == 2:
                np.vecdot(block, ones, out=sums[i:j])
            if passes == 3:  # the kernel's choice: one BLAS gemv per block
                np.matmul(block, ones, out=sums[i:j])

    return run


def threaded_loop(Y, passes: int, n_threads: int):
    """The kernel's float32 loop with its first ``passes`` reductions (as `blocked_loop`,
    two slots per thread), its blocks shared by ``n_threads`` threads as the kernel shares
    them (`_kernels._run_claimed`)."""
    n, p = Y.shape
    rows = _kernels._last_rows(p)
    sums, squares, ones = np.empty(n), np.empty(n), np.ones(p)

    def work(claim):
        buf, slot = np.empty((2 * rows, p)), 0
        for k in claim:
            i = k * rows
            if i >= n:
                return
            j = min(n, i + rows)
            block = buf[slot * rows : slot * rows + j - i]
            slot = 1 - slot
            np.copyto(block, Y[i:j])
            if passes >= 1:
                np.vecdot(block, block, out=squares[i:j])
            if passes == 3:
                np.matmul(block, ones, out=sums[i:j])

    return lambda: _kernels._run_claimed(work, -(-n // rows), n_threads)


def wall_ratios(funcs: dict, reference: str, rounds: int = 11) -> dict:
    """Median over ``rounds`` of each function's wall time over the reference's in the
    same round (a 0.15 s pause before each call lets idle BLAS threads sleep)."""
    times: dict = {name: [] for name in funcs}
    for _ in range(rounds):
        for name, func in funcs.items():
            time.sleep(0.15)
            start = time.perf_counter()
            func()
            times[name].append(time.perf_counter() - start)
    ref = np.array(times[reference])
    return {
        name: (float(np.median(t)) * 1e3, float(np.median(np.array(t) / ref)))
        for name, t in times.items()
    }


def threaded_table(n_threads: int) -> None:
    n, p = 100_000, 100
    Y = np.random.default_rng(0).random((n, p)).astype(np.float32)

    def kernel():
        with _kernels.use_backend("numpy"):
            _kernels.sums_along_axis(Y, 1, n_threads=n_threads)

    funcs = {
        "one Y.sum(axis=1)": lambda: Y.sum(axis=1),
        "conversion into two slots": threaded_loop(Y, 0, n_threads),
        "+ squares (vecdot)": threaded_loop(Y, 1, n_threads),
        "+ sums (gemv): the kernel's loop": threaded_loop(Y, 3, n_threads),
        "the numpy kernel": kernel,
    }
    print(
        "load average {:.2f} {:.2f} {:.2f}; wall time, float32 uniform ({}, {}), "
        "{} kernel thread(s)".format(*os.getloadavg(), n, p, n_threads)
    )
    for name, (ms, ratio) in wall_ratios(funcs, "one Y.sum(axis=1)").items():
        print(f"  {name}: {ms:.2f} ms = {ratio:.2f} read")


def stream_read(Y):
    """Read every entry of ``Y`` once at BLAS ``dot`` speed (rows of 4096 entries of the
    flat array, one BLAS thread): the bandwidth floor of one core for this array."""
    flat = Y.reshape(-1)
    k = flat.size - flat.size % 4096
    rows, ones = flat[:k].reshape(-1, 4096), np.ones(4096, dtype=Y.dtype)
    out = np.empty(rows.shape[0], dtype=Y.dtype)
    return lambda: np.vecdot(rows, ones, out=out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--threads",
        type=int,
        default=0,
        help="the float32 loop on this many kernel threads, in wall time",
    )
    args = parser.parse_args()
    limit_blas_threads(1)
    if args.threads:
        threaded_table(args.threads)
        return
    n, p = 100_000, 100
    print("load average {:.2f} {:.2f} {:.2f}; CPU time".format(*os.getloadavg()))
    for dtype in (np.float64, np.float32):
        Y = np.random.default_rng(0).standard_normal((n, p)).astype(dtype)
        read = cpu_ms(lambda Y=Y: Y.sum(axis=1))

        def line(name, t, Y=Y, read=read):
            print(f"  {name}: {t:.2f} ms = {t / read:.2f} read, {Y.nbytes / t / 1e6:.1f} GB/s")

        print(f"{np.dtype(dtype).name}: {Y.nbytes / 1e6:.0f} MB")
        line("one Y.sum(axis=1)", read)
        line("streaming read (BLAS dot)", cpu_ms(stream_read(Y)))
        if _kernels._numba_available():
            with _kernels.use_backend("numba"):
                line(
                    "compiled kernel, one thread",
                    cpu_ms(lambda Y=Y: _kernels.sums_along_axis(Y, 1, n_threads=1)),
                )
        steps = (
            ("blocks (and the float64 conversion)", 0),
            ("+ squares (vecdot)", 1),
            ("+ sums (vecdot with ones)", 2),
            ("+ sums (one gemv with ones) instead", 3),
        )
        for name, passes in steps:
            line(name, cpu_ms(blocked_loop(Y, passes)))
        with _kernels.use_backend("numpy"):
            line(
                "the numpy kernel, one thread, fresh outputs",
                cpu_ms(lambda Y=Y: _kernels.sums_along_axis(Y, 1, n_threads=1)),
            )
    Y = np.random.default_rng(0).standard_normal((n, p)).astype(np.float32)
    read = cpu_ms(lambda: Y.sum(axis=1))
    print("float32, by block size and buffer slots (ns per entry; / one Y.sum(axis=1)):")
    print("  block  slots  conversion   whole loop")
    for kib in (256, 512, 1024, 2048):
        rows = kib * 1024 // (8 * p)
        for slots in (1, 2, 4):
            t = [cpu_ms(blocked_loop(Y, passes, slots, rows - rows % 8)) for passes in (0, 3)]
            print(
                f"  {kib:4d} KiB  {slots}  "
                + "  ".join(f"{x * 1e6 / Y.size:.3f} ({x / read:.2f})" for x in t)
            )


if __name__ == "__main__":
    main()
