"""Tests of the structured refinement (gsp_householder.learning.refinement)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gsp_householder.exceptions import ConvergenceWarning, DegenerateStatisticsWarning
from gsp_householder.householder import HouseholderProduct
from gsp_householder.learning.paper import estimate_householder_product
from gsp_householder.learning.refinement import (
    product_from_subspace,
    project_codes,
    refine_householder_product,
    structured_procrustes,
)
from gsp_householder.learning.result import DictionaryResult
from gsp_householder.metrics import basis_error
from gsp_householder.model import BernoulliUniform, make_signals, random_householder_product

MODEL = BernoulliUniform(0.5)


def _problem(n, m, p, seed, snr_db=None, distribution="uniform", model=MODEL):
    rng = np.random.default_rng(seed)
    V = random_householder_product(n, m, distribution, rng=rng)
    Y, X = make_signals(V, p, model, snr_db=snr_db, rng=rng)
    return V, Y, X


def _random_orthogonal(m, rng):
    Q, R = np.linalg.qr(rng.standard_normal((m, m)))
    return Q * np.sign(np.diag(R))


# ------------------------------------------------------------------ factorisation
@settings(max_examples=25, deadline=None)
@given(n=st.integers(2, 12), m=st.integers(1, 6), seed=st.integers(0, 2**31 - 1),
       flip=st.booleans())
def test_product_from_subspace_matches_dense(n, m, seed, flip):
    m = min(m, n)
    rng = np.random.default_rng(seed)
    B = np.linalg.qr(rng.standard_normal((n, m)))[0]
    R = _random_orthogonal(m, rng)
    if flip:  # the other determinant
        R[:, 0] *= -1
    V = product_from_subspace(B, R)
    dense = np.eye(n) + B @ (R - np.eye(m)) @ B.T
    assert V.m <= m
    assert np.linalg.norm(V.to_dense() - dense) <= 1e-12 * max(1.0, np.sqrt(n))
    assert not np.any(V.signs < 0)


def test_product_from_subspace_identity_and_errors():
    B = np.linalg.qr(np.random.default_rng(0).standard_normal((5, 2)))[0]
    assert product_from_subspace(B, np.eye(2)).m == 0
    with pytest.raises(ValueError, match="R must have shape"):
        product_from_subspace(B, np.eye(3))
    with pytest.raises(ValueError, match="orthonormal"):
        product_from_subspace(2 * B, np.eye(2))
    with pytest.raises(ValueError, match="orthogonal"):
        product_from_subspace(B, 2 * np.eye(2))


def test_project_codes():
    Z = np.array([-1.0, 0.1, 0.49, 0.51, 1.3, 5.0])
    np.testing.assert_array_equal(project_codes(Z, 1.0, 2.0), [0, 0, 0, 1.0, 1.3, 2.0])
    np.testing.assert_array_equal(project_codes(Z, 1.0, 2.0, threshold=0.2),
                                  [0, 0, 1.0, 1.0, 1.3, 2.0])
    with pytest.raises(ValueError, match="high must be"):
        project_codes(Z, 2.0, 1.0)
    with pytest.raises(ValueError, match="low"):
        project_codes(Z, 0.0, 1.0)


# ------------------------------------------------------------------ oracle fit
def test_structured_procrustes_exact_with_known_codes():
    V, Y, X = _problem(120, 4, 12, seed=1)
    res = structured_procrustes(Y, X, 4)
    assert isinstance(res, DictionaryResult)
    assert isinstance(res.dictionary, HouseholderProduct) and res.dictionary.m == 4
    assert basis_error(V, res.dictionary) <= 1e-10
    assert res.codes is not None and np.array_equal(res.codes, X)
    assert res.history["objective"][-1] <= 1e-12  # relative, cancellation-limited


def test_structured_procrustes_fewer_signals_than_reflectors():
    # p < m: rank(Y - X) <= p, the fit is exact on the data with at most p reflectors
    _, Y, X = _problem(60, 5, 3, seed=2)
    res = structured_procrustes(Y, X, 5)
    assert res.dictionary.m <= 3
    np.testing.assert_allclose(res.dictionary @ X, Y, atol=1e-10)


def test_structured_procrustes_gradient_steps_do_not_lose_objective():
    _, Y, X = _problem(150, 3, 40, seed=3, snr_db=10)
    spectral = structured_procrustes(Y, X, 3, n_iter=0)
    refined = structured_procrustes(Y, X, 3, n_iter=30)
    assert refined.history["objective"][-1] <= spectral.history["objective"][0] + 1e-12
    # the least-squares objective is what the dictionary achieves
    r = Y - refined.dictionary @ X
    assert np.isclose(np.sum(r * r) / np.sum(Y * Y), refined.history["objective"][-1],
                      rtol=1e-8, atol=1e-14)


# ------------------------------------------------------------------ refinement
def test_exact_recovery_small_noiseless():
    V, Y, X = _problem(200, 3, 60, seed=4)
    res = refine_householder_product(Y, 3, rng=0)
    assert res.converged
    assert res.dictionary.m <= 3
    assert basis_error(V, res.dictionary) <= 1e-8
    np.testing.assert_allclose(res.codes, X, atol=1e-8)
    assert res.history["start_misfit"][-1] <= 1e-10
    # the paper's first-moment start is far from it
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        start = estimate_householder_product(Y, 3)
    assert basis_error(V, start) > 0.1


def test_exact_recovery_m10_beyond_first_moment():
    # n = 300, m = 10, p = 60: the rank-m structure identifies V; the start cannot
    V, Y, _ = _problem(300, 10, 60, seed=5)
    res = refine_householder_product(Y, 10, rng=0)
    assert basis_error(V, res.dictionary) <= 1e-8
    assert res.dictionary.m <= 10


def test_single_reflector_exact():
    V, Y, _ = _problem(1000, 1, 20, seed=6)
    res = refine_householder_product(Y, 1, rng=0)
    assert res.dictionary.m == 1
    assert basis_error(V, res.dictionary) <= 1e-8


def test_given_value_range_same_answer():
    V, Y, X = _problem(200, 3, 60, seed=7)
    learned = refine_householder_product(Y, 3, rng=0)
    given_ = refine_householder_product(Y, 3, theta=0.5, low=1.0, high=2.0, rng=0)
    assert basis_error(V, given_.dictionary) <= 1e-8
    assert basis_error(learned.dictionary, given_.dictionary) <= 1e-8
    # learned range brackets the true values seen in X
    assert learned.history["low"][0] <= X[X > 0].min() + 1e-9
    assert learned.history["high"][0] >= X.max() - 1e-9


def test_explicit_init_is_used():
    V, Y, _ = _problem(200, 3, 60, seed=8)
    res = refine_householder_product(Y, 3, init=V, n_restarts=0, n_iter=1)
    assert basis_error(V, res.dictionary) <= 1e-8
    assert len(res.history["start_misfit"]) == 1


def test_noisy_within_twice_the_oracle():
    # SNR 20 dB; the oracle knows X. Bound 2x is the project's target.
    ratios = []
    for seed in (10, 11, 12):
        V, Y, X = _problem(300, 3, 100, seed=seed, snr_db=20)
        res = refine_householder_product(Y, 3, n_restarts=0, rng=0)
        oracle = structured_procrustes(Y, X, 3)
        ratios.append(basis_error(V, res.dictionary) / basis_error(V, oracle.dictionary))
        assert basis_error(V, res.dictionary) < basis_error(V, V.identity(300))
    assert np.median(ratios) <= 2.0


@pytest.mark.filterwarnings("ignore::gsp_householder.exceptions.ConvergenceWarning")
def test_deterministic_given_rng():
    _, Y, _ = _problem(150, 4, 12, seed=13)  # p too small: restarts run
    a = refine_householder_product(Y, 4, rng=3, n_iter=20)
    b = refine_householder_product(Y, 4, rng=3, n_iter=20)
    np.testing.assert_array_equal(a.dictionary.vectors, b.dictionary.vectors)


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("kwargs, exc, match", [
    (dict(n_reflectors=0), ValueError, "n_reflectors"),
    (dict(n_reflectors=51), ValueError, "n_reflectors"),
    (dict(n_reflectors=1.5), TypeError, "n_reflectors"),
    (dict(theta=1.5), ValueError, "theta"),
    (dict(low=-1.0), ValueError, "low"),
    (dict(low=2.0, high=1.0), ValueError, "high"),
    (dict(threshold=-0.1), ValueError, "threshold"),
    (dict(n_iter=0), ValueError, "n_iter"),
    (dict(tol=-1.0), ValueError, "tol"),
    (dict(n_restarts=-1), ValueError, "n_restarts"),
    (dict(init=np.eye(50)), TypeError, "init"),
    (dict(init=HouseholderProduct.identity(40)), ValueError, "init"),
    (dict(rng="seed"), TypeError, "rng"),
])
def test_bad_arguments(kwargs, exc, match):
    Y = np.random.default_rng(0).random((50, 10))
    kwargs = {"n_reflectors": 2} | kwargs
    with pytest.raises(exc, match=match):
        refine_householder_product(Y, **kwargs)


@pytest.mark.parametrize("Y, match", [
    (np.full((10, 5), np.nan), "NaN"),
    (np.ones(10), "2-D"),
    (np.ones((1, 5)), "rows"),
    (np.ones((10, 5)) * np.inf, "inf"),
])
def test_bad_signals(Y, match):
    with pytest.raises(ValueError, match=match):
        refine_householder_product(Y, 1)
    with pytest.raises(ValueError, match=match):
        structured_procrustes(Y, Y, 1)


def test_structured_procrustes_bad_arguments():
    Y = np.ones((10, 5))
    with pytest.raises(ValueError, match="shape"):
        structured_procrustes(Y, np.ones((10, 4)), 1)
    with pytest.raises(ValueError, match="n_reflectors"):
        structured_procrustes(Y, Y, 11)


# ------------------------------------------------------------------ experiment
def test_phase_transition_rows_and_plot():
    import matplotlib

    matplotlib.use("Agg")
    from gsp_householder.experiments.refine import phase_transition, plot_phase_transition

    rows = phase_transition([8, 40], n=100, m=2, trials=2, seed=1, progress=False)
    assert len(rows) == 2 * 2 * 3
    ref = [r for r in rows if r["method"] == "refine" and r["p"] == 40]
    assert all(r["success"] for r in ref)
    orc = [r for r in rows if r["method"] == "oracle"]
    assert all(r["error"] <= 1e-10 for r in orc)
    fig = plot_phase_transition(rows)
    assert len(fig.axes) == 2
    with pytest.raises(ValueError, match="m must be at most"):
        phase_transition([10], n=5, m=6, trials=1, progress=False)


def test_too_few_signals_returns_the_start():
    # p = 6 signals for m = 4: most rows have fewer than m + 2 zero codes
    _, Y, _ = _problem(150, 4, 6, seed=14)
    with pytest.warns(DegenerateStatisticsWarning, match="do not determine V"):
        res = refine_householder_product(Y, 4, rng=0)
    assert not res.converged
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        start = estimate_householder_product(Y, 4)
    np.testing.assert_array_equal(res.dictionary.vectors, start.vectors)


def test_unsettled_support_warns():
    _, Y, _ = _problem(200, 3, 60, seed=4)
    with pytest.warns(ConvergenceWarning, match="did not settle"):
        res = refine_householder_product(Y, 3, n_iter=1, n_restarts=0, rng=0)
    assert not res.converged


@pytest.mark.filterwarnings("ignore::gsp_householder.exceptions.ConvergenceWarning")
@pytest.mark.parametrize("snr_db", [5.0, 20.0])
def test_never_fits_worse_than_the_start(snr_db):
    V, Y, _ = _problem(300, 3, 60, seed=15, snr_db=snr_db)
    res = refine_householder_product(Y, 3, rng=0)
    Z = res.dictionary.T @ Y
    misfit = np.linalg.norm(Z - res.codes) / np.linalg.norm(Y)
    assert misfit <= res.history["initial_misfit"][0] + 1e-12
    assert np.isfinite(basis_error(V, res.dictionary))


def test_refinement_progress_bar_counts_the_sweeps(capsys):
    rng = np.random.default_rng(0)
    V = random_householder_product(20, 2, rng=rng)
    Y, _ = make_signals(V, 200, BernoulliUniform(0.3), rng=rng)
    quiet = refine_householder_product(Y, 2, rng=1, progress=False)
    assert capsys.readouterr().err == ""
    shown = refine_householder_product(Y, 2, rng=1, progress=True)
    err = capsys.readouterr().err
    assert "refine_householder_product" in err and "sweep" in err
    np.testing.assert_array_equal(quiet.dictionary.to_dense(), shown.dictionary.to_dense())
    assert len(shown.history["completion_residual"]) > 0
