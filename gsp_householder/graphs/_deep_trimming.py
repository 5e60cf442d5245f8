"""Leverage rankings trimmed without the cap on the pairs trimmed, when the capped
trimming leaves the kept pairs unclean.

``trimming_sizes`` trims at most ``max(6000, 16 n)`` pairs per round. From about 140
nodes (where the later rounds' fractions of the $N = n(n-1)/2$ pairs exceed 6000) to
``LADDER_MAX_N`` the cap binds, and at n = 300 every round trims the same 6000 pairs
(13 % of them): on PyGSP ``Sensor(300, seed=1)`` (1064 edges) the capped rankings keep
212 to 703 edges among their kept pairs, and their noise estimates (1.1e-2 to 2.5e-2
on exact eigenvectors) look like noise; trimmed to the fractions (30 %, 51 %, 66 %)
they keep none, at an estimate of 1e-12 (exact) or 1.3e-3 to 1.9e-3 (perturbed by
1e-3). A Gram downdate of all the trimmed pairs costs $O(N g^2)$ per round, affordable
up to ``LADDER_MAX_N`` nodes (0.4-0.6 CPU s per ranking at n = 300).
"""

from __future__ import annotations

import copy

import numpy as np
from scipy.special import ndtri

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._support_search import (
    CLEAN_FACTOR,
    graph_energy_floor,
    kept_residuals,
    leverage_ranking,
    robust_noise,
    trimming_sizes,
)
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    LADDER_MAX_N,
    MAX_NOISE,
    RESIDUAL_CONSISTENT,
    UNRESOLVABLE_NOISE,
)

#: The uncapped rankings replace the capped ones when the first one's noise estimate is
#: at least this many times smaller (trimming more pairs lowers the estimate of clean
#: pairs a little too: it drops the non-edges with the largest residuals).
DEEP_CLEANER = 3.0
#: Or when it is smaller at all and the cleanest capped ranking's kept pairs beyond
#: ``OUTLIER_QUANTILE`` times the two-sided Bonferroni quantile of its estimate are at
#: least this many times as frequent as the uncapped ranking's (``outlier_share``).
DEEP_OUTLIERS = 3.0
#: Kept pairs whose standardised residual is beyond this multiple of the Bonferroni
#: quantile (family-wise level ``OUTLIER_LEVEL``) times the estimate are outliers: the
#: diagonal standardisation understates the residuals up to twice (as for the missing
#: edges' test, ``_missing_edges``), and edges kept are far beyond.
OUTLIER_QUANTILE = 2.0
#: Family-wise level of that quantile.
OUTLIER_LEVEL = 0.05
#: Or, where the cap binds from the first trimming round on, when it is smaller at all
#: and the first uncapped ranking's direction reads at least this many times n of the
#: cleanest capped ranking's kept pairs as edges (``edges_read``): a quarter of the
#: $n - 1$ edges of the sparsest connected graph.
EDGES_READ = 0.25
#: The marker of an uncapped ranking's key in the ladder: ``(r, keep, DEEP)``.
DEEP = "deep"


def uncapped_sizes(B: PairBasis, rounds: int = 3, keep: float = 0.7) -> tuple[int, ...]:
    """``trimming_sizes`` without the cap of ``max(6000, 16 n)`` pairs."""
    N = B.n_pairs
    return tuple(int(min(N - 1, max(4 * B.n, N * (1.0 - keep ** (t + 1)))))
                 for t in range(rounds))


def deep_ranking(B: PairBasis, keep: float, r: int, first=None):
    """``(scores, trimmed, noise)`` of the leverage ranking trimmed to
    ``uncapped_sizes`` (``first``: ``full_scores(B, r)`` if already computed)."""
    scores, trimmed = leverage_ranking(B, keep=keep, r=r, first=first,
                                       sizes=uncapped_sizes(B, keep=keep))
    return scores, trimmed, robust_noise(B, trimmed)


def deeper_order(B: PairBasis, order, compute) -> list:
    """The ladder's leverage keys ``order``, each marked ``DEEP`` (uncapped) when the cap
    binds their trimming (at most ``LADDER_MAX_N`` nodes), none of the capped rankings
    is clean to rounding (``EXACT_LEVEL``) and the first uncapped ranking's noise
    estimate is ``DEEP_CLEANER`` times below the smallest capped one, or below it with
    ``DEEP_OUTLIERS`` times fewer outliers (``outlier_share``; one at least) than the
    cleanest capped ranking, or, where the cap binds from the first round on, below it
    with ``EDGES_READ`` times n of the cleanest capped ranking's kept pairs read as edges
    by its direction (``edges_read``); else ``order``.

    ``compute(key)`` gives a ranking's ``(scores, trimmed, noise)`` (kept by the caller:
    the rankings computed here are not computed again). A capped ranking that keeps no
    edge stays the cleaner one: on ``Sensor(300, seed=0)`` perturbed by 1e-3 the capped
    ranking of 32 directions estimates 2.0e-4, the uncapped ones 8e-4 to 1.2e-3 (they
    keep the pairs of smallest products, whose standardised residuals are larger).
    """
    if (B.n > LADDER_MAX_N or any(len(key) != 2 for key in order)
            or all(trimming_sizes(B, keep=key[1]) == uncapped_sizes(B, keep=key[1])
                   for key in order)):
        # sampled rankings (keys (r, keep, rounds)), or the cap does not bind
        return order
    cleanest = None
    for key in order:
        if cleanest is None or compute(key)[2] < compute(cleanest)[2]:
            cleanest = key
        if compute(cleanest)[2] <= EXACT_LEVEL:
            return order
    deep = compute((*order[0][:2], DEEP))
    capped = compute(cleanest)
    if DEEP_CLEANER * deep[2] <= capped[2]:
        return [(*key[:2], DEEP) for key in order]
    if deep[2] < capped[2]:
        # edges among the capped ranking's kept pairs: outliers in its residuals (one
        # outlier at least counted on the uncapped side: a share resolves no finer)
        share, _ = outlier_share(B, capped[1], capped[2])
        deep_share, deep_kept = outlier_share(B, deep[1], deep[2])
        if share >= DEEP_OUTLIERS * max(deep_share, 1.0 / max(deep_kept, 1)):
            return [(*key[:2], DEEP) for key in order]
        # the cap binds from the first round on (from 201 nodes): every capped round
        # trims the same pairs, a single round of trimming; its direction may fit the
        # edges it keeps, which the uncapped ranking's direction then reads
        keep = order[0][1]
        if (trimming_sizes(B, keep=keep)[0] < uncapped_sizes(B, keep=keep)[0]
                and edges_read(B, capped[1], deep) >= EDGES_READ * B.n):
            return [(*key[:2], DEEP) for key in order]
    return order


def in_turn(order, ranking):
    """The rankings ``order`` (uncapped) in the order the noisy ladder searches them,
    each computed (``ranking(key)``) when reached: ``_ranking_ladder._consistent_first``
    with the smallest noise estimate of the rankings computed so far.

    A ranking whose estimate is above ``UNRESOLVABLE_NOISE``, or above
    ``RESIDUAL_CONSISTENT`` times the smallest noisy estimate so far, waits until the
    others are searched (those at most ``UNRESOLVABLE_NOISE`` first). The uncapped
    ladder stops after ``DEEP_MISSES`` rankings without a graph, and most graphs it finds
    come from its first rankings: computing all eight to order them cost 16 of the 61
    CPU s of PyGSP ``DavidSensorNet(500, seed=0)`` perturbed (2-3.5 s each). The order
    is ``_consistent_first``'s unless a later ranking's estimate is more than
    ``RESIDUAL_CONSISTENT`` times below an earlier one's (the uncapped estimates of the
    sensor networks are within 1.3 times of each other).
    """
    waiting, smallest = [], np.inf
    for key in order:
        level = ranking(key)[2]
        if EXACT_LEVEL < level <= MAX_NOISE:
            smallest = min(smallest, level)
        if level > UNRESOLVABLE_NOISE or level > RESIDUAL_CONSISTENT * smallest:
            waiting.append(key)
        else:
            yield key
    yield from sorted(waiting, key=lambda k: (
        ranking(k)[2] > UNRESOLVABLE_NOISE, ranking(k)[2] > RESIDUAL_CONSISTENT * smallest))


def edges_read(B: PairBasis, trimmed, other) -> int:
    """How many pairs kept by a ranking (``trimmed``) the smallest direction of another
    ranking's kept pairs (``other``: its ``(scores, trimmed, noise)``) reads as edges:
    standardised residual above ``CLEAN_FACTOR`` times that ranking's estimate (the
    prefix searches' tolerance).

    A capped ranking can keep most edges of a sparse graph and fit them with its own
    direction, leaving no outliers among its kept pairs (``outlier_share``): random
    trees of 300 nodes perturbed by 1e-3 (seeds 5, 8, 9) keep 221 to 279 of their 299
    edges among the 38850 pairs of every capped ranking but, on two of them, the one of
    32 directions, and the uncapped direction reads 246 to 679 of those pairs as edges
    (trees of 350 and 400 nodes: 223 to 2065). On trees of 200 nodes it reads 0 to 274
    (its direction is less determined by the fewer pairs the uncapped trimming keeps;
    the capped rankings of tree(200, seed 31) and tree(200, seed 4) keep no edge), and on
    ``connected_watts_strogatz_graph(200, 6, 0.1, seed=1)`` perturbed, whose capped
    rankings keep no edge either, 1095: the uncapped direction can be far from the
    eigenvalue vector, which is why this count is only consulted where every capped
    round trims the same pairs (``deeper_order``).
    """
    z = kept_residuals(B, trimmed, other[1])
    return int(np.count_nonzero(z > CLEAN_FACTOR * other[2]))


def outlier_share(B: PairBasis, trimmed, noise: float) -> tuple[float, int]:
    """Share of the pairs kept by a ranking (``trimmed``, noise estimate ``noise``)
    whose standardised residual exceeds ``OUTLIER_QUANTILE`` times the two-sided
    Bonferroni quantile over them, times ``noise``, and the number of kept pairs.

    Edges among the kept pairs are 1 to 2 % of them, too few to move the median that
    the estimate is, but they stand out in its tail. PyGSP sensor networks perturbed by
    1e-3, cleanest capped ranking against the first uncapped one: ``Sensor(400,
    seed=1)`` 3.2e-2 (980 of the 1424 edges kept) against 3.5e-3 (none), estimates
    1.48e-3 and 1.12e-3; ``Sensor(300, seed=4)`` 2.7e-3 (625 kept) against 3.9e-4;
    ``Sensor(400, seed=0)`` 1.6e-2 against 1.8e-4. Capped rankings that keep no edge
    (BA(200, 2), WS(200, 6, 0.1), tree(200) perturbed, estimates 1.06 to 1.27 times
    the uncapped one's) have none, and so have those of unweighted sensor networks,
    whose kept edges join twins (they fit the eigenvectors). The perturbed tree(200,
    seed=31) of the benchmarks' ``HELDOUT`` has one outlier among the 13900 pairs of
    its cleanest capped ranking and none in the 6800 of the uncapped one: alike.
    """
    z = kept_residuals(B, trimmed)
    if not z.size or noise <= 0.0:
        return 0.0, int(z.size)
    bound = OUTLIER_QUANTILE * float(ndtri(1.0 - OUTLIER_LEVEL / (2.0 * z.size))) * noise
    return float(np.count_nonzero(z > bound)) / z.size, int(z.size)


def capped_fallback(ladder, B: PairBasis, basis, tol, rng, history):
    """``ladder(B, basis, tol, rng, history)`` (``_ladder``); when it searched the
    uncapped rankings (``history["deep_trimming"]``) and found no graph, the capped
    rankings' ladder from the same generator state and history, as if the uncapped ones
    had not been searched (``history["deep_trimming"]`` is then False). The uncapped
    rankings' searches compare the near-null directions with a graph's noise energy too
    (``_graph_energy``: ``graph_energy_floor``, which the ladder sets when it takes them
    and which is reset here), the capped ones' do not.

    Trimming more pairs also drops the clean pairs of largest residual, which lowers the
    estimate of eigenvectors whose rankings are not clean to rounding: weighted
    Delaunay(200, seed 4) exact (benchmarks' ``EXTRA``) has capped estimates 1.5e-8 to
    5e-7 and uncapped ones 1e-10 to 6e-10, searched as exact to no graph (then the
    complete graph, warned), while the capped ladder gives the graph at 1.4e-7.
    """
    saved = copy.deepcopy(history)
    state = None if rng is None else copy.deepcopy(rng.bit_generator.state)
    token = graph_energy_floor.set(False)   # set by the ladder on the uncapped rankings
    try:
        ranked, dim = ladder(B, basis, tol, rng, history)
    finally:
        graph_energy_floor.reset(token)
    if ranked or not history.get("deep_trimming"):
        return ranked, dim
    history.clear()
    history.update(saved)
    history["deep_trimming"] = False
    if rng is not None:
        rng.bit_generator.state = state
    return ladder(B, basis, tol, rng, history, capped=True)
