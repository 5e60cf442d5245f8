"""The charged least-$\\ell_1$ member of a family: an interior point method and its vertex.

``_noisy_unit_diagonal`` reads a member $N_0 + Y x$ of a near-null family (upper
off-diagonal entries, one row per pair, $m$ free directions) that minimises

$$F(x) = \\sum_p \\rho(r_p), \\qquad r = N_0 + Y x, \\qquad
\\rho(r) = -r \\ (r \\le 0), \\ (c - 1)\\, r \\ (r > 0),$$

i.e. the largest sum of off-diagonal entries with each positive entry charged $c$
times: a quantile regression (quantile $1 - 1/c$) of $N_0$ on $-Y$. As a linear
program with one slack per pair (27 730 rows and 93 free columns for a lobster of 236
nodes) HiGHS's simplex takes 28 to 49 CPU s per charge. Its dual,

$$\\max\\ N_0^T d \\quad \\text{s.t.} \\quad Y^T d = Y^T \\mathbf 1, \\quad
0 \\le d \\le c,$$

has $m$ equality rows only: a primal-dual interior point method (Mehrotra's
predictor-corrector, bounded variables $a = d / c \\in [0, 1]$) solves an $m \\times m$
system per step, $O(\\text{pairs}\\; m^2)$, and converges in 25 to 50 steps (1 to 1.6 CPU
s for the lobster).

The member returned is a vertex, certified: the $m$ pairs whose dual variables lie
deepest inside $(0, 1)$ are taken as the basis, $x$ makes their entries vanish, the
other pairs' dual variables are set by the sign of their entries ($1$ above zero, $0$
below) and the basis's are solved from the equality rows; they must lie in $[0, 1]$
(to ``CERTIFICATE_TOLERANCE``). A primal point with a dual point that satisfy
complementary slackness is optimal, so the member is the program's optimum; where
the optimum is unique (noisy families: in general position) it is the simplex's
vertex. When the certificate fails (an unfinished or degenerate solve) None is
returned and the caller runs the simplex.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

#: Largest excursion of a certified basis's dual variables outside $[0, 1]$.
CERTIFICATE_TOLERANCE = 1e-9
#: Relative duality gap at which the interior point method stops.
GAP_TOLERANCE = 1e-12
#: Largest number of interior point steps.
MAX_STEPS = 100


def charged_member(N0: np.ndarray, Y: np.ndarray, charge: float) -> np.ndarray | None:
    """The certified minimiser $x$ of $F$ (module docstring) for ``charge`` $c > 1$,
    or None when its vertex is not certified.

    Parameters
    ----------
    N0 : ndarray of shape (pairs,)
        The base member's entries.
    Y : ndarray of shape (pairs, m)
        The family's directions, full column rank, ``pairs > m``.
    charge : float
        The charge $c$ on the positive entries.

    Returns
    -------
    ndarray of shape (m,) or None
    """
    try:
        a = _interior_point(N0, Y, charge)
        return _certified_vertex(N0, Y, charge, a)
    except np.linalg.LinAlgError:
        return None


def _interior_point(N0, Y, charge):
    """The dual variables $a = d / c$ of the dual program (module docstring) at the end
    of a Mehrotra predictor-corrector interior point method."""
    n = Y.shape[0]
    A = Y.T
    b = A.sum(axis=1) / charge
    cost = -N0
    a = np.full(n, 1.0 / charge)  # feasible: A a = b
    s = 1.0 - a
    lam = np.linalg.lstsq(Y, cost, rcond=None)[0]
    reduced = cost - Y @ lam
    shift = 1e-3 * np.abs(cost).max()
    z = np.maximum(reduced, 0.0) + shift
    w = np.maximum(-reduced, 0.0) + shift
    for _ in range(MAX_STEPS):
        rp = b - A @ a
        rd = cost - Y @ lam - z + w
        gap = a @ z + s @ w
        if (
            gap <= GAP_TOLERANCE * (1.0 + abs(cost @ a))
            and np.abs(rp).max() <= 1e-10
            and np.abs(rd).max() <= 1e-10
        ):
            break
        if not gap > 0.0:  # finished, or NaN: the certificate decides
            break
        D = 1.0 / (z / a + w / s)
        M = (A * D) @ Y
        point = (a, s, z, w)
        da, dl, dz, dw = _newton(Y, M, D, point, rp, rd, -a * z, -s * w)
        primal = min(_longest(a, da), _longest(s, -da))
        dual = min(_longest(z, dz), _longest(w, dw))
        mu = gap / (2 * n)
        gap_aff = (a + primal * da) @ (z + dual * dz) + (s - primal * da) @ (w + dual * dw)
        sigma = (gap_aff / gap) ** 3
        da, dl, dz, dw = _newton(
            Y, M, D, point, rp, rd, sigma * mu - a * z - da * dz, sigma * mu - s * w + da * dw
        )
        primal = 0.99995 * min(_longest(a, da), _longest(s, -da))
        dual = 0.99995 * min(_longest(z, dz), _longest(w, dw))
        a, s = a + primal * da, s - primal * da
        lam, z, w = lam + dual * dl, z + dual * dz, w + dual * dw
    return a


def _newton(Y, M, D, point, rp, rd, raz, rsw):
    """The step $(\\Delta a, \\Delta\\lambda, \\Delta z, \\Delta w)$ solving
    $Y^T \\Delta a = r_p$, $Y \\Delta\\lambda + \\Delta z - \\Delta w = r_d$,
    $z \\Delta a + a \\Delta z = r_{az}$, $s \\Delta w - w \\Delta a = r_{sw}$
    ($\\Delta s = -\\Delta a$), through the $m \\times m$ system ``M``
    $= Y^T D Y$, $D = 1 / (z / a + w / s)$."""
    a, s, z, w = point
    g = raz / a - rsw / s - rd
    dl = np.linalg.solve(M, rp - Y.T @ (D * g))
    da = D * (Y @ dl + g)
    return da, dl, (raz - z * da) / a, (rsw + w * da) / s


def _longest(v, dv):
    """The longest step $t \\le 1$ keeping $v + t\\, dv \\ge 0$."""
    down = dv < 0
    return min(1.0, float((-v[down] / dv[down]).min())) if down.any() else 1.0


def _certified_vertex(N0, Y, charge, a):
    """The vertex of the basis read off the dual variables ``a`` (module docstring), or
    None when its dual variables leave $[0, 1]$."""
    m = Y.shape[1]
    basis = np.argsort(-np.minimum(a, 1.0 - a), kind="stable")[:m]
    x = np.linalg.solve(Y[basis], -N0[basis])
    above = (N0 + Y @ x > 0).astype(float)
    above[basis] = 0.0
    dual = np.linalg.solve(Y[basis].T, Y.sum(axis=0) / charge - Y.T @ above)
    # written so that NaN (a failed solve) is not certified
    certified = dual.min() >= -CERTIFICATE_TOLERANCE and dual.max() <= 1.0 + CERTIFICATE_TOLERANCE
    return x if certified and np.isfinite(x).all() else None
