"""Tenth held-out audit of order-free Laplacian inference: Gaussian-weighted k-nearest-
neighbour and epsilon graphs of random points, random recursive and Fibonacci trees,
double brooms, firecrackers and combs, block graphs and random k-trees, perforated
grids, cocktail-party and kagome graphs, graphs of two dense parts joined by a bridge,
disjoint unions joined by one edge, cores with pendant paths, circulants of four jumps
and iterated Mycielskians, with string node labels.

Graphs of 20 to 300 nodes from families that no other benchmark, test, docs table or
earlier audit builds, all built here: k-nearest-neighbour graphs of uniform random
points (in the square, in the cube, on a noisy ring) with Gaussian weights
exp(-d^2 / sigma^2), sigma the mean distance to the k-th neighbour, and epsilon graphs
of random points with the same weights; random recursive trees (each node joined to a
uniformly random earlier one), Fibonacci trees, double brooms (a path with stars of
unequal sizes at both ends), firecrackers (stars whose chosen leaves are joined in a
path) and combs (a spine path with a pendant path at every node); block graphs (cliques
of 3 to 6 nodes glued at cut nodes) and random 2- and 3-trees; grids with random nodes
removed; cocktail-party graphs (the complete graph without a perfect matching); kagome
lattices (line graphs of hexagonal lattices); two random dense parts joined by one
bridge; disjoint unions of two different graphs joined by one edge (Petersen and a
cycle, a wheel and a grid, the complete graph and a path, karate and Les Miserables
with their own weights); cores with pendant paths of unequal lengths; circulants with
four jumps; iterated Mycielskians and Mycielskians of long cycles; weights unit, integer
(1-5), uniform on [1, 10], lognormal (sigma 0.5 or 1) and Gaussian, and several with
their normalized Laplacian (``normalized`` in the name). The harness is
``bench_audit_third.py``'s (its ``main``: classes, columns, ``--part``), with the
signals input at (p, theta) = (20n, 0.1) and (20n, 0.5) on the graphs of ``SIGNALS``
(at most 60 nodes) and, with ``--signals-5n``, at (5n, 0.1) on those of ``SIGNALS_5N``
(up to 150 nodes).

``--labels`` runs ``bench_audit_fifth.py``'s label check on these graphs (string labels,
the basis's order shuffled; ``FourierBasis``, shuffled eigenvectors with the labels
passed to ``to_networkx``, and ``learn_graph`` on the graphs of ``SIGNALS`` at both
settings). Run from the repository root (one BLAS thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_tenth.py [--only NAME ...]
        [--skip NAME ...] [--input exact perturbed signals] [--draws 0 1 2]
        [--noise 1e-3] [--part K/N] [--list]
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_tenth.py --signals-5n
        --input signals
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_tenth.py --labels [--only NAME ...]
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
from bench_audit_fifth import audit_main
from bench_audit_third import _integer_weights
from bench_audit_wider import _lcc, _reweighted

#: Seeds of this audit start here (the ninth's ended at 724).
SEED = 801


def _point_cloud(n: int, seed: int, shape: str = "square") -> np.ndarray:
    """``n`` random points: uniform in the unit ``square`` or ``cube``, or on a
    ``ring`` (the unit circle with radial noise of 0.08)."""
    rng = np.random.default_rng(seed)
    if shape == "square":
        return rng.uniform(0, 1, (n, 2))
    if shape == "cube":
        return rng.uniform(0, 1, (n, 3))
    angle = rng.uniform(0, 2 * np.pi, n)
    radius = 1 + 0.08 * rng.standard_normal(n)
    return np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])


def _gaussian_weighted(X: np.ndarray, pairs, sigma: float) -> nx.Graph:
    """The graph on the rows of ``X`` with the edges ``pairs``, weighted
    exp(-d^2 / sigma^2) by the distance d of their points; its largest component."""
    G = nx.Graph()
    G.add_nodes_from(range(len(X)))
    for i, j in pairs:
        d2 = float(np.sum((X[i] - X[j]) ** 2))
        G.add_edge(int(i), int(j), weight=float(np.exp(-d2 / sigma**2)))
    return nx.convert_node_labels_to_integers(_lcc(G))


def _gaussian_knn(n: int, k: int, seed: int, shape: str = "square") -> nx.Graph:
    """The symmetrised ``k``-nearest-neighbour graph of ``n`` random points
    (``_point_cloud``) with Gaussian weights, sigma the mean distance to the k-th
    neighbour."""
    X = _point_cloud(n, seed, shape)
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    near = np.argsort(D, axis=1)[:, 1 : k + 1]
    sigma = float(np.mean(D[np.arange(n), near[:, -1]]))
    pairs = {(min(i, j), max(i, j)) for i in range(n) for j in near[i].tolist()}
    return _gaussian_weighted(X, sorted(pairs), sigma)


def _gaussian_epsilon(n: int, eps: float, seed: int, shape: str = "square") -> nx.Graph:
    """The largest component of the graph joining random points closer than ``eps``,
    with Gaussian weights of sigma ``eps / 2``."""
    X = _point_cloud(n, seed, shape)
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    pairs = [(i, j) for i, j in itertools.combinations(range(n), 2) if D[i, j] < eps]
    return _gaussian_weighted(X, pairs, eps / 2)


def _random_recursive_tree(n: int, seed: int) -> nx.Graph:
    """The random recursive tree: node ``v`` joined to a uniformly random node of 0..v-1."""
    rng = np.random.default_rng(seed)
    return nx.Graph((v, int(rng.integers(v))) for v in range(1, n))


def _fibonacci_tree(order: int) -> nx.Graph:
    """The Fibonacci tree of ``order``: a root whose subtrees are the Fibonacci trees of
    orders ``order - 1`` and ``order - 2`` (orders 0 and 1 a single node)."""

    def build(G: nx.Graph, k: int) -> int:
        root = G.number_of_nodes()
        G.add_node(root)
        if k >= 2:
            G.add_edge(root, build(G, k - 1))
            G.add_edge(root, build(G, k - 2))
        return root

    G = nx.Graph()
    build(G, order)
    return G


def _double_broom(handle: int, left: int, right: int) -> nx.Graph:
    """A path of ``handle`` nodes with ``left`` leaves at its first node and ``right``
    leaves at its last."""
    G = nx.path_graph(handle)
    G.add_edges_from((0, handle + i) for i in range(left))
    G.add_edges_from((handle - 1, handle + left + i) for i in range(right))
    return G


def _firecracker(stars: int, size: int) -> nx.Graph:
    """The firecracker: ``stars`` stars of ``size`` nodes, one leaf of each joined to the
    same leaf of the next star (a path through them)."""
    G = nx.Graph()
    for s in range(stars):
        centre = s * size
        G.add_edges_from((centre, centre + k) for k in range(1, size))
        if s:
            G.add_edge(centre - size + 1, centre + 1)
    return G


def _comb(spine: int, tooth: int) -> nx.Graph:
    """The comb: a path of ``spine`` nodes, each the end of a pendant path of ``tooth``
    more nodes."""
    G = nx.path_graph(spine)
    for s in range(spine):
        nodes = [s, *range(spine + s * tooth, spine + (s + 1) * tooth)]
        nx.add_path(G, nodes)
    return G


def _block_graph(blocks: int, seed: int) -> nx.Graph:
    """A random block graph: ``blocks`` cliques of 3 to 6 nodes, each glued at one node
    to a uniformly random node of the graph built so far."""
    rng = np.random.default_rng(seed)
    G = nx.complete_graph(int(rng.integers(3, 7)))
    for _ in range(blocks - 1):
        anchor = int(rng.integers(G.number_of_nodes()))
        size = int(rng.integers(3, 7))
        first = G.number_of_nodes()
        clique = [anchor, *range(first, first + size - 1)]
        G.add_edges_from(itertools.combinations(clique, 2))
    return G


def _random_ktree(n: int, k: int, seed: int) -> nx.Graph:
    """A random ``k``-tree: the complete graph on k + 1 nodes, then each new node joined
    to the nodes of a uniformly random k-clique made so far."""
    rng = np.random.default_rng(seed)
    G = nx.complete_graph(k + 1)
    cliques = [tuple(c) for c in itertools.combinations(range(k + 1), k)]
    for v in range(k + 1, n):
        clique = cliques[int(rng.integers(len(cliques)))]
        G.add_edges_from((v, u) for u in clique)
        cliques += [(*c, v) for c in itertools.combinations(clique, k - 1)]
    return G


def _perforated_grid(rows: int, cols: int, holes: int, seed: int) -> nx.Graph:
    """The largest component of the ``rows`` x ``cols`` grid with ``holes`` random nodes
    removed."""
    rng = np.random.default_rng(seed)
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(rows, cols))
    G.remove_nodes_from(rng.choice(rows * cols, holes, replace=False).tolist())
    return nx.convert_node_labels_to_integers(_lcc(G))


def _cocktail_party(pairs: int) -> nx.Graph:
    """The cocktail-party graph: the complete graph on 2 * ``pairs`` nodes without the
    perfect matching (i, i + pairs)."""
    G = nx.complete_graph(2 * pairs)
    G.remove_edges_from((i, i + pairs) for i in range(pairs))
    return G


def _kagome(rows: int, cols: int) -> nx.Graph:
    """The kagome lattice: the line graph of the ``rows`` x ``cols`` hexagonal lattice."""
    return nx.convert_node_labels_to_integers(
        nx.line_graph(nx.hexagonal_lattice_graph(rows, cols)), ordering="sorted"
    )


def _bridged_pair(n1: int, p1: float, n2: int, p2: float, seed: int) -> nx.Graph:
    """Two random dense parts G(n1, p1) and G(n2, p2) (largest components) joined by one
    edge between random nodes."""
    rng = np.random.default_rng(seed)
    A = nx.convert_node_labels_to_integers(_lcc(nx.gnp_random_graph(n1, p1, seed=seed)))
    B = nx.convert_node_labels_to_integers(_lcc(nx.gnp_random_graph(n2, p2, seed=seed + 1)))
    return _joined_by_one_edge(A, B, rng)


def _joined_by_one_edge(A: nx.Graph, B: nx.Graph, rng=None) -> nx.Graph:
    """The disjoint union of ``A`` and ``B`` (their edge data kept) plus one unit edge
    between a node of each (random with ``rng``, else their first nodes)."""
    A = nx.convert_node_labels_to_integers(A)
    B = nx.convert_node_labels_to_integers(B, first_label=A.number_of_nodes())
    G = nx.union(A, B)
    if rng is None:
        a, b = 0, A.number_of_nodes()
    else:
        a = int(rng.integers(A.number_of_nodes()))
        b = A.number_of_nodes() + int(rng.integers(B.number_of_nodes()))
    G.add_edge(a, b, weight=1.0)
    return G


def _own_weights(G: nx.Graph) -> nx.Graph:
    """``G`` with its ``weight`` attributes as floats, nodes numbered in order."""
    H = nx.Graph()
    H.add_nodes_from(range(G.number_of_nodes()))
    index = {v: k for k, v in enumerate(G)}
    H.add_edges_from(
        (index[u], index[v], {"weight": float(d.get("weight", 1.0))})
        for u, v, d in G.edges(data=True)
    )
    return H


def _with_pendant_paths(core: nx.Graph, lengths, seed: int) -> nx.Graph:
    """``core`` with a pendant path of each of ``lengths`` nodes hung from a distinct
    random node of the core."""
    rng = np.random.default_rng(seed)
    G = nx.convert_node_labels_to_integers(core)
    anchors = rng.choice(G.number_of_nodes(), len(lengths), replace=False).tolist()
    for anchor, length in zip(anchors, lengths, strict=True):
        first = G.number_of_nodes()
        nx.add_path(G, [anchor, *range(first, first + length)])
    return G


def _iterated_mycielskian(G: nx.Graph, times: int) -> nx.Graph:
    """The Mycielskian of ``G`` applied ``times`` times."""
    for _ in range(times):
        G = nx.mycielskian(G)
    return G


#: The audited graphs: name -> constructor (none of them used by another benchmark).
GRAPHS = {
    # point clouds with Gaussian weights
    "gaussian_knn(60, 5) s801": lambda: _gaussian_knn(60, 5, 801),
    "gaussian_knn(150, 6) s802": lambda: _gaussian_knn(150, 6, 802),
    "gaussian_knn(250, 4) s803": lambda: _gaussian_knn(250, 4, 803),
    "gaussian_knn(100, 7) cube s804 normalized": lambda: _gaussian_knn(100, 7, 804, "cube"),
    "gaussian_knn(120, 4) ring s805 lcc": lambda: _gaussian_knn(120, 4, 805, "ring"),
    "gaussian_epsilon(100, 0.2) s806 lcc": lambda: _gaussian_epsilon(100, 0.2, 806),
    "gaussian_epsilon(200, 0.12) s807 lcc normalized": lambda: _gaussian_epsilon(200, 0.12, 807),
    "gaussian_epsilon(80, 0.35) cube s808 lcc": lambda: _gaussian_epsilon(80, 0.35, 808, "cube"),
    # trees of unusual shapes
    "random_recursive_tree(90) s809 lognormal 1": lambda: _reweighted(
        _random_recursive_tree(90, 809), 809, "lognormal1"
    ),
    "random_recursive_tree(220) s810": lambda: _random_recursive_tree(220, 810),
    "random_recursive_tree(60) s811 normalized": lambda: _random_recursive_tree(60, 811),
    "fibonacci_tree(9) uniform[1, 10] s812": lambda: _reweighted(
        _fibonacci_tree(9), 812, "uniform"
    ),
    "fibonacci_tree(8)": lambda: _fibonacci_tree(8),
    "double_broom(20, 8, 12) integer[1, 5]": lambda: _integer_weights(
        _double_broom(20, 8, 12), 813
    ),
    "double_broom(40, 15, 25)": lambda: _double_broom(40, 15, 25),
    "firecracker(8, 6) uniform[1, 10] s814": lambda: _reweighted(
        _firecracker(8, 6), 814, "uniform"
    ),
    "comb(15, 3) lognormal 0.5 s815": lambda: _reweighted(_comb(15, 3), 815, "lognormal0.5"),
    "comb(12, 2) normalized": lambda: _comb(12, 2),
    # chordal graphs: block graphs and k-trees
    "block_graph(20) s816": lambda: _block_graph(20, 816),
    "block_graph(14) s817 lognormal 0.5": lambda: _reweighted(
        _block_graph(14, 817), 817, "lognormal0.5"
    ),
    "random_2_tree(80) s818": lambda: _random_ktree(80, 2, 818),
    "random_3_tree(60) s819 integer[1, 5]": lambda: _integer_weights(
        _random_ktree(60, 3, 819), 819
    ),
    # lattices with holes, dense regular graphs
    "perforated_grid(12, 14, 20) s820": lambda: _perforated_grid(12, 14, 20, 820),
    "perforated_grid(9, 10, 8) s821 normalized": lambda: _perforated_grid(9, 10, 8, 821),
    "cocktail_party(15)": lambda: _cocktail_party(15),
    "cocktail_party(12) uniform[1, 10] s822": lambda: _reweighted(
        _cocktail_party(12), 822, "uniform"
    ),
    "kagome(3, 4)": lambda: _kagome(3, 4),
    "kagome(4, 5) lognormal 0.5 s823": lambda: _reweighted(_kagome(4, 5), 823, "lognormal0.5"),
    # bridges and unions joined by one edge
    "bridged_pair(G(30, 0.3), G(40, 0.25)) s824": lambda: _bridged_pair(30, 0.3, 40, 0.25, 824),
    "bridged_pair(G(50, 0.2), G(25, 0.5)) s825 lognormal 1": lambda: _reweighted(
        _bridged_pair(50, 0.2, 25, 0.5, 825), 825, "lognormal1"
    ),
    "petersen + cycle(15) by one edge": lambda: _joined_by_one_edge(
        nx.petersen_graph(), nx.cycle_graph(15)
    ),
    "wheel(12) + grid(5, 6) by one edge integer[1, 5]": lambda: _integer_weights(
        _joined_by_one_edge(nx.wheel_graph(12), nx.grid_2d_graph(5, 6)), 826
    ),
    "complete(10) + path(30) by one edge normalized": lambda: _joined_by_one_edge(
        nx.complete_graph(10), nx.path_graph(30)
    ),
    "karate + les_miserables own weights by one edge s827": lambda: _joined_by_one_edge(
        _own_weights(nx.karate_club_graph()),
        _own_weights(nx.les_miserables_graph()),
        np.random.default_rng(827),
    ),
    # cores with pendant paths
    "complete(8) + pendant paths (2, 3, 5, 7) s828": lambda: _with_pendant_paths(
        nx.complete_graph(8), (2, 3, 5, 7), 828
    ),
    "G(40, 0.15) + 6 pendant paths of 4 s829 lognormal 0.5": lambda: _reweighted(
        _with_pendant_paths(_lcc(nx.gnp_random_graph(40, 0.15, seed=829)), (4,) * 6, 829),
        829,
        "lognormal0.5",
    ),
    "cycle(30) + pendant paths (1..6) s830 normalized": lambda: _with_pendant_paths(
        nx.cycle_graph(30), (1, 2, 3, 4, 5, 6), 830
    ),
    # circulants of four jumps and Mycielskians
    "circulant(97, [1, 3, 8, 21])": lambda: nx.circulant_graph(97, [1, 3, 8, 21]),
    "circulant(150, [2, 5, 11, 30]) uniform[1, 10] s831": lambda: _reweighted(
        nx.circulant_graph(150, [2, 5, 11, 30]), 831, "uniform"
    ),
    "circulant(64, [1, 6, 15, 27]) normalized": lambda: nx.circulant_graph(64, [1, 6, 15, 27]),
    "mycielskian(mycielskian(cycle(7)))": lambda: _iterated_mycielskian(nx.cycle_graph(7), 2),
    "mycielskian(cycle(17)) lognormal 1 s832": lambda: _reweighted(
        nx.mycielskian(nx.cycle_graph(17)), 832, "lognormal1"
    ),
    "random_recursive_tree(300) s833 uniform[1, 10]": lambda: _reweighted(
        _random_recursive_tree(300, 833), 833, "uniform"
    ),
}
#: The graphs whose normalized Laplacian is audited (basis and inference).
LAPLACIANS = {name: "normalized" for name in GRAPHS if name.endswith(" normalized")}
#: Graphs learned from signals at ``SIGNAL_SETTINGS`` (at most 60 nodes).
SIGNALS = [
    "gaussian_knn(60, 5) s801",
    "complete(8) + pendant paths (2, 3, 5, 7) s828",
    "block_graph(14) s817 lognormal 0.5",
    "cocktail_party(12) uniform[1, 10] s822",
    "petersen + cycle(15) by one edge",
    "comb(12, 2) normalized",
]
SIGNAL_SETTINGS = [(20, 0.1), (20, 0.5)]
#: Graphs learned from signals at (5n, 0.1) with ``--signals-5n`` (up to 150 nodes).
SIGNALS_5N = [
    "gaussian_knn(120, 4) ring s805 lcc",
    "random_recursive_tree(90) s809 lognormal 1",
    "random_2_tree(80) s818",
    "karate + les_miserables own weights by one edge s827",
]


if __name__ == "__main__":
    audit_main(GRAPHS, SIGNALS, SIGNAL_SETTINGS, __doc__, LAPLACIANS, SEED, SIGNALS_5N)
