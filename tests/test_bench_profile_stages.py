"""The stage profiler of the inference benchmarks (benchmarks/profile_inference_stages.py):
it times the stages without changing the answer and leaves the inference as it was."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import rotated

from gsp_householder import fourier_basis, infer_laplacian, load_graph
from gsp_householder.graphs import _dense_lp, _ranking_ladder, laplacian_inference

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def stages(monkeypatch):
    from threadpoolctl import threadpool_limits

    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import profile_inference_stages

    with threadpool_limits(limits=1, user_api="blas"):  # as the graph searches' tests
        yield profile_inference_stages


def test_same_answer_and_functions_restored(stages):
    # the row "karate unweighted", perturbed, of bench_inference.py: a noisy search with
    # families, so the noisy ladder and linear programs run
    B = fourier_basis(load_graph("karate", weighted=False))
    V = stages._inputs(B)["perturbed"]
    originals = [getattr(module, name) for module, name, _ in stages.TIMED + stages.INCLUSIVE]
    plain = infer_laplacian(V, rng=0)
    cmp, res, _, total, clock = stages.profile_row(B, V)
    assert [getattr(module, name) for module, name, _ in stages.TIMED + stages.INCLUSIVE] == (
        originals
    )
    assert (res.laplacian != plain.laplacian).nnz == 0  # bit for bit
    assert res.family_dimension == plain.family_dimension
    assert res.n_candidates == plain.n_candidates
    assert cmp["n_edges_hat"] == plain.n_edges
    assert set(clock.totals) == set(stages.STAGES)
    assert clock.n_lp > 0 and clock.totals["LP"] > 0.0
    assert clock.totals["noisy ladder"] > 0.0
    # each stage counted once: together they take no more than the run (the rest,
    # "other", is not negative beyond the clock's resolution), and the programs are
    # part of the stages' time
    assert all(t >= -1e-3 for t in clock.totals.values())
    assert clock.totals["LP"] <= total - clock.totals["other"] + 1e-3


def test_stages_installed_only_inside(stages):
    clock = stages.StageClock()
    run, ladder = _dense_lp._run, _ranking_ladder._noisy_ladder
    twins = laplacian_inference._twin_superset
    with clock.installed():
        assert _dense_lp._run is not run
        assert _ranking_ladder._noisy_ladder is not ladder
        assert laplacian_inference._twin_superset is not twins
    assert _dense_lp._run is run and _ranking_ladder._noisy_ladder is ladder
    assert laplacian_inference._twin_superset is twins


def test_twin_classes_timed_once(stages):
    # a star's leaves are one twin class, whose basis is inferred by a nested inference
    # (which searches twin classes and eigenspaces itself): the parts are timed at their
    # outermost calls, within the run's time
    # (the leaves' columns rotated inside their eigenspace: the nested basis
    # fourier_basis gives is a star's, whose class is not searched)
    B = fourier_basis(nx.star_graph(6))
    V = stages.audit_input(
        SimpleNamespace(eigenvectors=rotated(B, np.random.default_rng(0))), "exact", 0
    )
    plain = infer_laplacian(V, rng=0)
    calls = []
    original = laplacian_inference._twin_class_graph
    laplacian_inference._twin_class_graph = lambda Q: calls.append(Q) or original(Q)
    try:
        _, res, _, total, clock = stages.profile_row(B, V)
    finally:
        laplacian_inference._twin_class_graph = original
    assert (res.laplacian != plain.laplacian).nnz == 0
    assert calls  # the nested inference ran
    assert set(clock.parts) == {column for _, _, column in stages.INCLUSIVE}
    assert 0.0 < clock.parts["twin classes"] <= total
    assert 0.0 <= clock.parts["eigenspaces"] <= total


def test_nested_part_counted_once(stages):
    # a part called inside itself (a twin class's inference searches twin classes) is
    # timed at its outermost call: four nested calls of 10 ms each take about 40 ms
    import time

    clock = stages.StageClock()
    parts = {}

    def work(k):
        start = time.process_time()
        while time.process_time() - start < 0.01:
            pass
        return parts["f"](k - 1) if k else None

    parts["f"] = clock._wrap_part(work, "twin classes")
    start = time.process_time()
    parts["f"](3)
    total = time.process_time() - start
    assert 0.9 * total <= clock.parts["twin classes"] <= total
    assert clock.parts["eigenspaces"] == 0.0


@pytest.mark.parametrize("kind", ["exact", "perturbed"])
def test_audit_input_is_the_audit_rows(stages, kind, monkeypatch):
    # the audit's rows (bench_audit_third.py: run_one) infer from this input, bit for bit
    import bench_inference_sweep

    seen = []
    monkeypatch.setattr(
        bench_inference_sweep, "infer_laplacian", lambda V, **kw: seen.append(V) or plain(V)
    )
    plain = infer_laplacian
    B = fourier_basis(nx.path_graph(12))
    bench_inference_sweep.run_one(B, kind, 2, 1e-3)
    mine = stages.audit_input(B, kind, 2)
    assert len(seen) == 1 and np.array_equal(seen[0], mine)
    assert not np.array_equal(mine, stages.audit_input(B, kind, 1))  # the draw seeds it


def test_unknown_audit_graph_is_refused(stages, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["profile_inference_stages.py", "--audit", "--only", "karate"])
    with pytest.raises(SystemExit, match="unknown graphs"):
        stages.main()


def test_unknown_graph_is_refused(stages, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["profile_inference_stages.py", "--only", "no such"])
    with pytest.raises(SystemExit, match="unknown graphs"):
        stages.main()


def test_lp_kinds_count_every_run(stages):
    # the HiGHS runs of a noisy search, counted by kind: every run of the LP stage once,
    # the same answer, and the programs' run counters gone after the run
    B = fourier_basis(load_graph("karate", weighted=False))
    V = stages._inputs(B)["perturbed"]
    plain = infer_laplacian(V, rng=0)
    _, res, _, _, clock = stages.profile_row(B, V, lp_kinds=True)
    assert (res.laplacian != plain.laplacian).nnz == 0
    assert set(clock.kinds) == set(stages.LP_KINDS)
    assert sum(n for _, n in clock.kinds.values()) == clock.n_lp
    assert sum(t for t, _ in clock.kinds.values()) == pytest.approx(clock.totals["LP"], abs=1e-6)
    assert clock.kinds["cold rounds"][1] > 0 and clock.kinds["relaxations"][1] > 0
    assert not hasattr(_dense_lp.WarmProgram, "_lp_solves")
    # without the option nothing is counted by kind
    _, _, _, _, clock = stages.profile_row(B, V)
    assert all(n == 0 for _, n in clock.kinds.values())


def test_screens_are_their_own_kind(stages):
    import inspect

    assert stages.lp_kind("bound_exceeded", inspect.currentframe()) == "screens"
    assert stages.lp_kind("_run", inspect.currentframe()) == "other"  # no program


def test_audit_rows_take_the_audit_laplacian(stages):
    # --audit fourth: its graphs, inputs and Laplacians (a normalized row)
    import argparse

    import bench_audit_fourth

    name = "random_unlabeled_tree(60) s232 normalized"
    assert bench_audit_fourth.LAPLACIANS[name] == "normalized"
    args = argparse.Namespace(audit="fourth", only=[name], inputs=["perturbed"], draws=[1])
    [(label, B, V, laplacian)] = list(stages._rows(args))
    assert label == f"{name} | perturbed 1" and laplacian == "normalized"
    assert np.array_equal(V, stages.audit_input(B, "perturbed", 1))
    assert B.laplacian_type == "normalized"
