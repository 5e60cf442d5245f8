"""The paper's estimators: exact limits, agreement of the two implementations, statistics.

The statistical bounds come from the model: for $Y = HX$, each entry of $Y$ has
variance $\\sigma^2$ (the code variance, since the rows of $H$ have unit norm) and
entries of a column are uncorrelated, so $k = (1 - \\bar y/a)/2 = c\\,u + e$ with
$e$ of covariance $\\sigma^2 / (4 a^2 p)\\,I$. Then, to first order,
$\\hat u - u \\approx e_\\perp / c$: $E\\|\\hat u - u\\|_2^2 = (n-1)\\sigma^2/(4a^2pc^2)$
and $\\|\\hat u - u\\|_\\infty \\le z\\,\\sigma/(2a\\sqrt p\\,c)$ with
$z = \\sqrt{2\\ln(2n/\\delta)}$ with probability about $1 - \\delta$.
"""

import warnings

import numpy as np
import pytest

from gsp_householder import (
    BernoulliUniform,
    DegenerateStatisticsError,
    DegenerateStatisticsWarning,
    HouseholderProduct,
    SignalStatistics,
    basis_error,
    estimate_householder,
    estimate_householder_given,
    estimate_householder_product,
    estimate_householder_vector,
    estimate_scale,
    make_signals,
    random_householder_product,
    vector_error,
)


def exact_statistics(V: HouseholderProduct, a: float) -> SignalStatistics:
    """Statistics whose mean column equals its expectation a V 1 (infinite samples)."""
    n = V.n
    mean = a * (V @ np.ones(n))
    return SignalStatistics.from_sums(mean * 10, mean**2 * 10, 10)


# ----------------------------------------------------------- exact limits
def test_algorithm1_exact_in_the_infinite_sample_limit():
    V = random_householder_product(300, 1, rng=0)
    stats = exact_statistics(V, 0.75)
    H = estimate_householder(stats, theta=0.5, mu=1.5)
    assert vector_error(V.vectors[:, 0], H.vectors[:, 0], ord=2) < 1e-12
    assert basis_error(V, H) < 1e-12


def test_algorithm1_unnormalised_matches_paper_formula():
    V = random_householder_product(50, 1, rng=1)
    stats = exact_statistics(V, 0.75)
    u = estimate_householder_vector(stats, theta=0.5, mu=1.5, normalize=False)
    # the paper's u = k / sqrt(sum k), computed by hand
    k = (1 - stats.mean / 0.75) / 2
    np.testing.assert_allclose(u, k / np.sqrt(k.sum()), rtol=1e-13)
    np.testing.assert_allclose(np.linalg.norm(u), 1.0, rtol=1e-12)  # exact statistics


def test_algorithm2_exact_given_q():
    H = random_householder_product(200, 1, rng=2)
    Q = random_householder_product(200, 3, rng=3)
    stats = exact_statistics(H @ Q, 0.3)
    for q in (Q, Q.to_dense(), Q @ np.ones(200)):
        H_hat = estimate_householder_given(stats, q, theta=0.2, mu=1.5)
        assert basis_error(H, H_hat) < 1e-12


def test_algorithm3_exact_with_true_later_reflectors_as_init():
    V = random_householder_product(150, 4, rng=4)
    stats = exact_statistics(V, 0.75)
    init = HouseholderProduct(np.random.default_rng(5).standard_normal((150, 4)))
    # step i uses Q = H_{i+1}..H_m from init: give the true ones after the first
    init_vectors = np.column_stack([init.vectors[:, 0], V.vectors[:, 1:]])
    V_hat = estimate_householder_product(stats, 4, theta=0.5, mu=1.5, init=init_vectors)
    assert V_hat.m == 4
    assert basis_error(V, V_hat) < 1e-11


def test_blind_scale_exact_in_the_limit():
    V = random_householder_product(100, 3, rng=6)
    stats = SignalStatistics.from_sums(0.6 * (V @ np.ones(100)) * 4,
                                       (0.6 * (V @ np.ones(100))) ** 2 * 4, 4)
    assert estimate_scale(stats) == pytest.approx(0.6, rel=1e-12)


# ---------------------------------------------- statistics form == paper loop
@pytest.mark.parametrize("m", [1, 3, 8])
@pytest.mark.parametrize("blind", [False, True])
def test_statistics_form_matches_paper_loop(m, blind):
    V = random_householder_product(400, m, rng=m)
    Y, _ = make_signals(V, 30, BernoulliUniform(0.5), rng=10 + m)
    init = random_householder_product(400, m, rng=99)
    kw = {} if blind else {"theta": 0.5, "mu": 1.5}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        for start in (None, init):
            for prune in (True, False):
                a = estimate_householder_product(Y, m, init=start, prune=prune, **kw)
                b = estimate_householder_product(Y, m, init=start, prune=prune,
                                                 method="paper-loop", **kw)
                assert a.m == b.m
                assert basis_error(a, b) < 1e-10


@pytest.mark.parametrize("data", ["uniform", "gaussian", "constant-mean"])
@pytest.mark.parametrize("m", [1, 2, 7])
def test_statistics_form_matches_paper_loop_on_arbitrary_data(data, m):
    """Data not from the model: every reflector is kept (prune=False), vectors to 1e-10."""
    rng = np.random.default_rng(m)
    Y = {"uniform": rng.random((300, 40)),
         "gaussian": rng.standard_normal((300, 40)) + 0.3,
         "constant-mean": np.full((300, 40), 0.2) + 1e-3 * rng.standard_normal((300, 40))}[data]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        a = estimate_householder_product(Y, m, theta=0.5, mu=1.5, prune=False)
        b = estimate_householder_product(Y, m, theta=0.5, mu=1.5, prune=False,
                                         method="paper-loop")
    assert a.m == b.m == m
    np.testing.assert_allclose(a.vectors, b.vectors, atol=1e-10)
    np.testing.assert_allclose(np.linalg.norm(a.vectors, axis=0), 1.0, atol=1e-14)
    Z = rng.standard_normal((300, 3))
    np.testing.assert_allclose(a @ Z, b @ Z, atol=1e-10)
    np.testing.assert_allclose(a.T @ Z, b.T @ Z, atol=1e-10)


def test_array_and_statistics_give_identical_results():
    V = random_householder_product(300, 2, rng=7)
    Y, _ = make_signals(V, 25, BernoulliUniform(0.4), rng=8)
    stats = SignalStatistics.from_array(Y)
    np.testing.assert_array_equal(estimate_householder(Y).vectors,
                                  estimate_householder(stats).vectors)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        a = estimate_householder_product(Y, 2, theta=0.4, mu=1.5)
        b = estimate_householder_product(stats, 2, theta=0.4, mu=1.5)
    np.testing.assert_array_equal(a.vectors, b.vectors)


# ----------------------------------------------------- statistical recovery
def theory_scale(n, p, model, c):
    """sigma / (2 a sqrt(p) c): standard deviation of one entry of u_hat - u."""
    return np.sqrt(model.variance) / (2 * model.mean * np.sqrt(p) * c)


@pytest.mark.parametrize("theta", [0.3, 0.5, 0.9])
def test_algorithm1_error_matches_first_order_theory(theta):
    n, trials = 1000, 20
    model = BernoulliUniform(theta)
    for p in (5, 18, 80):
        sq_errors, inf_ok = [], 0
        for t in range(trials):
            V = random_householder_product(n, 1, rng=1000 * p + t)
            u = V.vectors[:, 0]
            c = u.sum()
            Y, _ = make_signals(V, p, model, rng=2000 * p + t)
            u_hat = estimate_householder(Y, theta=theta, mu=model.mu).vectors[:, 0]
            s = theory_scale(n, p, model, c)
            sq_errors.append(vector_error(u, u_hat, ord=2) ** 2 / ((n - 1) * s**2))
            z = np.sqrt(2 * np.log(2 * n / 0.05))
            inf_ok += vector_error(u, u_hat) <= z * s
        ratio = np.mean(sq_errors)
        # mean of 20 normalised squared errors: about 1 (chi-square / (n-1) per trial,
        # plus the second-order term of the normalisation, which grows as p falls)
        assert 0.85 < ratio < 1.25, (theta, p, ratio)
        assert inf_ok >= 17, (theta, p, inf_ok)


def test_error_falls_as_one_over_sqrt_p():
    n, model = 1000, BernoulliUniform(0.5)
    medians = []
    for p in (4, 16, 64):
        errs = []
        for t in range(20):
            V = random_householder_product(n, 1, rng=t)
            Y, _ = make_signals(V, p, model, rng=100 + t)
            errs.append(vector_error(V.vectors[:, 0], estimate_householder(Y).vectors[:, 0], 2))
        medians.append(np.median(errs))
    # quadrupling p halves the error (first order); allow 20 % either way
    assert 0.4 < medians[1] / medians[0] < 0.6
    assert 0.4 < medians[2] / medians[1] < 0.6


def test_blind_scale_costs_little_against_oracle():
    n, p, model = 1000, 18, BernoulliUniform(0.5)
    oracle, blind = [], []
    for t in range(20):
        V = random_householder_product(n, 1, rng=t)
        Y, _ = make_signals(V, p, model, rng=50 + t)
        u = V.vectors[:, 0]
        oracle.append(vector_error(u, estimate_householder(Y, 0.5, 1.5).vectors[:, 0]))
        blind.append(vector_error(u, estimate_householder(Y).vectors[:, 0]))
    assert np.mean(blind) < 1.1 * np.mean(oracle)


def test_algorithm3_from_identity_is_the_single_first_moment_reflector():
    n, m, p = 1000, 10, 20
    V = random_householder_product(n, m, rng=11)
    Y, _ = make_signals(V, p, BernoulliUniform(0.5), rng=12)
    with pytest.warns(DegenerateStatisticsWarning, match="9 of 10 reflectors"):
        V_hat = estimate_householder_product(Y, m, theta=0.5, mu=1.5)
    assert V_hat.m == 1
    H1 = estimate_householder(Y, theta=0.5, mu=1.5)
    assert basis_error(V_hat, H1) < 1e-12
    # without pruning, u_2 .. u_m are all +-u_1 and the unit reflectors cancel in pairs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        V_all = estimate_householder_product(Y, m, theta=0.5, mu=1.5, prune=False)
    cosines = np.abs(V_all.vectors.T @ V_all.vectors[:, 0])
    assert np.all(cosines > 1 - 1e-8)
    assert basis_error(V_all, HouseholderProduct.identity(n)) < 1e-6


# ------------------------------------------------------------ degeneracies
def test_gaussian_u_warns_noise():
    V = random_householder_product(1000, 1, distribution="gaussian", rng=3)
    Y, _ = make_signals(V, 5, BernoulliUniform(0.5), rng=4)
    if abs(V.vectors[:, 0].sum()) > 3:
        pytest.skip("this draw has a large sum(u)")
    with pytest.warns(DegenerateStatisticsWarning, match="sampling noise"):
        estimate_householder(Y, theta=0.5, mu=1.5)


def test_degenerate_statistics_raise_instead_of_nan():
    n = 10
    zero_mean = SignalStatistics.from_sums(np.zeros(n), np.ones(n) * 5, 5)
    with pytest.raises(DegenerateStatisticsError, match="not positive"):
        estimate_householder(zero_mean)
    # mean exactly a*1: k = 0, no reflector identifiable
    flat = SignalStatistics.from_sums(np.full(n, 0.75 * 4), np.full(n, 4.0), 4)
    with pytest.raises(DegenerateStatisticsError, match="k = 0"):
        estimate_householder(flat, theta=0.5, mu=1.5)
    # mean = 3 a 1: the radicand sum k_i s_i is negative
    big = SignalStatistics.from_sums(np.full(n, 3 * 0.75 * 4), np.full(n, 40.0), 4)
    with pytest.raises(DegenerateStatisticsError, match="radicand"):
        estimate_householder_vector(big, theta=0.5, mu=1.5, normalize=False)
    with pytest.warns(DegenerateStatisticsWarning, match="radicand"):
        u = estimate_householder_vector(big, theta=0.5, mu=1.5)
    assert np.all(np.isfinite(u))


@pytest.mark.parametrize("kwargs,match", [
    ({"theta": 0.5}, "both theta and mu"),
    ({"mu": 1.5}, "both theta and mu"),
    ({"theta": 1.5, "mu": 1.5}, r"theta must be in \(0, 1\], got 1.5"),
    ({"theta": 0.0, "mu": 1.5}, "theta must be in"),
    ({"theta": 0.5, "mu": -1.0}, "mu must be > 0"),
])
def test_bad_scale_arguments(kwargs, match):
    Y = np.ones((4, 3))
    with pytest.raises(ValueError, match=match):
        estimate_householder(Y, **kwargs)


def test_bad_shapes_and_values():
    with pytest.raises(ValueError, match="Y must be finite, found NaN"):
        estimate_householder(np.array([[1.0, np.nan], [1.0, 2.0]]))
    with pytest.raises(ValueError, match="Y must be 2-D"):
        estimate_householder(np.ones(5))
    with pytest.raises(ValueError, match="Y must have at least 2 rows"):
        estimate_householder(np.ones((1, 5)))
    with pytest.raises(ValueError, match="n_reflectors must be >= 1"):
        estimate_householder_product(np.ones((4, 3)), 0)
    with pytest.raises(ValueError, match="n_reflectors must be at most n = 4"):
        estimate_householder_product(np.ones((4, 3)), 5)
    with pytest.raises(ValueError, match="method must be"):
        estimate_householder_product(np.ones((4, 3)), 1, method="fast")
    with pytest.raises(ValueError, match="Q must be orthogonal"):
        estimate_householder_given(np.ones((3, 3)), 2 * np.eye(3))
    with pytest.raises(ValueError, match="init must have n_reflectors=2"):
        estimate_householder_product(np.ones((4, 3)), 2, init=np.ones((4, 3)))


# --------------------------- Algorithm 3 in the plane == its two-vector numpy form
def _in_plane_reference(stats, m, theta, mu, prune):
    """Algorithm 3 from the identity as the package computed it before the one-pass
    summaries and the scalar loop: the numpy statistics passes, the mean over the scale
    written out, Gram-Schmidt by separate numpy passes, then the steps on numpy
    2-vectors. Returns U = B C (n, m_kept) and the dropped steps."""
    from gsp_householder.learning.paper import _scale_and_noise
    from gsp_householder.statistics import _kernels

    n = stats.n_nodes
    with _kernels.use_backend("numpy"):
        scale, noise = _scale_and_noise(stats, theta, mu)
    rest = stats.row_sums * (1.0 / (stats.count * scale))
    root = np.sqrt(n)
    along = float(rest.sum()) / root
    norm_before = float(np.linalg.norm(rest))
    rest = rest - along / root
    norm_rest = float(np.linalg.norm(rest))
    for _ in range(2):
        if norm_rest == 0.0 or norm_rest > 0.5 * norm_before:
            break
        correction = float(rest.sum()) / root
        along += correction
        rest = rest - correction / root
        norm_before, norm_rest = norm_rest, float(np.linalg.norm(rest))
    if norm_rest > 0.0:
        basis = np.column_stack([np.full(n, 1.0 / root), rest / norm_rest])
        one, y = np.array([root, 0.0]), np.array([along, norm_rest])
    else:
        basis, one, y = np.full((n, 1), 1.0 / root), np.array([root]), np.array([along])
    kept, dropped = [], []
    for i in range(m):
        k = 0.5 * (one - y)
        norm_sq = float(k @ k)
        significant = noise is None or norm_sq > noise
        if norm_sq <= (1e-12 * np.sqrt(n)) ** 2 or (prune and not significant):
            dropped.append(i + 1)
            continue
        u = k / np.sqrt(norm_sq)
        u /= np.linalg.norm(u)
        kept.append(u)
        y = y - 2.0 * u * float(u @ y)
    U = basis @ np.column_stack(kept) if kept else np.zeros((n, 0))
    return U, dropped


_BACKENDS = ["numpy", pytest.param("numba", marks=pytest.mark.skipif(
    not __import__("gsp_householder.statistics._kernels", fromlist=["x"])._numba_available(),
    reason="the optional numba package is not installed"))]


@pytest.mark.parametrize("backend", _BACKENDS)
@pytest.mark.parametrize("data", ["model", "uniform", "gaussian", "constant-mean", "ones"])
@pytest.mark.parametrize("kw", [{}, {"theta": 0.5, "mu": 1.5},
                                {"theta": 0.5, "mu": 1.5, "prune": False},
                                {"prune": False}])
@pytest.mark.parametrize("m", [1, 2, 7, 50])
def test_algorithm3_in_the_plane_equals_its_numpy_form(backend, data, kw, m):
    """Whatever the kernel backend, the one-pass summaries and the scalar steps give the
    reflectors of the numpy passes and numpy 2-vectors to 1e-12, and drop the same steps."""
    from gsp_householder.statistics import _kernels

    rng = np.random.default_rng(m)
    n, p = 3001, 30
    Y = {"model": make_signals(random_householder_product(n, 4, rng=rng), p,
                               BernoulliUniform(0.5), rng=rng)[0],
         "uniform": rng.random((n, p)),
         "gaussian": rng.standard_normal((n, p)) + 0.3,
         "constant-mean": np.full((n, p), 0.2) + 1e-3 * rng.standard_normal((n, p)),
         "ones": np.ones((n, p))}[data]  # the mean column is a multiple of 1 (r = 1)
    stats = SignalStatistics.from_array(Y)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateStatisticsWarning)
        U_ref, dropped = _in_plane_reference(stats, m, kw.get("theta"), kw.get("mu"),
                                             kw.get("prune", True))
        with warnings.catch_warnings(record=True) as caught, _kernels.use_backend(backend):
            warnings.simplefilter("always", DegenerateStatisticsWarning)
            got = estimate_householder_product(Y, m, **kw)
    assert got.m == U_ref.shape[1]
    np.testing.assert_allclose(got.vectors, U_ref, rtol=0, atol=1e-12)
    if dropped:
        assert any(f"(steps {dropped}:" in str(w.message) for w in caught)
    else:
        assert not any("were not identifiable" in str(w.message) for w in caught)
