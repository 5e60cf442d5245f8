"""Whole orthogonal bases from signals: success rate, error and time per graph.

For each graph, each $\\theta$ and each ratio $p / n$, signals $Y = U X$ are
drawn with $U$ the graph's Laplacian eigenbasis (`gsp_householder.fourier_basis`)
and $X$ Bernoulli($\\theta$) x Uniform[1, 2] (`gsp_householder.make_signals`).
`gsp_householder.learn_orthogonal_basis` (blind: no $\\theta$, no value range)
is scored by $\\|U - \\hat U P\\|_F$ after signed column matching
(`gsp_householder.matched_basis_error`); a trial succeeds when this error is at
most 1e-6. Beside it, on the same signals: MSP (l4, 100 iterations), H-DLA
($m = n - 1$ reflectors, $s = \\lceil\\theta n\\rceil$, 30 iterations) and
Procrustes alternating minimisation (threshold 0.5, 50 iterations), each from
its default start, and the identity. The table gives success counts and
medians over the trials; times are wall-clock and CPU seconds of the learner
(with one BLAS thread the CPU time is what an idle machine would take).

With ``--snr`` a second table compares, at that SNR, the learner with the
Procrustes fit that knows $X$ (`gsp_householder.procrustes_oracle`): the ratio
of the median errors is the price of not knowing the codes.

Graphs: ``karate`` (n = 34), ``sensor200`` and ``sensor1000`` (PyGSP random
sensor graphs, seed 0), and graphs the defaults were not tuned on:
``les_miserables`` (n = 77), ``grid`` (15 x 15), ``ws200`` (Watts-Strogatz
(200, 6, 0.1), seed 1), ``sbm`` (4 x 50), ``ws1000`` (Watts-Strogatz (1000, 6, 0.1), seed 1).

With ``--n1000`` it measures the targets at $n = 1000$ instead: $\\theta = 0.1$,
$p = 5n$ on ``sensor1000`` and ``ws1000`` (Watts-Strogatz (1000, 6, 0.1), seed 1),
``--large-trials`` trials each, one BLAS thread unless ``--threads`` says otherwise,
the time of every trial, and the 20 dB comparison with the oracle
(``--snr-trials`` trials per graph).

Usage::

    python benchmarks/bench_whole_basis.py --quick          # about a minute of CPU
    python benchmarks/bench_whole_basis.py                  # the full tables (< 30 min)
    python benchmarks/bench_whole_basis.py --graphs sensor1000 --thetas 0.1 --ratios 5 \\
        --trials 3 --no-baselines --threads 1
    python benchmarks/bench_whole_basis.py --n1000 --large-trials 5 --snr-trials 3
"""

from __future__ import annotations

import argparse
import math
import time
import warnings

import numpy as np
from _threads import limit_blas_threads

GRAPHS = ("karate", "sensor200", "sensor1000", "les_miserables", "grid", "ws200", "sbm",
          "ws1000")
SUCCESS = 1e-6


def _graph(name: str):
    import networkx as nx

    from gsp_householder import load_graph

    if name == "karate":
        return load_graph("karate")
    if name.startswith("sensor"):
        return load_graph("sensor", n=int(name[len("sensor"):]), seed=0)
    if name.startswith("ws"):
        return nx.connected_watts_strogatz_graph(int(name[len("ws"):]), 6, 0.1, seed=1)
    return load_graph(name)


def _baselines(n: int, theta: float):
    from gsp_householder import h_dla, msp, procrustes_altmin

    return [
        ("MSP", lambda Y, seed: msp(Y, n_iter=100, rng=seed).dictionary),
        ("H-DLA", lambda Y, seed: h_dla(Y, n - 1, max(1, math.ceil(theta * n)),
                                        n_iter=30).dictionary),
        ("altmin", lambda Y, seed: procrustes_altmin(Y, threshold=0.5, n_iter=50).dictionary),
    ]


def _dense(V) -> np.ndarray:
    return V.to_dense() if hasattr(V, "to_dense") else np.asarray(V)


def _run_cell(U, theta, ratio, trials, seed, baselines, snr, restarts):
    from gsp_householder import matched_basis_error

    n = U.shape[0]
    errs, walls, cpus, others, oracle = [], [], [], {}, []
    for t in range(trials):
        Y, X = _signals(U, theta, ratio, seed + 1000 * t, snr)
        error, wall, cpu, fit_oracle, _, _ = _learn(U, Y, X, seed + 1000 * t + 1, snr, restarts)
        errs.append(error)
        walls.append(wall)
        cpus.append(cpu)
        if snr is not None:
            oracle.append(fit_oracle)
        for name, fit in (_baselines(n, theta) if baselines else []):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                others.setdefault(name, []).append(
                    matched_basis_error(U, _dense(fit(Y, seed + t))))
    return errs, walls, cpus, others, oracle

def _n1000(args) -> int:
    """The n = 1000 targets: success, error and time per trial, then the noisy table."""
    from gsp_householder import fourier_basis

    graphs = [g for g in args.graphs if g in ("sensor1000", "ws1000")] or ["sensor1000",
                                                                            "ws1000"]
    trials = args.large_trials
    print(f"# learn_orthogonal_basis at n = 1000: theta = 0.1, p = 5n, {trials} trials per "
          f"graph, success = error <= {SUCCESS:g}; threads={args.threads}")
    if trials:
        print("| graph | n | trials | success | median error | max error | median wall s | "
              "median CPU s | max CPU s | starts |")
        print("|---|---|---|---|---|---|---|---|---|---|")
    bases = {}
    for gname in graphs:
        U = bases[gname] = fourier_basis(_graph(gname)).eigenvectors
        if not trials:
            continue
        errs, walls, cpus, starts = [], [], [], []
        for t in range(trials):
            e, w, c, _, _, k = _trial(U, 0.1, 5, args.seed + 1000 * t, None, args.restarts)
            errs.append(e)
            walls.append(w)
            cpus.append(c)
            starts.append(k)
            print(f"#   {gname} trial {t}: error {e:.2e}, wall {w:.0f} s, CPU {c:.0f} s, "
                  f"{k} start(s)", flush=True)
        ok = sum(e <= SUCCESS for e in errs)
        print(f"| {gname} | {U.shape[0]} | {trials} | {ok}/{trials} | {np.median(errs):.2g} | "
              f"{max(errs):.2g} | {np.median(walls):.0f} | {np.median(cpus):.0f} | "
              f"{max(cpus):.0f} | {max(starts)} |", flush=True)
    if args.snr_trials:
        snr = 20.0 if args.snr is None else args.snr
        print(f"\n# at {snr:g} dB SNR: learner against the Procrustes fit with X known, "
              f"{args.snr_trials} trials per graph")
        print("| graph | n | learner median error | oracle median error | ratio | "
              "median CPU s |")
        print("|---|---|---|---|---|---|")
        for gname in graphs:
            errs, oracle, cpus = [], [], []
            for t in range(args.snr_trials):
                e, _, c, o, _, _ = _trial(bases[gname], 0.1, 5, args.seed + 7 + 1000 * t, snr,
                                          args.restarts)
                errs.append(e)
                oracle.append(o)
                cpus.append(c)
                print(f"#   {gname} {snr:g} dB trial {t}: error {e:.3g}, oracle {o:.3g}, "
                      f"CPU {c:.0f} s", flush=True)
            print(f"| {gname} | {bases[gname].shape[0]} | {np.median(errs):.3g} | "
                  f"{np.median(oracle):.3g} | {np.median(errs) / np.median(oracle):.2f} | "
                  f"{np.median(cpus):.0f} |", flush=True)
    return 0


def _signals(U, theta, ratio, seed, snr):
    """Signals ``Y`` and codes ``X`` of one draw: ``ratio * n`` signals on the basis ``U``."""
    from gsp_householder import BernoulliUniform, make_signals

    return make_signals(U, ratio * U.shape[0], BernoulliUniform(theta), snr_db=snr, rng=seed)


def _learn(U, Y, X, seed, snr, restarts):
    """The learner on one draw: (error, wall s, CPU s, oracle error or nan, converged, starts)."""
    from gsp_householder import learn_orthogonal_basis, matched_basis_error, procrustes_oracle

    w0, c0 = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        kwargs = {} if restarts is None else {"n_restarts": restarts}
        result = learn_orthogonal_basis(Y, rng=seed, **kwargs)
    wall, cpu = time.perf_counter() - w0, time.process_time() - c0
    error = matched_basis_error(U, result.dictionary.to_dense())
    oracle = (matched_basis_error(U, _dense(procrustes_oracle(Y, X).dictionary))
              if snr is not None else float("nan"))
    return error, wall, cpu, oracle, result.converged, len(result.history["balance"])


def _trial(U, theta, ratio, seed, snr, restarts):
    """One draw (signals ``seed``, start ``seed + 1``): as `_learn`."""
    Y, X = _signals(U, theta, ratio, seed, snr)
    return _learn(U, Y, X, seed + 1, snr, restarts)

def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graphs", nargs="+", default=list(GRAPHS), choices=list(GRAPHS))
    parser.add_argument("--thetas", nargs="+", type=float, default=[0.1, 0.5])
    parser.add_argument("--ratios", nargs="+", type=int, default=[5, 10, 20],
                        help="p / n values")
    parser.add_argument("--trials", type=int, default=10)
    parser.add_argument("--large-trials", type=int, default=3,
                        help="trials for graphs with n >= 500")
    parser.add_argument("--large-cells", choices=["targets", "all"], default="targets",
                        help="n >= 500: only (0.1, 5n) and (0.5, 20n), or every cell")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--no-baselines", action="store_true")
    parser.add_argument("--baselines-max-n", type=int, default=100,
                        help="skip the baselines on larger graphs (their cost)")
    parser.add_argument("--snr", type=float, default=None,
                        help="also the noisy table at this SNR in dB (e.g. 20)")
    parser.add_argument("--restarts", type=int, default=None,
                        help="n_restarts of the learner (default: its default)")
    parser.add_argument("--target-cells", action="store_true",
                        help="only (theta, p/n) = (0.1, 5) and (0.5, 20) on every graph")
    parser.add_argument("--quick", action="store_true",
                        help="karate and sensor200, the two target cells, 2 trials, one start, "
                             "20 dB table")
    parser.add_argument("--threads", type=int, default=None,
                        help="BLAS threads (threadpoolctl), default: library default "
                             "(--n1000: 1)")
    parser.add_argument("--n1000", action="store_true",
                        help="the n = 1000 targets (theta = 0.1, p = 5n) on sensor1000 and "
                             "ws1000 with the time of every trial, and the 20 dB table")
    parser.add_argument("--snr-trials", type=int, default=3,
                        help="--n1000: noisy trials per graph (0: none)")
    args = parser.parse_args(argv)
    if args.n1000 and args.threads is None:
        args.threads = 1
    if args.quick:
        args.graphs, args.trials, args.snr = ["karate", "sensor200"], 2, 20.0
        args.thetas, args.ratios, args.target_cells, args.restarts = [0.1, 0.5], [5, 20], True, 0
    limit_blas_threads(args.threads)

    if args.n1000:
        return _n1000(args)

    from gsp_householder import fourier_basis, matched_basis_error

    print(f"# learn_orthogonal_basis: success = error <= {SUCCESS:g} after signed column "
          f"matching; medians over trials; threads={args.threads}")
    header = ("| graph | n | theta | p/n | success | median error | identity | wall s | "
              "CPU s | MSP | H-DLA | altmin |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    noisy = []
    for gname in args.graphs:
        U = fourier_basis(_graph(gname)).eigenvectors
        n = U.shape[0]
        large = n >= 500
        ident = matched_basis_error(U, np.eye(n))
        for theta in args.thetas:
            for ratio in args.ratios:
                target = (theta, ratio) in ((0.1, 5), (0.5, 20))
                if not target and (args.target_cells or (large and args.large_cells == "targets")):
                    continue
                trials = args.large_trials if large else args.trials
                base = not args.no_baselines and n <= args.baselines_max_n
                errs, walls, cpus, others, _ = _run_cell(U, theta, ratio, trials, args.seed,
                                                         base, None, args.restarts)
                ok = sum(e <= SUCCESS for e in errs)
                cols = [f"{np.median(others[k]):.3g}" if k in others else "-"
                        for k in ("MSP", "H-DLA", "altmin")]
                print(f"| {gname} | {n} | {theta:g} | {ratio} | {ok}/{trials} | "
                      f"{np.median(errs):.2g} | {ident:.3g} | {np.median(walls):.2f} | "
                      f"{np.median(cpus):.2f} | " + " | ".join(cols) + " |", flush=True)
                if args.snr is not None and (theta, ratio) in ((0.1, 5), (0.5, 20)):
                    noisy.append((gname, n, theta, ratio, U, trials))
    if noisy:
        print(f"\n# at {args.snr:g} dB SNR: learner against the Procrustes fit with X known")
        print("| graph | n | theta | p/n | learner median error | oracle median error | "
              "ratio |")
        print("|---|---|---|---|---|---|---|")
        for gname, n, theta, ratio, U, trials in noisy:
            errs, _, _, _, oracle = _run_cell(U, theta, ratio, trials, args.seed + 7, False,
                                              args.snr, args.restarts)
            print(f"| {gname} | {n} | {theta:g} | {ratio} | {np.median(errs):.3g} | "
                  f"{np.median(oracle):.3g} | {np.median(errs) / np.median(oracle):.2f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
