"""Orthogonal dictionaries with codes in a box: rectified Procrustes (non-negative ICA).

For signals $Y = V X$ with $V$ orthogonal and codes $X \\ge 0$ (the paper's
model: $X$ is zero or in $[\\ell, h]$ with $\\ell \\ge 0$), every entry of
$V^T Y$ is non-negative at the truth, and the cost

$$ f(W) = \\|W^T Y - \\Pi(W^T Y)\\|_F^2 = \\min_{X \\in \\mathcal B} \\|Y - W X\\|_F^2, $$

with $\\Pi$ the entrywise projection onto a box $\\mathcal B = [a, b]$ that
contains 0 (blind: $[0, \\infty)$), vanishes there. This is the contrast of
non-negative independent component analysis (Plumbley; Oja and Plumbley): the
sources are independent, the mixing is orthogonal and the sources have an atom
at zero ("well grounded"), so that a rotation mapping all signals into the
non-negative orthant is a signed permutation of the truth once there are enough
signals. It needs no centring, no whitening and no fourth moment.

The cost is minimised by alternation, $X = \\Pi(W^T Y)$ then
$W = \\operatorname{polar}(Y X^T)$, each step decreasing $f$; the alternation is
slow on plateaus, so each Procrustes step, written as a rotation
$W^T W_{\\text{new}} \\approx \\exp(S)$ with $S$ skew-symmetric, is accelerated by
heavy-ball momentum in the Lie algebra, $A \\leftarrow \\beta A + S$,
$W \\leftarrow W \\operatorname{cay}(A)$ (Cayley retraction), with the momentum
reset whenever $f$ increases.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from gsp_householder.learning._orthogonal import cayley_update, polar_factor_gram, skew

__all__ = ["rectified_procrustes", "trapped_columns"]

# with a support rule: stop once the support changed in at most this fraction of the
# entries of V^T Y at each of this many consecutive steps
_SETTLED_FRACTION = 1e-4
_SETTLED_STEPS = 3


def rectified_procrustes(Y: np.ndarray, V: np.ndarray, *, lower: float = 0.0,
                         upper: float = np.inf, max_iter: int = 1000, tol: float = 1e-3,
                         momentum: float = 0.9,
                         callback: Callable[[int, float, float], None] | None = None,
                         support: Callable[[np.ndarray], np.ndarray] | None = None
                         ) -> tuple[np.ndarray, dict[str, list[float]], bool]:
    """Minimise $\\|V^T Y - \\Pi_{[a, b]}(V^T Y)\\|_F^2$ over orthogonal ``V``.

    Internal helper: ``Y`` (float64, shape (n, p), finite) and the orthogonal
    start ``V`` (n x n) are taken as validated.

    Parameters
    ----------
    Y : ndarray of shape (n, p)
        Signals (not centred).
    V : ndarray of shape (n, n)
        Orthogonal start.
    lower, upper : float
        The box $[a, b]$, $a \\le 0 \\le b$, holding the codes.
    max_iter : int
        Maximum number of (accelerated) Procrustes steps.
    tol : float
        Stop when the Procrustes rotation step $\\|S\\|_F$ falls below
        ``tol * sqrt(n)``, or when the cost is zero.
    momentum : float
        Heavy-ball coefficient $\\beta \\in [0, 1)$.
    callback : callable, optional
        Called as ``callback(iteration, cost, step)`` after each step.
    support : callable, optional
        A rule mapping $C = V^T Y$ to a boolean support (for example
        `gsp_householder.learning.zero_pattern.support_codes`). When given, the
        iteration also stops (converged) once the support changed in at most
        $10^{-4}$ of the entries at each of 3 consecutive steps: the support is
        then what a refinement by the codes' zeros needs, long before the step
        meets ``tol``.

    Returns
    -------
    V : ndarray of shape (n, n)
        Orthogonal.
    history : dict
        ``"cost"`` (the rectification cost $f$, divided by $\\|Y\\|_F^2$) and
        ``"step"`` ($\\|S\\|_F / \\sqrt n$) per iteration; with ``support``,
        also ``"support_changes"`` (entries whose support changed, per step).
    converged : bool

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning._orthogonal import random_orthogonal
    >>> rng = np.random.default_rng(0)
    >>> V_true = random_orthogonal(8, rng)
    >>> X = rng.uniform(1, 2, (8, 200)) * (rng.random((8, 200)) < 0.2)
    >>> V, history, converged = rectified_procrustes(V_true @ X, random_orthogonal(8, rng),
    ...                                              tol=1e-12)
    >>> converged, bool(np.allclose(np.abs(V.T @ V_true).max(axis=0), 1.0))
    (True, True)
    """
    n, p = Y.shape
    scale = float(np.einsum("ij,ij->", Y, Y)) or 1.0
    A = np.zeros((n, n))
    history: dict[str, list[float]] = {"cost": [], "step": []}
    if support is not None:
        history["support_changes"] = []
    previous = np.inf
    step_tol = tol * np.sqrt(n)
    settled_changes = _SETTLED_FRACTION * n * p
    calm = 0
    previous_support = None
    for it in range(1, max_iter + 1):
        C = V.T @ Y
        X = np.clip(C, lower, upper)
        R = C - X
        cost = float(np.einsum("ij,ij->", R, R)) / scale
        del R
        if cost > previous:
            A[:] = 0.0                       # adaptive restart of the momentum
        previous = cost
        # V^T polar(Y X^T) ~ exp(S); the step only needs a direction: the Gram route
        S = skew(polar_factor_gram(C @ X.T))
        size = float(np.linalg.norm(S))
        history["cost"].append(cost)
        history["step"].append(size / np.sqrt(n))
        if callback is not None:
            callback(it, cost, size / np.sqrt(n))
        if cost == 0.0 or size < step_tol:
            return V, history, True
        if support is not None:
            current = support(C)
            if previous_support is not None:
                changes = int(np.count_nonzero(current != previous_support))
                history["support_changes"].append(float(changes))
                calm = calm + 1 if changes <= settled_changes else 0
                if calm >= _SETTLED_STEPS:
                    return V, history, True
            previous_support = current
        A = momentum * A + S
        V = cayley_update(V, A)
    return V, history, False


def trapped_columns(C: np.ndarray, ratio: float = 10.0) -> np.ndarray:
    """Columns whose code rows carry an outlying share of the negative energy.

    The rectified cost has local minima near the truth where one column sits
    near the *negative* of an atom, $-v_k$, tilted towards a positive
    combination of the other atoms (which keeps most of its codes
    non-negative) while the other columns lean slightly towards $v_k$. That row
    of $C = V^T Y$ then holds almost all of the cost: measured 100-200 times
    the median row's negative energy at such minima (dense codes,
    $\\theta = 0.5$, 50 columns), against 1-4 times at the truth under noise and
    at the plateaus met from random starts, where every row carries about the
    same cost. Negating such a column puts it near $+v_k$, in the basin of the
    truth. Internal helper: ``C`` is a validated float array.

    Parameters
    ----------
    C : ndarray of shape (n, p)
        Coefficients $V^T Y$.
    ratio : float
        A row is trapped when its negative energy exceeds ``ratio`` times the
        median row's.

    Returns
    -------
    ndarray of int
        Indices of the trapped columns (possibly empty).

    Examples
    --------
    >>> import numpy as np
    >>> C = np.array([[1.0, 0.0, 2.0], [0.5, -0.1, 1.0], [-1.5, 0.4, -2.0], [1.0, -0.1, 0.0]])
    >>> trapped_columns(C)
    array([2])
    """
    negative = np.sum(np.minimum(C, 0.0) ** 2, axis=1)
    return np.flatnonzero(negative > ratio * float(np.median(negative)))
