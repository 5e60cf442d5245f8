"""MSP: $\\ell^4$-norm optimisation over the orthogonal group (Zhai et al. 2020).

Zhai, Yang, Liao, Wright & Ma, "Complete dictionary learning via
$\\ell^4$-norm maximization over the orthogonal group", JMLR 21 (2020). With
$Y = V X$ and $A$ orthogonal, $\\|A Y\\|_4^4$ is extremal when $A Y$ recovers
the codes up to a signed permutation. The "matching, stretching, projection"
iteration is the fixed-point step
$A \\leftarrow \\operatorname{polar}\\big((A Y_c)^{\\circ 3} Y_c^T\\big)$.

Their theory is for zero-mean codes with positive excess kurtosis
(Bernoulli–Gaussian). The codes of this package are non-negative
(Bernoulli($\\theta$) $\\times$ Uniform$[1, 2]$), so the rows of $Y$ are centred
first ($Y_c$), which centres the codes because $V$ is linear. Centred
Bernoulli–Uniform codes have excess kurtosis
$\\kappa = E[z^4]/E[z^2]^2 - 3$ that is negative for most $\\theta$ (about
$-1.7$ at $\\theta = 0.5$), and then the code directions *minimise* the
$\\ell^4$ norm. ``objective="auto"`` estimates $\\kappa$ of the centred data
(the kurtosis of $V^T Y_c$ equals the average over the rows of the
coefficients' kurtosis weighted by $V$, and keeps its sign) and
maximises when it is positive, minimises when it is negative. Minimisation
uses the majorised step $A \\leftarrow \\operatorname{polar}(L A - (A Y_c)^{\\circ 3}
Y_c^T)$ with $L$ doubled until the objective decreases.

Each iteration costs $O(n^2 p + n^3)$; the estimate is the dense
$\\hat V = A^T$, whose columns match the true ones only up to a signed
permutation (see ``gsp_householder.metrics.match_columns``).
"""

from __future__ import annotations

import numpy as np

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._validation import check_rng, check_scalar, check_signals
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.learning.result import DictionaryResult

__all__ = ["excess_kurtosis", "msp"]


def _polar(M: np.ndarray) -> np.ndarray:
    U, _, Wt = np.linalg.svd(M)
    return U @ Wt


def excess_kurtosis(Y) -> float:
    """Pooled excess kurtosis $\\sum z^4 / (N \\bar{\\sigma^2}^2) - 3$ of the row-centred $Y$.

    For $Y = V X$ with i.i.d. codes this has the sign of the codes' own excess
    kurtosis (the rows of $Y$ are mixtures; mixing shrinks $|\\kappa|$ but keeps
    its sign), which decides whether MSP should maximise or minimise.

    Parameters
    ----------
    Y : array_like of shape (n, p)

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning.baselines import excess_kurtosis
    >>> z = np.random.default_rng(0).standard_normal((3, 100000))
    >>> abs(excess_kurtosis(z)) < 0.05
    True
    """
    Y = check_signals(Y, "Y", min_rows=1)
    Yc = Y - Y.mean(axis=1, keepdims=True)
    var = np.mean(Yc**2)
    if not var > 0:
        raise ValueError("Y must not be constant along its rows: its centred variance is 0")
    return float(np.mean(Yc**4) / var**2 - 3.0)


def msp(Y, n_iter: int = 100, rng=None, *, objective: str = "auto", center: bool = True,
        tol: float = 1e-9, init=None) -> DictionaryResult:
    """Learn a dense orthogonal dictionary by $\\ell^4$ optimisation (MSP, Zhai et al. 2020).

    Parameters
    ----------
    Y : array_like of shape (n, p)
        Signals (columns). MSP needs many more signals than nodes
        ($p \\gg n$; the theory asks $p = \\Omega(n^2 \\log n)$ for exact recovery).
    n_iter : int, default 100
        Maximum number of iterations.
    rng : None, int or numpy Generator
        Seeds the random orthogonal start.
    objective : {"auto", "max", "min"}, default "auto"
        Maximise (the paper's MSP) or minimise $\\|A Y_c\\|_4^4$; ``"auto"``
        chooses from the sign of `excess_kurtosis` of ``Y``.
    center : bool, default True
        Subtract the row means before learning (the theory's zero-mean codes).
    tol : float, default 1e-9
        Stop when the relative change of the objective is below ``tol``.
    init : ndarray of shape (n, n), optional
        Orthogonal start for $A$ (the analysis operator, $\\hat V = A^T$);
        default Haar-random from ``rng``.

    Returns
    -------
    DictionaryResult
        ``dictionary`` the dense $\\hat V = A^T$, ``codes`` $A Y$ (not
        thresholded; uncentred), ``history["objective"]`` $\\|A Y_c\\|_4^4 / p$ per
        iteration, ``history["kurtosis"]`` the single value used by ``"auto"``.

    Raises
    ------
    ValueError
        On bad ``Y``, ``n_iter < 1``, or an unknown ``objective``.

    Warns
    -----
    ConvergenceWarning
        If ``n_iter`` iterations did not meet ``tol``.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning.baselines import msp
    >>> rng = np.random.default_rng(0)
    >>> Q, _ = np.linalg.qr(rng.standard_normal((4, 4)))
    >>> X = (rng.random((4, 5000)) < 0.1) * rng.uniform(1, 2, (4, 5000))
    >>> res = msp(Q @ X, n_iter=100, rng=1)
    >>> C = np.abs(res.dictionary.T @ Q)      # a signed permutation when recovered
    >>> bool(np.allclose(np.sort(C.max(axis=0)), 1.0, atol=2e-2))
    True
    """
    Y = check_signals(Y, "Y")
    Y = np.asarray(Y, dtype=np.float64)
    n, p = Y.shape
    n_iter = check_scalar(n_iter, "n_iter", low=1, low_inclusive=True, integer=True)
    tol = check_scalar(tol, "tol", low=0, low_inclusive=True)
    if objective not in ("auto", "max", "min"):
        raise ValueError(f"objective must be 'auto', 'max' or 'min', got {objective!r}")
    rng = check_rng(rng)
    Yc = Y - Y.mean(axis=1, keepdims=True) if center else Y
    kappa = excess_kurtosis(Y) if center else float(np.mean(Y**4) / np.mean(Y**2) ** 2 - 3)
    maximise = kappa > 0 if objective == "auto" else objective == "max"
    if init is None:
        A, r = np.linalg.qr(rng.standard_normal((n, n)))
        A = A * np.sign(np.diag(r))
    else:
        from gsp_householder.learning.baselines._common import as_operator

        A = np.array(as_operator(init, n), dtype=np.float64)
    Z = A @ Yc
    f = float(np.sum(Z**4) / p)
    history = [f]
    L = 0.0
    converged = False
    it = 0
    for it in range(1, n_iter + 1):  # noqa: B007 - the count is reported
        G = (Z**3) @ Yc.T
        if maximise:
            A_new = _polar(G)
            Z_new = A_new @ Yc
            f_new = float(np.sum(Z_new**4) / p)
        else:
            if L == 0.0:
                L = np.linalg.norm(G, 2)
            for _ in range(60):
                A_new = _polar(L * A - G)
                Z_new = A_new @ Yc
                f_new = float(np.sum(Z_new**4) / p)
                if f_new <= f:
                    break
                L *= 2.0
        A, Z = A_new, Z_new
        change = abs(f_new - f) / max(abs(f), 1e-300)
        f = f_new
        history.append(f)
        if change <= tol:
            converged = True
            break
    if not converged:
        warn_at_caller(f"msp did not converge in {n_iter} iterations (tol={tol:g})",
                       ConvergenceWarning)
    return DictionaryResult(dictionary=A.T, codes=A @ Y,
                            history={"objective": history, "kurtosis": [kappa]},
                            n_iter=it, converged=converged)
