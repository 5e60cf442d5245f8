"""Tests of gsp_householder.experiments (tiny grids) and gsp_householder.experiments.plotting."""

from __future__ import annotations

import csv
import importlib.util

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from gsp_householder.experiments import fig1, fig2, fig3, fig4, fig5, plotting
from gsp_householder.experiments._common import (
    general_wy,
    lowrank_difference_norm,
    lowrank_orthogonality_defect,
)
from gsp_householder.experiments.reproduce import run_reproduction
from gsp_householder.householder import HouseholderProduct

HAS_REFINE = importlib.util.find_spec("gsp_householder.learning.refinement") is not None
PRODUCT_FAST = ["alg3", "alg3-unpruned", "alg3-paper", "single-reflector", "procrustes-identity",
                "procrustes-arbitrary", "altmin", "h_dla", "msp", "identity"]
SINGLE_ALL = ["alg1", "alg1-paper", "h_dla", "altmin", "procrustes-identity", "zero"]


def _check_rows(rows, keys, trials=2):
    assert rows and all(set(keys) <= set(r) for r in rows)
    for r in rows:
        assert r["trial"] in range(trials)
        assert isinstance(r["failed"], bool)
    return rows


def test_fig1_table():
    rows = fig1.run([1, 3], n=40, p=6, trials=2, methods=PRODUCT_FAST, progress=False,
                    max_trials={"procrustes-arbitrary": 1, "msp": 1},
                    options={"h_dla_iter": 3, "altmin_iter": 5, "msp_iter": 3})
    _check_rows(rows, ["figure", "method", "scale", "distribution", "n", "m", "p", "trial",
                       "error", "error_vs_identity", "rel_error", "orth_defect", "seconds"])
    assert {r["distribution"] for r in rows} == {"uniform", "gaussian"}
    assert {r["m"] for r in rows} == {1, 3}
    # every uncapped method has 2 trials x 2 m x 2 distributions per scale
    n_alg3 = sum(r["method"] == "alg3" and r["scale"] == "oracle" for r in rows)
    assert n_alg3 == 8
    assert sum(r["method"] == "procrustes-arbitrary" for r in rows) == 4
    ident = [r for r in rows if r["method"] == "identity"]
    assert all(abs(r["error_vs_identity"] - 1.0) < 1e-12 for r in ident)
    # Procrustes with X known is exact on the data; with p < n it is not exact on V
    for r in rows:
        if r["method"] in ("alg3", "identity", "procrustes-identity"):
            assert np.isfinite(r["error"]) and r["error"] >= 0


@pytest.mark.skipif(not HAS_REFINE, reason="gsp_householder.learning.refinement not available")
def test_refine_rows():
    rows = fig3.run([8], [0.5], n=60, trials=1, methods=["refine", "zero"],
                    distributions=["uniform"], progress=False)
    (ref,) = [r for r in rows if r["method"] == "refine"]
    assert ref["scale"] == "blind" and np.isfinite(ref["fro"])
    rows = fig1.run([1], n=60, p=8, trials=1, methods=["refine"], distributions=["uniform"],
                    progress=False)
    assert rows[0]["method"] == "refine" and np.isfinite(rows[0]["error"])


def test_fig1_same_draws_for_same_seed():
    a = fig1.run([2], n=30, p=5, trials=2, methods=["alg3"], progress=False, seed=3)
    b = fig1.run([2], n=30, p=5, trials=2, methods=["alg3"], progress=False, seed=3)
    assert [r["error"] for r in a] == [r["error"] for r in b]


def test_fig2_table_exact_procrustes_with_enough_signals():
    rows = fig2.run([5, 40], n=20, m=2, trials=2, progress=False,
                    methods=["procrustes-identity", "procrustes-arbitrary", "identity"],
                    distributions=["uniform"])
    _check_rows(rows, ["p", "error"])
    for r in rows:
        if r["method"].startswith("procrustes") and r["p"] == 40:
            assert r["error"] < 1e-9          # p >= n, noiseless: exact


def test_fig3_fig4_tables():
    kw = dict(n=60, trials=2, progress=False, options={"h_dla_iter": 3, "altmin_iter": 5})
    rows3 = fig3.run([3, 6], [0.3, 0.9], methods=SINGLE_ALL, **kw)
    _check_rows(rows3, ["linf", "l2", "rel_linf", "fro", "x_error", "theta", "p"])
    zero = [r for r in rows3 if r["method"] == "zero"]
    assert all(abs(r["l2"] - 1.0) < 1e-12 and abs(r["rel_linf"] - 1.0) < 1e-12 for r in zero)
    assert all(abs(r["fro"] - 2.0) < 1e-12 for r in zero)
    for r in rows3:
        if r["method"] in ("altmin", "procrustes-identity", "h_dla"):
            assert np.isfinite(r["fro"]) and np.isfinite(r["x_error"])
        if r["method"] == "alg1":
            assert abs(r["u_norm"] - 1.0) < 1e-12
    rows4 = fig4.run([3], [0.5], **kw)
    assert {r["method"] for r in rows4} >= {"alg1", "zero", "procrustes-identity"}
    assert all(np.isfinite(r["x_error"]) for r in rows4 if r["method"] == "zero")


def test_fig5_table_snr_column():
    rows = fig5.run([4], [0.0, None], n=50, trials=2, methods=["alg1", "zero"],
                    distributions=["uniform"], progress=False)
    assert sorted({r["snr_db"] for r in rows}) == [0.0, np.inf]


def test_studies_reject_bad_input():
    with pytest.raises(ValueError, match="unknown methods"):
        fig1.run([1], n=10, p=3, methods=["svd"], progress=False)
    with pytest.raises(ValueError, match="distributions"):
        fig3.run([2], [0.5], n=10, distributions=["laplace"], progress=False)
    with pytest.raises(ValueError, match="theta"):
        fig3.run([2], [1.5], n=10, progress=False)
    with pytest.raises(ValueError, match="trials"):
        fig2.run([2], n=10, m=1, trials=0, progress=False)
    with pytest.raises(ValueError, match="figures"):
        run_reproduction(["fig9"], "unused")


def test_progress_callback_counts_every_trial():
    seen = []
    fig5.run([2, 4], [None], n=30, trials=3, methods=["zero"], distributions=["uniform"],
             progress=lambda label, done, total: seen.append((label, done, total)))
    assert seen == [("fig5", 3, 6), ("fig5", 6, 6)]      # one call per cell of 3 trials


def test_paper_form_lowrank_helpers_match_dense():
    rng = np.random.default_rng(0)
    n = 12
    V = HouseholderProduct(rng.standard_normal((n, 3)))
    us = [rng.standard_normal(n) * s for s in (0.5, 1.3)]
    A = np.eye(n)
    for u in us:
        A = A @ (np.eye(n) - 2 * np.outer(u, u))
    U, T = general_wy(us)
    np.testing.assert_allclose(np.eye(n) - U @ T @ U.T, A, atol=1e-12)
    assert abs(lowrank_difference_norm(V, U, T) - np.linalg.norm(V.to_dense() - A)) < 1e-10
    assert abs(lowrank_orthogonality_defect(U, T) - np.linalg.norm(A.T @ A - np.eye(n))) < 1e-10


def test_reproduce_writes_csv_and_png(tmp_path):
    kw = {"fig1": {"m_values": [1, 2], "n": 30, "p": 5, "methods": ["alg3", "identity"],
                   "distributions": ["uniform"]}}
    paths = run_reproduction("fig1", tmp_path / "out", trials=2, progress=False,
                             study_kwargs=kw)
    assert set(paths) == {"fig1"}
    for csv_path, png_path, timings_path in paths.values():
        assert png_path.stat().st_size > 1000
        assert timings_path.name == "fig1_timings.csv"
        with csv_path.open() as fh:
            rows = list(csv.DictReader(fh))
        assert rows and ("error" in rows[0] or "linf" in rows[0])


def test_plotting_returns_figures():
    rows = fig3.run([2, 4], [0.5], n=30, trials=2, methods=["alg1", "zero"],
                    distributions=["uniform"], progress=False)
    fig = plotting.plot_vector_error(rows, metric="l2")
    assert fig.axes and fig.axes[0].get_yscale() == "log"
    s = plotting.summarize(rows, "p", "l2", "method")
    assert set(s) == {"alg1", "zero"} and np.all(s["zero"]["median"] == 1.0)
    rows1 = fig1.run([1, 2], n=20, p=4, trials=2, methods=["alg3-paper", "identity"],
                     distributions=["uniform"], progress=False)
    fig = plotting.plot_basis_error(rows1)
    labels = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any(label.startswith("identity") for label in labels)


@pytest.mark.skipif(importlib.util.find_spec("gsp_householder.experiments.refine") is None,
                    reason="gsp_householder.experiments.refine not available")
def test_reproduce_refine_phase_transition(tmp_path):
    paths = run_reproduction("refine", tmp_path, trials=1, progress=False,
                             study_kwargs={"refine": {"p_values": [10, 20], "n": 40, "m": 2}})
    csv_path, png_path, _ = paths["refine"]
    assert csv_path.exists() and png_path.stat().st_size > 1000


def test_reproduce_outputs_are_byte_identical(tmp_path):
    """Same seed, same bytes in the CSV and the PNG; the times are in <figure>_timings.csv."""
    kw = {"fig3": {"p_values": [3, 6], "thetas": [0.5], "n": 30,
                   "methods": ["alg1", "zero"], "distributions": ["uniform"]}}
    runs = [run_reproduction("fig3", tmp_path / d, trials=2, progress=False, study_kwargs=kw,
                             n_jobs=1)["fig3"] for d in ("a", "b")]
    (csv_a, png_a, times_a), (csv_b, png_b, times_b) = runs
    assert times_b.exists()
    assert csv_a.read_bytes() == csv_b.read_bytes()
    assert png_a.read_bytes() == png_b.read_bytes()
    assert b"Software" not in png_a.read_bytes()       # no matplotlib version in the PNG
    with csv_a.open() as fh:
        rows = list(csv.DictReader(fh))
    assert rows and not {"seconds", "cpu_seconds"} & set(rows[0])
    with times_a.open() as fh:
        times = list(csv.DictReader(fh))
    assert [int(t["row"]) for t in times] == list(range(len(rows)))
    for r, t in zip(rows, times, strict=True):
        assert (t["method"], t["trial"], t["p"]) == (r["method"], r["trial"], r["p"])
        assert float(t["seconds"]) >= 0 and float(t["cpu_seconds"]) >= 0


def test_reproduce_out_must_be_a_directory(tmp_path):
    (tmp_path / "f.csv").write_text("x")
    with pytest.raises(ValueError, match="out_dir must be a directory"):
        run_reproduction("fig1", tmp_path / "f.csv")
