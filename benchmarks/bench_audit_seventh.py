"""Seventh held-out audit of order-free Laplacian inference: trees with long legs and
hubs, cycles with chords, theta graphs, necklaces, complements, regular and real graphs
nobody developed on, with string node labels.

Graphs of 18 to 250 nodes that no other benchmark, test or docs table uses, chosen to
reach the tree rules, hub stars, cycle reads, the complement flag and the regular
reading on inputs they were not developed on: caterpillars (a spine with 0-3 leaves per
node) and spiders with long legs, double stars, brooms, random labelled trees with
lognormal, uniform and integer weights, weighted cycles with one or two chords, theta
graphs (two nodes joined by three paths), necklaces of cliques (``ring_of_cliques``)
and windmills with new sizes, ``dorogovtsev_goltsev_mendes_graph(4)`` with lognormal
weights, the hypercubes Q5 (weighted) and Q6 (normalized), circulants with three jumps,
random regular graphs (degrees 3-5) combinatorial and normalized, complements of a
cycle, a path, a tree and a cubic graph, Turán graphs, ``margulis_gabber_galil_graph(5)``
and a Paley graph of 41 nodes, Chvátal, Tutte and Desargues graphs in box products,
Les Misérables unweighted and the Davis women's projection weighted by co-attendance (18
nodes) with their normalized Laplacians, PyGSP ``Bunny``, ``Sphere``, ``Cube``,
``SwissRoll`` and ``DavidSensorNet`` with new sizes, centres and seeds; weights unit,
uniform on [1, 10], lognormal (sigma 0.5 or 1) and integer (1-5), and several with
their normalized Laplacian (``normalized`` in the name). The harness is
``bench_audit_third.py``'s (its ``main``: classes, columns, ``--part``), with the
signals input at (p, theta) = (20n, 0.1) and (20n, 0.5) on the graphs of ``SIGNALS``
(at most 60 nodes) and, with ``--signals-5n``, at (5n, 0.1) on those of ``SIGNALS_5N``
(up to 150 nodes).

``--labels`` runs ``bench_audit_fifth.py``'s label check on these graphs (string labels,
the basis's order shuffled; ``FourierBasis``, shuffled eigenvectors with the labels
passed to ``to_networkx``, and ``learn_graph`` on the graphs of ``SIGNALS`` at both
settings). Run from the repository root (one BLAS thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_seventh.py [--only NAME ...]
        [--skip NAME ...] [--input exact perturbed signals] [--draws 0 1 2]
        [--noise 1e-3] [--part K/N] [--list]
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_seventh.py --signals-5n
        --input signals
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_seventh.py --labels [--only NAME ...]
"""

from __future__ import annotations

import networkx as nx
import numpy as np
from bench_audit import _davis_projection
from bench_audit_fifth import _box, audit_main
from bench_audit_fourth import _simple_lcc
from bench_audit_third import _integer_weights
from bench_audit_wider import _lcc, _pygsp_graph, _reweighted
from bench_inference import _bunny_ball

from gsp_householder import load_graph

#: Seeds of this audit start here (the sixth's ended at 427).
SEED = 501


def _caterpillar(spine: int, seed: int) -> nx.Graph:
    """A path of ``spine`` nodes, each with 0 to 3 leaves (uniform, drawn with
    ``seed``)."""
    rng = np.random.default_rng(seed)
    G = nx.path_graph(spine)
    for v in range(spine):
        for _ in range(int(rng.integers(0, 4))):
            G.add_edge(v, G.number_of_nodes())
    return G


def _spider(legs) -> nx.Graph:
    """A centre joined to paths of the lengths ``legs`` (nodes per leg)."""
    G = nx.Graph()
    G.add_node(0)
    for length in legs:
        prev = 0
        for _ in range(length):
            new = G.number_of_nodes()
            G.add_edge(prev, new)
            prev = new
    return G


def _double_star(a: int, b: int) -> nx.Graph:
    """Two joined hubs with ``a`` and ``b`` leaves."""
    G = nx.Graph([(0, 1)])
    G.add_edges_from((0, 2 + k) for k in range(a))
    G.add_edges_from((1, 2 + a + k) for k in range(b))
    return G


def _broom(handle: int, bristles: int) -> nx.Graph:
    """A path of ``handle`` nodes whose last node has ``bristles`` leaves."""
    G = nx.path_graph(handle)
    G.add_edges_from((handle - 1, handle + k) for k in range(bristles))
    return G


def _cycle_chords(n: int, chords, seed: int, kind: str) -> nx.Graph:
    """The cycle of ``n`` nodes with the ``chords`` (node pairs) added, weighted by
    ``_reweighted(.., seed, kind)``."""
    G = nx.cycle_graph(n)
    G.add_edges_from(chords)
    return _reweighted(G, seed, kind)


def _theta(paths) -> nx.Graph:
    """Two nodes 0 and 1 joined by internally disjoint paths of ``paths`` inner nodes."""
    G = nx.Graph()
    for inner in paths:
        prev = 0
        for _ in range(inner):
            new = max(G.nodes, default=1) + 1
            G.add_edge(prev, new)
            prev = new
        G.add_edge(prev, 1)
    return nx.convert_node_labels_to_integers(G)


def _complement(G: nx.Graph) -> nx.Graph:
    """The complement of ``G``, integer labels."""
    return nx.convert_node_labels_to_integers(nx.complement(G))


def _paley(q: int) -> nx.Graph:
    """The Paley graph of the prime ``q`` = 1 mod 4, undirected."""
    return nx.Graph(nx.paley_graph(q).to_undirected())


def _les_miserables_unit() -> nx.Graph:
    """Les Misérables with unit weights."""
    G = nx.convert_node_labels_to_integers(load_graph("les_miserables"))
    nx.set_edge_attributes(G, 1.0, "weight")
    return G


#: The audited graphs: name -> constructor (none of them used by another benchmark).
GRAPHS = {
    # trees: long legs, hubs, weights
    "caterpillar(30) s501": lambda: _caterpillar(30, 501),
    "caterpillar(60) s502 lognormal 1": lambda: _reweighted(
        _caterpillar(60, 502), 502, "lognormal1"
    ),
    "spider(8 legs of 9)": lambda: _spider([9] * 8),
    "spider(legs 30, 40, 50) lognormal 0.5": lambda: _reweighted(
        _spider([30, 40, 50]), 503, "lognormal0.5"
    ),
    "double_star(15, 20)": lambda: _double_star(15, 20),
    "double_star(30, 45) uniform[1, 10]": lambda: _reweighted(_double_star(30, 45), 504, "uniform"),
    "broom(40, 25)": lambda: _broom(40, 25),
    "broom(20, 60) integer[1, 5]": lambda: _integer_weights(_broom(20, 60), 505),
    "random_labeled_tree(150) s506 lognormal 1": lambda: _reweighted(
        nx.random_labeled_tree(150, seed=506), 506, "lognormal1"
    ),
    "random_labeled_tree(230) s507 lognormal 0.5": lambda: _reweighted(
        nx.random_labeled_tree(230, seed=507), 507, "lognormal0.5"
    ),
    "random_labeled_tree(80) s508 integer[1, 5] normalized": lambda: _integer_weights(
        nx.random_labeled_tree(80, seed=508), 508
    ),
    "caterpillar(24) s509 normalized": lambda: _caterpillar(24, 509),
    # cycles with chords, theta graphs, necklaces, windmills
    "cycle(60) + chord uniform[1, 10] s510": lambda: _cycle_chords(60, [(0, 30)], 510, "uniform"),
    "cycle(90) + 2 chords lognormal 0.5 s511": lambda: _cycle_chords(
        90, [(0, 40), (20, 70)], 511, "lognormal0.5"
    ),
    "cycle(40) + chord unit": lambda: nx.Graph([*nx.cycle_graph(40).edges, (0, 13)]),
    "theta(12, 18, 24)": lambda: _theta([12, 18, 24]),
    "theta(30, 30, 40) uniform[1, 10] s512": lambda: _reweighted(
        _theta([30, 30, 40]), 512, "uniform"
    ),
    "ring_of_cliques(12, 5)": lambda: nx.ring_of_cliques(12, 5),
    "ring_of_cliques(7, 8) lognormal 0.5 s513": lambda: _reweighted(
        nx.ring_of_cliques(7, 8), 513, "lognormal0.5"
    ),
    "windmill(6, 6)": lambda: nx.windmill_graph(6, 6),
    "windmill(3, 12) integer[1, 5]": lambda: _integer_weights(nx.windmill_graph(3, 12), 514),
    "dorogovtsev_goltsev_mendes(4) lognormal 0.5 s515": lambda: _reweighted(
        nx.dorogovtsev_goltsev_mendes_graph(4), 515, "lognormal0.5"
    ),
    # regular and symmetric
    "hypercube(5) lognormal 0.5 s516": lambda: _reweighted(
        nx.convert_node_labels_to_integers(nx.hypercube_graph(5)), 516, "lognormal0.5"
    ),
    "hypercube(6) normalized": lambda: nx.convert_node_labels_to_integers(nx.hypercube_graph(6)),
    "circulant(80, [1, 5, 12])": lambda: nx.circulant_graph(80, [1, 5, 12]),
    "circulant(120, [2, 7, 19]) integer[1, 5]": lambda: _integer_weights(
        nx.circulant_graph(120, [2, 7, 19]), 517
    ),
    "random_regular(3, 100) s518": lambda: nx.random_regular_graph(3, 100, seed=518),
    "random_regular(4, 70) s519 normalized": lambda: nx.random_regular_graph(4, 70, seed=519),
    "random_regular(5, 40) s520 normalized": lambda: nx.random_regular_graph(5, 40, seed=520),
    "turan(24, 3)": lambda: nx.turan_graph(24, 3),
    "turan(30, 7) normalized": lambda: nx.turan_graph(30, 7),
    "margulis_gabber_galil(5) simple": lambda: _simple_lcc(nx.margulis_gabber_galil_graph(5)),
    "paley(41)": lambda: _paley(41),
    "chvatal box cycle(3)": lambda: _box(nx.chvatal_graph(), nx.cycle_graph(3)),
    "tutte box path(2)": lambda: _box(nx.tutte_graph(), nx.path_graph(2)),
    "desargues box path(3) normalized": lambda: _box(nx.desargues_graph(), nx.path_graph(3)),
    # complements of sparse graphs
    "complement of cycle(30)": lambda: _complement(nx.cycle_graph(30)),
    "complement of path(26) normalized": lambda: _complement(nx.path_graph(26)),
    "complement of random_labeled_tree(24) s521": lambda: _complement(
        nx.random_labeled_tree(24, seed=521)
    ),
    "complement of random_regular(3, 32) s522": lambda: _complement(
        nx.random_regular_graph(3, 32, seed=522)
    ),
    # real graphs and PyGSP clouds, new versions
    "les_miserables unit normalized": _les_miserables_unit,
    "davis women co-attendance normalized": lambda: _davis_projection("women"),
    "PyGSP Bunny ball 120 s523": lambda: _bunny_ball(120, 523),
    "PyGSP Sphere(60) s524": lambda: _pygsp_graph("Sphere", nb_pts=60, seed=524),
    "PyGSP Cube(80) s525 normalized": lambda: _pygsp_graph("Cube", nb_pts=80, seed=525),
    "PyGSP SwissRoll(150) s526": lambda: _lcc(_pygsp_graph("SwissRoll", 150, seed=526)),
    "PyGSP DavidSensorNet(64) s527 lognormal 0.5": lambda: _reweighted(
        _pygsp_graph("DavidSensorNet", 64, seed=527), 527, "lognormal0.5"
    ),
}
#: The graphs whose normalized Laplacian is audited (basis and inference).
LAPLACIANS = {name: "normalized" for name in GRAPHS if name.endswith(" normalized")}
#: Graphs learned from signals at ``SIGNAL_SETTINGS`` (at most 60 nodes).
SIGNALS = [
    "double_star(15, 20)",
    "theta(12, 18, 24)",
    "windmill(6, 6)",
    "caterpillar(24) s509 normalized",
    "complement of cycle(30)",
    "davis women co-attendance normalized",
]
SIGNAL_SETTINGS = [(20, 0.1), (20, 0.5)]
#: Graphs learned from signals at (5n, 0.1) with ``--signals-5n`` (up to 150 nodes).
SIGNALS_5N = [
    "caterpillar(30) s501",
    "cycle(60) + chord uniform[1, 10] s510",
    "ring_of_cliques(12, 5)",
    "random_regular(3, 100) s518",
    "PyGSP SwissRoll(150) s526",
]


if __name__ == "__main__":
    audit_main(GRAPHS, SIGNALS, SIGNAL_SETTINGS, __doc__, LAPLACIANS, SEED, SIGNALS_5N)
