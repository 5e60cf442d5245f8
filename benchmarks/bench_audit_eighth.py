"""Eighth held-out audit of order-free Laplacian inference: near-stars, full trees,
weighted rings with chords, ladders and prisms, box products with cycles, lattices and
grids of new sizes, and real graphs nobody developed on, with string node labels.

Graphs of 15 to 250 nodes that no other benchmark, test or docs table uses, chosen to
reach the hub stars, the tree rules, the ring and ladder reads, the regular reading and
the lattice twins on inputs they were not developed on: stars with a few edges between
leaves, double stars, stars of cliques (a hub joined to one node of each clique), full
r-ary and balanced trees of other arities and sizes, cycles with lognormal or integer
weights and 1 to 3 chords, ladders, circular ladders and stacked prisms (a cycle boxed
with a path), the Petersen, Heawood, Möbius-Kantor and dodecahedral graphs boxed with
cycles, random regular graphs normalized, triangular and hexagonal lattices of other
sizes, grids whose sides divide (combinatorial and normalized), the Florentine families
with lognormal weights, Zachary's karate club with lognormal weights, PyGSP ``Comet``,
``ErdosRenyi``, ``StochasticBlockModel`` and ``Torus`` with new sizes and seeds, balls
of Airfoil and Minnesota with new sizes and centres; weights unit, uniform on [1, 10],
lognormal (sigma 0.5 or 1) and integer (1-5), and several with their normalized
Laplacian (``normalized`` in the name). The harness is ``bench_audit_third.py``'s (its
``main``: classes, columns, ``--part``), with the signals input at (p, theta) = (20n,
0.1) and (20n, 0.5) on the graphs of ``SIGNALS`` (at most 60 nodes) and, with
``--signals-5n``, at (5n, 0.1) on those of ``SIGNALS_5N`` (up to 150 nodes).

``--labels`` runs ``bench_audit_fifth.py``'s label check on these graphs (string labels,
the basis's order shuffled; ``FourierBasis``, shuffled eigenvectors with the labels
passed to ``to_networkx``, and ``learn_graph`` on the graphs of ``SIGNALS`` at both
settings). Run from the repository root (one BLAS thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_eighth.py [--only NAME ...]
        [--skip NAME ...] [--input exact perturbed signals] [--draws 0 1 2]
        [--noise 1e-3] [--part K/N] [--list]
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_eighth.py --signals-5n
        --input signals
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_eighth.py --labels [--only NAME ...]
"""

from __future__ import annotations

import networkx as nx
import numpy as np
from bench_audit_fifth import _box, audit_main
from bench_audit_seventh import _cycle_chords, _double_star
from bench_audit_third import _integer_weights
from bench_audit_wider import _lcc, _pygsp_graph, _reweighted
from bench_inference import _airfoil_ball, _minnesota_ball

from gsp_householder import load_graph

#: Seeds of this audit start here (the seventh's ended at 527).
SEED = 601


def _near_star(leaves: int, extra: int, seed: int) -> nx.Graph:
    """The star with ``leaves`` leaves and ``extra`` edges between distinct random pairs
    of leaves (drawn with ``seed``)."""
    rng = np.random.default_rng(seed)
    G = nx.star_graph(leaves)
    while G.number_of_edges() < leaves + extra:
        u, v = (int(x) for x in rng.choice(np.arange(1, leaves + 1), 2, replace=False))
        G.add_edge(u, v)
    return G


def _star_of_cliques(cliques: int, size: int) -> nx.Graph:
    """A hub (node 0) joined to one node of each of ``cliques`` cliques of ``size``
    nodes."""
    G = nx.Graph()
    for c in range(cliques):
        nodes = range(1 + c * size, 1 + (c + 1) * size)
        G.add_edges_from((u, v) for u in nodes for v in nodes if u < v)
        G.add_edge(0, nodes[0])
    return G


def _cylinder(cycle: int, path: int) -> nx.Graph:
    """A stack of prisms: the cycle of ``cycle`` nodes boxed with the path of ``path``."""
    return _box(nx.cycle_graph(cycle), nx.path_graph(path))


def _grid(rows: int, cols: int) -> nx.Graph:
    """The ``rows`` x ``cols`` grid, integer labels."""
    return nx.convert_node_labels_to_integers(nx.grid_2d_graph(rows, cols))


def _lattice(kind: str, m: int, n: int) -> nx.Graph:
    """``networkx``'s ``triangular`` or ``hexagonal`` lattice (m, n), integer labels."""
    build = nx.triangular_lattice_graph if kind == "triangular" else nx.hexagonal_lattice_graph
    return nx.convert_node_labels_to_integers(build(m, n))


def _florentine() -> nx.Graph:
    """The Florentine families' marriage graph, integer labels."""
    return nx.convert_node_labels_to_integers(nx.florentine_families_graph())


def _karate_unit() -> nx.Graph:
    """Zachary's karate club without its weights, integer labels."""
    G = nx.convert_node_labels_to_integers(load_graph("karate"))
    return nx.Graph(G.edges)


def _moebius_kantor() -> nx.Graph:
    """The Möbius-Kantor graph (16 nodes, cubic)."""
    return nx.LCF_graph(16, [5, -5], 8)


#: The audited graphs: name -> constructor (none of them used by another benchmark).
GRAPHS = {
    # stars and near-stars
    "star(45) + 3 leaf edges s601": lambda: _near_star(45, 3, 601),
    "star(80) + 2 leaf edges lognormal 0.5 s602": lambda: _reweighted(
        _near_star(80, 2, 602), 602, "lognormal0.5"
    ),
    "star(150) + 1 leaf edge s603": lambda: _near_star(150, 1, 603),
    "star(36) + 4 leaf edges integer[1, 5] normalized": lambda: _integer_weights(
        _near_star(36, 4, 604), 604
    ),
    "double_star(10, 50) integer[1, 5]": lambda: _integer_weights(_double_star(10, 50), 605),
    "double_star(25, 25) lognormal 1": lambda: _reweighted(_double_star(25, 25), 606, "lognormal1"),
    "star_of_cliques(6 x K5)": lambda: _star_of_cliques(6, 5),
    "star_of_cliques(9 x K4) uniform[1, 10]": lambda: _reweighted(
        _star_of_cliques(9, 4), 607, "uniform"
    ),
    # full and balanced trees
    "full_rary_tree(2, 127)": lambda: nx.full_rary_tree(2, 127),
    "full_rary_tree(3, 100) lognormal 0.5": lambda: _reweighted(
        nx.full_rary_tree(3, 100), 608, "lognormal0.5"
    ),
    "full_rary_tree(6, 200)": lambda: nx.full_rary_tree(6, 200),
    "balanced_tree(4, 3) normalized": lambda: nx.balanced_tree(4, 3),
    "balanced_tree(7, 2) integer[1, 5]": lambda: _integer_weights(nx.balanced_tree(7, 2), 609),
    # weighted rings with chords
    "cycle(50) lognormal 1 s610": lambda: _reweighted(nx.cycle_graph(50), 610, "lognormal1"),
    "cycle(120) + chord integer[1, 5]": lambda: _integer_weights(
        nx.Graph([*nx.cycle_graph(120).edges, (0, 47)]), 611
    ),
    "cycle(75) + 3 chords lognormal 0.5 s612": lambda: _cycle_chords(
        75, [(0, 20), (30, 55), (10, 60)], 612, "lognormal0.5"
    ),
    "cycle(44) + 2 chords lognormal 1 s613": lambda: _cycle_chords(
        44, [(0, 22), (5, 30)], 613, "lognormal1"
    ),
    # ladders, circular ladders, prisms
    "ladder(45) uniform[1, 10] s614": lambda: _reweighted(nx.ladder_graph(45), 614, "uniform"),
    "ladder(18) integer[1, 5]": lambda: _integer_weights(nx.ladder_graph(18), 615),
    "circular_ladder(17)": lambda: nx.circular_ladder_graph(17),
    "circular_ladder(52) normalized": lambda: nx.circular_ladder_graph(52),
    "cylinder cycle(20) box path(4)": lambda: _cylinder(20, 4),
    # box products of small regular graphs with cycles
    "petersen box cycle(7)": lambda: _box(nx.petersen_graph(), nx.cycle_graph(7)),
    "petersen box cycle(11) lognormal 0.5 s616": lambda: _reweighted(
        _box(nx.petersen_graph(), nx.cycle_graph(11)), 616, "lognormal0.5"
    ),
    "heawood box cycle(5)": lambda: _box(nx.heawood_graph(), nx.cycle_graph(5)),
    "moebius_kantor box cycle(4)": lambda: _box(_moebius_kantor(), nx.cycle_graph(4)),
    "dodecahedral box cycle(3) normalized": lambda: _box(
        nx.dodecahedral_graph(), nx.cycle_graph(3)
    ),
    # regular graphs normalized
    "random_regular(6, 60) s617 normalized": lambda: nx.random_regular_graph(6, 60, seed=617),
    "random_regular(3, 150) s618 normalized": lambda: nx.random_regular_graph(3, 150, seed=618),
    # lattices and grids of new sizes
    "triangular_lattice(7, 9)": lambda: _lattice("triangular", 7, 9),
    "triangular_lattice(3, 14) normalized": lambda: _lattice("triangular", 3, 14),
    "hexagonal_lattice(6, 4) lognormal 0.5 s619": lambda: _reweighted(
        _lattice("hexagonal", 6, 4), 619, "lognormal0.5"
    ),
    "hexagonal_lattice(2, 8) normalized": lambda: _lattice("hexagonal", 2, 8),
    "grid(6, 12)": lambda: _grid(6, 12),
    "grid(5, 15) normalized": lambda: _grid(5, 15),
    "grid(7, 21) uniform[1, 10] s620": lambda: _reweighted(_grid(7, 21), 620, "uniform"),
    # real graphs and PyGSP graphs, new versions
    "florentine lognormal 1 s621": lambda: _reweighted(_florentine(), 621, "lognormal1"),
    "florentine lognormal 0.5 s622 normalized": lambda: _reweighted(
        _florentine(), 622, "lognormal0.5"
    ),
    "karate lognormal 1 s623": lambda: _reweighted(_karate_unit(), 623, "lognormal1"),
    "PyGSP Comet(100, 30)": lambda: _pygsp_graph("Comet", 100, 30),
    "PyGSP ErdosRenyi(100, 0.06) s624 lcc": lambda: _lcc(
        _pygsp_graph("ErdosRenyi", 100, p=0.06, seed=624)
    ),
    "PyGSP StochasticBlockModel(90, 3) s625 lcc": lambda: _lcc(
        _pygsp_graph("StochasticBlockModel", 90, k=3, seed=625)
    ),
    "PyGSP Torus(6, 10)": lambda: _pygsp_graph("Torus", 6, 10),
    "PyGSP Airfoil ball 160 s626": lambda: _airfoil_ball(160, 626),
    "minnesota ball 150 s627": lambda: _minnesota_ball(150, 627),
    "minnesota ball 210 s628 normalized": lambda: _minnesota_ball(210, 628),
}
#: The graphs whose normalized Laplacian is audited (basis and inference).
LAPLACIANS = {name: "normalized" for name in GRAPHS if name.endswith(" normalized")}
#: Graphs learned from signals at ``SIGNAL_SETTINGS`` (at most 60 nodes).
SIGNALS = [
    "star(45) + 3 leaf edges s601",
    "star_of_cliques(6 x K5)",
    "ladder(18) integer[1, 5]",
    "cycle(44) + 2 chords lognormal 1 s613",
    "florentine lognormal 1 s621",
    "karate lognormal 1 s623",
]
SIGNAL_SETTINGS = [(20, 0.1), (20, 0.5)]
#: Graphs learned from signals at (5n, 0.1) with ``--signals-5n`` (up to 150 nodes).
SIGNALS_5N = [
    "full_rary_tree(2, 127)",
    "cycle(120) + chord integer[1, 5]",
    "petersen box cycle(7)",
    "grid(6, 12)",
    "PyGSP ErdosRenyi(100, 0.06) s624 lcc",
]


if __name__ == "__main__":
    audit_main(GRAPHS, SIGNALS, SIGNAL_SETTINGS, __doc__, LAPLACIANS, SEED, SIGNALS_5N)
