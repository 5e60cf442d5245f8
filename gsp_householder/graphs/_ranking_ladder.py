"""The ladder: the rankings of the pairs searched in turn.

Each ranking's kept pairs give a noise estimate; exact eigenvectors are searched as
exact (then at a coarser rounding, on the next ranking, and at noise levels when the
graph does not fit them), noisy ones at the level the rankings agree on
(``_noisy_ladder``), where the graphs that fit as well as the best are compared by
sparsity and equal weights.
"""

from __future__ import annotations

import copy

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._candidate_search import (
    _candidates,
    _edge_key,
    _merge,
    _near_tree,
    _search_at_noise,
    _settled,
    _settled_at_noise,
    _unsettled,
)
from gsp_householder.graphs._deep_trimming import (
    DEEP,
    deep_ranking,
    deeper_order,
    in_turn,
    uncapped_sizes,
)
from gsp_householder.graphs._equal_weight_member import equalised_at_noise
from gsp_householder.graphs._family_tree import large_basis_tree
from gsp_householder.graphs._fitted_ranking import fitted_ranking, flat_unknowns
from gsp_householder.graphs._fitting_tree import early_exact_tree, early_tree
from gsp_householder.graphs._hopeless_basis import hopeless_basis, large_family_tree
from gsp_householder.graphs._hopeless_family import hopeless_ladder, hopeless_record
from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _equal_within_noise,
    _fits_as_well,
    _laplacian,
    _residual,
    _residuals,
)
from gsp_householder.graphs._missing_edge_refit import missing_edge_refit
from gsp_householder.graphs._noise_resolution import median_resolution
from gsp_householder.graphs._pair_geometry import PairBasis, complement_gram
from gsp_householder.graphs._prefix_window import doubtful_window_graph
from gsp_householder.graphs._result_checks import _undetermined_support
from gsp_householder.graphs._rounding_level_fit import (
    fit_replaces_misfit,
    record_replaced_misfit,
    rounding_level_fit,
)
from gsp_householder.graphs._sampled_ranking import sampled_leverage_ranking
from gsp_householder.graphs._sign_program_tree import failed_search_tree
from gsp_householder.graphs._sparser_rival import record_fitting_rival, record_sparser_rival
from gsp_householder.graphs._support_refit import refitted_on_support
from gsp_householder.graphs._support_search import (
    COARSE_ROUNDING,
    EXACT_NOISE,
    PrefixSearch,
    full_scores,
    graph_energy_floor,
    leverage_ranking,
    robust_noise,
    trimming_sizes,
)
from gsp_householder.graphs._template_lp import candidate_order
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    FAMILY_SEARCH_MAX_N,
    LADDER_MAX_N,
    MAX_NOISE,
    PLAIN_SLACK,
    RESIDUAL_CONSISTENT,
    RESIDUAL_SLACK,
    ROUNDING_FIT,
    UNRESOLVABLE_NOISE,
)
from gsp_householder.graphs._weighted_tree import early_weighted_tree
from gsp_householder.graphs._whole_space_steps import whole_space_steps

#: Two rankings' noise estimates within this factor of each other are taken as the
#: noise level of the eigenvectors.
NOISE_AGREEMENT = 3.0
#: Rankings tried in turn: (smallest directions used, fraction of pairs kept per
#: trimming round) of the leverage ranking.
RANKINGS = tuple((r, keep) for keep in (0.7, 0.6) for r in (8, 16, 24, 32))
#: Exact graphs of families up to this dimension that are not settled (``_settled``) are
#: searched on the next ranking too (larger families make slow linear programs).
NEXT_RANKING_FAMILY = 24
#: Rankings tried in turn above ``LADDER_MAX_N`` nodes: (smallest directions used,
#: fraction of the sampled pairs kept per round, trimming rounds). Three rounds clear
#: exact eigenvectors; with noise, later rounds find directions that fit the kept
#: pairs below the noise (functions of the Laplacian concentrated on the trimmed
#: pairs), and one round with more directions ranks the edges first.
LARGE_RANKINGS = ((8, 0.7, 3), (32, 0.7, 1), (16, 0.7, 1), (32, 0.7, 2))
#: Largest median noise estimate of the rankings of eigenvectors taken as exact by
#: ``_refit_misfit`` (weighted cycles and paths: 3e-10 to 2e-9; eigenvectors perturbed
#: by 1e-3 show estimates near that level).
EXACT_MEDIAN_LEVEL = 1e-7
#: Fewest pairs per unknown of a basis whose rankings clean to rounding show exact
#: eigenvectors (``_refit_misfit``; below, the Petersen graph and twin classes).
EXACT_PAIRS_PER_UNKNOWN = 8
#: Noise levels at which the rankings are searched when exact eigenvectors give a graph
#: that does not fit them (``_refit_misfit``).
MISFIT_LEVELS = (1e-6, 1e-4, 1e-3)
#: A non-edge of a graph found whose leverage in the other non-edges' Gram is within
#: this of 1 is freed from it (``_freed_member``).
FREED_LEVERAGE = 1e-6
#: Most nodes of a basis searched so (the leverages cost $O(n^4)$ flops).
FREED_MAX_N = 300
#: The uncapped rankings' noisy ladder stops when this many of them in a row give no
#: graph before any gives one: the capped ladder then searches (``capped_fallback``).
#: The uncapped rankings that found graphs gave them on the first rankings searched
#: (PyGSP ``Sensor(400, seed=1)`` perturbed: the first two); on perturbed
#: ``DavidSensorNet(500)`` none of the eight gave one (2-6 CPU s each).
DEEP_MISSES = 2
#: Rounds of ``_freed_member``.
FREED_ROUNDS = 3


def _ladder(B: PairBasis, basis, tol, rng, history, order=None, exact_refit=False,
            last_resort=True, capped=False):
    """The search on the rankings of ``RANKINGS``, exact or at the estimated noise level.

    Near-null directions (twin and pendant nodes, nodes left with few pairs by the
    trimming) crowd the smallest directions of the trimmed Gram, so a ranking may leave
    edges among the kept pairs. Each ranking's kept pairs give a noise estimate
    (``robust_noise``). At rounding level (below ``EXACT_LEVEL``) the eigenvectors are
    exact; above ``MAX_NOISE`` the kept pairs are not clean. In both cases the exact
    search runs (a smaller prefix of the ranking may be clean) and the first graph found
    is returned; if it belongs to a family (dimension above 1) whose linear-program
    vertices were searched, the search also runs at the coarser rounding level
    ``COARSE_ROUNDING`` and the sparsest candidate of both is returned (linear programs
    are accurate to about 1e-7, so which members of a family pass depends on that
    level). Families whose candidates need no vertex (one direction plus the local
    columns, or a sparsest member found by ``_sparsest_member``) are not searched again.
    Estimates in between are noise or an unclean ranking of exact
    eigenvectors: the input is taken as noisy once two such estimates agree within a
    factor ``NOISE_AGREEMENT`` before any ranking reached rounding level. Noisy
    rankings are then searched at their noise level (those within
    ``RESIDUAL_CONSISTENT`` times the smallest estimate first, then those at most
    ``UNRESOLVABLE_NOISE``) until two consecutive ones give the
    same graph; of the graphs found, those whose rotation residual (off-diagonal part of
    $V^T L V$ relative to the spread of its diagonal, ``_residuals``) is within
    ``RESIDUAL_SLACK`` of the smallest are kept and the sparsest of them is returned,
    graphs with equal weights to the noise level first (``_equal_within_noise``): a
    wrong support leaves entries well above the noise in the residual
    (``_noisy_ladder``). If that residual exceeds ``RESIDUAL_CONSISTENT`` times
    the smallest noise estimate, the remaining rankings are searched as exact first,
    then, if a graph was found, all noisy rankings again at the largest estimate, and
    the graph with the smaller residual is returned. Exact eigenvectors whose rankings
    all fail are searched again at the rounding noise level. When the rankings' agreeing noise level
    is above ``UNRESOLVABLE_NOISE``, nothing is searched (no graph); for the leverage
    rankings this is reported as noise (``history["unresolvable"]``). Without
    ``last_resort`` the noisy ladder that finds no graph does not search the rankings
    again at the largest estimate over truncated families (``_noisy_ladder``). Where the
    cap on the pairs trimmed binds and no capped ranking is clean, uncapped rankings
    replace them when cleaner (``deeper_order``; ``history["deep_trimming"]``), unless
    ``capped`` or ``exact_refit``.
    """
    leverage = order is None      # the fitted rankings' noise estimates are not the noise
    if order is None:
        order = RANKINGS if B.n <= LADDER_MAX_N else LARGE_RANKINGS
    order, cache, searches = list(order), {}, SearchRecord()

    def compute(key):
        if key[2:] == ("fitted",):
            return kept_fitted_ranking(B, key)
        if B.n <= LADDER_MAX_N:
            # rankings that trim as many pairs at every round are one ranking (and
            # one noise estimate), and their searches one search (``SearchRecord``)
            searches.aliases[key] = _ranking_sizes(B, key)
            return kept_ranking(B, key)
        scores, trimmed = sampled_leverage_ranking(B, rng, rounds=key[2], keep=key[1],
                                                   r=key[0])
        return scores, trimmed, robust_noise(B, trimmed)

    def ranking(key):
        if key not in cache:
            cache[key] = compute(key)
            history["noise_estimates"].append(cache[key][2])
        return cache[key]

    deep = False
    if leverage and not (capped or exact_refit):
        # the capped trimming may leave edges among the kept pairs (``_deep_trimming``)
        uncapped = deeper_order(B, order, compute)
        if uncapped is not order:
            order, deep, history["deep_trimming"] = uncapped, True, True
            # their kept third of the pairs leaves directions of small energy: the
            # families are held to a graph's noise energy too (``_graph_energy``; reset
            # by ``capped_fallback``)
            graph_energy_floor.set(True)

    if exact_refit:
        # the leverage rankings' searches at noise levels only (``_exact_refit``); their
        # estimates are not the ones the caller keeps
        estimates = history["noise_estimates"]
        history["noise_estimates"] = []
        exact = any(ranking(key)[2] <= EXACT_LEVEL for key in order)
        result = (_exact_refit(B, basis, tol, rng, history, order, ranking, searches)
                  if exact else ([], 1))
        history["noise_estimates"] = estimates
        return result
    if leverage and B.n > LADDER_MAX_N and ranking(order[0])[2] > EXACT_LEVEL:
        order.sort(key=lambda k: ranking(k)[2])    # not exact: the cleanest rankings first
    deferred, exact_level, noisy = [], [], len(order) == 1
    rest = list(order)
    while rest:
        key = rest.pop(0)
        scores, trimmed, noise = ranking(key)
        if noise <= EXACT_LEVEL or noise > MAX_NOISE:
            vertex_searches = history["vertex_searches"]
            ranked, dim = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history)
            if ranked and dim > 1 and history["vertex_searches"] > vertex_searches:
                coarse, dim2 = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history,
                                                rounding=COARSE_ROUNDING, sparsify=True,
                                                found=ranked)
                ranked, dim = _merge(ranked, coarse), max(dim, dim2)
                if rest and ((_unsettled(B, ranked) and dim <= NEXT_RANKING_FAMILY)
                             or _near_tree(B, ranked, dim)):
                    # the family's span may hold the sparsest graph too inaccurately to
                    # pass: the next ranking's span is searched as well (also for an
                    # equal-weight graph close to a tree, whatever the family's
                    # dimension: the tree may be there)
                    ranked, dim = _next_exact(B, ranking(rest[0]), tol, rng, history,
                                              ranked, dim)
            if ranked and noise <= EXACT_LEVEL:
                ranked, dim = _refit_misfit(B, basis, tol, rng, history, order, ranking,
                                            ranked, dim, searches)
            if ranked:
                return ranked, dim
            if deep and noise <= EXACT_LEVEL:
                # an uncapped ranking clean to rounding and no graph: the capped
                # rankings decide (``capped_fallback``)
                return [], 1
            if noise <= EXACT_LEVEL:
                exact_level.append(key)
            continue
        deferred.append(key)
        levels = np.sort([cache[k][2] for k in deferred])
        if not exact_level and np.any(levels[1:] <= NOISE_AGREEMENT * levels[:-1]):
            noisy = True
        if noisy:
            break
    if noisy and not exact_level:
        level = min(e for e in history["noise_estimates"] if EXACT_LEVEL < e <= MAX_NOISE)
        if level > UNRESOLVABLE_NOISE:
            # unclean rankings of exact eigenvectors can agree on such a level too: the
            # exact search (no linear program unless a prefix fits to rounding) first
            exact = _first_exact(B, deferred, ranking, tol, rng, history)
            if exact:
                return exact
            # a later ranking clean to rounding: exact eigenvectors (PyGSP
            # Sensor(300, seed=5): 4.2e-2, 6.6e-2 and 2.6e-2, then 1.2e-14 with 32
            # directions); up to LADDER_MAX_N nodes, where the rankings draw nothing
            clean = [k for k in rest if B.n <= LADDER_MAX_N and compute(k)[2] <= EXACT_LEVEL]
            exact = _first_exact(B, clean, ranking, tol, rng, history,
                                 refit=(basis, order, searches))
            if exact:
                return exact
            if leverage:
                history["unresolvable"] = level
            return [], 1
    if (noisy or deferred) and not exact_level:
        # a later prefix clean to rounding level: the eigenvectors are exact after all
        # (unclean rankings agreed on a level by chance), and their exact graph wins;
        # not for the uncapped rankings, which are computed when the ladder reaches
        # them (``_deep_trimming.in_turn``): the capped ladder decides without a graph
        later = [] if deep else [k for k in rest if ranking(k)[2] <= EXACT_LEVEL]
        exact = _first_exact(B, later, ranking, tol, rng, history,
                             refit=(basis, order, searches))
        if exact:
            return exact
        if leverage and not deep:
            # the first rankings' kept pairs leave most eigenvalues free: any graph found
            # is one member of a family that large; no search (``_hopeless_basis``)
            trees = []
            hopeless = hopeless_basis(B, _consistent_first(order, ranking), ranking,
                                      (EXACT_LEVEL, MAX_NOISE), tol, basis, trees)
            if hopeless is not None:
                history["hopeless_basis"] = hopeless
                return [], max(hopeless[0])
            if not trees:
                # one ranking's kept family that large is enough for the tree search
                # (``large_family_tree``); the rule above asks it of all
                tree = large_family_tree(B, _consistent_first(order, ranking), ranking,
                                         (EXACT_LEVEL, MAX_NOISE), basis)
                trees = [] if tree is None else [tree]
            tree = early_tree(B, basis, trees, history) or early_weighted_tree(
                B, basis, history, _consistent_first(order, ranking), ranking)
            if tree is None:
                # above LADDER_MAX_N nodes: a tree searched inside the kept families
                # (``_family_tree``), where the prefix searches would truncate them
                tree = large_basis_tree(B, basis, _consistent_first(order, ranking),
                                        ranking, (EXACT_LEVEL, MAX_NOISE), history)
            if tree is not None:
                # a spanning tree with unit weights fits the eigenvectors at their noise
                # level where the kept pairs leave most eigenvalues free: no connected
                # graph is sparser, and the searches would end at weighted members of
                # the kept pairs' family (``_fitting_tree``)
                return tree
        # the uncapped rankings' last resort (truncated families at the largest estimate,
        # with two thirds of the pairs trimmed) is left to the capped ladder that
        # ``capped_fallback`` runs when they give no graph
        ranked, dim, residual = _noisy_ladder(B, basis, tol, rng, history, order, ranking,
                                              searches=searches,
                                              last_resort=last_resort and not deep,
                                              misses=DEEP_MISSES if deep else None)
        if ranked and "hopeless_family" in history:
            # the rankings' graphs all leave most eigenvalues free: no other ladder or
            # exact search is made (``_hopeless_family``; the result is warned of)
            return ranked, dim
        level = min(e for e in history["noise_estimates"] if EXACT_LEVEL < e <= MAX_NOISE)
        if ranked and residual <= RESIDUAL_CONSISTENT * level:
            if residual <= level:
                return ranked, dim
            return _sparser_at_level(B, basis, tol, rng, history, order, ranking, ranked,
                                     dim, level, searches=searches)
        if deep and not ranked:
            return ranked, dim      # the capped ladder searches (``capped_fallback``)
        for key in rest + ([] if noisy else deferred):   # inconsistent: exact after all?
            scores, trimmed, noise = ranking(key)
            if noise <= EXACT_LEVEL or noise > MAX_NOISE or not noisy:
                exact, dim2 = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history)
                if exact:
                    history["noise"] = 0.0
                    return exact, dim2
        refit = _with_missing_edges(B, basis, history, ranked, level)
        if refit is not None:
            return refit, dim
        tree = failed_search_tree(B, basis, history, level)
        if tree is not None:
            # no graph found fits at the noise level, and a spanning tree read from the
            # sign-constrained program over the whole basis does: no connected graph is
            # sparser (``_sign_program_tree``)
            return tree
        if not ranked:
            # no graph: the noisy ladder's last resort searched every noisy ranking at
            # the largest estimate already, the truncated families too
            return ranked, dim
        # still inconsistent: all rankings at the largest estimate (looser tolerances)
        noise, largest = history["noise"], max(ranking(k)[2] for k in order
                                               if EXACT_LEVEL < ranking(k)[2] <= MAX_NOISE)
        wide, dim2, residual2 = _noisy_ladder(B, basis, tol, rng, history, order, ranking,
                                              fixed_noise=largest, searches=searches)
        if wide and residual2 < residual:
            return wide, dim2
        history["noise"] = noise
        return ranked, dim
    if exact_level and leverage:
        tree = early_exact_tree(B, basis, history)
        if tree is not None:
            # exact eigenvectors and no exact graph: a spanning tree with unit weights
            # that fits them to rounding is a sparsest connected valid graph, which the
            # searches at noise levels would miss (``_fitting_tree``)
            return tree
        # else the refit levels before the searches at the rounding level
        # (``_refit_first``)
        early = _refit_first(B, basis, tol, rng, history, order, ranking)
        if early is not None:
            return early
    for key in deferred + exact_level:
        scores, trimmed, noise = ranking(key)
        history["noise"] = EXACT_NOISE if key in exact_level else 0.0
        ranked, dim = _search_at_noise(B, scores, trimmed, tol, history["noise"], rng,
                                       history)
        if ranked and exact_level:
            ranked, dim = _refit_misfit(B, basis, tol, rng, history, order, ranking,
                                        ranked, dim, searches)
        if ranked:
            return ranked, dim
    return [], 1


def _with_missing_edges(B, basis, history, ranked, level) -> list | None:
    """``ranked`` with its first graph refitted with the non-edges the eigenvectors show
    (``missing_edge_refit``) put first, when that graph fits them to the noise level
    (residual at most ``RESIDUAL_CONSISTENT`` times ``level``) while the graph found
    did not; else None. ``history["missing_edge_refit"]`` records the edges of both.
    """
    if not ranked:
        return None
    refit = missing_edge_refit(B, basis, ranked[0][3])
    if refit is None or _residual(basis, refit[3]) > RESIDUAL_CONSISTENT * level:
        return None
    history["missing_edge_refit"] = (int(ranked[0][0]), int(refit[0]))
    return [refit, *ranked]


def _sparser_at_level(B, basis, tol, rng, history, order, ranking, ranked, dim, level,
                      searches=None):
    """``(ranked, dim)``, or the graph the rankings give at the smallest noise estimate
    ``level`` (``_noisy_ladder`` at that fixed level, on a copy of ``rng``) when it has
    fewer edges and fits the eigenvectors better (plain and rotation residuals,
    ``_residuals``).

    The noisy ladder searches each ranking at its own estimate and stops when two agree;
    a wider estimate admits families whose members mix weak extra edges with missed
    strong ones (a tree of 120 nodes with lognormal weights, $\\sigma$ = 1.5, perturbed
    by 1e-3: 126 edges for 119 at estimates 2.7e-4 to 8e-4, residual 1.27e-3; at
    2.7e-4 the rankings give 119 edges at 9.6e-4, the truth's 9.5e-4). A graph that
    is sparser and fits better is preferred on both counts. Searched only when the
    graph's residual is above ``level`` (the caller's test; weighted Delaunay(200)
    exact, whose estimates look noisy, is at 0.73 times it: 5 CPU s for the same
    graph). Not searched: graphs with equal weights to the noise level or trees
    (`_settled_at_noise`), a ladder already at that level to the resolution of the
    estimate (``_level_resolution``: weighted Delaunay(200, seed 11) perturbed ended
    at 2.42521e-4 beside the smallest estimate 2.42511e-4, whose standard error is
    1.4 %, and spent 1.2 CPU s there for a denser graph), more than
    ``FAMILY_SEARCH_MAX_N`` nodes. ``history["sparser_at_level"]``
    holds the edges of both graphs when it was searched; ``history["noise"]`` is
    ``level`` when the graph is replaced. A sparser graph that fits as well but not
    better is recorded as a rival (``record_sparser_rival``), which the result warns of
    when the two disagree. ``searches``: the record of the searches of the ladders
    before (``_repeatable_search``): the ranking whose estimate is ``level`` was
    searched at that level already.
    """
    noisy = history.get("noisy_graphs", [])
    if (B.n > FAMILY_SEARCH_MAX_N or not noisy
            or history["noise"] <= level * (1.0 + _level_resolution(B, order, ranking, level))
            or _settled_at_noise(B, ranked)
            or any(g["equal_weights"] and g["edges"] == ranked[0][0] for g in noisy)):
        return ranked, dim
    saved = {k: copy.deepcopy(history[k]) for k in ("noisy_graphs", "residuals", "noise")
             if k in history}
    wide, dim2, _ = _noisy_ladder(B, basis, tol, copy.deepcopy(rng), history, order,
                                  ranking, fixed_noise=level, searches=searches)
    history.update(saved)
    history["sparser_at_level"] = [int(ranked[0][0]), int(wide[0][0]) if wide else None]
    if not wide or wide[0][0] >= ranked[0][0]:
        return ranked, dim
    before, after = _residuals(basis, ranked[0][3]), _residuals(basis, wide[0][3])
    if after[0] < before[0] and after[1] < before[1]:
        history["noise"] = level
        return wide, dim2
    record_sparser_rival(history, ranked[0], wide[0], before, after, B.n_pairs)
    return ranked, dim


def _level_resolution(B, order, ranking, level) -> float:
    """Relative standard error of the estimate ``level`` (``median_resolution`` of the
    pairs kept by the ranking of ``order`` whose estimate it is), or 0 when no ranking
    of ``order`` has it (the fitted rankings' ladder below the leverage rankings'
    estimate): a ladder that ended within it of ``level`` is at that level."""
    for key in order:
        _, trimmed, noise = ranking(key)
        if noise == level:
            return median_resolution(B.n_pairs - len(trimmed[1]))
    return 0.0


def _exact_refit(B, basis, tol, rng, history, order, ranking, searches=None):
    """``(ranked, dim)`` of the first of the noise levels ``MISFIT_LEVELS`` at which the
    rankings (``_noisy_ladder``, every ranking) give a graph that fits the eigenvectors
    to rounding (``ROUNDING_FIT``), or ``([], 1)``: exact eigenvectors (a ranking clean
    to rounding) for which no exact search gave a graph, nor the fitted rankings one
    with at most half the pairs as edges or that fits them (``_ladder(...,
    exact_refit=True)``, called by ``_sparsest_graphs``).

    Eigenvectors localised on a few nodes (edge weights spanning a wide range) leave
    the exact searches families of tens of directions whose linear-program vertices
    are not valid graphs, as in `_refit_misfit`, and may leave them no graph at all (a
    tree of 120 nodes with lognormal weights, $\\sigma$ = 1.5: the fitted rankings
    then gave the complete graph; weighted Delaunay(200) exact: the fitted rankings
    give the graph, not to rounding, and these searches would cost 4 CPU s). The
    conditions on the estimates are `_refit_misfit`'s; the levels tried are in
    ``history["misfit_refits"]``, and ``history["noise"]`` is left at 0. ``searches``:
    the record of searches that found nothing without drawing (``_repeatable_search``),
    shared by the levels' ladders (`_refit_misfit`).
    """
    if (B.n > FAMILY_SEARCH_MAX_N or basis.get("twin_class")
            or B.n_pairs < EXACT_PAIRS_PER_UNKNOWN * B.g
            or float(np.median([ranking(key)[2] for key in order])) > EXACT_MEDIAN_LEVEL):
        return [], 1
    records = {k: history.pop(k) for k in ("noisy_graphs", "residuals") if k in history}
    tried, result = [], ([], 1)
    for level in MISFIT_LEVELS:
        wide, dim, residual = _noisy_ladder(B, basis, tol, rng, history, order, ranking,
                                            fixed_noise=level, every=True, searches=searches)
        tried.append((level, int(wide[0][0]) if wide else None, float(residual)))
        if wide and residual <= ROUNDING_FIT:
            result = (wide, dim)
            break
    for k in ("noisy_graphs", "residuals"):
        history.pop(k, None)
    history.update(records)
    history["misfit_refits"] = tried
    history["noise"] = 0.0
    return result


def _refit_first(B, basis, tol, rng, history, order, ranking):
    """``(ranked, dim)`` of the refit levels (``_exact_refit``, on copies of ``rng`` and
    ``history``) when their graph fits the exact eigenvectors to rounding
    (``ROUNDING_FIT``), with ``history`` and ``rng`` then as those searches left them;
    else None, and both as they were.

    Called when rankings clean to rounding gave no exact graph, before their searches
    at the rounding level ``EXACT_NOISE``: on localised eigenvectors (cycles with
    weights spanning a decade) those searches bisect through families of 40 to 60
    directions whose max-margin programs, with bounds near 1e-8, take HiGHS seconds
    each (a cycle of 150 nodes with weights uniform in [1, 10]: 33 of 38 CPU s in one
    search, whose 299-edge graph gave the cycle once a freed pair joined its
    non-edges), while the level 1e-6 gives the cycle, fitting to 1e-14, in about a
    second. Failed searches are kept with the basis (``_failed_searches``), so the
    same levels searched later (``_rounding_refit``) replay them.
    """
    trial, own = copy.deepcopy(history), copy.deepcopy(rng)
    ranked, dim = _exact_refit(B, basis, tol, own, trial, order, ranking, SearchRecord())
    if not ranked or _residual(basis, ranked[0][3]) > ROUNDING_FIT:
        return None
    return adopted(history, trial, rng, own, (ranked, dim))


def _ranking_sizes(B: PairBasis, key) -> tuple:
    """The key under which the leverage ranking ``key`` (``(r, keep)``, or ``(r, keep,
    DEEP)`` uncapped) is kept in ``B.rankings["same"]``: its directions and the pairs
    trimmed per round (rankings that trim as many pairs are one ranking)."""
    uncapped_key = key[2:] == (DEEP,)
    return (key[0], (uncapped_sizes if uncapped_key else trimming_sizes)(B, keep=key[1]))


def kept_ranking(B: PairBasis, key):
    """``(scores, trimmed, noise)`` of the leverage ranking ``key`` of a basis of at most
    ``LADDER_MAX_N`` nodes (``(r, keep)``, capped, or ``(r, keep, DEEP)``, uncapped),
    computed once per basis and kept in ``B.rankings`` for its ladders (they draw
    nothing: deterministic)."""
    same = B.rankings.setdefault("same", {})
    firsts = B.rankings.setdefault("firsts", {})
    sizes = _ranking_sizes(B, key)
    if sizes not in same:
        # the first round (the Gram of all pairs) is the same for every keep
        if key[0] not in firsts:
            firsts[key[0]] = full_scores(B, key[0])
        if key[2:] == (DEEP,):
            same[sizes] = deep_ranking(B, key[1], key[0], first=firsts[key[0]])
        else:
            scores, trimmed = leverage_ranking(B, keep=key[1], r=key[0],
                                               first=firsts[key[0]])
            same[sizes] = (scores, trimmed, robust_noise(B, trimmed))
    return same[sizes]


def kept_fitted_ranking(B: PairBasis, key):
    """``(scores, trimmed, noise)`` of the fitted ranking ``key`` (``(r, keep,
    "fitted")``: ``fitted_ranking``, its kept pairs cleaned of the edges the span left
    among them by ``whole_space_steps``), computed once per basis and kept in
    ``B.rankings`` for its ladders (it draws nothing: deterministic). When the basis
    has flat unknowns (``flat_unknowns``) and the ranking is not clean to rounding, the
    ranking fitted with them in the span is kept if its noise estimate is smaller."""
    fitted = B.rankings.setdefault("fitted", {})
    if key not in fitted:
        scores, trimmed = whole_space_steps(B, *fitted_ranking(B, keep=key[1], r=key[0]))
        fitted[key] = (scores, trimmed, robust_noise(B, trimmed))
        flat = flat_unknowns(B) if fitted[key][2] > EXACT_LEVEL else ()
        if len(flat):
            # the community vectors of dense blocks, outside the span: the ranking
            # whose kept pairs show the smaller noise is kept
            scores, trimmed = whole_space_steps(
                B, *fitted_ranking(B, keep=key[1], r=key[0], flat=flat))
            noise = robust_noise(B, trimmed)
            if noise < fitted[key][2]:
                fitted[key] = (scores, trimmed, noise)
    return fitted[key]


def adopted(history, trial, rng, own, outcome):
    """``outcome``, after taking a trial run's history ``trial`` into ``history`` and
    its generator's state ``own`` into ``rng`` (if any): a search run on copies is
    kept as if it had run on the originals."""
    history.clear()
    history.update(trial)
    if rng is not None:
        rng.bit_generator.state = own.bit_generator.state
    return outcome


def _refit_misfit(B, basis, tol, rng, history, order, ranking, ranked, dim, searches=None):
    """The graph of exact eigenvectors ``ranked`` (with its family dimension), or, when it
    does not fit them to rounding (residual above ``ROUNDING_FIT``), the graph the rankings give at
    the noise levels ``MISFIT_LEVELS`` in turn (``_noisy_ladder``, every ranking) that
    fits them exactly, however many edges it has up to half the pairs (a graph that
    does not fit exact eigenvectors is not one of theirs: ``fit_replaces_misfit``;
    ``history["misfit_replaced"]`` then holds its size and residual), or else fits them
    better with at most as many edges (``history["noise"]`` is then that level); the
    levels tried and their graphs' sizes and residuals are in
    ``history["misfit_refits"]``. A graph that does not fit them is first fitted again
    on its own edges (``_support_refit``: its projection may have read its null
    direction off the Gram inexactly), and is no misfit when that fits them to
    rounding. A graph that fits them
    but whose zero pattern leaves a family although its spectrum is simple
    (``_undetermined_support``) is searched so too, and replaced by a sparser graph
    that fits them exactly (a cycle of 60 nodes with weights uniform in [1, 10]: 297
    edges for 60).

    Eigenvectors localised on a few nodes (edge weights spanning a wide range) leave,
    after the search's prefix, pairs that fit tens of directions to rounding (their
    singular values decay from 1e-3 to 1e-13 with no gap): the exact search's family
    is then large and its linear-program vertices are dense graphs that do not fit
    the eigenvectors (a cycle of 80 nodes with weights uniform in [1, 10]: 1126
    edges, residual 2.6e-4). At a noise level those directions are not near-null,
    and the same rankings give the cycle (residual 5e-15).

    Before those levels, the level ``EXACT_LEVEL``: a graph the rankings give there that
    fits to rounding is returned (``_rounding_level_fit``; an eigenvalue fit inexact
    beyond the exact searches' rounding), and otherwise the search goes on as if it had
    not been made.

    ``searches`` is the record of ``_repeatable_search`` shared by the levels' ladders:
    when no ranking gives a graph, each ladder's last resort searches every noisy
    ranking at the largest noise estimate, the same level whatever the level of the
    ladder, and a search that found nothing without drawing is not made again.
    """
    if (B.n > FAMILY_SEARCH_MAX_N or basis.get("twin_class")
            or B.n_pairs < EXACT_PAIRS_PER_UNKNOWN * B.g):
        # few pairs per unknown fit noisy eigenvectors to rounding too (a twin class of
        # perturbed karate, 5 nodes: every ranking at 9.8e-16)
        return ranked, dim
    L = _laplacian(ranked[0][3], basis)
    eigenvalues, residual = _diagonal_fit(basis["V"], L)
    if residual > ROUNDING_FIT:
        # the projection may have read the null direction off the Gram inexactly: the
        # graph's own edges fitted again (``_support_refit``)
        ranked, eigenvalues, residual = _refitted_first(B, basis, ranked, eigenvalues,
                                                         residual, history)
    fits = residual <= ROUNDING_FIT
    if fits and not _undetermined_support(basis, B, ranked[0][3], eigenvalues, residual, {}):
        return _freed_member(B, basis, tol, rng, history, ranked), dim
    if float(np.median([ranking(key)[2] for key in order])) > EXACT_MEDIAN_LEVEL:
        # one ranking clean to rounding, most not: noisy eigenvectors whose few pairs per
        # unknown let a ranking's kept pairs fit them (perturbed karate: 9.8e-16)
        return ranked, dim
    exact = rounding_level_fit(
        lambda own, trial, level: _noisy_ladder(B, basis, tol, own, trial, order, ranking,
                                                fixed_noise=level, every=True,
                                                searches=searches),
        rng, history, ranked[0][0], residual, B.n_pairs)
    if exact is not None:
        # the eigenvalue fit is inexact beyond the exact searches' rounding
        # (``_rounding_level_fit``)
        return exact
    original = saved = history["noise"]
    best, tried = (ranked, dim, residual), []
    # the noisy searches' records (``_undecided`` reads them) are those of noisy input
    records = {k: history.pop(k) for k in ("noisy_graphs", "residuals") if k in history}
    for level in MISFIT_LEVELS:
        wide, dim2, residual2 = _noisy_ladder(B, basis, tol, rng, history, order, ranking,
                                              fixed_noise=level, every=True,
                                              searches=searches)
        tried.append((level, int(wide[0][0]) if wide else None, float(residual2)))
        if wide and _refit_replaces(ranked[0][0], residual, best[2], wide[0][0],
                                    residual2, B.n_pairs):
            best = (wide, dim2, residual2)
            if residual2 <= ROUNDING_FIT:
                saved = original    # exact after all: the eigenvectors' noise level
                record_replaced_misfit(history, ranked[0][0], residual)
                break
            saved = history["noise"]
    for k in ("noisy_graphs", "residuals"):
        history.pop(k, None)
    history.update(records)
    history["misfit_refits"] = tried
    history["noise"] = saved
    return best[:2]


def _refitted_first(B, basis, ranked, eigenvalues, residual, history):
    """``(ranked, eigenvalues, residual)`` of the exact searches' graph ``ranked[0]``,
    or, when its edges fitted again from their non-edges' rows (``_support_refit``)
    fit the eigenvectors to rounding (``ROUNDING_FIT``), of that graph in its place:
    a graph whose edges admit a graph of the eigenvectors is not a misfit.
    ``history["support_refit"]`` is then the graph's edges and residual before and
    after."""
    refit = refitted_on_support(B, basis, ranked[0])
    if refit is None or refit[1] > ROUNDING_FIT:
        return ranked, eigenvalues, residual
    history["support_refit"] = (int(ranked[0][0]), float(residual), int(refit[0][0]),
                                float(refit[1]))
    item, residual = refit
    eigenvalues, _ = _diagonal_fit(basis["V"], _laplacian(item[3], basis))
    return [item, *ranked[1:]], eigenvalues, residual


def _refit_replaces(edges, residual, best, wide_edges, wide_residual, n_pairs) -> bool:
    """Whether the graph of a refit level (``wide_edges`` edges, residual
    ``wide_residual``) replaces the exact searches' graph (``edges`` edges, residual
    ``residual``) in ``_refit_misfit``, the best residual so far being ``best``: a
    sparser graph that fits to rounding (``ROUNDING_FIT``) when that graph fits too;
    when it does not, one that fits better with at most as many edges, or one that fits
    to rounding with at most half the pairs (``fit_replaces_misfit``)."""
    if residual <= ROUNDING_FIT:
        return wide_edges < edges and wide_residual <= ROUNDING_FIT
    return wide_residual < best and (
        wide_edges <= edges
        or (wide_residual <= ROUNDING_FIT
            and fit_replaces_misfit(residual, wide_edges, n_pairs)))


def _freed_member(B, basis, tol, rng, history, ranked):
    """``ranked``, or a sparser graph that fits the exact eigenvectors to rounding
    (``ROUNDING_FIT``) and holds non-edges of the first graph whose rows the other
    non-edges do not span, first.

    A graph that fits exact eigenvectors and whose zero pattern leaves one direction
    may still not be the sparsest: with a simple spectrum every polynomial of the
    true Laplacian shares its eigenvectors, and a cubic one whose coefficients cancel
    a few weak entries is such a graph (a cycle of 60 nodes with lognormal weights,
    $\\sigma$ = 1: 178 edges at a residual of 6e-13, the cycle's pairs at distance 1
    to 3 but for 2, one of them a cycle edge). A true edge that it zeroes is a
    non-edge whose row the other non-edges' rows do not span: its leverage in their
    Gram, the graph's own direction left out, is 1 (to 1e-15; the next non-edges' at
    most 1 - 0.025 on the cases measured, the truth's own non-edges' at most
    1 - 0.0028). Those pairs (leverage within ``FREED_LEVERAGE`` of 1, over all
    directions: the one a missed edge frees need not be among the smallest) join the
    graph's pairs; the family the others leave holds the sparser graph, and its
    candidates (``_candidates``, on a copy of ``rng``) that fit to rounding with fewer
    edges replace the graph. At most ``FREED_ROUNDS`` times; the freed pair counts are
    in ``history["freed_pairs"]``.
    Settled graphs (trees, equal weights) are not searched, nor bases of more than
    ``FREED_MAX_N`` nodes.
    """
    best, rng = ranked, copy.deepcopy(rng)
    if B.n > FREED_MAX_N:
        return best
    i, j = B.upper()
    codes = i * B.n + j
    for _ in range(FREED_ROUNDS):
        if _settled(B, best) or best[0][0] >= B.n_pairs - B.g:
            break
        upper = sp.triu(best[0][3], 1).tocoo()
        edge = np.isin(codes, upper.row.astype(np.int64) * B.n + upper.col)
        gram = complement_gram(B, i[edge], j[edge])
        mu, Lam = gram.null_directions(B.g)
        keep = mu > B.cluster(mu[0])
        if keep.sum() < mu.size - 1:
            break
        values = B.products(i[~edge], j[~edge], Lam[:, keep])
        # the centred rows' leverage plus the mean's share 1/k: that of the rows (the
        # terms formed in place: two fewer arrays of the non-edges' size, 27 MB at
        # n = 200, for the kernel to map and zero; the same numbers)
        np.square(values, out=values)
        np.divide(values, mu[keep], out=values)
        leverage = values.sum(axis=1) + 1.0 / gram.k
        free = np.flatnonzero(~edge)[leverage >= 1.0 - FREED_LEVERAGE]
        history.setdefault("freed_pairs", []).append(int(free.size))
        if free.size == 0:
            break
        first = np.concatenate([np.flatnonzero(edge), free])
        rest = np.setdiff1d(np.arange(codes.size), first)
        order = (np.concatenate([i[first], i[rest]]), np.concatenate([j[first], j[rest]]))
        for rounding in (None, COARSE_ROUNDING):
            search = PrefixSearch(B, order, tol, 0.0, rounding)
            fit = search.evaluate(first.size, complement_gram(B, i[first], j[first]))
            history["n_evaluations"] += search.n_evaluations
            if fit is not None:
                break
        if fit is None:
            break
        sparser = [item for item in _candidates(B, fit, rng, history)
                   if item[0] < best[0][0] and _residual(basis, item[3]) <= ROUNDING_FIT]
        if not sparser:
            break
        best = _merge(sparser, best)
    return best


def _first_exact(B, keys, ranking, tol, rng, history, refit=None):
    """``(ranked, dim)`` of the exact search on the first of the rankings ``keys`` that
    gives a graph, or None. With ``refit = (basis, order, searches)``, the rankings
    ``keys`` clean to rounding, a graph that does not fit the eigenvectors is searched
    again at noise levels (``_refit_misfit``)."""
    for key in keys:
        scores, trimmed, _ = ranking(key)
        ranked, dim = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history)
        if ranked and refit is not None:
            ranked, dim = _refit_misfit(B, refit[0], tol, rng, history, refit[1], ranking,
                                        ranked, dim, refit[2])
        if ranked:
            return ranked, dim
    return None


def _next_exact(B, key_ranking, tol, rng, history, ranked, dim):
    """The exact search (fine then coarse rounding) on another ranking, merged."""
    scores, trimmed, _ = key_ranking
    for rounding in (None, COARSE_ROUNDING):
        more, dim2 = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history,
                                      rounding=rounding, sparsify=rounding is not None,
                                      found=ranked)
        ranked, dim = _merge(ranked, more), max(dim, dim2)
    return ranked, dim


def _noisy_ladder(B, basis, tol, rng, history, order, ranking, fixed_noise=None,
                  every=False, searches=None, last_resort=True, misses=None):
    """The noisy rankings in turn, the cleanest first unless ``fixed_noise``
    (``_consistent_first``); the sparsest of the graphs whose rotation residual
    (``_residuals``) is within
    ``RESIDUAL_SLACK`` of the smallest, its family dimension and its residual
    (``_residual``). Each ranking's candidates are ordered by
    ``_noisy_order``, and a graph with equal weights to the noise level is preferred to
    sparser ones without (as ``candidate_order`` prefers equal weights to rounding).

    With ``every`` (and a ``fixed_noise``), the rankings clean to rounding are searched
    too. If no ranking gives a graph, they are searched again in turn at the largest noise
    estimate, with the truncated near-null families (``PrefixSearch``) searched too,
    until one gives a graph (unless ``last_resort`` is False). The
    rankings stop when two consecutive ones give the same graph, when a graph
    consistent with the noise (residual at most ``RESIDUAL_CONSISTENT`` times the
    smallest noise estimate) is determined by the eigenvectors (family dimension 1) or
    is a tree (``_settled_at_noise``: no connected graph is sparser), or when two
    consistent graphs have been found, or when a graph consistent with the noise is
    among the candidates of the previous ranking (two rankings hold it). A graph from a
    window prefix that is neither a tree nor the complete graph
    (``doubtful_window_graph``) is kept among the graphs found but stops nothing.

    ``searches`` (a dict shared by the noisy ladders of one ``_ladder``) records the
    searches that found no graph without drawing from ``rng`` (``_repeatable_search``):
    the ladder at the largest estimate repeats those of the first ladder's last resort.
    With ``misses``, the ladder stops when that many rankings in a row gave no graph
    before any gave one (``DEEP_MISSES``), and the rankings are computed when reached
    (``_deep_trimming.in_turn``). Above ``FAMILY_SEARCH_MAX_N`` nodes, graphs sparser
    than the one taken that do not fit as well are compared refitted with the non-edges
    the eigenvectors show (``_sparser_refitted``).
    """
    found, previous, consistent, held, missed = [], None, 0, set(), 0
    levels = []     # the noise level of each entry of ``found``
    if fixed_noise is not None:
        turns = order
    else:
        # the uncapped rankings (``misses``) are computed when reached
        turns = (_consistent_first if misses is None else in_turn)(order, ranking)
    for key in turns:
        scores, trimmed, noise = ranking(key)
        if noise > MAX_NOISE or (noise <= EXACT_LEVEL and not every):
            continue
        noise = noise if fixed_noise is None else fixed_noise
        history["noise"] = noise
        fits = history.get("prefix_window_fits", 0)
        entry = _noisy_entry(basis, *_repeatable_search(searches, key, B, scores, trimmed,
                                                        tol, noise, rng, history), noise)
        ranked = entry[1] if entry else []
        edges = _edge_key(ranked[0][3]) if ranked else None
        if entry and doubtful_window_graph(history, fits, ranked[0][0], B):
            # a window prefix's graph that ``window_doubt`` would warn of: a candidate,
            # but it does not end the ladder (the later rankings may hold a sparser one)
            found.append(entry)
            levels.append(noise)
            continue
        if entry:
            found.append(entry)
            levels.append(noise)
            residual, dim = entry[0], entry[2]
            level = min((e for e in history["noise_estimates"] if EXACT_LEVEL < e <= MAX_NOISE),
                        default=noise)
            if residual <= RESIDUAL_CONSISTENT * level:
                consistent += 1
                if (dim == 1 or consistent >= 2 or _settled_at_noise(B, ranked)
                        or edges in held):
                    break
            if fixed_noise is None and hopeless_ladder(B.n, B.g, found):
                # every graph a weighted member of a family leaving most eigenvalues
                # free: the next rankings give more of them (``_hopeless_family``)
                history["hopeless_family"] = hopeless_record(found, B.g)
                break
        if edges is not None and edges == previous:
            break
        missed = 0 if found else missed + 1
        if misses is not None and missed >= misses:
            break
        previous, held = edges, {_edge_key(item[3]) for item in ranked}
    if (fixed_noise is None and "hopeless_family" not in history
            and hopeless_ladder(B.n, B.g, found, least=1)):
        # every ranking searched, and the one graph found such a member
        history["hopeless_family"] = hopeless_record(found, B.g)
    noisy = ([k for k in order if EXACT_LEVEL < ranking(k)[2] <= MAX_NOISE]
             if last_resort and not found else [])
    for key in noisy:
        scores, trimmed, _ = ranking(key)
        history["noise"] = max(ranking(k)[2] for k in noisy)
        entry = _noisy_entry(basis, *_repeatable_search(searches, key, B, scores, trimmed,
                                                        tol, history["noise"], rng, history,
                                                        search_truncated=True),
                             history["noise"])
        if entry:
            found.append(entry)
            levels.append(history["noise"])
            break
    if not found:
        return [], 1, np.inf
    found = _sparser_refitted(B, basis, found, levels, history)
    history["residuals"] = [x[0] for x in found]
    history["noisy_graphs"] = [{"edges": x[1][0][0], "residual": x[0], "rotation": x[3],
                                "equal_weights": x[5], "family_dimension": x[2]}
                               for x in found]
    chosen = _noisy_choice(found)
    _record_equal_rival(history, chosen, found, B)
    return chosen[1], chosen[2], chosen[0]


def _sparser_refitted(B: PairBasis, basis, found, levels, history) -> list:
    """The noisy ladder's entries ``found`` (``_noisy_entry``, found at the noise levels
    ``levels``), each graph sparser than the one ``_noisy_choice`` takes that does not
    fit the eigenvectors as well as it (``_fits_as_well``) replaced by its refit with
    the non-edges the eigenvectors show (``missing_edge_refit``) when the refit fits
    them better than it did (not ``_fits_as_well`` of its residuals to the refit's);
    above ``FAMILY_SEARCH_MAX_N`` nodes only, where ``infer_laplacian`` refits no graph
    after the searches (``refitted_first``). ``history["missing_edge_refit"]`` records
    the edges of both graphs.

    A search at a level wider than the truth's noise keeps heavy edges among the pairs
    it holds as non-edges, and the sparser graph it gives then fits worse than a dense
    family member found at a smaller level: PyGSP ``Sensor(1000, seed=5)`` perturbed by
    1e-3 (draw 0 of ``bench_inference.py``) gave 3545 edges, all of them the truth's
    (3550), at the estimate 2.19e-3, rotation residual 2.26 times that of a 9375-edge
    quadratic of the truth found at 2.07e-4 (F1 0.549), which was taken. Refitted with
    the non-edges the missing-edges test flags, it had 3599 edges (two heavy edges
    between near twins missed, 51 weak ones added; F1 0.993); with the pairs a column of
    the eigenvectors lives on too (``missing_edge_refit`` with ``column_pairs``), its
    refit is the truth, rotation residual 0.90 times the quadratic's, and is taken
    (about 6 CPU s for the refit).
    """
    if B.n <= FAMILY_SEARCH_MAX_N or len(found) < 2:
        return found
    chosen = _noisy_choice(found)
    reference = (chosen[0], chosen[3])
    refitted = list(found)
    for k, entry in enumerate(found):
        if entry[1][0][0] >= chosen[1][0][0] or _fits_as_well((entry[0], entry[3]),
                                                               reference):
            continue
        refit = missing_edge_refit(B, basis, entry[1][0][3], column_pairs=True)
        if refit is None:
            continue
        item = _noisy_entry(basis, [refit], entry[2], levels[k])
        if not _fits_as_well((entry[0], entry[3]), (item[0], item[3])):
            refitted[k] = item
            history["missing_edge_refit"] = (int(entry[1][0][0]), int(refit[0]))
    return refitted


def _record_equal_rival(history, chosen, found, B: PairBasis) -> None:
    """Record as a sparser rival (``record_sparser_rival``: fitting as well per free
    pair) the sparsest graph of the noisy ladder's entries ``found`` that has equal
    weights to the noise level and fewer edges than the entry ``chosen``
    (``_noisy_choice``; ``B`` the pair basis), which it was not for its residual: that
    residual, relative to $\\|L\\|_F$, favours dense members, and the noisy ladder puts
    equal weights first among graphs that fit as well.

    ``circular_ladder_graph(23)`` perturbed by 1e-4 (draw 1, Nehalem kernels): 510
    edges for 69 returned with the family flag only, beside a 46-edge cycle with equal
    weights (it shares the eigenvectors) at 1.11 times its rotation residual and 2.59
    times its residual (1.88 times per free pair).

    A sparser such graph that fits the eigenvectors but not as well is recorded as a
    fitting rival (``record_fitting_rival``), which the result warns of when the two
    disagree.
    """
    equal = [x for x in found if x[5] and x[1][0][0] < chosen[1][0][0]]
    if equal:
        rival = min(equal, key=lambda x: (x[1][0][0], x[3]))
        fits = (chosen[1][0], rival[1][0], (chosen[0], chosen[3]), (rival[0], rival[3]),
                B.n_pairs)
        record_sparser_rival(history, *fits)
        # one that fits, not as well: a fitting rival (``record_fitting_rival``)
        record_fitting_rival(history, *fits)


#: The counters of ``history`` that a search adds to (``_repeatable_search``).
SEARCH_COUNTERS = ("n_evaluations", "vertex_searches")


class SearchRecord(dict):
    """The record of ``_repeatable_search`` shared by the noisy ladders of one
    ``_ladder``, keyed by ranking, level and options; ``aliases`` maps a ranking's key
    to the key of the ranking it is (``_ladder``: leverage rankings that trim as many
    pairs at every round are one ranking, bit for bit).

    From 201 nodes to ``LADDER_MAX_N`` the first capped trimming round already trims
    the cap, and the rankings of ``keep`` 0.6 and 0.7 with the same ``r`` are one
    ranking: a search of one that found no graph without drawing is the other's too
    (perturbed PyGSP ``DavidSensorNet(500)``: each of the four distinct capped rankings
    was searched twice at its estimate and twice in the last resort, 1.7-2.3 CPU s per
    search, no graph).
    """

    def __init__(self):
        super().__init__()
        self.aliases: dict = {}


def _repeatable_search(searches, key, B, scores, trimmed, tol, noise, rng, history,
                       **options):
    """``_search_at_noise`` on the ranking ``key``, or the outcome recorded in
    ``searches`` (a dict, or None: no record) of the same search made before.

    A search that found no graph and drew nothing from ``rng`` is recorded: it is
    deterministic until it draws, so made again on the same ranking at the same level it
    finds no graph again, with the same family dimension and the same additions to the
    counters of ``history`` (``SEARCH_COUNTERS``), which are replayed. Searches that
    found a graph or drew from ``rng`` are made again.
    """
    memo = (getattr(searches, "aliases", {}).get(key, key), float(noise),
            tuple(sorted(options.items())))
    if searches is not None and memo in searches:
        dim, added = searches[memo]
        for name, count in added.items():
            history[name] += count
        return [], dim
    counts = {name: history[name] for name in SEARCH_COUNTERS if name in history}
    state = None if rng is None else rng.bit_generator.state
    ranked, dim = _search_at_noise(B, scores, trimmed, tol, noise, rng, history, **options)
    if searches is not None and not ranked and (
            rng is None or rng.bit_generator.state == state):
        searches[memo] = (dim, {name: history[name] - counts[name] for name in counts})
    return ranked, dim


def _consistent_first(order, ranking) -> list:
    """The rankings of ``order`` in the order the noisy ladder searches them: those whose
    noise estimate is at most ``UNRESOLVABLE_NOISE`` and within ``RESIDUAL_CONSISTENT``
    times the smallest (the level the ladder's graphs are held to), then the other
    ones at most ``UNRESOLVABLE_NOISE``, then the others, each part in its order.

    A ranking's estimate is the spread of the pairs it keeps as non-edges, which the
    edges among them raise. A graph consistent with the noise has a residual within
    ``RESIDUAL_CONSISTENT`` times the smallest estimate; a ranking whose estimate is
    further above it keeps edges, and its search, at that level, admits the wider
    families of graphs that do not fit (PyGSP ``Sphere(200)`` perturbed by 1e-3:
    estimates 2.3e-3 to 7.3e-3 beside 1.7e-4, three families of 32 to 37 directions
    and graphs of residual 0.08 to 0.37, 5 CPU s, before the graph). Above
    ``UNRESOLVABLE_NOISE`` every pair is within its noise band, so a search at such a
    ranking's own estimate cannot tell its edges at all. The estimates of ``order`` are
    all known when the noisy ladder starts (``_ladder`` has looked for one at rounding
    level).
    """
    levels = {key: ranking(key)[2] for key in order}
    noisy = [e for e in levels.values() if EXACT_LEVEL < e <= MAX_NOISE]
    bound = RESIDUAL_CONSISTENT * min(noisy) if noisy else np.inf
    return sorted(order, key=lambda k: (levels[k] > UNRESOLVABLE_NOISE, levels[k] > bound))


def _noisy_choice(found):
    """The entry (``_noisy_entry``) of ``found`` that ``_noisy_ladder`` returns.

    Kept: the entries whose rotation residual is within ``RESIDUAL_SLACK`` of the
    smallest, and of those, the ones whose residual is within ``PLAIN_SLACK`` of the
    smallest among them (``_fits_as_well``: members of a family with one dominating
    eigenvalue, whose rotation residual says little); among them, equal weights to the
    noise level first, then ``candidate_order``.

    The entry with the smallest rotation residual is kept whatever its residual when its
    graph has equal weights to the noise level: the residual test is there for members
    whose rotation residual a heavy weight deflates, which such a graph has not, while
    the residual relative to $\\|L\\|_F$ favours dense members, whose spectrum is
    narrow beside its norm (a 9 x 17 grid perturbed by 1e-3: 1836 edges returned for
    its 280, all with equal weights; on an 8 x 14 grid the grid found had the smallest
    rotation residual, 0.95 times the 1120-edge member's, and 2.03 times its residual).
    """
    best = min(x[3] for x in found)
    kept = [x for x in found if x[3] <= RESIDUAL_SLACK * best]
    plain = min(x[0] for x in kept)
    kept = [x for x in kept if x[0] <= PLAIN_SLACK * plain or (x[5] and x[3] == best)]
    chosen = min(kept, key=lambda x: (not x[5], candidate_order(x[1][0])))
    if chosen[4]:
        # its candidates were reordered (sparser ones do not fit): the same graph found
        # by a ranking whose candidates were not, if any, reports a family without them
        key = _edge_key(chosen[1][0][3])
        chosen = next((x for x in kept if not x[4] and _edge_key(x[1][0][3]) == key), chosen)
    return chosen


def _noisy_entry(basis, ranked, dim, noise):
    """One noisy search's graphs for ``_noisy_ladder``: ``(residual, ranked, dim,
    rotation residual, reordered, equal)`` for ``ranked`` in the order of
    ``_noisy_order``, the residuals those of its first graph, ``reordered`` whether that
    graph was not the search's first and ``equal`` whether it has equal weights to the
    noise level; None when the search found no graph. The residuals of every candidate
    are computed once (``_residuals``), for the order and for the entry. Weighted
    candidates sparser than the first whose edges with equal weights fit as well are
    replaced by those equal-weight graphs (``equalised_at_noise``), and the candidates
    ordered again."""
    if not ranked:
        return None
    pairs = [_residuals(basis, item[3]) for item in ranked]
    order, equal = _noisy_order(basis, ranked, noise, [rotation for _, rotation in pairs])
    equalised, fits = equalised_at_noise(basis, ranked, pairs, ranked[order[0]][0])
    if equalised is not ranked:
        # sparser candidates whose edges with equal weights fit as well: ordered again
        ranked, pairs = equalised, fits
        order, equal = _noisy_order(basis, ranked, noise,
                                    [rotation for _, rotation in pairs])
    residual, rotation = pairs[order[0]]
    return (residual, [ranked[k] for k in order], dim, rotation, order[0] != 0,
            equal[order[0]])


def _noisy_order(basis, ranked, noise, rotations) -> tuple[list[int], list[bool]]:
    """The order of the candidates ``ranked`` (rotation residuals ``rotations``) in a
    noisy ranking, and which have equal weights to the noise level
    (``_equal_within_noise``).

    The candidates that fit the eigenvectors come first (``_fitting_mask``); among them,
    and among the others, those with equal weights to the noise level, then the
    ``candidate_order``. ``candidate_order`` puts graphs with equal weights first only
    when they are equal to rounding, which no graph found at a noise level is: a family
    of valid graphs (repeated eigenvalues) then holds members sparser than the truth
    that fit the eigenvectors as well, whose weights spread far beyond the noise
    (unweighted karate perturbed by 1e-3: a heavy graph on twin nodes beside a copy of
    the rest scaled down to the noise, 70 edges for 78).
    """
    fits = _fitting_mask(rotations)
    equal = [_equal_within_noise(basis, item[3], noise) for item in ranked]
    order = sorted(range(len(ranked)), key=lambda k: (not fits[k], not equal[k]))
    return order, equal


def _fitting_mask(rotations) -> list[bool]:
    """Which candidates fit the eigenvectors: those whose rotation residual
    (``_residuals``) is within ``RESIDUAL_CONSISTENT`` times the smallest.

    At a noise level a family's sparse vertices need not share the eigenvectors: a
    sparser vertex can leave entries far above the noise (caveman graphs whose
    repeated eigenspaces are rotated) while a member that fits is ranked below it.
    """
    rotations = np.asarray(rotations, dtype=float)
    return (rotations <= RESIDUAL_CONSISTENT * rotations.min()).tolist()
