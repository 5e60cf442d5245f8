"""The fourth held-out audit script (benchmarks/bench_audit_fourth.py): its graphs are
connected, sized and held out from the other inference benchmarks, and the harness it
shares with the third audit classifies its runs, normalized Laplacians among them."""

from __future__ import annotations

import sys
from pathlib import Path

import networkx as nx
import pytest
from _audit_graphs import connected_simple_sized, listed_graphs, other_sources, plain

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def fourth(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_fourth

    return bench_audit_fourth


def test_graphs_are_held_out(fourth):
    import bench_audit_third

    assert not listed_graphs(bench_audit_third.GRAPHS) & plain(fourth.GRAPHS)
    assert len(fourth.GRAPHS) >= 30
    assert set(fourth.SIGNALS) <= set(fourth.GRAPHS)
    assert set(fourth.LAPLACIANS) <= set(fourth.GRAPHS)
    assert len(fourth.LAPLACIANS) >= 3
    # no generator of this audit is called by another benchmark (but the later audits)
    others = other_sources("bench_audit_fourth.py")
    for generator in (
        "random_kernel_graph",
        "navigable_small_world_graph",
        "lattice_reference",
        "configuration_model",
        "expected_degree_graph",
        "havel_hakimi_graph",
        "random_shell_graph",
        "gnr_graph",
        "partial_duplication_graph",
        "random_k_out_graph",
        "intersection_graph",
        "random_regular_expander_graph",
        "visibility_graph",
        "random_unlabeled_tree",
        "prefix_tree",
        "nx.cartesian_product",
        "nx.tensor_product",
        "nx.strong_product",
        "nx.lexicographic_product",
        "nx.rooted_product",
        "nx.corona_product",
        '"Cube"',
        "LineGraph",
    ):
        assert generator not in others, generator


def test_graphs_are_connected_simple_and_sized(fourth):
    names = (
        "scale_free(140) s209 simple",
        "gnc(70) s212 simple",
        "prefix_tree(40 words) s220",
        "random_k_out(70, 3, 1) s225 simple lognormal 0.5",
        "corona_product(cycle(10), path(3))",
        "random_unlabeled_tree(60) s232 normalized",
    )
    assert not connected_simple_sized(fourth.GRAPHS, names, 20, 250)
    assert nx.is_tree(fourth.GRAPHS["prefix_tree(40 words) s220"]())
    weights = {
        w
        for *_, w in fourth.GRAPHS["random_k_out(70, 3, 1) s225 simple lognormal 0.5"]().edges(
            data="weight"
        )
    }
    assert len(weights) > 100


def test_cases_signals_at_one_setting(fourth):
    import bench_audit_third

    name = fourth.SIGNALS[0]
    cases = list(
        bench_audit_third._cases(
            [name, "gnc(70) s212 simple"],
            ["exact", "signals"],
            [0],
            fourth.SIGNALS,
            fourth.SIGNAL_SETTINGS,
        )
    )
    assert cases == [
        (name, "exact", 0, None),
        (name, "signals", 0, (5, 0.1)),
        ("gnc(70) s212 simple", "exact", 0, None),
        ("gnc(70) s212 simple", "signals", 0, (5, 0.1)),
    ]


def test_main_classifies_normalized_and_combinatorial_runs(fourth, monkeypatch, capsys):
    # the shared main on small graphs: a normalized basis must be inferred as a normalized
    # Laplacian (the Frucht graph: right and quiet); the complement of a 3-regular graph
    # is answered by the sparser 3-regular graph (same eigenvectors, the third audit's
    # silent class): with no flag from its combinatorial basis, with the family flag only
    # from its normalized one
    import bench_audit_third

    def complement():
        return nx.complement(nx.random_regular_graph(3, 20, seed=5))

    graphs = {
        "frucht normalized": nx.frucht_graph,
        "complement": complement,
        "complement normalized": complement,
    }
    laplacians = {name: "normalized" for name in graphs if name.endswith("normalized")}
    monkeypatch.setattr(sys, "argv", ["bench", "--input", "exact", "--draws", "0"])
    bench_audit_third.main(graphs, [], [], "audit", laplacians)
    rows = {
        line.split(" | ")[0][2:]: line
        for line in capsys.readouterr().out.splitlines()
        if line.startswith("| frucht") or line.startswith("| complement")
    }
    frucht = rows["frucht normalized"].split(" | ")
    # edges / true, W, comm and class
    assert (frucht[6], frucht[9], frucht[11], frucht[13]) == (
        "18 / 18",
        "-",
        "yes",
        "right quiet |",
    )
    assert "| 30 / 160 |" in rows["complement"]
    assert rows["complement"].endswith("| wrong, complement only |")
    assert rows["complement normalized"].endswith("| wrong, family only |")
