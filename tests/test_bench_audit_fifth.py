"""The fifth held-out audit script (benchmarks/bench_audit_fifth.py): its graphs are
connected, sized and held out from the other inference benchmarks and audits, and its
label check reports labels lost or added and compares edges by label."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from _audit_graphs import assert_held_out, connected_simple_sized

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def fifth(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_fifth

    return bench_audit_fifth


def test_graphs_are_held_out(fifth):
    import bench_audit_fourth
    import bench_audit_third

    # no seed of the earlier audits (theirs end at 235); generators no other
    # benchmark calls
    assert_held_out(
        fifth,
        (bench_audit_third, bench_audit_fourth),
        40,
        5,
        235,
        (
            "LFR_benchmark_graph",
            "random_clustered_graph",
            "random_spanning_tree",
            "dense_gnm_random_graph",
            "spectral_graph_forge",
            "ego_graph",
            '"TwoMoons"',
            '"Sphere"',
        ),
    )


def test_graphs_are_connected_simple_and_sized(fifth):
    names = (
        "generalized_petersen(20, 3)",
        "odd graph kneser(7, 3)",
        "chvatal box path(4)",
        "random_clustered(80) s305 simple lcc",
        "margulis_gabber_galil(7) simple",
        "random_spanning_tree(grid 8 x 10) s306",
        "SBM(25, 35, 45) s313 lognormal 1",
    )
    assert not connected_simple_sized(fifth.GRAPHS, names, 30, 250)
    # GP(20, 3) and K(7, 3) are cubic and 4-regular; the box product of the Chvatal
    # graph (4-regular, 12 nodes) with a path of 4 nodes has 48 nodes and 132 edges
    assert {d for _, d in fifth.GRAPHS["generalized_petersen(20, 3)"]().degree} == {3}
    assert {d for _, d in fifth.GRAPHS["odd graph kneser(7, 3)"]().degree} == {4}
    box = fifth.GRAPHS["chvatal box path(4)"]()
    assert (box.number_of_nodes(), box.number_of_edges()) == (48, 4 * 24 + 12 * 3)
    assert nx.is_tree(fifth.GRAPHS["random_spanning_tree(grid 8 x 10) s306"]())
    for name in fifth.SIGNALS:
        assert fifth.GRAPHS[name]().number_of_nodes() <= 120, name


def test_label_report(fifth):
    G = fifth.stringed(nx.cycle_graph(6), 1)
    assert all(isinstance(v, str) for v in G)
    assert nx.is_isomorphic(G, nx.cycle_graph(6))
    assert fifth.label_report(G, G.copy()) == ("labels ok", 1.0)
    # one edge moved: F1 by label 5/6
    H = G.copy()
    u, v = next(iter(G.edges))
    H.remove_edge(u, v)
    H.add_edge(u, next(w for w in G if w not in (u, v) and not G.has_edge(u, w)))
    assert fifth.label_report(G, H) == ("labels ok", pytest.approx(5 / 6))
    # labels replaced by integers: every label lost
    report, f1 = fifth.label_report(G, nx.convert_node_labels_to_integers(G))
    assert report == "labels lost 6, added 6"
    assert f1 != f1  # NaN


def test_label_runs_keep_string_labels(fifth):
    # the exported graphs carry the string labels of the graph and its edges by label
    runs = fifth.label_runs("odd graph kneser(7, 3)", None, signals=False)
    assert [(kind, labels, f1) for kind, labels, f1, _ in runs] == [
        ("FourierBasis", "labels ok", 1.0),
        ("shuffled + nodelist", "labels ok", 1.0),
    ]
