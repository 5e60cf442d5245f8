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
shuffle and the perturbation by 1e-3), for the draws of ``--draws``; ``--audit fourth``
(``fifth``, ``sixth``, ``seventh``, ``wider``) takes the graphs of that audit
(``bench_audit_fourth.py`` ...), with their Laplacians (normalized where the audit says).

``--lp-kinds`` adds a second line per row: the CPU s (and count) of the HiGHS runs by
kind, read off the calls under way when HiGHS runs:

- ``cold rounds``: cutting-plane rounds solved from a new model (presolved), the first
  round of a max-margin program and the cold solves of exact spans;
- ``warm rounds``: later rounds of a max-margin program over a noisy span, from the last
  round's basis (``_template_lp._Rounds``);
- ``relaxations``: the small relaxations grown row by row (``_template_lp._Chain``:
  certificates of failure and chain answers);
- ``objectives``: the objective programs of families' vertices (``sparse_vertices``);
- ``screens``: the band screens without presolve (``_dense_lp.bound_exceeded``);
- ``other``: the rest (uniqueness checks of a vertex, refits).

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/profile_inference_stages.py --only
"les miserables" "weighted Delaunay(200)"``, or ``--audit --only "balanced_tree(3, 4)"
--inputs exact perturbed --draws 0 1 2``, or ``--audit seventh --only "tutte box path(2)"
--draws 0 1 --lp-kinds``
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import importlib
import itertools
import sys
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
    (_dense_lp, "bound_exceeded", "LP"),
)
#: Kinds of HiGHS runs (``--lp-kinds``), in the order printed.
LP_KINDS = ("cold rounds", "warm rounds", "relaxations", "objectives", "screens", "other")
#: The audits whose graphs ``--audit`` takes (``bench_audit_<name>.py``).
AUDITS = ("third", "fourth", "fifth", "sixth", "seventh", "wider")


def lp_kind(name, frame) -> str:
    """The kind (``LP_KINDS``) of the HiGHS run made by the function ``name`` called
    from ``frame``, read off the calls under way: their function names and the
    ``objective`` and ``self`` of ``_template_lp._solved_in_span`` and
    ``_dense_lp.WarmProgram.solve``."""
    if name == "bound_exceeded":
        return "screens"
    names, warm = [], None
    while frame is not None:
        code = frame.f_code
        if code.co_name == "solve" and warm is None and "self" in frame.f_locals:
            warm = frame.f_locals["self"]
        if code.co_name == "_solved_in_span":
            if frame.f_locals.get("objective") is not None:
                return "objectives"
            if "_pointed" in names:
                return "other"
            if "add" in names:
                return "relaxations"
            if "_cold_solve" in names or "_unpresolved_solve" in names:
                return "cold rounds"
            if isinstance(warm, _dense_lp.WarmProgram):
                return "warm rounds" if warm._lp_solves else "cold rounds"
            return "other"
        names.append(code.co_name)
        frame = frame.f_back
    return "other"


#: Parts timed inclusively (outermost calls only: the twin classes' inferences search
#: eigenspaces too): (module, name, column).
INCLUSIVE = (
    (laplacian_inference, "_found_eigenspaces", "eigenspaces"),
    (laplacian_inference, "_twin_superset", "twin classes"),
)


class StageClock:
    """Exclusive process CPU time per stage of the functions of ``TIMED``, while
    ``installed``."""

    def __init__(self, lp_kinds=False):
        self.totals = dict.fromkeys(STAGES, 0.0)
        self.n_lp = 0
        self.lp_kinds = lp_kinds
        self.kinds = {kind: [0.0, 0] for kind in LP_KINDS}  # CPU s, runs
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
                if label == "LP" and self.lp_kinds:
                    self._count_kind(f.__name__, sys._getframe(1), elapsed)
                if self._stack and label != "LP":  # a stage's LPs are in its time too
                    self._stack[-1][1] += elapsed

        return timed

    def _count_kind(self, name, frame, elapsed):
        """Count one HiGHS run of ``elapsed`` CPU s by the function ``name`` called from
        ``frame``, by its kind (``lp_kind``); a ``WarmProgram`` counts its runs
        (``_lp_solves``)."""
        kind = lp_kind(name, frame)
        self.kinds[kind][0] += elapsed
        self.kinds[kind][1] += 1
        owner = frame.f_locals.get("self") if frame.f_code.co_name == "solve" else None
        if isinstance(owner, _dense_lp.WarmProgram):
            owner._lp_solves += 1

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
        _dense_lp.WarmProgram._lp_solves = 0  # runs of each program (``--lp-kinds``)
        try:
            for module, name, stage in TIMED:
                setattr(module, name, self._wrap(getattr(module, name), stage))
            for module, name, column in INCLUSIVE:
                setattr(module, name, self._wrap_part(getattr(module, name), column))
            yield self
        finally:
            for module, name, f in saved:
                setattr(module, name, f)
            del _dense_lp.WarmProgram._lp_solves


def profile_row(G, basis, laplacian=None, lp_kinds=False):
    """``(compare_graphs dict, result, warnings caught, CPU s, StageClock)`` of one run
    (``laplacian``: that of ``infer_laplacian``, default combinatorial; ``lp_kinds``:
    the HiGHS runs counted by kind)."""
    clock = StageClock(lp_kinds)
    with clock.installed(), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.process_time()
        res = infer_laplacian(basis, rng=0, laplacian=laplacian)
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
    """``(label, basis, input, laplacian)`` of the rows asked for."""
    laplacians = {}
    if args.audit:
        from bench_inference_sweep import _relabel

        audit = importlib.import_module(f"bench_audit_{args.audit}")
        table, laplacians = audit.GRAPHS, getattr(audit, "LAPLACIANS", {})
    else:
        table = graphs(False, True, True)
    unknown = [name for name in args.only if name not in table]
    if unknown:
        raise SystemExit(f"unknown graphs {unknown}; names: {sorted(table)}")
    for name in args.only:
        if args.audit:
            B = fourier_basis(_relabel(table[name]()), laplacians.get(name))
            for key in args.inputs:
                for draw in args.draws:
                    yield (
                        f"{name} | {key} {draw}",
                        B,
                        audit_input(B, key, draw),
                        laplacians.get(name),
                    )
        else:
            B = fourier_basis(table[name]())
            inputs = _inputs(B)
            for key in args.inputs:
                yield f"{name} | {key}", B, inputs[key], None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--only",
        nargs="+",
        required=True,
        help="graph names of bench_inference (of the audit with --audit)",
    )
    ap.add_argument("--inputs", nargs="*", choices=("exact", "perturbed"), default=["perturbed"])
    ap.add_argument(
        "--audit",
        nargs="?",
        const="third",
        default=None,
        choices=AUDITS,
        help="the graphs and inputs of bench_audit_<AUDIT>.py (default third)",
    )
    ap.add_argument(
        "--lp-kinds", action="store_true", help="the HiGHS runs' CPU s by kind, per row"
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
    for label, B, V, laplacian in itertools.chain([first], rows):
        cmp, res, caught, total, clock = profile_row(B, V, laplacian, args.lp_kinds)
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
        if args.lp_kinds:
            kinds = ", ".join(f"{kind} {t:.2f} ({n})" for kind, (t, n) in clock.kinds.items())
            print(f"|  | HiGHS by kind: {kinds} |", flush=True)


if __name__ == "__main__":
    main()
