"""Stream the sufficient statistics of a large memory-mapped file of signals.

Writes ``p`` signals of ``n`` nodes (float32, the paper's model with one random
reflector) to a ``.npy`` file of shape ``(p, n)`` — one signal per row, so that a
block of signals is one contiguous range of bytes (see
`gsp_householder.statistics.streaming`) — then, each in a fresh process:

- ``read``: a plain sequential read of the file into a reused buffer (the floor);
- ``compute``: the statistics kernel (`gsp_householder.statistics._kernels.block_sums`)
  on one in-memory block, repeated to the size of the file: the CPU bound, without
  any reading;
- ``stats (before)``: the streaming pass as it was before the read-ahead and the
  fused kernel (a copy kept in this script: one map per block, numpy kernel);
- ``stats``: `gsp_householder.statistics.streaming.statistics_from_npy` and
  Algorithm 3 from the statistics;
- ``partial_fit``: ``HouseholderDictionaryLearning.partial_fit`` over the blocks
  of a memory map;
- ``dask``: `gsp_householder.statistics.dask_arrays.statistics_from_dask` on a
  dask array whose chunks are windows of the file (four blocks each), on a ``distributed``
  ``LocalCluster`` of two single-threaded worker processes (started, and their
  kernels loaded, before the clock starts), checked against the ``stats`` pass;
- ``dask_threads`` (optional): the same on a 2-worker ``LocalCluster`` of threads in this
  process (``processes=False``); ``dask_read`` (optional): the same chunks on the 2-process
  cluster, only read (dask's own floor).

``--baseline DIR`` with a pass named ``PASS@base`` runs ``PASS`` on the package checked
out at ``DIR`` (e.g. the main branch) in the same rounds: before and after under the same
load. ``--profile`` prints where each pass spends its time: CPU seconds, page faults and
bytes read from the disk (``/proc/self/io``) of the pass's process (and of the dask
workers), the read-ahead thread's time in ``madvise`` and the summing thread's waits for
it, and dask's task stream (compute and transfer seconds summed over tasks).

It prints the median wall time over ``--repeat`` passes, the throughput, the
peak resident memory (``VmHWM``; for ``dask`` the client's plus the workers')
and the throughput ratio against the plain read of the same round, with the load
average beside each table, and deletes the file unless ``--keep``.
``--cache cold`` evicts the file from the page cache
(``posix_fadvise(DONTNEED)``) before each pass; ``warm`` reads it from memory.

Usage::

    python benchmarks/bench_streaming.py                       # n = 10**6, p = 2000: 8 GB
    python benchmarks/bench_streaming.py --n 100000 --p 1000   # 400 MB
"""

from __future__ import annotations

import argparse
import json
import mmap
import os
import resource
import shutil
import subprocess
import sys
import time

import numpy as np

GB = 1e9


def _write(path: str, n: int, p: int, seed: int, block: int) -> None:
    """The paper's model with one random reflector, generated in float32 row blocks.

    Each block of ``b`` signals is ``X^T H = X^T - 2 (X^T u) u^T`` with ``X`` of
    i.i.d. Bernoulli(0.5)-uniform codes (`BernoulliUniform`'s distribution, drawn
    in float32 so that writing 8 GB takes seconds, not minutes).
    """
    from gsp_householder import BernoulliUniform, random_householder_product

    rng = np.random.default_rng(seed)
    V = random_householder_product(n, 1, rng=rng)
    u = V.vectors[:, 0].astype(np.float32)
    model = BernoulliUniform(0.5)
    low, high = np.float32(model.low), np.float32(model.high)
    with open(path, "wb") as f:
        np.lib.format.write_array_header_2_0(
            f, {"descr": np.lib.format.dtype_to_descr(np.dtype(np.float32)),
                "fortran_order": False, "shape": (p, n)})
        for start in range(0, p, block):
            b = min(block, p - start)
            codes = rng.random((b, n), dtype=np.float32)
            support = rng.random((b, n), dtype=np.float32) < np.float32(model.theta)
            codes *= high - low
            codes += low
            codes *= support
            codes -= np.outer(2.0 * (codes @ u), u).astype(np.float32)
            f.write(codes.tobytes())
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


def _before_iter(path: str, block: int):
    """The streaming pass as it was: every block its own memory map, released after use."""
    Y = np.load(path, mmap_mode="r")
    (p, n), dtype, offset = Y.shape, Y.dtype, Y.offset
    del Y
    for start in range(0, p, block):
        rows = min(block, p - start)
        win = np.memmap(path, dtype=dtype, mode="r", offset=offset + start * n * dtype.itemsize,
                        shape=(rows, n))
        win.base.madvise(mmap.MADV_WILLNEED)
        yield win
        del win


def _before_block_sums(rows):
    """The kernel as it was: float64 copies of 2 MiB chunks, add.reduce and einsum."""
    b, n = rows.shape
    sums, sq_sums = np.empty(n), np.empty(n)
    step = max(1, (1 << 18) // b)
    buf = np.empty((b, min(step, n)))
    for j in range(0, n, step):
        w = min(step, n - j)
        c = buf[:, :w]
        c[...] = rows[:, j:j + w]
        np.add.reduce(c, axis=0, out=sums[j:j + w])
        np.einsum("ij,ij->j", c, c, out=sq_sums[j:j + w])
    return sums, sq_sums


def _worker_peak_rss() -> int:
    return _peak_rss()


def _counters() -> dict:
    """CPU seconds, page faults and bytes read from the disk by this process so far."""
    use = resource.getrusage(resource.RUSAGE_SELF)
    out = {"cpu_s": use.ru_utime + use.ru_stime, "minor_faults": use.ru_minflt,
           "major_faults": use.ru_majflt}
    try:
        with open("/proc/self/io") as f:
            for line in f:
                key, value = line.split(":")
                if key in ("read_bytes", "rchar"):
                    out[key] = int(value)
    except OSError:  # pragma: no cover - not Linux
        pass
    return out


def _start_profile() -> dict:
    from gsp_householder.statistics import _readahead

    start = _counters()
    _readahead.profile = {"start": start}  # kept where a worker process finds it again
    return start


def _end_profile() -> dict:
    from gsp_householder.statistics import _readahead

    after = _counters()
    prof = dict(_readahead.profile or {})
    before = prof.pop("start")
    out = {k: after[k] - before[k] for k in after}
    out.update(prof)
    _readahead.profile = None
    return out


def _warm_kernels() -> None:
    from gsp_householder.statistics._kernels import block_sums

    block_sums(np.ones((4, 64), dtype=np.float32))


def _phase(phase: str, path: str, block: int) -> dict:
    """Run one pass in this (fresh) process; return its time and peak RSS."""
    from gsp_householder import SignalStatistics, estimate_householder_product, vector_error
    from gsp_householder.estimator import HouseholderDictionaryLearning
    from gsp_householder.statistics._kernels import block_sums
    from gsp_householder.statistics.streaming import iter_column_blocks, statistics_from_npy

    _warm_kernels()  # loads the compiled kernel (numba's cache) before the clock starts
    cluster = client = None
    if phase.startswith("dask"):  # imported, and the cluster started, before the clock starts
        import dask.array as da
        from distributed import Client, LocalCluster

        from gsp_householder.statistics.dask_arrays import statistics_from_dask

        cluster = LocalCluster(n_workers=2, threads_per_worker=1,
                               processes=phase != "dask_threads", dashboard_address=":0")
        client = Client(cluster)
        client.run(_warm_kernels)
        if PROFILE:
            client.run(_start_profile)
    out: dict = {"rss_after_import_bytes": _peak_rss()}
    if PROFILE:
        _start_profile()
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
    elif phase in ("stats", "stats_before"):
        if phase == "stats":
            stats = statistics_from_npy(path, block, signal_axis=0)
        else:
            sums = sq_sums = None
            count = 0
            for rows in _before_iter(path, block):
                s, q = _before_block_sums(rows)
                sums, sq_sums = (s, q) if sums is None else (sums + s, sq_sums + q)
                count += rows.shape[0]
                del rows
            stats = SignalStatistics.from_sums(sums, sq_sums, count)
        V_hat = estimate_householder_product(stats, 1)
        if phase == "stats":
            np.savez(path + ".stats.npz", row_sums=stats.row_sums,
                     row_sq_sums=stats.row_sq_sums)
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
        Y_rows = np.load(path, mmap_mode="r")
        rows = np.array(Y_rows[:block])
        del Y_rows
        t0 = time.perf_counter()  # the copy above is not part of the kernel's time
        total = 0
        while total < os.path.getsize(path):
            block_sums(rows)
            total += rows.nbytes
        out["bytes"] = total
    elif phase.startswith("dask"):
        from distributed import get_task_stream

        Y_rows = np.load(path, mmap_mode="r")
        (p, n), dtype, offset = Y_rows.shape, Y_rows.dtype, Y_rows.offset
        del Y_rows

        def load_block(block_info=None):
            # one task per chunk: the window of the file that the chunk covers
            (r0, r1), _ = block_info[None]["array-location"]
            return np.memmap(path, dtype=dtype, mode="r", shape=(r1 - r0, n),
                             offset=offset + r0 * n * dtype.itemsize)

        rows = 4 * block  # dask's advice: chunks of a few hundred MB; fewer results to add
        row_chunks = tuple(min(rows, p - s) for s in range(0, p, rows))
        X = da.map_blocks(load_block, chunks=(row_chunks, (n,)), dtype=dtype)
        with get_task_stream(client) as tasks:
            if phase == "dask_read":  # the same chunks, only read: dask's own floor
                X.map_blocks(_touch, chunks=(1, 1), dtype=np.float64).sum().compute()
            else:
                stats = statistics_from_dask(X.T)
                V_hat = estimate_householder_product(stats, 1)
        out["seconds"] = time.perf_counter() - t0
        if PROFILE:
            out["profile"] = _end_profile()
            out["profile"].update(_task_stream_summary(tasks.data))
            if phase != "dask_threads":  # worker processes: their own counters
                for prof in client.run(_end_profile).values():
                    for key, value in prof.items():
                        out["profile"][f"workers_{key}"] = (
                            out["profile"].get(f"workers_{key}", 0) + value)
        out["bytes"] = os.path.getsize(path)
        if phase != "dask_read":
            u = np.load(path + ".u.npy")
            out["count"] = stats.count
            out["l2_error_u"] = vector_error(u, V_hat.vectors[:, 0], ord=2)
            if os.path.exists(path + ".stats.npz"):
                ref = np.load(path + ".stats.npz")
                out["max_rel_diff_vs_stats"] = float(max(
                    np.max(np.abs(stats.row_sums - ref["row_sums"]) / np.abs(ref["row_sums"])),
                    np.max(np.abs(stats.row_sq_sums - ref["row_sq_sums"])
                           / ref["row_sq_sums"])))
        workers = client.run(_worker_peak_rss) if phase != "dask_threads" else {}
        out["peak_rss_bytes"] = _peak_rss() + sum(workers.values())
        client.close()
        cluster.close()
        return out
    else:  # pragma: no cover
        raise ValueError(f"unknown phase {phase!r}")
    out["seconds"] = time.perf_counter() - t0
    out["peak_rss_bytes"] = _peak_rss()
    if PROFILE:
        out["profile"] = _end_profile()
    return out


def _touch(block) -> np.ndarray:
    """Read every byte of a chunk (into a small reused buffer); return a 1 x 1 array."""
    raw = np.asarray(block).reshape(-1).view(np.uint8)
    buf = np.empty(min(raw.size, 1 << 22), dtype=np.uint8)
    for start in range(0, raw.size, buf.size):
        part = raw[start:start + buf.size]
        np.copyto(buf[:part.size], part)
    return np.zeros((1, 1))


def _task_stream_summary(records) -> dict:
    """Seconds the workers spent computing and transferring, summed over tasks."""
    out = {"tasks": 0, "task_compute_s": 0.0, "task_transfer_s": 0.0, "task_other_s": 0.0}
    for rec in records:
        out["tasks"] += 1
        for part in rec.get("startstops", ()):
            action = part["action"]
            key = {"compute": "task_compute_s", "transfer": "task_transfer_s"}.get(
                action, "task_other_s")
            out[key] += part["stop"] - part["start"]
    return out


def _run_phase(phase: str, path: str, block: int, cache: str, profile: bool = False,
               baseline: str | None = None) -> dict:
    """Run one pass in a fresh process; ``PASS@base`` runs it on the package at ``baseline``."""
    if cache == "cold":
        _evict(path)
    phase, _, base = phase.partition("@")
    cmd = [sys.executable, os.path.abspath(__file__), "--phase", phase, "--file", path,
           "--block", str(block)]
    env = dict(os.environ)
    if profile:
        env["GSP_BENCH_PROFILE"] = "1"
    if base:
        env["PYTHONPATH"] = baseline
    res = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env)
    return json.loads(res.stdout.strip().splitlines()[-1])


PHASES = ("read", "compute", "stats_before", "stats", "partial_fit", "dask")
OPTIONAL_PHASES = ("dask_threads", "dask_read")
PROFILE = bool(os.environ.get("GSP_BENCH_PROFILE"))


def _print_profile(runs: dict, phases: list, cache: str) -> None:
    """Median per pass of the counters each pass reported (see ``--profile``)."""
    keys = ["cpu_s", "major_faults", "minor_faults", "read_bytes", "populate_s", "wait_s",
            "items", "cached_items", "tasks", "task_compute_s", "task_transfer_s",
            "task_other_s", "workers_cpu_s", "workers_read_bytes", "workers_populate_s",
            "workers_wait_s", "workers_items", "workers_cached_items"]
    print()
    print(f"profile, {cache} cache (medians over rounds; seconds; read_bytes in GB: what "
          "came from the disk; populate_s: the read-ahead thread's madvise calls; wait_s: "
          "the kernel's thread waiting for them; task_*: dask task stream, summed over tasks)")
    print()
    present = [k for k in keys if any(k in r.get("profile", {}) for ph in phases
                                      for r in runs[ph])]
    print("| pass | wall s | " + " | ".join(present) + " |")
    print("|---|---:|" + "---:|" * len(present))
    for ph in phases:
        cells = [f"{np.median([r['seconds'] for r in runs[ph]]):.2f}"]
        for k in present:
            vals = [r["profile"][k] for r in runs[ph] if k in r.get("profile", {})]
            if not vals:
                cells.append("")
                continue
            v = float(np.median(vals))
            cells.append(f"{v / GB:.2f}" if "bytes" in k else
                         f"{v:.0f}" if k.endswith(("faults", "items", "tasks"))
                         else f"{v:.2f}")
        print(f"| {ph} | " + " | ".join(cells) + " |")


def _load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=10**6, help="nodes per signal (default 10**6)")
    ap.add_argument("--p", type=int, default=2000, help="number of signals (default 2000)")
    ap.add_argument("--block", type=int, default=None,
                    help="signals per block (default: 128 MB blocks)")
    ap.add_argument("--dir", default="/tmp", help="directory of the temporary file")
    ap.add_argument("--path", default=None,
                    help="file to use (reused if it exists, with its .u.npy; kept afterwards)")
    ap.add_argument("--cache", choices=("warm", "cold", "both"), default="both")
    ap.add_argument("--repeat", type=int, default=5,
                    help="rounds; each runs every pass once, medians are reported")
    ap.add_argument("--phases", default=",".join(PHASES),
                    help="comma-separated passes (default: all but the optional "
                         f"{', '.join(OPTIONAL_PHASES)})")
    ap.add_argument("--baseline", default=None,
                    help="a checkout of the package (e.g. the main branch): a pass named "
                         "PASS@base in --phases runs PASS on it, in the same rounds")
    ap.add_argument("--profile", action="store_true",
                    help="also print where each pass spends its time (CPU, page faults, "
                         "bytes from disk, read-ahead waits, dask task stream)")
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
    phases = [ph for ph in args.phases.split(",") if ph]
    if any("@" in ph for ph in phases) and not args.baseline:
        ap.error("a pass PASS@base needs --baseline")
    if "read" not in phases:
        phases.insert(0, "read")
    path = args.path or os.path.join(args.dir, f"bench_streaming_{os.getpid()}.npy")
    reuse = args.path is not None and os.path.exists(path) and os.path.exists(path + ".u.npy")
    free = shutil.disk_usage(os.path.dirname(os.path.abspath(path))).free
    if not reuse and free < 1.2 * size:
        print(f"not enough space for {path}: need {size / GB:.1f} GB, have {free / GB:.1f} GB",
              file=sys.stderr)
        return 1
    print(f"n = {n}, p = {p}, float32, file {size / GB:.2f} GB (shape (p, n), one signal per "
          f"row), block = {block} signals ({block * n * 4 / 2**20:.0f} MiB); medians of "
          f"{args.repeat} rounds")
    try:
        if not reuse:
            t0 = time.perf_counter()
            _write(path, n, p, args.seed, block)
            print(f"wrote {path} in {time.perf_counter() - t0:.1f} s")
        caches = ("warm", "cold") if args.cache == "both" else (args.cache,)
        notes = []
        for cache in caches:
            if cache == "warm":  # bring the whole file into the page cache once
                _run_phase("read", path, block, "warm")
            loads = [_load()]
            runs: dict = {ph: [] for ph in phases}
            others = [ph for ph in phases if ph != "read"]
            for r in range(args.repeat):
                # the read first, then the passes in an order that rotates between rounds,
                # so that no pass always follows the same one
                k = r % len(others) if others else 0
                for ph in ["read", *others[k:], *others[:k]]:
                    runs[ph].append(_run_phase(ph, path, block, cache, args.profile,
                                               args.baseline))
            loads.append(_load())
            print()
            print(f"{cache} cache ({loads[0]} before, {loads[1]} after)")
            print()
            print("| pass | seconds | GB/s | ratio to read | peak RSS (GB) | l2 error of u |")
            print("|---|---:|---:|---:|---:|---:|")
            for ph in phases:
                rs = runs[ph]
                sec = float(np.median([r["seconds"] for r in rs]))
                ratio = float(np.median([(r["bytes"] / r["seconds"])
                                         / (rd["bytes"] / rd["seconds"])
                                         for r, rd in zip(rs, runs["read"], strict=True)]))
                rss = max(r["peak_rss_bytes"] for r in rs) / GB
                err = rs[0].get("l2_error_u", float("nan"))
                thr = float(np.median([r["bytes"] / r["seconds"] for r in rs])) / GB
                print(f"| {ph} | {sec:.2f} | {thr:.2f} | {ratio:.2f} | {rss:.3f} | {err:.4f} |")
                diffs = [r["max_rel_diff_vs_stats"] for r in rs if "max_rel_diff_vs_stats" in r]
                if diffs:
                    notes.append(f"{cache}: dask statistics vs streamed statistics, max relative "
                                 f"difference {max(diffs):.2e}")
            if args.profile:
                _print_profile(runs, phases, cache)
        print()
        for note in notes:
            print(note)
        print("targets: ratio >= 0.7 (dask >= 0.5) and peak RSS <= 1.5 GB for the streaming "
              "passes; 'ratio to read' is the median over rounds of the pass's throughput over "
              "the plain read's in the same round")
    finally:
        if not (args.keep or args.path):
            for f in (path, path + ".u.npy", path + ".stats.npz"):
                if os.path.exists(f):
                    os.remove(f)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
