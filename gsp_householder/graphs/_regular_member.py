"""A sparser regular graph with the exact eigenvectors: the constant-diagonal family's plane
with the most pair rows.

Exact eigenvectors of a lattice or a symmetric graph with repeated eigenvalues are shared
by many regular graphs: their Laplacians $\\tilde L(\\lambda)$ with a constant diagonal
form the constant-diagonal family (``constant_diagonal_dimension``; 43 directions for the
4 x 4 x 5 torus, 45 for the 3 x 5 x 6 one, 36 for ``LCF_graph(64, [11, -11, 19, -19],
16)``). The searches can settle on a denser member that is a vertex of that family far
from the truth, sharing none of its edges: the 4 x 4 x 5 torus gave a graph of 320
edges whose own zero pairs pin it down (a family of one direction), the truth (240
edges, a member of the constant-diagonal family) shares none of them. Neither the
member searches of the graph found's family nor the grouped search (the eigenspace
groups of the 3 x 5 x 6 torus join true eigenspaces) can reach it.

Inside the family $\\lambda = \\Lambda y$ every pair gives a row $r_{ij} = \\Lambda^T
a_{ij}$ and a member's zero pairs are the rows on its plane $y^\\perp$: the sparsest
member is the normal of the plane that holds the most rows, as in
``_family_member.sparsest_direction``, here without its bound on the directions. Draws
of $d - 1$ rows give a plane each; the truth's plane is drawn with a probability of about
$(1 - e / N)^{d - 1}$ ($e$ edges among $N$ pairs: 0.04 for the 4 x 4 x 5 torus). Its
members form a face (one weight per direction of edges of a torus) whose valid members
all have the same zeros, so the member of the plane with the most rows is kept when no
draw inside the face adds zeros. The graph is kept when its edges with equal weights
form a connected graph with fewer edges than the graph found that the eigenvectors
diagonalise to ``FITS_EXACTLY``.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import copy

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._laplacian_fit import _residual, equal_weights
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._quadratic_family import quadratic_family, sparser_member_possible
from gsp_householder.graphs._regular_family import DEFAULT_FLOOR, NULL_LEVEL, _diagonal_svd
from gsp_householder.graphs._svd_fallback import svd_or_gesvd
from gsp_householder.graphs._template_lp import adjacency, edge_key
from gsp_householder.graphs._thresholds import FITS_EXACTLY

#: Largest basis searched: the rows of all pairs in the family's coordinates
#: ($N \\times d$, 19900 x 100 at 200 nodes) are formed once.
REGULAR_MAX_N = 200
#: Planes drawn at the family's full dimension (``draws_for``: fewer on larger bases, each
#: draw costs $O(d^3 + N d)$).
MAX_DRAWS = 512
#: Row entries of the draws at the full dimension (draws times $N d$).
DRAW_BUDGET = 1e8
#: Planes with the most rows kept (twins of a torus: as many zeros, other edges).
MAX_FACES = 4
#: Planes drawn inside a face of several directions.
FACE_DRAWS = 64
#: A unit row is on the plane of a unit normal when $|r^T y|$ is at most this.
ON_PLANE = 1e-8
#: Singular values of rows on a plane below this fraction of the largest are null.
RANK_LEVEL = 1e3 * ON_PLANE
#: Row entries of the products of the rows with the normals formed at once.
PRODUCT_CHUNK = 2_000_000


def draws_for(n_pairs: int, d: int) -> int:
    """Planes drawn at the full dimension $d$ of a family over ``n_pairs`` pairs: at most
    ``MAX_DRAWS``, at most ``DRAW_BUDGET`` row entries in all."""
    return int(min(MAX_DRAWS, max(FACE_DRAWS, DRAW_BUDGET // max(n_pairs * d, 1))))


def constant_diagonal_family(B: PairBasis) -> np.ndarray | None:
    """An orthonormal basis ``(g, d)`` of the eigenvalue vectors whose Laplacian has a
    constant diagonal: $\\mathbf 1 / \\sqrt g$ and the null space of the centred $Z$
    beyond it, read off its singular value decomposition computed once per basis
    (``_regular_family._diagonal_svd``, as ``constant_diagonal_dimension`` counts it);
    None for grouped unknowns or a non-constant ``u``."""
    svd = _diagonal_svd(B)
    if svd is None:
        return None
    Q, s, Wt = svd
    null = s <= NULL_LEVEL * s[0]
    g = Q.shape[0]
    return np.hstack([np.full((g, 1), 1.0 / np.sqrt(g)), Q @ Wt[null].T])


def _quadratic_family_only(B: PairBasis, found) -> bool:
    r"""Whether the exact constant-diagonal family is the quadratic family
    $\mathrm{span}\{\mathbf 1, \lambda, \lambda^2\}$ of the graph found
    (``quadratic_family``; $\lambda_k = v_k^T L v_k$ read off its weights, which the
    eigenvectors diagonalise) and the pairs' points of its weights prove that no other
    member has as few edges (``sparser_member_possible``): a proof that the search finds
    nothing (random regular graphs, whose family is that one)."""
    svd = _diagonal_svd(B)
    if svd is None or int(np.count_nonzero(svd[1] <= NULL_LEVEL * svd[1][0])) != 2:
        return False
    W = sp.csr_array(found[3])
    L = sp.diags_array(np.asarray(W.sum(axis=1)).ravel()) - W
    lam = np.einsum("ij,ij->j", B.V, L @ B.V)
    return quadratic_family(B, lam) and not sparser_member_possible(W, int(found[0]))


def sparser_regular_members(B: PairBasis, basis, found, rng) -> list:
    """Candidate items ``(n_edges, 0.0, lam, A)`` of connected graphs with equal weights
    ``A`` and fewer edges than ``found`` (a candidate item) that the exact eigenvectors
    diagonalise (residual at most ``FITS_EXACTLY``), found as the members of the
    constant-diagonal family with the most zero pairs (several when planes with as many
    zeros hold other edges: twins), each edge set once; empty when there is none, the
    family has fewer than two directions, the basis has more than ``REGULAR_MAX_N``
    nodes, or the family is the quadratic family of ``found`` with no other member as
    sparse (``_quadratic_family_only``). The draws use a copy of ``rng``.

    Parameters
    ----------
    B : PairBasis
        The pair basis of the exact eigenvectors (one unknown per column).
    basis : dict
        The validated basis (``_read_basis``).
    found : tuple
        The graph found, ``(n_edges, weight_cv, lam, W)``.
    rng : numpy.random.Generator
        Source of the draws (copied, left as it was).

    Returns
    -------
    list
        The sparser graphs as candidate items, in the order found.
    """
    if B.n > REGULAR_MAX_N or found[0] <= B.n - 1 or _quadratic_family_only(B, found):
        return []
    Lam = constant_diagonal_family(B)
    if Lam is None or Lam.shape[1] < 2:
        return []
    i, j = B.upper()
    R = B.products(i, j, Lam)
    norms = np.linalg.norm(R, axis=1)
    live = norms > 1e-12 * norms.max()
    i, j, norms = i[live], j[live], norms[live]
    U = R[live] / norms[:, None]
    del R
    tol = np.full(B.n, 1e-9 * B.n)
    slack = 2.0 * (tol[i] + tol[j])

    def members(Y):
        """``(lam, rows on the plane)`` of each unit normal (column of ``Y``) whose
        member at trace ``n`` is valid, ``(None, None)`` for the others; the products
        with the rows in chunks of ``PRODUCT_CHUNK`` entries."""
        lams = Lam @ Y
        traces = B.mult @ lams
        out = [(None, None)] * Y.shape[1]
        live = np.flatnonzero(traces != 0.0)
        scales = B.n / traces[live]
        lams = lams[:, live] * scales
        keep = lams.min(axis=0) >= DEFAULT_FLOOR
        live, scales, lams = live[keep], scales[keep], lams[:, keep]
        step = max(1, PRODUCT_CHUNK // len(U))
        for s in range(0, len(live), step):
            P = U @ Y[:, live[s:s + step]]
            valid = ~np.any(P * norms[:, None] * scales[s:s + step] > slack[:, None], axis=0)
            zero = np.abs(P) <= ON_PLANE
            for c in np.flatnonzero(valid):
                out[live[s + c]] = (lams[:, s + c], zero[:, c])
        return out

    # the complete graph's direction (every eigenvalue equal) is inside the valid cone:
    # of the normals of a plane, the one nearest to it is taken
    lams = _most_rows_members(U, members, copy.deepcopy(rng),
                              draws_for(len(U), Lam.shape[1]), Lam.T @ B.mult)
    out, seen = [], set()
    for lam in lams:
        A = equal_weights(adjacency(B, lam, tol))
        key = edge_key(A)
        edges = sp.triu(A, 1).nnz
        if (key in seen or edges >= found[0]
                or connected_components(A, directed=False)[0] > 1
                or _residual(basis, A) > FITS_EXACTLY):
            continue
        seen.add(key)
        out.append((edges, 0.0, lam, A))
    return out


def _most_rows_members(U, members, rng, draws, toward):
    """The valid members (``members(Y)``: ``(lam, rows on the plane)`` or ``(None,
    None)`` for each unit normal, a column of ``Y``) of the planes through the most unit
    rows ``U`` found by ``draws`` draws of $d - 1$ rows, at most ``MAX_FACES`` planes
    with as many rows, each refined inside the members with all its rows on their plane
    (``FACE_DRAWS`` draws) as long as such draws add rows; empty when no draw is valid.
    The rows are drawn first, then the members of all their normals are formed at once
    (one product with the rows)."""
    d = U.shape[1]
    if len(U) < d - 1:
        return []
    picks = [rng.choice(len(U), size=d - 1, replace=False) for _ in range(draws)]
    found = members(np.column_stack([_normal(U[pick], toward) for pick in picks]))
    faces = {}
    for lam, zero in found:
        if lam is not None:
            faces.setdefault(np.packbits(zero).tobytes(), (int(zero.sum()), lam, zero))
    if not faces:
        return []
    most = max(f[0] for f in faces.values())
    tied = [f for f in faces.values() if f[0] == most][:MAX_FACES]
    return [_inside_face(U, members, rng, lam, zero, toward) for _, lam, zero in tied]


def _inside_face(U, members, rng, lam, on, toward):
    """The member ``lam`` (rows ``on`` on its plane) or, while draws of the members with
    all those rows on their plane give valid ones with more, the one with the most."""
    W = None                                        # the identity
    while True:
        held = U[on] if W is None else U[on] @ W
        if _pinned(held):
            return lam
        sv, Wt = _row_space(held)
        rank = int(np.count_nonzero(sv > RANK_LEVEL * sv[0]))
        if rank == 0 or rank >= held.shape[1] - 1:
            return lam
        W = Wt[rank:].T if W is None else W @ Wt[rank:].T
        k = W.shape[1]
        P = U @ W
        rows = np.flatnonzero(np.linalg.norm(P, axis=1) > ON_PLANE)
        if len(rows) < k - 1:
            return lam
        centre = W.T @ toward
        picks = [rng.choice(rows, size=k - 1, replace=False) for _ in range(FACE_DRAWS)]
        found = members(np.column_stack([W @ _normal(P[pick], centre) for pick in picks]))
        most, step = int(on.sum()), None
        for lam2, zero in found:
            if lam2 is not None and int(zero.sum()) > most:
                most, step = int(zero.sum()), (lam2, zero)
        if step is None:
            # no draw inside the face is valid: its members keep the face's zeros
            return lam
        lam, on = step


def _pinned(held) -> bool:
    """Whether the rows ``held`` ($m \\times k$) certainly have rank $k - 1$ or more at
    ``RANK_LEVEL`` (their plane's normal is pinned: ``_inside_face`` keeps its member),
    read off their Gram matrix ($O(m k^2)$, a fraction of their decomposition: the
    10 x 20 torus has 19500 rows of 125 entries on its plane). Its eigenvalues are
    the squared singular values up to ``err`` (the Gram's rounding, at most
    $m \\epsilon \\|held\\|_F^2$, and the eigensolver's); True when the $(k - 1)$-th
    exceeds twice ``RANK_LEVEL`` times the largest beyond ``err``, where the
    decomposition's rank would be at least $k - 1$; False when it does not settle it."""
    m, k = held.shape
    if k < 2:
        return True
    if m < k - 1:
        return False
    ev = np.linalg.eigvalsh(held.T @ held)
    err = 2.0 * (m + k) * np.finfo(float).eps * float(np.einsum("ij,ij->", held, held))
    return bool(ev[1] - err > (2.0 * RANK_LEVEL) ** 2 * (ev[-1] + err))


def _row_space(A):
    """The singular values and right singular vectors (all of them) of ``A``; a tall
    ``A`` is reduced to the triangle of its QR factorisation first (the same singular
    values and vectors, without the left vectors of every row)."""
    if A.shape[0] > A.shape[1]:
        A = np.linalg.qr(A, mode="r")
    return svd_or_gesvd(A, full_matrices=True)[1:]


def _normal(pick, centre):
    """The unit normal of the plane through the rows ``pick`` ($k - 1$ rows of $k$
    entries) nearest to ``centre``: when the rows leave several normals (a face of
    several directions), the projection of ``centre`` on them, else the last right
    singular vector."""
    _, s, Wt = svd_or_gesvd(pick, full_matrices=True)
    rank = int(np.count_nonzero(s > RANK_LEVEL * s[0])) if s.size and s[0] > 0 else 0
    N = Wt[rank:]
    if N.shape[0] > 1:
        y = N.T @ (N @ centre)
        size = np.linalg.norm(y)
        if size > ON_PLANE * np.linalg.norm(centre):
            return y / size
    return Wt[-1]
