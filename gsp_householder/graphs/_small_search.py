"""Sparsest valid Laplacians of small bases, by enumerating the valid cone's edges.

The valid eigenvalue vectors form a polyhedral cone: every pair row gives one
inequality $a_{ij}^T\\lambda \\le 0$. A sparsest valid Laplacian vanishes on the most
pairs, and the most active inequalities are reached on the cone's extreme rays, each
the null vector of $g - 1$ independent pair rows ($g$ unknowns). A basis of at most
`MAX_NODES` nodes has too few pairs for the prefix search (which keeps more pairs than
unknowns aside); its rays are all solved at once instead.
"""

from __future__ import annotations

import itertools

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._template_lp import Fit, rank_candidates

#: Bases up to this many nodes are searched exhaustively.
MAX_NODES = 3
#: A pair is a non-edge, and a ray valid, to this fraction of the largest entry.
RELATIVE_TOL = 1e-8


def sparsest_small(B: PairBasis):
    """Candidate graphs of the sparsest valid rays and the family dimension.

    Returns ``(ranked, family_dimension)`` as the prefix search does: ``ranked`` is
    a list of ``(n_edges, weight_cv, lam, W)`` (see ``rank_candidates``), empty when
    no connected valid graph exists.
    """
    i, j = B.upper()
    A = B.rows(i, j)                                   # (pairs, g)
    rays = _extreme_rays(A, B.g)
    rays = np.concatenate([rays, -rays])
    values = rays @ A.T                                # off-diagonal entries, scaled
    top = np.abs(values).max(axis=1, keepdims=True)
    eigen = rays if B.G is None else rays @ B.G.T     # eigenvalue of every column
    valid = ((values <= RELATIVE_TOL * top).all(axis=1)
             & (eigen.min(axis=1) > RELATIVE_TOL * np.abs(eigen).max(axis=1)))
    if B.ordered:                                      # ascending unknowns
        valid &= (np.diff(rays, axis=1) >= -RELATIVE_TOL * np.abs(rays).max(axis=1,
                                                                             keepdims=True)).all(axis=1)
    if not valid.any():
        return [], 1
    zeros = np.abs(values[valid]) <= RELATIVE_TOL * top[valid]
    counts = zeros.sum(axis=1)
    best = counts == counts.max()
    lams = rays[valid][best]
    common = zeros[best].all(axis=0)
    rank = np.linalg.matrix_rank(A[common]) if common.any() else 0
    n = B.n
    fit = Fit(lam=lams[0], Lam=np.eye(B.g), mu=np.zeros(B.g), c=int(common.sum()),
              tol=np.zeros(n), floor=0.0, hint=())
    return rank_candidates(B, list(lams), fit), max(1, B.g - rank)


def _extreme_rays(A: np.ndarray, g: int) -> np.ndarray:
    """Unit null vectors of every set of ``g - 1`` rows of ``A`` of full rank."""
    if g == 1:
        return np.ones((1, 1))
    sets = np.array(list(itertools.combinations(range(A.shape[0]), g - 1)))
    _, s, Vt = np.linalg.svd(A[sets])
    full = s[:, -1] > 1e-9 * s[:, 0]
    return Vt[full, -1, :]
