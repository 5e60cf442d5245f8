"""Ninth held-out audit of order-free Laplacian inference: Hamming, Johnson, crown,
Sierpinski, Hanoi, Apollonian, Halin, de Bruijn, Kautz, butterfly, cube-connected-cycle,
chessboard, Cayley, interval, threshold, bipartite, intersection, proximity and cactus
graphs nobody developed on, with string node labels.

Graphs of 24 to 384 nodes from families that no other benchmark, test, docs table or
earlier audit uses, all built here or from networkx generators no benchmark calls:
rook's graphs and Hamming graphs (box products of complete graphs), Johnson graphs,
crown graphs, gear and helm graphs (wheels with extra rim or pendant nodes), fan graphs
(a path joined to a hub), book graphs (a star boxed with an edge), triangular snakes,
banana trees, Sierpinski triangle graphs, Tower of Hanoi graphs, Apollonian networks and
random Apollonian triangulations, Halin graphs (a tree plus the cycle through its
leaves), random maximal outerplanar graphs, random cacti, de Bruijn and Kautz graphs
(made undirected and simple), butterfly and wrapped butterfly graphs, cube-connected
cycles, folded cubes, knight's and queen's graphs, the pancake and bubble-sort Cayley
graphs of the symmetric group, random interval and threshold graphs, random bipartite
graphs (G(n1, n2, p) and G(n1, n2, m)), general random intersection graphs, Gabriel and
relative-neighbourhood graphs and Euclidean minimum spanning trees of random points, and
a stochastic Kronecker graph; weights unit, integer (1-5), uniform on [1, 10] and
lognormal (sigma 0.5 or 1), and several with their normalized Laplacian (``normalized``
in the name). The harness is ``bench_audit_third.py``'s (its ``main``: classes,
columns, ``--part``), with the signals input at (p, theta) = (20n, 0.1) and (20n, 0.5)
on the graphs of ``SIGNALS`` (at most 60 nodes) and, with ``--signals-5n``, at (5n,
0.1) on those of ``SIGNALS_5N`` (up to 150 nodes).

``--labels`` runs ``bench_audit_fifth.py``'s label check on these graphs (string labels,
the basis's order shuffled; ``FourierBasis``, shuffled eigenvectors with the labels
passed to ``to_networkx``, and ``learn_graph`` on the graphs of ``SIGNALS`` at both
settings). Run from the repository root (one BLAS thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_ninth.py [--only NAME ...]
        [--skip NAME ...] [--input exact perturbed signals] [--draws 0 1 2]
        [--noise 1e-3] [--part K/N] [--list]
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_ninth.py --signals-5n
        --input signals
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_audit_ninth.py --labels [--only NAME ...]
"""

from __future__ import annotations

import itertools

import networkx as nx
import numpy as np
from bench_audit_fifth import _box, audit_main
from bench_audit_fourth import _simple_lcc
from bench_audit_third import _integer_weights
from bench_audit_wider import _lcc, _reweighted

#: Seeds of this audit start here (the eighth's ended at 628).
SEED = 701


def _hamming(d: int, q: int) -> nx.Graph:
    """The Hamming graph H(d, q): words of length ``d`` over ``q`` letters, joined when
    they differ in one place (the box product of ``d`` complete graphs K_q)."""
    G = nx.complete_graph(q)
    for _ in range(d - 1):
        G = _box(G, nx.complete_graph(q))
    return G


def _johnson(n: int, k: int) -> nx.Graph:
    """The Johnson graph J(n, k): the k-subsets of {0..n-1}, joined when they share
    k - 1 elements."""
    sets = [frozenset(s) for s in itertools.combinations(range(n), k)]
    G = nx.Graph()
    G.add_nodes_from(range(len(sets)))
    G.add_edges_from(
        (i, j)
        for i, j in itertools.combinations(range(len(sets)), 2)
        if len(sets[i] & sets[j]) == k - 1
    )
    return G


def _crown(m: int) -> nx.Graph:
    """The crown graph: K_{m,m} without a perfect matching (u_i joined to v_j, i != j)."""
    return nx.Graph((i, m + j) for i in range(m) for j in range(m) if i != j)


def _gear(rim: int) -> nx.Graph:
    """The gear graph: the wheel with ``rim`` spokes and a node inserted on every rim
    edge (hub 0, 2 * rim + 1 nodes)."""
    G = nx.cycle_graph(range(1, 2 * rim + 1))
    G.add_edges_from((0, 1 + 2 * i) for i in range(rim))
    return G


def _helm(rim: int) -> nx.Graph:
    """The helm graph: the wheel with ``rim`` spokes and a pendant node at every rim
    node (2 * rim + 1 nodes)."""
    G = nx.wheel_graph(rim + 1)
    G.add_edges_from((i, rim + i) for i in range(1, rim + 1))
    return G


def _fan(path: int) -> nx.Graph:
    """The fan graph: a path of ``path`` nodes, each joined to a hub (node ``path``)."""
    G = nx.path_graph(path)
    G.add_edges_from((i, path) for i in range(path))
    return G


def _book(pages: int) -> nx.Graph:
    """The book graph: the star with ``pages`` leaves boxed with an edge."""
    return _box(nx.star_graph(pages), nx.path_graph(2))


def _triangular_snake(triangles: int) -> nx.Graph:
    """A path of ``2 * triangles + 1`` nodes with every other pair of consecutive
    nodes closed into a triangle by one more node."""
    G = nx.path_graph(triangles + 1)
    for i in range(triangles):
        G.add_edges_from([(i, triangles + 1 + i), (i + 1, triangles + 1 + i)])
    return G


def _banana_tree(stars: int, size: int) -> nx.Graph:
    """The banana tree: ``stars`` stars of ``size`` nodes, one leaf of each joined to a
    root (node 0)."""
    G = nx.Graph()
    for s in range(stars):
        centre = 1 + s * size
        G.add_edges_from((centre, centre + k) for k in range(1, size))
        G.add_edge(0, centre + 1)
    return G


def _sierpinski(level: int) -> nx.Graph:
    """The Sierpinski triangle graph of ``level``: the corners and midpoints of the
    triangles of the ``level``-th subdivision, joined along their sides."""
    triangles = [((0, 0), (2**level, 0), (0, 2**level))]
    for _ in range(level):
        finer = []
        for a, b, c in triangles:
            ab = ((a[0] + b[0]) // 2, (a[1] + b[1]) // 2)
            bc = ((b[0] + c[0]) // 2, (b[1] + c[1]) // 2)
            ca = ((c[0] + a[0]) // 2, (c[1] + a[1]) // 2)
            finer += [(a, ab, ca), (ab, b, bc), (ca, bc, c)]
        triangles = finer
    G = nx.Graph()
    for a, b, c in triangles:
        G.add_edges_from([(a, b), (b, c), (c, a)])
    return nx.convert_node_labels_to_integers(G, ordering="sorted")


def _hanoi(discs: int) -> nx.Graph:
    """The Tower of Hanoi graph: the 3 ** ``discs`` placements of the discs on three
    pegs, joined by one legal move."""
    G = nx.Graph()
    states = list(itertools.product(range(3), repeat=discs))
    for s in states:
        for disc in range(discs):
            # a disc moves when no smaller disc is on its peg or on the target peg
            smaller = s[:disc]
            if s[disc] in smaller:
                continue
            for peg in range(3):
                if peg != s[disc] and peg not in smaller:
                    G.add_edge(s, (*s[:disc], peg, *s[disc + 1 :]))
    return nx.convert_node_labels_to_integers(G, ordering="sorted")


def _apollonian(level: int) -> nx.Graph:
    """The Apollonian network: a triangle, a node put into every inner face and joined
    to its three corners, ``level`` times."""
    G = nx.cycle_graph(3)
    faces = [(0, 1, 2)]
    for _ in range(level):
        finer = []
        for a, b, c in faces:
            v = G.number_of_nodes()
            G.add_edges_from([(v, a), (v, b), (v, c)])
            finer += [(a, b, v), (b, c, v), (c, a, v)]
        faces = finer
    return G


def _random_apollonian(n: int, seed: int) -> nx.Graph:
    """A random Apollonian triangulation: a triangle, then ``n - 3`` nodes each put into
    a uniformly random inner face and joined to its three corners."""
    rng = np.random.default_rng(seed)
    G = nx.cycle_graph(3)
    faces = [(0, 1, 2)]
    for v in range(3, n):
        a, b, c = faces.pop(int(rng.integers(len(faces))))
        G.add_edges_from([(v, a), (v, b), (v, c)])
        faces += [(a, b, v), (b, c, v), (c, a, v)]
    return G


def _halin(branching: int, height: int) -> nx.Graph:
    """A Halin graph: the balanced tree (``branching``, ``height``) plus the cycle
    through its leaves in their planar (breadth-first) order."""
    G = nx.balanced_tree(branching, height)
    leaves = [v for v in nx.bfs_tree(G, 0) if G.degree(v) == 1]
    G.add_edges_from(zip(leaves, leaves[1:] + leaves[:1], strict=True))
    return G


def _random_outerplanar(n: int, seed: int) -> nx.Graph:
    """A random maximal outerplanar graph: the ``n``-cycle triangulated by random ears
    (a node of degree 2 in the remaining polygon cut off by the chord of its
    neighbours)."""
    rng = np.random.default_rng(seed)
    G = nx.cycle_graph(n)
    polygon = list(range(n))
    while len(polygon) > 3:
        k = int(rng.integers(len(polygon)))
        G.add_edge(polygon[k - 1], polygon[(k + 1) % len(polygon)])
        polygon.pop(k)
    return G


def _random_cactus(cycles: int, seed: int) -> nx.Graph:
    """A random cactus: ``cycles`` cycles of 3 to 8 nodes, each glued at one node to a
    uniformly random node of the cactus built so far."""
    rng = np.random.default_rng(seed)
    G = nx.cycle_graph(int(rng.integers(3, 9)))
    for _ in range(cycles - 1):
        anchor = int(rng.integers(G.number_of_nodes()))
        size = int(rng.integers(3, 9))
        new = list(range(G.number_of_nodes(), G.number_of_nodes() + size - 1))
        nx.add_cycle(G, [anchor, *new])
    return G


def _de_bruijn(q: int, length: int) -> nx.Graph:
    """The de Bruijn graph B(q, length) made undirected and simple: words of ``length``
    letters, a word joined to its shifts by one letter (loops dropped)."""
    words = list(itertools.product(range(q), repeat=length))
    index = {w: k for k, w in enumerate(words)}
    G = nx.Graph()
    G.add_nodes_from(range(len(words)))
    G.add_edges_from(
        (index[w], index[(*w[1:], a)]) for w in words for a in range(q) if (*w[1:], a) != w
    )
    return G


def _kautz(q: int, length: int) -> nx.Graph:
    """The Kautz graph K(q, length) made undirected and simple: words of ``length + 1``
    letters out of ``q + 1`` with no letter repeated next to itself, a word joined to
    its shifts."""
    words = [
        w
        for w in itertools.product(range(q + 1), repeat=length + 1)
        if all(a != b for a, b in itertools.pairwise(w))
    ]
    index = {w: k for k, w in enumerate(words)}
    return nx.Graph(
        (index[w], index[(*w[1:], a)]) for w in words for a in range(q + 1) if a != w[-1]
    )


def _butterfly(dim: int, wrapped: bool = False) -> nx.Graph:
    """The butterfly graph of dimension ``dim``: levels 0..dim of the 2 ** ``dim`` rows,
    (level, row) joined to (level + 1, row) and to (level + 1, row with bit ``level``
    flipped); ``wrapped`` identifies the last level with the first."""
    levels = dim if wrapped else dim + 1
    G = nx.Graph()
    for level in range(dim):
        nxt = (level + 1) % levels
        for row in range(2**dim):
            G.add_edge((level, row), (nxt, row))
            G.add_edge((level, row), (nxt, row ^ (1 << level)))
    return nx.convert_node_labels_to_integers(G, ordering="sorted")


def _cube_connected_cycles(dim: int) -> nx.Graph:
    """The cube-connected cycles of dimension ``dim``: each corner of the ``dim``-cube
    replaced by a ``dim``-cycle, node (corner, i) joined across the cube's i-th
    direction."""
    G = nx.Graph()
    for corner in range(2**dim):
        for i in range(dim):
            G.add_edge((corner, i), (corner, (i + 1) % dim))
            G.add_edge((corner, i), (corner ^ (1 << i), i))
    return nx.convert_node_labels_to_integers(G, ordering="sorted")


def _folded_cube(dim: int) -> nx.Graph:
    """The folded cube of dimension ``dim``: the (dim - 1)-cube plus the edges joining
    antipodal corners."""
    G = nx.convert_node_labels_to_integers(nx.hypercube_graph(dim - 1), ordering="sorted")
    top = 2 ** (dim - 1) - 1
    G.add_edges_from((v, v ^ top) for v in range(2 ** (dim - 1)) if v < v ^ top)
    return G


def _chessboard(rows: int, cols: int, piece: str) -> nx.Graph:
    """The ``knight``'s or ``queen``'s graph of the ``rows`` x ``cols`` board: squares
    joined by one move."""
    G = nx.Graph()
    squares = list(itertools.product(range(rows), range(cols)))
    G.add_nodes_from(squares)
    for (a, b), (c, d) in itertools.combinations(squares, 2):
        dr, dc = abs(a - c), abs(b - d)
        knight = {dr, dc} == {1, 2}
        queen = dr == 0 or dc == 0 or dr == dc
        if knight if piece == "knight" else queen:
            G.add_edge((a, b), (c, d))
    return nx.convert_node_labels_to_integers(G, ordering="sorted")


def _cayley_symmetric(n: int, moves: str) -> nx.Graph:
    """A Cayley graph of the symmetric group on ``n`` letters: ``pancake`` (prefix
    reversals) or ``bubble`` (transpositions of neighbouring letters)."""
    perms = list(itertools.permutations(range(n)))
    index = {p: k for k, p in enumerate(perms)}
    G = nx.Graph()
    for p in perms:
        if moves == "pancake":
            images = [p[:k][::-1] + p[k:] for k in range(2, n + 1)]
        else:
            images = [(*p[:k], p[k + 1], p[k], *p[k + 2 :]) for k in range(n - 1)]
        G.add_edges_from((index[p], index[q]) for q in images)
    return G


def _interval(n: int, seed: int) -> nx.Graph:
    """The largest component of the interval graph of ``n`` random intervals (left
    ends uniform on [0, 1], lengths exponential of mean 5 / n)."""
    rng = np.random.default_rng(seed)
    left = rng.uniform(0, 1, n)
    right = left + rng.exponential(5 / n, n)
    intervals = [(float(a), float(b)) for a, b in zip(left, right, strict=True)]
    return nx.convert_node_labels_to_integers(_lcc(nx.interval_graph(intervals)))


def _threshold(n: int, seed: int) -> nx.Graph:
    """A random connected threshold graph: nodes added one at a time, each isolated or
    dominating with probability 1/2 (the last dominating)."""
    rng = np.random.default_rng(seed)
    kinds = ["d" if rng.random() < 0.5 else "i" for _ in range(n - 1)]
    from networkx.algorithms.threshold import threshold_graph

    return threshold_graph(["d", *kinds[1:], "d"])


def _random_bipartite(n1: int, n2: int, p: float, seed: int) -> nx.Graph:
    """The largest component of a random bipartite graph G(n1, n2, p)."""
    return nx.convert_node_labels_to_integers(_lcc(nx.bipartite.random_graph(n1, n2, p, seed=seed)))


def _bipartite_gnmk(n1: int, n2: int, m: int, seed: int) -> nx.Graph:
    """The largest component of a random bipartite graph with ``m`` edges."""
    return nx.convert_node_labels_to_integers(
        _lcc(nx.bipartite.gnmk_random_graph(n1, n2, m, seed=seed))
    )


def _intersection(n: int, m: int, p: float, seed: int) -> nx.Graph:
    """The largest component of a general random intersection graph of ``n`` nodes
    over ``m`` attributes, each held with probability ``p``."""
    return nx.convert_node_labels_to_integers(
        _lcc(nx.general_random_intersection_graph(n, m, [p] * m, seed=seed))
    )


def _points(n: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(0, 1, (n, 2))


def _proximity(n: int, seed: int, kind: str) -> nx.Graph:
    """The ``gabriel`` graph, the ``relative`` neighbourhood graph or the Euclidean
    minimum spanning tree (``mst``) of ``n`` uniform points of the unit square."""
    X = _points(n, seed)
    D = np.linalg.norm(X[:, None] - X[None], axis=2)
    if kind == "mst":
        complete = nx.Graph()
        complete.add_weighted_edges_from(
            (i, j, D[i, j]) for i, j in itertools.combinations(range(n), 2)
        )
        return nx.Graph(nx.minimum_spanning_tree(complete).edges)
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for i, j in itertools.combinations(range(n), 2):
        others = np.ones(n, bool)
        others[[i, j]] = False
        if kind == "gabriel":
            blocked = D[i, others] ** 2 + D[j, others] ** 2 < D[i, j] ** 2
        else:
            blocked = np.maximum(D[i, others], D[j, others]) < D[i, j]
        if not blocked.any():
            G.add_edge(i, j)
    return G


def _kronecker(power: int, seed: int) -> nx.Graph:
    """The largest component of a stochastic Kronecker graph: the initiator
    [[0.9, 0.6], [0.6, 0.2]] raised to the Kronecker ``power``, edges drawn
    independently."""
    P = np.array([[0.9, 0.6], [0.6, 0.2]])
    K = P
    for _ in range(power - 1):
        K = np.kron(K, P)
    rng = np.random.default_rng(seed)
    upper = np.triu(rng.random(K.shape) < K, 1)
    return nx.convert_node_labels_to_integers(_simple_lcc(nx.from_numpy_array(upper.astype(int))))


#: The audited graphs: name -> constructor (none of them used by another benchmark).
GRAPHS = {
    # products of complete graphs and set systems
    "rook(6, 8)": lambda: _box(nx.complete_graph(6), nx.complete_graph(8)),
    "hamming(3, 4) normalized": lambda: _hamming(3, 4),
    "johnson(8, 3)": lambda: _johnson(8, 3),
    "johnson(7, 3) integer[1, 5]": lambda: _integer_weights(_johnson(7, 3), 701),
    "crown(12)": lambda: _crown(12),
    "crown(20) lognormal 0.5 s702": lambda: _reweighted(_crown(20), 702, "lognormal0.5"),
    # wheels, fans, books, snakes, banana trees
    "gear(30)": lambda: _gear(30),
    "gear(20) normalized": lambda: _gear(20),
    "helm(25) lognormal 1 s703": lambda: _reweighted(_helm(25), 703, "lognormal1"),
    "fan(60)": lambda: _fan(60),
    "fan(40) integer[1, 5] normalized": lambda: _integer_weights(_fan(40), 704),
    "book(30)": lambda: _book(30),
    "triangular_snake(30) uniform[1, 10] s705": lambda: _reweighted(
        _triangular_snake(30), 705, "uniform"
    ),
    "banana_tree(6, 8) normalized": lambda: _banana_tree(6, 8),
    # self-similar and planar triangulations
    "sierpinski(4)": lambda: _sierpinski(4),
    "sierpinski(3) normalized": lambda: _sierpinski(3),
    "sierpinski(5)": lambda: _sierpinski(5),
    "hanoi(4)": lambda: _hanoi(4),
    "hanoi(5) uniform[1, 10] s706": lambda: _reweighted(_hanoi(5), 706, "uniform"),
    "apollonian(4) normalized": lambda: _apollonian(4),
    "apollonian(5) integer[1, 5]": lambda: _integer_weights(_apollonian(5), 707),
    "random_apollonian(100) s708": lambda: _random_apollonian(100, 708),
    "halin(3, 3)": lambda: _halin(3, 3),
    "halin(2, 6) normalized": lambda: _halin(2, 6),
    "random_outerplanar(80) s709": lambda: _random_outerplanar(80, 709),
    "random_cactus(25) s710 lognormal 0.5": lambda: _reweighted(
        _random_cactus(25, 710), 710, "lognormal0.5"
    ),
    "random_cactus(15) s711 normalized": lambda: _random_cactus(15, 711),
    # interconnection networks and Cayley graphs
    "de_bruijn(2, 7) simple": lambda: _de_bruijn(2, 7),
    "kautz(3, 3) simple": lambda: _kautz(3, 3),
    "butterfly(4)": lambda: _butterfly(4),
    "wrapped_butterfly(5) uniform[1, 10] s712": lambda: _reweighted(
        _butterfly(5, wrapped=True), 712, "uniform"
    ),
    "cube_connected_cycles(4)": lambda: _cube_connected_cycles(4),
    "cube_connected_cycles(6)": lambda: _cube_connected_cycles(6),
    "folded_cube(7)": lambda: _folded_cube(7),
    "knight(8, 8)": lambda: _chessboard(8, 8, "knight"),
    "knight(9, 12) normalized": lambda: _chessboard(9, 12, "knight"),
    "queen(6, 6)": lambda: _chessboard(6, 6, "queen"),
    "pancake(5)": lambda: _cayley_symmetric(5, "pancake"),
    "bubble_sort(5) lognormal 0.5 s713": lambda: _reweighted(
        _cayley_symmetric(5, "bubble"), 713, "lognormal0.5"
    ),
    # random intersection, threshold, bipartite, proximity and Kronecker graphs
    "interval(120) s714 lcc": lambda: _interval(120, 714),
    "interval(80) s715 lcc normalized": lambda: _interval(80, 715),
    "threshold(60) s716": lambda: _threshold(60, 716),
    "bipartite G(40, 60, 0.07) s717 lcc": lambda: _random_bipartite(40, 60, 0.07, 717),
    "bipartite G(50, 70, 180) s718 lcc lognormal 1": lambda: _reweighted(
        _bipartite_gnmk(50, 70, 180, 718), 718, "lognormal1"
    ),
    "general_random_intersection(90, 60, 0.04) s719 lcc": lambda: _intersection(90, 60, 0.04, 719),
    "gabriel(120) s720": lambda: _proximity(120, 720, "gabriel"),
    "gabriel(70) s721 normalized": lambda: _proximity(70, 721, "gabriel"),
    "relative_neighbourhood(150) s722 uniform[1, 10]": lambda: _reweighted(
        _proximity(150, 722, "relative"), 722, "uniform"
    ),
    "euclidean_mst(200) s723 lognormal 0.5": lambda: _reweighted(
        _proximity(200, 723, "mst"), 723, "lognormal0.5"
    ),
    "stochastic_kronecker(7) s724 lcc": lambda: _kronecker(7, 724),
}
#: The graphs whose normalized Laplacian is audited (basis and inference).
LAPLACIANS = {name: "normalized" for name in GRAPHS if name.endswith(" normalized")}
#: Graphs learned from signals at ``SIGNAL_SETTINGS`` (at most 60 nodes).
SIGNALS = [
    "crown(12)",
    "helm(25) lognormal 1 s703",
    "sierpinski(3) normalized",
    "halin(3, 3)",
    "johnson(7, 3) integer[1, 5]",
    "gear(20) normalized",
]
SIGNAL_SETTINGS = [(20, 0.1), (20, 0.5)]
#: Graphs learned from signals at (5n, 0.1) with ``--signals-5n`` (up to 150 nodes).
SIGNALS_5N = [
    "hanoi(4)",
    "random_apollonian(100) s708",
    "de_bruijn(2, 7) simple",
    "knight(8, 8)",
    "gabriel(120) s720",
]


if __name__ == "__main__":
    audit_main(GRAPHS, SIGNALS, SIGNAL_SETTINGS, __doc__, LAPLACIANS, SEED, SIGNALS_5N)
