"""HouseholderProduct against dense products, exact identities and algebraic properties."""

import contextlib
import pickle
import threading

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from gsp_householder import HouseholderProduct


def dense_product(U, signs=None):
    n = U.shape[0]
    V = np.eye(n)
    for u in U.T:
        u = u / np.linalg.norm(u)
        V = V @ (np.eye(n) - 2.0 * np.outer(u, u))
    if signs is not None:
        V = V * signs[None, :]
    return V


def random_case(rng, n, m, with_signs=True):
    U = rng.standard_normal((n, m))
    signs = np.where(rng.random(n) < 0.5, -1.0, 1.0) if with_signs else None
    return U, signs


@pytest.mark.parametrize("n,m", [(1, 1), (2, 1), (5, 3), (20, 7), (30, 30), (12, 40)])
def test_apply_matches_dense(n, m):
    rng = np.random.default_rng(n * 100 + m)
    U, signs = random_case(rng, n, m)
    V = HouseholderProduct(U, signs)
    D = dense_product(U, signs)
    Y = rng.standard_normal((n, 4))
    scale = np.linalg.norm(Y)
    np.testing.assert_allclose(V.to_dense(), D, atol=1e-12 * n)
    assert np.linalg.norm(V @ Y - D @ Y) <= 1e-12 * scale
    assert np.linalg.norm(V.T @ Y - D.T @ Y) <= 1e-12 * scale
    assert np.linalg.norm(Y.T @ V - Y.T @ D) <= 1e-12 * scale
    np.testing.assert_allclose(V @ Y[:, 0], D @ Y[:, 0], atol=1e-12 * scale)
    np.testing.assert_allclose(Y[:, 0] @ V, Y[:, 0] @ D, atol=1e-12 * scale)


def test_wy_factor_is_upper_triangular_and_reproduces_product():
    rng = np.random.default_rng(1)
    U, _ = random_case(rng, 15, 6, with_signs=False)
    V = HouseholderProduct(U)
    T = V.wy_factor
    assert np.allclose(np.tril(T, -1), 0.0)
    Un = V.vectors
    np.testing.assert_allclose(np.eye(15) - Un @ T @ Un.T, dense_product(U), atol=1e-13)


def test_single_reflector_is_symmetric_involution():
    u = np.array([3.0, -1.0, 2.0, 0.5])
    H = HouseholderProduct(u)
    D = H.to_dense()
    np.testing.assert_allclose(D, D.T, atol=1e-15)
    np.testing.assert_allclose(D @ D, np.eye(4), atol=1e-14)
    np.testing.assert_allclose(D @ u, -u, atol=1e-14)


def test_transpose_compose_inverse():
    rng = np.random.default_rng(2)
    U1, s1 = random_case(rng, 10, 3)
    U2, s2 = random_case(rng, 10, 4)
    A, B = HouseholderProduct(U1, s1), HouseholderProduct(U2, s2)
    Ad, Bd = A.to_dense(), B.to_dense()
    assert isinstance(A.T, HouseholderProduct)
    np.testing.assert_allclose(A.T.to_dense(), Ad.T, atol=1e-13)
    C = A @ B
    assert isinstance(C, HouseholderProduct) and C.m == 7
    np.testing.assert_allclose(C.to_dense(), Ad @ Bd, atol=1e-13)
    np.testing.assert_allclose((A @ A.inverse()).to_dense(), np.eye(10), atol=1e-13)


def test_float32_in_float32_out():
    rng = np.random.default_rng(3)
    V = HouseholderProduct(rng.standard_normal((8, 2)))
    Y = rng.standard_normal((8, 3)).astype(np.float32)
    out = V @ Y
    assert out.dtype == np.float32
    np.testing.assert_allclose(out, V.to_dense() @ Y.astype(np.float64), atol=1e-5)


def test_identity_and_empty_product():
    V = HouseholderProduct.identity(4)
    assert V.m == 0
    Y = np.arange(8.0).reshape(4, 2)
    np.testing.assert_array_equal(V @ Y, Y)
    np.testing.assert_array_equal(V.to_dense(), np.eye(4))


def test_pickle_round_trip():
    rng = np.random.default_rng(4)
    V = HouseholderProduct(*random_case(rng, 6, 2))
    W = pickle.loads(pickle.dumps(V))
    np.testing.assert_array_equal(W.to_dense(), V.to_dense())


@pytest.mark.parametrize("method", ["qr", "minimal"])
@pytest.mark.parametrize("n", [1, 2, 7, 40])
def test_from_orthogonal_exact(method, n):
    rng = np.random.default_rng(n)
    Q, _ = np.linalg.qr(rng.standard_normal((n, n)))
    V = HouseholderProduct.from_orthogonal(Q, method=method)
    assert np.linalg.norm(V.to_dense() - Q) <= 1e-12 * max(n, 1)
    assert V.m <= n
    if method == "qr":
        assert V.m <= max(n - 1, 0) or n == 1


def test_from_orthogonal_minimal_count_equals_rank_of_difference():
    rng = np.random.default_rng(5)
    n = 30
    for m in (1, 2, 5):
        W = HouseholderProduct(rng.standard_normal((n, m)))
        Q = W.to_dense()
        r = np.linalg.matrix_rank(Q - np.eye(n), tol=1e-9)
        V = HouseholderProduct.from_orthogonal(Q, method="minimal")
        assert V.m == r == m
        np.testing.assert_allclose(V.to_dense(), Q, atol=1e-12)


def test_constructor_errors():
    with pytest.raises(ValueError, match="vectors must have non-zero columns; column 1"):
        HouseholderProduct(np.array([[1.0, 0.0], [0.0, 0.0]]))
    with pytest.raises(ValueError, match="vectors must be finite"):
        HouseholderProduct(np.array([1.0, np.nan]))
    with pytest.raises(ValueError, match="signs must contain only"):
        HouseholderProduct(np.ones((3, 1)), signs=[1.0, 0.5, 1.0])
    with pytest.raises(ValueError, match="signs must have shape"):
        HouseholderProduct(np.ones((3, 1)), signs=[1.0, 1.0])
    with pytest.raises(TypeError, match="vectors must be real"):
        HouseholderProduct(np.ones(3, dtype=complex))
    V = HouseholderProduct(np.ones((3, 1)))
    with pytest.raises(ValueError, match="shape mismatch"):
        V @ np.ones((4, 2))
    with pytest.raises(ValueError, match="shape mismatch"):
        np.ones((2, 4)) @ V
    with pytest.raises(ValueError, match="Q must be orthogonal"):
        HouseholderProduct.from_orthogonal(2 * np.eye(3))
    with pytest.raises(ValueError, match="Q must be square"):
        HouseholderProduct.from_orthogonal(np.ones((2, 3)))
    with pytest.raises(ValueError, match="method must be"):
        HouseholderProduct.from_orthogonal(np.eye(3), method="svd")


# ------------------------------------------------------------------ properties
finite = st.floats(-10, 10, allow_nan=False, allow_infinity=False)


@st.composite
def products(draw, max_n=12, max_m=6):
    n = draw(st.integers(1, max_n))
    m = draw(st.integers(1, max_m))
    U = draw(arrays(np.float64, (n, m), elements=finite))
    assume(np.all(np.linalg.norm(U, axis=0) > 1e-3))  # a zero column defines no reflector
    signs = draw(arrays(np.float64, (n,), elements=st.sampled_from([-1.0, 1.0])))
    return HouseholderProduct(U, signs)


@settings(max_examples=60, deadline=None)
@given(products())
def test_property_orthogonal(V):
    D = V.to_dense()
    np.testing.assert_allclose(D.T @ D, np.eye(V.n), atol=1e-11)


@settings(max_examples=60, deadline=None)
@given(products(), st.integers(1, 4))
def test_property_transpose_is_inverse_on_signals(V, p):
    Y = np.linspace(-1, 1, V.n * p).reshape(V.n, p)
    np.testing.assert_allclose(V.T @ (V @ Y), Y, atol=1e-11)
    np.testing.assert_allclose(V.T.to_dense(), V.to_dense().T, atol=1e-11)


@settings(max_examples=40, deadline=None)
@given(products(max_n=8), st.data())
def test_property_composition(V, data):
    W = data.draw(products(max_n=V.n, max_m=4).filter(lambda W: W.n == V.n))
    np.testing.assert_allclose((V @ W).to_dense(), V.to_dense() @ W.to_dense(), atol=1e-11)


@settings(max_examples=40, deadline=None)
@given(products(max_n=10))
def test_property_exact_factorisation(V):
    Q = V.to_dense()
    for method in ("qr", "minimal"):
        F = HouseholderProduct.from_orthogonal(Q, method=method)
        np.testing.assert_allclose(F.to_dense(), Q, atol=1e-11)


@settings(max_examples=40, deadline=None)
@given(arrays(np.float64, st.integers(1, 10), elements=finite).filter(
    lambda u: np.linalg.norm(u) > 1e-3))
def test_property_reflector_involution(u):
    H = HouseholderProduct(u)
    np.testing.assert_allclose(H @ (H @ np.eye(u.size)), np.eye(u.size), atol=1e-12)


# ------------------------------------------- the blocked apply and the factored form
@pytest.mark.parametrize("block_bytes", [8, 200, 1 << 21])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_apply_by_blocks_of_rows_matches_dense(monkeypatch, block_bytes, dtype):
    """Whatever the block of rows, the WY apply equals the dense product."""
    import gsp_householder.householder as hh

    monkeypatch.setattr(hh, "_APPLY_BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(block_bytes)
    U, signs = random_case(rng, 37, 6)
    V, D = HouseholderProduct(U, signs), dense_product(U, signs)
    Y = rng.standard_normal((37, 11))
    tol = 1e-12 if dtype == np.float64 else 1e-5
    for out, ref in ((V @ Y.astype(dtype), D @ Y), (V.T @ Y.astype(dtype), D.T @ Y),
                     (V.T @ np.asfortranarray(Y, dtype=dtype), D.T @ Y)):
        assert out.dtype == dtype
        assert np.linalg.norm(out - ref) <= tol * np.linalg.norm(Y)


@pytest.mark.parametrize("block_bytes", [8, 1 << 21])
@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_apply_by_blocks_reports_non_finite_input(monkeypatch, block_bytes, bad):
    import gsp_householder.householder as hh

    monkeypatch.setattr(hh, "_APPLY_BLOCK_BYTES", block_bytes)
    V = HouseholderProduct(np.random.default_rng(0).standard_normal((9, 2)))
    Y = np.ones((9, 5))
    Y[7, 4] = bad
    with pytest.raises(ValueError, match="Y"):
        V @ Y
    with pytest.raises(ValueError, match="too large in magnitude"):
        V @ np.full((9, 5), 3e38, dtype=np.float32)


@pytest.mark.parametrize("block_bytes", [8, 24, 200, 1 << 21])
@pytest.mark.parametrize("m", [0, 1, 6])
@pytest.mark.parametrize("with_signs", [False, True])
@pytest.mark.parametrize("p", [1, 3, 11])
def test_blocked_apply_matches_dense_for_every_block(monkeypatch, block_bytes, m, with_signs, p):
    """The blocked copy pass (D Y copied, bounds read while in cache) gives the dense product
    for blocks of one row or column, blocks that do not divide n or p, and one block."""
    import gsp_householder.householder as hh

    monkeypatch.setattr(hh, "_APPLY_BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(block_bytes + 10 * m + p)
    n = 23
    U, signs = random_case(rng, n, m, with_signs=with_signs)
    V = HouseholderProduct(U, signs) if m else HouseholderProduct(np.zeros((n, 0)), signs)
    D = dense_product(U, signs)
    Y = rng.standard_normal((n, p)) * 3.0
    for dtype, tol in ((np.float64, 1e-13), (np.float32, 3e-6)):
        for layout in (np.ascontiguousarray, np.asfortranarray):
            Z = layout(Y, dtype=dtype)
            for got, ref in ((V @ Z, D @ Y), (V.T @ Z, D.T @ Y), (Z.T @ V, Y.T @ D)):
                assert got.dtype == dtype
                assert np.linalg.norm(got - ref) <= tol * np.linalg.norm(Y)
            np.testing.assert_array_equal(Z, layout(Y, dtype=dtype))  # Y is left alone


@pytest.mark.parametrize("layout", [np.ascontiguousarray, np.asfortranarray])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("transpose", [False, True])
def test_overwrite_y_writes_the_product_into_y(layout, dtype, transpose):
    rng = np.random.default_rng(3)
    U, signs = random_case(rng, 17, 4)
    V, D = HouseholderProduct(U, signs), dense_product(U, signs)
    Y = rng.standard_normal((17, 9))
    ref = (D.T if transpose else D) @ Y
    Z = layout(Y.copy(), dtype=dtype)
    out = V.matvec(Z, transpose=transpose, overwrite_y=True)
    assert out is Z
    tol = 1e-13 if dtype == np.float64 else 3e-6
    assert np.linalg.norm(out - ref) <= tol * np.linalg.norm(Y)
    np.testing.assert_array_equal(out, V.matvec(layout(Y, dtype=dtype), transpose=transpose))


def test_overwrite_y_leaves_inputs_it_cannot_use():
    """Integer, read-only, strided and 1-D inputs are not overwritten; a new array comes back."""
    rng = np.random.default_rng(4)
    U, signs = random_case(rng, 8, 3)
    V, D = HouseholderProduct(U, signs), dense_product(U, signs)
    frozen = rng.standard_normal((8, 5))
    frozen.setflags(write=False)
    cases = [np.arange(40).reshape(8, 5), frozen, rng.standard_normal((8, 10))[:, ::2],
             rng.standard_normal(8)]
    for Y in cases:
        before = np.array(Y)
        out = V.matvec(Y, overwrite_y=True)
        assert out is not Y
        np.testing.assert_array_equal(Y, before)
        np.testing.assert_allclose(out, D @ before, atol=1e-12 * max(1.0, np.abs(before).max()))


@pytest.mark.parametrize("bad", [np.nan, -np.inf])
def test_overwrite_y_still_reports_non_finite_input(bad):
    V = HouseholderProduct(np.random.default_rng(0).standard_normal((9, 2)))
    Y = np.ones((9, 5))
    Y[4, 2] = bad
    with pytest.raises(ValueError, match="Y"):
        V.matvec(Y, overwrite_y=True)


def test_copy_bound_is_infinite_for_nan_and_inf():
    """The bound from the copy pass never hides a NaN or an inf, and bounds every entry."""
    import gsp_householder.householder as hh

    for bad in (np.nan, np.inf, -np.inf):
        Y = np.ones((9, 5))
        Y[8, 4] = bad
        for c_order in (True, False):
            Z = Y if c_order else np.asfortranarray(Y)
            assert hh._copy_with_bounds(Z, np.empty_like(Z), None, c_order) == np.inf
    signs = np.where(np.arange(9) % 2, -1.0, 1.0)[:, None]
    Y = np.arange(45.0).reshape(9, 5) - 30.0
    out = np.empty_like(Y)
    bound = hh._copy_with_bounds(Y, out, signs, True)
    assert bound == 30.0
    np.testing.assert_array_equal(out, signs * Y)
    assert hh._copy_with_bounds(Y, Y, signs, True) == bound  # in place
    np.testing.assert_array_equal(Y, out)


@pytest.mark.parametrize("block_bytes", [8, 1 << 21])
def test_apply_of_entries_whose_squares_overflow_is_still_exact(monkeypatch, block_bytes):
    """Entries of 1e20 in float32 and 1e150 in float64 are applied exactly."""
    import gsp_householder.householder as hh

    monkeypatch.setattr(hh, "_APPLY_BLOCK_BYTES", block_bytes)
    rng = np.random.default_rng(6)
    U, signs = random_case(rng, 12, 3)
    V, D = HouseholderProduct(U, signs), dense_product(U, signs)
    Y = rng.standard_normal((12, 4)) * 1e20
    got = V.T @ Y.astype(np.float32)
    assert got.dtype == np.float32 and np.isfinite(got).all()
    assert np.linalg.norm(got - D.T @ Y) <= 3e-6 * np.linalg.norm(Y)
    np.testing.assert_allclose(V.T @ (Y * 1e130), (D.T @ Y) * 1e130, rtol=1e-12, atol=1e137)


def _factored_case(rng, n, m):
    basis, _ = np.linalg.qr(rng.standard_normal((n, 2)))
    coef = rng.standard_normal((2, m))
    coef /= np.linalg.norm(coef, axis=0)
    return HouseholderProduct._trusted_factored(basis, coef), basis @ coef


@pytest.mark.parametrize("n,m", [(2, 1), (5, 3), (40, 9)])
def test_factored_reflectors_behave_as_their_vectors(n, m):
    """Reflectors kept as U = B C apply, transpose, compose and pickle as U itself."""
    rng = np.random.default_rng(n + m)
    V, U = _factored_case(rng, n, m)
    assert (V.n, V.m) == (n, m)
    D = dense_product(U)
    Y = rng.standard_normal((n, 6))
    scale = np.linalg.norm(Y)
    assert np.linalg.norm(V @ Y - D @ Y) <= 1e-12 * scale
    assert np.linalg.norm(V.T @ Y - D.T @ Y) <= 1e-12 * scale
    assert np.linalg.norm(Y.T @ V - Y.T @ D) <= 1e-12 * scale
    np.testing.assert_allclose(V.wy_factor, HouseholderProduct(U).wy_factor, atol=1e-12)
    np.testing.assert_allclose(V.T.to_dense(), D.T, atol=1e-12)
    np.testing.assert_allclose((V @ V).to_dense(), D @ D, atol=1e-12)
    np.testing.assert_allclose(V.vectors, U, atol=1e-15)
    np.testing.assert_allclose(np.linalg.norm(V.vectors, axis=0), 1.0, atol=1e-15)
    again = pickle.loads(pickle.dumps(V))
    np.testing.assert_array_equal(again @ Y, V @ Y)
    np.testing.assert_array_equal(again.vectors, V.vectors)


def test_factored_pickle_rejects_a_basis_that_is_not_orthonormal():
    V, _ = _factored_case(np.random.default_rng(0), 6, 2)
    state = V.__getstate__()
    state["basis"] = state["basis"] * 2.0
    with pytest.raises(ValueError, match="orthonormal basis"):
        HouseholderProduct.__new__(HouseholderProduct).__setstate__(state)


@pytest.mark.parametrize("order", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_apply_near_the_overflow_bound_is_checked_not_refused(order, dtype):
    """Entries past half the range cannot be proven finite in advance; the result is
    then checked, and returned when it is finite."""
    rng = np.random.default_rng(3)
    U, signs = random_case(rng, 12, 3)
    V, D = HouseholderProduct(U, signs), dense_product(U, signs)
    big = 0.6 * float(np.finfo(dtype).max)
    Y = np.zeros((12, 4), dtype=dtype, order=order)
    Y[:, 0] = big / 12  # the bound (max |Y| + max column sum of |W|) stays below half
    Y[2, 1] = big  # V Y may be finite, but not provably
    for out, ref in ((V @ Y, D @ Y.astype(np.float64)), (V.T @ Y, D.T @ Y.astype(np.float64))):
        assert np.abs(ref).max() > 0.3 * float(np.finfo(dtype).max)  # finite, and large
        assert out.dtype == dtype
        np.testing.assert_allclose(out, ref, rtol=1e-5 if dtype == np.float32 else 1e-12,
                                   atol=1e-6 * big)


def test_apply_with_signs_equals_dense_in_both_orders():
    rng = np.random.default_rng(4)
    U, signs = random_case(rng, 30, 5)
    signs[:] = np.where(rng.random(30) < 0.5, -1.0, 1.0)
    V, D = HouseholderProduct(U, signs), dense_product(U, signs)
    Y = rng.standard_normal((30, 7))
    for Z in (Y, np.asfortranarray(Y)):
        np.testing.assert_allclose(V @ Z, D @ Y, atol=1e-12)
        np.testing.assert_allclose(V.T @ Z, D.T @ Y, atol=1e-12)
        np.testing.assert_allclose(Z.T @ V, Y.T @ D, atol=1e-12)


# --------------------------------------------- the copy pass shared out between threads
@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 40), m=st.integers(0, 6), p=st.integers(1, 9),
       block_bytes=st.sampled_from([8, 40, 256, 1 << 21]), n_threads=st.integers(1, 4),
       dtype=st.sampled_from([np.float64, np.float32]), fortran=st.booleans(),
       with_signs=st.booleans(), transpose=st.booleans(), overwrite=st.booleans(),
       fused=st.booleans(), seed=st.integers(0, 2**32 - 1))
def test_property_threaded_apply_equals_dense(n, m, p, block_bytes, n_threads, dtype, fortran,
                                              with_signs, transpose, overwrite, fused, seed):
    """With the copy of Y split between threads (every size, here), the WY apply equals
    the dense product to rounding, in both memory orders, with signs, in place or not,
    with the copy and GEMM 2 fused per block (BLAS on one thread) or not."""
    import gsp_householder.householder as hh

    if fused and hh.blas_controller() is None:
        fused = False  # without threadpoolctl the package never fuses

    rng = np.random.default_rng(seed)
    U, signs = random_case(rng, n, m, with_signs=with_signs)
    if signs is None:
        signs = np.ones(n)
    V = HouseholderProduct(U, signs) if m else HouseholderProduct(np.zeros((n, 0)), signs)
    D = dense_product(U, signs)
    Y = rng.standard_normal((n, p)) * 5.0
    Z = np.array(Y, dtype=dtype, order="F" if fortran else "C")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hh, "_APPLY_BLOCK_BYTES", block_bytes)
        mp.setattr(hh, "_PARALLEL_COPY_BYTES", 0)
        mp.setattr(hh, "_copy_threads", lambda: n_threads)
        mp.setattr(hh, "_FUSED_BLOCK_BYTES", block_bytes)
        if not fused:
            mp.setattr(hh, "blas_controller", lambda: None)
        threads_before = hh.blas_threads()
        # the apply fuses only while BLAS runs one thread
        with hh.one_blas_thread() if fused else contextlib.nullcontext():
            got = V.matvec(Z, transpose=transpose, overwrite_y=overwrite)
        assert hh.blas_threads() == threads_before  # the one-thread limit is lifted
    ref = (D.T if transpose else D) @ Y
    tol = 1e-13 if dtype == np.float64 else 3e-6
    assert got.dtype == dtype
    assert np.linalg.norm(got - ref) <= tol * max(np.linalg.norm(Y), 1e-300)


@pytest.mark.parametrize("n_threads", [2, 3, 8])
@pytest.mark.parametrize("c_order", [True, False])
def test_threaded_copy_bound_sees_every_block(n_threads, c_order):
    """Each thread's bound reaches the result: a NaN or inf in any block gives inf, and a
    finite array gives its largest magnitude, wherever it sits."""
    import gsp_householder.householder as hh

    rng = np.random.default_rng(n_threads)
    for where in [(0, 0), (5, 3), (16, 6)]:
        Y = rng.standard_normal((17, 7))
        Y[where] = -40.0
        Z = Y if c_order else np.asfortranarray(Y)
        out = np.empty_like(Z)
        assert hh._copy_with_bounds(Z, out, None, c_order, n_threads=n_threads) == 40.0
        np.testing.assert_array_equal(out, Z)
        for bad in (np.nan, np.inf, -np.inf):
            Y[where] = bad
            Z = Y if c_order else np.asfortranarray(Y)
            assert hh._copy_with_bounds(Z, np.empty_like(Z), None, c_order,
                                        n_threads=n_threads) == np.inf


@pytest.mark.parametrize("bad", [np.nan, np.inf])
def test_threaded_apply_reports_non_finite_input(monkeypatch, bad):
    import gsp_householder.householder as hh

    monkeypatch.setattr(hh, "_APPLY_BLOCK_BYTES", 16)
    monkeypatch.setattr(hh, "_PARALLEL_COPY_BYTES", 0)
    V = HouseholderProduct(np.random.default_rng(0).standard_normal((9, 2)))
    Y = np.ones((9, 5))
    Y[8, 4] = bad
    with pytest.raises(ValueError, match="Y"):
        V.T @ Y
    with pytest.raises(ValueError, match="Y"):
        V.matvec(Y, overwrite_y=True)


@pytest.mark.parametrize("n_threads", [1, 2, 3])
@pytest.mark.parametrize("c_order", [True, False])
def test_fused_pass_bounds_every_block_and_writes_the_product(n_threads, c_order):
    """The fused copy + GEMM 2 pass gives out = Y - A W exactly as the unfused one (same
    BLAS kernel on the same data), its bound is the largest |Y| wherever it sits, and a
    NaN or inf in any block gives inf; the BLAS thread count is restored after."""
    import gsp_householder.householder as hh

    if hh.blas_controller() is None:
        pytest.skip("the fused pass needs threadpoolctl")
    rng = np.random.default_rng(n_threads)
    A, W = rng.standard_normal((17, 3)), rng.standard_normal((3, 7))
    threads_before = hh.blas_threads()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hh, "_FUSED_BLOCK_BYTES", 24)
        for where in [(0, 0), (5, 3), (16, 6)]:
            Y = rng.standard_normal((17, 7))
            Y[where] = -40.0
            Z = Y if c_order else np.asfortranarray(Y)
            out = np.empty_like(Z)
            high = hh._fused_copy_subtract(Z, out, None, c_order, A, W, n_threads=n_threads)
            assert high == 40.0
            ref = Z.copy(order="K")
            hh._subtract_product(A, W, ref)
            np.testing.assert_array_equal(out, ref)
            for bad in (np.nan, np.inf, -np.inf):
                Y[where] = bad
                Z = Y if c_order else np.asfortranarray(Y)
                assert hh._fused_copy_subtract(Z, np.empty_like(Z), None, c_order, A, W,
                                               n_threads=n_threads) == np.inf
    assert hh.blas_threads() == threads_before


@pytest.mark.parametrize("n_threads", [1, 2, 3])
@pytest.mark.parametrize("c_order", [True, False])
@pytest.mark.parametrize("with_signs", [False, True])
def test_subtract_pass_bounds_every_block_of_the_result(n_threads, c_order, with_signs):
    """``out = D (Y - out)`` block by block on 1-3 threads: the result equals the
    one-shot numpy expression, the bound is the largest |entry| of the result wherever
    it sits, and a NaN or inf in any block of Y gives inf."""
    import gsp_householder.householder as hh

    rng = np.random.default_rng(n_threads)
    d = np.where(rng.random(17) < 0.5, -1.0, 1.0)
    dcol = d[:, None] if with_signs else None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hh, "_APPLY_BLOCK_BYTES", 24)
        for where in [(0, 0), (5, 3), (16, 6)]:
            Y, P = rng.standard_normal((17, 7)), rng.standard_normal((17, 7))
            Y[where], P[where] = 40.0, -2.0
            Z = Y if c_order else np.asfortranarray(Y)
            out = P.copy() if c_order else np.asfortranarray(P)
            high = hh._subtract_from(Z, out, dcol, c_order, n_threads=n_threads)
            ref = (Y - P) * (d[:, None] if with_signs else 1.0)
            np.testing.assert_array_equal(out, ref)
            assert high == np.abs(ref).max() == 42.0
            for bad in (np.nan, np.inf, -np.inf):
                Y[where] = bad
                Z = Y if c_order else np.asfortranarray(Y)
                out = P.copy() if c_order else np.asfortranarray(P)
                assert hh._subtract_from(Z, out, dcol, c_order, n_threads=n_threads) == np.inf


@pytest.mark.parametrize("blas", [1, 2, None])
@pytest.mark.parametrize("fortran", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_apply_paths_by_blas_threads_equal_dense(monkeypatch, blas, fortran, dtype):
    """With BLAS on one thread the apply runs the copy and SciPy's GEMM with beta = 1;
    with more BLAS threads, or an unknown count, both GEMMs go through numpy (SciPy's
    GEMM is never called) and the subtraction runs by blocks on threads. Every path
    equals the dense product (signs, V and V^T, both memory orders, above and below
    the size from which blocks are shared out), and reports a NaN in Y."""
    import gsp_householder.householder as hh

    calls = []
    real = hh._subtract_product

    def spy(A, W, out):
        calls.append(out.shape)
        return real(A, W, out)

    monkeypatch.setattr(hh, "_subtract_product", spy)
    monkeypatch.setattr(hh, "blas_threads", lambda: blas)
    if blas is None:
        monkeypatch.setattr(hh, "blas_controller", lambda: None)
    monkeypatch.setattr(hh, "_APPLY_BLOCK_BYTES", 256)
    monkeypatch.setattr(hh, "_FUSED_BLOCK_BYTES", 256)
    rng = np.random.default_rng(5)
    U, signs = random_case(rng, 40, 6)
    V, D = HouseholderProduct(U, signs), dense_product(U, signs)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    for parallel_bytes in (0, 1 << 40):
        monkeypatch.setattr(hh, "_PARALLEL_COPY_BYTES", parallel_bytes)
        Y = rng.standard_normal((40, 9))
        Z = (np.asfortranarray(Y) if fortran else Y).astype(dtype)
        for op, ref in ((V, D), (V.T, D.T)):
            out = op @ Z
            assert out.dtype == dtype and out.flags.f_contiguous == fortran
            np.testing.assert_allclose(out, ref @ Z.astype(np.float64), atol=tol)
        Z[3, 4] = np.nan
        with pytest.raises(ValueError, match="Y"):
            V.T @ Z
    assert bool(calls) == (blas == 1)


def test_one_blas_thread_nests_and_restores():
    from gsp_householder._blas_threads import blas_controller, blas_threads, one_blas_thread

    if blas_controller() is None:
        pytest.skip("needs threadpoolctl")
    before = blas_threads()
    with one_blas_thread():
        assert blas_threads() == 1
        with one_blas_thread():
            assert blas_threads() == 1
        assert blas_threads() == 1  # the outer block still holds the limit
    assert blas_threads() == before
    with pytest.raises(ZeroDivisionError), one_blas_thread():
        1 / 0
    assert blas_threads() == before


def test_products_without_signs_keep_no_sign_vector():
    """Products built without signs (identity, factored estimates, transposes, single
    reflectors) report signs of +1 as a read-only vector, apply, pickle and compose as
    products with an explicit vector of ones."""
    from gsp_householder import BernoulliUniform, estimate_householder_product, make_signals

    rng = np.random.default_rng(5)
    V0 = HouseholderProduct(rng.standard_normal((30, 3)))
    Y, _ = make_signals(V0, 200, BernoulliUniform(0.5), rng=rng)
    for V in (HouseholderProduct.identity(30), estimate_householder_product(Y, 1),
              V0.T, V0.reflector(1)):
        signs = V.signs
        assert signs.shape == (30,) and not signs.flags.writeable
        np.testing.assert_array_equal(signs, np.ones(30))
        explicit = HouseholderProduct(V.vectors, np.ones(30)) if V.m else None
        Z = rng.standard_normal((30, 4))
        if explicit is not None:
            np.testing.assert_allclose(V @ Z, explicit @ Z, atol=1e-13)
        W = pickle.loads(pickle.dumps(V))
        np.testing.assert_allclose(W @ Z, V @ Z, atol=1e-13)
        np.testing.assert_allclose((V @ V0) @ Z, V @ (V0 @ Z), atol=1e-12)


# ------------------------------- several BLAS threads: the subtraction checked by flags
def _several_blas_threads(monkeypatch, hh, block_bytes=200, numpy_blas=False):
    """Send the apply down the path it takes with several BLAS threads, blocks shared out:
    without numpy's BLAS routines (the flagged subtraction) unless ``numpy_blas``."""
    monkeypatch.setattr(hh, "blas_threads", lambda: 2)
    monkeypatch.setattr(hh, "_APPLY_BLOCK_BYTES", block_bytes)
    monkeypatch.setattr(hh, "_PARALLEL_COPY_BYTES", 0)
    if not numpy_blas:
        monkeypatch.setattr(hh, "routines", lambda: None)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fortran", [False, True])
@pytest.mark.parametrize("kind", ["dense", "signs", "zero rows", "factored"])
@pytest.mark.parametrize("flags", [True, False])
def test_flagged_subtraction_apply_equals_dense(monkeypatch, dtype, fortran, kind, flags):
    """With several BLAS threads the apply is ``(D A) W`` by numpy, then ``D (Y - .)`` by
    blocks with numpy's overflow flags (or, where numpy reports no overflow, with each
    block's bounds): equal to the dense product to 1e-12 (float64) or 1e-5 (float32),
    both memory orders, p = 13 and n = 29 (no multiple of any block), V and V^T."""
    import gsp_householder.householder as hh

    _several_blas_threads(monkeypatch, hh)
    monkeypatch.setattr(hh, "_overflow_is_reported", lambda dtype: flags)
    calls = []
    real = hh._subtract_flagged
    monkeypatch.setattr(hh, "_subtract_flagged", lambda *a, **k: calls.append(1) or real(*a, **k))
    rng = np.random.default_rng(len(kind) + 2 * fortran)
    n, m, p = 29, 5, 13
    U, signs = random_case(rng, n, m, with_signs=kind == "signs")
    if kind == "zero rows":  # reflectors that leave rows 3-9 and 20 alone
        U[3:10], U[20] = 0.0, 0.0
    if kind == "factored":
        V, U = _factored_case(rng, n, m)
    else:
        V = HouseholderProduct(U, signs)
    D = dense_product(U, signs)
    Y = rng.standard_normal((n, p)) * 3.0
    Z = np.array(Y, dtype=dtype, order="F" if fortran else "C")
    tol = 1e-12 if dtype == np.float64 else 1e-5
    for op, ref in ((V, D), (V.T, D.T)):
        out = op @ Z
        assert out.dtype == dtype and out.flags.f_contiguous == fortran
        assert np.linalg.norm(out - ref @ Y) <= tol * np.linalg.norm(Y)
    assert len(calls) == (2 if flags else 0)
    np.testing.assert_array_equal(Z, np.array(Y, dtype=dtype))  # Y is left alone


def test_watched_factor_sees_every_row():
    """Every row of the factor of W has a nonzero entry, so a NaN or inf anywhere in Y
    reaches W = C_e^T Y even through a product that skips zero entries; rows of C that
    are zero get a last column, 1 on them, and nothing else changes."""
    rng = np.random.default_rng(7)
    U = rng.standard_normal((12, 3))
    U[[2, 5, 11]] = 0.0
    for V in (HouseholderProduct(U), HouseholderProduct(U).T):
        for dtype in (np.float64, np.float32):
            C = V._apply_pair(dtype, False)[1]
            watched = V._apply_watched(dtype, False)
            assert watched.dtype == dtype and watched.shape == (12, 4)
            assert (watched != 0).any(axis=1).all()
            np.testing.assert_array_equal(watched[:, :3], C)
            np.testing.assert_array_equal(watched[:, 3], np.isin(np.arange(12), [2, 5, 11]))
    full = HouseholderProduct(rng.standard_normal((12, 3)))
    assert full._apply_watched(np.float64, False) is full._apply_pair(np.float64, False)[1]


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("row", [0, 4, 28])
@pytest.mark.parametrize("path", ["flagged", "fresh beta one", "in place"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_several_thread_apply_reports_non_finite_input(monkeypatch, bad, row, path, dtype):
    """With several BLAS threads, a NaN or inf in Y, also in a row the reflectors leave
    alone (row 4), raises: the flagged subtraction (a fresh result without numpy's BLAS),
    a fresh result by both GEMMs on the package's threads (beta = 1 on numpy's BLAS), and,
    in place, the same into Y itself."""
    import gsp_householder.householder as hh

    numpy_blas = path != "flagged"
    if numpy_blas:
        _needs_numpy_blas()
    _several_blas_threads(monkeypatch, hh, numpy_blas=numpy_blas)
    monkeypatch.setattr(hh, "_GEMM1_CHUNK_BYTES", 100)
    monkeypatch.setattr(hh, "_FUSED_BLOCK_BYTES", 100)
    calls = []
    real = hh._fused_sentinel_apply
    monkeypatch.setattr(hh, "_fused_sentinel_apply",
                        lambda *a: calls.append(1) or real(*a))
    U = np.random.default_rng(1).standard_normal((29, 3))
    U[4] = 0.0
    V = HouseholderProduct(U)
    for order in "CF":
        Y = np.ones((29, 13), dtype=dtype, order=order)
        Y[row, 12] = bad
        with pytest.raises(ValueError, match="Y"):
            V.T.matvec(Y, overwrite_y=True) if path == "in place" else V.T @ Y
    assert len(calls) == (2 if path in ("fresh beta one", "in place") else 0)


@pytest.mark.parametrize("n_threads", [1, 2, 3])
@pytest.mark.parametrize("c_order", [True, False])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_subtraction_flags_an_overflow_in_any_block(n_threads, c_order, dtype):
    """``out = D (Y - out)`` on 1-3 threads: the result equals the one-shot expression
    (signs included), and one overflowing entry in any block is reported."""
    import gsp_householder.householder as hh

    rng = np.random.default_rng(n_threads)
    d = np.where(rng.random(17) < 0.5, -1.0, 1.0).astype(dtype)
    big = np.finfo(dtype).max
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hh, "_APPLY_BLOCK_BYTES", 24)
        Y, P = rng.standard_normal((17, 7)).astype(dtype), rng.standard_normal((17, 7))
        P = P.astype(dtype)
        Z = Y if c_order else np.asfortranarray(Y)
        out = P.copy() if c_order else np.asfortranarray(P)
        assert not hh._subtract_flagged(Z, out, d[:, None], c_order, n_threads=n_threads)
        np.testing.assert_array_equal(out, (Y - P) * d[:, None])
        for where in [(0, 0), (5, 3), (16, 6)]:
            Y2, P2 = Y.copy(), P.copy()
            Y2[where], P2[where] = 0.75 * big, -0.75 * big
            Z = Y2 if c_order else np.asfortranarray(Y2)
            out = P2.copy() if c_order else np.asfortranarray(P2)
            assert hh._subtract_flagged(Z, out, None, c_order, n_threads=n_threads)


def _overflowing_case(dtype):
    """One reflector on rows 0 and 1 and signals whose product's entry (0, 0) is about
    1.1 times the range of ``dtype``: the reflector's vector, the product, the signals
    and the largest finite value."""
    big = float(np.finfo(dtype).max)
    u = np.zeros(6)
    u[[0, 1]] = 0.3, 1.0
    Y = np.zeros((6, 3), dtype=dtype)
    Y[0, 0], Y[1, 0] = 0.99 * big, -0.49 * big
    return u, HouseholderProduct(u), Y, big


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_flagged_subtraction_apply_overflow_raises_and_near_overflow_returns(monkeypatch,
                                                                              dtype):
    """Entries past half the range: a result that overflows only in the subtraction
    (W finite, its column sums below half the range) raises; one that stays finite comes
    back equal to the dense product."""
    import gsp_householder.householder as hh

    _several_blas_threads(monkeypatch, hh)
    u, V, Y, big = _overflowing_case(dtype)
    W = V._apply_watched(dtype, False).T @ Y
    assert np.isfinite(W).all() and np.abs(W).sum(axis=0).max() < 0.5 * big
    with pytest.raises(ValueError, match="too large in magnitude"):
        V @ Y
    Y[:] = 0.0
    Y[0, 1] = 0.6 * big  # W and V Y finite, the bound on W past half: checked after
    Y[2, 2] = 0.9 * big  # a row H leaves alone: the subtraction sees it, no overflow
    out = V @ Y
    assert out.dtype == dtype and np.isfinite(out).all()
    np.testing.assert_allclose(out, dense_product(u[:, None]) @ Y.astype(np.float64),
                               rtol=1e-5 if dtype == np.float32 else 1e-12, atol=1e-6 * big)


def test_overflow_is_reported_by_this_numpy():
    """The check the apply relies on: numpy reports an overflow in ``np.subtract``."""
    import gsp_householder.householder as hh

    assert hh._overflow_is_reported(np.float64) and hh._overflow_is_reported(np.float32)


# ------------------ several BLAS threads, overwrite_y: GEMM 2 with beta = 1 into Y
def _needs_numpy_blas():
    from gsp_householder._numpy_blas import routines

    if routines() is None:
        pytest.skip("numpy's BLAS cannot be called here")


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fortran", [False, True])
@pytest.mark.parametrize("with_signs", [False, True])
@pytest.mark.parametrize("m", [1, 5, 28])
def test_copy_first_overwrite_y_equals_dense(monkeypatch, dtype, fortran, with_signs, m):
    """``overwrite_y`` with several BLAS threads and numpy's BLAS: W from Y first, then
    the signs in place and ``Y -= A W`` (beta = 1); Y itself comes back holding the dense
    product (1e-12 float64, 1e-5 float32), both memory orders, m = 1, 5 and n - 1, p not
    a multiple of the blocks; SciPy's GEMM is not called."""
    import gsp_householder.householder as hh

    _needs_numpy_blas()
    _several_blas_threads(monkeypatch, hh, numpy_blas=True)
    # arrays counted as small: a fresh result is one copy and one GEMM (large ones take
    # the package's threads, test_fresh_result_on_threads_and_beta_one_equals_dense)
    monkeypatch.setattr(hh, "_PARALLEL_COPY_BYTES", 1 << 40)
    calls = []
    real = hh.gemm_update
    monkeypatch.setattr(hh, "gemm_update", lambda *a: calls.append(1) or real(*a))
    monkeypatch.setattr(hh, "_subtract_product", None)
    rng = np.random.default_rng(m + 2 * fortran + 4 * with_signs)
    n, p = 29, 13
    U, signs = random_case(rng, n, m, with_signs=with_signs)
    V, D = HouseholderProduct(U, signs), dense_product(U, signs)
    Y = rng.standard_normal((n, p))
    tol = 1e-12 if dtype == np.float64 else 1e-5
    for op, ref in ((V, D), (V.T, D.T)):
        Z = np.array(Y, dtype=dtype, order="F" if fortran else "C")
        out = op.matvec(Z, overwrite_y=True)
        assert out is Z
        assert np.linalg.norm(out - ref @ Y) <= tol * np.linalg.norm(Y)
        fresh = op @ np.array(Y, dtype=dtype, order="F" if fortran else "C")
        assert np.linalg.norm(fresh - ref @ Y) <= tol * np.linalg.norm(Y)
    # the two overwriting calls, and the two fresh results when there are no signs (with
    # signs, a fresh result takes the flagged subtraction)
    assert len(calls) == (2 if with_signs else 4)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("fortran", [False, True])
@pytest.mark.parametrize("m", [1, 5, 28])
@pytest.mark.parametrize("p", [1, 13, 40])
@pytest.mark.parametrize("large", [True, False])
@pytest.mark.parametrize("with_signs", [False, True])
def test_fresh_result_on_threads_and_beta_one_equals_dense(monkeypatch, dtype, fortran, m,
                                                           p, large, with_signs):
    """A fresh result with several BLAS threads and numpy's BLAS: for an array counted as
    large, W by chunks of Y and ``out = D Y - A W`` by blocks (beta = 1) on the package's
    threads, with chunks and blocks of a few rows or columns (no multiple of n = 29 or
    of p; signs too); for a small one without signs, a copy and one beta = 1 GEMM. Equal
    to the dense product (1e-12 float64, 1e-5 float32), both memory orders, m = 1, 5 and
    n - 1, V and V^T, a factored product too; Y left alone, the result its own memory in
    Y's memory order; SciPy's GEMM is not called, nor the flagged subtraction (but for a
    small product with signs, which takes it); BLAS's thread count is restored."""
    import gsp_householder.householder as hh

    _needs_numpy_blas()
    _several_blas_threads(monkeypatch, hh, numpy_blas=True)
    if not large:
        monkeypatch.setattr(hh, "_PARALLEL_COPY_BYTES", 1 << 40)
    line = (29 if fortran else p) * np.dtype(dtype).itemsize
    monkeypatch.setattr(hh, "_GEMM1_CHUNK_BYTES", 4 * line + 1)
    monkeypatch.setattr(hh, "_FUSED_BLOCK_BYTES", 3 * line - 1)
    calls = []
    real = hh._fused_sentinel_apply
    monkeypatch.setattr(hh, "_fused_sentinel_apply",
                        lambda *a: calls.append(1) or real(*a))
    if large or not with_signs:
        monkeypatch.setattr(hh, "_subtract_flagged", None)
    monkeypatch.setattr(hh, "_subtract_product", None)
    threads = [lib.get_num_threads() for lib in hh.blas_controller().lib_controllers]
    rng = np.random.default_rng(m + 2 * fortran + 3 * p + 5 * with_signs)
    n = 29
    U, signs = random_case(rng, n, m, with_signs=with_signs)
    cases = [(HouseholderProduct(U, signs), dense_product(U, signs))]
    if m < n - 1 and not with_signs:
        V, Uf = _factored_case(rng, n, m)
        cases.append((V, dense_product(Uf, None)))
    Y = rng.standard_normal((n, p)) * 3.0
    tol = 1e-12 if dtype == np.float64 else 1e-5
    for V, D in cases:
        for op, ref in ((V, D), (V.T, D.T)):
            Z = np.array(Y, dtype=dtype, order="F" if fortran else "C")
            out = op @ Z
            assert out.dtype == dtype and not np.shares_memory(out, Z)
            assert out.flags.f_contiguous == (fortran or p == 1)
            assert out.flags.c_contiguous == (not fortran or p == 1)
            assert np.linalg.norm(out - ref @ Y) <= tol * np.linalg.norm(Y)
            np.testing.assert_array_equal(Z, np.array(Y, dtype=dtype))
            if large:  # overwrite_y: the same blocks into Y itself, the same bits
                inplace = op.matvec(Z, overwrite_y=True)
                assert inplace is Z
                np.testing.assert_array_equal(inplace, out)
    assert len(calls) == (4 * len(cases) if large else 0)
    assert [lib.get_num_threads() for lib in hh.blas_controller().lib_controllers] == threads


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("c_order", [True, False])
@pytest.mark.parametrize("with_signs", [False, True])
def test_fused_sentinel_apply_same_bits_on_any_thread_count(dtype, c_order, with_signs):
    """``out = D Y - A W`` with ``W = C_s^T Y`` on 1-3 threads, chunks and blocks of a few
    rows or columns, into fresh memory and into ``Y`` itself: the same bits whatever the
    number of threads, equal to the dense product, and ``W``'s last row 16 times the
    column sums of ``Y``."""
    import gsp_householder.householder as hh

    _needs_numpy_blas()
    rng = np.random.default_rng(3 * c_order + with_signs)
    n, m, p = 31, 4, 17
    U, signs = random_case(rng, n, m, with_signs=with_signs)
    V = HouseholderProduct(U, signs).T
    Y = np.array(rng.standard_normal((n, p)), dtype=dtype, order="C" if c_order else "F")
    A = V._apply_pair(Y.dtype, False)[0]
    Cs = V._apply_sentinel(Y.dtype, False)
    dcol = None if signs is None else signs.astype(dtype)[:, None]
    line = (p if c_order else n) * Y.itemsize
    results = []
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hh, "_GEMM1_CHUNK_BYTES", 5 * line)
        mp.setattr(hh, "_FUSED_BLOCK_BYTES", 2 * line + 3)
        for n_threads in (1, 2, 3):
            out = np.empty_like(Y)
            W = hh._fused_sentinel_apply(Y, out, dcol, c_order, A, Cs, n_threads)
            results.append((out, W))
            inplace = Y.copy(order="K")  # out is Y: W is made before any block is written
            W = hh._fused_sentinel_apply(inplace, inplace, dcol, c_order, A, Cs, n_threads)
            results.append((inplace, W))
    for out, W in results[1:]:
        np.testing.assert_array_equal(out, results[0][0])
        np.testing.assert_array_equal(W, results[0][1])
    out, W = results[0]
    tol = 1e-12 if dtype == np.float64 else 1e-5
    ref = dense_product(U, signs).T @ Y.astype(np.float64)
    assert np.linalg.norm(out - ref) <= tol * np.linalg.norm(ref)
    np.testing.assert_allclose(W[-1], 16.0 * Y.astype(np.float64).sum(axis=0),
                               rtol=tol, atol=tol * np.abs(Y).sum())


_RELEASED: list = []  # per slow chunk: whether a block was copied before it went on


class _SlowRows(np.ndarray):
    """An array whose row slice starting at ``slow_start`` waits until ``gate`` is set
    (at most ``wait`` seconds) and records whether it was, or raises ``RuntimeError``
    when ``fail`` is set: the thread of the fused apply that takes that chunk finishes
    (or fails) after the others have run out of chunks."""

    slow_start, wait, fail = 0, 10.0, False
    gate = threading.Event()

    def __getitem__(self, key):
        if isinstance(key, slice) and key.start == self.slow_start:
            if self.fail:
                raise RuntimeError("chunk failed")
            _RELEASED.append(_SlowRows.gate.wait(self.wait))
        return np.asarray(self)[key]


@pytest.mark.parametrize("with_signs", [False, True])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_fused_sentinel_apply_copies_ahead_while_w_is_made(with_signs, dtype):
    """A thread that runs out of chunks of W while another still computes one copies
    its blocks of the result meanwhile and runs their GEMMs once W is complete: the
    same bits as on one thread, equal to the dense product, ``Y`` left alone; into ``Y``
    itself no block is written before W is complete (else W would read a written
    block); a chunk that fails raises on the calling thread without a hang."""
    import gsp_householder.householder as hh

    _needs_numpy_blas()
    rng = np.random.default_rng(5 + with_signs)
    n, m, p = 40, 3, 9
    U, signs = random_case(rng, n, m, with_signs=with_signs)
    V = HouseholderProduct(U, signs).T
    Y = np.array(rng.standard_normal((n, p)), dtype=dtype)
    Y_before = Y.copy()
    A = V._apply_pair(Y.dtype, False)[0]
    Cs = V._apply_sentinel(Y.dtype, False)
    dcol = None if signs is None else signs.astype(dtype)[:, None]
    slow = Cs.view(_SlowRows)
    line = p * Y.itemsize
    real_copyto, real_multiply = np.copyto, np.multiply

    def opens_gate(real):  # a block copied (a sign applied) into the result
        return lambda *args, **kwargs: _SlowRows.gate.set() or real(*args, **kwargs)

    def run(Y, out, wait):
        _SlowRows.gate.clear()
        _RELEASED.clear()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(np, "copyto", opens_gate(real_copyto))
            patch.setattr(np, "multiply", opens_gate(real_multiply))
            patch.setattr(_SlowRows, "wait", wait)
            W = hh._fused_sentinel_apply(Y, out, dcol, True, A, slow, 2)
        return W, _RELEASED[0]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hh, "_GEMM1_CHUNK_BYTES", 20 * line)  # two chunks: rows 0-19, 20-39
        mp.setattr(hh, "_FUSED_BLOCK_BYTES", 3 * line)  # 14 blocks, the last first
        one = np.empty_like(Y)
        W_one = hh._fused_sentinel_apply(Y, one, dcol, True, A, Cs, 1)
        out = np.empty_like(Y)
        W, copied_first = run(Y, out, 10.0)
        # the chunk of rows 0-19 waits for a copy: the other thread copied blocks first
        assert copied_first
        np.testing.assert_array_equal(out, one)
        np.testing.assert_array_equal(W, W_one)
        np.testing.assert_array_equal(Y, Y_before)
        inplace = Y.copy()
        W, copied_first = run(inplace, inplace, 0.3)  # with signs: np.multiply into Y
        assert not copied_first
        np.testing.assert_array_equal(inplace, one)
        np.testing.assert_array_equal(W, W_one)
        mp.setattr(_SlowRows, "fail", True)
        for start in (0, 20):  # the calling thread's chunk fails, or the pool's
            mp.setattr(_SlowRows, "slow_start", start)
            for source, target in ((Y, np.empty_like(Y)), (inplace, inplace)):
                with pytest.raises(RuntimeError, match="chunk failed"):
                    hh._fused_sentinel_apply(source, target, dcol, True, A, slow, 2)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    ref = dense_product(U, signs).T @ Y.astype(np.float64)
    assert np.linalg.norm(one - ref) <= tol * np.linalg.norm(ref)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
@pytest.mark.parametrize("large", [True, False])
def test_fresh_result_beta_one_near_the_range_is_checked(monkeypatch, dtype, large):
    """A fresh result on the package's threads (or, small, a copy) and beta = 1 with
    entries past a quarter of the range, or NaN or inf: a result that overflows raises,
    a NaN or inf raises; results that stay finite (the entry in a row the reflector
    leaves alone) are checked after and equal the dense product."""
    import gsp_householder.householder as hh

    _needs_numpy_blas()
    _several_blas_threads(monkeypatch, hh, numpy_blas=True)
    if not large:
        monkeypatch.setattr(hh, "_PARALLEL_COPY_BYTES", 1 << 40)
    monkeypatch.setattr(hh, "_subtract_flagged", None)
    u, V, Y, big = _overflowing_case(dtype)
    with pytest.raises(ValueError, match="too large in magnitude"):
        V @ Y
    for bad in (np.nan, np.inf):
        Z = np.zeros((6, 3), dtype=dtype)
        Z[4, 2] = bad  # a row the reflector leaves alone
        with pytest.raises(ValueError, match="Y"):
            V @ Z
    Y[:] = 0.0
    Y[0, 1], Y[2, 2] = 0.6 * big, 0.9 * big
    expected = dense_product(u[:, None]) @ Y.astype(np.float64)
    out = V @ Y
    assert np.isfinite(out).all()
    np.testing.assert_allclose(out, expected, rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-6 * big)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_numpy_blas_add_into(monkeypatch, dtype):
    """``Y += X`` by AXPY on numpy's BLAS: exact (one rounding per entry), C and F order,
    in one call and in pieces of 5 entries; arrays of two memory orders are refused."""
    import gsp_householder._numpy_blas as nb

    _needs_numpy_blas()
    rng = np.random.default_rng(4)
    for chunk in (nb._AXPY_CHUNK, 5):
        monkeypatch.setattr(nb, "_AXPY_CHUNK", chunk)
        for order in "CF":
            X = np.asarray(rng.standard_normal((6, 7)), dtype=dtype, order=order)
            Y = np.asarray(rng.standard_normal((6, 7)), dtype=dtype, order=order)
            expected = X + Y
            nb.add_into(X, Y)
            np.testing.assert_array_equal(Y, expected)
    with pytest.raises(ValueError, match="memory order"):
        nb.add_into(np.zeros((3, 4), dtype=dtype), np.zeros((3, 4), dtype=dtype, order="F"))


@pytest.mark.parametrize("n_threads", [1, 2, 3])
@pytest.mark.parametrize("c_order", [True, False])
def test_plain_copy_writes_every_block(n_threads, c_order):
    """``_copy_plain`` writes ``D Y`` exactly on 1-3 threads, blocks of 24 bytes (rows of
    7 entries split across blocks), with and without signs."""
    import gsp_householder.householder as hh

    rng = np.random.default_rng(n_threads + 3 * c_order)
    d = np.where(rng.random(17) < 0.5, -1.0, 1.0)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(hh, "_APPLY_BLOCK_BYTES", 24)
        Y = rng.standard_normal((17, 7))
        Z = Y if c_order else np.asfortranarray(Y)
        for dcol in (None, d[:, None]):
            out = np.full_like(Z, np.nan)
            hh._copy_plain(Z, out, dcol, c_order, n_threads=n_threads)
            np.testing.assert_array_equal(out, Y if dcol is None else Y * dcol)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_sentinel_row_sees_every_entry_past_a_quarter_of_the_range(dtype):
    """The last row of ``C_s^T Y`` is finite for entries well inside the range and not
    finite when one entry of Y (any row, also a row C leaves zero) is past a quarter of
    the range, whatever the other entries of its column (here one that would cancel it),
    or is NaN or inf; the other columns keep a finite last row."""
    rng = np.random.default_rng(9)
    U = rng.standard_normal((300, 3))
    U[[2, 150]] = 0.0
    big = float(np.finfo(dtype).max)
    for V in (HouseholderProduct(U), HouseholderProduct(U).T):
        Cs = V._apply_sentinel(dtype, False)
        C = V._apply_pair(dtype, False)[1]
        assert Cs.dtype == dtype and Cs.shape == (300, 4) and (Cs[:, 3] == 16).all()
        np.testing.assert_array_equal(Cs[:, :3], C)
        Y = np.zeros((300, 5), dtype=dtype)
        Y[[0, 2, 150], 1], Y[[5, 9], 2] = 0.01 * big, -0.01 * big
        with np.errstate(over="ignore", invalid="ignore"):
            assert np.isfinite((Cs.T @ Y)[-1]).all()
            for row in (0, 2, 150, 299):
                for value in (0.26 * big, -0.26 * big, big, np.nan, np.inf, -np.inf):
                    Z = Y.copy()
                    Z[row, 3] = value
                    Z[(row + 1) % 300, 3] = -0.26 * big if value > 0 else 0.26 * big
                    W = Cs.T @ Z
                    assert not np.isfinite(W[-1, 3])
                    assert np.isfinite(W[-1, [0, 1, 2, 4]]).all()


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_overwrite_y_beta_one_near_the_range_is_checked(monkeypatch, dtype):
    """In place with several BLAS threads, entries past a quarter of the range: a result
    that overflows raises; results that stay finite (the entry in a row the reflector
    leaves alone) are checked after and equal the dense product."""
    import gsp_householder.householder as hh

    _needs_numpy_blas()
    _several_blas_threads(monkeypatch, hh, numpy_blas=True)
    u, V, Y, big = _overflowing_case(dtype)
    with pytest.raises(ValueError, match="overflows"):
        V.matvec(Y, overwrite_y=True)
    Y[:] = 0.0
    Y[0, 1], Y[2, 2] = 0.6 * big, 0.9 * big
    expected = dense_product(u[:, None]) @ Y.astype(np.float64)
    out = V.matvec(Y, overwrite_y=True)
    assert out is Y and np.isfinite(out).all()
    np.testing.assert_allclose(out, expected, rtol=1e-5 if dtype == np.float32 else 1e-12,
                               atol=1e-6 * big)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_numpy_blas_gemm_update(dtype):
    """``C -= A @ B`` on numpy's BLAS for every memory order of A, B and C, and for
    blocks of rows and columns of larger arrays (leading dimensions beyond the block)."""
    from gsp_householder._numpy_blas import gemm_update

    _needs_numpy_blas()
    rng = np.random.default_rng(3)
    tol = 1e-12 if dtype == np.float64 else 1e-5
    for oa, ob, oc in ((a, b, c) for a in "CF" for b in "CF" for c in "CF"):
        A = np.asarray(rng.standard_normal((9, 4)), dtype=dtype, order=oa)
        B = np.asarray(rng.standard_normal((4, 8)), dtype=dtype, order=ob)
        big = np.asarray(rng.standard_normal((11, 10)), dtype=dtype, order=oc)
        for C in (big[:9, :8], big[2:, 1:9], np.array(big[:9, :8], order=oc)):
            expected = C.astype(np.float64) - A.astype(np.float64) @ B.astype(np.float64)
            gemm_update(A, B, C)
            np.testing.assert_allclose(C, expected, atol=tol * 10)
