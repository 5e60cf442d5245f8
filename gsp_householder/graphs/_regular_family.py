"""Laplacians with a constant diagonal: the family that holds regular graphs.

The diagonal of $L = V \\operatorname{diag}(\\lambda) V^T$ is $Z\\lambda$ with
$Z = V \\circ V$. For a regular graph (every node of the same degree) it is constant, so
the true eigenvalue vector lies in the null space of the centred $Z$ (rows minus their
mean), which for generic eigenvectors holds only $\\mathbf 1$. Its off-diagonal entries
carry all its spread, so it sits among the *largest* directions of the pairs' Gram
matrix, where the rankings of ``_support_search`` and ``_fitted_ranking`` do not look.
The exact null space (rounding level) is searched as a family instead: its valid sparse
vertices are candidate graphs.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._template_lp import Fit, valid_in_span

#: Singular values of the centred $Z$ below this fraction of the largest are null.
NULL_LEVEL = 1e-9
#: Largest null space searched (beyond it the diagonal does not pin the family down).
MAX_DIMENSION = 8


def constant_diagonal_fit(B: PairBasis, floor=1e-5):
    """A ``Fit`` on the valid Laplacians with a constant diagonal, or None.

    Only for one unknown per column and a combinatorial Laplacian (constant ``u``).
    """
    if B.G is not None or np.ptp(B.u) > 1e-12 * B.u.max():
        return None
    Z = B.V * B.V * (B.u ** 2)[:, None]
    P = Z - Z.mean(axis=0)
    g = P.shape[1]
    Q = np.linalg.qr(np.hstack([np.ones((g, 1)), np.eye(g)[:, : g - 1]]))[0][:, 1:]
    _, s, Wt = np.linalg.svd(P @ Q)
    null = s <= NULL_LEVEL * s[0]
    if not null.any() or null.sum() > MAX_DIMENSION:
        return None
    Lam = np.hstack([np.ones((g, 1)), Q @ Wt[null].T])
    hint = B.upper()
    tol = np.full(B.n, 1e-9 * B.n)
    programs = {}
    ok, lam, _ = valid_in_span(B, Lam, tol, floor, hint, cache=programs)
    if not ok:
        return None
    return Fit(lam, Lam, np.zeros(Lam.shape[1]), 0, tol, floor, hint, programs)
