"""Fourth held-out audit of order-free Laplacian inference: generators and products nobody
developed on.

Graphs of 20 to 250 nodes that no other benchmark, test or docs table uses: networkx
generators no benchmark calls (random kernel graphs, navigable small worlds, a lattice
reference rewiring, configuration and expected-degree models, Havel-Hakimi and random
degree-sequence graphs, random shells, scale-free, GN / GNR / GNC growing networks,
partial duplication, random k-out, uniform and k random intersection graphs, random
regular expanders, a visibility graph, random unlabeled trees, prefix trees, the
Mycielskian of a cycle, the line graph of a random graph), graph products (cartesian,
tensor, strong, lexicographic, rooted and corona), PyGSP graphs no benchmark builds
(``Cube`` in 3-D and 2-D, ``LineGraph`` of a sensor graph, ``Ring`` with k = 3
and lognormal weights), balls of Airfoil, Logo and Minnesota with new sizes and
centres, weighted versions (uniform on [1, 10], lognormal sigma 0.5 or 1) of several,
and a few of them with their normalized Laplacian (``normalized`` in the name: basis
and inference of ``laplacian="normalized"``). The harness is ``bench_audit_third.py``'s
(its ``main``: classes, columns, ``--part``), with the signals input at (p, theta) =
(5n, 0.1) only, on the graphs of ``SIGNALS``. Run from the repository root (one BLAS
thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_fourth.py [--only NAME ...]
        [--skip NAME ...] [--input exact perturbed signals] [--draws 0 1 2]
        [--noise 1e-3] [--part K/N] [--list]
"""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
from bench_audit_third import main
from bench_audit_wider import _lcc, _pygsp_graph, _reweighted
from bench_inference import _airfoil_ball, _minnesota_ball
from bench_inference_sweep import _from_pygsp


def _simple_lcc(G):
    """The largest component of ``G`` as a simple undirected graph (directions, parallel
    edges and self-loops dropped)."""
    H = nx.Graph(G.to_undirected() if G.is_directed() else G)
    H.remove_edges_from(list(nx.selfloop_edges(H)))
    return _lcc(H)


def _kernel_graph(n, c, seed):
    """``networkx.random_kernel_graph`` with the kernel c (a G(n, c / n) graph)."""

    def integral(u, w, z):
        return c * (z - w)

    def root(u, w, r):
        return r / c + w

    return _lcc(nx.random_kernel_graph(n, integral, root, seed=seed))


def _powerlaw_degrees(n, gamma, seed):
    """A graphical degree sequence of ``n`` power-law degrees (at least 1, at most n/4)."""
    rng = np.random.default_rng(seed)
    while True:
        d = np.clip(np.round(rng.pareto(gamma - 1, n) + 1), 1, n // 4).astype(int)
        if nx.is_graphical(d.tolist()):
            return d.tolist()


def _even_degrees(n, low, high, seed):
    """``n`` i.i.d. degrees uniform on {low, ..., high}, the last raised by one if their
    sum is odd."""
    d = np.random.default_rng(seed).integers(low, high + 1, n)
    d[-1] += d.sum() % 2
    return d.tolist()


def _visibility(n, seed):
    """The natural visibility graph of a random walk of ``n`` steps."""
    series = np.cumsum(np.random.default_rng(seed).standard_normal(n))
    return nx.visibility_graph(series.tolist())


def _prefix_tree(n_words, seed):
    """The prefix tree of ``n_words`` random words over {a, b, c} of 3 to 7 letters (root
    kept, the end marker dropped)."""
    rng = np.random.default_rng(seed)
    words = ["".join(rng.choice(list("abc"), rng.integers(3, 8))) for _ in range(n_words)]
    T = nx.prefix_tree(words)
    T.remove_node(-1)
    return _simple_lcc(T)


def _lattice_reference(seed):
    """``networkx.lattice_reference`` (two rewirings per edge) of a Watts-Strogatz graph."""
    G = nx.connected_watts_strogatz_graph(80, 6, 0.3, seed=seed)
    return nx.lattice_reference(G, niter=2, seed=seed)


def _pygsp_line_graph(n, seed):
    """PyGSP's (binary) line graph of ``Sensor(n, seed=seed)``."""
    import pygsp.graphs as pg

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _from_pygsp(pg.LineGraph(pg.Sensor(n, seed=seed)))


def _logo_ball(n, seed):
    from bench_audit_third import _logo_ball as ball

    return ball(n, seed)


#: The audited graphs: name -> constructor (none of them used by another benchmark).
GRAPHS = {
    # networkx generators no benchmark calls
    "random_kernel(140, c 3) s201 lcc": lambda: _kernel_graph(140, 3.0, 201),
    "navigable_small_world(9, r 2) s202 simple": lambda: _simple_lcc(
        nx.navigable_small_world_graph(9, p=1, q=1, r=2, dim=2, seed=202)
    ),
    "lattice_reference(ws(80, 6, 0.3)) s203": lambda: _lattice_reference(203),
    "configuration_model(powerlaw 150) s204 simple lcc": lambda: _simple_lcc(
        nx.configuration_model(_powerlaw_degrees(150, 2.5, 204), seed=204)
    ),
    "expected_degree(160) s205 lcc": lambda: _lcc(
        nx.expected_degree_graph(
            np.random.default_rng(205).uniform(1.5, 8, 160).tolist(), seed=205, selfloops=False
        )
    ),
    "havel_hakimi(degrees 2-8, 90) s206 lcc": lambda: _lcc(
        nx.havel_hakimi_graph(_even_degrees(90, 2, 8, 206))
    ),
    "random_degree_sequence(3^40 5^20 2^20) s207 lcc": lambda: _lcc(
        nx.random_degree_sequence_graph([3] * 40 + [5] * 20 + [2] * 20, seed=207, tries=100)
    ),
    "random_shell(30, 50, 70) s208 lcc": lambda: _lcc(
        nx.random_shell_graph([(30, 70, 0.8), (50, 120, 0.8), (70, 160, 0.8)], seed=208)
    ),
    "scale_free(140) s209 simple": lambda: _simple_lcc(nx.scale_free_graph(140, seed=209)),
    "gn(100) s210 tree": lambda: _simple_lcc(nx.gn_graph(100, seed=210)),
    "gnr(120, 0.4) s211 tree": lambda: _simple_lcc(nx.gnr_graph(120, 0.4, seed=211)),
    "gnc(70) s212 simple": lambda: _simple_lcc(nx.gnc_graph(70, seed=212)),
    "partial_duplication(110, 8, 0.6, 0.25) s213 lcc": lambda: _lcc(
        nx.partial_duplication_graph(110, 8, 0.6, 0.25, seed=213)
    ),
    "random_k_out(90, 2, 1) s214 simple": lambda: _simple_lcc(
        nx.random_k_out_graph(90, 2, 1.0, self_loops=False, seed=214)
    ),
    "uniform_random_intersection(100, 60, 0.06) s215 lcc": lambda: _lcc(
        nx.uniform_random_intersection_graph(100, 60, 0.06, seed=215)
    ),
    "k_random_intersection(90, 150, 3) s216 lcc": lambda: _lcc(
        nx.k_random_intersection_graph(90, 150, 3, seed=216)
    ),
    "random_regular_expander(80, 6) s217": lambda: nx.random_regular_expander_graph(
        80, 6, seed=217
    ),
    "visibility(random walk 120) s218": lambda: _visibility(120, 218),
    "random_unlabeled_tree(90) s219": lambda: nx.random_unlabeled_tree(90, seed=219),
    "prefix_tree(40 words) s220": lambda: _prefix_tree(40, 220),
    "mycielskian(cycle(11))": lambda: nx.mycielskian(nx.cycle_graph(11)),
    "line_graph(G(30, 50) s221 lcc)": lambda: _lcc(
        nx.line_graph(_lcc(nx.gnm_random_graph(30, 50, seed=221)))
    ),
    # graph products
    "cartesian_product(star(4), cycle(9))": lambda: nx.cartesian_product(
        nx.star_graph(4), nx.cycle_graph(9)
    ),
    "tensor_product(path(8), cycle(7))": lambda: nx.tensor_product(
        nx.path_graph(8), nx.cycle_graph(7)
    ),
    "strong_product(path(6), cycle(8))": lambda: nx.strong_product(
        nx.path_graph(6), nx.cycle_graph(8)
    ),
    "lexicographic_product(cycle(9), path(3))": lambda: nx.lexicographic_product(
        nx.cycle_graph(9), nx.path_graph(3)
    ),
    "rooted_product(cycle(12), star(3))": lambda: nx.rooted_product(
        nx.cycle_graph(12), nx.star_graph(3), 0
    ),
    "corona_product(cycle(10), path(3))": lambda: nx.corona_product(
        nx.cycle_graph(10), nx.path_graph(3)
    ),
    # weighted versions
    "gnr(90, 0.2) s222 tree uniform[1, 10]": lambda: _reweighted(
        _simple_lcc(nx.gnr_graph(90, 0.2, seed=222)), 222, "uniform"
    ),
    "strong_product(path(5), path(7)) lognormal 1": lambda: _reweighted(
        nx.strong_product(nx.path_graph(5), nx.path_graph(7)), 223, "lognormal1"
    ),
    "expected_degree(120) s224 lcc uniform[1, 10]": lambda: _reweighted(
        _lcc(
            nx.expected_degree_graph(
                np.random.default_rng(224).uniform(2, 6, 120).tolist(), seed=224, selfloops=False
            )
        ),
        224,
        "uniform",
    ),
    "random_k_out(70, 3, 1) s225 simple lognormal 0.5": lambda: _reweighted(
        _simple_lcc(nx.random_k_out_graph(70, 3, 1.0, self_loops=False, seed=225)),
        225,
        "lognormal0.5",
    ),
    # PyGSP graphs no benchmark builds, and balls with new sizes and centres
    "PyGSP Cube(150) s226": lambda: _pygsp_graph("Cube", nb_pts=150, seed=226),
    "PyGSP Cube(100, 2-D) s227": lambda: _pygsp_graph("Cube", nb_pts=100, nb_dim=2, seed=227),
    "PyGSP LineGraph(Sensor(40) s228)": lambda: _pygsp_line_graph(40, 228),
    "PyGSP Ring(60, k 3) lognormal 0.5": lambda: _reweighted(
        _pygsp_graph("Ring", 60, k=3), 229, "lognormal0.5"
    ),
    "PyGSP Airfoil ball 220 s230": lambda: _airfoil_ball(220, 230),
    "PyGSP Logo ball 110 s235": lambda: _logo_ball(110, 235),
    "minnesota ball 240 s231": lambda: _minnesota_ball(240, 231),
    # normalized Laplacians
    "random_unlabeled_tree(60) s232 normalized": lambda: nx.random_unlabeled_tree(60, seed=232),
    "strong_product(path(4), cycle(7)) normalized": lambda: nx.strong_product(
        nx.path_graph(4), nx.cycle_graph(7)
    ),
    "random_k_out(50, 2, 1) s233 simple normalized": lambda: _simple_lcc(
        nx.random_k_out_graph(50, 2, 1.0, self_loops=False, seed=233)
    ),
    "expected_degree(80) s234 lcc uniform[1, 10] normalized": lambda: _reweighted(
        _lcc(
            nx.expected_degree_graph(
                np.random.default_rng(234).uniform(2, 6, 80).tolist(), seed=234, selfloops=False
            )
        ),
        234,
        "uniform",
    ),
}
#: The graphs whose normalized Laplacian is audited (basis and inference).
LAPLACIANS = {name: "normalized" for name in GRAPHS if name.endswith(" normalized")}
#: Graphs learned from signals, at p = 5n, theta = 0.1.
SIGNALS = [
    "navigable_small_world(9, r 2) s202 simple",
    "gn(100) s210 tree",
    "random_k_out(70, 3, 1) s225 simple lognormal 0.5",
    "tensor_product(path(8), cycle(7))",
    "gnc(70) s212 simple",
]
SIGNAL_SETTINGS = [(5, 0.1)]


if __name__ == "__main__":
    main(GRAPHS, SIGNALS, SIGNAL_SETTINGS, __doc__, LAPLACIANS)
