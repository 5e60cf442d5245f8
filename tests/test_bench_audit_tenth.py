"""The tenth held-out audit script (benchmarks/bench_audit_tenth.py): its graphs are
connected, simple, sized and held out from the other inference benchmarks and audits,
its hand-built families have the sizes, degrees and structure their definitions give,
and a few of its runs are classified as the audit reports them."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np
import pytest
from _audit_graphs import assert_held_out, connected_simple_sized

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def tenth(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_tenth

    return bench_audit_tenth


def test_graphs_are_held_out(tenth):
    import bench_audit_eighth
    import bench_audit_fifth
    import bench_audit_fourth
    import bench_audit_ninth
    import bench_audit_seventh
    import bench_audit_sixth
    import bench_audit_third

    # no seed of the earlier audits (theirs end at 724); generators no other
    # benchmark calls
    assert_held_out(
        tenth,
        (
            bench_audit_third,
            bench_audit_fourth,
            bench_audit_fifth,
            bench_audit_sixth,
            bench_audit_seventh,
            bench_audit_eighth,
            bench_audit_ninth,
        ),
        40,
        8,
        724,
        (
            "_gaussian_knn",
            "_gaussian_epsilon",
            "_random_recursive_tree",
            "_fibonacci_tree",
            "_double_broom",
            "_firecracker",
            "_comb",
            "_block_graph",
            "_random_ktree",
            "_perforated_grid",
            "_cocktail_party",
            "_kagome",
            "_bridged_pair",
            "_joined_by_one_edge",
            "_with_pendant_paths",
            "_iterated_mycielskian",
        ),
    )
    assert set(tenth.SIGNALS_5N) <= set(tenth.GRAPHS)


def test_graphs_are_connected_simple_and_sized(tenth):
    # the smallest is the cocktail-party graph of 12 pairs (24 nodes), the largest the
    # random recursive tree of 300 nodes
    assert not connected_simple_sized(tenth.GRAPHS, list(tenth.GRAPHS), 20, 300)
    for name in tenth.SIGNALS:
        assert tenth.GRAPHS[name]().number_of_nodes() <= 60, name
    for name in tenth.SIGNALS_5N:
        assert tenth.GRAPHS[name]().number_of_nodes() <= 150, name


def test_point_cloud_graphs(tenth):
    knn = tenth._gaussian_knn(60, 5, 801)
    # every point keeps at least its 5 nearest neighbours; weights in (0, 1]
    assert min(d for _, d in knn.degree) >= 5
    weights = np.array([w for *_, w in knn.edges(data="weight")])
    assert np.all((weights > 0) & (weights <= 1))
    eps = tenth._gaussian_epsilon(100, 0.2, 806)
    X = tenth._point_cloud(100, 806)
    # the weights are exp(-d^2 / sigma^2) with sigma = eps / 2, so d < eps puts them
    # above exp(-4)
    weights = np.array([w for *_, w in eps.edges(data="weight")])
    assert np.all(weights > np.exp(-4.0))
    assert X.shape == (100, 2) and tenth._point_cloud(10, 1, "cube").shape == (10, 3)
    ring = tenth._point_cloud(200, 805, "ring")
    assert abs(np.median(np.linalg.norm(ring, axis=1)) - 1) < 0.05


def test_trees(tenth):
    recursive = tenth._random_recursive_tree(90, 809)
    assert nx.is_tree(recursive) and recursive.number_of_nodes() == 90
    # every node but the root has one earlier neighbour
    assert all(sum(u < v for u in recursive[v]) == 1 for v in range(1, 90))
    # Fibonacci trees: F(k) nodes with F(0) = F(1) = 1, F(k) = F(k-1) + F(k-2) + 1
    sizes = [1, 1]
    for _ in range(8):
        sizes.append(sizes[-1] + sizes[-2] + 1)
    assert [tenth._fibonacci_tree(k).number_of_nodes() for k in (8, 9)] == sizes[8:10]
    assert nx.is_tree(tenth._fibonacci_tree(9))
    broom = tenth._double_broom(20, 8, 12)
    assert nx.is_tree(broom) and broom.number_of_nodes() == 40
    assert broom.degree(0) == 9 and broom.degree(19) == 13
    fire = tenth._firecracker(8, 6)
    assert nx.is_tree(fire) and fire.number_of_nodes() == 48
    assert sorted(d for _, d in fire.degree)[-8:] == [5] * 8
    comb = tenth._comb(15, 3)
    assert nx.is_tree(comb) and comb.number_of_nodes() == 60
    assert sum(1 for _, d in comb.degree if d == 1) == 15


def test_chordal_and_regular(tenth):
    block = tenth._block_graph(20, 816)
    blocks = list(nx.biconnected_components(block))
    assert len(blocks) == 20 and nx.is_chordal(block)
    assert all(block.subgraph(b).number_of_edges() == len(b) * (len(b) - 1) // 2 for b in blocks)
    for k, n in ((2, 80), (3, 60)):
        tree = tenth._random_ktree(n, k, 818)
        # a k-tree on n nodes has k n - k (k + 1) / 2 edges and is chordal
        assert tree.number_of_edges() == k * n - k * (k + 1) // 2 and nx.is_chordal(tree)
    cocktail = tenth._cocktail_party(15)
    assert {d for _, d in cocktail.degree} == {28} and not cocktail.has_edge(0, 15)
    kagome = tenth._kagome(3, 4)
    assert {d for _, d in kagome.degree} <= {2, 3, 4}
    grid = tenth._perforated_grid(12, 14, 20, 820)
    assert grid.number_of_nodes() <= 148 and max(d for _, d in grid.degree) <= 4


def test_joined_parts(tenth):
    pair = tenth._bridged_pair(30, 0.3, 40, 0.25, 824)
    # the joining edge is a bridge whose removal leaves the two dense parts
    parts = []
    for u, v in nx.bridges(pair):
        H = pair.copy()
        H.remove_edge(u, v)
        parts.append(sorted(len(c) for c in nx.connected_components(H)))
    assert [30, 40] in parts or any(p[0] >= 20 for p in parts)
    joined = tenth._joined_by_one_edge(nx.petersen_graph(), nx.cycle_graph(15))
    assert joined.number_of_nodes() == 25 and joined.number_of_edges() == 15 + 15 + 1
    assert list(nx.bridges(joined)) == [(0, 10)]
    pendant = tenth._with_pendant_paths(nx.complete_graph(8), (2, 3, 5, 7), 828)
    assert pendant.number_of_nodes() == 8 + 17 and pendant.number_of_edges() == 28 + 17
    real = tenth.GRAPHS["karate + les_miserables own weights by one edge s827"]()
    weights = sorted({w for *_, w in real.edges(data="weight")})
    assert real.number_of_nodes() == 34 + 77 and len(weights) > 5
    myc = tenth._iterated_mycielskian(nx.cycle_graph(7), 2)
    assert myc.number_of_nodes() == 2 * (2 * 7 + 1) + 1


def _run(tenth, name, kind, draw=0):
    from bench_audit_third import _classify
    from bench_inference_sweep import _multiplicity, _relabel, run_one

    from gsp_householder import fourier_basis

    G = _relabel(tenth.GRAPHS[name]())
    B = fourier_basis(G, tenth.LAPLACIANS.get(name))
    res, cmp, _, caught = run_one(B, kind, draw, 1e-3, laplacian=tenth.LAPLACIANS.get(name))
    verdict = _classify(kind, _multiplicity(B.eigenvalues), cmp["f1"], res, bool(caught))
    return G, B, res, verdict


def _edges(L) -> set[tuple[int, int]]:
    L = L.tocoo()
    return {(int(i), int(j)) for i, j, w in zip(L.row, L.col, L.data, strict=True) if i < j and w}


def test_gaussian_knn_graph_right_and_quiet(tenth):
    _, B, res, verdict = _run(tenth, "gaussian_knn(60, 5) s801", "perturbed")
    assert verdict == "right quiet"
    assert _edges(res.laplacian) == _edges(B.laplacian)


def test_clique_twins_dropped_with_the_family_flag(tenth):
    # K8 with pendant paths on four of its nodes: the other four have the same closed
    # neighbourhood, so the vectors on them summing to zero are eigenvectors of every
    # Laplacian here and the six edges among them can go (39 edges for 45, the same
    # eigenvectors): not identifiable, flagged as a family
    G, B, res, verdict = _run(tenth, "complete(8) + pendant paths (2, 3, 5, 7) s828", "exact")
    assert verdict == "wrong, family only" and res.family_dimension > 1
    twins = [v for v in range(8) if G.degree(v) == 7]
    assert len(twins) == 4
    dropped = {(u, v) for u, v in _edges(B.laplacian) if u in twins and v in twins}
    assert _edges(res.laplacian) == _edges(B.laplacian) - dropped and len(dropped) == 6


def test_block_graph_answered_by_a_sparser_twin_warned(tenth):
    # each clique's nodes that are no cut node are twins, and the edges among twins can
    # go without changing the eigenvectors: a subgraph of the truth, warned
    G, B, res, verdict = _run(tenth, "block_graph(20) s816", "exact")
    assert verdict == "wrong warned"
    found, true = _edges(res.laplacian), _edges(B.laplacian)
    assert found < true
    closed = {v: set(G[v]) | {v} for v in G}
    assert all(closed[u] == closed[v] for u, v in true - found)
    L, T = res.laplacian.toarray(), B.laplacian.toarray()
    assert np.abs(L @ T - T @ L).max() < 1e-9 * np.abs(T).max() ** 2


def test_circulant_of_four_jumps_answered_by_a_cycle_warned(tenth):
    # every circulant of 97 nodes has the Fourier modes as eigenvectors, so the 97-cycle
    # of any one jump is a sparser valid answer: returned, warned
    _, _, res, verdict = _run(tenth, "circulant(97, [1, 3, 8, 21])", "exact")
    assert verdict == "wrong warned"
    cycle = nx.Graph(sorted(_edges(res.laplacian)))
    assert cycle.number_of_nodes() == 97 and nx.is_connected(cycle)
    assert {d for _, d in cycle.degree} == {2}
    assert len({(v - u) % 97 for u, v in cycle.edges} | {(u - v) % 97 for u, v in cycle.edges}) == 2
