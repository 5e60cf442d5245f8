"""The third held-out audit script (benchmarks/bench_audit_third.py): its classes, and that
its graphs are connected, sized and held out from the other inference benchmarks."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import networkx as nx
import pytest
from _audit_graphs import connected_simple_sized, listed_graphs, plain

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def third(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_third

    return bench_audit_third


def _result(dim: int = 1, cands: int = 1) -> SimpleNamespace:
    return SimpleNamespace(family_dimension=dim, n_candidates=cands)


def test_classes(third):
    # exact and perturbed inputs: bench_audit_wider's targets
    assert third._classify("exact", 1, 0.99, _result(), False) == "WRONG SILENT"
    assert third._classify("exact", 2, 0.99, _result(), False) == "right quiet"
    assert third._classify("perturbed", 1, 0.95, _result(), False) == "right quiet"
    # signals: F1 >= 0.98, whatever the multiplicity
    assert third._classify("signals", 1, 0.98, _result(), True) == "right warned"
    assert third._classify("signals", 1, 0.97, _result(), False) == "WRONG SILENT"
    assert third._classify("signals", 3, 0.97, _result(dim=2), False) == "wrong, family only"
    assert third._classify("signals", 1, 0.5, _result(), True) == "wrong warned"
    assert third._classify("signals", 1, float("nan"), _result(), False) == "WRONG SILENT"
    # the refusal of learn_graph is a class of its own beside the crash
    assert third.ALL_CLASSES[:2] == ["crash", "refused"]
    assert set(third.ALL_CLASSES) - {"refused"} == set(third.CLASSES)


def test_cases(third):
    name = third.SIGNALS[0]
    cases = list(third._cases([name, "dodecahedral"], ["exact", "signals"], [0, 1, 2]))
    # three draws of exact input each; signals once per setting, on SIGNALS only
    assert [c for c in cases if c[1] == "exact"] == [
        (g, "exact", d, None) for g in (name, "dodecahedral") for d in (0, 1, 2)
    ]
    assert [c for c in cases if c[1] == "signals"] == [
        (name, "signals", 0, s) for s in third.SIGNAL_SETTINGS
    ]


def test_graphs_are_held_out(third):
    import bench_audit
    import bench_audit_wider

    assert not listed_graphs() & plain(third.GRAPHS)
    assert len(third.GRAPHS) >= 40
    assert set(third.SIGNALS) <= set(third.GRAPHS)
    # the small graphs are not the other audits' small graphs renamed
    others = [
        G
        for graphs in (bench_audit.GRAPHS, bench_audit_wider.GRAPHS)
        for name, f in graphs.items()
        if name not in bench_audit.LARGE
        and "RGG(400" not in name
        and "BA(400" not in name
        and (G := f()).number_of_nodes() <= 30
    ]
    for name in (
        "dodecahedral",
        "kneser K(7, 2) complement of L(K7)",
        "complete_bipartite(7, 13)",
        "mycielski(5)",
        "complement of random_regular(4, 30) s75",
    ):
        G = third.GRAPHS[name]()
        same_size = [
            H
            for H in others
            if (H.number_of_nodes(), H.number_of_edges())
            == (G.number_of_nodes(), G.number_of_edges())
        ]
        assert not any(nx.is_isomorphic(G, H) for H in same_size), name


def test_graphs_are_connected_and_weighted(third):
    names = (
        "random_cograph(6) s61 (or its complement)",
        "chordal_cycle(53) simple",
        "binomial_tree(5) integer[1, 5]",
        "les_miserables lognormal 0.5",
    )
    assert not connected_simple_sized(third.GRAPHS, names, 15, 200)
    weights = {w for *_, w in third.GRAPHS["florentine integer[1, 5]"]().edges(data="weight")}
    assert weights <= {1.0, 2.0, 3.0, 4.0, 5.0} and len(weights) > 1
