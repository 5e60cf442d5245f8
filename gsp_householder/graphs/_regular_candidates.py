"""Candidates of the constant-diagonal family (regular graphs).

The family's members other than the complete graph, those with equal weights to the
noise level it shows or with a residual consistent with it, members sparser than a
regular graph found (also among its smallest directions, refitted on their edges), and
whether a graph is regular or too close to the complete graph to say anything.
"""

from __future__ import annotations

import copy

import numpy as np
import scipy.sparse as sp

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs._candidate_search import _candidates, _edge_key
from gsp_householder.graphs._laplacian_fit import (
    _equal_within_noise,
    _residual,
    _residuals,
    equal_weights,
)
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._quadratic_family import (
    noisy_quadratic_family,
    quadratic_family,
    sparser_member_possible,
)
from gsp_householder.graphs._regular_family import (
    DEFAULT_FLOOR,
    DRAW_BUDGET,
    constant_diagonal_fit,
    constant_diagonal_noise,
)
from gsp_householder.graphs._template_lp import (
    RANDOM_OBJECTIVES,
    candidate_order,
    edge_key,
    edge_pairs,
    polish,
    rank_candidates,
    sparse_vertices,
    valid_in_span,
    weight_cv,
)
from gsp_householder.graphs._thresholds import (
    FAMILY_SEARCH_MAX_N,
    RESIDUAL_CONSISTENT,
    RESIDUAL_SLACK,
)

#: A graph found whose weighted degrees agree within this fraction of their mean is
#: regular: the constant-diagonal family is searched for a sparser member too.
REGULAR_SPREAD = 1e-2
#: Dimensions of the noisy constant-diagonal family (its smallest directions) searched
#: for a graph sparser than a regular graph found when the family's gap shows none
#: (``_forced_sparser_regular``).
FORCED_REGULAR_DIMENSIONS = (2, 3, 4)


def _regular_family(B: PairBasis, rng, noisy):
    """Candidates of the constant-diagonal family (``constant_diagonal_fit``) other than
    the complete graph, and the family's dimension; ``([], 1)`` if it is empty.

    The complete graph (equal eigenvalues) is in every family: with noise its equal
    weights would rank it above the sparse members, whose weights vary at the noise.
    """
    regular = constant_diagonal_fit(B, noisy=noisy)
    if regular is None:
        return [], 1
    family = [c for c in _candidates(B, regular, rng) if c[0] < B.n_pairs]
    return family, regular.Lam.shape[1]


def _noisy_regular(B: PairBasis, rng, keep):
    """Candidates of the noisy constant-diagonal family that ``keep(candidate, level)``
    accepts, ``level`` the noise that family shows (``constant_diagonal_noise``), and
    the family's dimension; ``([], 1)`` if it shows none."""
    level = constant_diagonal_noise(B)
    if level is None:
        return [], 1
    family, dim = _regular_family(B, rng, noisy=True)
    return [c for c in family if keep(c, level)], dim


def _equal_weight_regular(B: PairBasis, basis, rng):
    """Candidates of the noisy constant-diagonal family whose weights are equal to that
    family's noise level (``_equal_within_noise``), and the family's dimension;
    ``([], 1)`` if none."""
    return _noisy_regular(B, rng, lambda c, level: _equal_within_noise(basis, c[3], level))


def _not_near_complete(B: PairBasis, family) -> list:
    """The candidates (``rank_candidates`` items) whose complement has at least $n - 1$
    edges (enough to be connected): of a noisy constant-diagonal family, and of the
    grouped search (``_found_eigenspaces``).

    The complete graph is a member of every family, and with noise the family also
    holds it with a few pairs dropped and weights unequal: members that differ from it
    by fewer pairs than a spanning tree has say nothing about the eigenvectors (an
    irregular graph's family, relaxed caveman of 80 nodes perturbed by 1e-3: 3154 to
    3158 edges of 3160 pairs for 360, returned with no warning).
    """
    return [c for c in family if c[0] <= B.n_pairs - (B.n - 1)]


def _consistent_regular(B: PairBasis, basis, edges, rng):
    """Candidates of the noisy constant-diagonal family with fewer than ``edges`` edges
    whose residual is within ``RESIDUAL_CONSISTENT`` times that family's noise level
    (``constant_diagonal_noise``), sparsest first, and the family's dimension; ``([], 1)``
    if none."""
    fits, dim = _noisy_regular(B, rng, lambda c, level: c[0] < edges and (
        _residual(basis, c[3]) <= RESIDUAL_CONSISTENT * level))
    return sorted(fits, key=lambda c: (c[0], c[1])), dim


def equal_weight_regular_first(B: PairBasis, basis, members, edges, rng):
    """``(members, reading)``: the consistent members of the noisy constant-diagonal
    family with fewer than ``edges`` edges (``_consistent_regular``, sparsest first)
    with those whose weights are equal
    to that family's noise level put first (sparsest first), and what was read, or
    ``(members, None)`` when the sparsest member already has equal weights or the
    family shows no level.

    A member has equal weights to the level when its edges with equal weights fit the
    eigenvectors within ``RESIDUAL_CONSISTENT`` times the level, as the members
    themselves must (``_equal_member``): a weighted regular graph (constant weighted
    degree, weights 1 and 2) loses its constant degree with equal weights and fails.
    Equal weights come before fewer edges, as among the candidates of exact
    eigenvectors (``candidate_order``): perturbed by 1e-3, the eigenvectors of the
    3-cube that ``fourier_basis`` gives are fitted at the family's level by regular
    graphs of 9 edges with weights 1 and 2, by the cube and by an equal-weight twin of
    it (12 edges each), and the weighted graph was returned with no warning. The
    family's random objectives (``Fit.draws``) are drawn again, from a copy of ``rng``,
    for equal-weight members among their vertices: the first draws keep a vertex only
    when it is sparser than those before it (``sparse_vertices``).

    ``reading`` is a dict: ``"weighted"``, the edges of the sparsest member (unequal
    weights), ``"equal"``, the edges of the equal-weight members found (sparsest
    first; empty if none), and ``"first"``, the edge key of the member put first.
    """
    level = constant_diagonal_noise(B)
    if not members or level is None or _equal_member(basis, members[0][3], level):
        return members, None
    equal = {edge_key(c[3]): c for c in members if _equal_member(basis, c[3], level)}
    for c in _equal_weight_vertices(B, basis, rng, level, edges):
        equal.setdefault(edge_key(c[3]), c)
    equal = sorted(equal.values(), key=lambda c: (c[0], c[1]))
    reading = {"weighted": int(members[0][0]), "equal": [int(c[0]) for c in equal]}
    if not equal:
        reading["first"] = edge_key(members[0][3])
        return members, reading
    reading["first"] = edge_key(equal[0][3])
    keys = {edge_key(c[3]) for c in equal}
    return equal + [c for c in members if edge_key(c[3]) not in keys], reading


def regular_equal_weight_warning(found, history) -> None:
    """Warn (`AmbiguousGraphWarning`) when the graph returned (``found``, a candidate
    item) is the member that ``equal_weight_regular_first`` put first
    (``history["regular_equal_weight"]``): an equal-weight regular graph with a sparser
    weighted member beside it, or, none with equal weights found, that weighted member.
    Either way several members of the noisy constant-diagonal family fit the
    eigenvectors at its noise level, and they are among the candidates."""
    reading = history.get("regular_equal_weight")
    if reading is None or edge_key(found[3]) != reading["first"]:
        return
    edges, weighted, equal = int(found[0]), reading["weighted"], reading["equal"]
    if not equal:
        warn_at_caller(f"the inferred graph ({edges} edges, unequal weights) is one member "
                       f"of the family of regular graphs with these noisy eigenvectors "
                       f"that fit them at the noise level that family shows, and no member "
                       f"with equal weights was found: the eigenvectors do not determine "
                       f"the graph, and an unweighted graph sought may be a denser member "
                       f"that was not reached (the members found are among the "
                       f"candidates)", AmbiguousGraphWarning)
        return
    twins = equal.count(edges) - 1
    also = (f", and {twins} other regular graph(s) with equal weights and {edges} edges "
            f"fit as well" if twins else "")
    warn_at_caller(f"the inferred graph ({edges} edges) is a regular graph with equal "
                   f"weights to the noise level of the family of regular graphs with these "
                   f"eigenvectors, and a sparser member with unequal weights ({weighted} "
                   f"edges) fits them at that level too{also}: equal weights are "
                   f"preferred, but the eigenvectors do not tell these graphs apart (they "
                   f"are among the candidates)", AmbiguousGraphWarning)


def _equal_member(basis, W, level) -> bool:
    """Whether the edges of the weights ``W`` with equal weights are a member of the
    constant-diagonal family: a regular graph (``_constant_degree``) that fits the
    eigenvectors within ``RESIDUAL_CONSISTENT`` times the noise ``level`` of that
    family (the test its consistent members pass with their own weights).

    The degrees are asked as well as the fit: on few pairs a sparser irregular graph's
    edges with equal weights fit at that level too (``complete_multipartite_graph(3,
    3, 3)`` perturbed, draw 5: 19 edges of degrees 3 to 6 at 1.6 times the level,
    returned with no warning; the truth at 1.1 times)."""
    A = equal_weights(W)
    return _constant_degree(A) and _residual(basis, A) <= RESIDUAL_CONSISTENT * level


def _equal_weight_vertices(B: PairBasis, basis, rng, level, edges) -> list:
    """Candidates of the noisy constant-diagonal family at the vertices of random
    objectives (drawn from a copy of ``rng``), polished, with fewer than ``edges``
    edges and equal weights to the family's noise ``level`` (``_equal_member``); [] if
    none.

    The objectives are those of the family's whole budget, ``DRAW_BUDGET / n`` (at
    least ``Fit.draws``), not ``DRAWS_PER_DIRECTION`` per direction: the vertex of an
    equal-weight graph whose eigenvalues repeat is a degenerate one that its noisy
    family splits, reached less often than the sparsest vertex of a cubic graph's
    family that the draws per direction were measured on (the perturbed 3-cube: 5 % of
    the draws, against 15 % to 28 %; 125 draws at 8 nodes).
    """
    fit = constant_diagonal_fit(B, noisy=True)
    if fit is None:
        return []
    return [c for c in drawn_members(B, fit, copy.deepcopy(rng))
            if c[0] < edges and _equal_member(basis, c[3], level)]


def drawn_members(B: PairBasis, fit, rng) -> list:
    """The family ``fit``'s vertices at random objectives drawn from ``rng``, as many as
    its whole budget ``DRAW_BUDGET / n`` (at least ``Fit.draws``), polished and ranked
    (``rank_candidates``)."""
    lams = []
    for _ in range(max(fit.draws, DRAW_BUDGET // B.n)):
        ok, lam, _ = valid_in_span(B, fit.Lam, fit.tol, fit.floor, fit.hint,
                                   objective=rng.standard_normal(fit.Lam.shape[1]),
                                   cache=fit.programs)
        if ok:
            lams.append(polish(B, lam, fit))
    return rank_candidates(B, lams, fit)


def _sparser_regular(B: PairBasis, basis, found, noisy, rng):
    """Members of the constant-diagonal family with fewer edges than the graph ``found``
    (a ``rank_candidates`` item), or with as many and equal weights (a twin: another
    graph of the same size shares the eigenvectors), or []: its sparse vertices
    (``sparse_vertices``), polished only when not denser than ``found``.

    With noise, if none is found, the family's smallest ``FORCED_REGULAR_DIMENSIONS``
    directions are searched in turn (``_forced_sparser_regular``). When the family is
    the graph's quadratic family and its pairs' points show that no other member has
    as few edges (``_no_sparser_quadratic_member`` without noise,
    ``_noisy_quadratic_member_only`` with), its sparse vertices are not searched (nor,
    with noise, the smallest directions), and the generator draws their random
    objectives all the same.
    """
    if not noisy and _no_sparser_quadratic_member(B, found, rng):
        return []
    regular = constant_diagonal_fit(B, noisy=noisy)
    proven = noisy and regular is not None and _noisy_quadratic_member_only(B, basis, found)
    out = []
    if proven:
        rng.standard_normal((RANDOM_OBJECTIVES, regular.Lam.shape[1]))
    elif regular is not None:
        cands = _sparse_members(B, regular, rng, found[0])
        key = _edge_key(found[3])
        out = [c for c in cands if c[0] < found[0] or (
            c[0] == found[0] and c[1] <= 1e-6 and _edge_key(c[3]) != key)]
    if out or not noisy:
        return out
    return _forced_sparser_regular(B, basis, found, rng, proven=proven)


def _no_sparser_quadratic_member(B: PairBasis, found, rng) -> bool:
    """Whether the exact constant-diagonal family is the quadratic family of the regular
    graph ``found`` (``quadratic_family``) and none of its other members has at most
    ``found``'s edges (``sparser_member_possible``): ``_sparser_regular`` would return
    [] after its linear programs. ``rng`` is then advanced as their random objectives
    would have advanced it (``RANDOM_OBJECTIVES`` draws of three entries), so that the
    searches drawing from it next do not change.

    The family's max-margin program (``constant_diagonal_fit``) succeeds, and its
    random objectives are drawn, when ``found`` is a member with a margin above the
    floor: required here (twice the floor), as a proof.
    """
    lam = found[2]
    if not quadratic_family(B, lam):
        return False
    trace = float(B.mult @ lam)
    if trace <= 0.0 or float(lam.min()) * B.n / trace < 2.0 * DEFAULT_FLOOR:
        return False
    if sparser_member_possible(found[3], found[0]):
        return False
    rng.standard_normal((RANDOM_OBJECTIVES, 3))
    return True


def _noisy_quadratic_member_only(B: PairBasis, basis, found) -> bool:
    """Whether the noisy family's near-null space is the quadratic family of the graph
    ``found`` (``noisy_quadratic_family``), whose weights are equal to the noise level
    the family shows, and the pairs' points of its edges prove that no other member of
    that family has as few edges (``sparser_member_possible``).

    The smallest directions that ``_forced_sparser_regular`` searches when the
    family's gap shows none are then that family (two directions) or directions beyond
    the gap, at least ``NOISY_GAP`` times further from a constant diagonal than the
    noise: no regular graph that fits the eigenvectors as well is there.
    """
    level = constant_diagonal_noise(B)
    if level is None or not noisy_quadratic_family(B, found[2]):
        return False
    W = found[3]
    if not _equal_within_noise(basis, W, level):
        return False
    support = (sp.csr_array(W) != 0).astype(np.float64)
    return not sparser_member_possible(support, found[0])


def _forced_sparser_regular(B: PairBasis, basis, found, rng, proven=False):
    """Sparser graphs than the regular graph ``found`` in the noisy constant-diagonal
    family taken as its smallest ``d`` directions, ``d`` in
    ``FORCED_REGULAR_DIMENSIONS`` (the first that gives one), each with the weights
    that fit the eigenvectors best on its edges (``_support_fit``) and kept only if it
    fits them as well as ``found`` does on its own edges (rotation residual within
    ``RESIDUAL_SLACK``); [] if none, and above ``FAMILY_SEARCH_MAX_N`` nodes.

    A regular graph's family holds at least its eigenvalue vector and its square's
    (the distance-2 graph's), but at a noise level the widest gap among the smallest
    singular values need not separate them from the rest (random 3-regular graphs of
    60 nodes learned from signals at 30 dB: gaps of 1.6 to 8 against ``NOISY_GAP``
    10), and the distance-2 graph, which the rankings find, was returned. Its
    least-squares members are noisy (their rotation residual three times the
    truth's), hence the refit on their edges: a wrong support leaves entries above the
    noise, and a denser graph fits the noise better, which is no evidence for it.

    With ``proven`` (``_noisy_quadratic_member_only``: the family's near-null space is
    the quadratic family of ``found``, which holds no sparser member) only the
    max-margin programs run, and the random objectives of the searches are drawn.
    """
    if B.n > FAMILY_SEARCH_MAX_N:
        return []
    if proven:
        for d in FORCED_REGULAR_DIMENSIONS:
            regular = constant_diagonal_fit(B, noisy=True, dimension=d)
            if regular is not None:
                # the random objectives its search would have drawn
                rng.standard_normal((RANDOM_OBJECTIVES, regular.Lam.shape[1]))
        return []
    limit = None
    for d in FORCED_REGULAR_DIMENSIONS:
        regular = constant_diagonal_fit(B, noisy=True, dimension=d)
        if regular is None:
            continue
        out = []
        for c in _sparse_members(B, regular, rng, found[0] - 1):
            refit = _support_fit(basis, c[3]) if c[0] < found[0] else None
            if refit is not None and limit is None:
                reference = _support_fit(basis, found[3])
                limit = RESIDUAL_SLACK * (reference[0] if reference
                                          else _residuals(basis, found[3])[1])
            if refit is not None and refit[0] <= limit:
                out.append((c[0], weight_cv(sp.triu(refit[1], 1).data), c[2], refit[1]))
        if out:
            return sorted(out, key=candidate_order)
    return []


def _sparse_members(B: PairBasis, fit, rng, max_edges):
    """The family's sparse vertices (``sparse_vertices``) with at most ``max_edges``
    edges, polished and ranked (``rank_candidates``): only those are polished."""
    lams = [lam for lam in sparse_vertices(B, fit, rng)
            if len(edge_pairs(B, lam, fit.tol)[0]) <= max_edges]
    return rank_candidates(B, [polish(B, lam, fit) for lam in lams], fit)


def _support_fit(basis, W):
    """``(rotation residual, weights)`` of the weights on the edges of ``W`` that
    minimise the off-diagonal part of $V^T L V$ at the same total weight, or None if
    one of them is not positive.

    Edge $e = (i, j)$ adds $d_e d_e^T$ to $V^T L V$, $d_e = V_i - V_j$ (rows of $V$),
    so the squared off-diagonal norm is $w^T G w$ with
    $G_{ef} = (d_e^T d_f)^2 - \\sum_k d_{ek}^2 d_{fk}^2$; its minimum at fixed
    $\\mathbf 1^T w$ is at $w \\propto G^{-1} \\mathbf 1$. Combinatorial Laplacians only
    (the constant-diagonal family's kind).
    """
    upper = sp.triu(W, 1).tocoo()
    V = basis["V"]
    D = V[upper.row] - V[upper.col]
    D2 = D * D
    G = (D @ D.T) ** 2 - D2 @ D2.T
    try:
        w = np.linalg.solve(G, np.ones(upper.nnz))
    except np.linalg.LinAlgError:
        return None
    w *= upper.data.sum() / w.sum()
    if not np.all(w > 0):
        return None
    U = sp.csr_array((w, (upper.row, upper.col)), shape=W.shape)
    W = sp.csr_array(U + U.T)
    return _residuals(basis, W)[1], W


def _constant_degree(W) -> bool:
    """The weighted degrees of ``W`` agree within ``REGULAR_SPREAD``."""
    d = np.asarray(W.sum(axis=1)).ravel()
    return bool(np.ptp(d) <= REGULAR_SPREAD * d.mean())
