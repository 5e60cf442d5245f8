"""Sixth held-out audit of order-free Laplacian inference: real-world-like, named and
odd graphs nobody developed on, with string node labels.

Graphs of 20 to 250 nodes that no other benchmark, test or docs table uses: the Davis
southern women bipartite graph itself, Zachary's karate club with its weights and
normalized Laplacian, the 2-core of Les Misérables with its weights, named graphs in box
products (Pappus, truncated cube and Heawood with a path, Frucht and icosahedron with a
cycle), McGee as an LCF graph, an LCF graph of 42 nodes, the Kneser graph K(8, 3),
caveman graphs with new sides and seeds, stochastic block models with unequal blocks,
small worlds (Newman-Watts-Strogatz, Watts-Strogatz), duplication-divergence, power-law
(one of 200 nodes, weighted) and unlabeled rooted trees, the square of a random tree, a
geometric soft configuration graph, a random rewiring of a circulant graph
(``random_reference``), a random kernel graph, a complete multipartite graph, a weighted
lollipop, PyGSP ``Path``, ``Ring`` (k = 2), ``Grid2d`` and ``Comet`` with weights, balls
of Airfoil, Minnesota and Logo with new sizes and centres; weights unit, uniform on [1,
10], lognormal (sigma 0.5 or 1) and integer (1-5), and several with their normalized
Laplacian (``normalized`` in the name). The harness is ``bench_audit_third.py``'s (its
``main``: classes, columns, ``--part``), with the signals input at (p, theta) = (20n,
0.1) and (20n, 0.5) on the graphs of ``SIGNALS`` (at most 60 nodes).

``--labels`` runs ``bench_audit_fifth.py``'s label check on these graphs (string labels,
the basis's order shuffled; ``FourierBasis``, shuffled eigenvectors with the labels
passed to ``to_networkx``, and ``learn_graph`` on the graphs of ``SIGNALS`` at both
settings). Run from the repository root (one BLAS thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_sixth.py [--only NAME ...]
        [--skip NAME ...] [--input exact perturbed signals] [--draws 0 1 2]
        [--noise 1e-3] [--part K/N] [--list]
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_sixth.py --labels [--only NAME ...]
"""

from __future__ import annotations

import networkx as nx
from bench_audit_fifth import _box, _kneser, audit_main
from bench_audit_fourth import _kernel_graph, _logo_ball, _simple_lcc
from bench_audit_third import _integer_weights
from bench_audit_wider import _lcc, _pygsp_graph, _reweighted
from bench_inference import _airfoil_ball, _minnesota_ball

from gsp_householder import load_graph

#: Seeds of this audit start here (the fifth's ended at 325).
SEED = 401


def _davis_bipartite():
    """The Davis southern women graph (18 women, 14 events), integer node labels."""
    return nx.convert_node_labels_to_integers(load_graph("davis_southern_women"))


def _les_miserables_core():
    """The 2-core of Les Misérables (pendant characters removed), with its weights."""
    return nx.convert_node_labels_to_integers(nx.k_core(load_graph("les_miserables"), 2))


def _tree_square(n, seed):
    """The square of a uniformly random labelled tree (nodes at distance 1 or 2 joined)."""
    return nx.power(nx.random_labeled_tree(n, seed=seed), 2)


def _soft_configuration(n, seed):
    """``networkx.geometric_soft_configuration_graph`` of ``n`` nodes (beta 2.5, gamma
    2.7, mean degree 5), its largest component."""
    return _lcc(
        nx.geometric_soft_configuration_graph(beta=2.5, n=n, gamma=2.7, mean_degree=5, seed=seed)
    )


def _unlabeled_rooted_tree(n, seed):
    """``networkx.random_unlabeled_rooted_tree`` of ``n`` nodes, integer labels."""
    return nx.convert_node_labels_to_integers(nx.random_unlabeled_rooted_tree(n, seed=seed))


#: The audited graphs: name -> constructor (none of them used by another benchmark).
GRAPHS = {
    # real-world graphs, new versions
    "davis_southern_women bipartite": _davis_bipartite,
    "karate weighted normalized": lambda: load_graph("karate"),
    "les_miserables 2-core weighted": _les_miserables_core,
    # named and symmetric graphs
    "pappus box path(2)": lambda: _box(nx.pappus_graph(), nx.path_graph(2)),
    "truncated_cube box path(2)": lambda: _box(nx.truncated_cube_graph(), nx.path_graph(2)),
    "mcgee LCF(24, [12, 7, -7], 8)": lambda: nx.LCF_graph(24, [12, 7, -7], 8),
    "LCF(42, [21, 11, -11], 14)": lambda: nx.LCF_graph(42, [21, 11, -11], 14),
    "icosahedral box cycle(5)": lambda: _box(nx.icosahedral_graph(), nx.cycle_graph(5)),
    "kneser K(8, 3)": lambda: _kneser(8, 3),
    "frucht box cycle(4)": lambda: _box(nx.frucht_graph(), nx.cycle_graph(4)),
    "complete_multipartite(3, 5, 8, 12)": lambda: nx.complete_multipartite_graph(3, 5, 8, 12),
    # communities and small worlds
    "connected_caveman(6, 7)": lambda: nx.connected_caveman_graph(6, 7),
    "relaxed_caveman(6, 8, 0.2) s401 simple lcc": lambda: _simple_lcc(
        nx.relaxed_caveman_graph(6, 8, 0.2, seed=401)
    ),
    "SBM(15, 30, 60, 90) s402 lcc": lambda: _lcc(
        nx.stochastic_block_model(
            [15, 30, 60, 90],
            [
                [0.6, 0.03, 0.02, 0.01],
                [0.03, 0.3, 0.02, 0.01],
                [0.02, 0.02, 0.15, 0.01],
                [0.01, 0.01, 0.01, 0.08],
            ],
            seed=402,
        )
    ),
    "newman_watts_strogatz(80, 4, 0.15) s403": lambda: nx.newman_watts_strogatz_graph(
        80, 4, 0.15, seed=403
    ),
    "watts_strogatz(120, 6, 0.1) s404 lcc": lambda: _lcc(
        nx.watts_strogatz_graph(120, 6, 0.1, seed=404)
    ),
    "duplication_divergence(150, 0.3) s405": lambda: nx.duplication_divergence_graph(
        150, 0.3, seed=405
    ),
    "geometric_soft_configuration(130, 2.5, 2.7, 5) s406 lcc": lambda: _soft_configuration(
        130, 406
    ),
    "random_reference(circulant(100, [1, 2]), 2) s407": lambda: nx.random_reference(
        nx.circulant_graph(100, [1, 2]), niter=2, seed=407
    ),
    "random_kernel(160, c 4) s408 lcc": lambda: _kernel_graph(160, 4.0, 408),
    # trees and tree-like
    "random_powerlaw_tree(120, 3) s409": lambda: nx.random_powerlaw_tree(
        120, 3, seed=409, tries=10000
    ),
    "random_unlabeled_rooted_tree(110) s410": lambda: _unlabeled_rooted_tree(110, 410),
    "square of random_labeled_tree(60) s411": lambda: _tree_square(60, 411),
    # weighted versions
    "connected_caveman(5, 6) integer[1, 5]": lambda: _integer_weights(
        nx.connected_caveman_graph(5, 6), 412
    ),
    "lollipop(8, 40) lognormal 0.5": lambda: _reweighted(
        nx.lollipop_graph(8, 40), 413, "lognormal0.5"
    ),
    "triangular_lattice(6, 8) integer[1, 5]": lambda: _integer_weights(
        nx.convert_node_labels_to_integers(nx.triangular_lattice_graph(6, 8)), 414
    ),
    "watts_strogatz(90, 4, 0.2) s415 lcc uniform[1, 10]": lambda: _reweighted(
        _lcc(nx.watts_strogatz_graph(90, 4, 0.2, seed=415)), 415, "uniform"
    ),
    "PyGSP Path(70) lognormal 1": lambda: _reweighted(_pygsp_graph("Path", 70), 416, "lognormal1"),
    "PyGSP Ring(90, k 2) integer[1, 5]": lambda: _integer_weights(
        _pygsp_graph("Ring", 90, k=2), 417
    ),
    "random_powerlaw_tree(200, 3) s426 lognormal 0.5": lambda: _reweighted(
        nx.random_powerlaw_tree(200, 3, seed=426, tries=10000), 426, "lognormal0.5"
    ),
    "PyGSP Grid2d(7, 11) lognormal 0.5": lambda: _reweighted(
        _pygsp_graph("Grid2d", 7, 11), 418, "lognormal0.5"
    ),
    # PyGSP meshes and maps: balls with new sizes and centres
    "PyGSP Airfoil ball 180 s419": lambda: _airfoil_ball(180, 419),
    "minnesota ball 120 s420": lambda: _minnesota_ball(120, 420),
    "PyGSP Logo ball 150 s421": lambda: _logo_ball(150, 421),
    "minnesota ball 240 s427": lambda: _minnesota_ball(240, 427),
    # normalized Laplacians
    "heawood box path(2) normalized": lambda: _box(nx.heawood_graph(), nx.path_graph(2)),
    "newman_watts_strogatz(60, 4, 0.2) s422 normalized": lambda: nx.newman_watts_strogatz_graph(
        60, 4, 0.2, seed=422
    ),
    "triangular_lattice(4, 6) normalized": lambda: nx.convert_node_labels_to_integers(
        nx.triangular_lattice_graph(4, 6)
    ),
    "random_powerlaw_tree(60, 3) s423 normalized": lambda: nx.random_powerlaw_tree(
        60, 3, seed=423, tries=10000
    ),
    "minnesota ball 90 s424 normalized": lambda: _minnesota_ball(90, 424),
    "SBM(10, 20, 40) s425 lognormal 1 normalized": lambda: _reweighted(
        _lcc(
            nx.stochastic_block_model(
                [10, 20, 40], [[0.6, 0.05, 0.02], [0.05, 0.3, 0.03], [0.02, 0.03, 0.2]], seed=425
            )
        ),
        425,
        "lognormal1",
    ),
    "PyGSP Comet(70, 20) normalized": lambda: _pygsp_graph("Comet", 70, 20),
}
#: The graphs whose normalized Laplacian is audited (basis and inference).
LAPLACIANS = {name: "normalized" for name in GRAPHS if name.endswith(" normalized")}
#: Graphs learned from signals (at most 60 nodes).
SIGNALS = [
    "davis_southern_women bipartite",
    "mcgee LCF(24, [12, 7, -7], 8)",
    "connected_caveman(6, 7)",
    "lollipop(8, 40) lognormal 0.5",
    "karate weighted normalized",
]
SIGNAL_SETTINGS = [(20, 0.1), (20, 0.5)]


if __name__ == "__main__":
    audit_main(GRAPHS, SIGNALS, SIGNAL_SETTINGS, __doc__, LAPLACIANS, SEED)
