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
"""

from __future__ import annotations

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
                block = buf[slot * rows:slot * rows + j - i]
                slot = (slot + 1) % slots
                np.copyto(block, Y[i:j])
            if passes >= 1:
                np.vecdot(block, block, out=squares[i:j])
            if passes == 2:
                np.vecdot(block, ones, out=sums[i:j])
            if passes == 3:  # the kernel's choice: one BLAS gemv per block
                np.matmul(block, ones, out=sums[i:j])

    return run


def stream_read(Y):
    """Read every entry of ``Y`` once at BLAS ``dot`` speed (rows of 4096 entries of the
    flat array, one BLAS thread): the bandwidth floor of one core for this array."""
    flat = Y.reshape(-1)
    k = flat.size - flat.size % 4096
    rows, ones = flat[:k].reshape(-1, 4096), np.ones(4096, dtype=Y.dtype)
    out = np.empty(rows.shape[0], dtype=Y.dtype)
    return lambda: np.vecdot(rows, ones, out=out)


def main() -> None:
    limit_blas_threads(1)
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
                line("compiled kernel, one thread",
                     cpu_ms(lambda Y=Y: _kernels.sums_along_axis(Y, 1, n_threads=1)))
        steps = (("blocks (and the float64 conversion)", 0), ("+ squares (vecdot)", 1),
                 ("+ sums (vecdot with ones)", 2), ("+ sums (one gemv with ones) instead", 3))
        for name, passes in steps:
            line(name, cpu_ms(blocked_loop(Y, passes)))
        with _kernels.use_backend("numpy"):
            line("the numpy kernel, one thread, fresh outputs",
                 cpu_ms(lambda Y=Y: _kernels.sums_along_axis(Y, 1, n_threads=1)))
    Y = np.random.default_rng(0).standard_normal((n, p)).astype(np.float32)
    read = cpu_ms(lambda: Y.sum(axis=1))
    print("float32, by block size and buffer slots (ns per entry; / one Y.sum(axis=1)):")
    print("  block  slots  conversion   whole loop")
    for kib in (256, 512, 1024, 2048):
        rows = kib * 1024 // (8 * p)
        for slots in (1, 2, 4):
            t = [cpu_ms(blocked_loop(Y, passes, slots, rows - rows % 8)) for passes in (0, 3)]
            print(f"  {kib:4d} KiB  {slots}  " + "  ".join(
                f"{x * 1e6 / Y.size:.3f} ({x / read:.2f})" for x in t))


if __name__ == "__main__":
    main()
