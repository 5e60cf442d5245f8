"""The sparsest member of a small family of exact Laplacians: the hyperplane with the most rows.

When the pairs taken as non-edges leave out every pair within distance $k$ of each
other, the polynomials $L, L^2, \\dots, L^k$ of the Laplacian all vanish on the pairs
kept, so the near-null span is a family of valid-looking matrices; its linear-program
vertices mix them and are far denser than $L$ (Minnesota: 16455 edges for 3304, from
a family of 3 directions besides the local columns). Within the family
$\\lambda = Q y$, every pair of the complement gives a row $r_{ij} = Q^T a_{ij}$, and a
member's zero entries are the rows on the hyperplane $y^\\perp$. The sparsest member
is the normal of the hyperplane that holds the most rows: with exact eigenvectors
those rows are orthogonal to $y$ to rounding, so a few random draws of $d - 1$ rows
(their null vector) find it, and the null vector of all the rows it holds is the
member. This is the same problem as the whole search ("the hyperplane that holds most
pair rows"), in $d$ dimensions instead of $g$.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis

#: Largest number of family directions (besides the local columns) searched this way.
MAX_DIRECTIONS = 8
#: Random draws of $d - 1$ rows.
DRAWS = 64
#: A unit row is on the hyperplane of a unit normal when $|r^T y|$ is at most this.
ON_PLANE = 1e-8


def sparsest_direction(B: PairBasis, Lam, hint, rng):
    """The member of ``span(Lam)`` (eigenvalue vector) with the most zero entries on the
    ``hint`` pairs outside the local groups, or None.

    None when the span has one direction or more than ``MAX_DIRECTIONS`` besides the
    local columns, or when the rows on the best hyperplane do not fix one normal. The
    member's sign makes its eigenvalues on the unknowns outside the local groups sum
    to a positive number; its local unknowns are set to their mean (to be replaced by
    ``sparsify_local``); it is normalised to trace $n$.
    """
    I, J = hint
    local = (np.concatenate([grp.cols for grp in B.local_groups]) if B.local_groups
             else np.zeros(0, dtype=np.intp))
    if B.local_groups:
        gi = np.concatenate([grp.i for grp in B.local_groups]).astype(np.int64)
        gj = np.concatenate([grp.j for grp in B.local_groups])
        keep = ~np.isin(I.astype(np.int64) * B.n + J, gi * B.n + gj)
        I, J = I[keep], J[keep]
    if len(I) == 0:
        return None
    Q = np.linalg.qr(Lam)[0]
    R = B.products(I, J, Q)
    _, s, Wt = np.linalg.svd(R, full_matrices=False)
    d = int(np.count_nonzero(s > 1e-9 * s[0])) if s.size and s[0] > 0 else 0
    if d < 2 or d > MAX_DIRECTIONS:
        return None
    basis = Wt[:d].T
    R = R @ basis
    norms = np.linalg.norm(R, axis=1)
    R = R[norms > 1e-12 * norms.max()]
    R /= np.linalg.norm(R, axis=1)[:, None]
    if len(R) < d - 1:
        return None
    best, on = -1, None
    for _ in range(DRAWS):
        rows = R[rng.choice(len(R), size=d - 1, replace=False)]
        y = np.linalg.svd(rows)[2][-1]
        zero = np.abs(R @ y) <= ON_PLANE
        count = int(np.count_nonzero(zero))
        if count > best:
            best, on = count, zero
    sv, Wt = np.linalg.svd(R[on])[1:]
    if sv.size < d - 1 or sv[d - 2] <= 1e3 * ON_PLANE * sv[0]:
        return None                     # the rows on the plane leave several normals
    lam = Q @ (basis @ Wt[-1])
    rest = np.ones(B.g, dtype=bool)
    rest[local] = False
    total = float(lam[rest].sum())
    if total == 0.0:
        return None
    lam *= np.sign(total)
    if local.size:
        lam[local] = lam[rest].mean()
    return lam * (B.n / (B.mult @ lam))
