"""learn_orthogonal_basis: exact recovery of whole orthogonal bases, conventions, warnings."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.linalg
from hypothesis import given, settings
from hypothesis import strategies as st

from gsp_householder import BernoulliUniform, HouseholderProduct, make_signals
from gsp_householder.estimator import HouseholderDictionaryLearning
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs.fourier import fourier_basis
from gsp_householder.learning import whole_basis
from gsp_householder.learning._orthogonal import (
    cayley,
    cayley_update,
    polar_factor,
    polar_factor_gram,
    random_orthogonal,
    skew,
)
from gsp_householder.learning.baselines import procrustes_oracle
from gsp_householder.learning.rectified_procrustes import rectified_procrustes, trapped_columns
from gsp_householder.learning.sparse_coding import two_means_threshold
from gsp_householder.learning.whole_basis import learn_orthogonal_basis
from gsp_householder.learning.zero_pattern import (
    gap_threshold,
    support_codes,
    zero_pattern_refinement,
)
from gsp_householder.metrics import match_columns, matched_basis_error


@pytest.fixture(scope="module")
def karate():
    return fourier_basis(nx.karate_club_graph()).eigenvectors


def _random_basis(n, seed):
    return random_orthogonal(n, np.random.default_rng(seed))


def _matched(V, V_hat, codes):
    """Codes of V_hat reordered and signed to V's columns."""
    perm, signs = match_columns(V, V_hat)
    return (codes[perm] * signs[:, None])


@pytest.mark.parametrize("seed", [0, 1])
def test_karate_exact_sparse_codes(karate, seed):
    n = karate.shape[0]
    Y, X = make_signals(karate, 5 * n, BernoulliUniform(0.1), rng=seed)
    result = learn_orthogonal_basis(Y, rng=seed + 10)
    assert result.converged
    assert isinstance(result.dictionary, HouseholderProduct)
    assert result.dictionary.m <= n - 1
    V_hat = result.dictionary.to_dense()
    assert matched_basis_error(karate, V_hat) <= 1e-8
    np.testing.assert_allclose(_matched(karate, V_hat, result.codes), X, atol=1e-8)


def test_karate_exact_dense_codes(karate):
    n = karate.shape[0]
    Y, _ = make_signals(karate, 20 * n, BernoulliUniform(0.5), rng=3)
    result = learn_orthogonal_basis(Y, rng=4)
    assert result.converged
    assert matched_basis_error(karate, result.dictionary.to_dense()) <= 1e-8


@pytest.mark.parametrize("theta, ratio", [(0.1, 5), (0.5, 20)])
def test_random_orthogonal_basis_exact(theta, ratio):
    n = 16
    V = _random_basis(n, 7)
    Y, _ = make_signals(V, ratio * n, BernoulliUniform(theta), rng=8)
    result = learn_orthogonal_basis(Y, rng=9)
    assert matched_basis_error(V, result.dictionary.to_dense()) <= 1e-8
    # the codes reproduce the signals
    np.testing.assert_allclose(result.dictionary @ result.codes, Y, atol=1e-8)


@pytest.mark.parametrize("low, high", [(1.0, 3.0), (1.0, 4.0), (1.0, 10.0), (0.1, 5.0), (0.0, 1.0)])
def test_blind_learner_exact_for_wide_code_ranges(karate, low, high):
    # the two-means level of codes in [1, 10] (about 3) lies inside the non-zero codes:
    # the blind learner must find the gap between zero and `low` itself
    n = karate.shape[0]
    Y, X = make_signals(karate, 5 * n, BernoulliUniform(0.1, low, high), rng=0)
    result = learn_orthogonal_basis(Y, rng=1)
    assert result.converged
    V_hat = result.dictionary.to_dense()
    assert matched_basis_error(karate, V_hat) <= 1e-8
    np.testing.assert_allclose(_matched(karate, V_hat, result.codes), X, atol=1e-8)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_blind_learner_exact_for_wide_codes_on_random_bases(seed):
    n = 16
    V = _random_basis(n, seed)
    Y, _ = make_signals(V, 5 * n, BernoulliUniform(0.1, 0.1, 5.0), rng=seed + 50)
    result = learn_orthogonal_basis(Y, rng=seed + 60)
    assert result.converged
    assert matched_basis_error(V, result.dictionary.to_dense()) <= 1e-8


def test_gap_threshold_separates_zero_from_wide_codes():
    rng = np.random.default_rng(0)
    zeros = rng.random((30, 200)) >= 0.2
    for low, high in [(1.0, 10.0), (0.1, 5.0), (0.01, 1.0)]:
        X = np.where(zeros, 1e-12 * rng.standard_normal((30, 200)),
                     rng.uniform(low, high, (30, 200)))
        level = gap_threshold(X)
        assert np.abs(X[zeros]).max() < level < X[~zeros].min()
        assert two_means_threshold(X) > X[~zeros].min()        # what the level replaces
    # codes in [1, 2] with noise: the two-means level lies in the gap and is kept
    X = np.where(zeros, 0.02 * rng.standard_normal((30, 200)), rng.uniform(1, 2, (30, 200)))
    assert gap_threshold(X) == two_means_threshold(X)
    # no zero cluster: nothing is removed
    X = rng.uniform(1, 2, (30, 200))
    assert gap_threshold(X) < X.min()


def test_known_range_clips_codes_and_handles_negative_codes():
    n = 12
    V = _random_basis(n, 1)
    model = BernoulliUniform(0.3, 1.0, 3.0)
    Y, X = make_signals(V, 10 * n, model, rng=2)
    known = learn_orthogonal_basis(Y, low=1.0, high=3.0, rng=3)
    assert matched_basis_error(V, known.dictionary.to_dense()) <= 1e-8
    nz = known.codes[known.codes != 0]
    assert nz.min() >= 1.0 and nz.max() <= 3.0
    # codes in [-3, -1]: same basis, non-positive codes
    negative = learn_orthogonal_basis(-Y, low=-3.0, high=-1.0, rng=3)
    V_hat = negative.dictionary.to_dense()
    assert matched_basis_error(V, V_hat) <= 1e-8
    np.testing.assert_allclose(_matched(V, V_hat, negative.codes), -X, atol=1e-8)


def test_output_convention_fixes_order_and_signs():
    """Different starts give the same matrix, not only the same columns."""
    n = 14
    V = _random_basis(n, 5)
    Y, _ = make_signals(V, 8 * n, BernoulliUniform(0.2), rng=6)
    a = learn_orthogonal_basis(Y, rng=0).dictionary.to_dense()
    b = learn_orthogonal_basis(Y, rng=1).dictionary.to_dense()
    np.testing.assert_allclose(a, b, atol=1e-9)
    peak_rows = np.abs(a).argmax(axis=0)
    assert np.all(np.diff(peak_rows) >= 0)
    assert np.all((a.T @ Y).sum(axis=1) > 0)


def test_same_seed_same_result(karate):
    Y, _ = make_signals(karate, 170, BernoulliUniform(0.1), rng=0)
    a = learn_orthogonal_basis(Y, rng=5)
    b = learn_orthogonal_basis(Y, rng=5)
    np.testing.assert_array_equal(a.dictionary.vectors, b.dictionary.vectors)
    np.testing.assert_array_equal(a.codes, b.codes)


def test_noise_within_twice_the_oracle():
    n = 16
    V = _random_basis(n, 2)
    Y, X = make_signals(V, 20 * n, BernoulliUniform(0.2), snr_db=20, rng=3)
    learned = matched_basis_error(V, learn_orthogonal_basis(Y, rng=4).dictionary.to_dense())
    oracle = matched_basis_error(V, np.asarray(procrustes_oracle(Y, X).dictionary))
    assert learned <= 2 * oracle


def test_convergence_warning_when_not_settled():
    n = 12
    V = _random_basis(n, 0)
    Y, _ = make_signals(V, 5 * n, BernoulliUniform(0.3), rng=1)
    with pytest.warns(ConvergenceWarning, match="did not settle"):
        result = learn_orthogonal_basis(Y, max_iter=1, n_restarts=1, rng=2)
    assert not result.converged
    # the result is still an orthogonal basis with codes of the right shape
    V_hat = result.dictionary.to_dense()
    np.testing.assert_allclose(V_hat.T @ V_hat, np.eye(n), atol=1e-12)
    assert result.codes.shape == Y.shape


def test_history_records_both_stages(karate):
    Y, _ = make_signals(karate, 170, BernoulliUniform(0.1), rng=1)
    result = learn_orthogonal_basis(Y, rng=2)
    h = result.history
    assert result.n_iter == len(h["cost"]) + len(h["residual"])
    assert len(h["residual"]) == len(h["change"]) == len(h["start"])
    assert h["residual"][-1] < 1e-10 < h["cost"][0]


def test_progress_bar_runs(karate, capsys):
    Y, _ = make_signals(karate, 170, BernoulliUniform(0.1), rng=1)
    result = learn_orthogonal_basis(Y, rng=2, progress=True)
    assert result.converged
    assert "learn_orthogonal_basis" in capsys.readouterr().err


def test_rectified_procrustes_cost_vanishes_at_truth():
    n = 10
    V = _random_basis(n, 3)
    X = BernoulliUniform(0.2).sample((n, 100), np.random.default_rng(4))
    out, history, converged = rectified_procrustes(V @ X, V, tol=1e-12)
    assert converged and len(history["cost"]) == 1 and history["cost"][0] < 1e-28
    np.testing.assert_array_equal(out, V)


def test_zero_pattern_refinement_fixed_point_and_basin():
    n = 10
    rng = np.random.default_rng(5)
    V = _random_basis(n, 5)
    X = BernoulliUniform(0.4).sample((n, 200), rng)
    Y = V @ X
    start = V @ cayley(0.01 * skew(rng.standard_normal((n, n))))
    out, _, converged = zero_pattern_refinement(Y, start, tol=1e-13)
    assert converged
    np.testing.assert_allclose(out, V, atol=1e-11)
    _, support = support_codes(out.T @ Y)
    np.testing.assert_array_equal(support, X != 0)


@pytest.mark.parametrize("kwargs, exc, match", [
    ({"theta": 0.0}, ValueError, r"theta must be in \(0, 1\]"),
    ({"theta": 1.5}, ValueError, r"theta must be in \(0, 1\]"),
    ({"low": 1.0}, ValueError, r"give both low and high"),
    ({"low": 2.0, "high": 1.0}, ValueError, r"low must be smaller than high"),
    ({"low": -1.0, "high": 2.0}, ValueError, r"must have one sign"),
    ({"max_iter": 0}, ValueError, r"max_iter must be >= 1"),
    ({"max_iter": 2.5}, TypeError, r"max_iter must be an integer"),
    ({"tol": -1.0}, ValueError, r"tol must be > 0"),
    ({"n_restarts": -1}, ValueError, r"n_restarts must be >= 0"),
    ({"momentum": 1.0}, ValueError, r"momentum must be < 1"),
    ({"rng": "seed"}, TypeError, r"rng must be"),
])
def test_bad_parameters(kwargs, exc, match):
    Y = np.abs(np.random.default_rng(0).standard_normal((6, 30)))
    with pytest.raises(exc, match=match):
        learn_orthogonal_basis(Y, **kwargs)


@pytest.mark.parametrize("Y, match", [
    (np.full((6, 30), np.nan), r"Y must be finite, found NaN"),
    (np.full((6, 30), np.inf), r"Y must be finite, found inf"),
    (np.ones(30), r"Y must be 2-D"),
    (np.ones((1, 30)), r"Y must have at least 2 rows"),
    (np.ones((6, 5)), r"Y has 5 signals \(columns\) for 6 nodes"),
])
def test_bad_signals(Y, match):
    with pytest.raises(ValueError, match=match):
        learn_orthogonal_basis(Y)


# ----------------------------------------------------------------- estimator
@pytest.mark.parametrize("graph", ["karate", "les_miserables"])
@pytest.mark.parametrize("kind", ["float32", "float32 values in float64", "estimator"])
def test_float32_signals_settle_at_their_rounding(graph, kind):
    # float32 rounding follows the entries' magnitudes, so the zero cluster of V^T Y at the
    # truth is not alike in every row (spread 1.9-2.3 for a bound of about 1.6): every
    # start was refused, with a ConvergenceWarning and three times the work, although the
    # basis was exact to float32 precision. The off-support part is at 0.12-0.19 of the
    # float32 rounding floor there; a wrong stationary point is far above it.
    G = nx.karate_club_graph() if graph == "karate" else nx.les_miserables_graph()
    U = fourier_basis(G).eigenvectors
    n = U.shape[0]
    Y, _ = make_signals(U, 5 * n, BernoulliUniform(0.1), rng=0)
    Y32 = Y.astype(np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        if kind == "estimator":
            V_hat = HouseholderDictionaryLearning(method="ica", random_state=0).fit(
                Y32.T).dictionary_.to_dense()
        else:
            result = learn_orthogonal_basis(
                Y32 if kind == "float32" else Y32.astype(np.float64), rng=0)
            assert result.converged
            V_hat = result.dictionary.to_dense()
    # float32 precision (measured 3e-8 to 1.2e-7), far from a near miss (0.3-0.5)
    assert matched_basis_error(U, V_hat) < 1e-5


def test_float32_signals_still_warn_when_the_learner_fails(karate):
    # dense codes from too few signals (karate, theta = 0.5, p = 5n: 0/10 documented): the
    # float32 rounding floor must not accept the plateau the start ends on
    n = karate.shape[0]
    Y, _ = make_signals(karate, 5 * n, BernoulliUniform(0.5), rng=0)
    with pytest.warns(ConvergenceWarning, match="did not settle"):
        result = learn_orthogonal_basis(Y.astype(np.float32), rng=0, n_restarts=0)
    assert not result.converged
    assert matched_basis_error(karate, result.dictionary.to_dense()) > 0.1


def test_estimator_ica_round_trip(karate):
    n = karate.shape[0]
    Y, X = make_signals(karate, 5 * n, BernoulliUniform(0.1), rng=2)
    est = HouseholderDictionaryLearning(method="ica", random_state=0).fit(Y.T)
    V_hat = est.dictionary_.to_dense()
    assert matched_basis_error(karate, V_hat) <= 1e-8
    codes = est.transform(Y.T)
    np.testing.assert_allclose(_matched(karate, V_hat, codes.T), X, atol=1e-8)
    np.testing.assert_allclose(est.inverse_transform(codes), Y.T, atol=1e-8)
    assert est.score(Y.T) > -1e-16
    assert not hasattr(est, "partial_fit")
    same = learn_orthogonal_basis(Y, rng=np.random.default_rng(0)).dictionary
    np.testing.assert_array_equal(est.dictionary_.vectors, same.vectors)


@pytest.mark.parametrize(("low", "high"), [(1.0, 10.0), (0.1, 5.0)])
def test_estimator_ica_codes_wide_ranges(karate, low, high):
    # the two-means level lies inside codes of a wide range: transform thresholds at
    # the learner's gap level (about low / 2) and recovers the codes exactly
    n = karate.shape[0]
    Y, X = make_signals(karate, 5 * n, BernoulliUniform(0.1, low, high), rng=2)
    est = HouseholderDictionaryLearning(method="ica", random_state=0).fit(Y.T)
    assert matched_basis_error(karate, est.dictionary_.to_dense()) <= 1e-8
    assert 0.0 < est.threshold_ < low
    codes = est.transform(Y.T)
    np.testing.assert_allclose(_matched(karate, est.dictionary_.to_dense(), codes.T), X,
                               atol=1e-8)


def test_estimator_ica_needs_enough_samples():
    Y = np.abs(np.random.default_rng(0).standard_normal((6, 4)))
    with pytest.raises(ValueError, match=r"X has 4 sample\(s\) for 6 features"):
        HouseholderDictionaryLearning(method="ica").fit(Y.T)


def test_estimator_ica_rank_deficient_codes_name_x_and_the_codes(karate):
    # codes of which one row is never active: the samples X (the estimator's argument,
    # samples as rows) have rank n - 1; the message names X and its features, and the
    # codes, not the signals Y of the functional API
    n = karate.shape[0]
    _, X = make_signals(karate, 5 * n, BernoulliUniform(0.1), rng=0)
    X[5] = 0.0
    with pytest.raises(ValueError, match=rf"^X has rank {n - 1} for {n} features "
                       rf"\(columns\): its samples .* the codes \(what transform returns\) "
                       rf"have rank {n - 1} too"):
        HouseholderDictionaryLearning(method="ica", random_state=0).fit((karate @ X).T)
    with pytest.raises(ValueError, match=rf"^Y has rank {n - 1} for {n} rows \(nodes\): "
                       rf"its signals .* the codes X have rank {n - 1} too"):
        learn_orthogonal_basis(karate @ X, rng=0)


def _dense_case(n, ratio, seed):
    rng = np.random.default_rng(seed)
    V = random_orthogonal(n, rng)
    X = rng.uniform(1, 2, (n, ratio * n)) * (rng.random((n, ratio * n)) < 0.5)
    return V, X


def test_trapped_columns_flags_a_negated_atom_only():
    _, X = _dense_case(30, 20, 0)
    rng = np.random.default_rng(1)
    noisy = X + 0.05 * rng.standard_normal(X.shape)     # the truth under noise: no outlier
    assert trapped_columns(noisy).size == 0
    trapped = noisy.copy()                               # -v_3 tilted towards the others
    trapped[3] = -X[3] + 0.08 * X.sum(axis=0)
    assert trapped_columns(trapped).tolist() == [3]
    assert trapped_columns(X).size == 0                  # exact truth: no negative energy


def test_sign_repair_recovers_a_trapped_start(monkeypatch):
    # this draw's first start ends with one column near -v_k (dense codes)
    V, X = _dense_case(24, 40, 2)
    result = learn_orthogonal_basis(V @ X, rng=3, n_restarts=0)
    assert len(result.history["balance"]) == 2           # one repair, then accepted
    assert result.converged
    assert matched_basis_error(V, result.dictionary.to_dense()) <= 1e-8
    monkeypatch.setattr(whole_basis, "_SIGN_REPAIRS", 0)
    with pytest.warns(ConvergenceWarning):
        stuck = learn_orthogonal_basis(V @ X, rng=3, n_restarts=0)
    assert matched_basis_error(V, stuck.dictionary.to_dense()) > 0.1
# ----------------------------------------------------------------- numerical kernels
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 12), st.integers(0, 2**32 - 1), st.floats(0.0, 6.0))
def test_polar_factor_gram_matches_scipy_polar(n, seed, log_cond):
    """The Gram route agrees with scipy's polar factor to eps * cond^2."""
    rng = np.random.default_rng(seed)
    P, Q = _random_basis(n, seed), random_orthogonal(n, rng)
    sv = np.logspace(0.0, -log_cond / 2, n)       # condition number 10^(log_cond / 2)
    M = (P * sv) @ Q.T
    expected, _ = scipy.linalg.polar(M)
    got = polar_factor_gram(M)
    bound = 1e-13 * n * 10.0 ** log_cond
    assert np.linalg.norm(got - expected) <= bound
    np.testing.assert_allclose(got.T @ got, np.eye(n), atol=bound)
    np.testing.assert_allclose(polar_factor(M), expected, atol=1e-12 * n * sv[0] / sv[-1])


def test_polar_factor_gram_falls_back_on_singular_matrices():
    M = np.outer([1.0, 2.0, 3.0], [1.0, 0.0, 1.0]) + np.diag([0.0, 1e-7, 0.0])
    Q = polar_factor_gram(M)
    np.testing.assert_allclose(Q.T @ Q, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(Q, polar_factor(M), atol=1e-12)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 12), st.integers(0, 2**32 - 1), st.floats(1e-6, 1e3))
def test_cayley_update_is_the_product(n, seed, size):
    rng = np.random.default_rng(seed)
    V = random_orthogonal(n, rng)
    A = size * skew(rng.standard_normal((n, n)))
    got = cayley_update(V, A.copy())
    np.testing.assert_allclose(got, V @ cayley(A), atol=1e-12 * max(1.0, size) ** 2)
    np.testing.assert_allclose(got.T @ got, np.eye(n), atol=1e-12 * max(1.0, size) ** 2)


def test_rectified_procrustes_hands_over_once_the_support_settles():
    """With a support rule it stops early, where the zero pattern finishes exactly."""
    n = 30
    V = _random_basis(n, 11)
    Y, _ = make_signals(V, 5 * n, BernoulliUniform(0.1), rng=12)
    start = random_orthogonal(n, np.random.default_rng(13))
    _, full, ok_full = rectified_procrustes(Y, start, tol=1e-3)
    out, early, ok_early = rectified_procrustes(Y, start, tol=1e-3,
                                                support=lambda C: support_codes(C)[1])
    assert ok_full and ok_early
    assert len(early["cost"]) < len(full["cost"])
    # the last three support changes are within 1e-4 of the entries (here: none)
    assert early["support_changes"][-3:] == [0.0, 0.0, 0.0]
    assert len(early["support_changes"]) == len(early["cost"]) - 1
    refined, _, converged = zero_pattern_refinement(Y, out)
    assert converged and matched_basis_error(V, refined) <= 1e-10


def test_small_bases_are_learned_with_one_blas_thread():
    threadpoolctl = pytest.importorskip("threadpoolctl")
    from gsp_householder.learning.whole_basis import _SINGLE_THREAD_N, _blas_threads

    def blas_threads():
        return [i["num_threads"] for i in threadpoolctl.threadpool_info()
                if i["user_api"] == "blas"]

    before = blas_threads()
    with _blas_threads(_SINGLE_THREAD_N):
        assert all(t == 1 for t in blas_threads())
    with _blas_threads(_SINGLE_THREAD_N + 1):
        assert blas_threads() == before
    assert blas_threads() == before


def test_code_density_bound_is_a_tight_lower_bound():
    from gsp_householder.learning._code_density import code_density_bound

    V = _random_basis(30, 5)
    for theta, (low, high) in [(0.1, (1.0, 2.0)), (0.5, (1.0, 2.0)), (0.3, (0.1, 5.0))]:
        Y, _ = make_signals(V, 20000, BernoulliUniform(theta, low, high), rng=6)
        ratio = ((low + high) / 2) ** 2 / ((low**2 + low * high + high**2) / 3)  # E[u]^2/E[u^2]
        bound = code_density_bound(Y)
        assert bound <= theta + 0.01
        assert bound == pytest.approx(theta * ratio, abs=0.01)
    assert code_density_bound(-Y) == code_density_bound(Y)      # codes of either sign
    assert code_density_bound(np.zeros((3, 4))) == 0.0


def test_dense_codes_below_the_threshold_say_more_signals_are_needed():
    # dense codes from p = 5n < 0.4 n^2 (n = 34): the warning names the threshold instead
    # of suggesting more steps or restarts, which do not help there
    n = 34
    V = _random_basis(n, 7)
    Y, _ = make_signals(V, 5 * n, BernoulliUniform(0.5), rng=8)
    with pytest.warns(ConvergenceWarning, match=r"dense .* 0\.4 n\^2 = 463"):
        result = learn_orthogonal_basis(Y, max_iter=20, n_restarts=0, rng=9)
    assert result.history["code_density"][0] == pytest.approx(0.48, abs=0.05)
    # sparse codes that fail (one step): the generic advice, no density claim
    Y, _ = make_signals(V, 5 * n, BernoulliUniform(0.1), rng=8)
    with pytest.warns(ConvergenceWarning, match="more steps or more restarts") as record:
        learn_orthogonal_basis(Y, max_iter=1, n_restarts=0, rng=9)
    assert not any("dense" in str(w.message) for w in record)
