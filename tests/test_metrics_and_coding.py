"""Metrics against dense computations; sparse coding."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gsp_householder import (
    BernoulliUniform,
    HouseholderProduct,
    basis_error,
    coefficient_error,
    make_signals,
    match_columns,
    matched_basis_error,
    orthogonality_defect,
    random_householder_product,
    sparse_code,
    vector_error,
)
from gsp_householder.learning.sparse_coding import keep_largest, two_means_threshold


@settings(max_examples=50, deadline=None)
@given(st.integers(8, 40), st.integers(1, 3), st.integers(1, 3), st.booleans(),
       st.integers(0, 10_000))
def test_structured_basis_error_matches_dense(n, m1, m2, signs, seed):
    rng = np.random.default_rng(seed)
    d1 = np.where(rng.random(n) < 0.3, -1.0, 1.0) if signs else None
    A = HouseholderProduct(rng.standard_normal((n, m1)), d1)
    B = HouseholderProduct(rng.standard_normal((n, m2)))
    dense = np.linalg.norm(A.to_dense() - B.to_dense())
    assert basis_error(A, B) == pytest.approx(dense, rel=1e-10, abs=1e-12)


def test_basis_error_accurate_for_tiny_differences():
    n = 1000
    V = random_householder_product(n, 10, rng=0)
    U = V.vectors.copy()
    U[:, 0] += 1e-9 * np.random.default_rng(1).standard_normal(n)
    W = HouseholderProduct(U)
    err = basis_error(V, W)
    dense = np.linalg.norm(V.to_dense() - W.to_dense())
    # 2n - 2 tr(V^T W) would lose everything below sqrt(n * eps) ~ 5e-7
    assert err == pytest.approx(dense, rel=1e-4)
    assert 1e-9 < err < 1e-7
    assert basis_error(V, V) < 1e-13


def test_vector_and_coefficient_errors():
    u = np.array([0.6, 0.8])
    assert vector_error(u, -u) == 0.0
    assert vector_error(u, np.zeros(2), ord=2) == pytest.approx(1.0)
    assert vector_error(u, np.zeros(2), relative=True) == pytest.approx(1.0)
    assert coefficient_error(np.ones((2, 3)), np.zeros((2, 3))) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="u and u_hat must have equal shapes"):
        vector_error([1.0, 2.0], [1.0])


def test_match_columns_recovers_signed_permutation():
    rng = np.random.default_rng(3)
    Q, _ = np.linalg.qr(rng.standard_normal((12, 12)))
    perm = rng.permutation(12)
    signs = np.where(rng.random(12) < 0.5, -1.0, 1.0)
    Q_hat = np.empty_like(Q)
    Q_hat[:, perm] = Q * signs
    p, s = match_columns(Q, Q_hat)
    np.testing.assert_allclose(Q_hat[:, p] * s, Q, atol=1e-14)
    assert matched_basis_error(Q, Q_hat) < 1e-13
    assert orthogonality_defect(Q) < 1e-13


def test_sparse_code_recovers_codes_with_true_dictionary():
    V = random_householder_product(300, 3, rng=0)
    Y, X = make_signals(V, 40, BernoulliUniform(0.5), snr_db=30, rng=1)
    X_hat = sparse_code(V, Y)
    # noise sd 0.034 at 30 dB; the threshold (about 0.76) is 7 sd from 0 and from 1
    np.testing.assert_array_equal(X_hat != 0, X != 0)
    # at 20 dB (sd 0.108) values near low = 1 are missed with probability <= 1.4 %,
    # about 5e-4 of the entries on average
    Y20, X20 = make_signals(V, 40, BernoulliUniform(0.5), snr_db=20, rng=1)
    assert np.mean((sparse_code(V, Y20) != 0) != (X20 != 0)) < 2e-3
    X_dense = sparse_code(V.to_dense(), Y)
    np.testing.assert_allclose(X_dense, X_hat, atol=1e-12)
    X_s = sparse_code(V, Y, sparsity=5)
    assert np.all((X_s != 0).sum(axis=0) == 5)


def test_keep_largest_and_threshold_edge_cases():
    C = np.array([[3.0, -1.0], [-4.0, 0.5], [1.0, 2.0]])
    np.testing.assert_array_equal(keep_largest(C, 1), [[0, 0], [-4.0, 0], [0, 2.0]])
    np.testing.assert_array_equal(keep_largest(C, 0), np.zeros((3, 2)))
    np.testing.assert_array_equal(keep_largest(C, 3), C)
    assert two_means_threshold(np.full(5, 2.0)) == 1.0
    with pytest.raises(ValueError, match="sparsity must be at most"):
        keep_largest(C, 4)
    with pytest.raises(ValueError, match="give threshold or sparsity, not both"):
        sparse_code(np.eye(3), C, threshold=1.0, sparsity=1)
    with pytest.raises(ValueError, match="threshold must be >= 0"):
        sparse_code(np.eye(3), C, threshold=-1.0)
    with pytest.raises(ValueError, match="shape mismatch"):
        sparse_code(np.eye(2), C)
