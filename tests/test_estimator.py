"""HouseholderDictionaryLearning: scikit-learn API, orientation, pickling, no-sklearn use."""

from __future__ import annotations

import pickle
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest
from _dataframe import Frame

from gsp_householder import (
    BernoulliUniform,
    DegenerateStatisticsWarning,
    HouseholderProduct,
    NotFittedError,
    estimate_householder_product,
    make_signals,
    random_householder_product,
)
from gsp_householder.estimator import HouseholderDictionaryLearning
from gsp_householder.learning.sparse_coding import hard_threshold


@pytest.fixture(scope="module")
def data():
    V = random_householder_product(40, 1, rng=0)
    Y, X = make_signals(V, 300, BernoulliUniform(0.5), rng=1)
    return V, Y, X


# ----------------------------------------------------------------- scikit-learn checks
def _sklearn_cases():
    try:
        from sklearn.utils.estimator_checks import parametrize_with_checks
    except ImportError:
        return pytest.mark.parametrize("estimator, check", [pytest.param(
            None, None, marks=pytest.mark.skip(reason="scikit-learn is not installed"))])
    with warnings.catch_warnings():
        # the estimator follows scikit-learn's protocol without inheriting BaseEstimator
        warnings.filterwarnings("ignore", message=".*does not inherit from", category=UserWarning)
        estimators = [
            HouseholderDictionaryLearning(),
            HouseholderDictionaryLearning(2, theta=0.5, mu=1.5),
            HouseholderDictionaryLearning(threshold=0.3),
        ]
        try:
            import gsp_householder.learning.refinement  # noqa: F401
        except ImportError:
            pass
        else:
            estimators.append(HouseholderDictionaryLearning(2, method="refine", random_state=0))
        return parametrize_with_checks(estimators)


# The checks feed data outside the paper's model (centred blobs, uniform noise), for which
# the estimator warns that reflectors are not identifiable: those warnings are expected.
@pytest.mark.filterwarnings("ignore::gsp_householder.exceptions.DegenerateStatisticsWarning")
@pytest.mark.filterwarnings("ignore::gsp_householder.exceptions.ConvergenceWarning")
@pytest.mark.filterwarnings("ignore:.*does not inherit from:UserWarning")
@_sklearn_cases()
def test_sklearn_compatible(estimator, check):
    check(estimator)


# ----------------------------------------------------------------- API without sklearn
def test_get_set_params_and_clone_protocol():
    est = HouseholderDictionaryLearning(3, theta=0.4, mu=1.5, threshold=0.2, random_state=7)
    params = est.get_params()
    assert params == {"n_reflectors": 3, "theta": 0.4, "mu": 1.5, "method": "paper",
                      "threshold": 0.2, "random_state": 7}
    clone = type(est)(**params)
    assert clone.get_params() == params and clone is not est
    assert est.set_params(n_reflectors=5) is est and est.n_reflectors == 5
    with pytest.raises(ValueError, match="Invalid parameter 'alpha'"):
        est.set_params(alpha=1)
    assert repr(HouseholderDictionaryLearning()) == "HouseholderDictionaryLearning()"
    assert repr(est) == ("HouseholderDictionaryLearning(mu=1.5, n_reflectors=5, "
                         "random_state=7, theta=0.4, threshold=0.2)")


def test_init_stores_only_and_fit_validates():
    est = HouseholderDictionaryLearning(n_reflectors=0, method="nope", theta=2.0)
    assert est.n_reflectors == 0  # no validation in __init__ (scikit-learn convention)
    X = np.ones((5, 4))
    with pytest.raises(ValueError, match="n_reflectors must be >= 1"):
        est.fit(X)
    with pytest.raises(ValueError, match="method must be one of"):
        HouseholderDictionaryLearning(method="nope").fit(X)
    with pytest.raises(ValueError, match="theta must be in"):
        HouseholderDictionaryLearning(theta=2.0, mu=1.0).fit(X)
    with pytest.raises(ValueError, match="give both theta and mu"):
        HouseholderDictionaryLearning(theta=0.5).fit(X)
    with pytest.raises(ValueError, match="n_reflectors must be at most n_features = 4"):
        HouseholderDictionaryLearning(5).fit(X)


@pytest.mark.parametrize("method", ["transform", "inverse_transform", "score"])
def test_not_fitted(method):
    est = HouseholderDictionaryLearning()
    with pytest.raises(NotFittedError, match="not fitted yet"):
        getattr(est, method)(np.ones((3, 4)))
    assert issubclass(NotFittedError, ValueError) and issubclass(NotFittedError, AttributeError)
    assert not hasattr(est, "components_")


def test_orientation_matches_the_functions(data):
    """fit(Y.T) is estimate_householder_product(Y); transform(Y.T) is HT(V^T Y).T."""
    _, Y, _ = data
    est = HouseholderDictionaryLearning(1, theta=0.5, mu=1.5).fit(Y.T)
    ref = estimate_householder_product(Y, 1, 0.5, 1.5)
    assert isinstance(est.dictionary_, HouseholderProduct)
    np.testing.assert_allclose(est.dictionary_.vectors, ref.vectors, rtol=0, atol=1e-12)
    assert est.n_features_in_ == Y.shape[0]
    codes = est.transform(Y.T)
    assert codes.shape == Y.T.shape
    expected = hard_threshold(est.dictionary_.to_dense().T @ Y, est.threshold_).T
    np.testing.assert_allclose(codes, expected, rtol=0, atol=1e-12)
    # components_ = V^T, atoms as rows; X ~ codes @ components_
    np.testing.assert_allclose(est.components_, est.dictionary_.to_dense().T, atol=1e-15)
    np.testing.assert_allclose(codes @ est.components_, est.inverse_transform(codes),
                               rtol=0, atol=1e-12)
    np.testing.assert_allclose(est.fit_transform(Y.T), codes, rtol=0, atol=0)


def test_exact_codes_and_zero_score_with_the_true_dictionary(data):
    """With V known exactly (set after fit), transform returns X.T and score is 0."""
    V, Y, X = data
    est = HouseholderDictionaryLearning(threshold=0.5).fit(Y.T)
    est._dictionary = V  # replace the fitted dictionary by the truth
    np.testing.assert_allclose(est.transform(Y.T), X.T, rtol=0, atol=1e-12)
    assert est.score(Y.T) == pytest.approx(0.0, abs=1e-24)
    est._threshold = 1.5  # now codes in [1, 1.5) are dropped: score is minus their energy
    dropped = np.where(X < 1.5, X, 0.0)
    assert est.score(Y.T) == pytest.approx(-np.mean(dropped**2), rel=1e-10)


def test_default_threshold_separates_the_model_values(data):
    _, Y, _ = data
    est = HouseholderDictionaryLearning(1, theta=0.5, mu=1.5).fit(Y.T)
    assert 0.3 < est.threshold_ < 1.0


def test_float32_in_float32_out(data):
    _, Y, _ = data
    Y32 = Y.T.astype(np.float32)
    est = HouseholderDictionaryLearning(1).fit(Y32)
    codes = est.transform(Y32)
    assert codes.dtype == np.float32
    assert est.inverse_transform(codes).dtype == np.float32
    np.testing.assert_allclose(codes, est.transform(Y.T), rtol=0, atol=1e-4)


def test_pickle_roundtrip(data):
    _, Y, _ = data
    est = HouseholderDictionaryLearning(1, theta=0.5, mu=1.5).fit(Y.T)
    again = pickle.loads(pickle.dumps(est))
    np.testing.assert_array_equal(again.transform(Y.T), est.transform(Y.T))
    assert again.get_params() == est.get_params()


def test_same_seed_bit_identical(data):
    _, Y, _ = data
    a = HouseholderDictionaryLearning(1, random_state=3).fit(Y.T)
    b = HouseholderDictionaryLearning(1, random_state=3).fit(Y.T)
    np.testing.assert_array_equal(a.dictionary_.vectors, b.dictionary_.vectors)
    np.testing.assert_array_equal(a.transform(Y.T), b.transform(Y.T))


def test_centred_data_warns_and_gives_identity():
    Y = np.random.default_rng(0).standard_normal((200, 10))
    Y -= Y.mean(axis=0)
    with pytest.warns(DegenerateStatisticsWarning, match="no reflector is identifiable"):
        est = HouseholderDictionaryLearning().fit(Y)
    assert est.dictionary_.m == 0


def test_input_errors(data):
    _, Y, _ = data
    est = HouseholderDictionaryLearning().fit(Y.T)
    with pytest.raises(ValueError, match="X has 39 features, but HouseholderDictionaryLearning "
                                         "is expecting 40 features"):
        est.transform(Y.T[:, 1:])
    with pytest.raises(ValueError, match="Complex data not supported"):
        HouseholderDictionaryLearning().fit(Y.T + 1j)
    with pytest.raises(TypeError, match="sparse"):
        import scipy.sparse

        HouseholderDictionaryLearning().fit(scipy.sparse.csr_array(Y.T))
    with pytest.raises(ValueError, match="X must be finite, found NaN"):
        HouseholderDictionaryLearning().fit(np.where(Y.T > 1, np.nan, Y.T))
    with pytest.raises(ValueError, match="Reshape your data"):
        est.transform(Y[:, 0])
    with pytest.raises(ValueError, match=r"X has 1 feature\(s\)"):
        HouseholderDictionaryLearning().fit(Y.T[:, :1])


def test_partial_fit_defers_the_estimate_to_first_use(data):
    _, Y, _ = data
    est = HouseholderDictionaryLearning(1, theta=0.5, mu=1.5)
    est.partial_fit(Y.T[:100]).partial_fit(Y.T[100:])
    assert "_dictionary" not in vars(est)
    ref = HouseholderDictionaryLearning(1, theta=0.5, mu=1.5).fit(Y.T)
    np.testing.assert_allclose(est.dictionary_.vectors, ref.dictionary_.vectors, atol=1e-12)
    assert "_dictionary" in vars(est)
    est.partial_fit(Y.T[:10])        # new data: the estimate is stale again
    assert "_dictionary" not in vars(est)
    assert est.transform(Y.T).shape == Y.T.shape


def test_partial_fit_absent_for_refine():
    assert hasattr(HouseholderDictionaryLearning(), "partial_fit")
    assert not hasattr(HouseholderDictionaryLearning(method="refine"), "partial_fit")


@pytest.mark.filterwarnings("ignore::gsp_householder.exceptions.DegenerateStatisticsWarning")
@pytest.mark.filterwarnings("ignore::gsp_householder.exceptions.ConvergenceWarning")
def test_refine_method():
    refinement = pytest.importorskip("gsp_householder.learning.refinement")
    V = random_householder_product(30, 2, rng=0)
    Y, _ = make_signals(V, 200, BernoulliUniform(0.5), rng=1)
    est = HouseholderDictionaryLearning(2, method="refine", random_state=0).fit(Y.T)
    assert isinstance(est.dictionary_, HouseholderProduct)
    ref = refinement.refine_householder_product(
        Y, 2, init=estimate_householder_product(Y, 2), rng=np.random.default_rng(0)).dictionary
    np.testing.assert_allclose(est.dictionary_.to_dense(), np.asarray(ref), atol=1e-12)
    again = HouseholderDictionaryLearning(2, method="refine", random_state=0).fit(Y.T)
    np.testing.assert_array_equal(again.dictionary_.vectors, est.dictionary_.vectors)


def test_works_without_scikit_learn():
    """Import, fit, transform, clone by parameters and pickle with sklearn made unimportable."""
    code = textwrap.dedent("""
        import sys
        sys.modules["sklearn"] = None          # any 'import sklearn' now fails
        import pickle
        import numpy as np
        from gsp_householder.estimator import HouseholderDictionaryLearning
        Y = np.random.default_rng(0).random((50, 8)) + 1.0
        est = HouseholderDictionaryLearning(1).fit(Y)
        codes = est.transform(Y)
        clone = type(est)(**est.get_params()).fit(Y)
        assert np.array_equal(clone.transform(Y), codes)
        assert np.array_equal(pickle.loads(pickle.dumps(est)).transform(Y), codes)
        names = est.get_feature_names_out()
        assert list(names) == [f"householderdictionarylearning{i}" for i in range(8)]
        assert est.set_output(transform="default").transform(Y) is not None
        assert "sklearn" not in [m.split(".")[0] for m in sys.modules if sys.modules[m]]
        print("ok")
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


_VALIDATORS = {"check_signals", "check_real_array", "validate_samples", "_validate_dask"}


def _validations_of(array, call) -> list[str]:
    """Names of the validators that ``call()`` runs on ``array`` (or on a view of it)."""
    seen = []

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_name in _VALIDATORS:
            first = frame.f_locals.get(frame.f_code.co_varnames[0])
            if isinstance(first, np.ndarray) and np.shares_memory(first, array):
                seen.append(frame.f_code.co_name)

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return seen


@pytest.mark.parametrize("method", ["paper", "refine", "ica"])
def test_fit_validates_the_data_once(data, method):
    """Validation happens at the public boundary only: the trace of fit(X) checks X once."""
    Y = data[1]
    X = np.ascontiguousarray(Y.T)
    est = HouseholderDictionaryLearning(n_reflectors=2, method=method, random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert _validations_of(X, lambda: est.fit(X)) == ["validate_samples"]
    # the probe sees a validation that runs on the array: the function does validate
    from gsp_householder.learning.refinement import refine_householder_product

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert "check_signals" in _validations_of(Y, lambda: refine_householder_product(Y, 2))


# ----------------------------------------------------------------- feature names and output
def _nodes(n):
    return [f"node{i}" for i in range(n)]


def test_get_feature_names_out(data):
    X = data[1].T
    est = HouseholderDictionaryLearning().fit(X)
    names = est.get_feature_names_out()
    assert names.dtype == object and names.shape == (X.shape[1],)
    assert names[0] == "householderdictionarylearning0" and names[-1].endswith("39")
    assert not hasattr(est, "feature_names_in_")
    assert list(est.get_feature_names_out(_nodes(40))) == list(names)
    with pytest.raises(ValueError, match="input_features should have length equal to number "
                                         "of features \\(40\\), got 3"):
        est.get_feature_names_out(["a", "b", "c"])
    with pytest.raises(NotFittedError):
        HouseholderDictionaryLearning().get_feature_names_out()


def test_feature_names_in_from_a_dataframe(data):
    X = data[1].T
    frame = Frame(X, _nodes(40))
    est = HouseholderDictionaryLearning().fit(frame)
    assert est.feature_names_in_.dtype == object
    assert list(est.feature_names_in_) == _nodes(40)
    # the same codes as from the array
    np.testing.assert_array_equal(est.transform(frame), HouseholderDictionaryLearning()
                                  .fit(X).transform(X))
    np.testing.assert_array_equal(est.get_feature_names_out(_nodes(40)),
                                  est.get_feature_names_out())
    with pytest.raises(ValueError, match="input_features is not equal to feature_names_in_"):
        est.get_feature_names_out(_nodes(40)[::-1])
    with pytest.raises(ValueError, match=r"feature names should match.*order"):
        est.transform(Frame(X, _nodes(40)[::-1]))
    with pytest.raises(ValueError, match=r"unseen at fit time: \['x'\]"):
        est.transform(Frame(X, ["x", *_nodes(40)[1:]]))
    with pytest.warns(UserWarning, match="X does not have valid feature names"):
        est.transform(X)
    # refitting on an array forgets the names
    est.fit(X)
    assert not hasattr(est, "feature_names_in_")
    with pytest.warns(UserWarning, match="X has feature names, but HouseholderDictionaryLearning "
                                         "was fitted without feature names"):
        est.transform(frame)
    # non-string names are not feature names; a mix is refused
    assert not hasattr(HouseholderDictionaryLearning().fit(Frame(X, range(40))),
                       "feature_names_in_")
    with pytest.raises(TypeError, match="Feature names are only supported if all input "
                                        "features have string names"):
        HouseholderDictionaryLearning().fit(Frame(X, [0, *_nodes(40)[1:]]))
    # partial_fit sets the names on the first block and checks them afterwards
    est = HouseholderDictionaryLearning().partial_fit(frame)
    assert list(est.feature_names_in_) == _nodes(40)
    with pytest.raises(ValueError, match="feature names should match"):
        est.partial_fit(Frame(X, _nodes(40)[::-1]))
    # codes given to inverse_transform carry no node names and do not warn
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est.inverse_transform(est.transform(frame))


def test_set_output(data):
    import importlib.util

    X = data[1].T
    est = HouseholderDictionaryLearning()
    assert est.set_output() is est and est.set_output(transform="default") is est
    assert isinstance(est.fit_transform(X), np.ndarray)
    with pytest.raises(ValueError, match="transform must be one of"):
        est.set_output(transform="arrow")
    for lib in ("pandas", "polars"):
        if importlib.util.find_spec(lib) is None:
            with pytest.raises(ImportError, match=f"requires {lib} to be installed"):
                HouseholderDictionaryLearning().set_output(transform=lib)


def test_set_output_pandas(data):
    pd = pytest.importorskip("pandas")
    X = data[1].T
    frame = pd.DataFrame(X, columns=_nodes(40), index=[f"s{i}" for i in range(len(X))])
    est = HouseholderDictionaryLearning().set_output(transform="pandas")
    out = est.fit_transform(frame)
    assert isinstance(out, pd.DataFrame)
    assert list(out.columns) == list(est.get_feature_names_out())
    assert list(out.index) == list(frame.index)
    np.testing.assert_array_equal(out.to_numpy(), HouseholderDictionaryLearning().fit(X)
                                  .transform(X))
    assert list(est.feature_names_in_) == _nodes(40)


def test_set_output_polars(data):
    pl = pytest.importorskip("polars")
    X = data[1].T
    est = HouseholderDictionaryLearning().set_output(transform="polars")
    out = est.fit_transform(pl.DataFrame(X, schema=_nodes(40), orient="row"))
    assert isinstance(out, pl.DataFrame) and out.columns == list(est.get_feature_names_out())
    assert list(est.feature_names_in_) == _nodes(40)


def test_sklearn_global_transform_output(data):
    sklearn = pytest.importorskip("sklearn")
    X = data[1].T
    est = HouseholderDictionaryLearning().fit(X)
    with sklearn.config_context(transform_output="default"):
        assert isinstance(est.transform(X), np.ndarray)
    # a per-estimator setting wins over the global one
    est.set_output(transform="default")
    with sklearn.config_context(transform_output="pandas"):
        assert isinstance(est.transform(X), np.ndarray)
    assert sklearn.base.clone(est)._sklearn_output_config == {"transform": "default"}
