"""The search for the sparsest graphs on one pair basis.

With the eigenvalue order, the proxy ranking first; then the ladder of leverage
rankings, the fitted rankings and the constant-diagonal family when those give no graph,
and the regular graphs that may be sparser than, or fit better than, the graph found.
"""

from __future__ import annotations

import copy

import numpy as np

from gsp_householder.graphs._candidate_search import _edge_key, _merge, _search_loop
from gsp_householder.graphs._deep_trimming import capped_fallback
from gsp_householder.graphs._laplacian_fit import _residual
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._ranking_ladder import (
    EXACT_MEDIAN_LEVEL,
    RANKINGS,
    _ladder,
    adopted,
    kept_ranking,
)
from gsp_householder.graphs._regular_candidates import (
    _consistent_regular,
    _constant_degree,
    _equal_weight_regular,
    _not_near_complete,
    _regular_family,
    _sparser_regular,
    equal_weight_regular_first,
)
from gsp_householder.graphs._regular_family import MAX_DIMENSION as MAX_CONSTANT_DIAGONAL
from gsp_householder.graphs._regular_family import constant_diagonal_dimension
from gsp_householder.graphs._small_search import MAX_NODES as SMALL_NODES
from gsp_householder.graphs._small_search import sparsest_small
from gsp_householder.graphs._support_search import EXACT_NOISE
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    FAMILY_SEARCH_MAX_N,
    FITS_EXACTLY,
    LADDER_MAX_N,
    MAX_NOISE,
    RESIDUAL_CONSISTENT,
    RESIDUAL_SLACK,
    ROUNDING_FIT,
)
from gsp_householder.graphs._unresolvable_exact import fits_fitted_levels, fitted_when_unresolvable
from gsp_householder.graphs._weighted_cycle import early_cycle

#: Rankings tried when none of ``RANKINGS`` gives a graph: (directions spanned, fraction
#: of pairs kept) of the trimmed fit of one eigenvalue vector (``fitted_ranking``).
FITTED_RANKINGS = ((16, 0.5, "fitted"), (32, 0.5, "fitted"), (16, 0.7, "fitted"))
#: Above this many nodes the first search with the eigenvalue order stops at the first
#: valid size it reaches instead of bisecting: each prefix then costs a Gram update and
#: an eigensolve of order g (0.1-0.6 s at n = 1000, eight of them in a bisection), and
#: the graph found re-ranks the pairs anyway. Below, the bisection is cheaper than the
#: candidate search of the larger family found at the first valid size (unweighted
#: karate: dimension 4 instead of 3, 0.093 against 0.079 CPU s).
UNBISECTED_MIN_N = 500


def _sparsest_graphs(B: PairBasis, basis, tol, rng):
    """Candidate graphs (sparsest first), the family dimension and a history.

    With the eigenvalue order, the pairs are first ranked by the proxy
    $\\sum_k k P_k$ (eigenvalue replaced by its rank), which usually puts the edges
    first and skips the trimming; above ``UNBISECTED_MIN_N`` nodes that search stops at
    the first valid size, and the graph found re-ranks the pairs. Otherwise, or if that
    finds nothing, the rankings of ``RANKINGS`` are tried in turn (``_ladder``).
    """
    history = {"noise": 0.0, "complement_sizes": [], "n_evaluations": 0, "noise_estimates": [],
               "vertex_searches": 0}
    if B.n <= SMALL_NODES:
        ranked, family_dimension = sparsest_small(B)
        return ranked, family_dimension, history
    cycle = early_cycle(B, basis, history)
    if cycle is not None:
        # a weighted cycle the eigenvectors show (``_weighted_cycle``): no search
        return cycle, 1, history
    if B.ordered:
        proxy = B.matrix(np.arange(1.0, B.g + 1.0)) ** 2
        ranked, family_dimension = _search_loop(B, proxy, tol, 0.0, rng, history,
                                                bisect_first=B.n <= UNBISECTED_MIN_N)
        if ranked:
            return ranked, family_dimension, history
    fitted_first = _fitted_before_leverage(B, basis, tol, rng, history)
    if fitted_first is None:
        ranked, family_dimension = capped_fallback(_ladder, B, basis, tol, rng, history)
    else:
        # no leverage ranking is clean and the fitted rankings' graph fits: the
        # leverage ladder, whose exact searches of unclean rankings find no graph on
        # the block models and dense random graphs, is not searched
        ranked, family_dimension = [], 1
    if not ranked and "unresolvable" in history:
        # unclean leverage rankings may agree on such a level: the fitted rankings'
        # graph is taken if it fits the eigenvectors to rounding or to the noise their
        # kept pairs show (``_unresolvable_exact``)
        exact = fitted_when_unresolvable(B, basis, tol, rng, history, FITTED_RANKINGS)
        if exact is not None:
            ranked, family_dimension = exact[:2]
            history.clear()
            history.update(exact[2])
    if not ranked and "hopeless_basis" in history:
        # the rankings' kept pairs leave most eigenvalues free: no other search
        # (``_hopeless_basis``; the complete graph is returned, warned)
        return ranked, family_dimension, history
    if not ranked and "unresolvable" not in history:
        # dense graphs with near-uniform degrees: one fitted vector ranks the pairs
        if fitted_first is None:
            history["leverage_noise_estimates"] = history["noise_estimates"]
            history["noise_estimates"] = []
        exact = min(history["leverage_noise_estimates"], default=0.0) <= EXACT_LEVEL
        refits = exact and B.n <= FAMILY_SEARCH_MAX_N and float(np.median(
            history["leverage_noise_estimates"])) <= EXACT_MEDIAN_LEVEL
        # eigenvectors that are a group's characters (``basis["characters"]``: the
        # grouped search found their eigenspaces) are not localised, which the early
        # refit is for (the exact 8 x 8 torus: 12 of its 14 CPU s, no graph)
        early = (_rounding_refit(B, basis, tol, rng, history)
                 if refits and not basis.get("characters") else None)
        if early is not None and early[0]:
            # a graph that fits the exact eigenvectors to rounding: the fitted rankings'
            # searches (at their estimates, 1e-4 to 0.05) are not made
            history.clear()
            history.update(early[2])
            del history["refit_counts"]
            ranked, family_dimension = [], 1
        else:
            # exact eigenvectors (``refits``): the fitted rankings' estimates are the
            # residuals of one fitted vector, not noise; at the largest of them (the
            # noisy ladder's last resort, over truncated families) the eigenvalue floor
            # and the tolerances are that residual's, and the linear-program vertices
            # split into 100 to 200 components (PyGSP ``SwissRoll(200, seed=0)``, 33
            # CPU s): that last resort is not searched
            ranked, family_dimension = fitted_first or _ladder(
                B, basis, tol, rng, history, order=FITTED_RANKINGS, last_resort=not refits)
        family, dim = _regular_family(B, rng, noisy=not exact)
        if not exact:
            family = _not_near_complete(B, family)
        if not family and exact and B.n <= FAMILY_SEARCH_MAX_N:
            # few pairs (Petersen: 45 for 9 unknowns): the rankings' kept pairs fit a
            # noisy basis to rounding level, and only its constant-diagonal family's
            # near-null space shows the noise
            family, dim = _consistent_regular(B, basis, B.n_pairs, rng)
        if family:
            ranked = _merge(ranked, family)
            family_dimension = max(family_dimension, dim)
            if _edge_key(ranked[0][3]) in {_edge_key(x[3]) for x in family}:
                history["constant_diagonal_graph"] = True
        if refits and (not ranked or (2 * ranked[0][0] > B.n_pairs
                                      and _residual(basis, ranked[0][3]) > ROUNDING_FIT)):
            # exact eigenvectors, and no graph, or one denser than its complement that
            # does not fit them: the leverage rankings at noise levels (localised
            # eigenvectors of wide edge weights: the complete graph followed)
            if early is not None and (early[0] or not early[3]):
                # found, or found nothing without drawing: the same searches again
                refit, dim = early[:2]
                if not refit:
                    _replay_refit(history, early[2])
            else:
                refit, dim = _ladder(B, basis, tol, rng, history, exact_refit=True)
            if refit:
                ranked, family_dimension = refit, dim
                history.pop("constant_diagonal_graph", None)
    elif not ranked:
        # too noisy for the leverage rankings, whose noise estimates are not clean for a
        # regular graph: its constant-diagonal family shows its own noise level, and a
        # member with equal weights to that level is kept (the family of an irregular
        # graph holds the complete graph with a few pairs dropped, weights unequal)
        family, dim = _equal_weight_regular(B, basis, rng)
        if family:
            ranked, family_dimension = family, dim
            history["regular_family"] = True
            history["leverage_unresolvable"] = history.pop("unresolvable")
    elif ranked and _doubtful(basis, ranked, history):
        # the graph does not fit the eigenvectors to their noise level: the fitted
        # rankings' graph is taken if it does (``_consistent_fitted``); else the
        # constant-diagonal family (one SVD) may hold a sparser one that fits better (a
        # regular graph, whose eigenvalue vector the leverage rankings do not see);
        # a denser graph fits the noise better and is no evidence
        fitted = _consistent_fitted(B, basis, tol, rng, history)
        family, dim = ([], 1) if fitted else _regular_family(B, rng, noisy=True)
        if fitted:
            ranked, family_dimension = fitted
        elif family and family[0][0] <= ranked[0][0] and (
                RESIDUAL_SLACK * _residual(basis, family[0][3])
                < _residual(basis, ranked[0][3])):
            ranked, family_dimension = family, dim
            history["regular_family"] = "refit"
    elif ranked and ranked[0][0] > B.n - 1 and _constant_degree(ranked[0][3]):
        # a regular graph found: the constant-diagonal family may hold a sparser one (a
        # 3-regular graph of girth 5 shares its eigenvectors with its distance-2 graph,
        # 6-regular with equal weights)
        sparser = _sparser_regular(B, basis, ranked[0], history["noise"] > EXACT_NOISE,
                                   rng)
        if sparser:
            ranked = _merge(ranked, sparser)
            family_dimension = max(family_dimension, 2)
    if (ranked and B.n <= FAMILY_SEARCH_MAX_N and "regular_family" not in history
            and ranked[0][0] > B.n - 1
            and (ranked[0][0] == B.n_pairs or not _constant_degree(ranked[0][3]))
            and (_noisy_input(history) or _residual(basis, ranked[0][3]) > FITS_EXACTLY)):
        # noisy eigenvectors gave the complete graph or an irregular graph: a sparser
        # regular graph that fits them to the noise its family shows is preferred (a
        # denser graph fits noise better, and is no evidence against it); up to
        # FAMILY_SEARCH_MAX_N nodes (an SVD of order n)
        sparser, dim = _consistent_regular(B, basis, ranked[0][0], rng)
        # equal weights to the family's level before fewer edges (the perturbed 3-cube:
        # a weighted member of 9 edges before the cube's 12), the reading kept for the
        # result's warning (``history["regular_equal_weight"]``)
        sparser, reading = equal_weight_regular_first(B, basis, sparser, ranked[0][0], rng)
        if reading is not None:
            history["regular_equal_weight"] = reading
        if sparser:
            keys = {_edge_key(x[3]) for x in sparser}
            ranked = sparser + [x for x in ranked if _edge_key(x[3]) not in keys]
            family_dimension = max(family_dimension, dim)
            history["regular_family"] = "sparser"
    if (ranked and history["noise"] <= EXACT_NOISE and ranked[0][0] > B.n - 1
            and _constant_degree(ranked[0][3])):
        # a constant-diagonal family too large to search (tori: 43 to 125 directions):
        # other regular graphs with as many edges may share the eigenvectors (twin
        # tori and circulants); its dimension is reported
        dim = constant_diagonal_dimension(B)
        if dim > MAX_CONSTANT_DIAGONAL:
            history["constant_diagonal_dimension"] = dim
            family_dimension = max(family_dimension, dim)
    return ranked, family_dimension, history


def _fitted_before_leverage(B: PairBasis, basis, tol, rng, history):
    """``(ranked, dim)`` of the fitted rankings (``_ladder`` on ``FITTED_RANKINGS``) when
    none of the capped leverage rankings of ``RANKINGS`` is clean (every noise estimate
    above ``MAX_NOISE``) and the fitted rankings' graph fits the eigenvectors: to
    rounding (``ROUNDING_FIT``), or within ``RESIDUAL_CONSISTENT`` times the smallest
    of their noise estimates. ``history`` and ``rng`` are then as those searches left
    them, with the leverage rankings' estimates in ``history["leverage_noise_estimates"]``
    (as after a leverage ladder that found no graph); else None, and both as they were.

    The leverage ladder searches every ranking whose estimate is above ``MAX_NOISE`` as
    exact (a smaller prefix may be clean), and where the cap on the pairs trimmed binds
    it also searches the uncapped rankings. On dense graphs whose rankings are all
    unclean these searches find no graph, and the fitted rankings, searched next, give
    it: PyGSP ``StochasticBlockModel(200, k=4, seed=5)`` perturbed by 1e-3 (estimates
    0.070 to 0.084) spent 60 % of its time in them. A graph that fits to those levels is
    not searched for there. Bases of at most ``LADDER_MAX_N`` nodes (whose leverage
    rankings draw nothing, and are kept for the ladder when this finds no graph), without
    the eigenvalue order.
    """
    if B.ordered or B.n > LADDER_MAX_N:
        return None
    # computed in the ladder's order, up to the first clean one (which the ladder, run
    # next, searches first: a basis whose first ranking is clean computes no other)
    if any(kept_ranking(B, key)[2] <= MAX_NOISE for key in RANKINGS):
        return None
    estimates = [kept_ranking(B, key)[2] for key in RANKINGS]
    trial, own = copy.deepcopy(history), copy.deepcopy(rng)
    trial["leverage_noise_estimates"] = estimates
    trial["noise_estimates"] = []
    ranked, dim = _ladder(B, basis, tol, own, trial, order=FITTED_RANKINGS)
    if not ranked:
        return None
    if not fits_fitted_levels(basis, ranked, trial["noise_estimates"]):
        return None
    return adopted(history, trial, rng, own, (ranked, dim))


def _rounding_refit(B: PairBasis, basis, tol, rng, history):
    """``(ranked, dim, history, drew)`` of the leverage rankings searched at noise
    levels (``_ladder(..., exact_refit=True)``, on copies of ``rng`` and ``history``):
    ``ranked`` is empty unless its graph fits the exact eigenvectors to rounding,
    ``drew`` whether the searches drew from the generator.

    Made before the fitted rankings, whose searches at their own estimates (1e-4 to
    0.05 on exact eigenvectors, the residuals of one fitted vector) and then at the
    largest one over truncated families of 50 to 64 directions cost most of the time
    when they find nothing: PyGSP ``RandomRing(150, seed 0)`` exact spent 28 of its
    34 CPU s there before the level 1e-6 gave the ring (residual 1.2e-13) in 2 s. When
    no such graph is found the search goes on as if this one had not been made; if
    these searches drew nothing from the generator, they are deterministic and their
    outcome stands for the same searches after the fitted rankings (``_replay_refit``).
    """
    trial, own = copy.deepcopy(history), copy.deepcopy(rng)
    state = None if own is None else own.bit_generator.state
    ranked, dim = _ladder(B, basis, tol, own, trial, exact_refit=True)
    drew = own is not None and own.bit_generator.state != state
    trial["refit_counts"] = {name: trial[name] - history[name]
                             for name in ("n_evaluations", "vertex_searches")}
    if not ranked or _residual(basis, ranked[0][3]) > ROUNDING_FIT:
        ranked, dim = [], 1
    return ranked, dim, trial, drew


def _replay_refit(history, trial):
    """Record in ``history`` what the searches of ``_rounding_refit`` that found no
    graph (their ``history`` copy ``trial``) would have recorded made again: the
    levels tried, the noise level 0 and the counters' additions."""
    if "misfit_refits" in trial:
        history["misfit_refits"] = trial["misfit_refits"]
        history["noise"] = trial["noise"]
    for name, count in trial["refit_counts"].items():
        history[name] += count


def _noisy_input(history) -> bool:
    """No leverage ranking's kept pairs are clean to rounding level (``EXACT_LEVEL``)."""
    levels = history.get("leverage_noise_estimates", history["noise_estimates"])
    return bool(levels) and min(levels) > EXACT_LEVEL


def _consistent_fitted(B: PairBasis, basis, tol, rng, history):
    """``(ranked, dim)`` of the fitted rankings (``_ladder`` on ``FITTED_RANKINGS``, on
    copies of ``history`` and ``rng``) when their graph fits the eigenvectors to the
    noise (residual within ``RESIDUAL_CONSISTENT`` times the smallest noise estimate of
    both ladders), with ``history`` and ``rng`` then as those searches left them (the
    history of the fitted rankings searched after the leverage rankings, as when these
    give no graph); else None, and both as they were.

    Called when the leverage rankings' graph does not fit to that level (``_doubtful``).
    A leverage ranking's estimate just below ``MAX_NOISE`` makes the leverage ladder
    search at it; on a dense graph whose leverage rankings are not clean the graph it
    gives is not the truth (PyGSP ``StochasticBlockModel(120, k=3, seed=2)`` perturbed
    by 1e-3: one estimate at 0.047, the others 0.056 to 0.077, 764 edges for 2105 at a
    residual of 0.45), while the fitted rankings' kept pairs show the noise, 1e-4.
    """
    if B.n > FAMILY_SEARCH_MAX_N:
        return None
    trial, own = copy.deepcopy(history), copy.deepcopy(rng)
    trial["leverage_noise_estimates"] = trial["noise_estimates"]
    trial["noise_estimates"] = []
    ranked, dim = _ladder(B, basis, tol, own, trial, order=FITTED_RANKINGS)
    levels = [e for e in trial["leverage_noise_estimates"] + trial["noise_estimates"]
              if EXACT_LEVEL < e <= MAX_NOISE]
    if not ranked or not levels or (
            _residual(basis, ranked[0][3]) > RESIDUAL_CONSISTENT * min(levels)):
        return None
    return adopted(history, trial, rng, own, (ranked, dim))


def _doubtful(basis, ranked, history) -> bool:
    """A graph found at a noise level (not exact) whose residual is above
    ``RESIDUAL_CONSISTENT`` times the smallest noise estimate."""
    levels = [e for e in history["noise_estimates"] if EXACT_LEVEL < e <= MAX_NOISE]
    if history["noise"] <= EXACT_NOISE or not levels:
        return False
    return _residual(basis, ranked[0][3]) > RESIDUAL_CONSISTENT * min(levels)
