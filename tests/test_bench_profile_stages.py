"""The stage profiler of the inference benchmarks (benchmarks/profile_inference_stages.py):
it times the stages without changing the answer and leaves the inference as it was."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from gsp_householder import fourier_basis, infer_laplacian, load_graph
from gsp_householder.graphs import _dense_lp, _ranking_ladder

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def stages(monkeypatch):
    from threadpoolctl import threadpool_limits

    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import profile_inference_stages

    with threadpool_limits(limits=1, user_api="blas"):   # as the graph searches' tests
        yield profile_inference_stages


def test_same_answer_and_functions_restored(stages):
    # the row "karate unweighted", perturbed, of bench_inference.py: a noisy search with
    # families, so the noisy ladder and linear programs run
    B = fourier_basis(load_graph("karate", weighted=False))
    V = stages._inputs(B)["perturbed"]
    originals = [getattr(module, name) for module, name, _ in stages.TIMED]
    plain = infer_laplacian(V, rng=0)
    cmp, res, _, total, clock = stages.profile_row(B, V)
    assert [getattr(module, name) for module, name, _ in stages.TIMED] == originals
    assert (res.laplacian != plain.laplacian).nnz == 0          # bit for bit
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
    with clock.installed():
        assert _dense_lp._run is not run
        assert _ranking_ladder._noisy_ladder is not ladder
    assert _dense_lp._run is run and _ranking_ladder._noisy_ladder is ladder


def test_unknown_graph_is_refused(stages, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["profile_inference_stages.py", "--only", "no such"])
    with pytest.raises(SystemExit, match="unknown graphs"):
        stages.main()
