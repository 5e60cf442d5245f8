"""The sixth held-out audit script (benchmarks/bench_audit_sixth.py): its graphs are
connected, simple, sized and held out from the other inference benchmarks and audits; the
shared harness learns the signals of a normalized graph with its normalized Laplacian and
classifies a sparser valid graph as wrong with the family flag; the label check runs
``learn_graph`` at each of this audit's settings."""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import pytest
from _audit_graphs import assert_held_out, connected_simple_sized

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def sixth(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_sixth

    return bench_audit_sixth


def test_graphs_are_held_out(sixth):
    import bench_audit_fifth
    import bench_audit_fourth
    import bench_audit_third

    # no seed of the earlier audits (theirs end at 325); generators no other
    # benchmark calls
    assert_held_out(
        sixth,
        (bench_audit_third, bench_audit_fourth, bench_audit_fifth),
        40,
        7,
        325,
        (
            "geometric_soft_configuration_graph",
            "random_reference",
            "random_unlabeled_rooted_tree",
            "nx.watts_strogatz_graph",
            "nx.power(",
            "nx.k_core",
            "pappus_graph",
            '"Path"',
        ),
    )


def test_graphs_are_connected_simple_and_sized(sixth):
    names = (
        "les_miserables 2-core weighted",
        "relaxed_caveman(6, 8, 0.2) s401 simple lcc",
        "geometric_soft_configuration(130, 2.5, 2.7, 5) s406 lcc",
        "random_kernel(160, c 4) s408 lcc",
        "square of random_labeled_tree(60) s411",
        "PyGSP Comet(70, 20) normalized",
        "SBM(10, 20, 40) s425 lognormal 1 normalized",
    )
    assert not connected_simple_sized(sixth.GRAPHS, names, 20, 250)
    # the Davis graph is bipartite (18 women, 14 events, 89 attendances)
    davis = sixth.GRAPHS["davis_southern_women bipartite"]()
    assert nx.is_bipartite(davis)
    assert (davis.number_of_nodes(), davis.number_of_edges()) == (32, 89)
    # McGee: cubic, 24 nodes, girth 7
    mcgee = sixth.GRAPHS["mcgee LCF(24, [12, 7, -7], 8)"]()
    assert {d for _, d in mcgee.degree} == {3}
    assert nx.girth(mcgee) == 7
    # the rewired circulant keeps its degrees
    rewired = sixth.GRAPHS["random_reference(circulant(100, [1, 2]), 2) s407"]()
    assert {d for _, d in rewired.degree} == {4}
    assert not nx.is_isomorphic(rewired, nx.circulant_graph(100, [1, 2]))
    for name in sixth.SIGNALS:
        assert sixth.GRAPHS[name]().number_of_nodes() <= 60, name


def test_normalized_signals_learned_normalized(sixth):
    # the harness learns the signals of a normalized graph with the normalized
    # Laplacian (it refused the basis as not combinatorial before)
    from bench_audit_third import _classify
    from bench_inference_sweep import _multiplicity, _relabel, run_one

    from gsp_householder import fourier_basis

    name = "karate weighted normalized"
    assert sixth.LAPLACIANS[name] == "normalized"
    B = fourier_basis(_relabel(sixth.GRAPHS[name]()), "normalized")
    res, cmp, _, caught = run_one(
        B, "signals", 0, 1e-3, per_node=20, theta=0.5, laplacian="normalized"
    )
    assert cmp["f1"] == 1.0
    assert _classify("signals", _multiplicity(B.eigenvalues), cmp["f1"], res, bool(caught)) == (
        "right quiet"
    )


def test_sparser_valid_graph_classified(sixth):
    # McGee's exact eigenvectors fit a sparser connected graph (32 edges for 36, none
    # of them McGee's): wrong, with the family flag and no warning
    from bench_audit_third import _classify
    from bench_inference_sweep import _multiplicity, _relabel, run_one

    from gsp_householder import fourier_basis

    B = fourier_basis(_relabel(sixth.GRAPHS["mcgee LCF(24, [12, 7, -7], 8)"]()))
    res, cmp, _, caught = run_one(B, "exact", 0, 1e-3)
    assert (cmp["f1"], cmp["n_edges_hat"]) == (0.0, 32)
    assert res.family_dimension > 1
    verdict = _classify("exact", _multiplicity(B.eigenvalues), cmp["f1"], res, bool(caught))
    assert verdict == "wrong, family only"


def test_label_runs_at_both_settings(sixth):
    # string labels kept through the basis, the shuffled eigenvectors and learn_graph
    from bench_audit_fifth import label_runs

    runs = label_runs(
        "davis_southern_women bipartite",
        None,
        True,
        sixth.GRAPHS,
        sixth.SIGNAL_SETTINGS,
        sixth.SEED,
    )
    assert [(kind, labels, f1) for kind, labels, f1, _ in runs] == [
        ("FourierBasis", "labels ok", 1.0),
        ("shuffled + nodelist", "labels ok", 1.0),
        ("signals 20n, theta 0.1", "labels ok", 1.0),
        ("signals 20n, theta 0.5", "labels ok", 1.0),
    ]
