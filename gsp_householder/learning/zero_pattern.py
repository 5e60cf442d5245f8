"""Refine an orthogonal dictionary with the zeros of its codes.

In the paper's model a code is either exactly zero or in $[\\ell, h]$ with
$\\ell > 0$. Near the truth, $C = V^T Y$ splits into a cluster at zero and a
cluster of values near $[\\ell, h]$: a threshold between them (half of $\\ell$
when it is known, else `gap_threshold`: the two-means level of
`gsp_householder.learning.sparse_coding.two_means_threshold`, moved down into
the gap above the zero cluster when it lies inside wide non-zero codes) gives
the support $\\Omega$. The refinement alternates

$$ \\hat X = P_\\Omega(\\Pi(C)), \\qquad V = \\operatorname{polar}(Y \\hat X^T), $$

($\\Pi$ clips to $[\\ell, h]$ when known) until the support stops changing and
$V$ stops moving. With the right support and no noise, the truth is a fixed
point and the iteration converges to it linearly: the zeros pin every column
down to machine precision, which no moment-based contrast does from finitely
many signals.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gsp_householder.learning._orthogonal import polar_factor
from gsp_householder.learning.sparse_coding import two_means_threshold

__all__ = ["gap_threshold", "support_codes", "support_threshold", "zero_cluster_balance",
           "zero_cluster_spread", "zero_pattern_refinement"]

# entries of V^T Y used to choose the blind threshold (gap_threshold)
_THRESHOLD_SAMPLE = 1 << 16
# gap_threshold moves the two-means level only into an empty interval (a, b) of the
# magnitudes with b >= 2 a: a gap as wide as the values it separates
_GAP = 0.5


def support_codes(C: np.ndarray, low: float | None = None, high: float | None = None, *,
                  sample: int = _THRESHOLD_SAMPLE) -> tuple[np.ndarray, np.ndarray]:
    """Codes and support from coefficients ``C = V^T Y`` with non-negative non-zero codes.

    The support is ``C > low / 2`` when ``low > 0`` is known, else ``C`` above the
    `gap_threshold` of at most ``sample`` ($2^{16}$) evenly spaced entries; kept entries are
    clipped to ``[low, high]`` when both are known. Internal helper: ``C`` is a
    validated float array.

    Parameters
    ----------
    C : ndarray
        Coefficients $V^T Y$.
    low, high : float, optional
        Value range of the non-zero codes, ``0 <= low < high``.
    sample : int, default 65536
        Number of entries the blind level is computed from (at least about this
        many: every ``C.size // sample``-th entry).

    Returns
    -------
    codes : ndarray, same shape as ``C``
    support : ndarray of bool

    Examples
    --------
    >>> import numpy as np
    >>> codes, support = support_codes(np.array([[0.01, 1.2], [2.5, -0.02]]), 1.0, 2.0)
    >>> codes
    array([[0. , 1.2],
           [2. , 0. ]])
    """
    support = C > support_threshold(C, low, sample=sample)
    kept = np.clip(C, low, high) if low is not None and high is not None else C
    return np.where(support, kept, 0.0), support


def support_threshold(C: np.ndarray, low: float | None = None, *,
                      sample: int = _THRESHOLD_SAMPLE) -> float:
    """The level above which an entry of ``C = V^T Y`` is on the support.

    ``low / 2`` when ``low > 0`` is known, else `gap_threshold` of every
    ``C.size // sample``-th entry. Internal helper: ``C`` is a validated float array.

    Parameters
    ----------
    C : ndarray
        Coefficients $V^T Y$.
    low : float, optional
        Smallest non-zero code, if known.
    sample : int, default 65536
        Number of entries the blind level is computed from (about).

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> support_threshold(np.array([[0.01, 1.2], [2.5, -0.02]]), 1.0)
    0.5
    """
    if low is not None and low > 0:
        return 0.5 * low
    step = max(1, C.size // sample)
    return gap_threshold(C.ravel()[::step])


def gap_threshold(values: np.ndarray) -> float:
    """A level between the zero cluster and the non-zero codes, whatever their range.

    The two-means level (`gsp_householder.learning.sparse_coding.two_means_threshold`)
    is the midpoint of the two clusters' centres. It lies between the clusters when the
    non-zero codes are narrow against their distance from zero (codes in $[1, 2]$: the
    level is about 0.75), but inside them when they are wide (codes in $[1, 10]$: about
    3.4, which puts a quarter of the non-zero codes in the zero cluster). So the level is
    moved down into the relatively widest empty interval between the sorted magnitudes
    below it: the interval $(a, b)$ between consecutive magnitudes with the largest
    $(b - a) / b$ (the last interval, reaching past the level, included), whose middle
    is returned unless it is the interval that holds the level or is no gap, narrower
    than $b / 2$ (the level is then kept: between clusters that touch, as on the way
    to the truth, the relative spacings are a few hundredths, and moving the level
    among them only perturbs the iterations).
    Intervals start above the zero cluster's bulk: at the largest magnitude of the
    negative values (the non-zero codes are positive, so the negative values belong to
    the zero cluster and mirror its extent) and at least at the lower quartile of the
    magnitudes below the level, so that the gaps between tiny values in the zero
    cluster, which are wide relative to their ends, do not count. Near the truth
    without noise the zero cluster is at rounding level and the interval found is
    $(0, \\ell)$ up to rounding: the level is then about $\\ell / 2$, the threshold
    used when $\\ell$ is known, and the support is exact even when $\\ell$ is small
    against the range, or zero.
    Internal helper: ``values`` is a validated float array.

    Parameters
    ----------
    values : ndarray
        Coefficients (any shape), their non-zero codes positive.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning.sparse_coding import two_means_threshold
    >>> rng = np.random.default_rng(0)
    >>> codes = rng.uniform(1, 10, 2000) * (rng.random(2000) < 0.2)
    >>> codes += 1e-3 * rng.standard_normal(2000) * (codes == 0)
    >>> round(two_means_threshold(codes), 1), round(gap_threshold(codes), 1)
    (3.4, 0.5)
    """
    a = np.abs(values).ravel()
    level = two_means_threshold(a)
    is_below = a < level
    below = a[is_below]
    if below.size == 0 or below.size == a.size:
        return level
    quartile = below.size // 4
    anchor = max(-min(float(values.min()), 0.0),
                 float(np.partition(below, quartile)[quartile]))
    lowest_above = float(np.min(a, where=~is_below, initial=np.inf))
    edges = np.concatenate(([anchor], np.sort(below[below > anchor]), [lowest_above]))
    relative = np.diff(edges) / edges[1:]
    widest = int(np.argmax(relative))
    if widest == edges.size - 2 or relative[widest] < _GAP:
        return level                         # the level lies in the widest gap, or no gap
    return 0.5 * float(edges[widest] + edges[widest + 1])


def zero_cluster_balance(C: np.ndarray, support: np.ndarray) -> float:
    """Energy of the negative off-support codes over that of the positive ones.

    At the truth the off-support entries of $C = V^T Y$ are $V^T$ times the
    noise (exact zeros without noise), symmetric about zero: the ratio is
    about 1 (noise large against the gap between 0 and $\\ell$ lowers it: about
    0.5 at 10 dB SNR in the paper's model). At a wrong stationary point the
    zero cluster is made of mixtures of non-negative codes and leans positive:
    measured 0.1-0.2. Entries below $10^{-24} \\|C\\|_F^2$ count as balanced.
    Internal helper: ``C`` and the boolean ``support`` are validated arrays of
    the same shape.

    Parameters
    ----------
    C : ndarray
        Coefficients $V^T Y$.
    support : ndarray of bool
        The support, as returned by `support_codes`.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[1.5, -0.1, 0.1], [0.0, 2.0, 0.05]])
    >>> round(zero_cluster_balance(C, C > 0.75), 3)
    0.8
    """
    off = np.where(support, 0.0, C)
    floor = 1e-24 * float(np.sum(C * C))
    negative = float(np.sum(np.minimum(off, 0.0) ** 2))
    positive = float(np.sum(np.maximum(off, 0.0) ** 2))
    return (negative + floor) / (positive + floor)


def zero_cluster_spread(C: np.ndarray, support: np.ndarray) -> tuple[float, int]:
    """Largest over median mean square of the rows' off-support codes.

    At the truth every row's off-support entries are noise of the same variance
    (exact zeros without noise), so the ratio is about 1 (measured 1.0-1.4); a
    column of a near miss (a few columns mixed) leaves codes of other columns in
    its zero cluster: measured 5-10. Mean squares below $10^{-20}$ times that of
    $C$ count as zero. Internal helper: ``C`` and the boolean ``support`` are
    validated arrays of the same shape.

    Parameters
    ----------
    C : ndarray of shape (n, p)
        Coefficients $V^T Y$.
    support : ndarray of bool, shape (n, p)
        The support, as returned by `support_codes`.

    Returns
    -------
    spread : float
    count : int
        The smallest number of off-support entries in a row (the sample size
        behind each mean square).

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[2.0, 0.1, -0.1, 0.1], [1.5, 0.1, -0.1, 0.1], [1.8, 0.5, -0.5, 0.5]])
    >>> spread, count = zero_cluster_spread(C, C > 0.75)
    >>> round(spread, 6), count
    (25.0, 3)
    """
    off = np.where(support, 0.0, C)
    count = np.maximum((~support).sum(axis=1), 1)
    mean_square = (off * off).sum(axis=1) / count + 1e-20 * float(np.mean(C * C))
    return float(mean_square.max() / np.median(mean_square)), int(count.min())


def zero_pattern_refinement(Y: np.ndarray, V: np.ndarray, *, low: float | None = None,
                            high: float | None = None, max_iter: int = 200,
                            tol: float = 1e-12,
                            callback: Callable[[int, float, float], None] | None = None
                            ) -> tuple[np.ndarray, dict[str, list[float]], bool]:
    """Procrustes against the thresholded (and clipped) non-negative codes until settled.

    Internal helper: ``Y`` (float64, shape (n, p), finite) and the orthogonal
    ``V`` are taken as validated, with the codes' non-zero values positive
    (``0 <= low < high`` when given).

    Parameters
    ----------
    Y : ndarray of shape (n, p)
        Signals (not centred).
    V : ndarray of shape (n, n)
        Orthogonal start, close enough to the truth for most of the support to
        be right.
    low, high : float, optional
        Value range of the non-zero codes. ``low > 0`` sets the threshold to
        ``low / 2``; both clip the kept codes to ``[low, high]``.
    max_iter : int
        Maximum number of Procrustes steps.
    tol : float
        Settled when the support did not change and $\\|V_{k+1} - V_k\\|_F \\le$
        ``tol * sqrt(n)``.
    callback : callable, optional
        Called as ``callback(iteration, residual, change)`` after each step.

    Returns
    -------
    V : ndarray of shape (n, n)
    history : dict
        ``"residual"`` ($\\|Y - V_k \\hat X_k\\|_F / \\|Y\\|_F$, before the step), ``"change"``
        ($\\|V_{k+1} - V_k\\|_F$) and ``"support_changes"`` per iteration.
    converged : bool

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning._orthogonal import cayley, random_orthogonal, skew
    >>> rng = np.random.default_rng(0)
    >>> V_true = random_orthogonal(10, rng)
    >>> X = rng.uniform(1, 2, (10, 100)) * (rng.random((10, 100)) < 0.5)
    >>> start = V_true @ cayley(0.02 * skew(rng.standard_normal((10, 10))))
    >>> V, history, converged = zero_pattern_refinement(V_true @ X, start)
    >>> converged, float(np.linalg.norm(V - V_true)) < 1e-10
    (True, True)
    """
    n = V.shape[0]
    norm_y = float(np.linalg.norm(Y)) or 1.0
    history: dict[str, list[float]] = {"residual": [], "change": [], "support_changes": []}
    support = None
    step_tol = tol * np.sqrt(n)
    for it in range(1, max_iter + 1):
        C = V.T @ Y
        codes, new_support = support_codes(C, low, high)
        changes = (int(new_support.size) if support is None
                   else int(np.count_nonzero(new_support != support)))
        support = new_support
        V_new = polar_factor(Y @ codes.T)
        change = float(np.linalg.norm(V_new - V))
        V = V_new
        history["residual"].append(float(np.linalg.norm(C - codes)) / norm_y)
        history["change"].append(change)
        history["support_changes"].append(float(changes))
        if callback is not None:
            callback(it, history["residual"][-1], change)
        if changes == 0 and change <= step_tol:
            return V, history, True
    return V, history, False
