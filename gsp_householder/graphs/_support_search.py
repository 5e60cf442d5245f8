"""Which pairs are edges: rank the pairs, then find the largest clean set of non-edges.

1. Rank (``leverage_ranking``): pairs with large leverage in the smallest directions of
   the centred Gram of the kept pairs are edge-like; the most edge-like pairs are
   trimmed and the Gram recomputed, three times.
2. Seed (``seed_fit``): if the pairs kept by the trimming hold a valid Laplacian, its
   sparsest candidate re-ranks the pairs by $|L_{ij}|$.
3. Search (``PrefixSearch``): the complement size $c$ (edge-like pairs excluded) is
   doubled from $n - 1$ until the remaining pairs are *clean* (one direction fits them
   to within the noise) and their near-null space holds a valid Laplacian; then
   bisected. A smaller valid $c$ is a sparser graph.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import contextvars
import hashlib

import numpy as np

from gsp_householder.graphs._chain_optimum import ANSWERED, CHAIN_ANSWERS
from gsp_householder.graphs._doubling_grams import doubling_chain, doubling_gram
from gsp_householder.graphs._failed_searches import remembered_run
from gsp_householder.graphs._graph_energy import graph_energy
from gsp_householder.graphs._largest_indices import largest_above
from gsp_householder.graphs._null_refinement import refined_direction
from gsp_householder.graphs._pair_geometry import (
    PairBasis,
    PairGram,
    SmallestEigenpairs,
    centred_gram,
    gram_without,
    upper_index,
)
from gsp_householder.graphs._prefix_window import window_fit
from gsp_householder.graphs._template_lp import Fit, same_span, valid_in_span
from gsp_householder.graphs._thresholds import CLEAN_FACTOR
from gsp_householder.graphs._upper_leverage import upper_leverage_scores
from gsp_householder.graphs._whole_ranking import stops_before_whole

#: Called with the number of excluded pairs after every prefix evaluated (the progress
#: bar of ``infer_laplacian`` sets it; None: nothing is called).
evaluation_hook: contextvars.ContextVar = contextvars.ContextVar("evaluation_hook",
                                                                 default=None)
#: Whether the searches made now compare a direction's fitting error with a graph's
#: noise energy too (``_graph_energy``): set by the uncapped rankings' ladder
#: (``_deep_trimming.capped_fallback``), read when a ``PrefixSearch`` is made.
graph_energy_floor: contextvars.ContextVar = contextvars.ContextVar("graph_energy_floor",
                                                                    default=False)

#: Fitting error of a near-null direction, in units of the noise's expected error.
NULL_FACTOR = 16.0
#: Entries of the row blocks in which ``leverage_scores`` adds each direction's terms
#: (256 KB: the block stays in cache between the square, the division and the sum).
LEVERAGE_BLOCK_ENTRIES = 1 << 15
#: Standardised residual level of exact (rounding-level) eigenvectors.
EXACT_NOISE = 1e-11
#: A coarser rounding level, tried as well when exact eigenvectors leave a family.
COARSE_ROUNDING = 1e-9
#: Largest dimension of a family of valid graphs that is searched, besides the local
#: columns of the basis (``PairBasis.n_local``: twin nodes), which add one each.
MAX_FAMILY = 48


def top_pairs(B: PairBasis, scores, c):
    """The ``c`` pairs of largest score (an ``(n, n)`` array), in descending order; the
    pairs among the nodes of local columns (``PairBasis.local_groups``) come first."""
    i, j = B.upper()
    s = scores[i, j]
    if B.local_groups:
        a = np.concatenate([grp.i for grp in B.local_groups])
        b = np.concatenate([grp.j for grp in B.local_groups])
        s[upper_index(B.n, a, b)] = np.inf
    c = min(int(c), s.size)
    idx = np.argpartition(-s, c - 1)[:c] if c < s.size else np.arange(s.size)
    idx = idx[np.argsort(-s[idx], kind="stable")]
    return i[idx], j[idx]


def leverage_scores(B: PairBasis, mu, Lam):
    """$\\sum_k \\tilde L(\\lambda_k)_{ij}^2 / \\mu_k$ over the given directions.

    The matrices are formed one at a time in one buffer (``PairBasis.matrix`` with
    ``out``), not kept in its cache: each direction's matrix is used once, and would push
    the matrices the searches ask for again out of it. The terms are formed block of rows
    by block of rows (``LEVERAGE_BLOCK_ENTRIES``) in a small buffer that stays in cache:
    the same operations, so the same numbers, as ``S += P * P / mu_k``, in one pass over
    ``P`` and ``S`` instead of three over $n \\times n$ arrays.

    That is the path of ``B.symmetric`` (above ``LADDER_MAX_N`` nodes). With the general
    product only the upper triangles are formed, by blocks of rows (``_upper_leverage``:
    the same entries on and above the diagonal, about half the flops), and the scores
    mirrored below it (the rankings read the pairs $i < j$).
    """
    if not B.symmetric:
        W = np.empty((B.V.shape[1], Lam.shape[1]))
        for k in range(Lam.shape[1]):
            W[:, k] = B.columns(np.ascontiguousarray(Lam[:, k], dtype=np.float64))
        return upper_leverage_scores(B.V, W, mu)
    S = np.zeros((B.n, B.n))
    buffer = np.empty((B.n, B.n), order="F")
    step = max(1, LEVERAGE_BLOCK_ENTRIES // B.n)
    T = np.empty((min(step, B.n), B.n))
    for k in range(Lam.shape[1]):
        P = B.matrix(Lam[:, k], out=buffer)     # C-ordered: row blocks are contiguous
        d = max(float(mu[k]), 1e-12)
        for s in range(0, B.n, step):
            e = min(B.n, s + step)
            t = T[:e - s]
            np.multiply(P[s:e], P[s:e], out=t)
            np.divide(t, d, out=t)
            S[s:e] += t
    return S


def trimming_sizes(B: PairBasis, rounds=3, keep=0.7) -> tuple[int, ...]:
    """Number of pairs ``leverage_ranking`` trims at each of its ``rounds``: the
    ``1 - keep`` most edge-like at the first, compounded at the later ones, at least
    $4n$, at most ``max(6000, 16 n)`` and $N - 1$.

    Two rankings with the same ``r`` and the same sizes are the same ranking (bit for
    bit): from $n = 201$ to ``LADDER_MAX_N``, where the first round's $0.3 N$ pairs
    already exceed the cap, the sizes of ``keep`` 0.6 and 0.7 agree.
    """
    N = B.n_pairs
    return tuple(int(min(N - 1, max(4 * B.n, N * (1.0 - keep ** (t + 1))), max(6000, 16 * B.n)))
                 for t in range(rounds))


def full_scores(B: PairBasis, r=8):
    """``(full, S)``: the Gram of all pairs and the leverage scores of its ``r`` smallest
    directions, with which every ``leverage_ranking`` of that ``r`` starts."""
    full = PairGram(B)
    mu, Lam = full.null_directions(r)
    return full, leverage_scores(B, mu, Lam)


def leverage_ranking(B: PairBasis, rounds=3, keep=0.7, r=8, first=None, sizes=None):
    """Scores after trimming the ``1 - keep`` most edge-like pairs ``rounds`` times.

    At most ``max(6000, 16 n)`` pairs are trimmed (``trimming_sizes``), which bounds the
    cost at $O(n g^2)$ per round for large graphs. ``first``: ``full_scores(B, r)`` if
    already computed (the rankings of one ``r`` and another ``keep`` share it).
    ``sizes``: the number of pairs trimmed at each round instead (``_deep_trimming``).

    Returns the scores and ``(gram, i, j)``: the Gram of the kept pairs and the trimmed
    pairs.
    """
    full, S = full_scores(B, r) if first is None else first
    gram, i, j = full, np.zeros(0, np.intp), np.zeros(0, np.intp)
    for c in trimming_sizes(B, rounds, keep) if sizes is None else sizes:
        i, j = top_pairs(B, S, c)
        gram = full.without(i, j)
        mu, Lam = gram.null_directions(r)
        S = leverage_scores(B, mu, Lam)
    return S, (gram, i, j)


class PrefixSearch:
    """Smallest complement size whose remaining pairs hold a valid Laplacian.

    ``order`` holds the pairs from most to least edge-like; ``noise`` is the
    standardised residual scale of clean pairs (None: estimated at each size).
    """

    def __init__(self, B: PairBasis, order, tol=0.0, noise=None, rounding=None,
                 search_truncated=False, refit=False):
        self.B, self.tol, self.noise = B, float(tol), noise
        self.search_truncated, self.refit = bool(search_truncated), bool(refit)
        self.rounding = EXACT_NOISE if rounding is None else float(rounding)
        self.i, self.j = order
        self.n_evaluations = 0
        self.window_fits = 0
        self.graph_energy = bool(graph_energy_floor.get())

    def evaluate(self, c, gram: PairGram):
        """A ``Fit`` if the pairs after the first ``c`` are clean and valid, else None.

        Inside ``run`` (``_chain_optimum.CHAIN_ANSWERS``), a fit whose max-margin program
        its certificate chain answered keeps ``gram`` as ``chained_gram``: ``run``
        evaluates the size it returns again without chain answers.

        The span searched is first the directions that fit to rounding; with noise, if
        it holds no valid Laplacian, the directions that fit to the noise level. A span
        of a truncated family (``_near_null``) is not searched unless
        ``search_truncated``.
        """
        self.n_evaluations += 1
        self.truncated_miss = False
        hook = evaluation_hook.get()
        if hook is not None:
            hook(c)
        if self.noise:
            return self._evaluate(c, gram, None)
        first = gram.null_directions(8)
        fit = self._evaluate(c, gram, first)
        if fit is None and self._rounding_lean(c, first):
            # the pairs after the prefix fit the direction to rounding in bulk: it may
            # lean by the Gram's rounding, which the pairs themselves remove
            # (``_null_refinement``)
            mu, Lam = first
            Lam = Lam.copy()
            _, D = gram.centred_directions(8)
            Lam[:, 0] = refined_direction(self.B, gram, D[:, 0], self.i[c:], self.j[c:])
            fit = self._evaluate(c, gram, (mu, Lam))
        return fit

    def _rounding_lean(self, c, first) -> bool:
        """Whether an exact evaluation that failed may have failed by the lean of its
        best direction (``first``: the Gram's smallest directions) alone: the direction
        is determined (the next one is not near-null, ``PairBasis.cluster``: in a family
        any member is as good), it is the direction the evaluation searched (no local
        columns left out), and the pairs after the first ``c`` fit it to the rounding
        level in bulk (their robust noise, the ``robust_noise`` of a ranking, at most
        ``rounding``)."""
        B = self.B
        mu = first[0]
        if (mu.size < 2 or mu[1] <= B.cluster(mu[0]) or c >= len(self.i)
                or self._local_columns(c) is not None):
            return False
        lam0 = trace_scaled(B, first[1][:, 0])
        scale = B.node_scale(lam0)
        i, j = self.i[c:], self.j[c:]
        z = np.abs(B.matrix(lam0)[i, j]) / (scale[i] + scale[j] + 1e-300)
        return 1.4826 * float(np.median(z)) <= self.rounding

    def _evaluate(self, c, gram: PairGram, first):
        """``evaluate`` with the Gram's smallest directions ``first`` (exact input) or
        None (with noise)."""
        B = self.B
        if first is not None:
            # exact: rejected unless the best direction is clean, which the smallest
            # directions decide before the near-null ones are counted
            lam0 = trace_scaled(B, first[1][:, 0])
            if self._residual_noise(c, lam0)[1] is None:
                return None
        mu, Lam, exact, truncated = self._near_null(c, gram, first=first)
        # a failure from here on, with a truncated family not searched, says the prefix
        # is too large (``_prefix_window``)
        self.truncated_miss = truncated and not self.search_truncated
        lam0 = trace_scaled(B, Lam[:, 0])
        scale, noise = self._residual_noise(c, lam0)
        family = bool(self.noise) and mu.size > 1
        if noise is None and (not family or (truncated and not self.search_truncated)):
            return None
        # a truncated family (more near-null directions than MAX_FAMILY) is searched only
        # when asked: its programs span an arbitrary part of the near-null space, whose
        # vertices are rarely its sparsest members, and they are the slowest ones (exact:
        # every direction fits to rounding, and none is searched)
        whole = not (truncated and not self.search_truncated)
        noise = max(float(self.noise or 0.0), self.rounding) if noise is None else noise
        if family:
            # the first direction of a family is any member of its span, not the graph
            # sought: the tolerance is in the scale of equal eigenvalues instead
            scale = B.node_scale(B.equal_eigenvalues())
        tol = self._tolerance(noise, scale)
        floor = max(1e-5, noise)
        hint = (self.i[:c], self.j[:c])
        ok = False
        for span in (exact, np.ones(mu.size, dtype=bool)):
            if span.all() and not whole:
                break
            programs = {}
            ok, lam, _ = valid_in_span(B, Lam[:, span], tol, floor, hint, cache=programs)
            clean = ok and (not family or self._residual_noise(c, lam)[1] is not None)
            if programs.get(ANSWERED):
                if clean:
                    # a verdict: ``run`` fits it again
                    return Fit(lam, Lam[:, span], mu[span], c, tol, floor, hint, programs,
                               chained_gram=gram)
                # the answer and the rows the next programs start from, as the rounds
                # give them (``_chain_optimum``)
                token, programs = CHAIN_ANSWERS.set(False), {}
                try:
                    ok, lam, _ = valid_in_span(B, Lam[:, span], tol, floor, hint,
                                               cache=programs)
                finally:
                    CHAIN_ANSWERS.reset(token)
                clean = ok and (not family or self._residual_noise(c, lam)[1] is not None)
            if clean:
                return Fit(lam, Lam[:, span], mu[span], c, tol, floor, hint, programs)
            if span.all():
                break
        # the first program of the band rounds (an empty band, the same tolerances and
        # floor) is the one just solved on the whole span: they fail at once if it did,
        # and otherwise start from its answer and its rows
        fit = self._banded(c, mu, Lam, noise, floor, first=(lam, programs)) if (
            family and ok and whole) else None
        if fit is None and self.refit and self.noise:
            fit = self._refit(c, Lam[:, 0], tol)
        return fit

    def _tolerance(self, noise, scale):
        """Per-node off-diagonal tolerance at the noise level and scale."""
        return np.maximum(np.maximum(self.tol * self.B.n, CLEAN_FACTOR * noise * scale), 5e-10)

    def _refit(self, c, lam0, tol):
        """With noise: the prefix cut to its edge-like pairs, evaluated once; or None.

        The direction fitted to the pairs after the first ``c`` leaves its largest
        errors on the non-edges among the first ``c`` (not fitted, and ranked there for
        their large rows), and one positive entry above the tolerance fails the
        validity test. The pairs of the prefix whose entry is not below
        $-2(\\mathrm{tol}_i + \\mathrm{tol}_j)$ join the fitted pairs; the pairs after
        the prefix must still be clean.
        """
        B = self.B
        lam0 = trace_scaled(B, lam0)
        I, J = self.i[:c], self.j[:c]
        edge = B.products(I, J, lam0[:, None])[:, 0] < -2.0 * (tol[I] + tol[J])
        k = int(np.count_nonzero(edge))
        if k in (0, c):
            return None
        key = self._refit_key(edge)
        failed = self._failed_refits.get(key)
        if failed is not None:
            self._replay_refit(k, failed)
            return None
        order = (np.concatenate([I[edge], I[~edge], self.i[c:]]),
                 np.concatenate([J[edge], J[~edge], self.j[c:]]))
        sub = PrefixSearch(B, order, self.tol, self.noise, self.rounding,
                           self.search_truncated)
        edges = (I[edge], J[edge])
        fit = sub.evaluate(k, gram_without(PairGram(B), *edges, edges))
        self.n_evaluations += sub.n_evaluations
        if fit is None:
            self._failed_refits[key] = sub.n_evaluations
        return fit

    def _refit_key(self, edge) -> tuple:
        """What a refit's evaluation depends on besides this search: the positions of
        its edge-like pairs in the order (``edge``: a mask over a prefix of it) and the
        context its evaluation reads (chain answers, the graph-energy limit).

        The refit's order of pairs is its edge-like pairs, then every other pair of
        this search's order, both in this order: the same positions give the same
        order, the same Gram of the pairs after them and so the same evaluation, bit
        for bit, whatever the size ``c`` of the prefix they were read in (the sizes
        of one search, doubled and bisected, often cut their prefixes to the same
        edges: PyGSP ``Sensor(1000, seed=5)`` perturbed by 1e-3, draw 0, the last
        search of its noisy ladder downdated 68 Grams instead of 98).
        """
        digest = hashlib.blake2b(np.flatnonzero(edge).astype(np.int64).tobytes(),
                                 digest_size=16)
        return digest.hexdigest(), CHAIN_ANSWERS.get(), bool(graph_energy_floor.get())

    @property
    def _failed_refits(self) -> dict:
        """The refits of this search that found nothing, by ``_refit_key``: the number
        of evaluations each made."""
        if not hasattr(self, "_failed_refits_value"):
            self._failed_refits_value = {}
        return self._failed_refits_value

    def _replay_refit(self, k, evaluations) -> None:
        """Count a refit made before that found nothing again (its ``evaluations``) and
        call the progress hook with its size ``k``, as its evaluation would."""
        self.n_evaluations += evaluations
        hook = evaluation_hook.get()
        if hook is not None:
            hook(k)

    def _banded(self, c, mu, Lam, noise, floor, rounds=3, max_entries=4_000_000,
                first=None):
        """A valid Laplacian of the family whose entries on the pairs after the first
        ``c`` stay within the noise band, or None.

        The max-margin point of a family found at the noise level may leave large
        entries on those pairs; the band $|L_{ij}| \\le$ ``CLEAN_FACTOR`` times the noise
        is then imposed in the linear program, in the units (``scale``) of equal
        eigenvalues first, then of the solution found, ``rounds`` times. ``first``:
        ``(lam, programs)`` of the program without a band at the first round's
        tolerances, if already solved (its answer and its ``cache``).
        """
        B = self.B
        I, J = self.i[c:], self.j[c:]
        if len(I) * mu.size > max_entries:
            return None
        lam = B.equal_eigenvalues()
        hint = (self.i[:c], self.j[:c])
        programs = {}
        for k in range(rounds):
            tol = self._tolerance(noise, B.node_scale(lam))
            # the span and its pair rows do not change with the tolerances
            start, programs = (first if k == 0 and first is not None
                               else (None, same_span(programs)))
            lam = self._band_lp(Lam, tol, floor, hint, (I, J), programs, start=start)
            if lam is None:
                return None
            if self._residual_noise(c, lam)[1] is not None:
                return Fit(lam, Lam, mu, c, tol, floor, hint, programs)
        return None

    def _band_lp(self, Lam, tol, floor, hint, pairs, programs, batch=500, max_rounds=20,
                 start=None):
        """``valid_in_span`` with the noise band on ``pairs``, by constraint generation:
        only the pairs violating the band so far are constrained (``programs``: the
        ``cache`` of ``valid_in_span``, shared by the rounds). ``start``: the answer of
        the first round (no band), when already solved with ``programs``."""
        B = self.B
        I, J = pairs
        width = tol[I] + tol[J]
        active = np.zeros(len(I), dtype=bool)
        for k in range(max_rounds):
            if k == 0 and start is not None:
                lam = start
            else:
                band = (I[active], J[active], width[active])
                ok, lam, _ = valid_in_span(B, Lam, tol, floor, hint, band=band,
                                           cache=programs)
                if not ok:
                    return None
            excess = np.abs(B.matrix(lam)[I, J]) - width
            excess[active] = 0.0
            if excess.max(initial=0.0) <= 0.0:
                return lam
            active[largest_above(excess, batch, 0.0)] = True
        return None

    def _near_null(self, c, gram: PairGram, r=8, first=None, cap=None):
        """Directions that fit the pairs after the first ``c`` to rounding or to the noise,
        the mask of those that fit to rounding, and whether more directions than
        ``MAX_FAMILY`` fit (a truncated family: unless ``search_truncated``, the prefix
        is then rejected without linear programs, except, with noise, over its
        directions that fit to rounding when they are fewer; programs over a truncated
        span are slow and their vertices rarely the family's sparsest members).

        A direction is near-null when its fitting error ``mu`` is within 10x the best
        one's (rounding), or below ``NULL_FACTOR`` times the error the noise level would
        give it: $\\sigma^2 \\sum (s_i + s_j)^2$ over the pairs (with ``graph_energy``, or
        the error it would give a graph of equal eigenvalues of the direction's norm,
        if larger: ``_graph_energy``). At most ``MAX_FAMILY`` plus the local columns.
        ``first``: ``gram.null_directions(r)`` if already computed (not used when the
        local columns are left out). ``cap``: most directions computed instead of
        ``MAX_FAMILY`` plus the local columns (``_hopeless_basis`` counts them all).
        """
        B = self.B
        local = self._local_columns(c)
        if local is None:
            directions = gram.null_directions
            r = max(r, B.n_local + 8)   # local columns are null directions: one eigh call
        else:
            first = None

            def directions(r):
                return other_null_directions(gram, local, r)
        cap = min(B.g, MAX_FAMILY + B.n_local) if cap is None else min(B.g, cap)
        size = -1
        while True:
            mu, Lam = first if first is not None else directions(r)
            first = None
            limit = np.full(mu.size, B.cluster(mu[0]))
            if self.noise:
                energy = (graph_energy(B, lambda L: self._energy(c, L), Lam)
                          if self.graph_energy else self._energy(c, Lam))
                limit = np.maximum(limit, NULL_FACTOR * self.noise ** 2 * energy)
            near = mu <= limit
            reach = NULL_FACTOR * self.noise ** 2 * self._max_energy() if self.noise else 0.0
            if not (near[-1] or mu[-1] <= reach) or mu.size >= cap or mu.size == size:
                break
            r, size = 2 * r, mu.size
        truncated = bool(near[-1]) and mu.size < B.g
        near[0] = True
        exact = mu[near] <= B.cluster(mu[0])
        mu, Lam = mu[near], Lam[:, near]
        if local is not None:            # the local columns' own directions, exact
            E = np.zeros((B.g, local.size))
            E[local, np.arange(local.size)] = 1.0
            mu, Lam = np.append(mu, np.zeros(local.size)), np.hstack([Lam, E])
            exact = np.append(exact, np.ones(local.size, dtype=bool))
        return mu, Lam, exact, truncated

    def _local_columns(self, c):
        """The local columns of the basis (``PairBasis.local_groups``) if every pair
        among their nodes is among the first ``c`` pairs, else None.

        Their eigenvalues then enter no pair after the first ``c`` (up to the noise), and
        the other directions are computed without them (``other_null_directions``):
        with noise, the local columns' near-null directions would otherwise mix with
        the graph's and hide it.
        """
        B = self.B
        if not B.local_groups:
            return None
        if not hasattr(self, "_local_last"):
            gi = np.concatenate([grp.i for grp in B.local_groups])
            gj = np.concatenate([grp.j for grp in B.local_groups])
            code = self.i.astype(np.int64) * B.n + self.j
            found = np.flatnonzero(np.isin(code, gi.astype(np.int64) * B.n + gj))
            self._local_last = int(found.max()) if found.size == gi.size else len(self.i)
        if c <= self._local_last:
            return None
        return np.concatenate([grp.cols for grp in B.local_groups])

    def _max_energy(self):
        """Bound on ``_energy`` of a unit direction: with $s_i^2 \\le \\max_k \\tilde Z_{ik}$.

        A direction whose fitting error exceeds the noise times this bound cannot be
        near-null, so the near-null directions are searched up to it: directions that
        fit few pairs (nodes left with few pairs) come first and hide the others. It
        depends on the basis only, and is computed once per search.
        """
        if not hasattr(self, "_max_energy_value"):
            z = self._squares().max(axis=1)
            self._max_energy_value = (self.B.n - 2) * float(z.sum()) + float(np.sqrt(z).sum()) ** 2
        return self._max_energy_value

    def _squares(self) -> np.ndarray:
        """$\\tilde Z = \\tilde V \\circ \\tilde V$, computed once per search."""
        if not hasattr(self, "_squares_value"):
            self._squares_value = self.B.V * self.B.V
        return self._squares_value

    def _energy(self, c, Lam):
        """$\\sum (s_i + s_j)^2$ over the pairs after the first ``c``, per column of ``Lam``."""
        B = self.B
        Z = self._squares()
        S = np.sqrt(np.abs(Z @ (Lam ** 2 if B.G is None else B.G @ Lam ** 2)))
        total = (B.n - 2) * (S * S).sum(axis=0) + S.sum(axis=0) ** 2
        return total - prefix_square_sums(S, self.i[:c], self.j[:c])

    def _residual_noise(self, c, lam0):
        """Per-node residual scale and the noise level, or ``(scale, None)`` if not clean.

        Residuals are standardised by $s_i + s_j$, $s_i^2 = (L^2)_{ii}$, the size of the
        error a perturbed basis puts on $L_{ij}$. Clean: every standardised residual is
        within ``CLEAN_FACTOR`` times the noise level (rounding when it is 0).
        """
        B = self.B
        scale = B.node_scale(lam0)
        i, j = self.i[c:], self.j[c:]
        z = np.abs(B.matrix(lam0)[i, j]) / (scale[i] + scale[j] + 1e-300)
        noise = max(float(self.noise or 0.0), self.rounding)
        return scale, (noise if z.max(initial=0.0) <= CLEAN_FACTOR * noise else None)

    def run(self, start=None, bisect=True):
        """Double ``c`` from ``start`` (default ``n - 1``) until valid, then bisect (unless
        not ``bisect``); the best ``Fit`` or None. In the uncapped rankings' searches
        (``graph_energy``), a doubling that reaches a truncated family searches the sizes
        between it and the last one first (``_prefix_window``). The same search of this
        basis that found nothing before is not made again (``_failed_searches``). An
        exact search of more than ``_whole_ranking.MIN_N`` nodes does not go on to the
        whole ranking (``_whole_ranking``)."""
        return remembered_run(self, start, bisect, self._run, evaluation_hook)

    def _run(self, start, bisect):
        """``_sizes`` with the max-margin programs of its sizes answered by their chains
        where they can be (``_chain_optimum``), and the fit found, if such an answer
        made it, evaluated again at its size without them (the same gram): the fit
        returned is the one the rounds give."""
        token = CHAIN_ANSWERS.set(True)
        try:
            fit = self._sizes(start, bisect)
        finally:
            CHAIN_ANSWERS.reset(token)
        gram = None if fit is None else fit.chained_gram
        if gram is None:
            return fit
        fit.chained_gram = None
        hook = evaluation_hook.set(None)     # not a size of the search
        try:
            exact = self.evaluate(fit.c, gram)
        finally:
            evaluation_hook.reset(hook)
        self.n_evaluations -= 1
        return fit if exact is None else exact

    def _sizes(self, start, bisect):
        B = self.B
        c_max = len(self.i)
        within = sum(grp.i.size for grp in B.local_groups)    # first in the order
        c, base_c, base = max(B.n - 1, int(start or 0)) + within, 0, PairGram(B)
        lo = lo_gram = None
        # the same order from the same size: the same downdates (``_doubling_grams``)
        chain, step = doubling_chain(B, self.i, self.j, c), 0
        while True:
            c = min(c, c_max)
            gram = doubling_gram(chain, step, base, self.i[base_c:c], self.j[base_c:c],
                                 (self.i[:c], self.j[:c]))
            step += 1
            best = self.evaluate(c, gram)
            if best is not None:
                break
            if c >= c_max:
                return None
            if self.graph_energy and self.truncated_miss and lo is not None:
                # past the window of valid prefixes: the sizes in between first (none
                # valid: the doubling goes on as before)
                found = window_fit(self, lo, lo_gram, c)
                if found is not None:
                    best, c, lo, lo_gram = found
                    self.window_fits += 1
                    break
            if stops_before_whole(B.n, self.noise, 2 * c, c_max):
                # exact, above ``MIN_N`` nodes: the whole ranking's downdated Gram decides
                # on rounding (``_whole_ranking``)
                return None
            lo, lo_gram, base_c, base, c = c, gram, c, gram, 2 * c
        if not bisect or (not self.noise and best.Lam.shape[1] == 1):
            # exact and determined: the pairs after a smaller c include these, so any
            # fit there is this Laplacian again (re-ranking by it finds its size)
            return best
        hi = c
        while lo is not None and hi - lo > max(1, hi // 200):
            mid = (lo + hi) // 2
            gram = gram_without(lo_gram, self.i[lo:mid], self.j[lo:mid],
                                (self.i[:mid], self.j[:mid]))
            fit = self.evaluate(mid, gram)
            if fit is not None:
                hi, best = mid, fit
            else:
                lo, lo_gram = mid, gram
        return best


def other_null_directions(gram: PairGram, local, r):
    """``PairGram.null_directions`` over the unknowns other than ``local`` (which get the
    lift of the direction $\\mathbf 1$ only). The matrix's reduction is kept with the
    Gram (``PairGram.others``) for other counts ``r``."""
    g = gram.B.g
    other = np.ones(g, dtype=bool)
    other[local] = False
    m = int(other.sum())
    mean = gram.total[other] / gram.k

    def centred():
        return centred_gram(gram.M[np.ix_(other, other)], mean, gram.k)

    key = np.asarray(local).tobytes()
    if key not in gram.others:
        gram.others[key] = SmallestEigenpairs(gram.B, centred, pinned=gram.pinned)
    w, D = gram.others[key](min(r, m))
    Lam = np.empty((g, D.shape[1]))
    Lam[other] = D
    Lam[local] = 0.0
    Lam += np.outer(np.ones(g), mean @ D)
    return np.maximum(w, 0.0), Lam


#: Pairs per block of ``prefix_square_sums``.
SQUARE_SUM_BLOCK = 2048


def prefix_square_sums(S, i, j) -> np.ndarray:
    """``((S[i] + S[j]) ** 2).sum(axis=0)``, by blocks of ``SQUARE_SUM_BLOCK`` pairs in
    one buffer instead of four arrays of ``len(i)`` rows.

    The same sums in the same order, bit for bit: a sum over the first axis of a
    C-ordered array of more than one column adds its rows in turn, and each block's
    sum starts from the last one's (its first row). One column is summed as before
    (there NumPy sums pairwise).
    """
    m, r = len(i), S.shape[1]
    if r < 2 or m <= SQUARE_SUM_BLOCK:
        out = S[i] + S[j]
        return (out * out).sum(axis=0)
    buffer = np.empty((SQUARE_SUM_BLOCK + 1, r))
    total = None
    for s in range(0, m, SQUARE_SUM_BLOCK):
        e = min(s + SQUARE_SUM_BLOCK, m)
        k = 0 if total is None else 1
        block = buffer[:e - s + k]
        if k:
            block[0] = total
        terms = block[k:]
        np.add(S[i[s:e]], S[j[s:e]], out=terms)
        np.multiply(terms, terms, out=terms)
        total = block.sum(axis=0)
    return total


def trace_scaled(B: PairBasis, lam):
    """``lam`` scaled so that its Laplacian has trace $n$; a direction whose trace
    vanishes (no valid Laplacian, but a member of a span that may hold one: the
    symmetric complete bipartite graphs' bases give them) is scaled by its absolute
    trace instead, which keeps the standardised residuals, invariant to scale."""
    trace = float(B.mult @ lam)
    size = float(B.mult @ np.abs(lam))
    if abs(trace) <= 1e-9 * size:
        return lam * (B.n / max(size, 1e-300))
    return lam * (B.n / trace)


def pair_residuals(B: PairBasis, gram, i, j) -> tuple[np.ndarray, np.ndarray]:
    """The standardised residuals $|\\tilde L(\\lambda)_{ij}| / (s_i + s_j)$ of the pairs
    ``(i, j)`` and $\\lambda$, the smallest direction of the Gram ``gram`` scaled to
    trace $n$."""
    _, Lam = gram.null_directions(8)
    lam = trace_scaled(B, Lam[:, 0])
    scale = B.node_scale(lam)
    return np.abs(B.matrix(lam)[i, j]) / (scale[i] + scale[j] + 1e-300), lam


def above_rounding(z: np.ndarray) -> np.ndarray:
    """The residuals ``z`` above 1e-12 of the largest (the others are rounding)."""
    return z[z > 1e-12 * max(float(z.max(initial=0.0)), 1e-300)]


def scaled_median(z: np.ndarray) -> float:
    """The noise level the residuals ``z`` show: their median scaled to a Gaussian's
    standard deviation (0 for none)."""
    return 1.4826 * float(np.median(z)) if z.size else 0.0


def kept_residuals(B: PairBasis, trimmed, read_with=None) -> np.ndarray:
    """Standardised residuals of the pairs kept by the trimming (those above 1e-12 of
    the largest), read with the smallest direction of their Gram (or of the Gram of
    ``read_with``, another ranking's ``trimmed``)."""
    gram, i, j = trimmed
    mask = np.ones((B.n, B.n), dtype=bool)
    mask[i, j] = False
    ki, kj = np.nonzero(np.triu(mask, 1))
    z, _ = pair_residuals(B, gram if read_with is None else read_with[0], ki, kj)
    return above_rounding(z)


def robust_noise(B: PairBasis, trimmed):
    """Noise level of the pairs kept by the trimming: scaled median standardised residual."""
    return scaled_median(kept_residuals(B, trimmed))


def seed_fit(B: PairBasis, trimmed, tol=0.0, noise=0.0, rounding=None,
             search_truncated=False, refit=False):
    """The fit on the pairs kept by the trimming (``trimmed`` from ``leverage_ranking``),
    or None."""
    gram, i, j = trimmed
    mask = np.ones((B.n, B.n), dtype=bool)
    mask[i, j] = False
    ki, kj = np.nonzero(np.triu(mask, 1))
    search = PrefixSearch(B, (np.concatenate([i, ki]), np.concatenate([j, kj])), tol, noise,
                          rounding, search_truncated, refit)
    return search.evaluate(len(i), gram)
