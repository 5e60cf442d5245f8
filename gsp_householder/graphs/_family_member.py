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

import copy

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._span_rows import span_pair_rows
from gsp_householder.graphs._svd_fallback import svd_or_gesvd

#: Largest number of family directions (besides the local columns) searched this way.
MAX_DIRECTIONS = 8
#: Random draws of $d - 1$ rows.
DRAWS = 64
#: A unit row is on the hyperplane of a unit normal when $|r^T y|$ is at most this.
ON_PLANE = 1e-8


def at_trace_n(lam, mult, n: int, rest, local):
    """The eigenvalue vector ``lam`` as a member: signed so that its entries outside the
    local columns (``rest``) sum to a positive number, its ``local`` entries set to the
    mean of the others (both in place), then scaled to the trace ``n`` (``mult``: the
    multiplicities); returns ``(member, factor)``, the factor taking ``lam`` as given to
    the member. ``(None, None)`` when no factor does (a sum or a trace that is not
    positive: the vector is no member, and dividing by its trace would give inf).

    Examples
    --------
    >>> import numpy as np
    >>> rest = np.array([True, True, False])
    >>> at_trace_n(np.array([1.0, 2.0, 0.0]), np.array([1.0, 1.0, 1.0]), 6, rest,
    ...            np.array([2]))
    (array([1.33333333, 2.66666667, 2.        ]), 1.3333333333333333)
    >>> at_trace_n(np.array([1.0, -1.5, 0.0]), np.array([2.0, 1.0, 1.0]), 6, rest,
    ...            np.array([2]))
    (None, None)
    """
    total = float(lam[rest].sum())
    if total == 0.0:
        return None, None
    sign = np.sign(total)
    lam *= sign
    if local.size:
        lam[local] = lam[rest].mean()
    trace = float(mult @ lam)
    if trace <= 0.0:
        return None, None
    return lam * (n / trace), float(sign * n / trace)


def sparsest_direction(B: PairBasis, Lam, hint, rng, tol, floor, groups=None):
    """The valid member of ``span(Lam)`` (eigenvalue vector) with the most zero entries on
    the ``hint`` pairs outside the local groups, or None.

    ``groups``: the local groups (``_local_columns.LocalGroup``) to leave out; by default
    ``B.local_groups``.

    Valid: eigenvalues at least ``floor`` (outside the local groups, whose unknowns are
    set to their mean, to be replaced by ``sparsify_local``) and entries at most
    $2(\\mathrm{tol}_i + \\mathrm{tol}_j)$ on those pairs, at trace $n$: members of few
    edges (one twin pair's column) are not graphs. None when the span has one direction
    or more than ``MAX_DIRECTIONS`` besides the local columns, when no draw gives a
    valid member. When the rows on the best plane leave several members (a twin pair's
    column adds a member that is zero on all but one pair), the search goes on among
    those members. The draws use a copy of ``rng``.
    """
    I, J = hint
    groups = B.local_groups if groups is None else groups
    local = (np.concatenate([grp.cols for grp in groups]) if groups
             else np.zeros(0, dtype=np.intp))
    if groups:
        gi = np.concatenate([grp.i for grp in groups]).astype(np.int64)
        gj = np.concatenate([grp.j for grp in groups])
        keep = ~np.isin(I.astype(np.int64) * B.n + J, gi * B.n + gj)
        I, J = I[keep], J[keep]
    if len(I) == 0:
        return None
    Q = np.linalg.qr(Lam)[0]
    R = span_pair_rows(B, Q, I, J)
    _, s, Wt = svd_or_gesvd(R, full_matrices=False)
    d = int(np.count_nonzero(s > 1e-9 * s[0])) if s.size and s[0] > 0 else 0
    if d < 2 or d > MAX_DIRECTIONS:
        return None
    basis = Q @ Wt[:d].T                 # the family's part the pairs see
    R = R @ Wt[:d].T
    norms = np.linalg.norm(R, axis=1)
    live = norms > 1e-12 * norms.max()
    R, norms, slack = R[live], norms[live], 2.0 * (tol[I[live]] + tol[J[live]])
    U = R / norms[:, None]
    if len(U) < d - 1:
        return None
    rest = np.ones(B.g, dtype=bool)
    rest[local] = False

    def member(y):
        lam, scale = at_trace_n(basis @ y, B.mult, B.n, rest, local)
        if lam is None:
            return None, None
        entries = (R @ y) * scale
        if lam[rest].min() < floor or np.any(entries > slack):
            return None, None
        return lam, np.abs(U @ y) <= ON_PLANE

    rng = copy.deepcopy(rng)            # the caller's generator is left as it was
    W = np.eye(d)                       # the members searched: span(W), in plane coordinates
    while W.shape[1] > 1:
        k = W.shape[1]
        P = U @ W
        pn = np.linalg.norm(P, axis=1)
        rows = np.flatnonzero(pn > ON_PLANE)
        if len(rows) < k - 1:
            return None
        best, on = -1, None
        for _ in range(DRAWS):
            pick = P[rng.choice(rows, size=k - 1, replace=False)]
            lam, zero = member(W @ svd_or_gesvd(pick)[2][-1])
            if lam is not None and int(np.count_nonzero(zero)) > best:
                best, on = int(np.count_nonzero(zero)), zero
        if on is None:
            return None
        held = U[on] @ W
        # right singular vectors only: full U of a tall matrix is (rows x rows)
        sv, Wt2 = svd_or_gesvd(held, full_matrices=held.shape[0] < held.shape[1])[1:]
        rank = int(np.count_nonzero(sv > 1e3 * ON_PLANE * sv[0]))
        if rank == 0 or rank >= k:
            # no member of span(W) is zero on all these rows (they are on the plane
            # within ``ON_PLANE`` only)
            return None
        # members of span(W) with all these zeros; several: the next zeros decide
        W = W @ Wt2[rank:].T
    return member(W[:, 0])[0]
