"""CPU seconds of the fitted rankings inside order-free inference, and their steps checked
against steps that all solve by ``gelsd``.

For each graph (``G:N:P:SEED`` for ``gnp_random_graph``, ``R:D:N:SEED`` for
``random_regular_graph``, or a name of ``bench_inference.graphs(extra, heldout)``) and
each draw: the exact eigenvectors shuffled and sign-flipped, then perturbed by 1e-3 and
shuffled, from ``default_rng(draw)`` (draw 0: the inputs of ``bench_inference.py``).
One row per input: F1, edges found / true, W (warned) or q, the fitted rankings' calls
and CPU seconds, the inference's CPU seconds (the smallest of ``--reps`` runs). With
``--check``, every trimmed fit of the inference is run again with every concentration
step solved by ``gelsd`` (``np.linalg.lstsq``) and compared bit for bit (objective,
vector, rows kept); the row then counts the fits, those that differ, and the steps that
fell back on ``gelsd`` (``_trimmed_fit.clear_smallest`` found no clear cut). Run from
the repository root with one BLAS thread::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_fitted_ranking_cost.py \\
        "16-regular(200, seed 3)" G:60:0.35:4 karate sensor-200
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_fitted_ranking_cost.py --check --reps 1 \\
        --draws 0 1 R:20:240:1
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings
from pathlib import Path

import networkx as nx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_inference import _perturb, _shuffle, graphs

import gsp_householder.graphs._fitted_ranking as fitted
import gsp_householder.graphs._ranking_ladder as ladder
import gsp_householder.graphs._trimmed_fit as steps
from gsp_householder import compare_graphs, fourier_basis, infer_laplacian


def gelsd_fit(X, kept, k, max_steps):
    """The concentration steps with every step solved by ``gelsd``."""
    y = np.linalg.lstsq(X[kept], np.ones(k), rcond=None)[0]
    for _ in range(max_steps - 1):
        new = np.sort(np.argpartition(np.abs(X @ y - 1.0), k - 1)[:k])
        if np.array_equal(new, kept):
            break
        kept = new
        y = np.linalg.lstsq(X[kept], np.ones(k), rcond=None)[0]
    res = X @ y - 1.0
    return float(np.sum(res[kept] ** 2)), y, kept


class Probe:
    """Times ``fitted_ranking`` in the ladder; with ``check``, compares every trimmed fit
    with ``gelsd_fit`` and counts the steps that fell back on ``gelsd``."""

    def __init__(self, check: bool):
        self.check = check
        self.reset()
        ranking, fit, clear = fitted.fitted_ranking, steps.trimmed_fit, steps.clear_smallest

        def timed(*args, **kwargs):
            t = time.process_time()
            out = ranking(*args, **kwargs)
            self.cpu += time.process_time() - t
            self.calls += 1
            return out

        def compared(X, kept, k, max_steps):
            got = fit(X, kept, k, max_steps)
            want = gelsd_fit(X, kept, k, max_steps)
            self.fits += 1
            same = got[0] == want[0]
            same = same and np.array_equal(got[1], want[1]) and np.array_equal(got[2], want[2])
            self.differ += not same
            return got

        def counted(values, k, level):
            out = clear(values, k, level)
            self.steps += 1
            self.fallbacks += out is None
            return out

        ladder.fitted_ranking = timed
        if check:
            fitted.trimmed_fit = compared
            steps.clear_smallest = counted

    def reset(self):
        self.cpu, self.calls = 0.0, 0
        self.fits = self.differ = self.steps = self.fallbacks = 0


def make_graph(spec: str, named: dict):
    if spec.startswith("G:"):
        _, n, p, seed = spec.split(":")
        return f"G({n}, {p}) s{seed}", nx.gnp_random_graph(int(n), float(p), seed=int(seed))
    if spec.startswith("R:"):
        _, d, n, seed = spec.split(":")
        return f"{d}-regular({n}) s{seed}", nx.random_regular_graph(int(d), int(n), seed=int(seed))
    return spec, named[spec]()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("graphs", nargs="+")
    ap.add_argument("--draws", nargs="+", type=int, default=[0])
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    probe = Probe(args.check)
    named = graphs(False, True, True)
    extra = " fits / differ / fallbacks of steps |" if args.check else ""
    print(f"| graph | input | F1 | edges | W | fitted rankings: calls, CPU s | CPU s |{extra}")
    print("|---|---|---|---|---|---|---|" + ("---|" if args.check else ""))
    for spec in args.graphs:
        label, G = make_graph(spec, named)
        B = fourier_basis(G)
        for draw in args.draws:
            rng = np.random.default_rng(draw)
            inputs = [("exact", _shuffle(B.eigenvectors, rng))]
            inputs.append(("perturbed", _shuffle(_perturb(B.eigenvectors, 1e-3, rng), rng)))
            for key, V in inputs:
                fit_cpu, total = np.inf, np.inf
                for _ in range(args.reps):
                    probe.reset()
                    t = time.process_time()
                    with warnings.catch_warnings(record=True) as caught:
                        warnings.simplefilter("always")
                        res = infer_laplacian(V, rng=0)
                    total = min(total, time.process_time() - t)
                    fit_cpu = min(fit_cpu, probe.cpu)
                c = compare_graphs(B.laplacian, res.laplacian)
                row = (
                    f"| {label} | {key} d{draw} | {c['f1']:.4f} | {c['n_edges_hat']} / "
                    f"{c['n_edges_true']} | {'W' if caught else 'q'} | {probe.calls}, "
                    f"{fit_cpu:.2f} | {total:.2f} |"
                )
                if args.check:
                    row += f" {probe.fits} / {probe.differ} / {probe.fallbacks} of {probe.steps} |"
                print(row, flush=True)


if __name__ == "__main__":
    main()
