"""The stage profiler of the inference benchmarks (benchmarks/profile_inference_stages.py):
it times the stages without changing the answer and leaves the inference as it was."""

from __future__ import annotations

import sys
from pathlib import Path

import networkx as nx
import numpy as np
import pytest

from gsp_householder import fourier_basis, infer_laplacian
from gsp_householder.graphs import _dense_lp, _ranking_ladder

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture()
def stages(monkeypatch):
    from threadpoolctl import threadpool_limits

    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import profile_inference_stages

    with threadpool_limits(limits=1, user_api="blas"):   # as the graph searches' tests
        yield profile_inference_stages


def _perturbed_karate():
    """Unweighted karate club, perturbed by 1e-3 and shuffled as in bench_inference.py:
    a noisy search with families, so linear programs and the noisy ladder run."""
    B = fourier_basis(nx.karate_club_graph(), weight=None)
    rng = np.random.default_rng(0)
    E = rng.standard_normal(B.eigenvectors.shape)
    U, _, Wt = np.linalg.svd(B.eigenvectors + 1e-3 * np.linalg.norm(B.eigenvectors)
                             * E / np.linalg.norm(E))
    n = B.n
    return B, (U @ Wt)[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def test_same_answer_and_functions_restored(stages):
    B, V = _perturbed_karate()
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
    # every stage is counted once: the stages other than LP (which is part of theirs)
    # add up to the total
    parts = sum(t for s, t in clock.totals.items() if s != "LP")
    assert parts == pytest.approx(total, abs=1e-9)
    assert all(t >= -1e-3 for t in clock.totals.values())


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
