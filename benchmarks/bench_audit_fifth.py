"""Fifth held-out audit of order-free Laplacian inference: lattices, named families,
community benchmarks and point clouds nobody developed on, with string node labels.

Graphs of 30 to 250 nodes that no other benchmark, test or docs table uses: networkx
lattices and named families (triangular and hexagonal lattices, the
Dorogovtsev-Goltsev-Mendes graph, generalized Petersen graphs and an odd (Kneser)
graph built here, windmills, connected caveman graphs, rings of cliques, a
Margulis-Gabber-Galil expander, the Chvátal and truncated tetrahedron graphs boxed with
a path), random generators with new parameters and seeds (lobsters, power-law trees,
random partitions, a stochastic block model with weights, an LFR benchmark graph,
random clustered graphs, a random spanning tree of a grid, dense G(n, m), a spectral
graph forge of a caveman graph, duplication-divergence and ego graphs), PyGSP point
clouds no benchmark builds (``TwoMoons``, ``Sphere``) and balls of Airfoil, Logo and
Bunny with new sizes and centres; weighted versions (uniform on [1, 10], lognormal
sigma 0.5 or 1), and several with their normalized Laplacian (``normalized`` in the
name). The harness is ``bench_audit_third.py``'s (its ``main``: classes, columns,
``--part``), with the signals input at (p, theta) = (5n, 0.1) on the graphs of
``SIGNALS``.

``--labels`` runs the label check instead: every graph with string node labels (its
basis's order of them shuffled), ``infer_laplacian`` of its ``FourierBasis`` and of
the shuffled, sign-flipped eigenvectors with the labels passed to ``to_networkx``, and
on the graphs of ``SIGNALS`` ``learn_graph`` of ``make_graph_signals`` (p = 5n,
theta = 0.1): the exported graph must have exactly the graph's labels and its edges
are compared by label (``labels ok`` or what was lost). Run from the repository root
(one BLAS thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_fifth.py [--only NAME ...]
        [--skip NAME ...] [--input exact perturbed signals] [--draws 0 1 2]
        [--noise 1e-3] [--part K/N] [--list]
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_fifth.py --labels [--only NAME ...]
"""

from __future__ import annotations

import itertools
import sys
import time
import warnings

import networkx as nx
import numpy as np
from bench_audit_fourth import _logo_ball, _simple_lcc
from bench_audit_third import main
from bench_audit_wider import _lcc, _pygsp_graph, _reweighted
from bench_inference import _airfoil_ball, _bunny_ball

#: Seeds of this audit start here (the fourth's ended at 235).
SEED = 301


def _box(G, H):
    """The box (cartesian) product of ``G`` and ``H``, nodes relabelled 0..|G||H|-1."""
    index = {p: k for k, p in enumerate(itertools.product(G, H))}
    P = nx.Graph()
    P.add_nodes_from(index.values())
    P.add_edges_from((index[(u, h)], index[(v, h)]) for u, v in G.edges for h in H)
    P.add_edges_from((index[(g, a)], index[(g, b)]) for a, b in H.edges for g in G)
    return P


def _generalized_petersen(n, k):
    """The generalized Petersen graph GP(n, k): an outer n-cycle, an inner star polygon
    of step k, and spokes."""
    G = nx.cycle_graph(n)
    G.add_edges_from((n + i, n + (i + k) % n) for i in range(n))
    G.add_edges_from((i, n + i) for i in range(n))
    return G


def _kneser(n, k):
    """The Kneser graph K(n, k): the k-subsets of {0..n-1}, joined when disjoint."""
    sets = [frozenset(s) for s in itertools.combinations(range(n), k)]
    G = nx.Graph()
    G.add_nodes_from(range(len(sets)))
    G.add_edges_from(
        (i, j) for i, j in itertools.combinations(range(len(sets)), 2) if not sets[i] & sets[j]
    )
    return G


def _lfr(n, seed):
    """A small LFR benchmark graph (exponents 3 and 1.5, mixing 0.1, mean degree 5)."""
    G = nx.LFR_benchmark_graph(
        n, 3, 1.5, 0.1, average_degree=5, min_community=20, max_iters=500, seed=seed
    )
    return _simple_lcc(G)


def _random_clustered(n, seed):
    """``networkx.random_clustered_graph`` of ``n`` nodes with 1-2 free edges and 1-2
    triangles each (triangle counts summed to a multiple of 3), made simple."""
    rng = np.random.default_rng(seed)
    free = rng.integers(1, 3, n)
    tri = rng.integers(1, 3, n)
    free[-1] += free.sum() % 2
    tri[-1] += (-tri.sum()) % 3
    return _simple_lcc(
        nx.random_clustered_graph(list(zip(free.tolist(), tri.tolist(), strict=True)), seed=seed)
    )


def _spanning_tree(rows, cols, seed):
    """A uniformly random spanning tree of the rows x cols grid."""
    return nx.convert_node_labels_to_integers(
        nx.random_spanning_tree(nx.grid_2d_graph(rows, cols), seed=seed)
    )


def _sbm_weighted(seed):
    """A stochastic block model with blocks 25 / 35 / 45, lognormal (sigma 1) weights."""
    p = [[0.3, 0.02, 0.01], [0.02, 0.2, 0.02], [0.01, 0.02, 0.15]]
    return _reweighted(
        _lcc(nx.stochastic_block_model([25, 35, 45], p, seed=seed)), seed, "lognormal1"
    )


def _ego(seed):
    """The ego graph of the highest-degree node of a power-law cluster graph of 400 nodes:
    radius 2, or 1 when radius 2 holds more than 250 nodes."""
    G = nx.powerlaw_cluster_graph(400, 2, 0.3, seed=seed)
    hub = max(G, key=G.degree)
    return (
        nx.ego_graph(G, hub, radius=2)
        if len(nx.ego_graph(G, hub, 2)) <= 250
        else nx.ego_graph(G, hub, 1)
    )


#: The audited graphs: name -> constructor (none of them used by another benchmark).
GRAPHS = {
    # lattices and named families
    "triangular_lattice(5, 12)": lambda: nx.convert_node_labels_to_integers(
        nx.triangular_lattice_graph(5, 12)
    ),
    "hexagonal_lattice(4, 6)": lambda: nx.convert_node_labels_to_integers(
        nx.hexagonal_lattice_graph(4, 6)
    ),
    "dorogovtsev_goltsev_mendes(5)": lambda: nx.dorogovtsev_goltsev_mendes_graph(5),
    "generalized_petersen(20, 3)": lambda: _generalized_petersen(20, 3),
    "generalized_petersen(25, 7)": lambda: _generalized_petersen(25, 7),
    "odd graph kneser(7, 3)": lambda: _kneser(7, 3),
    "windmill(5, 8)": lambda: nx.windmill_graph(5, 8),
    "connected_caveman(7, 6)": lambda: nx.connected_caveman_graph(7, 6),
    "ring_of_cliques(10, 4)": lambda: nx.ring_of_cliques(10, 4),
    "margulis_gabber_galil(7) simple": lambda: _simple_lcc(nx.margulis_gabber_galil_graph(7)),
    "chvatal box path(4)": lambda: _box(nx.chvatal_graph(), nx.path_graph(4)),
    "truncated_tetrahedron box path(5)": lambda: _box(
        nx.truncated_tetrahedron_graph(), nx.path_graph(5)
    ),
    # random generators, new parameters and seeds
    "random_lobster(40, 0.7, 0.5) s301 lcc": lambda: _lcc(
        nx.random_lobster(40, 0.7, 0.5, seed=301)
    ),
    "random_powerlaw_tree(90, 3) s302": lambda: nx.random_powerlaw_tree(
        90, 3, seed=302, tries=10000
    ),
    "random_partition(30, 40, 50) s303 lcc": lambda: _lcc(
        nx.random_partition_graph([30, 40, 50], 0.25, 0.02, seed=303)
    ),
    "LFR(150) s304 lcc": lambda: _lfr(150, 304),
    "random_clustered(80) s305 simple lcc": lambda: _random_clustered(80, 305),
    "random_spanning_tree(grid 8 x 10) s306": lambda: _spanning_tree(8, 10, 306),
    "dense_gnm(60, 400) s307": lambda: nx.dense_gnm_random_graph(60, 400, seed=307),
    "spectral_graph_forge(connected_caveman(6, 6), 0.8) s308 lcc": lambda: _lcc(
        nx.spectral_graph_forge(nx.connected_caveman_graph(6, 6), 0.8, seed=308)
    ),
    "duplication_divergence(120, 0.35) s309": lambda: nx.duplication_divergence_graph(
        120, 0.35, seed=309
    ),
    "ego(powerlaw_cluster(400, 2, 0.3)) s310": lambda: _ego(310),
    # weighted versions
    "triangular_lattice(5, 10) uniform[1, 10]": lambda: _reweighted(
        nx.convert_node_labels_to_integers(nx.triangular_lattice_graph(5, 10)), 311, "uniform"
    ),
    "windmill(4, 10) lognormal 0.5": lambda: _reweighted(
        nx.windmill_graph(4, 10), 312, "lognormal0.5"
    ),
    "SBM(25, 35, 45) s313 lognormal 1": lambda: _sbm_weighted(313),
    "random_lobster(60, 0.6, 0.5) s314 lcc uniform[1, 10]": lambda: _reweighted(
        _lcc(nx.random_lobster(60, 0.6, 0.5, seed=314)), 314, "uniform"
    ),
    "ring_of_cliques(6, 6) uniform[1, 10]": lambda: _reweighted(
        nx.ring_of_cliques(6, 6), 315, "uniform"
    ),
    "generalized_petersen(16, 5) lognormal 1": lambda: _reweighted(
        _generalized_petersen(16, 5), 316, "lognormal1"
    ),
    # PyGSP point clouds no benchmark builds, balls with new sizes and centres
    "PyGSP TwoMoons(synthesized, 2 x 60) s317": lambda: _pygsp_graph(
        "TwoMoons", moontype="synthesized", N=60, seed=317
    ),
    "PyGSP Sphere(150) s318": lambda: _pygsp_graph("Sphere", nb_pts=150, seed=318),
    "PyGSP Airfoil ball 130 s319": lambda: _airfoil_ball(130, 319),
    "PyGSP Logo ball 240 s320": lambda: _logo_ball(240, 320),
    "PyGSP Bunny ball 200 s321": lambda: _bunny_ball(200, 321),
    # normalized Laplacians
    "hexagonal_lattice(3, 5) normalized": lambda: nx.convert_node_labels_to_integers(
        nx.hexagonal_lattice_graph(3, 5)
    ),
    "connected_caveman(5, 7) normalized": lambda: nx.connected_caveman_graph(5, 7),
    "random_lobster(45, 0.6, 0.4) s322 lcc normalized": lambda: _lcc(
        nx.random_lobster(45, 0.6, 0.4, seed=322)
    ),
    "random_powerlaw_tree(70, 3) s323 uniform[1, 10] normalized": lambda: _reweighted(
        nx.random_powerlaw_tree(70, 3, seed=323, tries=10000), 323, "uniform"
    ),
    "SBM(20, 30, 40) s324 lognormal 0.5 normalized": lambda: _reweighted(
        _lcc(
            nx.stochastic_block_model(
                [20, 30, 40], [[0.35, 0.03, 0.02], [0.03, 0.25, 0.03], [0.02, 0.03, 0.2]], seed=324
            )
        ),
        324,
        "lognormal0.5",
    ),
    "dorogovtsev_goltsev_mendes(4) normalized": lambda: nx.dorogovtsev_goltsev_mendes_graph(4),
    "PyGSP Sphere(100) s325 normalized": lambda: _pygsp_graph("Sphere", nb_pts=100, seed=325),
}
#: The graphs whose normalized Laplacian is audited (basis and inference).
LAPLACIANS = {name: "normalized" for name in GRAPHS if name.endswith(" normalized")}
#: Graphs learned from signals, at p = 5n, theta = 0.1 (at most 120 nodes).
SIGNALS = [
    "generalized_petersen(25, 7)",
    "random_powerlaw_tree(90, 3) s302",
    "windmill(4, 10) lognormal 0.5",
    "random_clustered(80) s305 simple lcc",
    "SBM(25, 35, 45) s313 lognormal 1",
]
SIGNAL_SETTINGS = [(5, 0.1)]


def stringed(G, seed: int = 0) -> nx.Graph:
    """``G`` with string node labels (``"v<node>-<letters>"``), its node order shuffled."""
    rng = np.random.default_rng(seed)
    letters = "abcdefghijklmnopqrstuvwxyz"
    names = {v: f"v{v}-" + "".join(rng.choice(list(letters), 3)) for v in G}
    order = rng.permutation(len(names))
    nodes = list(G)
    H = nx.Graph()
    H.add_nodes_from(names[nodes[k]] for k in order)
    H.add_edges_from((names[u], names[v], d) for u, v, d in G.edges(data=True))
    return H


def label_report(G: nx.Graph, exported: nx.Graph) -> tuple[str, float]:
    """Whether ``exported`` has exactly the nodes of ``G`` (``labels ok`` or what was
    lost or added), and the F1 of its edges against ``G``'s, compared by label."""
    lost = set(G) - set(exported)
    added = set(exported) - set(G)
    if lost or added:
        return f"labels lost {len(lost)}, added {len(added)}", float("nan")
    true = {frozenset(e) for e in G.edges}
    found = {frozenset(e) for e in exported.edges}
    both = len(true & found)
    f1 = 2 * both / (len(true) + len(found)) if true or found else 1.0
    return "labels ok", f1


def label_runs(
    name: str,
    laplacian: str | None,
    signals: bool,
    graphs: dict | None = None,
    settings=((5, 0.1),),
    seed: int = SEED,
):
    """The label check of one graph of ``graphs`` (default this audit's), its labels
    drawn with ``seed``: (input, labels, F1 by label, CPU s) per run, with
    ``learn_graph`` at each (signals per node, theta) of ``settings`` when ``signals``."""
    from bench_inference_sweep import _shuffle

    from gsp_householder import (
        BernoulliUniform,
        fourier_basis,
        infer_laplacian,
        learn_graph,
        make_graph_signals,
    )

    G = stringed((graphs or GRAPHS)[name](), seed)
    B = fourier_basis(G, laplacian)
    out = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = time.process_time()
        res = infer_laplacian(B, rng=0)
        out.append(("FourierBasis", *label_report(G, res.to_networkx()), time.process_time() - c))
        c = time.process_time()
        V = _shuffle(B.eigenvectors, np.random.default_rng(0))
        res = infer_laplacian(V, rng=0, laplacian=laplacian)
        out.append(
            (
                "shuffled + nodelist",
                *label_report(G, res.to_networkx(B.nodelist)),
                time.process_time() - c,
            )
        )
        for per_node, theta in settings if signals else ():
            c = time.process_time()
            Y = make_graph_signals(
                G, per_node * B.n, BernoulliUniform(theta), rng=0, laplacian=laplacian
            )
            res = learn_graph(Y, rng=0, progress=False, laplacian=laplacian or "combinatorial")
            out.append(
                (
                    f"signals {per_node}n, theta {theta}",
                    *label_report(G, res.to_networkx()),
                    time.process_time() - c,
                )
            )
    return out


def labels_main(argv, graphs=None, laplacians=None, signals=None, settings=((5, 0.1),), seed=SEED):
    """The label check from the command line (``--labels [--only NAME ...]``) on
    ``graphs``, ``laplacians`` and ``signals`` (default this audit's), learning at each
    (signals per node, theta) of ``settings``, labels drawn with ``seed``."""
    graphs = graphs or GRAPHS
    laplacians = LAPLACIANS if laplacians is None else laplacians
    signals = SIGNALS if signals is None else signals
    names = list(graphs)
    if "--only" in argv:
        names = argv[argv.index("--only") + 1 :]
    print("| graph | input | labels | F1 by label | cpu s |")
    print("|---|---|---|---|---|")
    for name in names:
        runs = label_runs(name, laplacians.get(name), name in signals, graphs, settings, seed)
        for kind, labels, f1, cpu in runs:
            print(f"| {name} | {kind} | {labels} | {f1:.4f} | {cpu:.2f} |", flush=True)


def audit_main(graphs, signals, settings, doc, laplacians, seed, signals_5n=None) -> None:
    """An audit from the command line: the label check (``--labels [--only NAME ...]``,
    ``labels_main``) or the audit itself (``bench_audit_third.main``) of ``graphs``,
    ``signals`` learned at each (signals per node, theta) of ``settings``, ``doc`` its
    description, ``laplacians`` the graphs' Laplacians, labels drawn with ``seed``; with
    ``--signals-5n``, the audit learns the graphs of ``signals_5n`` at (5n, 0.1)
    instead."""
    if "--labels" in sys.argv:
        labels_main(
            sys.argv[sys.argv.index("--labels") + 1 :], graphs, laplacians, signals, settings, seed
        )
    elif signals_5n is not None and "--signals-5n" in sys.argv:
        sys.argv.remove("--signals-5n")
        main(graphs, signals_5n, [(5, 0.1)], doc, laplacians)
    else:
        main(graphs, signals, settings, doc, laplacians)


if __name__ == "__main__":
    audit_main(GRAPHS, SIGNALS, SIGNAL_SETTINGS, __doc__, LAPLACIANS, SEED)
