"""The held-out audit script (benchmarks/bench_audit.py): its verdicts, its time limits and
that its graphs are held out from the other inference benchmarks."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def audit(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import bench_audit

    return bench_audit


def _result(dim=1, cands=1, complement=False):
    return SimpleNamespace(family_dimension=dim, n_candidates=cands, complement_twin=complement)


def test_verdicts(audit):
    # exact input: F1 = 1 on a simple spectrum, >= 0.98 when an eigenvalue repeats
    assert audit.verdict("exact", 1, 0.99, _result(), False) == "SILENT WRONG"
    assert audit.verdict("exact", 2, 0.99, _result(), False) == "ok"
    assert audit.verdict("exact", 1, 1.0, _result(), False) == "ok"
    # perturbed >= 0.95, signals >= 0.98
    assert audit.verdict("perturbed", 1, 0.95, _result(), False) == "ok"
    assert audit.verdict("perturbed", 1, 0.94, _result(), False) == "SILENT WRONG"
    assert audit.verdict("signals", 1, 0.97, _result(), False) == "SILENT WRONG"
    # a miss is flagged by a family, several candidates or a warning
    assert audit.verdict("perturbed", 1, 0.5, _result(dim=2), False) == "flagged"
    assert audit.verdict("perturbed", 1, 0.5, _result(cands=3), False) == "flagged"
    assert audit.verdict("exact", 1, 0.5, _result(), True) == "flagged"
    # or by the complement flag (a dense graph answered by its complement)
    assert audit.verdict("exact", 1, 0.0, _result(complement=True), False) == "flagged"


def test_time_limits(audit):
    assert audit.time_limit(20) == audit.time_limit(200) == 2.0
    assert audit.time_limit(400) == pytest.approx(8.0)
    assert audit.time_limit(1000) == pytest.approx(60.0)
    sizes = [50, 200, 201, 500, 799, 800, 1000, 2642]
    assert all(np.diff([audit.time_limit(n) for n in sizes]) >= 0)


def test_commutes(audit):
    path = sp.csr_array(nx.laplacian_matrix(nx.path_graph(6)).astype(float))
    star = sp.csr_array(nx.laplacian_matrix(nx.star_graph(5)).astype(float))
    # a polynomial of a Laplacian shares its eigenvectors; another graph does not
    assert audit.commutes(path, (path @ path).toarray() + 3 * path.toarray(), 1e-12)
    assert not audit.commutes(path, star, 1e-6)


def test_graphs_are_held_out(audit):
    import bench_inference
    import bench_inference_sweep
    import bench_inference_symmetric

    listed = {*bench_inference.graphs(large=True, extra=True, heldout=True),
              *bench_inference.REPEATED, *bench_inference_symmetric.GRAPHS,
              *bench_inference_symmetric.EXTRA, *bench_inference_sweep.FAMILIES}
    assert not listed & set(audit.GRAPHS)
    assert audit.LARGE <= set(audit.GRAPHS) and set(audit.SIGNALS) <= set(audit.GRAPHS)
    # the small named graphs are not the small graphs of the other benchmarks renamed
    others = [f() for f in bench_inference_symmetric.GRAPHS.values()
              if f is not bench_inference_symmetric.GRAPHS["torus-10x20"]]
    others += [nx.florentine_families_graph(), nx.karate_club_graph()]
    for name in ("bull", "house_x", "sedgewick_maze", "krackhardt_kite", "octahedral",
                 "chvatal", "icosahedral", "franklin (LCF [5, -5]^6)"):
        G = audit.GRAPHS[name]()
        assert not any(nx.is_isomorphic(G, H) for H in others), name


def test_one_row_end_to_end(audit, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["bench_audit.py", "--only", "house_x",
                                      "--input", "exact", "--draws", "0"])
    audit.main()
    out = capsys.readouterr().out
    assert "| house_x | 5 | exact | 0 | 2 |" in out
    assert "| exact | 1 |" in out            # the summary: one run of exact input
