"""Programs of a span solved once per state of its cache (``_span_memo``)."""

import contextlib
import warnings

import networkx as nx
import numpy as np
import pytest

from gsp_householder.graphs import _dense_lp, _span_memo, _template_lp
from gsp_householder.graphs._span_memo import remembered_call, remembered_spans


class _Program:
    """A stand-in for ``valid_in_span``'s solve: each call appends ``step`` entries to
    the cache's ``rows``, sets its pair bounds ``h`` to ``bound`` and, when ``warm`` (an
    objective program) over a noisy span, advances the cache's ``warm`` counter (its warm
    program). As in ``valid_in_span``, max-margin calls are remembered and objective calls
    are always solved."""

    def __init__(self):
        self.solved = []

    def call(self, B, cache, step, warm=False, bound=1e-3):
        def solve():
            rows = cache.get("rows", np.zeros(0, dtype=bool))
            seen = int(cache.get("warm", 0)) if warm else -1
            self.solved.append((step, rows.size, seen))
            cache["rows"] = np.append(rows, [step % 2 == 0] * step)
            cache["h"] = np.full(1, bound)
            if warm and bound >= _template_lp.WARM_MIN_SLACK:
                cache["warm"] = seen + 1
            lam = np.array([float(step), float(rows.size)])
            return True, lam, float(step)

        flags = ("test", warm)
        return remembered_call(B, [np.array([float(step)])], flags, cache, solve, not warm)


def test_a_call_on_a_cache_in_the_same_state_is_answered_from_the_record():
    program, B = _Program(), object()
    with remembered_spans():
        first, again = {}, {}
        a = [program.call(B, first, s) for s in (3, 5)]
        assert len(program.solved) == 2
        b = [program.call(B, again, s) for s in (3, 5)]
        assert len(program.solved) == 2  # the same history: no solve
        for x, y in zip(a, b, strict=True):
            assert x[0] == y[0] and x[2] == y[2]
            np.testing.assert_array_equal(x[1], y[1])
        np.testing.assert_array_equal(first["rows"], again["rows"])
        assert first["rows"] is not again["rows"]  # each cache its own rows
        other = {}
        program.call(B, other, 5)  # another history: solved
        assert len(program.solved) == 3
        program.call(object(), {}, 3)  # another basis: solved
        assert len(program.solved) == 4
    program.call(B, {}, 3)  # no record: solved
    assert len(program.solved) == 5


def test_a_cache_changed_outside_a_record_is_never_answered_from_one():
    program, B = _Program(), object()
    cache = {}
    program.call(B, cache, 3)  # no record: no token
    with remembered_spans():
        program.call(B, {}, 3)
        program.call(B, {}, 5)
        solved = len(program.solved)
        program.call(B, cache, 5)  # its history is not known
        assert len(program.solved) == solved + 1
        kept = {}
        program.call(B, kept, 3)
    with remembered_spans():
        program.call(B, {}, 3)
        program.call(B, {}, 5)
        solved = len(program.solved)
        program.call(B, kept, 5)  # a history of another record
        assert len(program.solved) == solved + 1


def test_objective_calls_are_solved_but_name_the_next_state():
    """An objective call is solved every time, even on a cache in a state where the
    same call was made before (its solve advances the cache's warm program); it names
    the same next state as the first call, so the max-margin calls after it are answered
    from the record, and another objective names another state."""
    program, B = _Program(), object()
    with remembered_spans():
        first, again, other = {}, {}, {}
        program.call(B, first, 2)
        program.call(B, first, 3, warm=True)
        program.call(B, first, 1)
        assert [s for s, _, _ in program.solved] == [2, 3, 1]
        assert first["warm"] == 1
        program.call(B, again, 2)  # from the record
        program.call(B, again, 3, warm=True)  # solved: it starts the warm program
        assert [s for s, _, _ in program.solved] == [2, 3, 1, 3]
        assert again["warm"] == 1
        program.call(B, again, 1)  # the same state as ``first``'s: from the record
        assert [s for s, _, _ in program.solved] == [2, 3, 1, 3]
        np.testing.assert_array_equal(first["rows"], again["rows"])
        program.call(B, other, 2)
        program.call(B, other, 4, warm=True)  # another objective
        program.call(B, other, 1)  # another state: solved
        assert [s for s, _, _ in program.solved] == [2, 3, 1, 3, 4, 1]
        # exact spans (bounds below WARM_MIN_SLACK): solved every time too (their cold
        # programs are kept by ``_program_memo``)
        for cache in ({}, {}):
            program.call(B, cache, 6, bound=1e-9)
            program.call(B, cache, 7, warm=True, bound=1e-9)
        assert [s for s, _, _ in program.solved][6:] == [6, 7, 7]


def test_valid_in_span_solves_an_objective_call_the_record_holds(monkeypatch):
    """``valid_in_span`` answers a max-margin call made before on a cache in the same
    state from the record, and solves an objective call made before on a cache in the
    same state again: its solve starts the cache's warm program."""
    solved = []

    def solve(B, Lam, tol, floor, hint, objective, band, cache, settle):
        solved.append(objective is None)
        cache["rows"] = np.append(cache.get("rows", np.zeros(0)), len(solved))
        cache["h"] = np.full(3, 1e-3)  # a noisy span: objective programs warm-started
        if objective is not None:
            cache["warm"] = len(solved)  # the warm program this solve left
        return True, np.array([float(len(solved)), 0.0]), 1.0

    monkeypatch.setattr(_template_lp, "_solved_in_span", solve)
    B, Lam, tol = object(), np.eye(3)[:, :2], np.full(3, 1e-3)
    hint = (np.array([0]), np.array([1]))
    objective = np.ones(3)
    with remembered_spans():
        first, again = {}, {}
        for cache in (first, again):
            _template_lp.valid_in_span(B, Lam, tol, 0.1, hint, cache=cache)
            _template_lp.valid_in_span(B, Lam, tol, 0.1, hint, objective=objective, cache=cache)
        assert solved == [True, False, False]  # the max-margin call answered once
        assert first["warm"] == 2 and again["warm"] == 3  # each cache its own warm program
        _template_lp.valid_in_span(B, Lam, tol, 0.1, hint, cache={})
        assert solved == [True, False, False]  # from the record
    _template_lp.valid_in_span(B, Lam, tol, 0.1, hint, cache={})
    assert solved == [True, False, False, True]  # no record: solved


def test_the_record_drops_the_oldest_calls_past_its_size(monkeypatch):
    monkeypatch.setattr(_span_memo, "MAX_CALLS", 3)
    program, B = _Program(), object()
    with remembered_spans():
        for s in (1, 2, 3, 4):
            program.call(B, {}, s)
        program.call(B, {}, 4)  # kept
        assert len(program.solved) == 4
        program.call(B, {}, 1)  # dropped: solved again
        assert len(program.solved) == 5


@pytest.mark.skipif(not _dense_lp.available(), reason="HiGHS bindings not importable")
def test_inference_answers_do_not_depend_on_the_record(monkeypatch):
    """``infer_laplacian`` on perturbed eigenvectors whose searches pose programs again
    gives, with the record, the graph, family and candidates it gives solving every
    call; the record answers some max-margin calls and no objective call."""
    from gsp_householder import fourier_basis, infer_laplacian
    from gsp_householder.graphs import laplacian_inference

    # objective calls are always solved: when the record answered one, on these
    # eigenvectors under SkylakeX kernels, the next objective call of the family, solved
    # on a new warm program, reached its vertex to other bits, and 107 Laplacian entries
    # differed
    B = fourier_basis(nx.circular_ladder_graph(8))
    V0 = B.eigenvectors
    rng = np.random.default_rng(1)
    V = V0 + 1e-3 * rng.standard_normal(V0.shape) / np.sqrt(B.n)
    V = np.linalg.qr(V)[0] * np.sign(np.sum(V * np.linalg.qr(V)[0], axis=0))
    V = V[:, rng.permutation(B.n)]
    hits, get = [], _span_memo._Record.get
    objective_hits, call = [], _span_memo.remembered_call

    def counted(self, key):
        kept = get(self, key)
        hits.append(kept is not None)
        return kept

    def objective_counted(B, arrays, flags, cache, solve, remember):
        solved = []
        answer = call(B, arrays, flags, cache, lambda: solved.append(1) or solve(), remember)
        if not flags[2]:  # an objective call
            objective_hits.append(not solved)
        return answer

    monkeypatch.setattr(_span_memo._Record, "get", counted)
    monkeypatch.setattr(_template_lp, "remembered_call", objective_counted)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kept = infer_laplacian(V, rng=0)
    assert any(hits)
    assert objective_hits and not any(objective_hits)  # objective calls made, all solved
    monkeypatch.setattr(laplacian_inference, "remembered_spans", contextlib.nullcontext)
    with warnings.catch_warnings(record=True) as again:
        warnings.simplefilter("always")
        solved = infer_laplacian(V, rng=0)
    assert [str(w.message) for w in caught] == [str(w.message) for w in again]
    assert (kept.n_edges, kept.family_dimension, kept.n_candidates) == (
        solved.n_edges,
        solved.family_dimension,
        solved.n_candidates,
    )
    assert (kept.laplacian != solved.laplacian).nnz == 0
    for a, b in zip(kept.candidates, solved.candidates, strict=True):
        assert (a != b).nnz == 0
