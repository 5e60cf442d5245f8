"""A cycle's weights fitted to its non-edges in the units of their own noise.

The missing-edge test (``_missing_edges``) reads a cycle of weights $w$ on the
eigenvectors $\\tilde V$ as the entries $e_{ij}(w)$ of
$\\tilde V \\operatorname{diag}(M w) \\tilde V^T$ at its non-edges, $M w$ the diagonal of
$\\tilde V^T L(w) \\tilde V$ ($M_{ke} = (\\tilde V_{ak} - \\tilde V_{bk})^2$ for the edge
$e = (a, b)$), each over its standard deviation under the rotation model,
$\\sigma \\sqrt{v_{ij}(w)}$ with $v_{ij} = (d_i - d_j)^2 + r_i + r_j$, $d$ the degrees
and $r$ the sums of squared weights at each node (``_edge_significance``). The least
squares weights (``_edge_test_descent.anchored_fit``) minimise $\\sum e_{ij}^2$
instead, which the heaviest edges dominate: on PyGSP ``RandomRing`` perturbed by 1e-3
with weights spread over three decades they scale whole stretches of the cycle by 0.5
to 0.8 against the rest (the edges next to the heaviest), and hundreds of non-edges
read as significantly negative where the truth leaves none (220 on
``RandomRing(400, seed=6)`` draw 0, 313 on ``RandomRing(600, seed=70)`` draw 0). The
members of the cycle's eigenvalue family (``_weighted_cycle.cycle_family``) do not
reach the truth either: its projection on the 100 vectors of least misfit still
leaves such non-edges.

``noise_scaled_weights`` minimises $f(w) = \\sum_{i \\ne j} e_{ij}(w)^2 / v_{ij}(w)$
over the cycle's $n$ weights, the sum of the squared z-scores the test reads (up to
$\\sigma^2$). $f$ does not change when the weights are scaled, as a whole or on one
stretch of the cycle far from the rest, so the noise of light and heavy stretches
counts alike; with $v$ held at fixed weights, the least squares weighted by $1 / v$
shrink the light stretches instead. Levenberg-Marquardt steps in the logarithms of the
weights (positive weights, relative steps): each solves the linearised problem with the
damping $\\mu^2 \\|\\xi\\|^2$, $\\mu^2 = f / n$ (the misfit per weight, the held
pairs below left out), by LSQR with the operator's columns scaled to unit norm
(estimated by ``COLUMN_PROBES`` random probes of its adjoint, a fixed seed; the scaling
only speeds LSQR, it does not change the damped step), at most ``LSQR_ITERATIONS``
iterations, and is halved until $f$ decreases. Every
product is one of $\\tilde V \\operatorname{diag}(\\lambda) \\tilde V^T$ or $Y \\tilde V$
with an $n \\times n$ ``Y`` ($O(n^3)$ flops, $O(n^2)$ memory): no system with a row per
pair. The member returned is the one ``_weighted_cycle.shown_cycle`` is asked about.

The damping holds the weights that the z-scores barely read: a weight whose column's
squared norm is below the misfit per weight (an $e$-fold change of it moves the
linearised squared z-scores by less than that share) moves little, the others take
Gauss-Newton steps. Undamped, with the columns scaled, such a weight took steps of 82
and 495 in $\\log w$ (``RandomRing(450, seed=5)`` perturbed by 1e-3, draw 0, from the
least-squares member of its true order: edge 169, 0.20 times the median weight, set to
$e^{-540}$; a lognormal $\\sigma = 2$ cycle of 400 nodes: steps of $3 \\cdot 10^5$ in
$\\log w$, then no halving lowered $f$ with 156 non-edges missing). Damped, both fall to
their rings' basin: the lognormal cycle is shown at the 13th step, the 450-node ring's
steps leave one non-edge missing from the 4th.

The steps stop when they have converged in the test's own units: when a step moves no
non-edge's z-score $e_{ij} / \\sqrt{v_{ij}}$ by as much as their root mean square (the
noise unit $\\sigma$ the squared z-scores $f$ are read in), no further step can move a
verdict of the missing-edge test, whose threshold is several such units. A fixed count
of steps stopped ``RandomRing(480, seed=10)`` perturbed by 1e-3, draw 3, at its sixth
step with one non-edge missing.

The minimum of $f$ need not pass the one-sided missing-edge test: on
``RandomRing(450, seed=5)`` draw 0, started from the true weights (shown), the steps
lower the heaviest weight (5692 times the median) to 0.68 of it and $f$ by 2.0 %
(that weight alone at 0.37 of it lowers $f$ by 1.7 %, on the pairs far from it: its
eigenvalue enters their entries through the noise), and the non-edge across its two
nodes' neighbours reads $z = 13.65$ against the threshold 9.79. So
when the steps settle, the non-edges whose z-score is below minus the missing-edge
threshold (``_missing_edges.missing_threshold``) in the noise unit are held at zero:
their squared z-scores are added to $f$ weighted by its number of terms (a held pair
one unit from zero costs as much as all the non-edges' misfit), and the steps go on
until the member is shown or they settle with none left to hold. That ring is then
shown at the 19th step. No tolerance is new (the LSQR iterations, probes, halvings and
``MAX_STEPS`` are cost settings).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla

from gsp_householder.graphs._missing_edges import missing_threshold

#: Steps at most (a cost setting: each step takes products of order $n^3$, about 1 CPU s
#: at 500 nodes; the slowest fit measured is shown at its 19th step:
#: ``RandomRing(450, seed=5)`` perturbed by 1e-3, draw 0).
MAX_STEPS = 32

#: LSQR iterations per step (a cost setting: two products of order $n^3$ each).
LSQR_ITERATIONS = 50

#: Random probes of the adjoint that estimate the operator's column norms (a cost
#: setting: the estimates only scale the columns, within a factor of about 2).
COLUMN_PROBES = 8

#: Halvings of a step before the fit stops (the step is then $2^{-10}$ of the one solved).
MAX_HALVINGS = 10


class _CycleNoiseFit:
    """The squared z-scores $f(w)$ of the module docstring for the cycle on the edges
    ``(rows, cols)`` of the anchored basis ``V`` (its zero column exactly constant, so
    that $M w$ is 0 there)."""

    def __init__(self, V: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> None:
        n, m = V.shape[0], rows.size
        self.V, self.n, self.m = V, n, m
        self.M = ((V[rows] - V[cols]) ** 2).T
        edge = np.arange(m)
        self.incidence = sp.csr_array(
            (np.ones(2 * m), (np.r_[rows, cols], np.r_[edge, edge])), shape=(n, m)
        )
        self.mask = np.ones((n, n))
        self.mask[rows, cols] = 0.0
        self.mask[cols, rows] = 0.0
        np.fill_diagonal(self.mask, 0.0)

    def entries(self, w: np.ndarray) -> np.ndarray:
        """$e(w)$ on the non-edges, 0 on the edges and the diagonal."""
        return self.mask * ((self.V * (self.M @ w)) @ self.V.T)

    def variances(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(d, v)``: the degrees and $v_{ij}(w)$ (positive for a connected cycle)."""
        d = self.incidence @ w
        r = self.incidence @ (w * w)
        return d, (d[:, None] - d[None, :]) ** 2 + r[:, None] + r[None, :]

    def scores(self, w: np.ndarray) -> np.ndarray:
        """The z-scores $e_{ij} / \\sqrt{v_{ij}}$ (an $n \\times n$ array, 0 on the edges
        and the diagonal), in units of the noise $\\sigma$."""
        _, v = self.variances(w)
        return self.entries(w) / np.sqrt(v)

    def value(self, w: np.ndarray) -> float:
        """$f(w)$."""
        _, v = self.variances(w)
        return float((np.square(self.entries(w)) / v).sum())

    def linearised(self, w: np.ndarray) -> tuple[np.ndarray, Callable, Callable]:
        """``(z, jacobian, adjoint)`` at the weights ``w``: the z-scores
        $e_{ij} / \\sqrt{v_{ij}}$ (an $n \\times n$ array, 0 on the edges and the
        diagonal), and the derivative of their flattened array along a step $\\xi$ in
        $\\log w$ and its adjoint."""
        n = self.n
        d, v = self.variances(w)
        entries = self.entries(w)
        inverse_root = self.mask / np.sqrt(v)
        slope = -self.mask * entries / (2.0 * v**1.5)  # d z / d v

        def jacobian(xi: np.ndarray) -> np.ndarray:
            x = w * xi
            moved = inverse_root * ((self.V * (self.M @ x)) @ self.V.T)
            dd = self.incidence @ x
            dr = self.incidence @ (2.0 * w * x)
            dv = 2.0 * (d[:, None] - d[None, :]) * (dd[:, None] - dd[None, :])
            return (moved + slope * (dv + dr[:, None] + dr[None, :])).ravel()

        def adjoint(y: np.ndarray) -> np.ndarray:
            Y = y.reshape(n, n)
            Y = 0.5 * (Y + Y.T)  # the derivative is symmetric: its adjoint sees Y's part
            g = self.M.T @ np.einsum("ik,ik->k", (inverse_root * Y) @ self.V, self.V)
            T = slope * Y
            row = T.sum(axis=1)
            g += self.incidence.T @ (4.0 * (d * row - T @ d))
            g += 2.0 * w * (self.incidence.T @ (2.0 * row))
            return w * g

        return entries * inverse_root, jacobian, adjoint

    def held_value(self, w: np.ndarray, held: np.ndarray) -> float:
        """$f(w)$ plus the squared z-scores of the ``held`` pairs (flat indices of the
        $n \\times n$ array) weighted by `hold_weight`: the objective the steps lower."""
        z = self.scores(w).ravel()
        return float(np.square(z).sum() + self.hold_weight() * np.square(z[held]).sum())

    def hold_weight(self) -> float:
        """The weight of a held pair's squared z-score: the number of terms of $f$ (the
        non-edges, both ways), so that a held pair one noise unit from zero costs as
        much as the misfit of them all."""
        return float(self.mask.sum())

    def step(self, w: np.ndarray, damping: float, held: np.ndarray) -> np.ndarray:
        """The damped Gauss-Newton step $\\xi$ in $\\log w$: LSQR on the linearised
        z-scores and those of the ``held`` pairs (weighted by `hold_weight`), with
        rows $\\sqrt{\\mathrm{damping}}\\, \\xi$ (Levenberg's damping); the columns
        scaled by their estimated norms, which only speeds LSQR."""
        z, jacobian, adjoint = self.linearised(w)
        rows = self.n * self.n
        root = np.sqrt(self.hold_weight())
        mu = np.sqrt(damping)

        def forward(xi: np.ndarray) -> np.ndarray:
            moved = jacobian(xi)
            return np.r_[moved, root * moved[held], mu * xi]

        def backward(y: np.ndarray) -> np.ndarray:
            spread = y[:rows].copy()
            np.add.at(spread, held, root * y[rows : rows + held.size])
            return adjoint(spread) + mu * y[rows + held.size :]

        scale = _column_norms(adjoint, rows)
        operator = sla.LinearOperator(
            (rows + held.size + self.m, self.m),
            matvec=lambda q: forward(q / scale),
            rmatvec=lambda y: backward(y) / scale,
            dtype=float,
        )
        target = -np.r_[z.ravel(), root * z.ravel()[held], np.zeros(self.m)]
        solution = sla.lsqr(operator, target, atol=0.0, btol=0.0, iter_lim=LSQR_ITERATIONS)[0]
        return solution / scale


def _column_norms(adjoint: Callable[[np.ndarray], np.ndarray], rows: int) -> np.ndarray:
    """The column norms of an operator estimated from ``COLUMN_PROBES`` products of its
    ``adjoint`` with Gaussian vectors ($E (A^T y)_e^2 = \\|A_e\\|^2$), fixed seed;
    floored at 1e-12 of the largest."""
    rng = np.random.default_rng(0)
    squares = np.mean(
        [adjoint(rng.standard_normal(rows)) ** 2 for _ in range(COLUMN_PROBES)], axis=0
    )
    norms = np.sqrt(squares)
    return np.maximum(norms, 1e-12 * norms.max())


def _trial(
    fit: _CycleNoiseFit, w: np.ndarray, xi: np.ndarray, held: np.ndarray
) -> tuple[np.ndarray, float]:
    """The weights ``w`` moved by the step ``xi`` in their logarithms and their
    objective (`_CycleNoiseFit.held_value`), infinite where the step overflows them
    (lognormal weights of $\\sigma = 2$: a step of the order of the weights' spread), so
    that it is halved as one that does not lower it."""
    with np.errstate(over="ignore", invalid="ignore"):
        trial = w * np.exp(xi)
        if not np.all(np.isfinite(trial)):
            return trial, np.inf
        value = fit.held_value(trial, held)
    return trial, (value if np.isfinite(value) else np.inf)


def _settled(before: np.ndarray, after: np.ndarray, mask: np.ndarray) -> bool:
    """Whether a step from the z-scores ``before`` to ``after`` moved none of them by
    their noise unit: the root mean square of ``after`` over the non-edges ``mask``
    (module docstring)."""
    unit = np.sqrt(np.square(after).sum() / mask.sum())
    return bool(np.abs(after - before).max() < unit)


def noise_scaled_weights(
    basis, W: sp.csr_array, accept: Callable[[sp.csr_array], bool]
) -> sp.csr_array | None:
    """The cycle on the edges of ``W`` whose weights minimise the squared z-scores of
    its non-edges (module docstring), from the weights of ``W``: damped Gauss-Newton
    steps until ``accept`` takes the member, the objective no longer decreases, or a
    step moves no z-score by their noise unit (`_settled`) and no non-edge is left to
    hold at zero (`_missing`), at most ``MAX_STEPS``.

    Parameters
    ----------
    basis : dict
        The inference's basis, anchored (``"V_anchored"``).
    W : scipy.sparse.csr_array
        Symmetric positive weights of a cycle (the start).
    accept : callable
        Whether a member is the one sought (``_weighted_cycle.shown_cycle``).

    Returns
    -------
    scipy.sparse.csr_array or None
        The first member accepted (the sum of its weights that of ``W``), or None.
    """
    upper = sp.triu(W, 1).tocoo()
    rows, cols, w = upper.row, upper.col, upper.data.astype(float)
    n, total = W.shape[0], float(w.sum())
    fit = _CycleNoiseFit(np.asarray(basis["V_anchored"]), rows, cols)
    threshold = missing_threshold(W)
    held = np.zeros(0, dtype=np.intp)
    current, scores = fit.held_value(w, held), fit.scores(w)
    for _ in range(MAX_STEPS):
        xi = fit.step(w, float(np.square(scores).sum()) / fit.m, held)
        for halving in range(MAX_HALVINGS + 1):
            trial, value = _trial(fit, w, xi / 2.0**halving, held)
            if value < current:
                break
        if not value < current:
            return None
        w, current = trial * (total / trial.sum()), value
        member = sp.csr_array((np.r_[w, w], (np.r_[rows, cols], np.r_[cols, rows])), shape=(n, n))
        if accept(member):
            return member
        before, scores = scores, fit.scores(w)
        if _settled(before, scores, fit.mask):
            # the steps' minimum leaves pairs missing: they are held at zero from now on
            missing = _missing(scores, fit.mask, threshold, held)
            if missing.size == 0:
                return None
            held = np.union1d(held, missing)
            current = fit.held_value(w, held)
    return None


def _missing(
    scores: np.ndarray, mask: np.ndarray, threshold: float, held: np.ndarray
) -> np.ndarray:
    """The flat indices of the non-edges not yet ``held`` whose z-score is below
    ``-threshold`` noise units (the root mean square of ``scores`` over ``mask``)."""
    unit = np.sqrt(np.square(scores).sum() / mask.sum())
    found = np.flatnonzero(scores.ravel() < -threshold * unit)
    return np.setdiff1d(found, held)
