"""Tests of gsp_householder.learning.baselines on small exact cases."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.householder import HouseholderProduct
from gsp_householder.learning.baselines import (
    excess_kurtosis,
    h_dla,
    msp,
    polar_factor,
    procrustes_altmin,
    procrustes_oracle,
)
from gsp_householder.learning.result import DictionaryResult
from gsp_householder.metrics import match_columns


def _orthogonal(n, rng):
    Q, R = np.linalg.qr(rng.standard_normal((n, n)))
    return Q * np.sign(np.diag(R))


def _codes(n, p, theta, rng):
    return (rng.random((n, p)) < theta) * rng.uniform(1.0, 2.0, (n, p))


def _dense(V):
    return V.to_dense() if isinstance(V, HouseholderProduct) else np.asarray(V)


# ----------------------------------------------------------------- Procrustes
@pytest.mark.parametrize("completion", ["arbitrary", "identity"])
def test_procrustes_oracle_exact_with_enough_signals(completion):
    rng = np.random.default_rng(0)
    Q = _orthogonal(8, rng)
    X = _codes(8, 20, 0.5, rng)
    res = procrustes_oracle(Q @ X, X, completion=completion)
    assert isinstance(res, DictionaryResult)
    assert np.linalg.norm(_dense(res.dictionary) - Q) < 1e-10
    assert res.history["objective"][0] < 1e-10
    np.testing.assert_array_equal(res.codes, X)


def test_identity_completion_exact_on_range_and_maximises_trace():
    rng = np.random.default_rng(1)
    n, p = 30, 4
    V = HouseholderProduct(rng.standard_normal((n, 3)))
    X = _codes(n, p, 0.5, rng)
    Y = V @ X
    ident = procrustes_oracle(Y, X, "identity").dictionary
    arb = procrustes_oracle(Y, X, "arbitrary").dictionary
    assert isinstance(ident, HouseholderProduct) and ident.m <= 2 * p
    D = ident.to_dense()
    np.testing.assert_allclose(D.T @ D, np.eye(n), atol=1e-10)
    np.testing.assert_allclose(D @ X, Y, atol=1e-10)       # exact on the data
    np.testing.assert_allclose(arb @ X, Y, atol=1e-10)     # so is the arbitrary one
    # identity on the complement of span(Y, X)
    B, _ = np.linalg.qr(np.hstack([Y, X]))
    z = rng.standard_normal(n)
    z -= B @ (B.T @ z)
    np.testing.assert_allclose(D @ z, z, atol=1e-10)
    # the limit of polar(Y X^T + eps I): maximal trace among the fits
    U, _, Wt = np.linalg.svd(Y @ X.T + 1e-7 * np.eye(n))
    np.testing.assert_allclose(D, U @ Wt, atol=1e-5)
    assert np.trace(D) >= np.trace(arb) - 1e-9
    # and much closer to V than the arbitrary completion
    err_id = np.linalg.norm(D - V.to_dense())
    err_arb = np.linalg.norm(arb - V.to_dense())
    assert err_id < err_arb


def test_polar_factor_rejects_bad_input():
    Y = np.ones((4, 3))
    with pytest.raises(ValueError, match="X must have the shape"):
        polar_factor(Y, np.ones((4, 2)))
    with pytest.raises(ValueError, match="completion"):
        procrustes_oracle(Y, Y, completion="closest")
    with pytest.raises(ValueError, match="finite"):
        procrustes_oracle(np.full((4, 3), np.nan), Y)
    with pytest.raises(ValueError, match="2-D"):
        procrustes_oracle(np.ones(4), np.ones(4))


def test_altmin_recovers_near_identity_and_is_monotone():
    rng = np.random.default_rng(2)
    Q, _ = np.linalg.qr(np.eye(6) + 0.05 * rng.standard_normal((6, 6)))
    Q = Q * np.sign(np.diag(Q))
    X = _codes(6, 300, 0.3, rng)
    res = procrustes_altmin(Q @ X, threshold=0.5, n_iter=200)
    assert res.converged
    assert np.linalg.norm(res.dictionary - Q) < 1e-6
    obj = np.array(res.history["objective"])
    assert np.all(np.diff(obj) <= 1e-9 * obj[0])
    np.testing.assert_allclose(res.codes, X, atol=1e-5)


def test_altmin_identity_completion_structured_and_sparsity_mode():
    rng = np.random.default_rng(3)
    V = HouseholderProduct(rng.random((40, 2)))
    X = _codes(40, 10, 0.5, rng)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = procrustes_altmin(V @ X, sparsity=20, n_iter=30, completion="identity")
    assert isinstance(res.dictionary, HouseholderProduct)
    obj = np.array(res.history["objective"])
    assert np.all(np.diff(obj) <= 1e-9 * obj[0])
    assert np.all(np.count_nonzero(res.codes, axis=0) <= 20)


def test_altmin_rejects_bad_input():
    Y = np.ones((4, 3))
    with pytest.raises(ValueError, match="not both"):
        procrustes_altmin(Y, threshold=0.5, sparsity=2)
    with pytest.raises(ValueError, match="sparsity"):
        procrustes_altmin(Y, sparsity=5)
    with pytest.raises(ValueError, match="orthogonal"):
        procrustes_altmin(Y, threshold=0.5, init=2 * np.eye(4))
    with pytest.raises(ValueError, match="init"):
        procrustes_altmin(Y, threshold=0.5, init=np.eye(3))
    with pytest.raises(TypeError, match="n_iter"):
        procrustes_altmin(Y, threshold=0.5, n_iter=2.5)


# ---------------------------------------------------------------------- H-DLA
def _exact_sparse(n, p, s, rng):
    X = np.zeros((n, p))
    for j in range(p):
        X[rng.choice(n, s, replace=False), j] = rng.uniform(1, 2, s)
    return X


@pytest.mark.parametrize("seed", [0, 1])
def test_h_dla_recovers_single_reflector(seed):
    rng = np.random.default_rng(seed)
    H = HouseholderProduct(rng.random(16))
    X = _exact_sparse(16, 2000, 3, rng)
    res = h_dla(H @ X, 1, 3, n_iter=30)
    assert isinstance(res.dictionary, HouseholderProduct)
    assert np.linalg.norm(res.dictionary.to_dense() - H.to_dense()) < 1e-10
    np.testing.assert_allclose(res.codes, X, atol=1e-10)
    assert res.history["objective"][-1] < 1e-9


def test_h_dla_objective_monotone_and_solvers_agree():
    rng = np.random.default_rng(4)
    V = HouseholderProduct(rng.random((30, 3)))
    Y = V @ _codes(30, 6, 0.3, rng)
    dense = h_dla(Y, 3, 9, n_iter=15, solver="dense")
    low = h_dla(Y, 3, 9, n_iter=15, solver="lowrank")
    for res in (dense, low):
        obj = np.array(res.history["objective"])
        assert np.all(np.diff(obj) <= 1e-9 * obj[0])
        assert res.n_iter == 15
        # ||Y - D X|| equals the recorded objective
        assert abs(np.linalg.norm(Y - res.dictionary @ res.codes) - obj[-1]) < 1e-9
    np.testing.assert_allclose(dense.history["objective"], low.history["objective"],
                               rtol=1e-8, atol=1e-10)


def test_h_dla_rejects_bad_input():
    Y = np.ones((5, 3))
    with pytest.raises(ValueError, match="n_reflectors"):
        h_dla(Y, 0, 2)
    with pytest.raises(ValueError, match="sparsity"):
        h_dla(Y, 1, 6)
    with pytest.raises(ValueError, match="solver"):
        h_dla(Y, 1, 2, solver="eig")
    with pytest.raises(ValueError, match="must be finite"):
        h_dla(np.full((5, 3), np.inf), 1, 2)


# ------------------------------------------------------------------------ MSP
def test_msp_recovers_orthogonal_basis_sparse_codes():
    rng = np.random.default_rng(5)
    Q = _orthogonal(6, rng)
    X = _codes(6, 20000, 0.1, rng)
    res = msp(Q @ X, n_iter=300, rng=1)
    assert res.history["kurtosis"][0] > 0          # maximisation chosen
    perm, signs = match_columns(Q, res.dictionary)
    # sampling error of the l4 optimum is O(sqrt(n / p)) ~ 0.02
    assert np.linalg.norm(Q - res.dictionary[:, perm] * signs) < 0.1


def test_msp_kurtosis_sign_decides_max_or_min():
    rng = np.random.default_rng(6)
    Q = _orthogonal(6, rng)
    Y = Q @ _codes(6, 20000, 0.5, rng)
    assert excess_kurtosis(Y) < 0
    auto = msp(Y, n_iter=300, rng=1)                # minimises
    perm, signs = match_columns(Q, auto.dictionary)
    assert np.linalg.norm(Q - auto.dictionary[:, perm] * signs) < 0.1
    obj = np.array(auto.history["objective"])
    assert np.all(np.diff(obj) <= 1e-12 * obj[0])   # majorised steps never increase
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        wrong = msp(Y, n_iter=15, rng=1, objective="max")
    perm, signs = match_columns(Q, wrong.dictionary)
    assert np.linalg.norm(Q - wrong.dictionary[:, perm] * signs) > 0.5


def test_msp_rejects_bad_input():
    with pytest.raises(ValueError, match="objective"):
        msp(np.ones((3, 5)) + np.arange(5), objective="maximum")
    with pytest.raises(ValueError, match="constant"):
        excess_kurtosis(np.ones((3, 5)))
    with pytest.raises(TypeError, match="rng"):
        msp(np.random.default_rng(0).random((3, 5)), rng="seed")
