"""Where order-free inference spends its CPU time, stage by stage, on benchmark rows.

For each graph of ``bench_inference.py`` named (``--only``, as its tables print them) and
each input (``--inputs``, default ``perturbed``, built as ``bench_inference.py`` builds
it), runs ``infer_laplacian(V, rng=0)`` once and prints the process CPU seconds of each
stage, each counted once (a stage's time excludes the other stages called inside it, and
includes its linear programs):

- ``rankings``: the leverage, sampled and fitted rankings of the pairs and their noise
  estimates;
- ``noisy ladder``: the noisy rankings' searches at their own estimates
  (``_noisy_ladder``), and those at the largest estimate;
- ``at smallest``: the ladder at the smallest noise estimate (``_sparser_at_level``);
- ``exact searches``: the ladder's searches outside the noisy ladders (exact and coarse
  rounding, the next ranking's span; the noisy ladders of the refit levels count as
  ``noisy ladder``);
- ``LP``: of the stages' time, the HiGHS solves (their count in ``LPs``);
- ``other``: the rest (input checks, the result's checks and warnings).

The stages are timed by wrapping the inference's internal functions for the run (the
answers are the same as without: the wrappers only read the clock). ``evals`` is
``history["n_evaluations"]``, ``at smallest`` the edges of the graph before and of the
one found at the smallest estimate when that ladder ran (``history["sparser_at_level"]``).

Two more columns give the inclusive CPU time (their searches are counted in the stages
above too) of two parts that trees with sibling leaves spend on: ``eigenspaces``, the
searches with one eigenvalue per eigenspace of the graph found and their refinements
(``_found_eigenspaces``), and ``twin classes``, the inferences on the twin classes' bases
(``_twin_superset``).

With ``--audit`` the graphs are those of ``bench_audit_third.py`` (``--only`` names as
its ``--list`` prints them) and the inputs its rows' (``run_one``: the draw seeds the
shuffle and the perturbation by 1e-3), for the draws of ``--draws``.

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/profile_inference_stages.py --only
"les miserables" "weighted Delaunay(200)"``, or ``--audit --only "balanced_tree(3, 4)"
--inputs exact perturbed --draws 0 1 2``
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import time
import warnings

import numpy as np
from bench_inference import _perturb, _shuffle, graphs

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import _dense_lp, _ranking_ladder, laplacian_inference

#: Printed stages, in order.
STAGES = ("rankings", "noisy ladder", "at smallest", "exact searches", "LP", "other")
#: The functions timed: (module, name, stage). ``_noisy_ladder`` called from
#: ``_sparser_at_level`` is counted in that stage.
TIMED = (
    (_ranking_ladder, "leverage_ranking", "rankings"),
    (_ranking_ladder, "full_scores", "rankings"),
    (_ranking_ladder, "robust_noise", "rankings"),
    (_ranking_ladder, "sampled_leverage_ranking", "rankings"),
    (_ranking_ladder, "fitted_ranking", "rankings"),
    (_ranking_ladder, "_noisy_ladder", "noisy ladder"),
    (_ranking_ladder, "_sparser_at_level", "at smallest"),
    (_ranking_ladder, "_search_at_noise", "exact searches"),
    (_dense_lp, "_run", "LP"),
)
#: Parts timed inclusively (outermost calls only: the twin classes' inferences search
#: eigenspaces too): (module, name, column).
INCLUSIVE = (
    (laplacian_inference, "_found_eigenspaces", "eigenspaces"),
    (laplacian_inference, "_twin_superset", "twin classes"),
)


class StageClock:
    """Exclusive process CPU time per stage of the functions of ``TIMED``, while
    ``installed``."""

    def __init__(self):
        self.totals = dict.fromkeys(STAGES, 0.0)
        self.n_lp = 0
        self._stack = []  # [stage, CPU time of the stages called inside]
        self.parts = {column: 0.0 for _, _, column in INCLUSIVE}
        self._open = dict.fromkeys(self.parts, 0)  # calls of each part under way

    def _stage(self, stage):
        ladders = [s for s, _ in self._stack if s in ("noisy ladder", "at smallest")]
        if stage == "noisy ladder" and "at smallest" in ladders:
            return "at smallest"
        if stage == "exact searches" and ladders:
            return ladders[-1]  # a search of a ladder belongs to it
        return stage

    def _wrap(self, f, stage):
        @functools.wraps(f)
        def timed(*args, **kwargs):
            label = self._stage(stage)
            self._stack.append([label, 0.0])
            start = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                elapsed = time.process_time() - start
                _, inner = self._stack.pop()
                self.totals[label] += elapsed - inner
                self.n_lp += label == "LP"
                if self._stack and label != "LP":  # a stage's LPs are in its time too
                    self._stack[-1][1] += elapsed

        return timed

    def _wrap_part(self, f, column):
        @functools.wraps(f)
        def timed(*args, **kwargs):
            self._open[column] += 1
            start = time.process_time()
            try:
                return f(*args, **kwargs)
            finally:
                self._open[column] -= 1
                if not self._open[column]:
                    self.parts[column] += time.process_time() - start

        return timed

    @contextlib.contextmanager
    def installed(self):
        saved = [(module, name, getattr(module, name)) for module, name, _ in TIMED + INCLUSIVE]
        try:
            for module, name, stage in TIMED:
                setattr(module, name, self._wrap(getattr(module, name), stage))
            for module, name, column in INCLUSIVE:
                setattr(module, name, self._wrap_part(getattr(module, name), column))
            yield self
        finally:
            for module, name, f in saved:
                setattr(module, name, f)


def profile_row(G, basis):
    """``(compare_graphs dict, result, warnings caught, CPU s, StageClock)`` of one run."""
    clock = StageClock()
    with clock.installed(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.process_time()
        res = infer_laplacian(basis, rng=0)
        total = time.process_time() - start
    clock.totals["other"] = total - sum(t for s, t in clock.totals.items() if s != "LP")
    return compare_graphs(G.laplacian, res.laplacian), res, caught, total, clock


def _inputs(B):
    rng = np.random.default_rng(0)
    exact = _shuffle(B.eigenvectors, rng)
    return {"exact": exact, "perturbed": _shuffle(_perturb(B.eigenvectors, 1e-3, rng), rng)}


def audit_input(B, kind, draw, noise=1e-3):
    """The input of ``bench_audit_third.py``'s row (``run_one``): the exact eigenvectors
    of ``B`` shuffled and sign-flipped, or perturbed by ``noise`` then shuffled, the
    draw seeding both."""
    rng = np.random.default_rng(draw)
    if kind == "exact":
        return _shuffle(B.eigenvectors, rng)
    return _shuffle(_perturb(B.eigenvectors, noise, rng), rng)


def _rows(args):
    """``(label, basis, input)`` of the rows asked for."""
    if args.audit:
        from bench_audit_third import GRAPHS
        from bench_inference_sweep import _relabel

        table = GRAPHS
    else:
        table = graphs(False, True, True)
    unknown = [name for name in args.only if name not in table]
    if unknown:
        raise SystemExit(f"unknown graphs {unknown}; names: {sorted(table)}")
    for name in args.only:
        if args.audit:
            B = fourier_basis(_relabel(table[name]()))
            for key in args.inputs:
                for draw in args.draws:
                    yield f"{name} | {key} {draw}", B, audit_input(B, key, draw)
        else:
            B = fourier_basis(table[name]())
            inputs = _inputs(B)
            for key in args.inputs:
                yield f"{name} | {key}", B, inputs[key]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--only",
        nargs="+",
        required=True,
        help="graph names of bench_inference (of bench_audit_third with --audit)",
    )
    ap.add_argument("--inputs", nargs="*", choices=("exact", "perturbed"), default=["perturbed"])
    ap.add_argument(
        "--audit", action="store_true", help="the graphs and inputs of bench_audit_third.py"
    )
    ap.add_argument(
        "--draws", nargs="*", type=int, default=[0], help="the audit's draws (with --audit)"
    )
    args = ap.parse_args()
    rows = _rows(args)
    first = next(rows)  # unknown names are refused before the header
    columns = [*STAGES, *(column for _, _, column in INCLUSIVE)]
    print(
        "| graph | input | F1 | edges | family | candidates | W | CPU s | "
        + " | ".join(columns)
        + " | LPs | evals | at smallest: edges |"
    )
    print("|---" * (11 + len(columns)) + "|")
    for label, B, V in itertools.chain([first], rows):
        cmp, res, caught, total, clock = profile_row(B, V)
        times = " | ".join(
            f"{t:.2f}" for t in [*(clock.totals[s] for s in STAGES), *clock.parts.values()]
        )
        print(
            f"| {label} | {cmp['f1']:.4f} | {res.n_edges} | "
            f"{res.family_dimension} | {res.n_candidates} | {'W' if caught else '-'} | "
            f"{total:.2f} | {times} | {clock.n_lp} | "
            f"{res.history.get('n_evaluations', '-')} | "
            f"{res.history.get('sparser_at_level', '-')} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
