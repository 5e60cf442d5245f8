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

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis, PairGram

#: Concentration steps of the trimmed fit (each one an $O(N r^2)$ least-squares solve).
MAX_STEPS = 50


def fitted_ranking(B: PairBasis, r=16, keep=0.5, max_steps=MAX_STEPS):
    """Scores $\\tilde L(\\lambda)_{ij}^2$ of the trimmed fit in the ``r`` smallest
    directions of the centred Gram of all pairs, and ``(gram, i, j)``: the Gram of the
    kept pairs and the pairs left out (as ``leverage_ranking`` returns them)."""
    full = PairGram(B)
    _, Lam = full.null_directions(r)
    i, j = B.upper()
    X = B.products(i, j, Lam)
    target = np.ones(len(i))
    y = np.linalg.lstsq(X, target, rcond=None)[0]
    k = max(min(int(keep * len(i)), len(i) - 1), Lam.shape[1])
    # the kept rows of every step gathered into one array (``X[kept]`` would be a fresh
    # array of k rows per step, which the kernel maps and zeroes each time): the same
    # rows, so the same solves
    rows, ones = np.empty((k, X.shape[1])), target[:k]
    kept = None
    for _ in range(max_steps):
        res = np.abs(X @ y - 1.0)
        new = np.sort(np.argpartition(res, k - 1)[:k])
        if kept is not None and np.array_equal(new, kept):
            break
        kept = new
        y = np.linalg.lstsq(np.take(X, kept, axis=0, out=rows, mode="wrap"), ones,
                            rcond=None)[0]
    lam = Lam @ y + 1.0
    out = np.ones(len(i), dtype=bool)
    out[kept] = False
    I, J = i[out], j[out]
    return B.matrix(lam) ** 2, (full.without(I, J), I, J)
