"""Time and error of every method, as ratios to the paper's estimator.

Settings (codes Bernoulli(0.5) x Uniform[1, 2], reflector vectors with
Uniform[0, 1] entries, noiseless unless ``--snr``):

- ``fig1``: n = 1000, p = 20, m = 10 (the paper's Fig. 1 setting);
- ``p100``: n = 1000, p = 100, m = 10;
- ``n10000``: n = 10000, p = 100, m = 10.

Methods: the paper's Algorithm 3 (blind scale; the reference of every ratio),
the structured refinement, the structured oracle fit ($X$ known), Procrustes with
$X$ known (arbitrary and identity-closest completion), Procrustes alternating
minimisation (Lesage et al.; threshold 0.5, both completions), H-DLA (Rusu et
al.; s = theta n non-zeros per column, 30 iterations), MSP (l4, 30 iterations)
and the identity. Every method sees the same signals in a trial; the table gives
medians over the trials of the wall time and of $\\|V - \\hat V\\|_F$, and their
ratios to the paper's estimator measured in the same run.

A method whose one-iteration time, times its iteration count, would exceed
``--budget`` seconds is not run to the end: its row gives the time of one
iteration times the iteration count (marked ``est.``) and no error. Dense
$O(n^3)$-per-iteration methods are skipped outright at n = 10000.

Usage::

    python benchmarks/bench_methods.py                     # all settings, 3 trials
    python benchmarks/bench_methods.py --settings fig1 --trials 5 --threads 1
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np
from _threads import limit_blas_threads

SETTINGS = {
    "fig1": dict(n=1000, p=20, m=10),
    "p100": dict(n=1000, p=100, m=10),
    "n10000": dict(n=10000, p=100, m=10),
}
THETA = 0.5


def _methods(n: int, m: int, seed: int):
    """(name, callable(Y, X) -> dictionary, iterations, dense O(n^3) per iteration)."""
    from gsp_householder.learning.paper import estimate_householder_product
    from gsp_householder.learning.refinement import (
        refine_householder_product,
        structured_procrustes,
    )

    out = [
        ("paper (Alg. 3)", lambda Y, X: estimate_householder_product(Y, m), 1, False),
        ("refine", lambda Y, X: refine_householder_product(Y, m, rng=seed).dictionary, 1,
         False),
        ("structured oracle (X known)", lambda Y, X: structured_procrustes(Y, X, m).dictionary,
         1, False),
    ]
    try:
        from gsp_householder.learning import baselines
    except ImportError:  # pragma: no cover - baselines not available
        baselines = None
    if baselines is not None:
        if hasattr(baselines, "procrustes_oracle"):
            out += [
                ("procrustes oracle, arbitrary", lambda Y, X: baselines.procrustes_oracle(
                    Y, X, completion="arbitrary").dictionary, 1, True),
                ("procrustes oracle, identity", lambda Y, X: baselines.procrustes_oracle(
                    Y, X, completion="identity").dictionary, 1, False),
            ]
        if hasattr(baselines, "procrustes_altmin"):
            out += [
                ("altmin, arbitrary (50 it)", lambda Y, X, k=50: baselines.procrustes_altmin(
                    Y, threshold=0.5, n_iter=k, completion="arbitrary").dictionary, 50, True),
                ("altmin, identity (50 it)", lambda Y, X, k=50: baselines.procrustes_altmin(
                    Y, threshold=0.5, n_iter=k, completion="identity").dictionary, 50, False),
            ]
        if hasattr(baselines, "h_dla"):
            s = max(1, round(THETA * n))
            out.append(("h_dla (30 it)", lambda Y, X, k=30: baselines.h_dla(
                Y, m, sparsity=s, n_iter=k).dictionary, 30, False))
        if hasattr(baselines, "msp"):
            out.append(("msp (30 it)", lambda Y, X, k=30: baselines.msp(
                Y, n_iter=k, rng=seed).dictionary, 30, True))
    out.append(("identity", lambda Y, X: None, 1, False))
    return out


def _one_iteration(name, fn, Y, X):
    """Time one iteration of an iterative method (the ``k`` keyword)."""
    t0 = time.perf_counter()
    fn(Y, X, k=1)
    return time.perf_counter() - t0


def run(settings, trials: int, seed: int, budget: float, snr_db):
    from gsp_householder.householder import HouseholderProduct
    from gsp_householder.metrics import basis_error
    from gsp_householder.model import BernoulliUniform, make_signals, random_householder_product

    tables = {}
    for name in settings:
        cfg = SETTINGS[name]
        n, p, m = cfg["n"], cfg["p"], cfg["m"]
        results: dict[str, dict[str, list]] = {}
        skipped: dict[str, str] = {}
        for t in range(trials):
            rng = np.random.default_rng([seed, t])
            V = random_householder_product(n, m, rng=rng)
            Y, X = make_signals(V, p, BernoulliUniform(THETA), snr_db=snr_db, rng=rng)
            for mname, fn, iters, dense in _methods(n, m, seed + t):
                r = results.setdefault(mname, {"time": [], "error": [], "est": []})
                if dense and n > 5000:
                    skipped[mname] = "O(n^3) per iteration: not run at this n"
                    continue
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    if iters > 1 and t == 0:
                        one = _one_iteration(mname, fn, Y, X)
                        if one * iters > budget:
                            r["time"].append(one * iters)
                            r["est"].append(True)
                            skipped[mname] = (f"one iteration {one:.2f} s x {iters}: "
                                              f"over the {budget:g} s budget")
                            continue
                    if mname in skipped:
                        continue
                    t0 = time.perf_counter()
                    D = fn(Y, X)
                    dt = time.perf_counter() - t0
                if D is None:
                    D = HouseholderProduct.identity(n)
                r["time"].append(dt)
                r["error"].append(float(basis_error(V, D)))
                r["est"].append(False)
        tables[name] = (cfg, results, skipped)
    return tables


def print_tables(tables, snr_db) -> None:
    for name, (cfg, results, skipped) in tables.items():
        ref = results["paper (Alg. 3)"]
        t_ref, e_ref = np.median(ref["time"]), np.median(ref["error"])
        noise = "noiseless" if snr_db is None else f"SNR {snr_db:g} dB"
        print(f"\n## {name}: n = {cfg['n']}, p = {cfg['p']}, m = {cfg['m']}, theta = {THETA}, "
              f"{noise}; medians over {len(ref['time'])} trials")
        print(f"{'method':32s} {'time [s]':>10s} {'time/paper':>11s} {'error':>10s} "
              f"{'error/paper':>11s}  note")
        for mname, r in results.items():
            if not r["time"]:
                print(f"{mname:32s} {'-':>10s} {'-':>11s} {'-':>10s} {'-':>11s}  "
                      f"{skipped.get(mname, '')}")
                continue
            tm = np.median(r["time"])
            est = "est. " if any(r["est"]) else ""
            if r["error"]:
                em = np.median(r["error"])
                err, erat = f"{em:10.3g}", f"{em / e_ref:11.3g}"
            else:
                err, erat = f"{'-':>10s}", f"{'-':>11s}"
            print(f"{mname:32s} {tm:10.4f} {tm / t_ref:11.1f} {err} {erat}  "
                  f"{est}{skipped.get(mname, '')}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--settings", nargs="+", default=list(SETTINGS), choices=list(SETTINGS))
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--budget", type=float, default=120.0,
                        help="seconds allowed per run of one method (default 120)")
    parser.add_argument("--snr", type=float, default=None, help="SNR in dB (default noiseless)")
    parser.add_argument("--threads", type=int, default=None,
                        help="BLAS threads (threadpoolctl), default: library default")
    args = parser.parse_args(argv)
    limit_blas_threads(args.threads)
    tables = run(args.settings, args.trials, args.seed, args.budget, args.snr)
    print_tables(tables, args.snr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
