"""The ``gsp-householder`` command line.

    gsp-householder demo [--graph NAME] [--out DIR] [--seed S] [--progress {auto,lines,none}]
    gsp-householder reproduce {fig1,fig2,fig3,fig4,fig5,refine,all} [--trials N] [--out DIR]
    gsp-householder quickstart [--n N] [--signals P] [--reflectors M] [--theta T] [--seed S]
    gsp-householder graphs

Each subcommand is a thin driver over the library: ``demo`` runs
`gsp_householder.experiments.demo.run_demo`, ``reproduce`` runs
`gsp_householder.experiments.reproduce.run_reproduction`.

Bad arguments (an unknown graph, an ``--out`` that is a file or cannot be
created or written, invalid values) print one line
``gsp-householder <command>: error: ...`` on stderr and exit with status 2, as
argparse does; no traceback. Results go to stdout; progress goes to stderr
(a tqdm status line when stderr is a terminal, nothing otherwise, unless
``--progress lines``).
"""

from __future__ import annotations

import argparse
import sys
import warnings
from collections.abc import Sequence

FIGURES = ("fig1", "fig2", "fig3", "fig4", "fig5", "refine")


def _quickstart(args) -> int:
    import numpy as np

    from gsp_householder.exceptions import DegenerateStatisticsWarning
    from gsp_householder.learning.paper import estimate_householder_product
    from gsp_householder.learning.sparse_coding import sparse_code
    from gsp_householder.metrics import basis_error, coefficient_error
    from gsp_householder.model import BernoulliUniform, make_signals, random_householder_product

    rng = np.random.default_rng(args.seed)
    model = BernoulliUniform(args.theta)
    V = random_householder_product(args.n, args.reflectors, rng=rng)
    Y, X = make_signals(V, args.signals, model, snr_db=args.snr, rng=rng)
    print(f"signals: n={args.n} nodes, p={args.signals} signals, m={args.reflectors} "
          f"reflectors, theta={args.theta}, SNR={'inf' if args.snr is None else args.snr} dB")
    rows = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateStatisticsWarning)
        for label, kw in (("paper, oracle theta*mu", {"theta": args.theta, "mu": model.mu}),
                          ("paper, blind theta*mu", {})):
            V_hat = estimate_householder_product(Y, args.reflectors, **kw)
            X_hat = sparse_code(V_hat, Y)
            rows.append((label, V_hat.m, basis_error(V, V_hat), coefficient_error(X, X_hat)))
    try:
        from gsp_householder.learning.refinement import refine_householder_product
    except ImportError:  # pragma: no cover - the refinement ships with the package
        refine_householder_product = None
    if refine_householder_product is not None:
        result = refine_householder_product(Y, args.reflectors, rng=args.seed)
        rows.append(("structured refinement", result.dictionary.m,
                     basis_error(V, result.dictionary), coefficient_error(X, result.codes)))
    identity = V.identity(args.n)
    rows.append(("trivial V_hat = I", 0, basis_error(V, identity),
                 coefficient_error(X, sparse_code(identity, Y))))
    print(f"\n{'method':<26} {'kept m':>6} {'||V - V_hat||_F':>16} {'X error/entry':>14}")
    for label, m, err_v, err_x in rows:
        print(f"{label:<26} {m:>6} {err_v:>16.4g} {err_x:>14.4g}")
    for w in {str(w.message) for w in caught}:
        print(f"\nnote: {w}")
    return 0


class _UsageError(ValueError):
    """A bad command-line argument, reported as ``error: argument --x: ...``."""


def _print_line(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def _progress(choice: str):
    return {"auto": None, "lines": _print_line, "none": False}[choice]


def _out_dir(path: str):
    from gsp_householder.experiments._common import prepare_out_dir

    return prepare_out_dir(path, "--out")


def _demo(args) -> int:
    from gsp_householder.experiments.demo import DEFAULT_GRAPH, run_demo
    from gsp_householder.graphs.datasets import list_graphs

    graph = DEFAULT_GRAPH if args.graph is None else args.graph
    if graph not in list_graphs():
        raise _UsageError(f"argument --graph: invalid choice: {graph!r} "
                          f"(choose from {', '.join(list_graphs())})")
    if args.theta is not None and not 0.0 < args.theta <= 1.0:
        raise _UsageError(f"argument --theta: must be in (0, 1], got {args.theta}")
    out = _out_dir(args.out)
    report = run_demo(graph, out, seed=args.seed, theta=args.theta,
                      progress=_progress(args.progress))
    print(f"report written to {report}")
    return 0


def _reproduce(args) -> int:
    from gsp_householder.experiments.reproduce import run_reproduction

    figures = list(FIGURES) if "all" in args.figures else list(dict.fromkeys(args.figures))
    out = _out_dir(args.out)
    written = run_reproduction(figures, out, trials=args.trials, seed=args.seed)
    for figure, paths in written.items():
        for path in paths:
            print(f"{figure}: {path}")
    return 0


def _graphs(args) -> int:
    from gsp_householder.graphs.datasets import list_graphs

    for name in list_graphs():
        print(name)
    return 0


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``gsp-householder``."""
    parser = argparse.ArgumentParser(
        prog="gsp-householder",
        description="Learn orthogonal dictionaries that are products of Householder reflectors.")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="end-to-end graph demo: writes report.md and figures")
    demo.add_argument("--graph", default=None, help="graph name (see `gsp-householder graphs`)")
    demo.add_argument("--out", default="gsp_householder_demo", help="output directory")
    demo.add_argument("--seed", type=int, default=0)
    demo.add_argument("--theta", type=float, default=None,
                      help="probability of a non-zero code, in (0, 1] (default: 0.5 on "
                           "graphs of up to 40 nodes, 0.1 on larger ones, where the "
                           "whole-basis learner needs sparse codes)")
    demo.add_argument("--progress", choices=("auto", "lines", "none"), default="auto",
                      help="auto: a status line on stderr when it is a terminal; lines: one "
                           "flushed line per step on stderr; none: silent")
    demo.set_defaults(func=_demo)

    rep = sub.add_parser("reproduce", help="reproduce the paper's figures (CSV + PNG each)")
    rep.add_argument("figures", nargs="+", choices=[*FIGURES, "all"])
    rep.add_argument("--trials", type=int, default=20, help="seeded trials per cell")
    rep.add_argument("--out", default="reproduction", help="output directory")
    rep.add_argument("--seed", type=int, default=0)
    rep.set_defaults(func=_reproduce)

    quick = sub.add_parser("quickstart", help="generate signals, recover V, print the errors")
    quick.add_argument("--n", type=int, default=1000, help="number of nodes")
    quick.add_argument("--signals", type=int, default=100, help="number of signals p")
    quick.add_argument("--reflectors", type=int, default=10, help="number of reflectors m")
    quick.add_argument("--theta", type=float, default=0.5, help="sparsity in (0, 1]")
    quick.add_argument("--snr", type=float, default=None, help="SNR in dB (default noiseless)")
    quick.add_argument("--seed", type=int, default=0)
    quick.set_defaults(func=_quickstart)

    graphs = sub.add_parser("graphs", help="list the bundled and synthetic graphs")
    graphs.set_defaults(func=_graphs)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``gsp-householder`` console script."""
    parser = build_parser()
    args = parser.parse_args(argv)
    prog = f"{parser.prog} {args.command}"
    try:
        return args.func(args)
    except (ValueError, TypeError) as exc:
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # e.g. the disk filled up while writing
        print(f"{prog}: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
