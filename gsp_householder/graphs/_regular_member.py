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
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._laplacian_fit import _residual, equal_weights
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._regular_family import DEFAULT_FLOOR, NULL_LEVEL
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


def draws_for(n_pairs: int, d: int) -> int:
    """Planes drawn at the full dimension $d$ of a family over ``n_pairs`` pairs: at most
    ``MAX_DRAWS``, at most ``DRAW_BUDGET`` row entries in all."""
    return int(min(MAX_DRAWS, max(FACE_DRAWS, DRAW_BUDGET // max(n_pairs * d, 1))))


def constant_diagonal_family(B: PairBasis) -> np.ndarray | None:
    """An orthonormal basis ``(g, d)`` of the eigenvalue vectors whose Laplacian has a
    constant diagonal (the null space of the centred $Z$, as
    ``constant_diagonal_dimension`` counts it), or None for grouped unknowns or a
    non-constant ``u``."""
    if B.G is not None or np.ptp(B.u) > 1e-12 * B.u.max():
        return None
    Z = B.V * B.V * (B.u ** 2)[:, None]
    _, s, Wt = _svd(Z - Z.mean(axis=0), full_matrices=True)
    rank = int(np.count_nonzero(s > NULL_LEVEL * s[0]))
    return Wt[rank:].T


def sparser_regular_members(B: PairBasis, basis, found, rng) -> list:
    """Candidate items ``(n_edges, 0.0, lam, A)`` of connected graphs with equal weights
    ``A`` and fewer edges than ``found`` (a candidate item) that the exact eigenvectors
    diagonalise (residual at most ``FITS_EXACTLY``), found as the members of the
    constant-diagonal family with the most zero pairs (several when planes with as many
    zeros hold other edges: twins), each edge set once; empty when there is none, the
    family has fewer than two directions, or the basis has more than ``REGULAR_MAX_N``
    nodes. The draws use a copy of ``rng``.

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
    if B.n > REGULAR_MAX_N or found[0] <= B.n - 1:
        return []
    Lam = constant_diagonal_family(B)
    if Lam is None or Lam.shape[1] < 2:
        return []
    i, j = B.upper()
    R = B.products(i, j, Lam)
    norms = np.linalg.norm(R, axis=1)
    live = norms > 1e-12 * norms.max()
    i, j, R, norms = i[live], j[live], R[live], norms[live]
    U = R / norms[:, None]
    tol = np.full(B.n, 1e-9 * B.n)
    slack = 2.0 * (tol[i] + tol[j])

    def member(y):
        lam = Lam @ y
        trace = float(B.mult @ lam)
        if trace == 0.0:
            return None, None
        scale = B.n / trace
        lam = lam * scale
        if lam.min() < DEFAULT_FLOOR or np.any((R @ y) * scale > slack):
            return None, None
        return lam, np.abs(U @ y) <= ON_PLANE

    # the complete graph's direction (every eigenvalue equal) is inside the valid cone:
    # of the normals of a plane, the one nearest to it is taken
    lams = _most_rows_members(U, member, copy.deepcopy(rng),
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


def _most_rows_members(U, member, rng, draws, toward):
    """The valid members (``member(y)``: ``(lam, rows on the plane)`` or ``(None,
    None)``) of the planes through the most unit rows ``U`` found by ``draws`` draws of
    $d - 1$ rows, at most ``MAX_FACES`` planes with as many rows, each refined inside the
    members with all its rows on their plane (``FACE_DRAWS`` draws) as long as such
    draws add rows; empty when no draw is valid."""
    d = U.shape[1]
    if len(U) < d - 1:
        return []
    faces = {}
    for _ in range(draws):
        lam, zero = member(_normal(U[rng.choice(len(U), size=d - 1, replace=False)],
                                   toward))
        if lam is not None:
            faces.setdefault(np.packbits(zero).tobytes(), (int(zero.sum()), lam, zero))
    if not faces:
        return []
    most = max(f[0] for f in faces.values())
    tied = [f for f in faces.values() if f[0] == most][:MAX_FACES]
    return [_inside_face(U, member, rng, lam, zero, toward) for _, lam, zero in tied]


def _inside_face(U, member, rng, lam, on, toward):
    """The member ``lam`` (rows ``on`` on its plane) or, while draws of the members with
    all those rows on their plane give valid ones with more, the one with the most."""
    W = np.eye(U.shape[1])
    while True:
        held = U[on] @ W
        sv, Wt = _svd(held, full_matrices=held.shape[0] < held.shape[1])[1:]
        rank = int(np.count_nonzero(sv > 1e3 * ON_PLANE * sv[0]))
        if rank == 0 or rank >= W.shape[1] - 1:
            return lam
        W = W @ Wt[rank:].T
        k = W.shape[1]
        P = U @ W
        rows = np.flatnonzero(np.linalg.norm(P, axis=1) > ON_PLANE)
        if len(rows) < k - 1:
            return lam
        most, centre, step = int(on.sum()), W.T @ toward, None
        for _ in range(FACE_DRAWS):
            lam2, zero = member(W @ _normal(P[rng.choice(rows, size=k - 1, replace=False)],
                                            centre))
            if lam2 is not None and int(zero.sum()) > most:
                most, step = int(zero.sum()), (lam2, zero)
        if step is None:
            # no draw inside the face is valid: its members keep the face's zeros
            return lam
        lam, on = step


def _normal(pick, centre):
    """The unit normal of the plane through the rows ``pick`` ($k - 1$ rows of $k$
    entries) nearest to ``centre``: when the rows leave several normals (a face of
    several directions), the projection of ``centre`` on them, else the last right
    singular vector."""
    _, s, Wt = _svd(pick, full_matrices=True)
    rank = int(np.count_nonzero(s > 1e3 * ON_PLANE * s[0])) if s.size and s[0] > 0 else 0
    N = Wt[rank:]
    if N.shape[0] > 1:
        y = N.T @ (N @ centre)
        size = np.linalg.norm(y)
        if size > ON_PLANE * np.linalg.norm(centre):
            return y / size
    return Wt[-1]


def _svd(A, full_matrices):
    """``numpy.linalg.svd`` (divide and conquer), or LAPACK's ``gesvd`` where it does not
    converge (the centred $Z$ of the exact 10 x 20 torus, draw 0 of
    ``bench_inference_sweep.run_one``)."""
    try:
        return np.linalg.svd(A, full_matrices=full_matrices)
    except np.linalg.LinAlgError:
        return scipy.linalg.svd(A, full_matrices=full_matrices, lapack_driver="gesvd")
