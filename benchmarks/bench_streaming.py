"""Stream the sufficient statistics of a large memory-mapped file of signals.

Writes ``p`` signals of ``n`` nodes (float32, the paper's model with one random
reflector) to a ``.npy`` file of shape ``(p, n)`` — one signal per row, so that a
block of signals is one contiguous range of bytes (see
`gsp_householder.statistics.streaming`) — then, each in a fresh process:

- ``read``: a plain sequential read of the file into a reused buffer (the floor);
- ``stats``: `gsp_householder.statistics.streaming.statistics_from_npy` and Algorithm 3
  from the statistics;
- ``partial_fit``: ``HouseholderDictionaryLearning.partial_fit`` over the blocks
  of a memory map;
- ``compute``: the same statistics kernel
  (`gsp_householder.statistics.streaming.block_sums`) on one in-memory block, repeated
  to the size of the file: the CPU bound, without any reading;
- ``dask``: `gsp_householder.statistics.dask_arrays.statistics_from_dask` on a dask
  array whose chunks are windows of the file (threaded scheduler, one thread per
  core), checked against the ``stats`` pass.

It prints the wall time, throughput, peak resident memory (``ru_maxrss`` of the
fresh process) and the throughput ratio against the plain read, and deletes the
file unless ``--keep``. ``--cache cold`` evicts the file from the page cache
(``posix_fadvise(DONTNEED)``) before each pass; ``warm`` reads it from memory.

Usage::

    python benchmarks/bench_streaming.py                       # n = 10**6, p = 2000: 8 GB
    python benchmarks/bench_streaming.py --n 100000 --p 1000   # 400 MB
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

GB = 1e9


def _write(path: str, n: int, p: int, seed: int, block: int) -> None:
    from gsp_householder import BernoulliUniform, random_householder_product

    rng = np.random.default_rng(seed)
    V = random_householder_product(n, 1, rng=rng)
    model = BernoulliUniform(0.5)
    with open(path, "wb") as f:
        np.lib.format.write_array_header_2_0(
            f, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)),
                "fortran_order": False, "shape": (p, n)})
        for start in range(0, p, block):
            b = min(block, p - start)
            X = model.sample((n, b), rng)
            f.write(np.ascontiguousarray((V @ X).T, dtype=np.float32).tobytes())
        f.flush()
        os.fsync(f.fileno())
    np.save(path + ".u.npy", V.vectors[:, 0])


def _evict(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def _peak_rss() -> int:
    """Peak resident memory of this process in bytes.

    ``VmHWM`` of ``/proc/self/status`` (reset by ``exec``; ``ru_maxrss`` keeps the
    high-water mark of the parent across ``fork`` + ``exec`` on Linux).
    """
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:  # pragma: no cover - not Linux
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _phase(phase: str, path: str, block: int) -> dict:
    """Run one pass in this (fresh) process; return its time and peak RSS."""
    from gsp_householder import estimate_householder_product, vector_error
    from gsp_householder.estimator import HouseholderDictionaryLearning
    from gsp_householder.statistics.streaming import iter_column_blocks, statistics_from_npy

    if phase == "dask":  # imported before the clock starts, as the package is
        import dask
        import dask.array as da

        from gsp_householder.statistics.dask_arrays import statistics_from_dask
    out: dict = {"rss_after_import_bytes": _peak_rss()}
    t0 = time.perf_counter()
    if phase == "read":
        size = os.path.getsize(path)
        arr = np.load(path, mmap_mode="r")
        buf = bytearray(block * arr.shape[1] * arr.dtype.itemsize)
        del arr
        total = 0
        with open(path, "rb", buffering=0) as f:
            while True:
                got = f.readinto(buf)
                if not got:
                    break
                total += got
        out["bytes"] = total
        assert total == size
    elif phase == "stats":
        stats = statistics_from_npy(path, block, signal_axis=0)
        V_hat = estimate_householder_product(stats, 1)
        np.savez(path + ".stats.npz", row_sums=stats.row_sums, row_sq_sums=stats.row_sq_sums)
        u = np.load(path + ".u.npy")
        out["count"] = stats.count
        out["l2_error_u"] = vector_error(u, V_hat.vectors[:, 0], ord=2)
        out["bytes"] = os.path.getsize(path)
    elif phase == "partial_fit":
        est = HouseholderDictionaryLearning(1)
        Y_rows = np.load(path, mmap_mode="r")
        for block_cols in iter_column_blocks(Y_rows, block, signal_axis=0):
            est.partial_fit(block_cols.T)
            del block_cols
        del Y_rows
        u = np.load(path + ".u.npy")
        out["count"] = est.statistics_.count
        out["l2_error_u"] = vector_error(u, est.dictionary_.vectors[:, 0], ord=2)
        out["bytes"] = os.path.getsize(path)
    elif phase == "compute":
        from gsp_householder.statistics._kernels import block_sums

        Y_rows = np.load(path, mmap_mode="r")
        rows = np.array(Y_rows[:block])
        del Y_rows
        t0 = time.perf_counter()  # the copy above is not part of the kernel's time
        total = 0
        while total < os.path.getsize(path):
            block_sums(rows)
            total += rows.nbytes
        out["bytes"] = total
    elif phase == "dask":
        Y_rows = np.load(path, mmap_mode="r")
        (p, n), dtype, offset = Y_rows.shape, Y_rows.dtype, Y_rows.offset
        del Y_rows
        rows = max(1, block // 4)  # float64 temporaries of several chunks are alive at once

        def window(start, count):
            return np.memmap(path, dtype=dtype, mode="r", shape=(count, n),
                             offset=offset + start * n * dtype.itemsize)

        chunks = [da.from_delayed(dask.delayed(window)(s, min(rows, p - s)),
                                  shape=(min(rows, p - s), n), dtype=dtype)
                  for s in range(0, p, rows)]
        X = da.concatenate(chunks, axis=0)
        stats = statistics_from_dask(X.T)
        V_hat = estimate_householder_product(stats, 1)
        u = np.load(path + ".u.npy")
        out["count"] = stats.count
        out["l2_error_u"] = vector_error(u, V_hat.vectors[:, 0], ord=2)
        ref = np.load(path + ".stats.npz")
        out["max_rel_diff_vs_stats"] = float(max(
            np.max(np.abs(stats.row_sums - ref["row_sums"]) / np.abs(ref["row_sums"])),
            np.max(np.abs(stats.row_sq_sums - ref["row_sq_sums"]) / ref["row_sq_sums"])))
        out["bytes"] = os.path.getsize(path)
    else:  # pragma: no cover
        raise ValueError(f"unknown phase {phase!r}")
    out["seconds"] = time.perf_counter() - t0
    out["peak_rss_bytes"] = _peak_rss()
    return out


def _run_phase(phase: str, path: str, block: int, cache: str) -> dict:
    if cache == "cold":
        _evict(path)
    cmd = [sys.executable, os.path.abspath(__file__), "--phase", phase, "--file", path,
           "--block", str(block)]
    res = subprocess.run(cmd, check=True, capture_output=True, text=True)
    return json.loads(res.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10**6, help="nodes per signal (default 10**6)")
    ap.add_argument("--p", type=int, default=2000, help="number of signals (default 2000)")
    ap.add_argument("--block", type=int, default=None,
                    help="signals per block (default: 128 MB blocks)")
    ap.add_argument("--dir", default="/tmp", help="directory of the temporary file")
    ap.add_argument("--cache", choices=("warm", "cold", "both"), default="both")
    ap.add_argument("--repeat", type=int, default=1, help="passes per phase (best is kept)")
    ap.add_argument("--keep", action="store_true", help="keep the file afterwards")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--phase", help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args.phase:
        print(json.dumps(_phase(args.phase, args.file, args.block)))
        return 0

    n, p = args.n, args.p
    block = args.block or max(1, (128 << 20) // (4 * n))
    size = 4 * n * p
    free = shutil.disk_usage(args.dir).free
    if free < 1.2 * size:
        print(f"not enough space in {args.dir}: need {size / GB:.1f} GB, have {free / GB:.1f} GB",
              file=sys.stderr)
        return 1
    path = os.path.join(args.dir, f"bench_streaming_{os.getpid()}.npy")
    print(f"n = {n}, p = {p}, float32, file {size / GB:.2f} GB (shape (p, n), one signal per "
          f"row), block = {block} signals ({block * n * 4 / 2**20:.0f} MiB)")
    try:
        t0 = time.perf_counter()
        _write(path, n, p, args.seed, block)
        print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")
        caches = ("warm", "cold") if args.cache == "both" else (args.cache,)
        rows, notes = [], []
        for cache in caches:
            results = {}
            for phase in ("read", "compute", "stats", "partial_fit", "dask"):
                runs = [_run_phase(phase, path, block, cache) for _ in range(args.repeat)]
                best = min(runs, key=lambda r: r["seconds"])
                best["peak_rss_bytes"] = max(r["peak_rss_bytes"] for r in runs)
                results[phase] = best
            base = results["read"]["bytes"] / results["read"]["seconds"]
            for phase, r in results.items():
                thr = r["bytes"] / r["seconds"]
                rows.append((cache, phase, r["seconds"], thr / GB, thr / base,
                             r["peak_rss_bytes"] / GB, r.get("l2_error_u", float("nan"))))
                if "max_rel_diff_vs_stats" in r:
                    notes.append(f"{cache}: dask statistics vs streamed statistics, max relative "
                                 f"difference {r['max_rel_diff_vs_stats']:.2e}")
        print()
        print("| cache | pass | seconds | GB/s | ratio to read | peak RSS (GB) | l2 error of u |")
        print("|---|---|---|---|---|---|---|")
        for cache, phase, sec, thr, ratio, rss, err in rows:
            print(f"| {cache} | {phase} | {sec:.2f} | {thr:.2f} | {ratio:.2f} | {rss:.3f} | "
                  f"{err:.4f} |")
        print()
        for note in notes:
            print(note)
        print("targets: ratio >= 0.7 and peak RSS <= 1.5 GB for the streaming passes")
    finally:
        if not args.keep:
            for f in (path, path + ".u.npy", path + ".stats.npz"):
                if os.path.exists(f):
                    os.remove(f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
