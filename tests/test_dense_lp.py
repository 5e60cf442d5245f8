"""Dense linear programs for HiGHS (``graphs._dense_lp``): the same answers as ``linprog``."""

import numpy as np
import pytest
from scipy.optimize import linprog

from gsp_householder.graphs import _dense_lp


def _program(rng, m=60, d=6):
    """A max-margin-like program: rows ``A y - t <= b`` around a feasible point, one
    equality row, ``y`` free and ``t`` bounded above."""
    A = rng.standard_normal((m, d + 1))
    A[:, -1] = 1.0
    x0 = np.append(rng.standard_normal(d), 0.0)
    b = A @ x0 + rng.uniform(0.1, 1.0, m)
    A_eq = np.append(rng.standard_normal(d), 0.0)[None, :]
    b_eq = A_eq @ x0
    lower = np.append(np.full(d, -np.inf), -np.inf)
    upper = np.append(np.full(d, np.inf), 5.0)
    return A, b, A_eq, b_eq, lower, upper


def _linprog(cost, A, b, A_eq, b_eq, lower, upper):
    bounds = [(None if not np.isfinite(lo) else lo, None if not np.isfinite(up) else up)
              for lo, up in zip(lower, upper, strict=True)]
    res = linprog(cost, A_ub=A, b_ub=b, A_eq=A_eq, b_eq=b_eq, bounds=bounds, method="highs")
    return res.status, res.x


@pytest.mark.parametrize("seed", range(5))
def test_solve_is_linprog(seed):
    rng = np.random.default_rng(seed)
    A, b, A_eq, b_eq, lower, upper = _program(rng)
    for cost in (np.append(np.zeros(A.shape[1] - 1), -1.0), rng.standard_normal(A.shape[1])):
        status, x = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper)
        ref_status, ref_x = _linprog(cost, A, b, A_eq, b_eq, lower, upper)
        assert status == ref_status
        if status == 0:
            np.testing.assert_array_equal(x, ref_x)      # the same model: the same vertex
        else:
            assert x is None


@pytest.mark.parametrize("shape", [(0, 3), (3, 0), (1, 1), (7, 5), (300, 21)])
@pytest.mark.parametrize("zeros", [0.0, 0.3])
def test_rows_are_packed_as_their_nonzero_entries(shape, zeros):
    # the packed rows HiGHS reads: those of the mask ``A != 0`` (dense rows too, which
    # are packed as stored), the same arrays and dtypes
    rng = np.random.default_rng(shape[0] + 10 * shape[1])
    A = rng.standard_normal(shape)
    A[rng.random(shape) < zeros] = 0.0
    nz = A != 0.0
    start = np.concatenate([[0], np.cumsum(nz.sum(axis=1))[:-1]]).astype(np.int32)
    want = (start, np.nonzero(nz)[1].astype(np.int32), A[nz])
    for got, ref in zip(_dense_lp._nonzeros_by_row(A), want, strict=True):
        assert got.dtype == ref.dtype
        np.testing.assert_array_equal(got, ref)


def test_solve_reports_infeasible_and_unbounded_programs():
    A = np.array([[1.0, 0.0], [-1.0, 0.0]])
    lower, upper = np.full(2, -np.inf), np.full(2, np.inf)
    A_eq, b_eq = np.zeros((0, 2)), np.zeros(0)
    infeasible = _dense_lp.solve(np.array([1.0, 0.0]), A, np.array([-1.0, -1.0]), A_eq, b_eq,
                                 lower, upper)
    unbounded = _dense_lp.solve(np.array([0.0, 1.0]), A, np.array([1.0, 1.0]), A_eq, b_eq,
                                lower, upper)
    assert infeasible == (_dense_lp.INFEASIBLE, None)
    assert unbounded[0] == _dense_lp.UNBOUNDED and unbounded[1] is None


@pytest.mark.parametrize("bindings", [True, False])
def test_warm_program_agrees_with_cold_solves(monkeypatch, bindings):
    if not bindings:
        monkeypatch.setattr(_dense_lp, "_highs", None)      # linprog fallback
    assert _dense_lp.available() == bindings
    rng = np.random.default_rng(3)
    A, b, A_eq, b_eq, lower, upper = _program(rng, m=80)
    first = 40
    program = _dense_lp.WarmProgram(A[:first], b[:first], A_eq, b_eq, lower, upper)
    for k in range(6):
        if k == 3:                                           # rows added between solves
            program.add_rows(A[first:], b[first:])
        rows = slice(None) if k >= 3 else slice(first)
        cost = rng.standard_normal(A.shape[1])               # generic: one optimal vertex
        status, x = program.solve(cost)
        ref_status, ref_x = _linprog(cost, A[rows], b[rows], A_eq, b_eq, lower, upper)
        assert status == ref_status
        if status == 0:
            np.testing.assert_allclose(x, ref_x, atol=1e-7 * max(1.0, np.abs(ref_x).max()))


def test_unique_optimum_tells_a_vertex_from_a_face():
    # min -x0 over the square [0, 1]^2 (rows x <= 1, -x <= 0): the edge x0 = 1 is optimal
    # (not unique); min -x0 - 0.1 x1 has the one optimal vertex (1, 1)
    A = np.vstack([np.eye(2), -np.eye(2)])
    b = np.array([1.0, 1.0, 0.0, 0.0])
    program = _dense_lp.WarmProgram(A, b, np.zeros((0, 2)), np.zeros(0), np.full(2, -np.inf),
                                    np.full(2, np.inf))
    status, x = program.solve(np.array([-1.0, 0.0]))
    assert status == 0 and x[0] == pytest.approx(1.0) and not program.unique_optimum()
    status, x = program.solve(np.array([-1.0, -0.1]))
    assert status == 0 and np.allclose(x, 1.0) and program.unique_optimum()


def test_unique_optimum_at_a_degenerate_vertex():
    # min -x0 - x1 over the square with the row x0 + x1 <= 2 through the corner (1, 1):
    # three rows bind at the one optimal vertex (a basis may leave a nonbasic one there
    # with no reduced cost). rtol=inf: the reduced costs never decide, the cone does
    A = np.vstack([np.eye(2), -np.eye(2), [[1.0, 1.0]]])
    b = np.array([1.0, 1.0, 0.0, 0.0, 2.0])
    program = _dense_lp.WarmProgram(A, b, np.zeros((0, 2)), np.zeros(0), np.full(2, -np.inf),
                                    np.full(2, np.inf))
    for cost, unique in (([-1.0, -1.0], True), ([-1.0, -0.5], True), ([-1.0, 0.0], False),
                         ([0.0, -1.0], False), ([-1.0, 1.0], True)):
        status, x = program.solve(np.array(cost))
        assert status == 0 and program.unique_optimum(rtol=np.inf) == unique
        assert program.unique_optimum() == unique
    # a fixed column does not move: the face along it is a vertex
    program = _dense_lp.WarmProgram(A, b, np.zeros((0, 2)), np.zeros(0),
                                    np.array([-np.inf, 0.5]), np.array([np.inf, 0.5]))
    status, x = program.solve(np.array([-1.0, 0.0]))
    assert status == 0 and np.allclose(x, [1.0, 0.5]) and program.unique_optimum(rtol=np.inf)
    # a column at a finite bound is an active constraint: min x0 + x1, x >= 0 (bounds)
    program = _dense_lp.WarmProgram(A[:2], b[:2], np.zeros((0, 2)), np.zeros(0),
                                    np.zeros(2), np.full(2, np.inf))
    for cost, unique in (([1.0, 1.0], True), ([1.0, 0.0], False)):
        status, x = program.solve(np.array(cost))
        assert status == 0 and program.unique_optimum(rtol=np.inf) == unique


def test_unique_optimum_agrees_with_cold_solves_of_degenerate_programs():
    # vertices where many rows bind (the rows repeated with scaled copies, as pair rows
    # of twin nodes are): a vertex certified unique is the cold solve's vertex
    rng = np.random.default_rng(5)
    A, b, A_eq, b_eq, lower, upper = _program(rng, m=60)
    A = np.vstack([A, 2.0 * A[:20]])
    b = np.concatenate([b, 2.0 * b[:20]])
    program = _dense_lp.WarmProgram(A, b, A_eq, b_eq, lower, upper)
    certified = 0
    for _ in range(10):
        cost = rng.standard_normal(A.shape[1])
        status, x = program.solve(cost)
        if status == 0 and program.unique_optimum(rtol=np.inf):      # by the cone alone
            certified += 1
            _, ref = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper)
            np.testing.assert_allclose(x, ref, atol=1e-9 * max(1.0, np.abs(ref).max()))
    assert certified > 0


def test_presolved_infeasibility_is_confirmed_without_presolve(monkeypatch):
    """A program that presolve declares infeasible is solved again without presolve,
    whose optimum is returned; a real infeasibility stays infeasible."""
    rng = np.random.default_rng(3)
    A, b, A_eq, b_eq, lower, upper = _program(rng)
    cost = np.append(np.zeros(A.shape[1] - 1), -1.0)
    reference = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper)
    assert reference[0] == _dense_lp.OPTIMAL
    run, calls = _dense_lp._run, []

    def presolve_says_infeasible(h):
        presolved = h.getOptions().presolve == "on"
        calls.append(presolved)
        return (_dense_lp.INFEASIBLE, None) if presolved else run(h)

    monkeypatch.setattr(_dense_lp, "_run", presolve_says_infeasible)
    assert _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper)[0] == _dense_lp.INFEASIBLE
    assert calls == [True]
    status, x = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper, confirm_infeasible=True)
    assert calls == [True, True, False]
    assert status == _dense_lp.OPTIMAL
    np.testing.assert_allclose(x[-1], reference[1][-1], rtol=1e-9)
    # infeasible either way: the presolved answer stands
    b_bad = b.copy()
    b_bad[:] = -1.0
    A_box = np.vstack([A, -A])
    infeasible = _dense_lp.solve(cost, A_box, np.concatenate([b_bad, b_bad]), A_eq, b_eq,
                                 lower, upper, confirm_infeasible=True)
    assert infeasible == (_dense_lp.INFEASIBLE, None)


def _infeasible_cone_program(rng, m=400, d=12):
    """Rows ``H y <= 1e-9`` whose only solution is near ``y = 0`` (random directions
    all around) and an equality row that excludes it: infeasible, with ``y`` free and a
    margin column ``t`` as in the max-margin programs."""
    H = rng.standard_normal((m, d))
    A = np.hstack([H, np.zeros((m, 1))])
    b = np.full(m, 1e-9)
    A_eq = np.append(rng.standard_normal(d), 0.0)[None, :]
    b_eq = np.array([float(d)])
    lower = np.full(d + 1, -np.inf)
    upper = np.append(np.full(d, np.inf), 5.0)
    return np.append(np.zeros(d), -1.0), A, b, A_eq, b_eq, lower, upper


def test_confirmation_without_presolve_is_bounded(monkeypatch):
    """The solve without presolve that confirms a presolved infeasibility stops after
    ``confirm_iteration_limit`` dual simplex iterations, and the presolved verdict then
    stands (an infeasible round of exact eigenvectors took HiGHS 6 to 8 CPU s, most of it
    past that limit). An optimum within the limit is returned as before
    (``test_presolved_infeasibility_is_confirmed_without_presolve``)."""
    if not _dense_lp.available():
        pytest.skip("the HiGHS bindings are not available")
    run, iterations = _dense_lp._run, []

    def counted(h):
        out = run(h)
        if h.getOptions().presolve == "off":
            iterations.append(h.getInfo().simplex_iteration_count)
        return out

    monkeypatch.setattr(_dense_lp, "_run", counted)
    cost, *program = _infeasible_cone_program(np.random.default_rng(0))
    d = program[0].shape[1]
    # unbounded by the limit, the dual simplex needs more than a few iterations here
    model = (cost, *_dense_lp._stack(*program[:4]), *program[4:])
    h = _dense_lp._new_highs(presolve=False)
    _dense_lp._pass_model(h, *model)
    assert run(h)[0] == _dense_lp.INFEASIBLE
    needed = h.getInfo().simplex_iteration_count
    assert needed > 4
    monkeypatch.setattr(_dense_lp, "CONFIRM_ITERATIONS_PER_COLUMN", 0)
    monkeypatch.setattr(_dense_lp, "CONFIRM_EXTRA_ITERATIONS", 3)
    assert _dense_lp.confirm_iteration_limit(d) == 3
    status, x = _dense_lp.confirmed_solve(model, _dense_lp.INFEASIBLE, None)
    assert (status, x) == (_dense_lp.INFEASIBLE, None)
    assert iterations == [3]
    # the default limit leaves room for this program's own iterations
    monkeypatch.undo()
    assert _dense_lp.confirm_iteration_limit(d) >= needed


def test_presolved_solve_past_its_iteration_limit_is_solved_without_presolve(monkeypatch):
    """A presolved cold solve stops after ``cold_iteration_limit`` dual simplex
    iterations (status *iteration limit*, not *infeasible*: no confirmation runs) and the
    program is solved again without presolve, whose answer is returned; when that one
    fails too, its status is returned (the exact eigenvectors of RGG(1000, 0.055, seed
    31) gave a presolved round that had no answer after 2440 iterations, 90 CPU s)."""
    if not _dense_lp.available():
        pytest.skip("the HiGHS bindings are not available")
    rng = np.random.default_rng(5)
    A, b, A_eq, b_eq, _, _ = _program(rng, m=300, d=12)
    lower, upper = np.full(A.shape[1], -5.0), np.full(A.shape[1], 5.0)   # bounded
    cost = rng.standard_normal(A.shape[1])                   # generic: one optimal vertex
    model = (cost, *_dense_lp._stack(A, b, A_eq, b_eq), lower, upper)
    run, runs = _dense_lp._run, []

    def recorded(h):
        out = run(h)
        runs.append((h.getOptions().presolve, out[0], h.getInfo().simplex_iteration_count))
        return out

    monkeypatch.setattr(_dense_lp, "_run", recorded)
    reference = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper)
    assert reference[0] == _dense_lp.OPTIMAL and len(runs) == 1
    needed = runs[0][2]
    assert needed > 3
    assert _dense_lp.cold_iteration_limit(model[1].shape[1]) >= needed     # default: room
    unpresolved = _dense_lp._unpresolved_solve(model)
    monkeypatch.setattr(_dense_lp, "COLD_ITERATIONS_PER_COLUMN", 0)
    monkeypatch.setattr(_dense_lp, "COLD_EXTRA_ITERATIONS", 3)
    assert _dense_lp.cold_iteration_limit(model[1].shape[1]) == 3
    runs.clear()
    status, x = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper, confirm_infeasible=True)
    assert len(runs) == 2 and runs[0] == ("on", _dense_lp.LIMIT, 3)
    assert runs[1][:2] == ("off", _dense_lp.OPTIMAL)
    assert status == _dense_lp.OPTIMAL
    np.testing.assert_array_equal(x, unpresolved[1])
    np.testing.assert_allclose(x, reference[1], atol=1e-7 * max(1.0, np.abs(x).max()))
    # the solve without presolve fails too: its status is the answer
    new_highs = _dense_lp._new_highs

    def capped(presolve=True):
        h = new_highs(presolve)
        if not presolve:
            h.setOptionValue("simplex_iteration_limit", 2)
        return h

    monkeypatch.setattr(_dense_lp, "_new_highs", capped)
    runs.clear()
    assert _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper,
                           confirm_infeasible=True) == (_dense_lp.LIMIT, None)
    assert runs == [("on", _dense_lp.LIMIT, 3), ("off", _dense_lp.LIMIT, 2)]


def test_objective_changes_are_solved_by_the_primal_simplex():
    """A re-solve from an optimal basis of the same rows runs the primal simplex (that
    basis is primal feasible); the first solve and a solve after added rows run the
    dual simplex, as ``linprog``; every vertex is the cold solve's."""
    if not _dense_lp.available():
        pytest.skip("the HiGHS bindings are not available")
    rng = np.random.default_rng(7)
    A, b, A_eq, b_eq, _, _ = _program(rng, m=120, d=12)
    lower, upper = np.full(A.shape[1], -5.0), np.full(A.shape[1], 5.0)   # bounded
    first = 80
    program = _dense_lp.WarmProgram(A[:first], b[:first], A_eq, b_eq, lower, upper)
    used = []
    for k in range(7):
        if k == 4:
            program.add_rows(A[first:], b[first:])
        rows = slice(None) if k >= 4 else slice(first)
        cost = rng.standard_normal(A.shape[1])               # generic: one optimal vertex
        status, x = program.solve(cost)
        used.append(program._h.getOptions().simplex_strategy)
        ref_status, ref_x = _linprog(cost, A[rows], b[rows], A_eq, b_eq, lower, upper)
        assert status == ref_status == 0
        np.testing.assert_allclose(x, ref_x, atol=1e-7 * max(1.0, np.abs(ref_x).max()))
    dual, primal = _dense_lp.DUAL_SIMPLEX, _dense_lp.PRIMAL_SIMPLEX
    assert used == [dual, primal, primal, primal, dual, primal, primal]


def _counted_runs(monkeypatch):
    """A list that grows by one at every HiGHS run of ``_dense_lp``."""
    runs, run = [], _dense_lp._run

    def counted(h):
        runs.append(1)
        return run(h)
    monkeypatch.setattr(_dense_lp, "_run", counted)
    return runs


@pytest.mark.skipif(not _dense_lp.available(), reason="HiGHS bindings not importable")
def test_programs_posed_again_are_solved_once(monkeypatch):
    from gsp_householder.graphs._program_memo import remembered_programs

    runs = _counted_runs(monkeypatch)
    rng = np.random.default_rng(3)
    A, b, A_eq, b_eq, lower, upper = _program(rng)
    cost = np.append(np.zeros(A.shape[1] - 1), -1.0)
    first = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper)
    assert first[0] == 0 and len(runs) == 1
    with remembered_programs():
        again = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper)
        assert len(runs) == 2                   # the first solve of the block runs HiGHS
        again[1][:] = np.nan                    # the caller's copy, not the record's
        with remembered_programs():             # a nested block shares the record
            kept = _dense_lp.solve(cost, A.copy(), b, A_eq, b_eq, lower, upper)
        assert len(runs) == 2
        np.testing.assert_array_equal(kept[1], first[1])   # the same numbers
        assert kept[0] == first[0]
        moved = b.copy()
        moved[0] = np.nextafter(moved[0], np.inf)          # another program
        _dense_lp.solve(cost, A, moved, A_eq, b_eq, lower, upper)
        _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper, confirm_infeasible=True)
        assert len(runs) == 4
    _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper)  # outside: solved again
    assert len(runs) == 5


@pytest.mark.skipif(not _dense_lp.available(), reason="HiGHS bindings not importable")
def test_infeasible_programs_are_remembered_too(monkeypatch):
    from gsp_householder.graphs._program_memo import remembered_programs

    runs = _counted_runs(monkeypatch)
    A = np.array([[1.0], [-1.0]])
    b = np.array([-1.0, -1.0])                   # x <= -1 and x >= 1
    empty = np.zeros((0, 1))
    bounds = np.array([-np.inf]), np.array([np.inf])
    with remembered_programs():
        for _ in range(2):
            status, x = _dense_lp.solve(np.ones(1), A, b, empty, np.zeros(0), *bounds)
            assert status == _dense_lp.INFEASIBLE and x is None
    assert len(runs) == 1


def test_inference_answers_do_not_depend_on_the_record(monkeypatch):
    """The answers of ``infer_laplacian`` are those of the same searches solving every
    program (karate unweighted, exact: a family of 8 directions, 40 cold programs)."""
    import contextlib

    import networkx as nx

    from gsp_householder import fourier_basis, infer_laplacian
    from gsp_householder.graphs import laplacian_inference

    B = fourier_basis(nx.Graph(nx.karate_club_graph().edges()))
    rng = np.random.default_rng(0)
    n = B.n
    V = B.eigenvectors[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)
    kept = infer_laplacian(V, rng=0)
    monkeypatch.setattr(laplacian_inference, "remembered_programs", contextlib.nullcontext)
    solved = infer_laplacian(V, rng=0)
    assert (kept.n_edges, kept.family_dimension, kept.n_candidates) == (
        solved.n_edges, solved.family_dimension, solved.n_candidates)
    assert (kept.laplacian != solved.laplacian).nnz == 0


@pytest.mark.parametrize("seed", range(5))
def test_work_limited_solves_of_ordinary_programs_are_plain_solves(seed):
    """HiGHS asks for an interrupt about once per iteration: an ordinary program stays
    far inside the work limit and gets the same answer, bit for bit."""
    rng = np.random.default_rng(seed)
    A, b, A_eq, b_eq, lower, upper = _program(rng, m=300, d=12)
    for cost in (np.append(np.zeros(A.shape[1] - 1), -1.0), rng.standard_normal(A.shape[1])):
        plain = _dense_lp._cold_solve(cost, A, b, A_eq, b_eq, lower, upper, True)
        limited = _dense_lp._cold_solve(cost, A, b, A_eq, b_eq, lower, upper, True, True)
        assert limited[0] == plain[0]
        if plain[0] == _dense_lp.OPTIMAL:
            np.testing.assert_array_equal(limited[1], plain[1])


def test_work_limit_counts_the_asks_beyond_one_per_iteration():
    if not _dense_lp.available():
        pytest.skip("the HiGHS bindings are not available")

    class Out:
        simplex_iteration_count = 0

    class In:
        user_interrupt = False

    limit = _dense_lp.WorkLimit(_dense_lp._new_highs(), 2)
    kind = _dense_lp._highs.cb.HighsCallbackType.kCallbackSimplexInterrupt
    out, answer = Out(), In()
    for iteration in range(50):                 # one ask per iteration: never stopped
        out.simplex_iteration_count = iteration
        limit._ask(kind, "", out, answer, None)
    assert not limit.reached and not answer.user_interrupt
    limit._ask(kind, "", out, answer, None)     # two asks beyond: within the budget
    limit._ask(kind, "", out, answer, None)
    assert not limit.reached and not answer.user_interrupt
    limit._ask(kind, "", out, answer, None)     # the third is beyond it
    assert limit.reached and answer.user_interrupt


def test_a_solve_past_its_work_limit_ends_as_unknown():
    if not _dense_lp.available():
        pytest.skip("the HiGHS bindings are not available")
    rng = np.random.default_rng(3)
    A, b, A_eq, b_eq, lower, upper = _program(rng, m=300, d=12)
    model = (rng.standard_normal(A.shape[1]), *_dense_lp._stack(A, b, A_eq, b_eq), lower,
             np.maximum(upper, 5.0))
    h = _dense_lp._new_highs(presolve=False)
    limit = _dense_lp.WorkLimit(h, -1)          # the first ask is beyond the budget
    _dense_lp._pass_model(h, *model)
    status, x = _dense_lp._run(h)
    assert limit.reached and status == _dense_lp.OTHER and x is None
    assert h.getModelStatus() == _dense_lp._highs.HighsModelStatus.kInterrupt
