"""The ninth held-out audit script (benchmarks/bench_audit_ninth.py): its graphs are
connected, simple, sized and held out from the other inference benchmarks and audits,
and its hand-built families have the sizes, degrees and structure their definitions
give."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from _audit_graphs import assert_held_out, connected_simple_sized

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def ninth(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_ninth

    return bench_audit_ninth


def test_graphs_are_held_out(ninth):
    import bench_audit_eighth
    import bench_audit_fifth
    import bench_audit_fourth
    import bench_audit_seventh
    import bench_audit_sixth
    import bench_audit_third

    # no seed of the earlier audits (theirs end at 628); generators no other
    # benchmark calls
    assert_held_out(
        ninth,
        (
            bench_audit_third,
            bench_audit_fourth,
            bench_audit_fifth,
            bench_audit_sixth,
            bench_audit_seventh,
            bench_audit_eighth,
        ),
        40,
        8,
        628,
        (
            "_hamming",
            "_johnson",
            "_crown",
            "_gear",
            "_helm",
            "_sierpinski",
            "_hanoi",
            "_apollonian",
            "_halin",
            "_de_bruijn",
            "_kautz",
            "_butterfly",
            "_cube_connected_cycles",
            "_chessboard",
            "_cayley_symmetric",
            "interval_graph",
            "algorithms.threshold",
            "gnmk_random_graph",
            "general_random_intersection_graph",
            "_proximity",
            "_kronecker",
        ),
    )
    assert set(ninth.SIGNALS_5N) <= set(ninth.GRAPHS)


def test_graphs_are_connected_simple_and_sized(ninth):
    # the crown of 12 has 24 nodes; the cube-connected cycles of dimension 6 have 384
    assert not connected_simple_sized(ninth.GRAPHS, list(ninth.GRAPHS), 24, 400)
    for name in ninth.SIGNALS:
        assert ninth.GRAPHS[name]().number_of_nodes() <= 60, name
    for name in ninth.SIGNALS_5N:
        assert ninth.GRAPHS[name]().number_of_nodes() <= 150, name


def _regular(G, degree):
    return {d for _, d in G.degree} == {degree}


def test_products_and_set_systems(ninth):
    hamming = ninth._hamming(3, 4)
    assert hamming.number_of_nodes() == 64 and _regular(hamming, 9)
    # J(8, 3): C(8, 3) sets, each meets k (n - k) = 15 others in two elements
    johnson = ninth._johnson(8, 3)
    assert johnson.number_of_nodes() == 56 and _regular(johnson, 15)
    crown = ninth._crown(12)
    assert nx.is_bipartite(crown) and _regular(crown, 11)
    assert not crown.has_edge(0, 12) and crown.has_edge(0, 13)
    folded = ninth._folded_cube(7)
    assert folded.number_of_nodes() == 64 and _regular(folded, 7)


def test_wheels_fans_and_trees(ninth):
    gear = ninth._gear(30)
    assert gear.number_of_nodes() == 61 and gear.degree(0) == 30
    assert sorted({d for _, d in gear.degree}) == [2, 3, 30]
    helm = ninth._helm(25)
    assert helm.number_of_nodes() == 51 and helm.degree(0) == 25
    assert sum(1 for _, d in helm.degree if d == 1) == 25
    fan = ninth._fan(60)
    assert fan.degree(60) == 60 and fan.number_of_edges() == 59 + 60
    book = ninth._book(30)
    assert book.number_of_nodes() == 62 and book.number_of_edges() == 3 * 30 + 1
    snake = ninth._triangular_snake(30)
    assert snake.number_of_nodes() == 61 and sum(nx.triangles(snake).values()) == 3 * 30
    banana = ninth._banana_tree(6, 8)
    assert nx.is_tree(banana) and banana.number_of_nodes() == 49 and banana.degree(0) == 6


def test_self_similar_and_planar(ninth):
    for level in (3, 4):
        G = ninth._sierpinski(level)
        assert G.number_of_nodes() == 3 * (3**level + 1) // 2
        assert G.number_of_edges() == 3 ** (level + 1)
        assert sorted({d for _, d in G.degree}) == [2, 4]
    hanoi = ninth._hanoi(4)
    assert hanoi.number_of_nodes() == 81 and hanoi.number_of_edges() == 3 * (81 - 1) // 2
    # three nodes of degree 2 (every disc on one peg), the others of degree 3
    assert sum(1 for _, d in hanoi.degree if d == 2) == 3
    for G in (ninth._apollonian(4), ninth._random_apollonian(100, 708)):
        n = G.number_of_nodes()
        assert nx.is_planar(G) and G.number_of_edges() == 3 * n - 6
    assert ninth._apollonian(4).number_of_nodes() == 3 + (3**4 - 1) // 2
    halin = ninth._halin(3, 3)
    assert nx.is_planar(halin) and halin.number_of_edges() == 39 + 27
    assert min(d for _, d in halin.degree) == 3
    outer = ninth._random_outerplanar(80, 709)
    assert nx.is_planar(outer) and outer.number_of_edges() == 2 * 80 - 3
    cactus = ninth._random_cactus(25, 710)
    # every block a cycle, 25 of them
    blocks = list(nx.biconnected_components(cactus))
    assert len(blocks) == 25
    assert all(cactus.subgraph(b).number_of_edges() == len(b) for b in blocks)


def test_interconnection_networks(ninth):
    debruijn = ninth._de_bruijn(2, 7)
    assert debruijn.number_of_nodes() == 128 and max(d for _, d in debruijn.degree) == 4
    kautz = ninth._kautz(3, 3)
    assert kautz.number_of_nodes() == 4 * 3**3
    butterfly = ninth._butterfly(4)
    assert butterfly.number_of_nodes() == 5 * 16 and butterfly.number_of_edges() == 2 * 4 * 16
    wrapped = ninth._butterfly(5, wrapped=True)
    assert wrapped.number_of_nodes() == 5 * 32 and _regular(wrapped, 4)
    ccc = ninth._cube_connected_cycles(4)
    assert ccc.number_of_nodes() == 64 and _regular(ccc, 3)
    pancake = ninth._cayley_symmetric(5, "pancake")
    bubble = ninth._cayley_symmetric(5, "bubble")
    assert _regular(pancake, 4) and _regular(bubble, 4)
    # the bubble-sort graph is bipartite (a transposition changes the sign); the
    # pancake graph has 6-cycles but no shorter ones
    assert nx.is_bipartite(bubble) and nx.girth(pancake) == 6


def test_chessboards(ninth):
    knight = ninth._chessboard(8, 8, "knight")
    assert knight.number_of_edges() == 168 and nx.is_bipartite(knight)
    queen = ninth._chessboard(6, 6, "queen")
    # n (n - 1) (5 n - 1) / 3 edges on the n x n board
    assert queen.number_of_edges() == 6 * 5 * 29 // 3


def test_random_families(ninth):
    from networkx.algorithms.threshold import is_threshold_graph

    threshold = ninth._threshold(60, 716)
    assert is_threshold_graph(threshold) and threshold.number_of_nodes() == 60
    assert nx.is_chordal(ninth._interval(120, 714))
    assert nx.is_bipartite(ninth._random_bipartite(40, 60, 0.07, 717))
    # the minimum spanning tree lies in the relative neighbourhood graph, which lies in
    # the Gabriel graph (same points)
    mst, rng, gabriel = (ninth._proximity(60, 7, kind) for kind in ("mst", "relative", "gabriel"))
    edges = [{frozenset(e) for e in G.edges} for G in (mst, rng, gabriel)]
    assert nx.is_tree(mst) and edges[0] <= edges[1] <= edges[2]
    assert len(edges[0]) < len(edges[1]) < len(edges[2])


def _run(ninth, name, kind, draw=0):
    from bench_audit_third import _classify
    from bench_inference_sweep import _multiplicity, _relabel, run_one

    from gsp_householder import fourier_basis

    B = fourier_basis(_relabel(ninth.GRAPHS[name]()), ninth.LAPLACIANS.get(name))
    res, cmp, _, caught = run_one(B, kind, draw, 1e-3, laplacian=ninth.LAPLACIANS.get(name))
    verdict = _classify(kind, _multiplicity(B.eigenvalues), cmp["f1"], res, bool(caught))
    return B, res, verdict


def test_normalized_hamming_graph_right_and_quiet(ninth):
    B, res, verdict = _run(ninth, "hamming(3, 4) normalized", "perturbed")
    assert verdict == "right quiet"
    assert (res.laplacian.nnz - B.n) // 2 == 288


def test_johnson_graph_answered_by_its_kneser_graph(ninth):
    # J(8, 3) and the Kneser graph K(8, 3) (3-sets joined when disjoint: 280 edges for
    # 420) are relations of one association scheme, so they share their eigenvectors,
    # and K(8, 3) is the sparser: not identifiable, flagged as a family, not warned
    import itertools

    import numpy as np

    _, res, verdict = _run(ninth, "johnson(8, 3)", "exact")
    assert verdict == "wrong, family only"
    sets = [frozenset(s) for s in itertools.combinations(range(8), 3)]
    kneser = {(i, j) for i, j in itertools.combinations(range(56), 2) if not sets[i] & sets[j]}
    L = res.laplacian.toarray()
    assert {(int(i), int(j)) for i, j in zip(*np.nonzero(np.triu(L, 1)), strict=True)} == kneser
    # equal weights: the Kneser graph is 10-regular
    weights = -L[np.triu(L, 1) != 0]
    assert np.allclose(weights, weights[0])


def test_fan_answered_by_its_star_warned(ninth):
    # the fan's Laplacian is the path's plus the identity on the path nodes apart from
    # the hub's row and column, so the star at the hub has the fan's eigenvectors and
    # fewer edges: returned (60 edges for 119), warned
    B, res, verdict = _run(ninth, "fan(60)", "exact")
    assert verdict == "wrong warned"
    L = res.laplacian.tocoo()
    edges = {
        (min(i, j), max(i, j))
        for i, j in zip(L.row.tolist(), L.col.tolist(), strict=True)
        if i != j
    }
    hubs = {v for e in edges for v in e if sum(v in f for f in edges) == 60}
    assert len(edges) == 60 and len(hubs) == 1
    assert B.laplacian.diagonal()[hubs.pop()] == 60
