"""`learn_graph` end to end on graphs, labels and signals the tests do not name.

Each case draws signals $Y = U X$ (+ noise) on a graph with `make_graph_signals`
(codes Bernoulli($\\theta$) x Uniform[low, high], signals seed 0), runs
`learn_graph(Y, nodelist=..., rng=0)` blind (no $\\theta$, no range) and reports the
learned basis's error after signed column matching (`matched_basis_error`), the edge F1
(`compare_graphs`, nodes matched by label), edges, family dimension, candidates, CPU s,
warnings and any exception. ``SILENT``: F1 below 0.95 with no warning (the family
dimension may still flag it); ``LABELS``: ``to_networkx()`` lost or reordered the
node labels.

Graphs: networkx graphs with string labels (``lesmis``, ``florentine``), tuple labels
(``grid8x9``), a weighted Watts-Strogatz graph (``wws120``), PyGSP graphs
(``Sensor(150, seed=3)``, ``Sensor(250, seed=5)``, ``Community(150, seed=2)``,
``DavidSensorNet(64)``), random graphs (WS, BA, SBM, RGG of 100-200 nodes) and karate;
disconnected draws keep their largest component. Cases vary $\\theta$, $p / n$, the
SNR, the code range, the Laplacian (``normalized``) and the input's dtype (float32).
``--extended`` adds 28 cases on graphs and settings those do not have: grids (5 x 5,
6 x 7, 4 x 10, weighted 6 x 8), a path, tori, the circular ladder, the 5-cube, weighted
RGG and BA graphs, normalized Laplacians of six more graphs, $\theta$ 0.2 and 0.3, and
30 dB.

Usage::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_learn_graph_audit.py
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_learn_graph_audit.py --only f32 norm
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_learn_graph_audit.py --extended-only
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_learn_graph_audit.py --few-signals
    python benchmarks/bench_learn_graph_audit.py --list
"""

from __future__ import annotations

import argparse
import time
import warnings

import networkx as nx
import numpy as np

from gsp_householder import BernoulliUniform, compare_graphs, make_graph_signals
from gsp_householder.graphs.from_signals import learn_graph
from gsp_householder.metrics import matched_basis_error


def _pygsp(name, **kwargs):
    import pygsp

    return getattr(pygsp.graphs, name)(**kwargs)


def _weighted_ws():
    G = nx.connected_watts_strogatz_graph(120, 6, 0.1, seed=4)
    rng = np.random.default_rng(4)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.uniform(0.5, 2.0))
    return G


def _weighted(G, seed):
    rng = np.random.default_rng(seed)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.uniform(0.5, 2.0))
    return G


def _sbm():
    p = [[0.2, 0.01, 0.01], [0.01, 0.2, 0.01], [0.01, 0.01, 0.2]]
    return nx.stochastic_block_model([60, 60, 60], p, seed=11)


GRAPHS = {
    "lesmis": nx.les_miserables_graph,
    "florentine": nx.florentine_families_graph,
    "grid8x9": lambda: nx.grid_2d_graph(8, 9),
    "wws120": _weighted_ws,
    "sensor150s3": lambda: _pygsp("Sensor", N=150, seed=3),
    "sensor250s5": lambda: _pygsp("Sensor", N=250, seed=5),
    "community150": lambda: _pygsp("Community", N=150, seed=2),
    "david64": lambda: _pygsp("DavidSensorNet", N=64),
    "ws150": lambda: nx.connected_watts_strogatz_graph(150, 4, 0.2, seed=7),
    "ba200": lambda: nx.barabasi_albert_graph(200, 3, seed=9),
    "sbm3x60": _sbm,
    "rgg200": lambda: nx.random_geometric_graph(200, 0.14, seed=13),
    "karate": nx.karate_club_graph,
    "rgg100": lambda: nx.random_geometric_graph(100, 0.2, seed=21),
}

#: Graphs of the extended cases (``--extended``): none of them is in the 67 cases.
EXTENDED_GRAPHS = {
    "grid5x5": lambda: nx.grid_2d_graph(5, 5),
    "grid6x7": lambda: nx.grid_2d_graph(6, 7),
    "grid4x10": lambda: nx.grid_2d_graph(4, 10),
    "path40": lambda: nx.path_graph(40),
    "torus6x8": lambda: nx.grid_2d_graph(6, 8, periodic=True),
    "torus5x9": lambda: nx.grid_2d_graph(5, 9, periodic=True),
    "cladder30": lambda: nx.circular_ladder_graph(30),
    "hypercube5": lambda: nx.hypercube_graph(5),
    "ws100": lambda: nx.connected_watts_strogatz_graph(100, 6, 0.1, seed=2),
    "ba120": lambda: nx.barabasi_albert_graph(120, 2, seed=5),
    "rgg120": lambda: nx.random_geometric_graph(120, 0.18, seed=8),
    "wrgg100": lambda: _weighted(nx.random_geometric_graph(100, 0.2, seed=3), 3),
    "wba120": lambda: _weighted(nx.barabasi_albert_graph(120, 2, seed=6), 6),
    "wgrid6x8": lambda: _weighted(nx.grid_2d_graph(6, 8), 8),
}
GRAPHS.update(EXTENDED_GRAPHS)
#: Graphs of the few-signal cases (``--few-signals``).
GRAPHS.update({f"sensor200s{s}": (lambda s=s: _pygsp("Sensor", N=200, seed=s))
               for s in (1, 2, 3)})


def _cases() -> list[tuple[str, str, dict]]:
    cases = [(f"{g}-t{th}-{r}", g, {"theta": th, "ratio": r}) for g, th, r in (
        ("lesmis", 0.1, 5), ("florentine", 0.1, 5), ("florentine", 0.5, 20),
        ("grid8x9", 0.1, 5), ("wws120", 0.1, 5), ("sensor150s3", 0.1, 5),
        ("sensor250s5", 0.1, 5), ("community150", 0.1, 5), ("david64", 0.1, 5),
        ("david64", 0.5, 20), ("ws150", 0.1, 5), ("ba200", 0.1, 5), ("sbm3x60", 0.1, 5),
        ("rgg200", 0.1, 5))]
    for g in ("karate", "rgg100"):
        cases += [(f"{g}-t{th}-{r}", g, {"theta": th, "ratio": r})
                  for th in (0.1, 0.2, 0.3, 0.5) for r in (3, 5, 10, 20)]
    for g in ("karate", "rgg100"):
        cases += [(f"{g}-snr{s}", g, {"snr": s}) for s in (40, 30, 20)]
    for lo, hi in ((0.5, 1.0), (1.0, 3.0), (-2.0, -1.0), (-1.0, 1.0), (0.0, 1.0)):
        cases += [(f"{g}-range{lo},{hi}", g, {"low": lo, "high": hi})
                  for g in ("karate", "rgg100")]
    cases += [(f"{g}-norm", g, {"laplacian": "normalized"})
              for g in ("karate", "rgg100", "lesmis")]
    cases += [(f"{g}-f32", g, {"float32": True}) for g in ("karate", "lesmis")]
    return cases


def _extended_cases() -> list[tuple[str, str, dict]]:
    """Cases on graphs and settings the 67 do not have (``--extended``)."""
    cases = [(f"{g}-t0.1-5", g, {}) for g in (
        "grid5x5", "grid6x7", "grid4x10", "path40", "torus6x8", "torus5x9", "cladder30",
        "hypercube5", "ws100", "ba120", "rgg120", "wrgg100", "wba120", "wgrid6x8")]
    cases += [(f"{g}-norm", g, {"laplacian": "normalized"}) for g in (
        "florentine", "ws100", "ba120", "rgg120", "wrgg100", "david64", "grid6x7")]
    cases += [(f"{g}-t{th}-{r}", g, {"theta": th, "ratio": r})
              for g in ("ws100", "ba120") for th, r in ((0.2, 5), (0.3, 10))]
    cases += [(f"{g}-snr30", g, {"snr": 30}) for g in ("ws100", "ba120", "lesmis")]
    return cases


def _few_signal_cases() -> list[tuple[str, str, dict]]:
    """Fewer signals than the targets (``--few-signals``): karate and PyGSP
    ``Sensor(200, seed)``, seeds 1-3, at $p$ = 2n and 3n, $\\theta$ = 0.1 and 0.5."""
    return [(f"{g}-t{th}-{r}", g, {"theta": th, "ratio": r})
            for g in ("karate", "sensor200s1", "sensor200s2", "sensor200s3")
            for r in (2, 3) for th in (0.1, 0.5)]


def _largest_component(G):
    if isinstance(G, nx.Graph) and not nx.is_connected(G):
        G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
    return G


def run_case(graph: str, *, theta=0.1, ratio=5, snr=None, low=1.0, high=2.0,
             laplacian="combinatorial", float32=False) -> dict:
    """One case: the row of the table (a dict)."""
    G = _largest_component(GRAPHS[graph]())
    n = G.N if hasattr(G, "N") else G.number_of_nodes()
    row = {"basis error": None, "f1": None, "edges": None, "family": None,
           "candidates": None, "flags": ""}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        start = time.process_time()
        try:
            signals = make_graph_signals(G, ratio * n, BernoulliUniform(theta, low, high),
                                         snr_db=snr, rng=0, laplacian=laplacian)
            Y = signals.Y.astype(np.float32) if float32 else signals.Y
            nodes = signals.nodelist if isinstance(G, nx.Graph) else None
            learned = learn_graph(Y, nodelist=nodes, rng=0, laplacian=laplacian)
            V = signals.V.to_dense() if hasattr(signals.V, "to_dense") else signals.V
            row["basis error"] = matched_basis_error(V, learned.learned.dictionary.to_dense())
            scores = compare_graphs(G, learned)
            row.update(f1=scores["f1"], edges=learned.n_edges,
                       family=learned.family_dimension, candidates=learned.n_candidates)
            if nodes is not None and list(learned.to_networkx()) != list(nodes):
                row["flags"] += "LABELS "
        except (ValueError, TypeError) as exc:
            row["flags"] += f"{type(exc).__name__}: {str(exc)[:90]}"
        row["cpu s"] = time.process_time() - start
    row["warnings"] = sorted({w.category.__name__ for w in caught
                              if issubclass(w.category, UserWarning)})
    if row["f1"] is not None and row["f1"] < 0.95 and not row["warnings"]:
        row["flags"] = "SILENT " + row["flags"]
    return row


def _fmt(value, spec):
    return "-" if value is None else format(value, spec)


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", default=None,
                        help="run the cases whose name holds one of these strings")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("--extended", action="store_true",
                        help="add the extended cases (grids, tori, paths, circular ladder, "
                             "5-cube, weighted and normalized graphs, theta 0.2 / 0.3, 30 dB)")
    parser.add_argument("--few-signals", action="store_true",
                        help="run the few-signal cases only (p = 2n and 3n on karate and "
                             "Sensor(200), seeds 1-3)")
    parser.add_argument("--extended-only", action="store_true",
                        help="run the extended cases only")
    args = parser.parse_args(argv)
    pool = ([] if args.extended_only else _cases()) + (
        _extended_cases() if args.extended or args.extended_only else [])
    if args.few_signals:
        pool = _few_signal_cases()
    cases = [c for c in pool if args.only is None or any(s in c[0] for s in args.only)]
    if args.list:
        print("\n".join(name for name, _, _ in cases))
        return
    print("| case | basis error | F1 | edges | family | cands | warnings | CPU s | flags |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, graph, options in cases:
        r = run_case(graph, **options)
        print(f"| {name} | {_fmt(r['basis error'], '.1e')} | {_fmt(r['f1'], '.3f')} | "
              f"{_fmt(r['edges'], 'd')} | {_fmt(r['family'], 'd')} | "
              f"{_fmt(r['candidates'], 'd')} | {', '.join(r['warnings']) or '-'} | "
              f"{r['cpu s']:.1f} | {r['flags'].strip() or '-'} |", flush=True)


if __name__ == "__main__":
    main()
