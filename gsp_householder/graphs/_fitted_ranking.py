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


def _smaller_beyond_rounding(objective, reference, k):
    """Whether the trimmed ``objective`` (a sum of ``k`` squared residuals of targets 1)
    is below ``reference`` by more than rounding: ``ROUNDING_FIT`` relative to it, and
    ``ROUNDING_FIT`` squared per kept pair."""
    return objective < (1.0 - ROUNDING_FIT) * reference - k * ROUNDING_FIT**2


def _smallest(values, k):
    """The ``k`` indices of the smallest ``values`` (ties by index), sorted."""
    return np.sort(np.argsort(values, kind="stable")[:k])


def fitted_ranking(B: PairBasis, r=16, keep=0.5, max_steps=MAX_STEPS):
    """Scores $\\tilde L(\\lambda)_{ij}^2$ of the trimmed fit in the ``r`` smallest
    directions of the centred Gram of all pairs, and ``(gram, i, j)``: the Gram of the
    kept pairs and the pairs left out (as ``leverage_ranking`` returns them)."""
    full = PairGram(B)
    mu, Lam = full.null_directions(r)
    i, j = B.upper()
    X = B.products(i, j, Lam)
    k = max(min(int(keep * len(i)), len(i) - 1), Lam.shape[1])
    squares = X * X
    leverage = squares @ (1.0 / np.maximum(mu, np.finfo(float).tiny))
    starts = (_smallest(leverage, k), _smallest(squares.sum(axis=1), k))
    best = trimmed_fit(X, starts[0], k, max_steps)
    other = trimmed_fit(X, starts[1], k, max_steps)
    if _smaller_beyond_rounding(other[0], best[0], k):
        best = other
    _, y, kept = best
    lam = Lam @ y + 1.0
    out = np.ones(len(i), dtype=bool)
    out[kept] = False
    I, J = i[out], j[out]
    return B.matrix(lam) ** 2, (full.without(I, J), I, J)
