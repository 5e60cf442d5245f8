"""The seventh held-out audit script (benchmarks/bench_audit_seventh.py): its graphs are
connected, simple, sized and held out from the other inference benchmarks and audits,
its hand-built trees, cycles and theta graphs have the shapes their names say, and a few
of its runs are classified as the audit reports them."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from _audit_graphs import assert_held_out, connected_simple_sized

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def seventh(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_seventh

    return bench_audit_seventh


def test_graphs_are_held_out(seventh):
    import bench_audit_fifth
    import bench_audit_fourth
    import bench_audit_sixth
    import bench_audit_third

    # no seed of the earlier audits (theirs end at 427); generators no other
    # benchmark calls
    assert_held_out(
        seventh,
        (bench_audit_third, bench_audit_fourth, bench_audit_fifth, bench_audit_sixth),
        40,
        8,
        427,
        (
            "_double_star",
            "_broom",
            "_theta(",
            "_cycle_chords",
            "margulis_gabber_galil_graph(5)",
            '"SwissRoll", 150',
        ),
    )
    assert set(seventh.SIGNALS_5N) <= set(seventh.GRAPHS)


def test_graphs_are_connected_simple_and_sized(seventh):
    assert not connected_simple_sized(seventh.GRAPHS, list(seventh.GRAPHS), 18, 250)
    for name in seventh.SIGNALS:
        assert seventh.GRAPHS[name]().number_of_nodes() <= 60, name
    for name in seventh.SIGNALS_5N:
        assert seventh.GRAPHS[name]().number_of_nodes() <= 150, name


def test_hand_built_shapes(seventh):
    spider = seventh._spider([30, 40, 50])
    assert nx.is_tree(spider)
    assert sorted(d for _, d in spider.degree)[-2:] == [2, 3]
    assert sorted(d for _, d in seventh._double_star(15, 20).degree)[-2:] == [16, 21]
    broom = seventh._broom(40, 25)
    assert nx.is_tree(broom) and max(d for _, d in broom.degree) == 26
    assert nx.diameter(broom) == 40
    caterpillar = seventh._caterpillar(30, 501)
    assert nx.is_tree(caterpillar)
    # removing the leaves leaves the spine, a path
    spine = caterpillar.subgraph(v for v, d in caterpillar.degree if d > 1)
    assert nx.is_tree(spine) and max(d for _, d in spine.degree) <= 2
    theta = seventh._theta([12, 18, 24])
    assert theta.number_of_nodes() == 56
    assert theta.number_of_edges() == 57
    assert sorted(d for _, d in theta.degree)[-3:] == [2, 3, 3]
    chords = seventh._cycle_chords(60, [(0, 30)], 510, "uniform")
    assert chords.number_of_edges() == 61
    assert all(1 <= w <= 10 for *_, w in chords.edges(data="weight"))
    davis = seventh.GRAPHS["davis women co-attendance normalized"]()
    assert davis.number_of_nodes() == 18
    assert max(w for *_, w in davis.edges(data="weight")) > 1


@pytest.mark.parametrize(
    ("name", "kind", "verdict"),
    [
        ("double_star(15, 20)", "exact", "right quiet"),
        # the sparsest valid graph is the complement of the truth (the cubic graph
        # itself, 48 edges for 448): flagged as a complement twin, no family
        ("complement of random_regular(3, 32) s522", "perturbed", "wrong, complement only"),
    ],
)
def test_rows_classified(seventh, name, kind, verdict):
    from bench_audit_third import _classify
    from bench_inference_sweep import _multiplicity, _relabel, run_one

    from gsp_householder import compare_graphs, fourier_basis

    G = seventh.GRAPHS[name]()
    B = fourier_basis(_relabel(G))
    res, cmp, _, caught = run_one(B, kind, 0, 1e-3)
    got = _classify(kind, _multiplicity(B.eigenvalues), cmp["f1"], res, bool(caught))
    assert got == verdict
    if verdict == "wrong, complement only":
        assert res.complement_twin and not caught
        truth = fourier_basis(_relabel(nx.complement(G))).laplacian
        assert compare_graphs(truth, res.laplacian)["f1"] == 1.0


def test_label_runs_at_both_settings(seventh):
    # string labels kept through the basis, the shuffled eigenvectors and learn_graph
    from bench_audit_fifth import label_runs

    runs = label_runs(
        "double_star(15, 20)",
        None,
        True,
        seventh.GRAPHS,
        seventh.SIGNAL_SETTINGS,
        seventh.SEED,
    )
    assert [(kind, labels) for kind, labels, _, _ in runs] == [
        ("FourierBasis", "labels ok"),
        ("shuffled + nodelist", "labels ok"),
        ("signals 20n, theta 0.1", "labels ok"),
        ("signals 20n, theta 0.5", "labels ok"),
    ]
