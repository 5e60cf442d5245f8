"""The blind whole-basis learner against the value range of the non-zero codes.

Signals $Y = U X$ with $U$ a graph's Laplacian eigenbasis
(`gsp_householder.fourier_basis`) and $X$ Bernoulli($\\theta$) x Uniform[low, high]
(`gsp_householder.make_signals`, signals seed $s$), learned blind
(`gsp_householder.learn_orthogonal_basis(Y, rng=1000 + s)`: no $\\theta$, no range)
and scored by `gsp_householder.matched_basis_error` (success: at most 1e-6). With
``--snr`` the signals carry noise and the table adds the error of the Procrustes fit
that knows $X$ (`gsp_householder.procrustes_oracle`).

Graphs: ``karate`` (n = 34), ``sensor150`` (PyGSP ``Sensor(150, seed=88)``),
``ws120`` (``connected_watts_strogatz_graph(120, 4, 0.2, seed=3)``) and ``tree100``
(``random_labeled_tree(100, seed=5)``). Codes are given as ``low,high`` pairs.

Usage::

    python benchmarks/bench_code_ranges.py --threads 1 --graphs karate \\
        --thetas 0.1 0.3 0.5 --ratios 5 20 --codes 1,2 0.5,1 1,3 1,4 1,10 0.1,5
    python benchmarks/bench_code_ranges.py --threads 1 --graphs sensor150 ws120 tree100 \\
        --thetas 0.1 --ratios 5 20
    python benchmarks/bench_code_ranges.py --threads 1 --graphs karate --thetas 0.1 \\
        --ratios 5 --snr 20
"""

from __future__ import annotations

import argparse
import time
import warnings

import networkx as nx
import numpy as np
from _threads import limit_blas_threads

from gsp_householder import (
    BernoulliUniform,
    fourier_basis,
    learn_orthogonal_basis,
    make_signals,
    matched_basis_error,
    procrustes_oracle,
)
from gsp_householder.exceptions import ConvergenceWarning

SUCCESS = 1e-6


def _graph(name: str):
    if name == "karate":
        return nx.karate_club_graph()
    if name == "sensor150":
        import pygsp

        return pygsp.graphs.Sensor(150, seed=88)
    if name == "ws120":
        return nx.connected_watts_strogatz_graph(120, 4, 0.2, seed=3)
    if name == "tree100":
        return nx.random_labeled_tree(100, seed=5)
    raise ValueError(f"unknown graph {name!r}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--graphs", nargs="+", default=["karate"],
                        choices=["karate", "sensor150", "ws120", "tree100"])
    parser.add_argument("--thetas", nargs="+", type=float, default=[0.1])
    parser.add_argument("--ratios", nargs="+", type=int, default=[5], help="p / n values")
    parser.add_argument("--codes", nargs="+", default=["1,2", "0.5,1", "1,3", "1,4", "1,10",
                                                        "0.1,5"], help="low,high pairs")
    parser.add_argument("--seeds", nargs="+", type=int, default=[0, 1, 2, 3, 4])
    parser.add_argument("--restarts", type=int, default=2)
    parser.add_argument("--snr", type=float, default=None, help="SNR in dB (default: none)")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args(argv)
    limit_blas_threads(args.threads)
    codes = [tuple(float(v) for v in c.split(",")) for c in args.codes]
    print("| graph | theta | p/n | codes | success | median error | warned | oracle | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name in args.graphs:
        U = fourier_basis(_graph(name)).eigenvectors
        n = U.shape[0]
        for theta in args.thetas:
            for ratio in args.ratios:
                for low, high in codes:
                    errors, oracle, cpu, warned = [], [], [], 0
                    for s in args.seeds:
                        Y, X = make_signals(U, ratio * n, BernoulliUniform(theta, low, high),
                                            snr_db=args.snr, rng=s)
                        start = time.process_time()
                        with warnings.catch_warnings(record=True) as caught:
                            warnings.simplefilter("always", ConvergenceWarning)
                            result = learn_orthogonal_basis(Y, rng=1000 + s,
                                                            n_restarts=args.restarts)
                        cpu.append(time.process_time() - start)
                        warned += any(issubclass(w.category, ConvergenceWarning)
                                      for w in caught)
                        errors.append(matched_basis_error(U, result.dictionary.to_dense()))
                        if args.snr is not None:
                            fit = procrustes_oracle(Y, X).dictionary
                            oracle.append(matched_basis_error(U, np.asarray(fit)))
                    ok = sum(e <= SUCCESS for e in errors)
                    orc = f"{np.median(oracle):.3g}" if oracle else "-"
                    print(f"| {name} | {theta} | {ratio} | U[{low:g}, {high:g}] | "
                          f"{ok}/{len(errors)} | {np.median(errors):.2g} | {warned} | {orc} | "
                          f"{np.median(cpu):.2f} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
