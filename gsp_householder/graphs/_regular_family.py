"""Laplacians with a constant diagonal: the family that holds regular graphs.

The diagonal of $L = V \\operatorname{diag}(\\lambda) V^T$ is $Z\\lambda$ with
$Z = V \\circ V$. For a regular graph (every node of the same degree) it is constant, so
the true eigenvalue vector lies in the null space of the centred $Z$ (rows minus their
mean), which for generic eigenvectors holds only $\\mathbf 1$. Its off-diagonal entries
carry all its spread, so it sits among the *largest* directions of the pairs' Gram
matrix, where the rankings of ``_support_search`` and ``_fitted_ranking`` do not look.
The exact null space (rounding level) is searched as a family instead: its valid sparse
vertices are candidate graphs. A perturbed basis has no exact null space: the directions
below the widest gap among the smallest singular values (at least ``NOISY_GAP`` wide,
and below ``NOISY_LEVEL`` times the noise level) are its near-null space, searched with
off-diagonal tolerances at the noise level.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._support_search import CLEAN_FACTOR, MAX_FAMILY
from gsp_householder.graphs._svd_fallback import svd_or_gesvd
from gsp_householder.graphs._template_lp import (
    RANDOM_OBJECTIVES,
    Fit,
    edge_pairs,
    valid_in_span,
)

#: Singular values of the centred $Z$ below this fraction of the largest are null.
NULL_LEVEL = 1e-9
#: Largest null space searched: the truncation size of the prefix search's families
#: (``MAX_FAMILY``). Distance-regular and other vertex-transitive graphs with repeated
#: eigenvalues have large ones (31 directions for the 6-cube, whose exact eigenvectors
#: gave the complete graph with a cap of 8). The noisy near-null space is searched
#: among the smallest ``NOISY_TAIL`` directions only.
MAX_DIMENSION = MAX_FAMILY
#: Singular values examined for the noisy near-null space's gap.
NOISY_TAIL = 8
#: With noise, the near-null directions are separated from the others by a gap of at
#: least this factor in singular value...
NOISY_GAP = 10.0
#: ... and lie below this fraction of the largest one (their level, taken as the
#: standardised noise level of the basis).
NOISY_LEVEL = 1e-2
#: Smallest eigenvalue (at trace $n$) of the family's valid members (``constant_diagonal_fit``).
DEFAULT_FLOOR = 1e-5
#: Random objectives per direction of a constant-diagonal family (``regular_draws``)...
DRAWS_PER_DIRECTION = 4
#: ... within this many node-objectives in all (a linear program costs about ``n``).
DRAW_BUDGET = 1000


def _noisy_null(s, tail_size: int = NOISY_TAIL):
    """Mask of the singular values below the widest gap among the smallest
    ``tail_size + 1`` and their level relative to the largest, if that gap passes
    ``NOISY_GAP`` and the level ``NOISY_LEVEL``; else an empty mask."""
    null = np.zeros(s.size, dtype=bool)
    tail = s[-(tail_size + 1):]
    ratios = tail[:-1] / np.maximum(tail[1:], 1e-300)
    k = int(np.argmax(ratios))
    level = float(tail[k + 1] / s[0])
    if ratios[k] >= NOISY_GAP and level <= NOISY_LEVEL:
        null[s.size - tail.size + k + 1:] = True
    return null, level


def constant_diagonal_dimension(B: PairBasis) -> int:
    """Dimension of the exact constant-diagonal family (the null space of the centred
    $Z$ plus the direction $\\mathbf 1$); 0 for grouped unknowns or a non-constant ``u``."""
    if B.G is not None or np.ptp(B.u) > 1e-12 * B.u.max():
        return 0
    Z = B.V * B.V * (B.u ** 2)[:, None]
    s = np.linalg.svd(Z - Z.mean(axis=0), compute_uv=False)
    return int(np.count_nonzero(s <= NULL_LEVEL * s[0]))


def _centred_diagonal(B: PairBasis) -> tuple[np.ndarray, np.ndarray] | None:
    """``(P Q, Q)``: the centred $Z$ ``P`` (rows: nodes, columns: eigenvalue unknowns)
    times ``Q``, an orthonormal basis of the unknowns orthogonal to $\\mathbf 1$; None for
    grouped unknowns or a non-constant ``u``."""
    if B.G is not None or np.ptp(B.u) > 1e-12 * B.u.max():
        return None
    Z = B.V * B.V * (B.u ** 2)[:, None]
    P = Z - Z.mean(axis=0)
    g = P.shape[1]
    Q = np.linalg.qr(np.hstack([np.ones((g, 1)), np.eye(g)[:, : g - 1]]))[0][:, 1:]
    return P @ Q, Q


def _diagonal_svd(B: PairBasis) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(Q, s, Wt)``: ``Q`` of ``_centred_diagonal`` and the singular values and right
    singular vectors of ``P Q``, computed once per basis (``PairBasis.diagonal``: the
    fits of several dimensions and noise levels share them); None as there."""
    if B.diagonal is None:
        centred = _centred_diagonal(B)
        if centred is None:
            B.diagonal = (None,)
        else:
            PQ, Q = centred
            _, s, Wt = svd_or_gesvd(PQ, full_matrices=True)
            B.diagonal = (Q, s, Wt)
    return None if B.diagonal[0] is None else B.diagonal


def constant_diagonal_noise(B: PairBasis, tail_size: int = NOISY_TAIL) -> float | None:
    """The level of the noisy near-null space of the centred $Z$ (``_noisy_null``: the
    relative singular value below the widest gap among the smallest ``tail_size + 1``),
    or None when it has an exact null space beyond $\\mathbf 1$ or no such gap; also
    None for grouped unknowns or a non-constant ``u``."""
    centred = _centred_diagonal(B)
    if centred is None:
        return None
    s = np.linalg.svd(centred[0], compute_uv=False)
    if np.any(s <= NULL_LEVEL * s[0]):
        return None
    null, level = _noisy_null(s, tail_size)
    return level if null.any() else None


def regular_draws(n: int, d: int) -> int:
    """Random objectives for a constant-diagonal family of ``d`` directions on ``n`` nodes:
    ``max(RANDOM_OBJECTIVES, min(DRAWS_PER_DIRECTION * d, DRAW_BUDGET // n))``.

    A random objective reaches a vertex with the probability of its normal cone, which
    shrinks as the family's vertices multiply with its dimension: the sparsest vertex
    of a small cubic graph's family was reached by 28 % of the draws (Frucht graph,
    4 directions) and 15 % (Desargues graph, 10 directions), so six draws missed it
    on 3 and 12 of 32 shuffles and returned a denser member. The draws grow with the
    dimension within a budget proportional to the programs' cost, ``DRAW_BUDGET / n``
    (Desargues: 40 draws, which miss a vertex reached at 15 % with probability 0.15 %);
    above 166 nodes the budget allows ``RANDOM_OBJECTIVES`` only. The draws beyond
    ``RANDOM_OBJECTIVES`` add a vertex only if it is sparser than the candidates before
    it (``sparse_vertices``), so the candidates of a family whose sparsest vertex the
    first draws found do not change.

    >>> regular_draws(12, 4), regular_draws(20, 10), regular_draws(64, 31)
    (16, 40, 15)
    """
    return max(RANDOM_OBJECTIVES, min(DRAWS_PER_DIRECTION * d, DRAW_BUDGET // n))


def constant_diagonal_fit(B: PairBasis, floor=DEFAULT_FLOOR, noisy=False, dimension=None,
                          tail_size: int = NOISY_TAIL):
    """A ``Fit`` on the valid Laplacians with a constant diagonal, or None.

    Only for one unknown per column and a combinatorial Laplacian (constant ``u``).
    With ``noisy``, when the centred diagonal has no exact null space, its near-null
    space (``_noisy_null`` among the smallest ``tail_size + 1`` singular values) is
    searched at the noise level it shows; with ``dimension`` as well, that space is its
    ``dimension`` smallest directions instead, whatever the gap above them, at the
    level of the largest of them.
    """
    centred = _diagonal_svd(B)
    if centred is None:
        return None
    Q, s, Wt = centred
    g = Q.shape[0]
    null = s <= NULL_LEVEL * s[0]
    tol = np.full(B.n, 1e-9 * B.n)
    noisy = noisy and not null.any()
    if noisy:
        if dimension is None:
            null, noise = _noisy_null(s, tail_size)
        else:
            null = np.arange(s.size) >= s.size - dimension
            noise = float(s[-dimension] / s[0])
        # tolerances in the units of equal eigenvalues, as for a noisy prefix's pairs
        scale = B.node_scale(B.equal_eigenvalues())
        tol = np.maximum(CLEAN_FACTOR * noise * scale, 5e-10)
        floor = max(floor, noise)
    if not null.any() or null.sum() > MAX_DIMENSION:
        return None
    Lam = np.hstack([np.ones((g, 1)), Q @ Wt[null].T])
    mu = np.zeros(Lam.shape[1])
    hint = B.upper()
    programs = {}
    ok, lam, _ = valid_in_span(B, Lam, tol, floor, hint, cache=programs)
    if not ok:
        return None
    if noisy:
        # the misfit of the pairs left at zero, in the units of the pairs' Gram (the
        # level ``polish`` and the candidates' least squares work at)
        I, J = edge_pairs(B, lam, tol)
        i, j = hint
        R = B.matrix(lam)
        own = float(np.sum(R[i, j] ** 2) - np.sum(R[I, J] ** 2))
        centred = lam - lam.mean()
        mu[:] = max(own / max(float(centred @ centred), 1e-300), 2.0 * B.null_floor)
    return Fit(lam, Lam, mu, 0, tol, floor, hint, programs,
               draws=regular_draws(B.n, Lam.shape[1]))
