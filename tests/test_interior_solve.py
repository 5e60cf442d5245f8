"""Cold programs of many rows solved by the interior point method first
(``graphs._interior_solve``): the dual simplex's vertex, verdicts confirmed as before."""

import numpy as np
import pytest
from test_dense_lp import _program

from gsp_householder.graphs import _dense_lp, _interior_solve

pytestmark = pytest.mark.skipif(
    not _dense_lp.available(), reason="the HiGHS bindings are not available"
)


def _bounded(seed, m=300, d=12):
    rng = np.random.default_rng(seed)
    A, b, A_eq, b_eq, _, _ = _program(rng, m=m, d=d)
    lower, upper = np.full(A.shape[1], -5.0), np.full(A.shape[1], 5.0)
    return rng, A, b, A_eq, b_eq, lower, upper


def _recorded(monkeypatch):
    run, runs = _dense_lp._run, []

    def recorded(h):
        out = run(h)
        runs.append((h.getOptions().solver, h.getOptions().presolve, out[0]))
        return out

    monkeypatch.setattr(_dense_lp, "_run", recorded)
    return runs


@pytest.mark.parametrize("seed", range(6))
def test_interior_point_vertex_is_the_dual_simplex_vertex(seed):
    """Max-margin programs of ``valid_in_span``'s shape (free coordinates, the margin
    bounded above, one optimal vertex): the crossover's basis is the dual simplex's, and
    the vertex the same bits."""
    A, b, A_eq, b_eq, lower, upper = _program(np.random.default_rng(seed), m=300, d=12)
    cost = np.append(np.zeros(A.shape[1] - 1), -1.0)
    model = (cost, *_dense_lp._stack(A, b, A_eq, b_eq), lower, upper)
    simplex = _dense_lp._cold_solve(cost, A, b, A_eq, b_eq, lower, upper, False)
    interior = _dense_lp.interior_solve(model)
    assert simplex[0] == _dense_lp.OPTIMAL and interior[0] == _dense_lp.OPTIMAL
    np.testing.assert_array_equal(interior[1], simplex[1])


def test_cold_solves_of_many_rows_start_with_the_interior_point_method(monkeypatch):
    """At ``MIN_ROWS`` rows and more a cold solve runs the interior point method; its
    optimum is the answer (no simplex run); below, the dual simplex alone, as before."""
    A, b, A_eq, b_eq, lower, upper = _program(np.random.default_rng(11), m=300, d=12)
    cost = np.append(np.zeros(A.shape[1] - 1), -1.0)
    runs = _recorded(monkeypatch)
    before = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper, confirm_infeasible=True)
    assert [r[0] for r in runs] == ["choose"]
    runs.clear()
    monkeypatch.setattr(_interior_solve, "MIN_COLUMNS", A.shape[1] + 1)
    monkeypatch.setattr(_interior_solve, "MIN_ROWS", len(b) + len(b_eq))
    _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper, confirm_infeasible=False)
    assert [r[0] for r in runs] == ["choose"]  # too few columns
    runs.clear()
    monkeypatch.setattr(_interior_solve, "MIN_COLUMNS", A.shape[1])
    after = _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper, confirm_infeasible=True)
    assert runs == [("ipm", "on", _dense_lp.OPTIMAL)]
    assert after[0] == before[0] == _dense_lp.OPTIMAL
    np.testing.assert_array_equal(after[1], before[1])


def test_interior_point_infeasible_verdicts_are_confirmed(monkeypatch):
    """An infeasible verdict of the interior point method is checked by the dual simplex
    without presolve when the caller asks (``confirmed_solve``), as a presolved simplex's
    verdict is; without the request it is the answer."""
    _, A, b, A_eq, b_eq, lower, upper = _bounded(12)
    A = np.vstack([A, A[:1], -A[:1]])  # a_0 x <= b_0 and -a_0 x <= -b_0 - 1
    b = np.concatenate([b, b[:1], -b[:1] - 1.0])
    cost = np.append(np.zeros(A.shape[1] - 1), -1.0)
    monkeypatch.setattr(_interior_solve, "MIN_ROWS", 1)
    monkeypatch.setattr(_interior_solve, "MIN_COLUMNS", 1)
    runs = _recorded(monkeypatch)
    assert _dense_lp.solve(cost, A, b, A_eq, b_eq, lower, upper, confirm_infeasible=True) == (
        _dense_lp.INFEASIBLE,
        None,
    )
    assert runs[0] == ("ipm", "on", _dense_lp.INFEASIBLE)
    assert [r[1] for r in runs[1:]] == ["off"]  # the confirmation
    runs.clear()
    assert _dense_lp._cold_solve(cost, A, b, A_eq, b_eq, lower, upper, False) == (
        _dense_lp.INFEASIBLE,
        None,
    )
    assert runs == [("ipm", "on", _dense_lp.INFEASIBLE)]


def test_interior_point_failures_leave_the_program_to_the_dual_simplex(monkeypatch):
    """An interior point solve that ends otherwise (here its iteration limit) is not an
    answer: the presolved dual simplex solves the program, as without it."""
    _, A, b, A_eq, b_eq, lower, upper = _bounded(13)
    cost = np.append(np.zeros(A.shape[1] - 1), -1.0)
    reference = _dense_lp._cold_solve(cost, A, b, A_eq, b_eq, lower, upper, True)
    monkeypatch.setattr(_interior_solve, "MIN_ROWS", 1)
    monkeypatch.setattr(_interior_solve, "MIN_COLUMNS", 1)
    monkeypatch.setattr(_interior_solve, "IPM_ITERATIONS", 1)
    runs = _recorded(monkeypatch)
    got = _dense_lp._cold_solve(cost, A, b, A_eq, b_eq, lower, upper, True)
    assert runs[0][0] == "ipm" and runs[0][2] != _dense_lp.OPTIMAL
    assert runs[1:] == [("choose", "on", _dense_lp.OPTIMAL)]
    np.testing.assert_array_equal(got[1], reference[1])
