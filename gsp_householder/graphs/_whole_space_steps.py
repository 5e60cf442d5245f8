"""Concentration steps of a fitted ranking's kept pairs in the whole space of eigenvalues.

The fitted rankings (``_fitted_ranking``) fit one eigenvalue vector inside the span of
the 16 or 32 smallest directions of the Gram of all pairs, and keep the pairs that
vector fits best. Where the true vector lies far outside that span, the pairs kept hold
a few edges: on PyGSP's ``StochasticBlockModel(200, k=4, seed=5)`` (blocks of about 50
nodes at density 0.7, 4516 edges) half of that vector's norm is outside the span of the
32 smallest directions, and 6 to 21 edges stay among the 9950 pairs kept (133 with 70 %
kept). The smallest direction of their Gram is then pulled off the truth, and the
ranking's noise estimate (``robust_noise``: the median residual of the kept pairs) is
2e-3 to 1.2e-2 for eigenvectors perturbed by 1e-3, 25 to 140 times the level the
truth shows (8.7e-5), also on exact eigenvectors. The searches at that level take the
edges, whose standardised entries are about 1e-2, for non-edges: 3582 of 4516 edges
were found, and no graph fitted.

The smallest direction of the kept pairs' Gram, over all the unknowns, still puts those
edges above the noise. A concentration step keeps, with that direction, as many pairs as
before with the smallest standardised residuals (``kept_residuals``' reading, for every
pair). The step is kept when the pairs it sets apart are not clean at the level the new
kept pairs show: some residual of theirs, read with the new pairs' direction, is above
``CLEAN_FACTOR`` times that level (or the new pairs fit to rounding, ``EXACT_LEVEL``).
Kept pairs that were clean give no such pair: the step changes only which of the
non-edges near the noise are kept, and is not made (the ranking is returned unchanged,
bit for bit). On the PyGSP block model above one or two steps clean the kept pairs
(noise estimate 8.7e-5 perturbed, 5e-15 exact, no edge kept).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis, upper_index
from gsp_householder.graphs._support_search import above_rounding, pair_residuals, scaled_median
from gsp_householder.graphs._thresholds import CLEAN_FACTOR, EXACT_LEVEL

#: Most concentration steps: each costs about one Gram downdate of the ranking (the
#: pairs that changed) and one matrix $\\tilde L(\\lambda)$; the kept pairs of the block
#: models measured were clean after one or two.
MAX_WHOLE_STEPS = 8


def whole_space_steps(B: PairBasis, scores, trimmed, max_steps: int = MAX_WHOLE_STEPS):
    """The ranking ``(scores, trimmed)`` (as ``fitted_ranking`` returns it) after the
    concentration steps in the whole space that its kept pairs need, or the same
    objects when they need none.

    Parameters
    ----------
    B : PairBasis
        The pair geometry of the basis.
    scores : ndarray of shape (n, n)
        The ranking's scores.
    trimmed : tuple
        ``(gram, i, j)``: the Gram of the kept pairs and the pairs left out.
    max_steps : int
        Most steps made.

    Returns
    -------
    tuple
        ``(scores, (gram, i, j))``: the scores $\\tilde L(\\lambda)^2$ of the last kept
        pairs' smallest direction and their Gram, or ``scores`` and ``trimmed`` unchanged.
    """
    gram, I, J = trimmed
    i, j = B.upper()
    kept = np.ones(i.size, dtype=bool)
    kept[upper_index(B.n, I, J)] = False
    residuals, lam = pair_residuals(B, gram, i, j)
    if _kept_level(residuals[kept]) <= EXACT_LEVEL:
        return scores, trimmed
    stepped = False
    for _ in range(max_steps):
        new = np.zeros(i.size, dtype=bool)
        new[np.argsort(residuals, kind="stable")[: int(kept.sum())]] = True
        left, entered = kept & ~new, new & ~kept
        if not left.any():
            break
        new_gram = gram.changed((i[left], j[left]), (i[entered], j[entered]))
        new_residuals, new_lam = pair_residuals(B, new_gram, i, j)
        level = _kept_level(new_residuals[new])
        if level > EXACT_LEVEL and not np.any(new_residuals[left] > CLEAN_FACTOR * level):
            break
        kept, gram, residuals, lam, stepped = new, new_gram, new_residuals, new_lam, True
        if level <= EXACT_LEVEL:
            break
    if not stepped:
        return scores, trimmed
    return B.matrix(lam) ** 2, (gram, i[~kept], j[~kept])


def _kept_level(residuals: np.ndarray) -> float:
    """``robust_noise`` of the kept pairs' standardised ``residuals``."""
    return scaled_median(above_rounding(residuals))
