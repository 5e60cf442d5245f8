"""Sparse codes for a given orthogonal dictionary: hard thresholding of $V^T Y$.

For an orthogonal $V$ the least-squares code of $Y$ is $V^T Y$; the sparse code
keeps its large entries, $HT_\\zeta(V^T Y)$ with
$HT_\\zeta(x) = x \\cdot \\mathbb 1(|x| \\ge \\zeta)$ (the paper's step), or the
``s`` largest entries of each column (the $\\ell_0$-constrained code).
"""

from __future__ import annotations

import numpy as np

from gsp_householder._validation import check_real_array, check_scalar, check_signals
from gsp_householder.householder import HouseholderProduct

__all__ = ["sparse_code", "hard_threshold", "keep_largest", "two_means_threshold"]


def hard_threshold(C: np.ndarray, threshold: float) -> np.ndarray:
    """$HT_\\zeta(C)$: zero every entry with $|C_{ij}| < \\zeta$ (a new array).

    Parameters
    ----------
    C : ndarray
        Coefficients.
    threshold : float
        $\\zeta \\ge 0$.

    Returns
    -------
    ndarray of the shape and dtype of ``C``

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning.sparse_coding import hard_threshold
    >>> hard_threshold(np.array([0.2, -1.0, 0.7]), 0.5)
    array([ 0. , -1. ,  0.7])
    """
    threshold = check_scalar(threshold, "threshold", low=0.0, low_inclusive=True)
    C = np.asarray(C)
    if C.dtype.kind == "f" and threshold > float(np.finfo(C.dtype).max):
        threshold = np.inf  # no entry reaches it (and the cast to float32 would overflow)
    return np.where(np.abs(C) >= threshold, C, 0)


def keep_largest(C: np.ndarray, sparsity: int) -> np.ndarray:
    """Keep the ``sparsity`` entries of largest magnitude in each column (a new array).

    Parameters
    ----------
    C : ndarray of shape (n, p)
        Coefficients, one column per signal.
    sparsity : int
        Entries kept per column, ``0 <= sparsity <= n``.

    Returns
    -------
    ndarray of shape (n, p)

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning.sparse_coding import keep_largest
    >>> keep_largest(np.array([[3.0], [-4.0], [1.0]]), 1)
    array([[ 0.],
           [-4.],
           [ 0.]])
    """
    n = C.shape[0]
    s = check_scalar(sparsity, "sparsity", low=0, low_inclusive=True, integer=True)
    if s > n:
        raise ValueError(f"sparsity must be at most the number of rows {n}, got {s}")
    if s == n:
        return np.array(C, copy=True)
    out = np.zeros_like(C)
    if s == 0:
        return out
    idx = np.argpartition(-np.abs(C), s - 1, axis=0)[:s]
    np.put_along_axis(out, idx, np.take_along_axis(C, idx, axis=0), axis=0)
    return out


def two_means_threshold(C: np.ndarray, n_iter: int = 50) -> float:
    """Threshold splitting $|C|$ into a near-zero and a large cluster (1-D 2-means).

    Lloyd's iterations on the magnitudes, started at their minimum and maximum;
    the threshold is the midpoint of the two centres. When the lower centre is
    not well separated from zero (above a third of the upper centre, as for
    $\\theta \\to 1$, where no entry is zero), there is no zero cluster and the
    threshold is half the smallest magnitude, so that nothing is removed.

    Parameters
    ----------
    C : array_like
        Coefficients (any shape); only their magnitudes are used.
    n_iter : int, default 50
        Maximum number of Lloyd iterations.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning.sparse_coding import two_means_threshold
    >>> rng = np.random.default_rng(0)
    >>> codes = rng.uniform(1, 2, 1000) * (rng.random(1000) < 0.5)
    >>> round(two_means_threshold(codes + 0.01 * rng.standard_normal(1000)), 2)
    0.76
    >>> two_means_threshold(rng.uniform(1, 2, 1000)) < 1      # no zero cluster: keep all
    True
    """
    a = np.abs(np.asarray(C, dtype=np.float64)).ravel()
    lo, hi = float(a.min()), float(a.max())
    if hi == lo:
        return 0.5 * lo
    c0, c1 = lo, hi
    for _ in range(n_iter):
        t = 0.5 * (c0 + c1)
        upper = a >= t
        new0 = float(a[~upper].mean()) if (~upper).any() else c0
        new1 = float(a[upper].mean()) if upper.any() else c1
        if new0 == c0 and new1 == c1:
            break
        c0, c1 = new0, new1
    if c0 > c1 / 3.0:
        return 0.5 * lo
    return 0.5 * (c0 + c1)


def sparse_code(V, Y, threshold: float | None = None, sparsity: int | None = None
                ) -> np.ndarray:
    """Sparse codes $\\hat X = HT_\\zeta(V^T Y)$ of signals ``Y`` in dictionary ``V``.

    Parameters
    ----------
    V : HouseholderProduct or array_like of shape (n, n)
        Orthogonal dictionary.
    Y : array_like of shape (n, p)
        Signals as columns.
    threshold : float, optional
        $\\zeta \\ge 0$. Default: `two_means_threshold` of $V^T Y$, which
        separates the near-zero entries from the values on the support without
        knowing the model: for the paper's model (values in [1, 2]) it lands near
        the midpoint between 0 and the mean non-zero value, about 0.75, which is
        below the smallest non-zero value 1 and far above the noise at 20 dB.
        Pass ``threshold=low / 2`` when the value range ``[low, high]`` is known.
    sparsity : int, optional
        Keep instead the ``sparsity`` largest entries of each column; exclusive
        with ``threshold``.

    Returns
    -------
    ndarray of shape (n, p)

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import HouseholderProduct, sparse_code
    >>> V = HouseholderProduct(np.ones(3))
    >>> X = np.array([[0.0, 1.5], [2.0, 0.0], [0.0, 0.0]])
    >>> np.allclose(sparse_code(V, V @ X, threshold=0.5), X)
    True
    >>> sparse_code(V, V @ X, sparsity=1).round(12)
    array([[0. , 1.5],
           [2. , 0. ],
           [0. , 0. ]])
    """
    Y = check_signals(Y, min_rows=1)
    if threshold is not None and sparsity is not None:
        raise ValueError("give threshold or sparsity, not both")
    if isinstance(V, HouseholderProduct):
        if V.n != Y.shape[0]:
            raise ValueError(f"shape mismatch: V is {V.n} x {V.n}, Y has shape {Y.shape}")
        C = V.T @ Y
    else:
        V = check_real_array(V, "V", ndim=2)
        if V.shape != (Y.shape[0], Y.shape[0]):
            raise ValueError(f"shape mismatch: V has shape {V.shape}, Y has shape {Y.shape}")
        C = V.T @ Y
    if sparsity is not None:
        return keep_largest(C, sparsity)
    if threshold is None:
        threshold = two_means_threshold(C)
    return hard_threshold(C, threshold)
