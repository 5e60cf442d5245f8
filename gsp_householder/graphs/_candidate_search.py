"""The search of one ranking of the pairs, exact or at a noise level.

A seed from the trimmed pairs, prefix searches re-ranked by the graph found while it
gets sparser (``_search_loop``), the candidate graphs of a family (its sparsest member
or its sparse vertices), the pairs all members hold, and the candidate lists (merged by
edge set, sparsest first).
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._family_member import sparsest_direction
from gsp_householder.graphs._local_columns import explains, sparsify_local
from gsp_householder.graphs._polished_graphs import polished_with_graphs
from gsp_householder.graphs._polynomial_member import sparser_member
from gsp_householder.graphs._seed_vertices import vertices_to_polish
from gsp_householder.graphs._sparsest_member import zero_weakest_edges
from gsp_householder.graphs._support_search import PrefixSearch, seed_fit, top_pairs
from gsp_householder.graphs._template_lp import (
    LP_ACCURACY,
    candidate_order,
    check_member,
    polish,
    rank_candidates,
    sparse_vertices,
)
from gsp_householder.graphs._template_lp import edge_key as _edge_key
from gsp_householder.graphs._thresholds import FAMILY_SEARCH_MAX_N, LADDER_MAX_N


def _candidates(B, fit, rng, history=None, seed=False):
    """Candidate graphs of a fit's family, ranked (``rank_candidates``).

    Above ``LADDER_MAX_N`` nodes, the basis's columns supported on a few nodes (twins)
    are known (``PairBasis.local_groups``), and a family that is one member plus such
    columns is not searched (linear programs over it are slow): those columns'
    eigenvalues are set to the sparsest entries (``sparsify_local``), and the
    max-margin member is the other candidate. Otherwise its sparse vertices are, each
    also with its local columns sparsified, and, on at most ``LADDER_MAX_N`` nodes, the
    member on the hyperplane of the most pair rows when it is sparser than all of them
    (``sparser_member``: a tree beside its square; counted in
    ``history["sparser_members"]``). A family of more than one direction whose
    vertices are searched is counted in ``history["vertex_searches"]`` (their accuracy
    depends on the rounding level, see ``_ladder``). Of the vertices of a noisy
    ``seed`` family above ``LADDER_MAX_N`` nodes, only those with few edges beside the
    sparsest are projected (``vertices_to_polish``).
    """
    groups = B.local_groups
    if explains(groups, fit.Lam):
        lam = sparsify_local(B, fit.lam, groups, fit.tol, fit.floor)
        return rank_candidates(B, [polish(B, lam, fit), polish(B, fit.lam, fit)], fit)
    member = _sparsest_member(B, fit, rng)
    if member is not None:
        return rank_candidates(B, [member, fit.lam], fit)
    if history is not None and fit.Lam.shape[1] > 1:
        history["vertex_searches"] += 1
    vertices = sparse_vertices(B, fit, rng)
    if seed and B.n > LADDER_MAX_N and float(fit.mu[0]) > B.cluster(0.0):
        vertices = vertices_to_polish(B, vertices, fit, history)
    # each vertex's graph is read while its matrix is kept (``_polished_graphs``)
    cands, graphs = polished_with_graphs(B, vertices, fit)
    if groups and fit.Lam.shape[1] > 1:
        cands += [sparsify_local(B, lam, groups, fit.tol, fit.floor) for lam in cands]
    sparser = sparser_member(B, fit, rng, cands)
    if sparser is not None:
        cands.append(sparser)
        if history is not None:
            history["sparser_members"] = history.get("sparser_members", 0) + 1
    return rank_candidates(B, cands, fit, graphs=graphs)


def _sparsest_member(B, fit, rng):
    """The sparsest member of an exact family (``sparsest_direction``), its local columns
    sparsified and polished, if valid; else None (noisy fits, one direction, large
    families). Above ``LADDER_MAX_N`` nodes only: below, the linear-program vertices of
    the family are fast, and on the twin grids (15 x 15) the two searches return
    different members of equal sparsity."""
    if (B.n <= LADDER_MAX_N or fit.Lam.shape[1] < 2
            or float(fit.mu[0]) > B.cluster(0.0)):
        return None
    lam = sparsest_direction(B, fit.Lam, fit.hint, rng, fit.tol, fit.floor)
    if lam is None:
        return None
    if B.local_groups:
        lam = sparsify_local(B, lam, B.local_groups, fit.tol, fit.floor)
    lam = polish(B, lam, fit)
    ok = check_member(B, lam, fit.tol, fit.floor, fit.hint)
    return lam if ok else None


def _search_at_noise(B, scores, trimmed, tol, noise, rng, history, rounding=None,
                     search_truncated=False, sparsify=False, found=()):
    """Seed from the trimmed pairs, then the searches; candidates of all.

    When the seed gives a graph, the pairs are ranked by its entries and the search
    starts at its number of edges. When the seed is a family and the eigenvectors are
    exact, the pairs that all its candidates hold are searched too
    (``_consensus_scores``), and with ``sparsify``,
    if the sparsest graph found has more than $n - 1$ edges, the weakest edges of the
    family's best candidate are zeroed (``zero_weakest_edges``). Neither runs when the
    best graph found so far, by this search or by the earlier ones (``found``, a
    ``_merge`` list), is a tree with equal weights (``_sparsest_possible``).
    """
    seed = seed_fit(B, trimmed, tol, noise, rounding, search_truncated,
                    refit=B.n > LADDER_MAX_N)
    family, family_dimension, start, ranking = [], 1, None, scores
    if seed is not None:
        family = _candidates(B, seed, rng, history, seed=True)
        family_dimension = seed.Lam.shape[1]
        if family:
            scores = B.matrix(family[0][2]) ** 2
            start = family[0][0]
    best, dim = _search_loop(B, scores, tol, noise, rng, history, start=start,
                             source=_edge_key(family[0][3]) if family else None,
                             rounding=rounding, search_truncated=search_truncated)
    if len(family) > 1 and not noise and _unsettled(B, best) and not _sparsest_possible(
            B, _merge(found, best)):
        # members of a family mix the sparsest graph with heavy graphs on the twin nodes
        # (a different one in each member): the pairs all of them hold come first,
        # unless they are too few to connect the nodes (members that share no graph)
        common = _consensus_scores(B, family)
        i, j = B.upper()
        start = min(int(np.count_nonzero(common[i, j] > LP_ACCURACY ** 2)), family[0][0])
        if start >= B.n - 1:
            more, dim2 = _search_loop(B, common, tol, noise, rng, history, start=start,
                                      rounding=rounding, search_truncated=search_truncated)
            best, dim = _merge(best, more), max(dim, dim2)
    best = _merge(best, family)
    if best and best[0][0] == B.n_pairs:
        # the complete graph is valid for every basis: no answer. The ranking holds the
        # pairs upside down when the edges' rows are few directions repeated (complete
        # multipartite graphs: rank 1 for bipartite) and the non-edges' spread: the
        # edges fit the smallest directions and the non-edges look edge-like
        more, dim2 = _search_loop(B, -ranking, tol, noise, rng, history, rounding=rounding,
                                  search_truncated=search_truncated)
        best, family_dimension = _merge(best, more), max(family_dimension, dim2)
    if (sparsify and family and family_dimension > 1 and _unsettled(B, best)
            and not _sparsest_possible(B, _merge(found, best))):
        # the vertices reached sit on the eigenvalue floor: zero the weakest edges
        sparser = zero_weakest_edges(B, seed, family[0][2])
        best = _merge(best, rank_candidates(B, sparser, seed))
    return best, max(family_dimension, dim)


def _settled(B, ranked):
    """A tree ($n - 1$ edges: no connected graph is sparser) or a graph with equal weights
    (which the vertices of a family rarely have unless they are its sparsest member)."""
    return bool(ranked) and (ranked[0][0] <= B.n - 1 or ranked[0][1] <= 1e-6)


def _sparsest_possible(B, ranked) -> bool:
    """The first graph of ``ranked`` is a tree with equal weights: no connected graph is
    sparser, and ``candidate_order`` puts no graph with more edges before it."""
    return bool(ranked) and ranked[0][0] <= B.n - 1 and ranked[0][1] <= 1e-6


def _settled_at_noise(B, ranked):
    """A graph found at a noise level that no connected graph can be sparser than (a
    tree), unless another candidate is a tree too."""
    return (bool(ranked) and ranked[0][0] <= B.n - 1
            and not any(item[0] <= B.n - 1 for item in ranked[1:]))


def _unsettled(B, ranked):
    """Worth the extra family searches: not `_settled`, on at most `FAMILY_SEARCH_MAX_N`
    nodes."""
    return B.n <= FAMILY_SEARCH_MAX_N and not _settled(B, ranked)


def _near_tree(B, ranked, dim) -> bool:
    """An equal-weight graph with more than $n - 1$ edges but fewer than $n - 1 + d$,
    found in a family of dimension ``dim`` $= d$, on at most ``FAMILY_SEARCH_MAX_N``
    nodes: `_settled` takes it as found, but a spanning tree may share its eigenvectors.

    A sparse vertex of a family of dimension $d$ has fewer than $d$ edges less than the
    family's other members, so the family may hold a tree that its linear-program
    vertices did not reach (which vertex they reach depends on the rounding: a tree
    with three double eigenvalues, ``random_labeled_tree(80, seed=0)``, gave an
    equal-weight graph of 80 edges, one cycle, from a family of dimension 9 that holds
    the tree).
    """
    return (B.n <= FAMILY_SEARCH_MAX_N and bool(ranked) and ranked[0][1] <= 1e-6
            and B.n - 1 < ranked[0][0] < B.n - 1 + dim)


def _consensus_scores(B, family):
    """Smallest squared entry over the members of a family, each relative to its largest."""
    common = None
    for item in family:
        P = B.matrix(item[2]) ** 2
        P /= max(float(P.max()), 1e-300)
        common = P if common is None else np.minimum(common, P)
    return common


def _search_loop(B, scores, tol, noise, rng, history, max_searches=4, start=None,
                 source=None, rounding=None, search_truncated=False, bisect_first=True):
    """Search, re-rank by the graph found, search again while it gets sparser.

    ``source`` is the edge set of the graph that ``scores`` come from (if any) and
    ``start`` its number of edges: the search starts there, and stops when it returns
    the graph it was ranked by. Without ``bisect_first`` the first search stops at the
    first valid size it reaches (the graph found re-ranks the pairs anyway). With the
    eigenvalue order, a search whose family has the span of the previous one (whose
    candidates it holds) ends the loop without searching that family again.
    """
    best, family_dimension, previous = [], 1, None
    c_max = B.n_pairs - max(B.g, 2 * B.n) - 1
    for k in range(max_searches):
        search = PrefixSearch(B, top_pairs(B, scores, c_max), tol, noise, rounding,
                              search_truncated, refit=B.n > LADDER_MAX_N)
        fit = search.run(start, bisect=bisect_first or bool(best))
        history["n_evaluations"] += search.n_evaluations
        if search.window_fits:
            # prefixes found between a doubling step (``_prefix_window``)
            history["prefix_window_fits"] = (history.get("prefix_window_fits", 0)
                                             + search.window_fits)
        if k == 1 and not bisect_first and fit is not None:
            # the family at the graph found, not at the first valid size reached
            family_dimension = fit.Lam.shape[1]
        if B.ordered and fit is not None and previous is not None and _same_span(
                previous.Lam, fit.Lam):
            break
        previous = fit
        ranked = _candidates(B, fit, rng, history) if fit is not None else []
        if not ranked or (best and candidate_order(ranked[0]) >= candidate_order(best[0])):
            break
        best = ranked
        history["complement_sizes"].append(fit.c)
        family_dimension = max(family_dimension, fit.Lam.shape[1])
        key = _edge_key(best[0][3])
        if key == source:
            break
        scores, start, source = B.matrix(best[0][2]) ** 2, best[0][0], key
    return best, family_dimension


def _same_span(A, C, rtol=1e-8) -> bool:
    """Whether the columns of ``A`` and ``C`` span the same space."""
    if A.shape[1] != C.shape[1]:
        return False
    Q = np.linalg.qr(A)[0]
    return bool(np.linalg.norm(C - Q @ (Q.T @ C)) <= rtol * np.linalg.norm(C))


def _merge(best, family):
    """The search's candidates then the seed family's, distinct edge sets only."""
    out, seen = [], set()
    for item in (best or []) + family:
        key = _edge_key(item[3])
        if key not in seen:
            seen.add(key)
            out.append(item)
    out.sort(key=candidate_order)
    return out
