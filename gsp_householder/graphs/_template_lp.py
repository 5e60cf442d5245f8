"""Valid Laplacians inside a span of eigenvalue vectors: linear programs and candidates.

Given a few eigenvalue vectors ``Lam`` (columns: the near-null directions of the pairs
believed to be non-edges), a valid Laplacian is $\\lambda = \\Lambda y$ with every
off-diagonal entry $\\le$ a tolerance and every eigenvalue $\\ge t > 0$ (connected), at a
fixed trace. The max-margin linear program maximises $t$; when the span has dimension
$> 1$ (a family of graphs shares the eigenvectors), its sparse vertices are the candidate
graphs. Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs import _dense_lp
from gsp_householder.graphs._chain_optimum import (
    ANSWERED,
    CHAIN_ANSWERS,
    ChainOptimum,
    chain_optimum,
)
from gsp_householder.graphs._largest_indices import largest_above, largest_indices
from gsp_householder.graphs._long_certificate import converging, rounds_allowed
from gsp_householder.graphs._pair_geometry import (
    PairBasis,
    complement_gram,
    symmetric_product,
)
from gsp_householder.graphs._row_magnitude import row_magnitudes
from gsp_householder.graphs._span_memo import derived_token, remembered_call
from gsp_householder.graphs._span_rows import span_pair_rows
from gsp_householder.graphs._sparse_upper import upper_entries

#: A positive off-diagonal entry up to this many tolerances is noise, not invalidity (the
#: pairs ranked most edge-like include the non-edges with the largest errors).
POSITIVE_SLACK = 2.0
#: Pair constraints in a linear program's first round; more are added while violated.
CUT_ROWS = 1000
#: Relative accuracy of the linear programs' solutions (HiGHS feasibility tolerance
#: 1e-7): smaller entries, relative to the largest, are not edges.
LP_ACCURACY = 1e-6
#: A relaxation's margin proves a program's failure when it is below the floor by more
#: than this fraction of the floor (well above HiGHS's tolerances, so that the full
#: program could not reach the floor either).
CERTIFY_MARGIN = 1e-6
#: Smallest pair bound $2(\mathrm{tol}_i + \mathrm{tol}_j)$ of a span whose objective
#: programs are warm-started (100 times HiGHS's feasibility tolerance, 1e-7).
WARM_MIN_SLACK = 1e-5
#: Pair constraints of the small relaxation that a max-margin program solves first: if
#: its margin is below the floor, so is the program's (no further rounds are solved).
CERTIFY_ROWS = 50
#: Small relaxations tried before a later cutting-plane round of a max-margin program:
#: each adds the ``CERTIFY_ROWS`` rows of the round most violated at its optimum.
CERTIFY_ROUNDS = 6
#: Random objectives whose vertices ``sparse_vertices`` adds to a family's candidates
#: (``Fit.draws``: the constant-diagonal family sets its own, see ``regular_draws``).
RANDOM_OBJECTIVES = 6
#: A band program (``valid_in_span`` with ``band``, not ``settle``) whose margin the dual
#: simplex without presolve proves below ``floor - SCREEN_MARGIN`` is refused before its
#: presolved solves (``_dense_lp.bound_exceeded``). At trace $n$ the mean eigenvalue is
#: about 1: such a program has an eigenvalue below minus the mean whatever its pair rows,
#: a verdict far from the floor and from HiGHS's tolerances, which its presolved solves
#: reach only by failing (status *unknown*, up to 5.8 CPU s each on the exact 3 x 4 x 5
#: torus) or by finding it infeasible.
SCREEN_MARGIN = 1.0
#: Pair rows per node, and at least, of a program solved whole when HiGHS cannot solve
#: one of its cutting-plane relaxations (``full_program_rows``).
FULL_ROWS_PER_NODE, FULL_ROWS_MIN = 16, 6000


def full_program_rows(n: int) -> int:
    """Most pair rows of a max-margin program that ``valid_in_span`` solves whole when
    HiGHS ends a relaxation of it with no answer (model status unknown: numerical
    trouble), on $n$ nodes: ``max(FULL_ROWS_MIN, FULL_ROWS_PER_NODE * n)``, the most
    pairs a capped trimming sets aside (``_support_search.trimming_sizes``), so the
    seeds of capped rankings are solved whole as before. A larger program is taken as
    holding no valid Laplacian (its span rejected, as a failing program's is).

    The seeds of uncapped rankings (``_deep_trimming``) hold up to 78 % of the pairs:
    on perturbed PyGSP ``DavidSensorNet(500)`` a relaxation of 3025 rows over a family
    of 49 directions ended so, and the whole program of 81960 pair rows took 34 CPU s
    (three HiGHS solves of 7 to 15 s) to be found infeasible; with 56 directions, over
    72 s.
    """
    return max(FULL_ROWS_MIN, FULL_ROWS_PER_NODE * n)


@dataclass
class Fit:
    """A valid Laplacian found in the span ``Lam`` at complement size ``c``.

    ``tol`` is the per-node off-diagonal tolerance (pair $(i, j)$ may reach
    ``tol[i] + tol[j]``), ``floor`` the smallest accepted eigenvalue and ``hint`` the
    complement pairs, the only ones whose entries can differ from zero in the span.
    ``programs`` is the ``cache`` of ``valid_in_span`` for this span, tolerance and
    hint (the pair constraints and the rows the linear programs needed so far).
    ``draws`` is the number of random objectives ``sparse_vertices`` solves for.
    ``chained_gram`` is the Gram the fit was found on when a certificate chain answered
    its max-margin program (``_chain_optimum``): the prefix search evaluates that size
    again without chain answers before it returns the fit; None otherwise.
    """

    lam: np.ndarray
    Lam: np.ndarray
    mu: np.ndarray
    c: int
    tol: np.ndarray
    floor: float
    hint: tuple
    programs: dict = field(default_factory=dict, repr=False)
    draws: int = RANDOM_OBJECTIVES
    chained_gram: object = field(default=None, repr=False, compare=False)


def valid_in_span(B: PairBasis, Lam, tol, floor, hint, objective=None, band=None,
                  cache=None, settle=False):
    """Max-margin (or ``objective``-minimising, margin fixed at ``floor``) valid Laplacian.

    ``band = (I, J, width)`` also bounds $|\\tilde L_{ij}| \\le$ ``width`` on those pairs.
    ``cache`` (a dict, filled on the first call) keeps, between calls with the same
    ``Lam``, ``tol`` and ``hint``, the pair constraints and the pair rows the linear
    programs needed so far, from which the next call's cutting planes start.
    Returns ``(ok, lam, t)``: whether a valid Laplacian with margin ``t >= floor``
    exists in ``span(Lam)``, normalised to ``mult @ lam = n``; ``lam`` is None when not.

    A cutting-plane round solves a relaxation (a subset of the pair constraints), whose
    margin bounds the full program's from above: once it is below ``floor`` the answer
    is no, and the max-margin program stops there (``t`` is then that bound). The first
    program of a span starts with a relaxation of ``CERTIFY_ROWS`` pair rows only
    (``_nearest_rows``: chosen before the span's other pair rows are built), which
    settles most failing programs at a fraction of the cost; when the first round would
    hold ``CUT_ROWS`` rows, up to ``CERTIFY_ROUNDS`` more small relaxations follow, each
    with the ``CERTIFY_ROWS`` pairs most violated at the last optimum (``_certified``).
    If they do not settle it, the rounds start as they would without them; inside a
    prefix search's sizes (``_chain_optimum.CHAIN_ANSWERS``), over a noisy span (pair
    bounds at least ``WARM_MIN_SLACK``) without a band, a small relaxation whose optimum
    violates no pair row and is its only optimum answers the program instead of the
    rounds (``_chain_optimum``; ``cache`` is marked ``ANSWERED``). Before a
    later round that adds more than ``CERTIFY_ROWS`` rows, small relaxations of it (the
    rows binding at the last optimum plus the most violated new rows, ``CERTIFY_ROUNDS``
    times) are tried the same way: an infeasible round of a few thousand rows can take
    HiGHS seconds to prove. With a ``band`` and not ``settle``, the dual simplex without
    presolve may prove the margin below ``floor - SCREEN_MARGIN``
    (``_dense_lp.bound_exceeded``), and the answer is no without a presolved solve. With
    a ``band`` and ``settle``, the program without any pair row is solved first: if it
    is infeasible, or below the floor when no pair row could be added, the answer is no
    (without ``settle`` the first round, which holds its rows, refuses such a band
    before any pair row is added). With ``settle`` the rounds run to the end anyway, so
    that ``cache`` holds the rows of the full program for the later programs that share
    it; their presolved solves are work-limited (``_dense_lp.WorkLimit``): one that HiGHS cannot
    settle ends with status *unknown*, as it would have after many more CPU seconds, and is
    taken so (a refusal). The cold solves of an objective call are work-limited too: its
    vertex is one candidate among several, and a solve past its work limit gives none (the
    solves HiGHS cannot settle give none anyway: pygsp's ``TwoMoons(200, seed=4)`` exact,
    draw 0, has three of 4849 rows and 52 columns that ended *unknown* after 5.5, 17.8 and
    9.7 CPU s, and end so at their work limit after 2.0, 1.2 and 1.3; the same answer in
    10 CPU s in place of 38). The small relaxations are one model grown row by row
    (``_Chain``);
    over a noisy span the rounds after the first start from the last round's basis
    (``_Rounds``). A cold solve that HiGHS's presolve finds infeasible is solved again without
    presolve (``_dense_lp.confirmed_solve``): the bounds of exact spans are below its
    tolerances.

    Inside ``_span_memo.remembered_spans`` a max-margin call made before with the same
    arguments, on a ``cache`` in the same state, is answered from the record
    (``_span_memo.remembered_call``). An objective call is always solved: over a noisy
    span it starts or advances the cache's warm program, whose basis the next objective
    call starts from, and a warm solve reaches its vertex (the program's only optimum,
    ``WarmProgram.unique_optimum``) to last bits that depend on that basis; answered from
    the record, the call would leave the warm program unstarted, and the next solve's
    vertex would differ in its last bits (perturbed ``circular_ladder_graph(8)``, SkylakeX
    kernels: 107 Laplacian entries of the answer). Measured on the small symmetric
    inputs of ``benchmarks/bench_span_memo.py``, every objective call the record could
    have answered would have been solved again before the cache's next warm solve: such
    answers save nothing. The objective programs of exact spans are solved cold, and a
    cold program solved before is not solved again (``_program_memo``).
    """
    if Lam.shape[1] == 1 and objective is None and band is None:
        return _check_single(B, Lam[:, 0], tol, floor, hint)
    cache = {} if cache is None else cache
    hint_i, hint_j = hint
    arrays = [Lam, tol, np.asarray(hint_i), np.asarray(hint_j)]
    if objective is not None:
        arrays.append(objective)
    if band is not None:
        arrays += [np.asarray(band[0]), np.asarray(band[1]), band[2]]
    flags = ("valid_in_span", float(floor), objective is None, band is None, bool(settle))
    return remembered_call(
        B,
        arrays,
        flags,
        cache,
        lambda: _solved_in_span(B, Lam, tol, floor, hint, objective, band, cache, settle),
        remember=objective is None,
    )


def _solved_in_span(B: PairBasis, Lam, tol, floor, hint, objective, band, cache, settle):
    """``valid_in_span`` solved on a span of several directions or with an objective or
    a band (``cache``: a dict)."""
    n, g = B.n, B.g
    if "Lam" not in cache:
        Q = np.linalg.qr(Lam)[0]
        cache.update({"Lam": Q, "trace_row": B.mult @ Q})
    Lam, trace_row = cache["Lam"], cache["trace_row"]
    d = Lam.shape[1]
    if objective is None:
        cost = np.append(np.zeros(d), -1.0)
        t_bounds = (None, 2.0 * n / B.mult.sum())
    else:
        cost = np.append(objective, 0.0)
        t_bounds = (floor, floor)
    blocks = [np.hstack([-Lam, np.ones((g, 1))])]                        # t - lam <= 0
    bounds_ub = [np.zeros(g)]
    if band is not None:
        R = B.products(band[0], band[1], Lam)
        blocks += [np.hstack([R, np.zeros((len(R), 1))]), np.hstack([-R, np.zeros((len(R), 1))])]
        bounds_ub += [band[2], band[2]]
    if B.ordered and g > 1:
        blocks.append(np.hstack([Lam[:-1] - Lam[1:], np.zeros((g - 1, 1))]))
        bounds_ub.append(np.zeros(g - 1))
    fixed_rows, fixed_ub = np.vstack(blocks), np.concatenate(bounds_ub)
    A_eq, b_eq = np.append(trace_row, 0.0)[None, :], np.array([float(n)])
    lower = np.append(np.full(d, -np.inf), -np.inf if t_bounds[0] is None else t_bounds[0])
    upper = np.append(np.full(d, np.inf), t_bounds[1])
    def solve(rows):
        if warm is not None and not (warm.rows & ~rows).any():
            new = rows & ~warm.rows
            warm.program.add_rows(np.hstack([H[new], np.zeros((int(new.sum()), 1))]), h[new])
            warm.rows |= new
            status, x = warm.program.solve(cost)
            if status == 0 and warm.program.unique_optimum():
                return _Solution(status, x)
            # another optimal vertex (or a failure) may be a cold solve's answer
        A = np.vstack([fixed_rows, np.hstack([H[rows], np.zeros((len(H[rows]), 1))])])
        return _Solution(*_dense_lp.solve(cost, A, np.concatenate([fixed_ub, h[rows]]), A_eq,
                                          b_eq, lower, upper, confirm_infeasible=True,
                                          work_limited=settle or objective is not None))

    def below_floor(res):
        return res.status == 2 or (res.status == 0
                                   and res.x[-1] < floor - CERTIFY_MARGIN * abs(floor))

    def chain():
        """A small relaxation kept between solves: each adds pair rows and starts from
        the last optimal basis (only the margin of each is an answer; its vertex only
        chooses the next rows, so the first is not presolved either)."""
        return _Chain(_dense_lp.WarmProgram(fixed_rows, fixed_ub, A_eq, b_eq, lower, upper,
                                            presolve=False), cost)

    def refuted(small, worst):
        """Whether small relaxations of the next round (the rows binding at this one's
        optimum, then the most violated rows of the next round at each small optimum,
        ``CERTIFY_ROWS`` at a time) push the margin below the floor."""
        small, relaxation = small.copy(), chain()
        added = np.zeros(len(H), dtype=bool)
        for _ in range(CERTIFY_ROUNDS):
            small[worst[:CERTIFY_ROWS]] = True
            new = small & ~added
            added |= new
            res = relaxation.add(H[new], h[new])
            if below_floor(res):
                return True
            if res.status != 0:
                return False
            Hy = H @ res.x[:-1]
            excess = Hy - h
            excess[~sel | small] = 0.0
            worst = largest_above(excess, CERTIFY_ROWS,
                                  1e-9 * max(float(np.abs(Hy).max()), 1.0))
            if worst.size == 0:
                return False
        return False

    certify = objective is None and not settle
    if "H" not in cache:
        verdict = False
        if certify and len(hint[0]) > 2 * CERTIFY_ROWS:
            verdict = _certified(B, Lam, trace_row, tol, hint, len(hint[0]) > CUT_ROWS, chain,
                                 below_floor, band is None and CHAIN_ANSWERS.get())
            if verdict is True:
                return False, None, -np.inf       # a small relaxation settles it
        kept = (cache["pair_rows"], cache["live"]) if "pair_rows" in cache else None
        cache.update(_pair_constraints(B, Lam, tol, hint, rows=kept))
        if isinstance(verdict, ChainOptimum):
            # the chain's last optimum is the program's (``chain_optimum``): its rows are
            # the rows this span's later programs start from
            cache["rows"] = verdict.mask(len(hint[0]))[cache["live"]]
            cache[ANSWERED] = True
            t = float(verdict.x[-1])
            if t < floor:
                return False, None, t
            return True, Lam @ verdict.x[:-1], t
    H, h = cache["H"], cache["h"]
    warm = _warm_program(cache, objective is not None and band is None, floor, fixed_rows,
                         fixed_ub, A_eq, b_eq, lower, upper)
    if "rows" in cache:
        sel = cache["rows"].copy()
    else:
        nearest = None
        if len(H) > CUT_ROWS:
            y_ref = np.sign(trace_row[0] or 1.0) * np.eye(d)[0]
            nearest = largest_indices(H @ y_ref - h, CUT_ROWS)
        sel = np.zeros(len(H), dtype=bool)
        sel[nearest[:CUT_ROWS] if len(H) > CUT_ROWS else slice(None)] = True
    if band is not None and len(band[0]) and objective is None:
        if not settle and _dense_lp.bound_exceeded(cost, fixed_rows, fixed_ub, A_eq, b_eq,
                                                   lower, upper, SCREEN_MARGIN - floor):
            return False, None, -np.inf     # the margin is below floor - SCREEN_MARGIN
        if not certify:
            # the band and the eigenvalue floor alone may leave no margin: no pair row is
            # needed, and the rows kept for this span are those the rounds would keep (an
            # infeasible relaxation ends them before any row is added). Not solved when
            # ``certify``: the first round holds these rows, so its margin is at most
            # theirs, and a margin below the floor ends the rounds before any pair row is
            # added (the same answer and rows kept; this program was optimal above the
            # floor in 207 of 214 banded programs of a perturbed RGG(200, 0.13), 17 ms
            # each)
            res = solve(np.zeros(len(H), dtype=bool))
            if res.status == 2 or (below_floor(res) and sel.all()):
                return False, None, -np.inf
    rounds = _Rounds(solve, cost, fixed_rows, fixed_ub, A_eq, b_eq, lower, upper, H, h) if (
        objective is None and h.size and float(h.min()) >= WARM_MIN_SLACK) else None
    # Cutting planes on the pair constraints: start with those the earlier programs of
    # this span needed or, on the first call, those nearest to binding at the first
    # direction of the span (the best-fitting member); add the violated ones.
    while True:
        res = solve(sel) if rounds is None else rounds.solve(sel)
        if res.status != 0 and sel.all():
            break
        if res.status == 2:                          # a relaxation is infeasible
            break
        if res.status != 0:
            if len(H) > full_program_rows(n):
                break                                # undecided: taken as no
            sel[:] = True
            continue
        if certify and below_floor(res):
            break                                    # the relaxation's margin is too small
        y = res.x[:-1]
        Hy = H @ y
        level = 1e-9 * max(float(np.abs(Hy).max(initial=0.0)), 1.0)
        excess = Hy - h
        binding = sel & (excess >= -level)
        excess[sel] = 0.0
        worst = largest_above(excess, CUT_ROWS, level)
        if worst.size == 0:
            break
        sel[worst] = True
        if certify and worst.size > CERTIFY_ROWS and refuted(binding, worst):
            cache["rows"] = sel
            return False, None, -np.inf
    cache["rows"] = sel
    if res.status != 0:
        return False, None, -np.inf
    y, t = res.x[:-1], float(res.x[-1])
    if t < floor:
        return False, None, t
    return True, Lam @ y, t


@dataclass
class _Solution:
    """A program's ``linprog`` status code and solution (None unless optimal)."""

    status: int
    x: np.ndarray | None


class _Rounds:
    """The cutting-plane rounds of a max-margin program over a noisy span, each solved
    from the last round's optimal basis.

    The first round's model is the cold solve's (the same rows in the same order, so the
    same vertex); a later round adds its new pair rows to it. A vertex reached so is the
    cold solve's when it is the relaxation's only optimum
    (``WarmProgram.unique_optimum``); otherwise, or when the solve fails, the round is
    solved cold (``cold(rows)``). As for the objective programs (``_warm_program``), the
    pair bounds of the span must be well above HiGHS's tolerances (``WARM_MIN_SLACK``).
    """

    def __init__(self, cold, cost, fixed_rows, fixed_ub, A_eq, b_eq, lower, upper, H, h):
        self.cold, self.cost, self.H, self.h = cold, cost, H, h
        self.fixed = fixed_rows, fixed_ub, A_eq, b_eq, lower, upper
        self.program, self.rows = None, None

    def solve(self, rows) -> _Solution:
        H, h = self.H, self.h
        if self.program is None or (self.rows & ~rows).any():
            fixed_rows, fixed_ub, A_eq, b_eq, lower, upper = self.fixed
            A = np.vstack([fixed_rows, np.hstack([H[rows], np.zeros((int(rows.sum()), 1))])])
            self.program = _dense_lp.WarmProgram(A, np.concatenate([fixed_ub, h[rows]]), A_eq,
                                                 b_eq, lower, upper)
            self.rows = rows.copy()
            return _Solution(*self.program.solve(self.cost))
        new = rows & ~self.rows
        self.program.add_rows(np.hstack([H[new], np.zeros((int(new.sum()), 1))]), h[new])
        self.rows |= new
        status, x = self.program.solve(self.cost)
        if status == 0 and self.program.unique_optimum():
            return _Solution(status, x)
        return self.cold(rows)


class _Chain:
    """A relaxation grown by pair rows (``WarmProgram``): ``add(A, b)`` appends the rows
    ``A y <= b`` and solves again from the last optimal basis."""

    def __init__(self, program: _dense_lp.WarmProgram, cost):
        self.program, self.cost = program, cost

    def add(self, A, b) -> _Solution:
        self.program.add_rows(np.hstack([A, np.zeros((len(A), 1))]), b)
        return _Solution(*self.program.solve(self.cost))


@dataclass
class _Warm:
    """A ``WarmProgram`` with the fixed rows of a span and the pair rows it holds."""

    program: _dense_lp.WarmProgram
    rows: np.ndarray
    floor: float


def _warm_program(cache, use, floor, fixed_rows, fixed_ub, A_eq, b_eq, lower, upper):
    """The ``WarmProgram`` of a span's objective programs (kept in ``cache["warm"]``, one
    per ``floor``), or None when not ``use``.

    Objective programs (``sparse_vertices``: random and reweighted objectives, margin
    fixed at ``floor``) share their rows and differ in the objective; each starts from
    the previous optimal basis. Their objectives are generic, so each has one optimal
    vertex, which the warm start reaches as a cold solve would, provided the pair
    bounds are well above HiGHS's feasibility tolerance (``WARM_MIN_SLACK``: noisy
    fits). The bounds of exact fits (about 1e-9) are below it: the vertices within
    that tolerance of the optimum are equally optimal to HiGHS, and which one a solve
    returns depends on where it starts (a warm start changed the exact tree(200) of
    ``bench_inference.py`` from 199 to 200 edges), so those programs are solved cold.
    """
    h = cache["h"]
    if not use or not (h.size and float(h.min()) >= WARM_MIN_SLACK):
        return None
    warm = cache.get("warm")
    if warm is None or warm.floor != floor:
        program = _dense_lp.WarmProgram(fixed_rows, fixed_ub, A_eq, b_eq, lower, upper)
        warm = cache["warm"] = _Warm(program, np.zeros(len(cache["H"]), dtype=bool), floor)
    return warm


def _pair_constraints(B: PairBasis, Q, tol, hint, rows=None):
    """The rows $a_{ij}^T Q \\le 2(\\mathrm{tol}_i + \\mathrm{tol}_j)$ of the ``hint``
    pairs that do not vanish on the orthonormal span ``Q`` (``"H"``, ``"h"``, and the
    mask of those pairs, ``"live"``); ``rows``: ``(H, live)`` of an earlier call on the
    same span and hint (``same_span``), which do not depend on ``tol``."""
    I, J = hint
    if rows is None:
        H = span_pair_rows(B, Q, I, J)                                    # L_ij <= tol
        size = row_magnitudes(H)
        live = size > 1e-12 * max(float(size.max(initial=0.0)), 1e-300)
        rows = (H if live.all() else H[live]), live
    h = POSITIVE_SLACK * (tol[I] + tol[J])
    return {"H": rows[0], "h": h[rows[1]], "live": rows[1]}


def same_span(cache) -> dict:
    """A new ``cache`` of ``valid_in_span`` for programs over the span and ``hint`` of
    ``cache`` at other tolerances: the span's orthonormal basis and its pair rows
    (``_pair_constraints``), which the tolerances do not change (the same arrays)."""
    out = {key: cache[key] for key in ("Lam", "trace_row") if key in cache}
    if "H" in cache:
        out.update(pair_rows=cache["H"], live=cache["live"])
    derived_token(cache, out)
    return out


def _certified(B: PairBasis, Q, trace_row, tol, hint, chain, relaxation,
               below_floor, answer=False) -> bool | ChainOptimum:
    """Whether small relaxations of a max-margin program prove it below the floor.

    The first holds the ``CERTIFY_ROWS`` pair rows nearest to binding at the first
    direction of the span (``_nearest_rows``). With ``chain`` (a first cutting-plane
    round of ``CUT_ROWS`` rows would follow), up to ``CERTIFY_ROUNDS`` more each add the
    ``CERTIFY_ROWS`` pairs most violated at the last optimum, read off the entries of its
    Laplacian. Over at least ``_long_certificate.LONG_PAIRS`` pairs (pair rows that
    take seconds to build) the chain goes on while its margins still fall
    (``_long_certificate.converging``), for at most ``LONG_ROUNDS`` more relaxations.
    ``relaxation()`` gives a ``_Chain`` of the fixed rows, to which the pair
    rows are added; ``below_floor`` tells a solution whose margin is below the floor. A
    relaxation's margin bounds the program's from above, so a True answer is a proof; a
    False one leaves the program to the cutting-plane rounds. With ``answer``, over a
    noisy span, a relaxation whose optimum no pair row violates may answer the program
    itself (``chain_optimum``): its ``ChainOptimum`` is returned.
    """
    I, J = hint
    h = POSITIVE_SLACK * (tol[I] + tol[J])
    answer = answer and bool(h.size) and float(h.min()) >= WARM_MIN_SLACK
    rows = _nearest_rows(B, Q, trace_row, h, hint)
    program, new = relaxation(), rows
    last, margins = rounds_allowed(len(I), chain, CERTIFY_ROUNDS), []
    for k in range(1 + last):
        res = program.add(B.products(I[new], J[new], Q), h[new])
        if below_floor(res):
            return True
        if res.status != 0 or (k == last and not answer):
            return False
        margins.append(float(res.x[-1]))
        stop = k == last or (k >= CERTIFY_ROUNDS and not converging(margins, CERTIFY_ROUNDS))
        if stop and not answer:
            return False
        L = _direction_matrix(B, Q @ res.x[:-1])[I, J]
        excess = L - h
        excess[rows] = 0.0
        worst = largest_above(excess, CERTIFY_ROWS,
                              1e-9 * max(float(np.abs(L).max(initial=0.0)), 1.0))
        if worst.size == 0:
            return chain_optimum(program.program, res.x, rows) if answer else False
        if stop:
            return False
        rows, new = np.concatenate([rows, worst]), worst
    return False


def _nearest_rows(B: PairBasis, Q, trace_row, h, hint):
    """Indices (into the ``hint`` pairs) of the ``CERTIFY_ROWS`` pair rows nearest to
    binding at the first direction of the span, most binding first, found from that
    direction's entries alone (one $n \\times n$ product instead of every pair row of the
    span); ``h``: the rows' bounds."""
    I, J = hint
    q = np.sign(trace_row[0] or 1.0) * Q[:, 0]
    excess = _direction_matrix(B, q)[I, J] - h
    first = np.argpartition(-excess, CERTIFY_ROWS - 1)[:CERTIFY_ROWS]
    return first[np.argsort(-excess[first], kind="stable")]


def _direction_matrix(B: PairBasis, lam) -> np.ndarray:
    """$\\tilde L(\\lambda)$ of a direction used once (not kept by ``PairBasis.matrix``):
    by ``symmetric_product`` (half the flops) when ``B.symmetric``, as ``matrix`` forms
    it, else by the general product."""
    if B.symmetric:
        return symmetric_product(B.V, B.columns(np.ascontiguousarray(lam, dtype=np.float64)),
                                 work=B.column_buffer())
    return (B.V * B.columns(lam)) @ B.V.T


def check_member(B, lam, tol, floor, hint) -> bool:
    """Whether ``lam`` (normalised to trace $n$) is a valid Laplacian: eigenvalues at least
    ``floor``, entries on the ``hint`` pairs at most ``POSITIVE_SLACK`` tolerances."""
    return _check_single(B, lam, tol, floor, hint)[0]


def _check_single(B, lam, tol, floor, hint):
    tr = B.mult @ lam
    if abs(tr) < 1e-300:
        return False, None, -np.inf
    lam = lam * (B.n / tr)
    I, J = hint
    t = float(lam.min())
    ok = t >= floor and bool(np.all(B.matrix(lam)[I, J] <= POSITIVE_SLACK * (tol[I] + tol[J])))
    if ok and B.ordered:
        ok = bool(np.all(np.diff(lam) >= -np.median(tol)))
    return ok, lam, t


def edge_pairs(B: PairBasis, lam, tol):
    """Pairs whose entry is below ``-2 (tol_i + tol_j)``: the edges of ``lam``."""
    i, j = B.upper()
    off = -B.matrix(lam)[i, j]
    keep = off > np.maximum(2.0 * (tol[i] + tol[j]), LP_ACCURACY * off.max(initial=0.0))
    return i[keep], j[keep]


def sparse_vertices(B: PairBasis, fit: Fit, rng, n_reweight=3):
    """Candidate graphs of the family ``span(fit.Lam)``: the max-margin point, reweighted
    $\\ell_1$ descents from it (weights $1/(|L_{ij}| + \\epsilon)$), and vertices
    for random objectives.

    The vertices of the first ``RANDOM_OBJECTIVES`` draws are all kept; of the further
    ``fit.draws - RANDOM_OBJECTIVES`` draws, only a vertex that is a connected graph
    with fewer edges than every connected candidate before it. The further draws come
    from a copy of ``rng``: the caller's generator is left as after the first ones, so
    that the searches drawing from it next do not change.
    """
    cands = [fit.lam]
    d = fit.Lam.shape[1]
    if d == 1:
        return cands
    lam = fit.lam
    for _ in range(n_reweight):
        I, J = edge_pairs(B, lam, fit.tol)
        if len(I) == 0:
            break
        R = B.rows(I, J)
        w = 1.0 / (np.maximum(-(R @ lam), 0.0) + 1e-3 * max(float(np.abs(R @ lam).max()), 1e-300))
        obj = -(w @ R) @ np.linalg.qr(fit.Lam)[0]
        ok, lam2, _ = valid_in_span(B, fit.Lam, fit.tol, fit.floor, fit.hint, objective=obj,
                                    cache=fit.programs)
        if not ok:
            break
        lam = lam2
        cands.append(lam)
    fewest = None
    for k in range(fit.draws):
        if k == RANDOM_OBJECTIVES:
            rng = copy.deepcopy(rng)    # the caller's stream is kept
        ok, lam2, _ = valid_in_span(B, fit.Lam, fit.tol, fit.floor, fit.hint,
                                    objective=rng.standard_normal(d), cache=fit.programs)
        if ok and k < RANDOM_OBJECTIVES:
            cands.append(lam2)
        elif ok:
            if fewest is None:
                fewest = min((_connected_edges(B, c, fit.tol) for c in cands),
                             default=np.inf)
            edges = _connected_edges(B, lam2, fit.tol)
            if edges < fewest:
                cands.append(lam2)
                fewest = edges
    return cands


def _connected_edges(B: PairBasis, lam, tol) -> float:
    """Number of edges of ``lam`` (``edge_pairs``), or infinity if it is not connected."""
    I, J = edge_pairs(B, lam, tol)
    A = sp.csr_array((np.ones(len(I)), (I, J)), shape=(B.n, B.n))
    if sp.csgraph.connected_components(A, directed=False)[0] > 1:
        return np.inf
    return float(len(I))


def polish(B: PairBasis, lam, fit: Fit):
    """Project ``lam`` on the null space of the pairs it leaves at zero.

    The span projected on holds the directions that fit those pairs within the fit's
    cluster. For an exact fit, if the projection's smallest eigenvalue is below half
    the fit's floor (not connected: directions that fit a few pairs exactly crowd out
    ``lam``, which a linear program solves to its own tolerance only), the directions
    fitting them within 10x the misfit of ``lam`` are used; if that fails too, ``lam``
    is kept. A noisy fit's projection (least squares on its zero set) is returned.
    """
    I, J = edge_pairs(B, lam, fit.tol)
    if len(I) >= B.n_pairs - B.g:
        return lam
    gram = complement_gram(B, I, J)
    noisy = float(fit.mu[0]) > B.cluster(0.0)
    R = B.matrix(lam)
    i, j = B.upper()
    own = float(np.sum(R[i, j] ** 2)) - float(np.sum(R[I, J] ** 2))
    centred = lam - lam.mean()
    own = 10.0 * own / max(float(centred @ centred), 1e-300)
    for limit in (B.cluster(fit.mu[0]), max(B.cluster(fit.mu[0]), own)):
        mu, Lam = gram.null_directions(cluster=limit)
        d = max(1, int(np.count_nonzero(mu <= limit)))
        Lam = Lam[:, :d]
        lam2 = Lam @ np.linalg.lstsq(Lam, lam, rcond=None)[0]
        tr = B.mult @ lam2
        if tr > 0 and (noisy or lam2.min() * (B.n / tr) > 0.5 * fit.floor):
            return lam2 * (B.n / tr)
    return lam


def adjacency(B: PairBasis, lam, tol) -> sp.csr_array:
    """Edge weights $w_{ij} = -\\tilde L_{ij} u_i^2 u_j^2$ above the edge threshold.

    The entries above the threshold are found on the dense matrix, and only they are
    weighted (the same products, $-\\tilde L_{ij} (u_i^2 u_j^2)$, so the same weights bit
    for bit as weighting the whole matrix and converting it): the other $n^2$ entries
    are zeros, which the weighting, the relative cut and the conversion would pass over
    four more times.
    """
    L = B.matrix(lam)
    bound = 2.0 * (tol[:, None] + tol[None, :])
    if B.symmetric:
        # an exactly symmetric L (``symmetric_product``): -0.5 (L + L^T) is -L, bit for
        # bit, and -L > bound is L < -bound (negation is exact)
        np.negative(bound, out=bound)
        i, j = np.nonzero(L < bound)
        off = -L[i, j]
    else:
        W = -0.5 * (L + L.T)
        i, j = np.nonzero(W > bound)
        off = W[i, j]
    pair = i != j
    i, j, off = i[pair], j[pair], off[pair]
    u2 = B.u * B.u
    w = off * (u2[i] * u2[j])
    keep = w > 1e-6 * w.max(initial=0.0)
    index = np.int32 if B.n < np.iinfo(np.int32).max else np.int64
    return sp.csr_array((w[keep], (i[keep].astype(index), j[keep].astype(index))),
                        shape=(B.n, B.n))


def weight_cv(weights) -> float:
    """Coefficient of variation of the edge ``weights`` (each edge once)."""
    return float(np.std(weights) / np.mean(weights))


def rank_candidates(B: PairBasis, cands, fit: Fit, graphs=None):
    """Distinct connected candidate graphs: equal-weight ones first, then sparsest first.

    ``graphs``: the graphs (``adjacency`` at ``fit.tol``) of some of ``cands`` already
    read, keyed by the vector's bytes (``_polished_graphs``), used instead of reading
    them again. Returns a list of ``(n_edges, weight_cv, lam, W)``.
    """
    out, seen = [], set()
    for lam in cands:
        W = graphs.get(lam.tobytes()) if graphs else None
        if W is None:
            W = adjacency(B, lam, fit.tol)
        upper = upper_entries(W)
        key = edge_key(W, upper)
        if key in seen or upper[2].size == 0:
            continue
        seen.add(key)
        if sp.csgraph.connected_components(W, directed=False)[0] > 1:
            continue
        out.append((int(upper[2].size), weight_cv(upper[2]), lam, W))
    out.sort(key=candidate_order)
    return out


def edge_codes(W, upper=None) -> np.ndarray:
    """The sorted distinct codes ``row * n + col`` of the stored entries of the upper
    triangle of the sparse ``W``. ``upper``: ``upper_entries(W)`` if at hand.

    The entries of a CSR array with sorted indices and no duplicates come in increasing
    code order already: their codes are returned as they are (what ``numpy.unique``
    returns for them) after a linear check, which other orders fail and sort."""
    row, col, _ = upper_entries(W) if upper is None else upper
    codes = row.astype(np.int64) * W.shape[1] + col.astype(np.int64)
    if codes.size < 2 or bool(np.all(codes[1:] > codes[:-1])):
        return codes
    return np.unique(codes)


def edge_key(W, upper=None) -> bytes:
    """A key of the edge set of the sparse ``W`` (its upper triangle's stored entries):
    equal for two graphs of a basis exactly when their edge sets are, as the set of
    ``(row, col)`` pairs would be, but built in NumPy (the node count, then
    ``edge_codes``). ``upper``: ``upper_entries(W)`` if at hand."""
    return np.int64(W.shape[1]).tobytes() + edge_codes(W, upper).tobytes()


def laplacian_edge_key(L) -> bytes:
    """``edge_key`` of the edges of the Laplacian ``L`` (its nonzero off-diagonal
    entries)."""
    return edge_key(sp.triu(-sp.csr_array(L), 1))


#: Largest coefficient of variation of a graph's weights for equal weights
#: (``candidate_order``).
EQUAL_WEIGHTS_CV = 1e-6


def candidate_order(item):
    """Sort key: graphs with equal weights first, then fewer edges, then more equal weights."""
    n_edges, cv = item[0], item[1]
    return (cv > EQUAL_WEIGHTS_CV, n_edges, cv)
