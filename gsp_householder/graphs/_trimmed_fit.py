"""Concentration steps of a trimmed least-squares fit, steered by the normal equations.

Least trimmed squares of $X y \\approx \\mathbf 1$ by concentration steps: fit the ``k``
kept rows, keep the ``k`` rows of smallest residual, until the kept rows no longer
change. A step's least-squares solve by LAPACK's ``gelsd`` (``np.linalg.lstsq``: a QR
of the ``k`` kept rows, then an SVD) is most of the step's cost, yet a step only uses
its solution to choose the next ``k`` rows. The steps here solve the normal equations
instead ($X_H^T X_H$ by one product, its eigendecomposition of order $r$: a fifth to a
sixth of ``gelsd``'s time at $k \\approx 10^4$, $r = 16$ to $32$) and use their rows only
when the gap between the ``k``-th and the next smallest residual exceeds twice the
largest difference that rounding allows between the residuals of the two solutions
(``selection_level``). The rows are then those ``gelsd``'s solution keeps, so each
step keeps the same rows as a step of ``gelsd`` solves; when the gap is smaller (tied
residuals: symmetric graphs) or the normal equations are singular to rounding, the
step solves by ``gelsd``. The solution returned is ``gelsd``'s on the rows kept at
the end: the same numbers, bit for bit, as concentration steps that all solve by
``gelsd``.

The level (``selection_level``) is the first-order bound of the forward error of a
least-squares solution with relative backward error $\\varepsilon = k r u$ ($u$ the
unit roundoff, the backward error of a Householder QR of $k \\times r$ rows, Higham,
*Accuracy and Stability of Numerical Algorithms*, Thm. 20.3; the normal equations'
error is within the same bound's $\\kappa^2$ term), for both solutions, times the
largest row norm, plus the rounding of the products $X y$.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

#: Unit roundoff of float64.
UNIT_ROUNDOFF = np.finfo(float).eps / 2


def normal_solve(rows: np.ndarray, ones: np.ndarray):
    """The least-squares solution of ``rows @ y = ones`` (``ones``: the ``k`` ones) from
    the normal equations, with the eigenvalues of ``rows.T @ rows`` (ascending), or None
    when that Gram is singular to rounding (an eigenvalue not above ``k r u`` times the
    largest)."""
    k, r = rows.shape
    w, Q = np.linalg.eigh(rows.T @ rows)
    if not w[0] > k * r * UNIT_ROUNDOFF * w[-1]:
        return None
    return Q @ ((Q.T @ (ones @ rows)) / w), w


def selection_level(w: np.ndarray, y: np.ndarray, k: int, largest_row: float) -> float:
    """Twice the largest difference rounding allows between ``|X y - 1|`` and the same
    residuals of ``gelsd``'s solution on the same ``k`` rows, for a normal-equation
    solution ``y`` whose Gram has eigenvalues ``w``; ``largest_row``: the largest row
    norm of ``X``.

    Both solutions are within $\\delta = \\varepsilon\\,(2\\kappa\\|y\\| + (\\kappa^2 +
    \\kappa)\\,\\|b\\| / \\|X_H\\|)$ of the exact one ($\\varepsilon = k r u$, $\\kappa$
    the condition number of the kept rows $X_H$, $\\|b\\| = \\sqrt k$ bounds the
    residual's norm); each residual then differs by at most $\\|x_i\\|\\, 2\\delta$,
    plus the rounding of $x_i^T y - 1$ for each solution ($r u \\|x_i\\| \\|y\\|$ and
    $u$ times the residual).
    """
    r = y.size
    eps = k * r * UNIT_ROUNDOFF
    norm_y = float(np.linalg.norm(y))
    top = float(np.sqrt(w[-1]))
    kappa = float(np.sqrt(w[-1] / w[0]))
    delta = eps * (2.0 * kappa * norm_y + (kappa * kappa + kappa) * np.sqrt(k) / top)
    largest_y = norm_y + 2.0 * delta
    products = r * UNIT_ROUNDOFF * largest_row * largest_y
    differences = largest_row * 2.0 * delta + 2.0 * products
    differences += 2.0 * UNIT_ROUNDOFF * (1.0 + largest_row * largest_y)
    return 2.0 * differences


def clear_smallest(values: np.ndarray, k: int, level: float):
    """The indices (sorted) of the ``k`` smallest ``values`` when the ``k``-th smallest
    is below the next by more than ``level``, else None."""
    if k >= values.size:
        return np.arange(values.size)
    part = np.partition(values, (k - 1, k))
    if not part[k] - part[k - 1] > level:
        return None
    return np.flatnonzero(values <= part[k - 1])


def trimmed_fit(X: np.ndarray, kept: np.ndarray, k: int, max_steps: int):
    """At most ``max_steps`` concentration steps of the trimmed fit of ``X y = 1`` from
    the ``k`` rows ``kept`` (sorted): the trimmed objective (the sum of the kept
    squared residuals), the fitted ``y`` and the rows kept at the end; the same
    numbers, bit for bit, as steps that all solve by ``gelsd`` (module docstring)."""
    # the kept rows of every step gathered into one array (``X[kept]`` would be a fresh
    # array of k rows per step, which the kernel maps and zeroes each time)
    rows, ones = np.empty((k, X.shape[1])), np.ones(k)
    largest_row = float(np.sqrt(np.max(np.einsum("ij,ij->i", X, X))))

    def exact(kept):
        gathered = np.take(X, kept, axis=0, out=rows, mode="wrap")
        return np.linalg.lstsq(gathered, ones, rcond=None)[0]

    def steered(kept):
        return normal_solve(np.take(X, kept, axis=0, out=rows, mode="wrap"), ones)

    solved = steered(kept)
    y = exact(kept) if solved is None else None
    for _ in range(max_steps - 1):
        new = None
        if y is None:
            z, w = solved
            new = clear_smallest(np.abs(X @ z - 1.0), k, selection_level(w, z, k, largest_row))
        if new is None:
            if y is None:
                y = exact(kept)
            new = np.sort(np.argpartition(np.abs(X @ y - 1.0), k - 1)[:k])
        if np.array_equal(new, kept):
            break
        kept = new
        solved = steered(kept)
        y = exact(kept) if solved is None else None
    if y is None:
        y = exact(kept)
    res = X @ y - 1.0
    return float(np.sum(res[kept] ** 2)), y, kept
