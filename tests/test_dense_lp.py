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
