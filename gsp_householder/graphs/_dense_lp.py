"""Dense linear programs solved by HiGHS, once or kept between solves.

``solve`` is ``scipy.optimize.linprog(method="highs")`` on dense rows with the options
and the model that ``linprog`` passes to HiGHS (so the same vertex is returned), without
its conversions (about 3 ms per program). ``WarmProgram`` keeps one HiGHS model between
solves that change only the objective or add rows: HiGHS starts from the previous
optimal basis (a few pivots instead of a presolve and a cold solve). A program with a
unique optimum (a generic objective) reaches the same vertex either way.

Both use scipy's bundled HiGHS bindings (``scipy.optimize._highspy``); when they cannot
be imported, ``linprog`` solves every program (``WarmProgram`` then solves cold).
Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linprog

from gsp_householder.graphs import _interior_solve as _interior
from gsp_householder.graphs._program_memo import solved_once

try:
    from scipy.optimize._highspy import _core as _highs
except ImportError:  # pragma: no cover - depends on the scipy build
    _highs = None

#: A nonbasic reduced cost below this fraction of the largest is taken as zero (an
#: optimal face rather than a vertex) by ``WarmProgram.unique_optimum``.
UNIQUE_RTOL = 1e-8
#: An inequality row whose slack at a vertex is below this fraction of its scale
#: ($|b_i| + |A_i| |x|$) is active there (``WarmProgram.unique_optimum``).
ACTIVE_RTOL = 1e-9
#: Status codes of ``scipy.optimize.linprog``.
OPTIMAL, LIMIT, INFEASIBLE, UNBOUNDED, OTHER = 0, 1, 2, 3, 4
#: HiGHS's ``simplex_strategy`` values: the dual simplex (``linprog``'s) and the primal.
DUAL_SIMPLEX, PRIMAL_SIMPLEX = 1, 4
#: A confirmation without presolve (``confirmed_solve``) of a program with ``d`` columns
#: stops after ``CONFIRM_ITERATIONS_PER_COLUMN * d + CONFIRM_EXTRA_ITERATIONS`` dual
#: simplex iterations (the presolved verdict then stands). The optima it found on the
#: benchmark rows took at most 1.9 d + 10 iterations (69 for 31 columns); the slowest
#: confirmation, not optimal, spent 0.25-0.3 CPU s per iteration after its 85th (32
#: columns) in HiGHS's clean-up of the unscaled infeasibilities.
CONFIRM_ITERATIONS_PER_COLUMN = 2.5
CONFIRM_EXTRA_ITERATIONS = 10
#: A presolved cold solve (``_cold_solve``) of a program with ``d`` columns stops after
#: ``COLD_ITERATIONS_PER_COLUMN * d + COLD_EXTRA_ITERATIONS`` dual simplex iterations
#: and the program is solved again without presolve (``cold_iteration_limit``). The
#: benchmark rows' presolved cold solves took at most 0.68 of it (2225 iterations, 256
#: columns and 3992 rows); docs/measurements/speed-and-scale.md, "Stalled presolved solves".
COLD_ITERATIONS_PER_COLUMN = 12
COLD_EXTRA_ITERATIONS = 200


def available() -> bool:
    """Whether the HiGHS bindings are used (else ``linprog``)."""
    return _highs is not None


def _status(model_status) -> int:
    """``linprog``'s status code of a HiGHS model status."""
    S = _highs.HighsModelStatus
    return {S.kOptimal: OPTIMAL, S.kInfeasible: INFEASIBLE, S.kModelError: INFEASIBLE,
            S.kUnbounded: UNBOUNDED, S.kTimeLimit: LIMIT,
            S.kIterationLimit: LIMIT}.get(model_status, OTHER)


def _bound(values, sign):
    """Bounds with infinities as HiGHS's infinity."""
    out = np.asarray(values, dtype=np.float64).copy()
    out[~np.isfinite(out)] = sign * _highs.kHighsInf
    return out


def _new_highs(presolve=True):
    h = _highs._Highs()
    for key, value in (("output_flag", False), ("log_to_console", False),
                       ("highs_debug_level", 0), ("presolve", "on" if presolve else "off"),
                       ("simplex_strategy", DUAL_SIMPLEX)):     # as linprog
        h.setOptionValue(key, value)
    return h


def _pass_model(h, cost, A, lhs, rhs, lower, upper):
    """Pass ``lhs <= A x <= rhs``, ``lower <= x <= upper``, minimise ``cost @ x``; the
    matrix column-wise without its zero entries, as ``linprog`` passes it. The arrays go
    to HiGHS by pointer (its ``passModel`` of arrays builds the same ``HighsLp`` as one
    filled field by field, whose vectors pybind11 would copy element by element)."""
    m, n = A.shape
    start, index, values = _nonzeros_by_row(np.ascontiguousarray(A.T))
    h.passModel(n, m, int(index.size), int(_highs.MatrixFormat.kColwise),
                int(_highs.ObjSense.kMinimize), 0.0, np.asarray(cost, dtype=np.float64),
                _bound(lower, -1.0), _bound(upper, 1.0), _bound(lhs, -1.0), _bound(rhs, 1.0),
                start, index, values,
                np.full(n, int(_highs.HighsVarType.kContinuous), dtype=np.int32))


def _nonzeros_by_row(A) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The nonzero entries of the C-ordered ``A`` row by row, as HiGHS reads a packed
    matrix: the start of each row (``int32``), their column indices (``int32``) and
    values. A matrix without zero entries (pair rows are dense) is packed as it is
    stored: the same arrays as those of ``A != 0``, without the boolean gathers. Others
    (pair rows beside the margin's zero column) are gathered at the flat indices of
    their nonzero entries, whose column is the index modulo ``n``: the same arrays as
    ``numpy.nonzero(A != 0)[1]`` and ``A[A != 0]``, at a third of their cost."""
    m, n = A.shape
    nz = A != 0.0
    counts = np.count_nonzero(nz, axis=1)
    start = np.zeros(max(m, 1), dtype=np.int32)
    np.cumsum(counts[:-1], out=start[1:m])
    if int(counts.sum()) == m * n:
        return start, np.tile(np.arange(n, dtype=np.int32), m), A.reshape(-1)
    flat = np.flatnonzero(nz)
    return start, (flat % n).astype(np.int32), A.reshape(-1)[flat]


def _run(h) -> tuple[int, np.ndarray | None]:
    if h.run() == _highs.HighsStatus.kError:
        return _status(h.getModelStatus()), None
    status = _status(h.getModelStatus())
    x = np.array(h.getSolution().col_value) if status == OPTIMAL else None
    return status, x


def _stack(A_ub, b_ub, A_eq, b_eq):
    A = np.vstack([A_ub, A_eq])
    lhs = np.concatenate([np.full(len(b_ub), -np.inf), b_eq])
    rhs = np.concatenate([b_ub, b_eq])
    return A, lhs, rhs


def solve(cost, A_ub, b_ub, A_eq, b_eq, lower, upper, *,
          confirm_infeasible: bool = False,
          work_limited: bool = False) -> tuple[int, np.ndarray | None]:
    """Minimise ``cost @ x`` subject to ``A_ub x <= b_ub``, ``A_eq x = b_eq`` and
    ``lower <= x <= upper`` (dense arrays; infinite bounds allowed).

    Returns ``linprog``'s status code and ``x`` (None unless optimal). With
    ``confirm_infeasible``, a program that HiGHS's presolve finds infeasible is solved
    again without presolve, whose answer is returned when it is optimal
    (``confirmed_solve``). With ``work_limited``, a presolved dual simplex that does
    more work than its iteration budget allows ends with status ``OTHER`` (*unknown*,
    ``WorkLimit``): for a caller that takes an unknown status as a refusal. Inside
    ``_program_memo.remembered_programs`` a program solved before is not solved again:
    its answer is returned (the same numbers).
    """
    return solved_once((cost, A_ub, b_ub, A_eq, b_eq, lower, upper),
                       (bool(confirm_infeasible), _highs is None, bool(work_limited)),
                       lambda: _cold_solve(cost, A_ub, b_ub, A_eq, b_eq, lower, upper,
                                           confirm_infeasible, work_limited))


def _cold_solve(cost, A_ub, b_ub, A_eq, b_eq, lower, upper, confirm_infeasible,
                work_limited=False):
    """``solve`` without the record of ``remembered_programs``."""
    if _highs is None:
        res = linprog(cost, A_ub=A_ub, b_ub=b_ub, A_eq=A_eq, b_eq=b_eq,
                      bounds=list(zip(_none(lower), _none(upper), strict=True)),
                      method="highs")
        return res.status, (res.x if res.status == OPTIMAL else None)
    model = (cost, *_stack(A_ub, b_ub, A_eq, b_eq), lower, upper)
    if _interior.applies(*model[1].shape):
        answer = interior_solve(model)
        if answer is not None:
            status, x = answer
            if confirm_infeasible and status == INFEASIBLE:
                return confirmed_solve(model, status, x)
            return answer
    h = _new_highs()
    h.setOptionValue("simplex_iteration_limit", cold_iteration_limit(model[1].shape[1]))
    limit = WorkLimit(h, cold_iteration_limit(model[1].shape[1])) if work_limited else None
    _pass_model(h, *model)
    status, x = _run(h)
    if limit is not None and limit.reached:
        return OTHER, None
    if status == LIMIT and (h.getModelStatus()
                            == _highs.HighsModelStatus.kIterationLimit):
        return _unpresolved_solve(model)
    if confirm_infeasible and status == INFEASIBLE:
        return confirmed_solve(model, status, x)
    return status, x


class WorkLimit:
    """Ends a HiGHS simplex solve of ``h`` whose work beyond its iterations exceeds
    ``budget`` (status *interrupted*; ``reached`` is then True).

    HiGHS asks for an interrupt (``kCallbackSimplexInterrupt``) about once per simplex
    iteration, and many times inside an iteration it cannot settle numerically: the
    presolved max-margin rounds of the exact integer ``cycle(120)`` with a chord
    (``zero_weakest_edges``, draw 2; 3524 and 5720 rows, 46 columns) asked 323 times in
    their first 271 iterations and 1487 to 7333 times in each of their last 11, each
    such iteration 0.6 to 1.1 CPU s, and ended with status *unknown* after 283 and 304
    iterations (8.8 and 15.3 CPU s). The asks beyond one per iteration are counted
    against ``budget`` (the solve's iteration limit, ``cold_iteration_limit``): the
    count is HiGHS's own, the same on every machine for the same program, unlike a
    time limit.
    """

    def __init__(self, h, budget: int):
        self.budget = budget
        self.asks = 0
        self.reached = False
        self._kind = int(_highs.cb.HighsCallbackType.kCallbackSimplexInterrupt)
        h.setCallback(self._ask, None)
        h.startCallback(_highs.cb.HighsCallbackType.kCallbackSimplexInterrupt)

    def _ask(self, kind, message, data_out, data_in, user_data) -> None:
        if int(kind) != self._kind:
            return
        self.asks += 1
        if self.asks - int(data_out.simplex_iteration_count) - 1 > self.budget:
            self.reached = True
            data_in.user_interrupt = True


def interior_solve(model) -> tuple[int, np.ndarray | None] | None:
    """``(status, x)`` of HiGHS's interior point method with crossover, presolved
    (``_interior_solve.interior_options``), on ``model`` (the arguments of
    ``_pass_model`` after ``h``) when it ends optimal (``x`` at the crossover's vertex)
    or infeasible; None when it ends otherwise (an iteration limit, status *unknown*),
    and the caller's dual simplex decides. An infeasible verdict is confirmed by the
    caller as a presolved simplex's is (``confirmed_solve``, when asked).
    """
    h = _new_highs()
    for option, value in _interior.interior_options().items():
        h.setOptionValue(option, value)
    _pass_model(h, *model)
    status, x = _run(h)
    if status in (OPTIMAL, INFEASIBLE):
        return status, x
    return None


def cold_iteration_limit(n_columns: int) -> int:
    """The dual simplex iterations a presolved cold solve (``_cold_solve``) of a program
    of ``n_columns`` columns may take before it is solved again without presolve."""
    return int(COLD_ITERATIONS_PER_COLUMN * n_columns) + COLD_EXTRA_ITERATIONS


def _unpresolved_solve(model) -> tuple[int, np.ndarray | None]:
    """``(status, x)`` of the dual simplex without presolve on ``model`` (the arguments
    of ``_pass_model`` after ``h``), without an iteration limit.

    It answers a program whose presolved solve reached ``cold_iteration_limit``: the
    max-margin rounds of the exact eigenvectors of RGG(1000, 0.055, seed 31) bound the
    pair rows by 0 to 1.6e-5 with entries up to 500 (as in ``confirmed_solve``); the
    presolved dual simplex on a round of 5999 rows and 179 columns had no answer after
    2440 iterations (90 CPU s; 2348 iterations, the limit, take 13 s), where the dual
    simplex without presolve ends at the optimum in 1367 iterations (6.9 s; the
    interior point method agrees).
    """
    h = _new_highs(presolve=False)
    _pass_model(h, *model)
    return _run(h)


def confirmed_solve(model, status, x) -> tuple[int, np.ndarray | None]:
    """``(status, x)`` of a presolved solve that found ``model`` infeasible, or the
    answer of the dual simplex on ``model`` without presolve when that one is optimal.

    The max-margin programs of exact eigenvectors bound the off-diagonal entries by
    about 1e-8 (a few rounding levels) on pair rows of norm up to 100: their bounds
    sit far below HiGHS's feasibility tolerance (1e-7 on the rows), and its presolve
    can declare such a program infeasible although a point within 1e-10 of every
    row exists (RGG(200, 0.12, seed 9), exact: a round of 1207 rows and 21 columns,
    infeasible with presolve, optimal without it, optimal with presolve when the bounds
    are 10 times larger). Whether it does depends on the last bits of the rows, i.e. on
    the BLAS kernels that made them; the dual simplex without presolve decides from the
    rows themselves. It is bounded by ``confirm_iteration_limit`` iterations: past them
    the presolved verdict stands (an infeasible round of RGG(200, 0.12, seed 4), exact,
    2195 rows and 32 columns, ended after 102 iterations and 6 to 8 CPU s with status
    *unknown*: 77 iterations of the scaled program, then a clean-up of its unscaled
    infeasibilities). ``model``: the arguments of ``_pass_model`` after ``h``.
    """
    h = _new_highs(presolve=False)
    h.setOptionValue("simplex_iteration_limit", confirm_iteration_limit(model[1].shape[1]))
    _pass_model(h, *model)
    again = _run(h)
    return again if again[0] == OPTIMAL else (status, x)


def confirm_iteration_limit(n_columns: int) -> int:
    """The dual simplex iterations a confirmation without presolve may take on a program
    of ``n_columns`` columns (``confirmed_solve``)."""
    return int(CONFIRM_ITERATIONS_PER_COLUMN * n_columns) + CONFIRM_EXTRA_ITERATIONS


def bound_exceeded(cost, A_ub, b_ub, A_eq, b_eq, lower, upper, bound: float) -> bool:
    """Whether the dual simplex without presolve proves that the minimum of ``cost @ x``
    subject to ``A_ub x <= b_ub``, ``A_eq x = b_eq`` and ``lower <= x <= upper`` is above
    ``bound``, within ``confirm_iteration_limit`` iterations; False when it does not (the
    minimum may still be above ``bound``; an infeasible verdict is not taken, as the
    presolved solve and its confirmation may decide otherwise: ``confirmed_solve``) and
    without the HiGHS bindings.

    The dual simplex raises a lower bound on the minimum at each iteration; HiGHS's
    ``objective_bound`` ends the solve (status *objective bound*) once that bound, checked
    against the exact dual objective of a dual feasible point, is above ``bound`` (a
    solve that ends at an optimum first proves it by its value). A presolved solve does
    not stop so: on the band programs of the exact 3 x 4 x 5 torus (``valid_in_span``,
    1060 rows, 59 columns) it ran on after the postsolve for 0.6 to 5.8 CPU s, ending
    with status *unknown*, where this one proves the bound in 80 to 89 iterations
    (0.03 s).
    """
    if _highs is None:
        return False
    h = _new_highs(presolve=False)
    h.setOptionValue("objective_bound", float(bound))
    h.setOptionValue("simplex_iteration_limit", confirm_iteration_limit(A_ub.shape[1]))
    _pass_model(h, cost, *_stack(A_ub, b_ub, A_eq, b_eq), lower, upper)
    if h.run() == _highs.HighsStatus.kError:
        return False
    status = h.getModelStatus()
    return status == _highs.HighsModelStatus.kObjectiveBound or (
        status == _highs.HighsModelStatus.kOptimal
        and h.getInfo().objective_function_value > bound)


def _none(values):
    return [None if not np.isfinite(v) else float(v) for v in values]


class WarmProgram:
    """Rows ``A_ub x <= b_ub``, ``A_eq x = b_eq`` and bounds kept in one HiGHS model.

    ``solve(cost)`` minimises a new objective from the last optimal basis; ``add_rows``
    appends inequality rows (the next solve starts from the last basis too). Without
    ``presolve`` the first solve is not presolved either (the later ones never are). Without
    the HiGHS bindings every solve is a cold ``solve``.

    A solve from an optimal basis of the same rows (only the objective changed) runs
    the primal simplex: that basis is primal feasible, so the primal simplex starts its
    second phase there, while the dual simplex must first regain dual feasibility (on
    the objective programs of noisy families, 26 instead of 94 iterations a solve). Any
    other solve (the first, or after rows were added, where the last basis is dual
    feasible but not primal) runs the dual simplex, as ``linprog``. A program with one
    optimal vertex (``unique_optimum``) ends there either way.
    """

    def __init__(self, A_ub, b_ub, A_eq, b_eq, lower, upper, presolve=True):
        self.n = A_ub.shape[1]
        self.lower, self.upper = np.asarray(lower, float), np.asarray(upper, float)
        self._rows = [np.asarray(A_ub, float)], [np.asarray(b_ub, float)]
        self._eq = np.asarray(A_eq, float), np.asarray(b_eq, float)
        # rows of the model in order: A_ub, A_eq, then the added rows (inequalities)
        self._inequality = [np.ones(len(b_ub), bool), np.zeros(len(b_eq), bool)]
        self._h = None
        self._optimal = False      # the last solve ended optimal and no row came since
        if _highs is not None:
            self._h = _new_highs(presolve)
            _pass_model(self._h, np.zeros(self.n), *_stack(A_ub, b_ub, A_eq, b_eq),
                        self.lower, self.upper)

    def add_rows(self, A, b):
        """Append the rows ``A x <= b``."""
        A, b = np.atleast_2d(np.asarray(A, float)), np.asarray(b, float)
        if not len(b):
            return
        self._optimal = False
        self._rows[0].append(A)
        self._rows[1].append(b)
        self._inequality.append(np.ones(len(b), bool))
        if self._h is not None:
            starts, index, values = _nonzeros_by_row(np.ascontiguousarray(A))
            self._h.addRows(len(b), np.full(len(b), -_highs.kHighsInf), _bound(b, 1.0),
                            int(index.size), starts, index, values)

    def solve(self, cost) -> tuple[int, np.ndarray | None]:
        """Minimise ``cost @ x``: ``linprog``'s status code and ``x`` (None unless
        optimal)."""
        cost = self._cost = np.asarray(cost, dtype=np.float64)
        if self._h is None:
            return solve(cost, np.vstack(self._rows[0]), np.concatenate(self._rows[1]),
                         *self._eq, self.lower, self.upper)
        self._h.changeColsCost(self.n, np.arange(self.n, dtype=np.int32), cost)
        self._h.setOptionValue("simplex_strategy",
                               PRIMAL_SIMPLEX if self._optimal else DUAL_SIMPLEX)
        status, x = _run(self._h)
        self._optimal = status == OPTIMAL
        return status, x

    def unique_optimum(self, rtol=UNIQUE_RTOL) -> bool:
        """Whether the last solve's optimal vertex is the program's only optimum.

        Sufficient conditions: every nonbasic column that is not fixed and every nonbasic
        inequality row has a reduced cost (dual value) above ``rtol`` times the largest
        one, so that moving any of them off its bound makes the objective worse; or, when
        that fails (a degenerate vertex: a row at its bound is basic, and a nonbasic one
        with no reduced cost cannot move without violating it), no direction keeps the
        objective and every active constraint (``_pointed``). Without the HiGHS bindings
        (cold solves) always True.
        """
        if self._h is None:
            return True
        solution = self._h.getSolution()
        col_basic, row_basic = self._basic()
        col_dual, row_dual = np.asarray(solution.col_dual), np.asarray(solution.row_dual)
        inequality = np.concatenate(self._inequality)
        free = self.lower < self.upper
        d = np.concatenate([col_dual[~col_basic & free], row_dual[~row_basic & inequality]])
        scale = max(float(np.abs(col_dual).max(initial=0.0)),
                    float(np.abs(row_dual).max(initial=0.0)), 1e-300)
        if np.all(np.abs(d) > rtol * scale):
            return True
        return self._pointed(np.asarray(solution.col_value))

    def _basic(self) -> tuple[np.ndarray, np.ndarray]:
        """Masks of the basic columns and rows of the last solve's basis.

        Read off ``getBasicVariables`` (one index per row: column ``k`` as ``k``, row
        ``r`` as ``-1 - r``), an integer array, instead of the basis's status lists,
        which the bindings convert entry by entry (0.3 ms per 1 500 rows; the masks are
        the same: a variable is basic exactly when the basis lists it). When HiGHS
        gives no such array, from the status lists."""
        n_rows = self._h.getNumRow()
        status, index = self._h.getBasicVariables()
        if status == _highs.HighsStatus.kOk and len(index) == n_rows:
            index = np.asarray(index, dtype=np.int64)
            col_basic, row_basic = np.zeros(self.n, bool), np.zeros(n_rows, bool)
            col_basic[index[index >= 0]] = True
            row_basic[-1 - index[index < 0]] = True
            return col_basic, row_basic
        basis, basic = self._h.getBasis(), int(_highs.HighsBasisStatus.kBasic)
        return (np.fromiter(map(int, basis.col_status), int, self.n) == basic,
                np.fromiter(map(int, basis.row_status), int) == basic)

    def _pointed(self, x) -> bool:
        """Whether the cone of directions $\\delta$ from the optimum ``x`` that keep every
        active constraint and do not raise the objective, $\\{\\delta : A_i \\delta \\le
        0$ (active rows and bounds), $A_{eq} \\delta = 0$, $c^T \\delta \\le 0\\}$, is
        $\\{0\\}$: then ``x`` is the only optimum.

        By Stiemke's lemma it is, if the stacked rows have full column rank and some
        $w > 0$ (here $w \\ge 1$), $z$ free give $P^T w + A_{eq}^T z = 0$, where $P$ holds
        the active rows and $c$: any $\\delta$ of the cone then has $P \\delta = 0$,
        $A_{eq} \\delta = 0$, so $\\delta = 0$. Fixed columns do not move and are left
        out. The feasibility of $w$ is a small linear program (rows: the free columns).
        """
        free = self.lower < self.upper
        A, b = np.vstack(self._rows[0]), np.concatenate(self._rows[1])
        scale = np.abs(b) + np.abs(A) @ np.abs(x)
        active = b - A @ x <= ACTIVE_RTOL * np.maximum(scale, 1.0)
        eye = np.eye(self.n)
        up, low = np.where(free, self.upper, np.inf), np.where(free, self.lower, -np.inf)
        near = ACTIVE_RTOL * np.maximum(np.abs(x), 1.0)
        at_upper, at_lower = x >= up - near, x <= low + near
        P = np.vstack([A[active], eye[at_upper], -eye[at_lower], self._cost[None, :]])[:, free]
        E = self._eq[0][:, free]
        P = P[np.abs(P).max(axis=1) > 0.0]
        P = P / np.linalg.norm(P, axis=1)[:, None]
        E = E / np.maximum(np.linalg.norm(E, axis=1), 1e-300)[:, None]
        k = int(free.sum())
        if np.linalg.matrix_rank(np.vstack([P, E])) < k:
            return False
        m, q = len(P), len(E)
        status, _ = solve(np.zeros(m + q), np.zeros((0, m + q)), np.zeros(0),
                          np.hstack([P.T, E.T]), np.zeros(k),
                          np.concatenate([np.ones(m), np.full(q, -np.inf)]),
                          np.full(m + q, np.inf))
        return status == OPTIMAL


class RowGeneratedProgram:
    """Many inequality rows ``A_ub x <= b_ub`` over few columns, with ``A_eq x = b_eq``
    and bounds, whose programs (one objective each, ``solve``) are solved over a working
    set of the rows (row generation).

    A program's optimal vertex is fixed by about as many active constraints as there are
    columns, while a dense program of every row pays for all of them at each simplex
    iteration: the noisy scans of extreme eigenvalues (``_eigenvalue_extremes``, 1770
    pair rows and 59 columns on the perturbed ``ladder_graph(30)``) took 259 to 954
    primal simplex iterations a program, warm-started from the last optimum, about
    0.18 CPU s each. Here each program starts from the rows active at the last
    program's vertex (``ACTIVE_RTOL``) and the ``n`` rows of largest value at the
    ``start`` point (one row per column), solved without presolve on a fresh HiGHS model
    (``WarmProgram``); the rows the answer violates are added, at most ``n`` at a time,
    the most violated first, and the program is solved again from its last basis (the
    dual simplex), until no row is violated. An optimum of fewer rows that every row
    holds is an optimum of all of them: a program with one optimal vertex (a generic
    objective) reaches the vertex that the program of every row reaches. A program
    whose working set ends other than optimal (a solve of the working set stops after
    ``cold_iteration_limit`` iterations) is solved cold on every row (``solve``).
    Without the HiGHS bindings every solve is a cold ``solve``.

    Parameters
    ----------
    A_ub, b_ub, A_eq, b_eq, lower, upper : numpy.ndarray
        The program, as for ``WarmProgram``.
    start : numpy.ndarray
        A point of the columns (the equalities' centre) at which the rows of largest
        value start the working set of the first program.
    kept : numpy.ndarray, optional
        Indices of rows that every working set holds: rows that bound the program's
        columns, without which a working set's program may be unbounded (the
        non-negative weights of ``_weighted_cycle.least_missing_member``).
    """

    def __init__(self, A_ub, b_ub, A_eq, b_eq, lower, upper, start, kept=None):
        self.A, self.b = np.asarray(A_ub, float), np.asarray(b_ub, float)
        self.eq = np.asarray(A_eq, float), np.asarray(b_eq, float)
        self.lower, self.upper = np.asarray(lower, float), np.asarray(upper, float)
        self.n = self.A.shape[1]
        order = np.argsort(-(self.A @ np.asarray(start, float) - self.b), kind="stable")
        self._first = order[: self.n]
        self._active = np.zeros(0, dtype=np.intp)
        self._kept = np.zeros(0, dtype=np.intp) if kept is None else np.asarray(kept, np.intp)

    def solve(self, cost) -> tuple[int, np.ndarray | None]:
        """Minimise ``cost @ x`` over every row: ``linprog``'s status code and ``x``
        (None unless optimal)."""
        cost = np.asarray(cost, dtype=np.float64)
        full = (cost, self.A, self.b, *self.eq, self.lower, self.upper)
        if _highs is None:
            return solve(*full)
        inside = np.zeros(self.b.size, dtype=bool)
        inside[self._first] = True
        inside[self._active] = True
        inside[self._kept] = True
        rows = np.flatnonzero(inside)
        program = WarmProgram(self.A[rows], self.b[rows], *self.eq, self.lower, self.upper,
                              presolve=False)
        # a solve that stalls (one program of the perturbed ladder_graph(30) took 1.1
        # million iterations on a working set of 432 rows) ends at the cold solves' limit
        program._h.setOptionValue("simplex_iteration_limit", cold_iteration_limit(self.n))
        status, x = program.solve(cost)
        while status == OPTIMAL:
            excess = self.A @ x - self.b
            violated = np.flatnonzero((excess > 0.0) & ~inside)
            if not violated.size:
                # the rows active at the vertex, as ``WarmProgram._pointed`` reads them
                scale = np.abs(self.b) + np.abs(self.A) @ np.abs(x)
                self._active = np.flatnonzero(excess >= -ACTIVE_RTOL * np.maximum(scale, 1.0))
                return status, x
            violated = violated[np.argsort(-excess[violated], kind="stable")][: self.n]
            inside[violated] = True
            program.add_rows(self.A[violated], self.b[violated])
            status, x = program.solve(cost)
        return solve(*full)
