"""A max-margin program answered by the small relaxation that failed to prove it below
the floor, when that relaxation's optimum is the program's only optimum
(``_relaxed_optimum``); the cutting-plane rounds then run only when a later program of
the span needs the rows they keep."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest

from gsp_householder.graphs import _template_lp
from gsp_householder.graphs._dense_lp import WarmProgram
from gsp_householder.graphs._relaxed_optimum import DEFERRED, relaxation_optimum
from gsp_householder.graphs.fourier import fourier_basis
from tests._basis_inputs import perturbed, shuffled


def _margin_program():
    """Maximise $t$ over $(y_1, y_2, t)$ with $t \\le y_1$, $t \\le y_2 + 1$, bounds [0, 2],
    the pair row $y_1 \\le 1$ held: the optimum $t = 1$ leaves $y_2 \\in [0, 2]$ free."""
    program = WarmProgram(
        np.array([[-1.0, 0.0, 1.0], [0.0, -1.0, 1.0]]),
        np.array([0.0, 1.0]),
        np.zeros((0, 3)),
        np.zeros(0),
        np.zeros(3),
        np.full(3, 2.0),
    )
    program.add_rows(np.array([[1.0, 0.0, 0.0]]), np.array([1.0]))
    status, x = program.solve(np.array([0.0, 0.0, -1.0]))
    assert status == 0 and x[2] == pytest.approx(1.0)
    return program, x


def test_a_relaxation_optimum_that_is_not_unique_is_not_the_answer():
    program, x = _margin_program()
    H, live = np.array([[1.0, 0.0], [0.0, 1.0]]), np.array([True, True])
    # every pair row holds at x, but the program's optima form a segment: the rounds
    # could end at another vertex of it
    assert np.all(H @ x[:2] <= np.array([1.0, 5.0]))
    assert relaxation_optimum(program, x, np.array([0]), H, np.array([1.0, 5.0]), live) is None


def test_rows_that_vanish_on_the_span_are_skipped():
    program = WarmProgram(
        np.array([[-1.0, 1.0]]),
        np.zeros(1),
        np.zeros((0, 2)),
        np.zeros(0),
        np.zeros(2),
        np.full(2, 2.0),
    )
    program.add_rows(np.array([[1.0, 0.0]]), np.array([1.0]))
    _, x = program.solve(np.array([0.0, -1.0]))
    # hint pairs 0 (not live), 1 (held by the relaxation) and 2: the rows of H are those
    # of pairs 1 and 2
    live = np.array([False, True, True])
    H = np.array([[1.0], [3.0]])
    assert relaxation_optimum(program, x, np.array([1]), H, np.array([1.0, 3.0]), live) is not None
    assert relaxation_optimum(program, x, np.array([1]), H, np.array([1.0, 2.9]), live) is None
    # a held row is not tested (its slack is HiGHS's to keep)
    assert relaxation_optimum(program, x, np.array([1]), H, np.array([0.9, 3.0]), live) is not None


def _noisy_family():
    """A perturbed tree's seed fit at its noise level: a family of several directions
    whose max-margin program has more than ``CUT_ROWS`` pair rows."""
    from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
    from gsp_householder.graphs._support_search import leverage_ranking, robust_noise, seed_fit

    B = fourier_basis(nx.random_labeled_tree(70, seed=3))
    V = shuffled(perturbed(B.eigenvectors, 1e-3, 1), 0)
    P = _anchored_pair_basis(_read_basis(V, None, None, None, None))
    trimmed = leverage_ranking(P, keep=0.7, r=16)[1]
    return P, seed_fit(P, trimmed, noise=robust_noise(P, trimmed))


def test_the_relaxation_answers_as_the_rounds_and_later_programs_start_as_before(monkeypatch):
    P, fit = _noisy_family()
    assert fit.Lam.shape[1] > 1 and len(fit.hint[0]) > _template_lp.CUT_ROWS
    hits, state = [], {"off": False}

    def spy(*args):
        hits.append(relaxation_optimum(*args) is not None)
        return None if state["off"] else relaxation_optimum(*args)

    monkeypatch.setattr(_template_lp, "relaxation_optimum", spy)
    d = fit.Lam.shape[1]
    objective = np.random.default_rng(0).standard_normal(d)
    _, _, t = _template_lp.valid_in_span(P, fit.Lam, fit.tol, fit.floor, fit.hint, settle=True)
    answered = 0
    for floor in (fit.floor, 0.5 * t, 0.9 * t, 0.999 * t, 1.001 * t):
        outcomes, caches = [], []
        for off in (True, False):
            state["off"], cache = off, {}
            hits.clear()
            first = _template_lp.valid_in_span(P, fit.Lam, fit.tol, floor, fit.hint, cache=cache)
            deferred = DEFERRED in cache
            later = _template_lp.valid_in_span(
                P, fit.Lam, fit.tol, floor, fit.hint, objective=objective, cache=cache
            )
            outcomes.append((first, later))
            caches.append((cache, deferred, bool(hits) and hits[0]))
        (base, base_later), (fast, fast_later) = outcomes
        assert not caches[0][1]  # without the relaxation: the rounds
        # the relaxation answers exactly when its optimum is the program's
        assert caches[1][1] == caches[1][2]
        answered += caches[1][1]
        assert base[0] == fast[0] == (floor <= t)
        if base[0]:
            np.testing.assert_allclose(fast[1], base[1], rtol=0, atol=1e-9 * np.abs(base[1]).max())
        assert fast[2] == pytest.approx(base[2], rel=1e-9)
        # the deferred rounds ran before the later program: the same rows kept, the same
        # vertex for its objective
        assert DEFERRED not in caches[1][0]
        np.testing.assert_array_equal(caches[1][0]["rows"], caches[0][0]["rows"])
        assert base_later[0] == fast_later[0]
        if base_later[0]:
            np.testing.assert_allclose(
                fast_later[1], base_later[1], rtol=0, atol=1e-9 * np.abs(base_later[1]).max()
            )
    assert answered >= 3
