"""Speed of the core: Algorithm 3 from statistics, and the WY-form apply.

Prints ratio tables; every ratio compares timings taken in the same run
(best of ``--repeat`` runs each), so the shared machine's load cancels out.

    python benchmarks/bench_core.py            # the full sizes (n = 100000; n = 8192)
    python benchmarks/bench_core.py --quick    # small sizes, a few seconds

Table 1: ``estimate_householder_product(Y, m)`` (oracle and blind scale, with
and without pruning) against one ``Y.sum(axis=1)`` pass, n = 100000, p = 100.
Table 2: ``V.T @ Y`` through the compact WY form against the dense product
``V.to_dense().T @ Y`` (the dense matrix formed outside the timing) and against
the two GEMMs the WY form is made of, n = 8192, m = 32, p = 1024.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np

from gsp_householder import (
    BernoulliUniform,
    DegenerateStatisticsWarning,
    estimate_householder_product,
    make_signals,
    random_householder_product,
)


def best_time(func, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        func()
        times.append(time.perf_counter() - start)
    return min(times)


def table(rows, header):
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    line = " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True))
    print(line)
    print("-|-".join("-" * w for w in widths))
    for r in rows:
        print(" | ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)))
    print()


def bench_estimator(n: int, p: int, ms, repeat: int) -> None:
    rng = np.random.default_rng(0)
    V = random_householder_product(n, max(ms), rng=rng)
    Y, _ = make_signals(V, p, BernoulliUniform(0.5), rng=rng)  # the paper's model
    base = best_time(lambda: Y.sum(axis=1), repeat)
    rows = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        for m in ms:
            cells = [m]
            for kw in ({"theta": 0.5, "mu": 1.5}, {}, {"theta": 0.5, "mu": 1.5, "prune": False}):
                t = best_time(lambda kw=kw, m=m: estimate_householder_product(Y, m, **kw),
                              repeat)
                cells.append(f"{t / base:.2f}")
            rows.append(cells)
    print(f"Algorithm 3 from statistics / one Y.sum(axis=1) pass "
          f"(n={n}, p={p}; the sum takes {base * 1e3:.1f} ms; target <= 1.3)")
    table(rows, ["m", "oracle, pruned", "blind, pruned", "oracle, prune=False"])


def bench_apply(n: int, m: int, p: int, repeat: int) -> None:
    rng = np.random.default_rng(1)
    V = random_householder_product(n, m, rng=rng)
    Y = rng.standard_normal((n, p))
    dense = V.to_dense()
    U, T = V.vectors, V.wy_factor
    W = rng.standard_normal((m, p))
    t_wy = best_time(lambda: V.T @ Y, repeat)
    t_dense = best_time(lambda: dense.T @ Y, max(1, repeat // 2))
    t_gemms = best_time(lambda: (U.T @ Y, U @ W), repeat)
    err = np.linalg.norm(V.T @ Y - dense.T @ Y) / np.linalg.norm(Y)
    print(f"V.T @ Y, compact WY form (n={n}, m={m}, p={p}; relative difference to the dense "
          f"product {err:.1e})")
    table([[f"{t_wy * 1e3:.1f}", f"{t_dense * 1e3:.1f}", f"{t_dense / t_wy:.1f}x",
            f"{t_gemms * 1e3:.1f}", f"{t_wy / t_gemms:.2f}"]],
          ["WY ms", "dense ms", "dense / WY (target >= 40)", "two GEMMs ms",
           "WY / GEMMs (target <= 1.5)"])
    del T


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    if args.quick:
        bench_estimator(20_000, 50, (1, 10), 3)
        bench_apply(1024, 16, 128, 3)
    else:
        bench_estimator(100_000, 100, (1, 10, 50), args.repeat)
        bench_apply(8192, 32, 1024, args.repeat)


if __name__ == "__main__":
    main()
