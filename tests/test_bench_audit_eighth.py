"""The eighth held-out audit script (benchmarks/bench_audit_eighth.py): its graphs are
connected, simple, sized and held out from the other inference benchmarks and audits,
its hand-built near-stars, stars of cliques and cylinders have the shapes their names
say, and a few of its runs are classified as the audit reports them."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from _audit_graphs import assert_held_out, connected_simple_sized

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def eighth(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_eighth

    return bench_audit_eighth


def test_graphs_are_held_out(eighth):
    import bench_audit_fifth
    import bench_audit_fourth
    import bench_audit_seventh
    import bench_audit_sixth
    import bench_audit_third

    # no seed of the earlier audits (theirs end at 527); generators no other
    # benchmark calls
    assert_held_out(
        eighth,
        (
            bench_audit_third,
            bench_audit_fourth,
            bench_audit_fifth,
            bench_audit_sixth,
            bench_audit_seventh,
        ),
        40,
        8,
        527,
        ("_near_star", "_star_of_cliques", "_cylinder", "full_rary_tree(6, 200)", '"Comet", 100'),
    )
    assert set(eighth.SIGNALS_5N) <= set(eighth.GRAPHS)


def test_graphs_are_connected_simple_and_sized(eighth):
    # the Florentine families have 15 nodes
    assert not connected_simple_sized(eighth.GRAPHS, list(eighth.GRAPHS), 15, 250)
    for name in eighth.SIGNALS:
        assert eighth.GRAPHS[name]().number_of_nodes() <= 60, name
    for name in eighth.SIGNALS_5N:
        assert eighth.GRAPHS[name]().number_of_nodes() <= 150, name


def test_hand_built_shapes(eighth):
    star = eighth._near_star(45, 3, 601)
    assert star.number_of_nodes() == 46 and star.number_of_edges() == 48
    assert star.degree(0) == 45
    # the extra edges join leaves
    assert sum(1 for u, v in star.edges if 0 not in (u, v)) == 3
    cliques = eighth._star_of_cliques(6, 5)
    assert cliques.number_of_nodes() == 31 and cliques.degree(0) == 6
    # without the hub: six cliques of five nodes
    parts = list(nx.connected_components(nx.restricted_view(cliques, [0], [])))
    assert sorted(len(c) for c in parts) == [5] * 6
    assert all(cliques.subgraph(c).number_of_edges() == 10 for c in parts)
    cylinder = eighth._cylinder(20, 4)
    assert cylinder.number_of_nodes() == 80 and cylinder.number_of_edges() == 140
    assert sorted({d for _, d in cylinder.degree}) == [3, 4]
    grid = eighth._grid(6, 12)
    assert grid.number_of_edges() == 6 * 11 + 5 * 12
    karate = eighth._karate_unit()
    assert karate.number_of_nodes() == 34 and karate.number_of_edges() == 78
    assert all("weight" not in d for *_, d in karate.edges(data=True))
    mk = eighth._moebius_kantor()
    assert mk.number_of_nodes() == 16 and nx.is_regular(mk) and nx.girth(mk) == 6
