"""A scikit-learn compatible estimator over the paper's pipeline.

`HouseholderDictionaryLearning` learns an orthogonal dictionary
$V = H_1 \\cdots H_m$ and codes signals by hard thresholding $V^T y$. It follows
scikit-learn's conventions without importing scikit-learn (an optional
dependency): ``get_params`` / ``set_params`` / ``clone``, fitted attributes with a
trailing underscore, ``fit`` returning ``self``, and a
`gsp_householder.exceptions.NotFittedError` (a ``ValueError`` and an
``AttributeError``, like scikit-learn's) before ``fit``.

## Orientation

The functions of the toolkit follow the paper: ``Y`` has shape
``(n_nodes, n_signals)``, signals are **columns**, and ``Y = V X``. The estimator
follows scikit-learn: ``fit`` takes ``X_sk = Y.T`` of shape
``(n_samples, n_features) = (n_signals, n_nodes)``, one signal per **row**, and

| paper (functions)          | scikit-learn (estimator)                      |
|----------------------------|-----------------------------------------------|
| ``Y``, shape ``(n, p)``    | ``X_sk = Y.T``, shape ``(p, n)``              |
| ``X = V^T Y`` (codes)      | ``transform(X_sk) = X.T``, shape ``(p, n)``   |
| ``V`` (atoms as columns)   | ``components_ = V.T`` (atoms as rows)         |
| ``Y = V X``                | ``X_sk = transform(X_sk) @ components_``      |
"""

from __future__ import annotations

import numpy as np

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._sklearn_protocol import (
    FeatureNamesMixin,
    ParamsMixin,
    available_if,
    validate_samples,
)
from gsp_householder._validation import check_rng, check_scalar, check_theta
from gsp_householder.exceptions import (
    DegenerateStatisticsError,
    DegenerateStatisticsWarning,
    NotFittedError,
)
from gsp_householder.householder import HouseholderProduct, _is_dask
from gsp_householder.learning.paper import estimate_householder_product
from gsp_householder.learning.sparse_coding import hard_threshold, two_means_threshold
from gsp_householder.learning.zero_pattern import gap_threshold
from gsp_householder.statistics._kernels import block_sums
from gsp_householder.statistics.signal_statistics import SignalStatistics

__all__ = ["HouseholderDictionaryLearning"]

_METHODS = ("paper", "refine", "ica")
_STREAMING_METHODS = ("paper",)
# entries of V^T Y used to choose the default threshold
_THRESHOLD_SAMPLE = 1 << 16


def _streaming_reason(est) -> str:
    return f"with method={est.method!r}: it needs method in {_STREAMING_METHODS}"


class HouseholderDictionaryLearning(FeatureNamesMixin, ParamsMixin):
    """Learn an orthogonal dictionary $V = H_1 \\cdots H_m$ and sparse-code signals.

    **Orientation:** scikit-learn's. ``fit`` takes ``X`` of shape
    ``(n_samples, n_features)``, which is ``Y.T`` for the paper's signal matrix
    ``Y`` of shape ``(n_nodes, n_signals)``: one signal per row, one node per
    feature (see the table in `gsp_householder.estimator`).

    Parameters
    ----------
    n_reflectors : int, default 1
        Number $m$ of reflectors, ``1 <= m <= n_features``.
    theta, mu : float, optional
        Sparsity and mean of the non-zero codes; give both (oracle scale
        $\\theta\\mu$) or neither (blind: estimated from the data).
    method : {"paper", "refine", "ica"}, default "paper"
        ``"paper"``: Algorithm 3 from the sufficient statistics
        (`gsp_householder.learning.paper.estimate_householder_product`); one pass
        over the data, $O(n)$ memory; supports ``partial_fit`` and dask arrays.
        ``"refine"``: the paper's estimate refined by
        `gsp_householder.learning.refinement.refine_householder_product` (needs the
        data in memory; no ``partial_fit``, which is then absent, as
        ``hasattr(est, "partial_fit")`` reports).
        ``"ica"``: a whole orthogonal basis (for example a graph Fourier basis,
        $n - 1$ reflectors) by
        `gsp_householder.learning.whole_basis.learn_orthogonal_basis`;
        ``n_reflectors`` and ``mu`` are then not used, ``theta`` is passed on; needs
        the data in memory and at least ``n_features`` samples; no ``partial_fit``.
    threshold : float, optional
        $\\zeta \\ge 0$ of the hard threshold $HT_\\zeta(V^T y)$ used by
        ``transform``. Default: chosen at fit time by
        `gsp_householder.learning.sparse_coding.two_means_threshold` on the codes of
        the training signals (at most $2^{16}$ entries, evenly spaced over the
        signals; with ``partial_fit``, over the latest block), then fixed, so
        that ``transform`` codes each signal on its own. With ``method="ica"``, by
        `gsp_householder.learning.zero_pattern.gap_threshold` instead, the level
        the whole-basis learner uses (between the zero cluster and non-zero codes
        of any range).
    random_state : None, int or numpy.random.Generator
        Seed of the randomised methods (``"refine"``, ``"ica"``); the paper's methods are
        deterministic.

    Attributes
    ----------
    dictionary_ : HouseholderProduct
        The learned $V$, shape ``(n_features, n_features)`` as an operator: atoms
        are its columns, codes satisfy ``X.T = V @ codes.T``.
    components_ : ndarray of shape (n_features, n_features)
        $V^T$ as a dense array (atoms as rows), computed on access; ``X`` is
        approximated by ``transform(X) @ components_``. Costs $O(n^2)$ memory:
        use ``dictionary_`` for large ``n_features``.
    threshold_ : float
        The threshold used by ``transform``.
    statistics_ : SignalStatistics
        Row sums, row sums of squares and count of the signals seen by ``fit``
        and ``partial_fit`` (method ``"paper"``).
    n_features_in_ : int
        Number of features (graph nodes) seen by ``fit``.
    feature_names_in_ : ndarray of str objects, shape (n_features_in_,)
        Column names of ``X`` (node names), defined only when ``fit`` got a
        dataframe (pandas, polars) whose column names are all strings; later
        calls warn or raise when the names differ, as in scikit-learn.
        ``get_feature_names_out()`` names the codes
        ``householderdictionarylearning0``, ``...1``, ... (one per atom), and
        ``set_output(transform="pandas")`` (or ``"polars"``) makes ``transform``
        return a dataframe with those columns; neither needs scikit-learn.

    Notes
    -----
    **Degenerate data.** When the data's first moment cannot define the scale
    $\\theta\\mu$ (the blind estimate is not positive, as for centred data), no
    reflector is identifiable: ``fit`` warns with a
    `gsp_householder.exceptions.DegenerateStatisticsWarning` and sets
    ``dictionary_`` to the identity. The functions of
    `gsp_householder.learning.paper` raise
    `gsp_householder.exceptions.DegenerateStatisticsError` instead.

    **Input.** Dense real arrays (float32 stays float32 through ``transform`` and
    ``inverse_transform``); object arrays of numbers are converted to float64,
    as scikit-learn does. Dask arrays are accepted by ``fit`` and ``partial_fit``
    with ``method="paper"`` (one parallel pass for the statistics). Sparse
    matrices are rejected with a ``TypeError``, complex data with a ``ValueError``
    ("Complex data not supported", scikit-learn's wording).

    Examples
    --------
    >>> from gsp_householder import BernoulliUniform, make_signals, random_householder_product
    >>> from gsp_householder.estimator import HouseholderDictionaryLearning
    >>> V = random_householder_product(200, 1, rng=0)
    >>> Y, X = make_signals(V, 500, BernoulliUniform(0.5), rng=1)
    >>> est = HouseholderDictionaryLearning(n_reflectors=1, theta=0.5, mu=1.5).fit(Y.T)
    >>> codes = est.transform(Y.T)            # shape (n_samples, n_features) = X.T
    >>> codes.shape, est.dictionary_.m
    ((500, 200), 1)
    >>> round(est.score(Y.T), 4) > -0.01      # minus the mean squared reconstruction error
    True
    """

    def __init__(self, n_reflectors=1, *, theta=None, mu=None, method="paper",
                 threshold=None, random_state=None):
        self.n_reflectors = n_reflectors
        self.theta = theta
        self.mu = mu
        self.method = method
        self.threshold = threshold
        self.random_state = random_state

    # ------------------------------------------------------------ validation
    def _check_params(self) -> None:
        check_scalar(self.n_reflectors, "n_reflectors", low=1, low_inclusive=True, integer=True)
        if (self.theta is None) != (self.mu is None):
            raise ValueError("give both theta and mu (oracle scale) or neither (blind scale); "
                             f"got theta={self.theta!r}, mu={self.mu!r}")
        if self.theta is not None:
            check_theta(self.theta)
            check_scalar(self.mu, "mu", low=0.0)
        if not isinstance(self.method, str) or self.method not in _METHODS:
            raise ValueError(f"method must be one of {_METHODS}, got {self.method!r}")
        if self.threshold is not None:
            check_scalar(self.threshold, "threshold", low=0.0, low_inclusive=True)
        check_rng(self.random_state)

    def _validate_X(self, X, *, reset: bool, allow_dask: bool = False, name: str = "X",
                    check_finite: bool = True, check_names: bool = True):
        """The one validation of ``X`` on every public path (see `validate_samples`).

        Also sets (``reset``) or checks ``feature_names_in_`` unless ``check_names``
        is False (codes given to ``inverse_transform`` have no node names).
        """
        if check_names:
            self._check_feature_names(X, reset=reset)
        return validate_samples(X, n_features=None if reset else self.n_features_in_,
                                owner=type(self).__name__, allow_dask=allow_dask, name=name,
                                check_finite=check_finite)

    def _check_is_fitted(self) -> None:
        if not self.__sklearn_is_fitted__():
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet; call "
                                 "'fit' with appropriate arguments before using this estimator")

    def __sklearn_is_fitted__(self) -> bool:
        return "_dictionary" in self.__dict__ or "statistics_" in self.__dict__

    # ------------------------------------------------------------ fitting
    def _estimate(self, data):
        return _paper_dictionary(data, self.n_reflectors, self.theta, self.mu)

    def _check_n_reflectors(self, n: int) -> None:
        if self.n_reflectors > n:
            raise ValueError(f"n_reflectors must be at most n_features = {n}, "
                             f"got {self.n_reflectors}")

    def fit(self, X, y=None):
        """Learn the dictionary from signals ``X`` of shape (n_samples, n_features) = ``Y.T``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features), or dask array
            One signal per row (scikit-learn's orientation; the paper's ``Y`` is
            ``X.T``). Dask arrays need ``method="paper"``.
        y : ignored

        Returns
        -------
        self

        Raises
        ------
        ValueError
            Bad parameters, or ``X`` not 2-D, empty, non-finite, with fewer than 2
            features, or complex.
        TypeError
            ``X`` sparse or not numeric.
        """
        self._check_params()
        for attr in ("_dictionary", "_threshold", "_threshold_sample", "statistics_",
                     "n_features_in_"):
            self.__dict__.pop(attr, None)
        streaming = self.method in _STREAMING_METHODS
        X = self._validate_X(X, reset=True, allow_dask=streaming, check_finite=not streaming)
        n = X.shape[1]
        self._check_n_reflectors(n)
        if self.method == "ica":
            V = _ica_dictionary(X, self.theta, check_rng(self.random_state))
        else:
            stats = _statistics_of(X)
            V = self._estimate(stats)
            if self.method == "refine":
                V = _refined_dictionary(X, V, self.n_reflectors, self.threshold,
                                        check_rng(self.random_state))
            else:
                self.statistics_ = stats
        self._dictionary = V
        self.n_features_in_ = int(n)
        self._threshold = self._threshold_from(_threshold_sample(X, self.threshold))
        return self

    @available_if(lambda self: self.method in _STREAMING_METHODS, _streaming_reason)
    def partial_fit(self, X, y=None):
        """Add signals ``X`` (n_samples, n_features) to the statistics.

        After any sequence of calls the dictionary equals the one ``fit`` gives
        on all the signals seen (up to floating-point summation order): only the
        $O(n)$ statistics are kept. A call costs one pass over ``X``; the
        dictionary and threshold are re-estimated ($O(mn)$) when they are next
        used, so streaming many blocks costs no more than reading them. With
        ``threshold=None``, ``threshold_`` is chosen from the codes of the latest
        block. Only ``method="paper"``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features), or dask array
            A block of signals, one per row.
        y : ignored

        Returns
        -------
        self
        """
        self._check_params()
        first = not hasattr(self, "statistics_")
        X = self._validate_X(X, reset=first, allow_dask=True, check_finite=False)
        n = X.shape[1]
        if first:
            self._check_n_reflectors(n)
        part = _statistics_of(X)
        stats = part if first else self.statistics_.merge(part)
        self.statistics_ = stats
        self.n_features_in_ = int(n)
        # the dictionary and threshold are re-estimated on first use ($O(mn)$ once,
        # not once per block)
        self._threshold_sample = _threshold_sample(X, self.threshold)
        self.__dict__.pop("_dictionary", None)
        self.__dict__.pop("_threshold", None)
        return self

    def _refresh(self) -> None:
        """Estimate the dictionary and threshold from statistics added by partial_fit."""
        self._check_is_fitted()
        if "_dictionary" not in self.__dict__:
            self._dictionary = self._estimate(self.statistics_)
            self._threshold = self._threshold_from(self._threshold_sample)

    @property
    def dictionary_(self) -> HouseholderProduct:
        """The learned dictionary $V$ (a HouseholderProduct, atoms as columns)."""
        self._refresh()
        return self._dictionary

    @property
    def threshold_(self) -> float:
        """The threshold $\\zeta$ used by ``transform``."""
        self._refresh()
        return self._threshold

    def _threshold_from(self, sample) -> float:
        if self.threshold is not None:
            return float(self.threshold)
        rule = gap_threshold if self.method == "ica" else two_means_threshold
        return _sampled_threshold(self._dictionary, sample, rule)

    # ------------------------------------------------------------ transforms
    def transform(self, X):
        """Sparse codes $HT_\\zeta(V^T y)$ of each row ``y`` of ``X``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples, n_features)
            The codes, one row per signal (the paper's $\\hat X^T$); float32 in
            gives float32 out. A pandas or polars dataframe after
            ``set_output(transform="pandas")`` (or ``"polars"``).

        Raises
        ------
        NotFittedError
            Before ``fit``.
        """
        self._check_is_fitted()
        X_in = X
        X = self._validate_X(X, reset=False)
        return self._wrap_output(hard_threshold(self.dictionary_.rmatvec(X), self.threshold_),
                                 X_in)

    def fit_transform(self, X, y=None):
        """``fit(X)`` then ``transform(X)``."""
        return self.fit(X).transform(X)

    def inverse_transform(self, X):
        """Signals ``codes @ components_`` from codes of shape (n_samples, n_features).

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
            Codes, one row per signal.

        Returns
        -------
        ndarray of shape (n_samples, n_features)
        """
        self._check_is_fitted()
        X = self._validate_X(X, reset=False, check_names=False)
        return self.dictionary_.matvec(X.T).T

    def score(self, X, y=None) -> float:
        """Minus the mean squared reconstruction error after sparse coding.

        $-\\frac{1}{pn}\\|X - HT_\\zeta(X V) V^T\\|_F^2$: 0 for signals that the
        dictionary codes exactly with the fitted threshold; larger is better, as
        scikit-learn's ``score`` convention asks.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)
        y : ignored

        Returns
        -------
        float
        """
        self._check_is_fitted()
        X = self._validate_X(X, reset=False)
        codes = hard_threshold(self.dictionary_.rmatvec(X), self.threshold_)
        residual = X.astype(np.float64) - self.dictionary_.matvec(codes.T).T
        return -float(np.mean(residual * residual))

    @property
    def components_(self) -> np.ndarray:
        """$V^T$ as a dense ``(n_features, n_features)`` array, atoms as rows."""
        self._check_is_fitted()
        return self.dictionary_.T.to_dense()


# ---------------------------------------------------------------- the steps of fit
def _statistics_of(X) -> SignalStatistics:
    """Statistics of validated samples ``X`` (p, n) in one pass: the paper's ``Y`` is ``X.T``."""
    if _is_dask(X):
        from gsp_householder.statistics.dask_arrays import statistics_from_dask

        return statistics_from_dask(X.T, name="X")
    sums, sq_sums = block_sums(X, name="X")
    return SignalStatistics.from_sums(sums, sq_sums, X.shape[0])


def _paper_dictionary(stats: SignalStatistics, m: int, theta, mu) -> HouseholderProduct:
    """Algorithm 3 on the statistics; the identity, with a warning, if nothing is identifiable."""
    try:
        return estimate_householder_product(stats, m, theta, mu)
    except DegenerateStatisticsError as exc:
        warn_at_caller(f"no reflector is identifiable ({exc}); the dictionary is the identity",
                       DegenerateStatisticsWarning)
        return HouseholderProduct.identity(stats.n_nodes)


def _refined_dictionary(X: np.ndarray, start: HouseholderProduct, m: int, threshold,
                        rng: np.random.Generator) -> HouseholderProduct:
    """The structured refinement of ``start`` on validated samples ``X`` (p, n)."""
    from gsp_householder.learning.refinement import refine_validated

    Y = X.T.astype(np.float64, copy=False)
    result = refine_validated(Y, m, start, low=None, high=None, threshold=threshold,
                              n_iter=100, tol=1e-10, n_restarts=2, fit_iter=0, rng=rng)
    V = result.dictionary
    return V if isinstance(V, HouseholderProduct) else HouseholderProduct.from_orthogonal(V)


def _threshold_sample(X, threshold):
    """Evenly spaced signals of ``X`` (at most $2^{16}$ entries, at least one signal).

    None when a fixed ``threshold`` makes a sample unnecessary.
    """
    if threshold is not None:
        return None
    p, n = X.shape
    k = int(min(p, max(1, _THRESHOLD_SAMPLE // n)))
    idx = np.unique(np.linspace(0, p - 1, k).round().astype(int))
    sample = X[idx]
    if _is_dask(sample):
        sample = sample.compute()
    return np.array(sample)


def _sampled_threshold(V: HouseholderProduct, sample: np.ndarray, rule) -> float:
    """The threshold ``rule`` gives on the codes $V^T y$ of the sampled signals."""
    codes = (V.T @ sample.T).ravel()
    if codes.size > _THRESHOLD_SAMPLE:
        codes = codes[np.linspace(0, codes.size - 1, _THRESHOLD_SAMPLE).round().astype(int)]
    return float(rule(codes))


def _ica_dictionary(X: np.ndarray, theta, rng: np.random.Generator) -> HouseholderProduct:
    """The whole-basis learner on validated samples ``X`` (p, n)."""
    from gsp_householder.learning.whole_basis import learn_validated

    p, n = X.shape
    if p < n:
        raise ValueError(f"X has {p} sample(s) for {n} features; method='ica' needs at "
                         "least as many samples (signals) as features (nodes)")
    return learn_validated(X.T.astype(np.float64, copy=False),
                           theta=None if theta is None else float(theta), rng=rng,
                           name="X").dictionary
