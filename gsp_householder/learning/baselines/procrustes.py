"""Orthogonal Procrustes baselines: the known-codes oracle and alternating minimisation.

The orthogonal Procrustes problem $\\min_{V^T V = I} \\|Y - V X\\|_F$ is solved by the
polar factor of $M = Y X^T$ (Schönemann 1966): with $M = U \\Sigma W^T$,
$V = U W^T$. When $M$ has rank $r < n$ (always so with $p < n$ signals) the
factor is fixed only on the $r$-dimensional ranges: on their orthogonal
complements any orthogonal map fits the data equally well. A plain SVD picks
one arbitrarily (whatever LAPACK returns); the *identity completion* picks the
one closest to the identity, which maps the complement of
$\\operatorname{span}(U_r, W_r)$ to itself and is the identity there, so that
$V = I + B (R - I) B^T$ with $B$ an orthonormal basis of
$\\operatorname{span}(U_r, W_r)$ (at most $2r$ columns) and $R$ orthogonal of
that size. It costs $O(np^2)$ and is returned as a HouseholderProduct with at
most $2r$ reflectors.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._validation import check_scalar, check_signals
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.householder import HouseholderProduct
from gsp_householder.learning.baselines._common import as_operator, residual
from gsp_householder.learning.result import DictionaryResult
from gsp_householder.learning.sparse_coding import sparse_code, two_means_threshold

__all__ = ["polar_factor", "procrustes_altmin", "procrustes_oracle"]

_COMPLETIONS = ("arbitrary", "identity")


def _check_completion(completion) -> str:
    if completion not in _COMPLETIONS:
        raise ValueError(f"completion must be 'arbitrary' or 'identity', got {completion!r}")
    return completion


def _polar_identity(Y: np.ndarray, X: np.ndarray) -> HouseholderProduct:
    """Identity-closest orthogonal $V$ maximising $\\operatorname{tr}(V^T Y X^T)$."""
    n, p = Y.shape
    # Thin factorisations: Y = Qy Ry, X = Qx Rx, so Y X^T = Qy (Ry Rx^T) Qx^T.
    Qy, Ry = np.linalg.qr(Y)
    Qx, Rx = np.linalg.qr(X)
    a, s, bt = np.linalg.svd(Ry @ Rx.T)
    tol = max(s[0], 0.0) * max(n, p) * np.finfo(float).eps if s.size else 0.0
    r = int(np.sum(s > tol))
    if r == 0:
        return HouseholderProduct.identity(n)
    Ur = Qy @ a[:, :r]            # range of M
    Wr = Qx @ bt[:r].T            # range of M^T
    # Orthonormal basis B of span(Ur, Wr); V = I + B (R - I) B^T.
    B, _ = np.linalg.qr(np.hstack([Ur, Wr]))
    keep = np.linalg.norm(B, axis=0) > 0.5
    B = B[:, keep]
    ur, wr = B.T @ Ur, B.T @ Wr   # coordinates in B (orthonormal columns)
    k = B.shape[1]
    if k > r:
        # complements of span(ur) and span(wr) inside R^k, mapped identity-closest
        uc = scipy.linalg.null_space(ur.T)
        wc = scipy.linalg.null_space(wr.T)
        c1, _, c2t = np.linalg.svd(uc.T @ wc)
        R = ur @ wr.T + uc @ (c1 @ c2t) @ wc.T
    else:
        R = ur @ wr.T
    small = HouseholderProduct.from_orthogonal(R, method="minimal", atol=1e-7 * np.sqrt(k))
    if small.m == 0:
        return HouseholderProduct.identity(n)
    return HouseholderProduct(B @ small.vectors)


def polar_factor(Y, X, completion: str = "arbitrary"):
    """Orthogonal $V$ maximising $\\operatorname{tr}(V^T Y X^T)$, i.e. minimising $\\|Y - VX\\|_F$.

    Parameters
    ----------
    Y, X : array_like of shape (n, p)
        Signals and codes (columns are signals).
    completion : {"arbitrary", "identity"}, default "arbitrary"
        How the factor is completed on the null space of $Y X^T$ when its rank
        is below $n$: ``"arbitrary"`` as a plain SVD returns it (dense
        ndarray, $O(n^3)$); ``"identity"`` as the identity there
        (HouseholderProduct with at most $2 \\min(n, p)$ reflectors, $O(np^2)$).

    Returns
    -------
    ndarray of shape (n, n) or HouseholderProduct

    Raises
    ------
    ValueError
        If the shapes differ or ``completion`` is unknown.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning.baselines import polar_factor
    >>> Q, _ = np.linalg.qr(np.random.default_rng(0).standard_normal((4, 4)))
    >>> X = np.random.default_rng(1).standard_normal((4, 6))
    >>> bool(np.allclose(polar_factor(Q @ X, X), Q))
    True
    """
    Y = check_signals(Y, "Y")
    X = check_signals(X, "X")
    if X.shape != Y.shape:
        raise ValueError(f"X must have the shape of Y {Y.shape}, got {X.shape}")
    completion = _check_completion(completion)
    Y = np.asarray(Y, dtype=np.float64)
    X = np.asarray(X, dtype=np.float64)
    if completion == "identity":
        return _polar_identity(Y, X)
    U, _, Wt = np.linalg.svd(Y @ X.T)
    return U @ Wt


def procrustes_oracle(Y, X, completion: str = "arbitrary") -> DictionaryResult:
    """Best-case orthogonal Procrustes: the dictionary fitted with the true codes known.

    Solves $\\min_{V^T V = I} \\|Y - V X\\|_F$ by the polar factor of $Y X^T$. With
    $p \\ge n$ generic signals the solution is unique and, without noise, exact.
    With $p < n$ it is unique only on the $p$-dimensional ranges of $Y X^T$; the
    rest is the ``completion`` (see the module notes).

    Parameters
    ----------
    Y : array_like of shape (n, p)
        Signals.
    X : array_like of shape (n, p)
        The true codes.
    completion : {"arbitrary", "identity"}, default "arbitrary"
        ``"arbitrary"``: plain SVD (the textbook solution; dense result).
        ``"identity"``: identity on the complement (HouseholderProduct).

    Returns
    -------
    DictionaryResult
        ``dictionary`` the estimate, ``codes`` a copy of ``X``, ``history``
        ``{"objective": [||Y - V X||_F]}``, ``n_iter = 1``, ``converged = True``.

    Raises
    ------
    ValueError
        If ``X`` and ``Y`` differ in shape or ``completion`` is unknown.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import HouseholderProduct
    >>> from gsp_householder.learning.baselines import procrustes_oracle
    >>> rng = np.random.default_rng(0)
    >>> V = HouseholderProduct(rng.standard_normal((50, 2)))
    >>> X = rng.random((50, 5))
    >>> res = procrustes_oracle(V @ X, X, completion="identity")
    >>> res.dictionary.m <= 10                  # I + B (R - I) B^T, B with <= 2p columns
    True
    >>> bool(np.allclose(res.dictionary @ X, V @ X))   # exact on the data
    True
    """
    Y = check_signals(Y, "Y")
    X = check_signals(X, "X")
    if X.shape != Y.shape:
        raise ValueError(f"X must have the shape of Y {Y.shape}, got {X.shape}")
    V = polar_factor(Y, X, completion)
    return DictionaryResult(dictionary=V, codes=np.array(X, dtype=np.float64),
                            history={"objective": [residual(Y, V, X)]},
                            n_iter=1, converged=True)


def procrustes_altmin(Y, threshold: float | None = None, sparsity: int | None = None,
                      n_iter: int = 50, init=None, *, completion: str = "arbitrary",
                      tol: float = 1e-12) -> DictionaryResult:
    """Alternating minimisation for an orthogonal dictionary (Lesage et al. 2005).

    Repeats $\\hat X = \\mathrm{HT}(V^T Y)$ (hard threshold, or the ``sparsity``
    largest entries of each column) and $V = \\operatorname{polar}(Y \\hat X^T)$
    until the objective stops changing (``tol``).

    Parameters
    ----------
    Y : array_like of shape (n, p)
        Signals.
    threshold : float, optional
        Hard threshold $\\zeta$: keep entries with $|z| \\ge \\zeta$. When neither
        ``threshold`` nor ``sparsity`` is given, $\\zeta$ is
        ``gsp_householder.learning.sparse_coding.two_means_threshold`` of $V_0^T Y$ at the
        start $V_0$, then held fixed (so that the objective is monotone).
    sparsity : int, optional
        Keep the ``sparsity`` largest $|z|$ of each column (not with ``threshold``).
    n_iter : int, default 50
        Maximum number of iterations.
    init : HouseholderProduct or ndarray of shape (n, n), optional
        Starting dictionary; default the identity.
    completion : {"arbitrary", "identity"}, default "arbitrary"
        Completion of each polar factor (see `procrustes_oracle`);
        ``"identity"`` costs $O(np^2)$ instead of $O(n^3)$ per iteration and
        returns a HouseholderProduct.
    tol : float, default 1e-12
        Stop when the objective changes by less than ``tol`` times $\\|Y\\|_F^2$.

    Returns
    -------
    DictionaryResult
        ``history["objective"]`` is the Lesage objective after each iteration,
        $\\|Y - V \\hat X\\|_F^2 + \\zeta^2 \\|\\hat X\\|_0$ (threshold) or
        $\\|Y - V \\hat X\\|_F^2$ (sparsity), non-increasing;
        ``history["residual"]`` is $\\|Y - V \\hat X\\|_F$.

    Raises
    ------
    ValueError
        On bad ``Y``, both ``threshold`` and ``sparsity``, or a
        non-orthogonal or mis-shaped ``init``.

    Warns
    -----
    ConvergenceWarning
        If ``n_iter`` iterations did not meet ``tol``.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning.baselines import procrustes_altmin
    >>> rng = np.random.default_rng(0)
    >>> Q, _ = np.linalg.qr(np.eye(6) + 0.05 * rng.standard_normal((6, 6)))
    >>> Q = Q * np.sign(np.diag(Q))               # close to the identity start
    >>> X = (rng.random((6, 200)) < 0.3) * rng.uniform(1, 2, (6, 200))
    >>> res = procrustes_altmin(Q @ X, threshold=0.5, n_iter=100)
    >>> bool(np.linalg.norm(res.dictionary - Q) < 1e-6)
    True
    """
    Y = check_signals(Y, "Y")
    Y = np.asarray(Y, dtype=np.float64)
    n = Y.shape[0]
    if threshold is not None and sparsity is not None:
        raise ValueError("give threshold or sparsity, not both, got "
                         f"threshold={threshold!r}, sparsity={sparsity!r}")
    if threshold is not None:
        threshold = check_scalar(threshold, "threshold", low=0, low_inclusive=True)
    elif sparsity is not None:
        sparsity = check_scalar(sparsity, "sparsity", low=1, high=n, low_inclusive=True,
                                integer=True)
    n_iter = check_scalar(n_iter, "n_iter", low=1, low_inclusive=True, integer=True)
    tol = check_scalar(tol, "tol", low=0, low_inclusive=True)
    completion = _check_completion(completion)
    V = HouseholderProduct.identity(n) if init is None else as_operator(init, n)
    if threshold is None and sparsity is None:
        threshold = two_means_threshold(V.T @ Y)
    if completion == "arbitrary" and isinstance(V, HouseholderProduct):
        V = V.to_dense()
    history: list[float] = []
    resid: list[float] = []
    scale = max(float(np.sum(Y**2)), np.finfo(float).tiny)
    converged = False
    it = 0
    for it in range(1, n_iter + 1):  # noqa: B007 - the count is reported
        X = sparse_code(V, Y, threshold=threshold, sparsity=sparsity)
        if not np.any(X):
            break
        V = polar_factor(Y, X, completion)
        res = residual(Y, V, X)
        obj = res**2 + (threshold**2 * np.count_nonzero(X) if threshold is not None else 0.0)
        history.append(obj)
        resid.append(res)
        if len(history) > 1 and abs(history[-2] - history[-1]) <= tol * scale:
            converged = True
            break
    X = sparse_code(V, Y, threshold=threshold, sparsity=sparsity)
    if not converged:
        warn_at_caller(f"procrustes_altmin did not converge in {n_iter} iterations "
                       f"(tol={tol:g})", ConvergenceWarning)
    return DictionaryResult(dictionary=V, codes=X,
                            history={"objective": history, "residual": resid}, n_iter=it,
                            converged=converged)
