"""Rank the pairs by the residual of one eigenvalue vector fitted to the least edge-like half.

The leverage ranking (``_support_search.leverage_ranking``) scores a pair by its
leverage in several small directions of the Gram matrix at once. In dense graphs with
near-uniform degrees (Erdos-Renyi at density 0.3: a third of the pairs are edges) those
directions hold the true eigenvalue vector only as one combination among many, and the
leverage of the edges is no larger than that of the non-edges. A single vector fitted by
trimmed least squares inside their span separates them: $\\lambda = \\Lambda y + \\mathbf 1$
with $a_{ij}^T \\lambda = 0$ on the kept pairs (the affine normalisation excludes
$\\lambda = 0$, and $\\mathbf 1$, the complete graph, is outside the span of the centred
Gram's directions), refitted on the fraction ``keep`` of pairs with the smallest
residual until that set no longer changes (concentration steps of least trimmed
squares).

The least-squares fit to all pairs is no start: the centred rows sum to zero, so it is
$y = 0$ up to rounding, every residual is 1, and a first half kept by those residuals is
chosen by the rounding of the BLAS kernel (on ``gnp_random_graph(60, 0.35, seed=4)`` that
fit ended at a trimmed objective of 297.6 with 126 of 616 edges ranked first on one
kernel, 29.5 and 614 on another). The fit is started instead from two halves that do not
depend on rounding, the pairs with the smallest leverage in the directions and those
with the smallest rows, and the end with the smaller trimmed objective (the sum of the
kept squared residuals) is kept; the second only when its objective is smaller beyond
rounding (``ROUNDING_FIT`` relative to the first's, and per kept pair), so that two ends
that fit equally well, exact eigenvectors fitted to rounding by both, do not trade
places with the kernel. The steps of both starts solve the normal equations and fall
back on ``gelsd`` only where rounding could change the rows kept
(``_trimmed_fit``): the numbers of steps that all solve by ``gelsd``, bit for bit.

Flat columns. A column whose scaled entries $v_{ik} / u_i$ all have about one magnitude
(the community vectors of a block model with dense blocks: about $\\pm 1$ on the two
blocks) has rows $a_{ij}$ of about $\\pm 1$ in that coordinate on every pair, so it is
among the largest directions of the Gram, never among the smallest, while the true
eigenvalue vector holds it far from the mean (PyGSP's ``StochasticBlockModel(100,
k=2)``: 13.9 against 31 to 55; 45 % of the vector's norm outside the span of the 8 to 64
smallest directions, 9 to 14 % with that one coordinate added). The flat unknowns
(``flat_unknowns``) are added to the span. Their eigenvalue then has two degenerate
ends: 0, two disconnected blocks, whose trimmed fit keeps every pair between the blocks,
edges included (a local minimum the leverage and row starts fall into: 365 edges kept,
trimmed objective 127 against the truth's 45), and the mean, no block structure. A third
start is therefore the pairs kept by the fit with the flat eigenvalues half way, at
half the mean (``_halfway_start``); the end of smallest objective is kept as before.
A basis may show only some of its community vectors as flat (unequal blocks): that
wider span can then end with a few edges kept where the plain span kept none
(``StochasticBlockModel(120, k=3, seed=3)`` perturbed: 12 edges, estimate 5.4e-3,
against none, 8.1e-5), so the ranking with the flat unknowns is a second fit, kept by
``_ranking_ladder.kept_fitted_ranking`` when its kept pairs show the smaller noise.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis, PairGram
from gsp_householder.graphs._thresholds import ROUNDING_FIT
from gsp_householder.graphs._trimmed_fit import trimmed_fit

#: Concentration steps of the trimmed fit (each one an $O(N r^2)$ least-squares solve,
#: ``_trimmed_fit``).
MAX_STEPS = 50
#: Largest spread of a flat column's squared scaled entries: half that of a column of
#: independent Gaussian entries (2, the variance of a chi-squared variable of one degree).
FLAT_SPREAD = 1.0


def _smaller_beyond_rounding(objective, reference, k):
    """Whether the trimmed ``objective`` (a sum of ``k`` squared residuals of targets 1)
    is below ``reference`` by more than rounding: ``ROUNDING_FIT`` relative to it, and
    ``ROUNDING_FIT`` squared per kept pair."""
    return objective < (1.0 - ROUNDING_FIT) * reference - k * ROUNDING_FIT**2


def _smallest(values, k):
    """The ``k`` indices of the smallest ``values`` (ties by index), sorted."""
    return np.sort(np.argsort(values, kind="stable")[:k])


def flat_unknowns(B: PairBasis) -> np.ndarray:
    """The unknowns whose column is flat: its scaled entries $\\tilde v_{ik} = v_{ik} /
    u_i$ of one magnitude, to a spread $\\sum_i u_i^2 (\\tilde v_{ik}^2 - 1)^2$ below
    ``FLAT_SPREAD`` (sorted by spread; none for grouped unknowns, or when more than
    half the columns are flat)."""
    if B.G is not None:
        return np.empty(0, dtype=int)
    spread = (B.u * B.u) @ (B.V * B.V - 1.0) ** 2
    flat = np.flatnonzero(spread < FLAT_SPREAD)
    if 2 * flat.size > spread.size:
        return np.empty(0, dtype=int)
    return flat[np.argsort(spread[flat], kind="stable")]


def _halfway_start(X, r, leverage_start, k, max_steps):
    """The ``k`` pairs kept by concentration steps of the fit in the first ``r`` columns
    of ``X`` with the flat unknowns (the other columns) at half the mean eigenvalue:
    $\\lambda_f = \\tfrac12$ for each, i.e. targets $1 + \\tfrac12 \\sum_f x_f$."""
    rows, target = X[:, :r], 1.0 + 0.5 * X[:, r:].sum(axis=1)
    kept = leverage_start
    for _ in range(max_steps):
        y = np.linalg.lstsq(rows[kept], target[kept], rcond=None)[0]
        new = _smallest(np.abs(rows @ y - target), k)
        if np.array_equal(new, kept):
            break
        kept = new
    return kept


def fitted_ranking(B: PairBasis, r=16, keep=0.5, max_steps=MAX_STEPS, flat=None):
    """Scores $\\tilde L(\\lambda)_{ij}^2$ of the trimmed fit in the ``r`` smallest
    directions of the centred Gram of all pairs (and the unknowns ``flat``, with a third
    start, ``_halfway_start``), and ``(gram, i, j)``: the Gram of the kept pairs and the
    pairs left out (as ``leverage_ranking`` returns them)."""
    full = PairGram(B)
    mu, Lam = full.null_directions(r)
    i, j = B.upper()
    X = B.products(i, j, Lam)
    squares = X * X
    leverage = squares @ (1.0 / np.maximum(mu, np.finfo(float).tiny))
    if flat is not None and flat.size:
        Lam = np.column_stack([Lam, np.eye(B.g)[:, flat]])
        X = np.column_stack([X, B.products(i, j, Lam[:, mu.size :])])
    k = max(min(int(keep * len(i)), len(i) - 1), Lam.shape[1])
    starts = [_smallest(leverage, k), _smallest(squares.sum(axis=1), k)]
    if X.shape[1] > mu.size:
        starts.append(_halfway_start(X, mu.size, starts[0], k, max_steps))
    best = trimmed_fit(X, starts[0], k, max_steps)
    for start in starts[1:]:
        other = trimmed_fit(X, start, k, max_steps)
        if _smaller_beyond_rounding(other[0], best[0], k):
            best = other
    _, y, kept = best
    lam = Lam @ y + 1.0
    out = np.ones(len(i), dtype=bool)
    out[kept] = False
    I, J = i[out], j[out]
    return B.matrix(lam) ** 2, (full.without(I, J), I, J)
