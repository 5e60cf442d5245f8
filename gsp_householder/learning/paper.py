"""The paper's estimators (Algorithms 1-3), computed from sufficient statistics.

Under the model $Y = VX$ with i.i.d. Bernoulli($\\theta$)-Uniform codes of mean
$a = \\theta\\mu$, $E[Y] = a V \\mathbf 1 \\mathbf 1^T$: the mean column $\\bar y$
estimates $a V\\mathbf 1$. For $Y = H Q X$ with $H = I - 2uu^T$ and
$s = Q\\mathbf 1$ known, $k = (s - \\bar y / a)/2$ estimates $u\\,(u^T s)$, so $u$
is the direction of $k$ (Algorithm 2; Algorithm 1 is $Q = I$, $s = \\mathbf 1$).
Algorithm 3 applies Algorithm 2 to one reflector after the other. All three read
$Y$ only through $\\bar y$: one pass over the data, then $O(n)$ (or $O(mn)$) work.

**What the first moment can and cannot do.** $\\bar y$ identifies $V\\mathbf 1$
and nothing else. One reflector is determined by $V \\mathbf 1$ (Theorem 1 of the
paper, when $c = \\sum_i u_i$ is large); a product of $m > 1$ reflectors is not:
from the identity start, Algorithm 3's later reflectors only correct the first
one inside the plane of $\\mathbf 1$ and $\\bar y$, and the estimate is as good as the
single reflector mapping $\\mathbf 1$ to $\\bar y$. Use
`gsp_householder.learning.refinement.refine_householder_product` to go further.

**Normalisation.** The paper's formula $u = k / \\sqrt{k^T s}$ gives a unit
vector only in expectation; its radicand can be negative (NaN) and its $H$ is
not orthogonal. These functions return $u = k / \\|k\\|$, which is unit by
construction and has the same direction; `estimate_householder_vector`
gives the paper's unnormalised vector with ``normalize=False``.

**Blind scale.** With ``theta=None, mu=None`` the scale $a = \\theta\\mu$ is
estimated from $\\|V \\mathbf 1\\| = \\sqrt n$ (see
`SignalStatistics.scale_estimate`); only the product $\\theta\\mu$ is
identifiable from the first moment.
"""

from __future__ import annotations

import math

import numpy as np

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._validation import check_real_array, check_scalar, check_signals, check_theta
from gsp_householder.exceptions import DegenerateStatisticsError, DegenerateStatisticsWarning
from gsp_householder.householder import HouseholderProduct
from gsp_householder.statistics._kernels import affine_moments
from gsp_householder.statistics.dispatch import as_statistics
from gsp_householder.statistics.signal_statistics import SignalStatistics

__all__ = [
    "estimate_scale",
    "estimate_householder_vector",
    "estimate_householder",
    "estimate_householder_given",
    "estimate_householder_product",
]


def estimate_scale(Y, theta: float | None = None, mu: float | None = None) -> float:
    """The scale $a = \\theta\\mu$ of the mean column: given (oracle) or estimated (blind).

    Parameters
    ----------
    Y : array_like of shape (n, p) or SignalStatistics
        Signals as columns.
    theta, mu : float, optional
        Give both (oracle: returns ``theta * mu``) or neither (blind estimate).

    Returns
    -------
    float

    Examples
    --------
    >>> from gsp_householder import BernoulliUniform, make_signals, random_householder_product
    >>> from gsp_householder import estimate_scale
    >>> V = random_householder_product(1000, 1, rng=0)
    >>> Y, _ = make_signals(V, 200, BernoulliUniform(0.5), rng=1)
    >>> round(estimate_scale(Y), 2), estimate_scale(Y, theta=0.5, mu=1.5)
    (0.75, 0.75)
    """
    if theta is None and mu is None:
        return as_statistics(Y).scale_estimate()
    if theta is None or mu is None:
        raise ValueError("give both theta and mu (oracle scale) or neither (blind scale); "
                         f"got theta={theta!r}, mu={mu!r}")
    theta = check_theta(theta)
    mu = check_scalar(mu, "mu", low=0.0)
    return theta * mu


def _noise_level(stats: SignalStatistics, scale: float, variance_sum: float | None = None,
                 mean_sq: float | None = None) -> float | None:
    """Expected $\\|k\\|^2$ from sampling noise alone, $\\sum_i s_i^2 / (4 p a^2)$.

    ``variance_sum`` is $\\sum_i s_i^2$ and ``mean_sq`` $\\|\\bar y\\|^2$ when the caller
    has them already (`SignalStatistics._moments`).
    """
    with np.errstate(over="ignore"):
        # |mean / scale| <= 1e150 keeps the squares and dot products of k finite; the
        # largest |mean| is at most ||mean||, and is read only when that bound is too large
        finite = 0 < scale * scale < np.inf
        if finite and not (mean_sq is not None and np.sqrt(mean_sq) / scale <= 1e150):
            peak = max(abs(float(stats.row_sums.max())), abs(float(stats.row_sums.min())))
            finite = peak / stats.count / scale <= 1e150
    if not finite:
        raise ValueError(f"theta*mu = {scale:.3g} is out of range for the magnitude of Y: "
                         "mean / (theta*mu) or (theta*mu)^2 is not representable in float64")
    if stats.count < 2:
        return None
    if variance_sum is None:
        variance_sum = stats._variance_sum()
    return variance_sum / (4.0 * stats.count * scale**2)


def _scale_and_noise(stats: SignalStatistics, theta, mu, scratch: np.ndarray | None = None
                     ) -> tuple[float, float | None]:
    """`estimate_scale` and `_noise_level`, from one reading of the statistics
    (`SignalStatistics._moments`, through ``scratch``, a float64 n-vector, if given)."""
    if theta is None and mu is None:
        moments = stats._moments(scratch)
        scale, variance_sum = stats._blind_scale(moments=moments)
    else:
        scale = estimate_scale(stats, theta, mu)
        moments = stats._moments(scratch)
        variance_sum = moments[1]
    return scale, _noise_level(stats, scale, variance_sum, moments[0])


def _own_statistics_buffer(stats: SignalStatistics) -> np.ndarray | None:
    """The (2, n) float64 array whose rows are the row sums and the row sums of squares
    (as `SignalStatistics.from_array` leaves them), or ``None`` if they are stored apart."""
    base = stats.row_sums.base
    if (base is None or base is not stats.row_sq_sums.base or base.shape != (2, stats.n_nodes)
            or base.dtype != np.float64 or not base.flags.c_contiguous
            or not base.flags.writeable):
        return None
    if (stats.row_sums.ctypes.data != base.ctypes.data
            or stats.row_sq_sums.ctypes.data != base[1].ctypes.data):
        return None
    return base


def _mean_over_scale(stats: SignalStatistics, scale: float, out=None) -> np.ndarray:
    """$\\bar y / a$ in one pass (into ``out`` if given)."""
    return np.multiply(stats.row_sums, 1.0 / (stats.count * scale), out=out)


def _reflector_from_mean(mean_over_scale: np.ndarray, s: np.ndarray, *, normalize: bool,
                         noise: float | None, step: str, warn_noise: bool = True
                         ) -> tuple[np.ndarray | None, bool]:
    """Algorithm 2's vector from $\\bar y / a$ and $s = Q \\mathbf 1$.

    Returns the vector (None when $k = 0$) and whether $\\|k\\|^2$ exceeds the
    level that sampling noise alone would give.
    """
    k = 0.5 * (s - mean_over_scale)
    radicand = float(k @ s)
    norm_k = float(np.linalg.norm(k))
    n = k.shape[0]
    if norm_k <= 1e-12 * np.sqrt(n):
        return None, False
    significant = noise is None or norm_k**2 > noise
    if not significant and warn_noise:
        warn_at_caller(
            f"{step}: the mean column differs from its value without this reflector by no more "
            f"than sampling noise (||k||^2 = {norm_k**2:.3g} <= {noise:.3g}); the reflector is "
            "fitted to noise (u^T Q1 is too small, which Theorem 1's condition "
            "c = Omega(n^alpha) excludes)",
            DegenerateStatisticsWarning)
    if radicand <= 0 and (significant or not normalize):
        if not normalize:
            raise DegenerateStatisticsError(
                f"{step}: the radicand sum_i k_i s_i = {radicand:.3g} is not positive, so the "
                "paper's u = k / sqrt(sum_i k_i s_i) is undefined; use normalize=True")
        warn_at_caller(
            f"{step}: the radicand sum_i k_i s_i = {radicand:.3g} is not positive; the data are "
            "not consistent with Y = H Q X at this scale (normalising k instead)",
            DegenerateStatisticsWarning)
    return (k / norm_k if normalize else k / np.sqrt(radicand)), significant


def _ones_image(Q, n: int) -> np.ndarray:
    """$s = Q \\mathbf 1$ from a HouseholderProduct, a dense matrix or the vector itself."""
    if isinstance(Q, HouseholderProduct):
        if Q.n != n:
            raise ValueError(f"Q has n={Q.n}, but Y has {n} rows")
        return Q @ np.ones(n)
    arr = check_real_array(Q, "Q", ndim=(1, 2), allow_float32=False)
    if arr.ndim == 1:
        if arr.shape != (n,):
            raise ValueError(f"Q given as the vector Q·1 must have shape ({n},), got {arr.shape}")
        return arr
    if arr.shape != (n, n):
        raise ValueError(f"Q must have shape ({n}, {n}) to match Y, got {arr.shape}")
    with np.errstate(over="ignore", invalid="ignore"):  # huge entries: infinite defect
        defect = float(np.linalg.norm(arr.T @ arr - np.eye(n)))
    if not defect <= 1e-6 * np.sqrt(n):
        raise ValueError(f"Q must be orthogonal: ||Q^T Q - I||_F = {defect:.3g}")
    return arr.sum(axis=1)


def estimate_householder_vector(Y, theta: float | None = None, mu: float | None = None, *,
                                s=None, normalize: bool = True) -> np.ndarray:
    """The vector $u$ of Algorithm 1 (``s=None``) or Algorithm 2 (``s = Q\\mathbf 1``).

    Parameters
    ----------
    Y : array_like of shape (n, p) or SignalStatistics
        Signals as columns.
    theta, mu : float, optional
        Sparsity and mean of the non-zero codes; both or neither (blind scale).
    s : array_like of shape (n,), optional
        $Q\\mathbf 1$ for the model $Y = HQX$; default $\\mathbf 1$ ($Q = I$).
    normalize : bool, default True
        ``True``: $u = k/\\|k\\|$ (unit). ``False``: the paper's
        $u = k / \\sqrt{\\sum_i k_i s_i}$, unit only in expectation.

    Returns
    -------
    ndarray of shape (n,)

    Raises
    ------
    DegenerateStatisticsError
        If $k = 0$ (no reflector is identifiable), or, with ``normalize=False``,
        if the radicand $\\sum_i k_i s_i \\le 0$.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import estimate_householder_vector
    >>> u = np.full(4, 0.5)                     # H = I - 2uu^T
    >>> mean = 0.75 * (np.ones(4) - 2 * u * u.sum())   # E[Y 1/p] at theta*mu = 0.75
    >>> estimate_householder_vector(mean[:, None], theta=0.5, mu=1.5)
    array([0.5, 0.5, 0.5, 0.5])
    """
    stats = as_statistics(Y)
    n = stats.n_nodes
    s = np.ones(n) if s is None else _ones_image(s, n)
    # the noise level checks the scale before the mean is divided by it
    scale, noise = _scale_and_noise(stats, theta, mu)
    u, _ = _reflector_from_mean(_mean_over_scale(stats, scale), s, normalize=normalize,
                                noise=noise, step="estimate_householder")
    if u is None:
        raise DegenerateStatisticsError(
            "the mean column equals its value without a reflector (k = 0): no reflector is "
            "identifiable from these statistics")
    return u


def estimate_householder(Y, theta: float | None = None, mu: float | None = None
                         ) -> HouseholderProduct:
    """Algorithm 1: estimate $H = I - 2uu^T$ from $Y = HX$.

    Parameters
    ----------
    Y : array_like of shape (n, p) or SignalStatistics
        Signals as columns (``n`` nodes, ``p`` signals). Only the row sums are read.
    theta, mu : float, optional
        Sparsity and mean of the non-zero codes; both (oracle) or neither (blind).

    Returns
    -------
    HouseholderProduct
        One reflector, $u$ normalised, sign chosen so that $u$ follows $k$.

    Examples
    --------
    >>> from gsp_householder import (BernoulliUniform, estimate_householder,
    ...                              make_signals, random_householder_product, vector_error)
    >>> V = random_householder_product(1000, 1, rng=0)
    >>> Y, X = make_signals(V, 18, BernoulliUniform(0.5), rng=1)
    >>> H = estimate_householder(Y, theta=0.5, mu=1.5)
    >>> bool(vector_error(V.vectors[:, 0], H.vectors[:, 0]) < 0.03)
    True
    """
    return HouseholderProduct(estimate_householder_vector(Y, theta, mu))


def estimate_householder_given(Y, Q, theta: float | None = None, mu: float | None = None
                               ) -> HouseholderProduct:
    """Algorithm 2: estimate $H$ from $Y = HQX$ with $Q$ known.

    Parameters
    ----------
    Y : array_like of shape (n, p) or SignalStatistics
        Signals as columns.
    Q : HouseholderProduct, array_like of shape (n, n), or array_like of shape (n,)
        The known orthogonal factor, or directly the vector $Q\\mathbf 1$.
    theta, mu : float, optional
        Both (oracle) or neither (blind).

    Returns
    -------
    HouseholderProduct
        The reflector $H$ alone (not $HQ$).

    Examples
    --------
    >>> from gsp_householder import (BernoulliUniform, estimate_householder_given,
    ...                              make_signals, random_householder_product, basis_error)
    >>> H, Q = random_householder_product(500, 1, rng=0), random_householder_product(500, 1, rng=1)
    >>> Y, _ = make_signals(H @ Q, 50, BernoulliUniform(0.5), rng=2)
    >>> H_hat = estimate_householder_given(Y, Q, theta=0.5, mu=1.5)
    >>> bool(basis_error(H, H_hat) < 0.5)
    True
    """
    stats = as_statistics(Y)
    s = _ones_image(Q, stats.n_nodes)
    return HouseholderProduct(estimate_householder_vector(stats, theta, mu, s=s))


def _initial_vectors(init, n: int, m: int) -> list[np.ndarray | None]:
    if init is None:
        return [None] * m
    if isinstance(init, HouseholderProduct):
        if init.n != n:
            raise ValueError(f"init has n={init.n}, but Y has {n} rows")
        if np.any(init.signs < 0):
            raise ValueError("init must be a product of reflectors without a sign diagonal")
        U = init.vectors
    else:
        U = check_real_array(init, "init", ndim=2, allow_float32=False)
        if U.shape[0] != n:
            raise ValueError(f"init must have {n} rows to match Y, got shape {U.shape}")
        U = HouseholderProduct(U).vectors
    if U.shape[1] != m:
        raise ValueError(f"init must have n_reflectors={m} reflectors, got {U.shape[1]}")
    return [U[:, i].copy() for i in range(m)]


def _reflect(u: np.ndarray | None, x: np.ndarray) -> np.ndarray:
    """$(I - 2uu^T) x$ for a vector or a matrix (identity when ``u`` is None)."""
    if u is None:
        return x
    return x - 2.0 * np.outer(u, u @ x) if x.ndim == 2 else x - 2.0 * u * (u @ x)


def estimate_householder_product(Y, n_reflectors: int, theta: float | None = None,
                                 mu: float | None = None, *, init=None,
                                 method: str = "statistics", prune: bool = True
                                 ) -> HouseholderProduct:
    """Algorithm 3: estimate $V = H_1 \\cdots H_m$ one reflector at a time.

    Step $i$ writes $Y = W H_i Q X$ with $W = \\hat H_1 \\cdots \\hat H_{i-1}$
    (already estimated) and $Q = H_{i+1} \\cdots H_m$ (from ``init``), and applies
    Algorithm 2 to $W^T Y$ with $s = Q\\mathbf 1$.

    Parameters
    ----------
    Y : array_like of shape (n, p) or SignalStatistics
        Signals as columns.
    n_reflectors : int
        Number $m$ of reflectors, ``1 <= m <= n``.
    theta, mu : float, optional
        Both (oracle) or neither (blind scale).
    init : HouseholderProduct or array_like of shape (n, m), optional
        Initial reflectors; default identity (the paper's choice).
    method : {"statistics", "paper-loop"}, default "statistics"
        ``"statistics"``: one pass over ``Y`` for its row sums, then $O(mn)$
        (Algorithm 2 reads $W^T Y$ only through $W^T \\bar y$).
        ``"paper-loop"``: the paper's literal loop updating $Y \\leftarrow H_i^T Y$,
        $O(nmp)$; kept as a reference (needs the array ``Y``).
    prune : bool, default True
        Keep the identity at a step whose $\\|k\\|^2$ does not exceed what sampling
        noise alone gives, $\\sum_i s_i^2 / (4 p a^2)$ (row sample variances $s_i^2$):
        such a reflector is fitted to noise. ``False`` keeps every step, as the paper
        does.

    Returns
    -------
    HouseholderProduct
        At most ``n_reflectors`` reflectors (pruned steps and steps with $k = 0$
        exactly keep the identity; a `DegenerateStatisticsWarning` says how
        many).

    Notes
    -----
    From the identity start, step 2 sees the residual $\\mathbf 1 - \\hat H_1 \\bar y / a$,
    which is exactly parallel to $u_1$: $\\hat H_1$ maps $\\bar y/a$ to $\\mathbf 1$ up to
    the mismatch of their norms, and the mismatch lies along $u_1$. Every later
    $u_i$ is then $\\pm u_1$, and with unit vectors the product collapses to $I$
    (even $m$) or $\\hat H_1$ (odd $m$). The first moment identifies $V\\mathbf 1$
    only; with ``prune=True`` the estimate is the single reflector mapping
    $\\mathbf 1$ to the mean direction, the best first-moment estimate.

    The paper's listing uses $Z[i] = H_i Z[i+1]$ as $Q\\mathbf 1$ in step $i$; its
    derivation (and this function) uses $Q = H_{i+1} \\cdots H_m$, i.e. $Z[i+1]$.
    The two agree for the identity start.

    Examples
    --------
    >>> import warnings
    >>> from gsp_householder import (BernoulliUniform, estimate_householder_product,
    ...                              make_signals, random_householder_product, basis_error)
    >>> V = random_householder_product(1000, 10, rng=0)
    >>> Y, _ = make_signals(V, 20, BernoulliUniform(0.5), rng=1)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     V_hat = estimate_householder_product(Y, 10, theta=0.5, mu=1.5)
    >>> V_hat.m                           # steps 2-10 are pure noise
    1
    >>> bool(basis_error(V, V_hat) < basis_error(V, V.identity(1000)))
    True
    """
    if method not in ("statistics", "paper-loop"):
        raise ValueError(f"method must be 'statistics' or 'paper-loop', got {method!r}")
    if method == "paper-loop" and isinstance(Y, SignalStatistics):
        raise TypeError("method='paper-loop' needs the array Y, not SignalStatistics")
    Y_arr = check_signals(Y) if method == "paper-loop" else None
    stats = SignalStatistics.from_array(Y_arr) if Y_arr is not None else as_statistics(Y)
    n = stats.n_nodes
    m = check_scalar(n_reflectors, "n_reflectors", low=1, low_inclusive=True, integer=True)
    if m > n:
        raise ValueError(f"n_reflectors must be at most n = {n}, got {m}")
    # the basis of the plane of Algorithm 3 (below) is an n x 2 array whose rows first
    # hold the variances, then mean / scale: the statistics' own buffer when they were
    # computed here from an array (they are not seen again), else a new one
    in_plane = init is None and Y_arr is None
    columns = _own_statistics_buffer(stats) if in_plane and stats is not Y else None
    if columns is None:
        columns = np.empty((2, n))
        scratch = columns[0]
    else:  # the variances overwrite the sums of squares they are computed from
        scratch = columns[1]
    scale, noise = _scale_and_noise(stats, theta, mu, scratch=scratch)
    vectors = _initial_vectors(init, n, m)

    if in_plane:
        basis, coef, dropped = _algorithm3_in_plane(
            columns, stats.row_sums, 1.0 / (stats.count * scale), m, noise, prune)
        U = None
    else:
        vectors, dropped = _algorithm3_vectors(stats, Y_arr, scale, vectors, noise, prune)
        kept = [v for v in vectors if v is not None]
        U = np.column_stack(kept) if kept else np.zeros((n, 0))
    if dropped:
        warn_at_caller(
            f"{len(dropped)} of {m} reflectors were not identifiable from the mean column "
            f"(steps {dropped}: k = 0 or within sampling noise) and were left as the identity; "
            "the first moment identifies V·1 only",
            DegenerateStatisticsWarning)
    if U is None:
        if coef.shape[1] == 0:
            return HouseholderProduct.identity(n)
        # the kept reflectors lie in a plane: keep them factored, formed only on demand
        return HouseholderProduct._trusted_factored(basis, coef)
    if U.shape[1] == 0:
        return HouseholderProduct.identity(n)
    # k / ||k|| is unit up to rounding: skip re-validation
    return HouseholderProduct._trusted(U, None)


def _algorithm3_vectors(stats, Y_arr, scale, vectors, noise, prune):
    """Algorithm 3 on n-vectors (or, for the paper loop, on the whole array)."""
    n, m = stats.n_nodes, len(vectors)
    # Z[i] = H_i ... H_{m-1} 1 (0-based); Z[m] = 1.
    Z = [None] * (m + 1)
    Z[m] = np.ones(n)
    for i in range(m - 1, -1, -1):
        Z[i] = _reflect(vectors[i], Z[i + 1])

    ybar = stats.mean / scale
    dropped = []
    for i in range(m):
        if Y_arr is not None:
            ybar = Y_arr.mean(axis=1) / scale
        u, significant = _reflector_from_mean(ybar, Z[i + 1], normalize=True, noise=noise,
                                              step=f"reflector {i + 1} of {m}",
                                              warn_noise=not prune)
        if u is None or (prune and not significant):
            u = None
            dropped.append(i + 1)
        vectors[i] = u
        if Y_arr is not None:
            Y_arr = _reflect(u, Y_arr)
        else:
            ybar = _reflect(u, ybar)
    return vectors, dropped


def _plane_basis(columns: np.ndarray, sums: np.ndarray, factor: float
                 ) -> tuple[np.ndarray, tuple[float, float], tuple[float, float]]:
    """Orthonormal basis of the span of $\\mathbf 1$ and $y_0$ = ``sums * factor``, and
    their coordinates.

    ``columns`` (2, n) is overwritten by the basis (no other n-vector is allocated);
    ``sums`` may be its first row. Returns ``basis`` (n, r), ``one`` and ``y`` (pairs of
    floats) with $\\mathbf 1 = B\\,$``one`` and $y_0 = B\\,$``y`` up to rounding,
    where $r = 1$ (and the second coordinates are 0) when $y_0$ is a multiple of
    $\\mathbf 1$. Gram-Schmidt against $\\mathbf 1/\\sqrt n$, repeated until the norm of
    the remainder stops dropping, keeps the basis orthogonal to working precision.
    Each step is one pass over an n-vector that also gives its sum and squared norm
    (`affine_moments`).
    """
    n = columns.shape[1]
    root = np.sqrt(n)
    rest = columns[1]  # the basis is columns.T: two contiguous columns
    total, norm_sq = affine_moments(sums, factor, 0.0, rest)  # rest = y_0
    along = total / root
    norm_before = np.sqrt(norm_sq)
    total, norm_sq = affine_moments(rest, 1.0, -(along / root), rest)
    norm_rest = np.sqrt(norm_sq)
    for _ in range(2):
        if norm_rest == 0.0 or norm_rest > 0.5 * norm_before:
            break
        correction = total / root
        along += correction
        total, norm_sq = affine_moments(rest, 1.0, -(correction / root), rest)
        norm_before, norm_rest = norm_rest, np.sqrt(norm_sq)
    columns[0] = 1.0 / root
    if not norm_rest > 0.0:
        return columns[:1].T, (float(root), 0.0), (float(along), 0.0)
    affine_moments(rest, 1.0 / norm_rest, 0.0, rest)
    return columns.T, (float(root), 0.0), (float(along), float(norm_rest))


def _algorithm3_in_plane(columns: np.ndarray, sums: np.ndarray, factor: float, m: int,
                         noise, prune: bool):
    """Algorithm 3 from the identity start, in the plane spanned by $\\mathbf 1$ and $\\bar y$.

    With every initial $H_i = I$, $s = \\mathbf 1$ at each step, and each
    $k$ and each reflected mean is a combination of $\\mathbf 1$ and the scaled
    mean column $y_0$ = ``sums * factor``. The steps therefore run on the two
    coordinates of these vectors in an orthonormal basis $B$ of that plane: $O(n)$ for
    the basis, $O(m)$ scalar operations for the steps. ``columns`` (2, n) becomes $B^T$
    (`_plane_basis`). Returns $B$ (n, r), the coordinates $C$ (r, m_kept) of the kept
    unit reflector vectors ($U = BC$) and the 1-based steps left as the identity.
    """
    n = columns.shape[1]
    basis, (o0, o1), (y0, y1) = _plane_basis(columns, sums, factor)
    tiny = (1e-12 * np.sqrt(n)) ** 2
    coefficients: list[tuple[float, float]] = []
    dropped = []
    for i in range(m):
        k0, k1 = 0.5 * (o0 - y0), 0.5 * (o1 - y1)
        norm_sq = k0 * k0 + k1 * k1
        significant = noise is None or norm_sq > noise
        if norm_sq <= tiny or (prune and not significant):
            dropped.append(i + 1)
            continue
        step = f"reflector {i + 1} of {m}"
        if not significant:
            warn_at_caller(
                f"{step}: the mean column differs from its value without this reflector by no "
                f"more than sampling noise (||k||^2 = {norm_sq:.3g} <= {noise:.3g}); the "
                "reflector is fitted to noise", DegenerateStatisticsWarning)
        elif k0 * o0 + k1 * o1 <= 0:
            warn_at_caller(f"{step}: the radicand sum_i k_i s_i is not positive; the data are "
                           "not consistent with Y = H Q X at this scale (normalising k instead)",
                           DegenerateStatisticsWarning)
        length = math.sqrt(norm_sq)
        u0, u1 = k0 / length, k1 / length
        unit = math.sqrt(u0 * u0 + u1 * u1)  # unit to the last bit: U = B C has unit columns
        u0, u1 = u0 / unit, u1 / unit
        coefficients.append((u0, u1))
        along = u0 * y0 + u1 * y1
        y0, y1 = y0 - 2.0 * u0 * along, y1 - 2.0 * u1 * along
    r = basis.shape[1]
    coef = np.array(coefficients).T[:r] if coefficients else np.zeros((r, 0))
    return basis, coef, dropped
