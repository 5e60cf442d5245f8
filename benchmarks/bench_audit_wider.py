"""Wider held-out audit of order-free Laplacian inference: graphs a user brings.

Forty-eight graphs none of the other inference benchmarks lists (``bench_audit.py``,
``bench_inference.py`` with ``--extra --heldout``, ``bench_inference_heldout.py``,
``bench_inference_sweep.py --list``, ``bench_inference_symmetric.py``,
``bench_lattices.py``, ``bench_inference_cubic.py``, the tree and RGG sweeps): networkx
named graphs and generators with new parameters and seeds, PyGSP graphs with new sizes and
seeds, and weighted versions (weights uniform on [1, 10] or lognormal with sigma 0.5 or 1),
n from 10 to 400. Inputs, as ``run_one`` of ``bench_inference_sweep.py`` builds them:

- ``exact``: the exact eigenvectors, columns shuffled and sign-flipped (the draw seeds the
  shuffle);
- ``perturbed``: the eigenvectors perturbed by a relative Frobenius error ``--noise``
  (default 1e-3), re-orthonormalised, then shuffled (the draw seeds both).

Draws 0-3, ``infer_laplacian(V, rng=0)``. Per row: n, the largest eigenvalue
multiplicity (``mult``), F1, edges found / true, ``family_dimension``, candidates, W when a
warning was raised, CPU seconds (one BLAS thread), whether the graph returned commutes
with the true Laplacian (``comm``: it has the true eigenvectors, relative commutator below
1e-6 for exact input, 30 x noise otherwise; ``bench_audit.commutes``) and a class:

- ``right quiet`` / ``right warned``: the target is met (exact: F1 = 1 on a simple
  spectrum, >= 0.98 otherwise; perturbed >= 0.95), without / with a warning;
- ``wrong, family only``: missed, no warning, but ``family_dimension`` > 1 or several
  candidates;
- ``wrong warned``: missed with a warning;
- ``wrong, complement only``: missed, no warning and no family flag, but the answer's
  complement, connected, has the same eigenvectors (``complement_twin``: a dense
  unweighted graph answered by its sparser complement);
- ``WRONG SILENT``: missed with no flag at all;
- ``crash``: an exception (none is expected: every input is a valid basis);
- ``SLOW`` is added above the time limit of ``bench_audit.time_limit`` (2 s at n <= 200).

After the table: the counts per class and input, and every wrong, slow or crashed row.
``--atlas N`` runs every connected graph of 3 to ``N`` nodes of ``networkx.graph_atlas_g()``
instead (``atlas i``: its index in the atlas). Run from the repository root (one BLAS
thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_wider.py [--only NAME ...]
        [--skip NAME ...] [--input exact perturbed] [--draws 0 1 2 3] [--noise 1e-3]
        [--atlas N] [--list]

Other noise levels (``--noise 1e-4``, ``3e-3``, ``1e-2``, perturbed input) are measured in
docs/measurements/families.md, "The audits at other noise levels; the perturbed wheel's star".
"""

from __future__ import annotations

import argparse
import traceback
import warnings
from collections import Counter

import networkx as nx
import numpy as np
from bench_audit import commutes, time_limit
from bench_inference import _largest_component
from bench_inference_sweep import _from_pygsp, _multiplicity, _relabel, run_one

import gsp_householder
from gsp_householder import fourier_basis

CLASSES = ["crash", "WRONG SILENT", "wrong warned", "wrong, family only",
           "wrong, complement only", "right warned", "right quiet"]


def _pygsp_graph(name, *args, **kwargs):
    import pygsp.graphs as pg

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _from_pygsp(getattr(pg, name)(*args, **kwargs))


def _reweighted(G, seed, kind):
    """``G`` with i.i.d. edge weights: ``uniform`` on [1, 10], ``lognormal0.5`` or
    ``lognormal1`` (mean-zero log, sigma 0.5 or 1), drawn with seed ``500 + seed``."""
    return reweighted_with(G, np.random.default_rng(500 + seed), kind)


def reweighted_with(G, rng, kind):
    """``G`` with i.i.d. edge weights drawn from ``rng`` in edge order (kinds as
    `_reweighted`)."""
    H = nx.Graph()
    H.add_nodes_from(G)
    for u, v in G.edges:
        if kind == "uniform":
            w = rng.uniform(1.0, 10.0)
        else:
            w = rng.lognormal(0.0, 0.5 if kind == "lognormal0.5" else 1.0)
        H.add_edge(u, v, weight=w)
    return H


def selected_graphs(ap, args, graphs):
    """The names of ``graphs`` that ``--only`` and ``--skip`` select (an error for an
    unknown name), or None after printing them all for ``--list``."""
    if args.list:
        print("\n".join(graphs))
        return None
    names = args.only or list(graphs)
    unknown = [g for g in [*names, *args.skip] if g not in graphs]
    if unknown:
        ap.error(f"unknown graphs {unknown}; --list shows them")
    return [g for g in names if g not in args.skip]


def print_summary(summary, classes, bad):
    """The table of class counts per input (``summary[kind][class]``, with ``"SLOW"``),
    then the wrong, slow and crashed rows ``bad``."""
    print("\n| input | runs | " + " | ".join(classes) + " | SLOW |")
    print("|---|---|" + "---|" * (len(classes) + 1))
    for kind, counts in summary.items():
        runs = sum(counts[c] for c in classes)
        print(f"| {kind} | {runs} | " + " | ".join(str(counts[c]) for c in classes)
              + f" | {counts['SLOW']} |")
    if bad:
        print("\nWrong, slow and crashed rows:\n")
        for line in bad:
            print(f"- {line}")


def _lcc(G):
    return _largest_component(nx.Graph(G))


def _sbm_unequal(seed):
    sizes = [12, 30, 48, 70]
    p = [[0.5, 0.03, 0.01, 0.01], [0.03, 0.25, 0.02, 0.01],
         [0.01, 0.02, 0.15, 0.01], [0.01, 0.01, 0.01, 0.09]]
    return _lcc(nx.stochastic_block_model(sizes, p, seed=seed))


def _knn_points(n, k, seed):
    import pygsp.graphs as pg

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _from_pygsp(pg.NNGraph(np.random.default_rng(seed).normal(size=(n, 2)), k=k))


#: The audited graphs: name -> constructor.
GRAPHS = {
    # networkx named graphs
    "frucht": nx.frucht_graph,
    "truncated_tetrahedron": nx.truncated_tetrahedron_graph,
    "hypercube(4)": lambda: nx.hypercube_graph(4),
    "windmill(4, 5)": lambda: nx.windmill_graph(4, 5),
    "turan(13, 4)": lambda: nx.turan_graph(13, 4),
    "triangular T(6) = L(K6)": lambda: nx.line_graph(nx.complete_graph(6)),
    "kneser K(6, 2) complement of L(K6)": lambda: nx.complement(
        nx.line_graph(nx.complete_graph(6))),
    "florentine uniform[1, 10]": lambda: _reweighted(nx.florentine_families_graph(), 1,
                                                      "uniform"),
    "tutte uniform[1, 10]": lambda: _reweighted(nx.tutte_graph(), 2, "uniform"),
    # structured generators with new parameters
    "connected_caveman(6, 5)": lambda: nx.connected_caveman_graph(6, 5),
    "ring_of_cliques(8, 5)": lambda: nx.ring_of_cliques(8, 5),
    "ring_of_cliques(6, 4) lognormal 1": lambda: _reweighted(nx.ring_of_cliques(6, 4), 3,
                                                             "lognormal1"),
    "circular_ladder(23)": lambda: nx.circular_ladder_graph(23),
    "ladder(35)": lambda: nx.ladder_graph(35),
    "ladder(25) lognormal 0.5": lambda: _reweighted(nx.ladder_graph(25), 4, "lognormal0.5"),
    "barbell(7, 4)": lambda: nx.barbell_graph(7, 4),
    "lollipop(9, 20)": lambda: nx.lollipop_graph(9, 20),
    # random generators with new parameters and seeds
    "random_powerlaw_tree(70) s5": lambda: nx.random_powerlaw_tree(70, 3, seed=5, tries=100000),
    "random_powerlaw_tree(50) s6 lognormal 0.5": lambda: _reweighted(
        nx.random_powerlaw_tree(50, 3, seed=6, tries=100000), 6, "lognormal0.5"),
    "powerlaw_cluster(90, 3, 0.3) s21": lambda: nx.powerlaw_cluster_graph(90, 3, 0.3, seed=21),
    "random_partition(10, 20, 30, 40) s22": lambda: _lcc(
        nx.random_partition_graph([10, 20, 30, 40], 0.5, 0.03, seed=22)),
    "G(120, 240) lcc s23": lambda: _lcc(nx.gnm_random_graph(120, 240, seed=23)),
    "G(80, 200) lcc s23 lognormal 1": lambda: _reweighted(
        _lcc(nx.gnm_random_graph(80, 200, seed=23)), 23, "lognormal1"),
    "duplication_divergence(100, 0.4) s24": lambda: nx.duplication_divergence_graph(
        100, 0.4, seed=24),
    "random_internet_as(150) s25": lambda: _lcc(nx.random_internet_as_graph(150, seed=25)),
    "SBM(12, 30, 48, 70) s26": lambda: _sbm_unequal(26),
    "newman_watts_strogatz(100, 6, 0.05) s27": lambda: nx.newman_watts_strogatz_graph(
        100, 6, 0.05, seed=27),
    "SBM(12, 30, 48, 70) s28 uniform[1, 10]": lambda: _reweighted(_sbm_unequal(28), 28, "uniform"),
    "random_regular(3, 150) s31": lambda: nx.random_regular_graph(3, 150, seed=31),
    "random_regular(4, 200) s32": lambda: nx.random_regular_graph(4, 200, seed=32),
    "random_regular(5, 90) s33": lambda: nx.random_regular_graph(5, 90, seed=33),
    "random_regular(6, 120) s34": lambda: nx.random_regular_graph(6, 120, seed=34),
    "random_regular(7, 100) s35": lambda: nx.random_regular_graph(7, 100, seed=35),
    "random_regular(8, 250) s36": lambda: nx.random_regular_graph(8, 250, seed=36),
    "random_regular(4, 60) s37 lognormal 1": lambda: _reweighted(
        nx.random_regular_graph(4, 60, seed=37), 37, "lognormal1"),
    "watts_strogatz(10, 4, 0.3) s38": lambda: nx.connected_watts_strogatz_graph(
        10, 4, 0.3, seed=38),
    "RGG(400, 0.08) s39": lambda: _lcc(nx.random_geometric_graph(400, 0.08, seed=39)),
    "BA(400, 3) s40": lambda: nx.barabasi_albert_graph(400, 3, seed=40),
    # PyGSP graphs with new sizes and seeds
    "PyGSP Community(150) s41": lambda: _pygsp_graph("Community", 150, seed=41),
    "PyGSP DavidSensorNet(128) s42": lambda: _pygsp_graph("DavidSensorNet", 128, seed=42),
    "PyGSP Sensor(120) s43": lambda: _pygsp_graph("Sensor", 120, seed=43),
    "PyGSP Sensor(250) s44": lambda: _pygsp_graph("Sensor", 250, seed=44),
    "PyGSP Comet(60, 12)": lambda: _pygsp_graph("Comet", 60, 12),
    "PyGSP StochasticBlockModel(120, 3) s45": lambda: _pygsp_graph(
        "StochasticBlockModel", 120, k=3, seed=45),
    "PyGSP RandomRegular(100, 5) s46": lambda: _pygsp_graph("RandomRegular", 100, k=5,
                                                            seed=46),
    "PyGSP Torus(7, 9)": lambda: _pygsp_graph("Torus", 7, 9),
    "PyGSP Grid2d(9, 11)": lambda: _pygsp_graph("Grid2d", 9, 11),
    "PyGSP NNGraph(180 gaussian points, k 5) s47": lambda: _knn_points(180, 5, 47),
}


def atlas_graphs(n_max: int) -> dict:
    """The connected graphs of 3 to ``n_max`` (at most 7) nodes of the networkx atlas,
    as ``GRAPHS`` holds them (``atlas i``: index ``i`` in ``networkx.graph_atlas_g()``)."""
    return {f"atlas {i}": (lambda G=G: G) for i, G in enumerate(nx.graph_atlas_g())
            if 3 <= G.number_of_nodes() <= n_max and nx.is_connected(G)}


def classify(kind: str, mult: int, f1: float, res, warned: bool, target=None) -> str:
    """The class of one run (see the module docstring; ``mult``: the spectrum's largest
    multiplicity; ``target``, when given, the F1 a right answer reaches instead of the
    input's)."""
    if target is None:
        target = 0.95 if kind == "perturbed" else (1.0 if mult == 1 else 0.98)
    if f1 >= target - 1e-12:
        return "right warned" if warned else "right quiet"
    if warned:
        return "wrong warned"
    if res.family_dimension > 1 or res.n_candidates > 1:
        return "wrong, family only"
    if getattr(res, "complement_twin", False):
        return "wrong, complement only"
    return "WRONG SILENT"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", nargs="*", default=None, help="graph names (see --list)")
    ap.add_argument("--skip", nargs="*", default=[], help="graph names to leave out")
    ap.add_argument("--input", nargs="*", default=["exact", "perturbed"],
                    choices=["exact", "perturbed"])
    ap.add_argument("--draws", nargs="*", type=int, default=[0, 1, 2, 3])
    ap.add_argument("--noise", type=float, default=1e-3)
    ap.add_argument("--atlas", type=int, default=None, metavar="N",
                    help="every connected graph of 3 to N <= 7 nodes of the networkx atlas")
    ap.add_argument("--list", action="store_true", help="print the graphs and exit")
    args = ap.parse_args()
    graphs = GRAPHS if args.atlas is None else atlas_graphs(args.atlas)
    names = selected_graphs(ap, args, graphs)
    if names is None:
        return
    print(f"gsp_householder from {gsp_householder.__file__}\n")
    print("| graph | n | input | draw | mult | F1 | edges / true | family dim | cands | W | "
          "cpu s | comm | class |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    summary = {kind: Counter() for kind in args.input}
    bad = []
    for name in names:
        B = fourier_basis(_relabel(graphs[name]()))
        mult = _multiplicity(B.eigenvalues)
        true = (B.laplacian.nnz - B.n) // 2
        for kind in args.input:
            for draw in args.draws:
                try:
                    res, cmp, cpu, caught = run_one(B, kind, draw, args.noise)
                except Exception as exc:  # the audit records every failure
                    summary[kind]["crash"] += 1
                    bad.append(f"crash: {name}, {kind}, draw {draw}: "
                               f"{type(exc).__name__}: {str(exc)[:90]}")
                    print(f"| {name} | {B.n} | {kind} | {draw} | {mult} | "
                          f"{type(exc).__name__}: {str(exc)[:60]} | | | | | | | crash |",
                          flush=True)
                    traceback.print_exc()
                    continue
                f1 = cmp["f1"]
                if not np.all(np.isfinite(res.laplacian.data)):
                    f1 = float("nan")
                v = classify(kind, mult, f1, res, bool(caught))
                slow = cpu > time_limit(B.n)
                tol = 1e-6 if kind == "exact" else 30 * args.noise
                comm = "yes" if commutes(B.laplacian, res.laplacian, tol) else "no"
                summary[kind][v] += 1
                summary[kind]["SLOW"] += slow
                label = v + (", SLOW" if slow else "")
                if not v.startswith("right") or slow:
                    bad.append(f"{label}: {name} (n {B.n}, mult {mult}), {kind}, draw {draw}: "
                               f"F1 {f1:.3f}, {cmp['n_edges_hat']} / {true} edges, family "
                               f"{res.family_dimension}, {res.n_candidates} candidates, "
                               f"commutes {comm}, {cpu:.2f} s"
                               + (f", warned: {caught[0]}" if caught else ""))
                print(f"| {name} | {B.n} | {kind} | {draw} | {mult} | {f1:.4f} | "
                      f"{cmp['n_edges_hat']} / {true} | {res.family_dimension} | "
                      f"{res.n_candidates} | {'W' if caught else '-'} | {cpu:.2f} | {comm} | "
                      f"{label} |",
                      flush=True)
    print_summary(summary, CLASSES, bad)


if __name__ == "__main__":
    main()
