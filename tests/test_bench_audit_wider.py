"""The wider held-out audit script (benchmarks/bench_audit_wider.py): its classes and that
its graphs are held out from the other inference benchmarks."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import networkx as nx
import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def wider(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit_wider

    return bench_audit_wider


def _result(dim=1, cands=1, complement=False):
    return SimpleNamespace(family_dimension=dim, n_candidates=cands, complement_twin=complement)


def test_classes(wider):
    # exact input: F1 = 1 on a simple spectrum, >= 0.98 when an eigenvalue repeats
    assert wider.classify("exact", 1, 1.0, _result(), False) == "right quiet"
    assert wider.classify("exact", 1, 1.0, _result(), True) == "right warned"
    assert wider.classify("exact", 2, 0.99, _result(), False) == "right quiet"
    assert wider.classify("exact", 1, 0.99, _result(), False) == "WRONG SILENT"
    # perturbed >= 0.95
    assert wider.classify("perturbed", 1, 0.95, _result(), False) == "right quiet"
    assert wider.classify("perturbed", 1, 0.94, _result(), False) == "WRONG SILENT"
    # a warning ranks above the family flag; the family flag alone is its own class
    assert wider.classify("perturbed", 1, 0.5, _result(dim=2), True) == "wrong warned"
    assert wider.classify("perturbed", 1, 0.5, _result(dim=2), False) == "wrong, family only"
    assert wider.classify("exact", 1, 0.5, _result(cands=3), False) == "wrong, family only"
    # the complement flag (a dense graph answered by its complement) below the family flag
    assert wider.classify("exact", 1, 0.0, _result(complement=True), False) == (
        "wrong, complement only")
    assert wider.classify("exact", 1, 0.0, _result(dim=2, complement=True), False) == (
        "wrong, family only")
    assert wider.classify("exact", 1, 0.0, _result(complement=True), True) == "wrong warned"
    assert wider.classify("exact", 1, 1.0, _result(complement=True), False) == "right quiet"
    # a NaN F1 (a non-finite Laplacian) is never right
    assert wider.classify("exact", 1, float("nan"), _result(), False) == "WRONG SILENT"
    assert set(wider.CLASSES) == {"crash", "WRONG SILENT", "wrong warned",
                                  "wrong, family only", "wrong, complement only",
                                  "right warned", "right quiet"}


def test_graphs_are_held_out(wider):
    import bench_audit
    import bench_inference
    import bench_inference_cubic
    import bench_inference_sweep
    import bench_inference_symmetric

    listed = {*bench_inference.graphs(large=True, extra=True, heldout=True),
              *bench_inference.REPEATED, *bench_inference_symmetric.GRAPHS,
              *bench_inference_symmetric.EXTRA, *bench_inference_sweep.FAMILIES,
              *bench_inference_cubic.GRAPHS, *bench_inference_cubic.HELDOUT,
              *bench_audit.GRAPHS}
    def plain(names):
        return {name.replace("_", " ") for name in names}

    assert not plain(listed) & plain(wider.GRAPHS)
    assert len(wider.GRAPHS) >= 40
    # the small named graphs are not the other benchmarks' small graphs renamed
    small = [bench_inference_symmetric.GRAPHS, bench_inference_cubic.GRAPHS,
             bench_inference_cubic.HELDOUT, bench_audit.GRAPHS]
    others = [G for graphs in small for name, f in graphs.items()
              if name not in bench_audit.LARGE and (G := f()).number_of_nodes() <= 50]
    others += [nx.florentine_families_graph(), nx.karate_club_graph(),
               nx.davis_southern_women_graph(), nx.petersen_graph()]
    for name in ("frucht", "truncated_tetrahedron", "hypercube(4)", "windmill(4, 5)",
                 "turan(13, 4)", "triangular T(6) = L(K6)",
                 "kneser K(6, 2) complement of L(K6)", "connected_caveman(6, 5)",
                 "ring_of_cliques(8, 5)", "circular_ladder(23)", "barbell(7, 4)",
                 "lollipop(9, 20)"):
        G = wider.GRAPHS[name]()
        same_size = [H for H in others if (H.number_of_nodes(), H.number_of_edges())
                     == (G.number_of_nodes(), G.number_of_edges())]
        assert not any(nx.is_isomorphic(G, H) for H in same_size), name


def test_graphs_are_connected_and_sized(wider):
    for name in ("random_internet_as(150) s25",
                 "SBM(12, 30, 48, 70) s26", "PyGSP Comet(60, 12)",
                 "ring_of_cliques(6, 4) lognormal 1"):
        G = wider.GRAPHS[name]()
        assert nx.is_connected(G), name
        assert 10 <= G.number_of_nodes() <= 400, name
    weights = [w for _, _, w in wider.GRAPHS["florentine uniform[1, 10]"]().edges(
        data="weight")]
    assert min(weights) >= 1.0 and max(weights) <= 10.0


def test_atlas_graphs(wider):
    # the connected graphs of 3 and 4 nodes: 2 and 6; of 5 and 6 nodes: 21 and 112
    assert len(wider.atlas_graphs(4)) == 8
    assert len(wider.atlas_graphs(6)) == 141
    assert all(nx.is_connected(f()) for f in wider.atlas_graphs(5).values())
