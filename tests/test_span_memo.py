"""Programs of a span solved once per state of its cache (``_span_memo``)."""

import contextlib
import warnings

import networkx as nx
import numpy as np
import pytest

from gsp_householder.graphs import _dense_lp, _span_memo, _template_lp
from gsp_householder.graphs._span_memo import remembered_call, remembered_spans
from gsp_householder.graphs._template_lp import _answer_kept


class _Program:
    """A stand-in for ``valid_in_span``'s solve: each call appends ``step`` entries to
    the cache's ``rows``, sets its pair bounds ``h`` to ``bound`` and, when ``warm`` (an
    objective program) over a noisy span, advances the cache's ``warm`` counter (its warm
    program); its answer depends on the rows, not on the counter, as a warm program's
    vertex does not depend on its starting basis. Objective calls are remembered as
    ``valid_in_span`` remembers them (``_answer_kept``)."""

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
        objective = np.ones(1) if warm else None
        return remembered_call(
            B, [np.array([float(step)])], flags, cache, solve, _answer_kept(objective, cache)
        )


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


def test_objective_calls_are_remembered_until_a_warm_program_starts():
    """An objective call over a noisy span on a cache with no warm program is answered
    from the record when made before on a cache in the same state; on a cache that holds
    a warm program, or over an exact span, it is solved; either names the same next
    state, and another objective a new one."""
    program, B = _Program(), object()
    with remembered_spans():
        first, again, other = {}, {}, {}
        program.call(B, first, 2)
        program.call(B, first, 3, warm=True)  # solved: it starts the warm program
        program.call(B, first, 5, warm=True)  # solved on the warm program
        program.call(B, first, 1)
        assert [s for s, _, _ in program.solved] == [2, 3, 5, 1]
        program.call(B, again, 2)
        program.call(B, again, 3, warm=True)  # no warm program: from the record
        assert "warm" not in again
        np.testing.assert_array_equal(first["rows"][: again["rows"].size], again["rows"])
        again["warm"] = 0  # a warm program started (by another objective call)
        program.call(B, again, 5, warm=True)  # solved: the cache holds a warm program
        assert [s for s, _, _ in program.solved] == [2, 3, 5, 1, 5]
        program.call(B, again, 1)  # the same state as ``first``'s: from the record
        assert [s for s, _, _ in program.solved] == [2, 3, 5, 1, 5]
        np.testing.assert_array_equal(first["rows"], again["rows"])
        program.call(B, other, 2)
        program.call(B, other, 4, warm=True)  # another objective
        program.call(B, other, 1)  # another state: solved
        assert [s for s, _, _ in program.solved] == [2, 3, 5, 1, 5, 4, 1]
        # exact spans (bounds below WARM_MIN_SLACK): objective calls solved every time
        # (their cold programs are kept by ``_program_memo``)
        for cache in ({}, {}):
            program.call(B, cache, 6, bound=1e-9)
            program.call(B, cache, 7, warm=True, bound=1e-9)
        assert [s for s, _, _ in program.solved][7:] == [6, 7, 7]


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


class _WarmCalls:
    """A stand-in for ``valid_in_span``'s objective calls over a noisy span whose answer
    depends on the warm program's history, as a warm solve's last bits do on the basis it
    starts from: each solve replays the cache's deferred calls first (as
    ``_template_lp._warm_program`` does), then records its step in the cache's ``warm``
    history and answers the history's sum. Each call appends its step to ``rows``."""

    def __init__(self):
        self.solved = []

    def solved_on(self, cache, step):
        _span_memo.replay_deferred(cache)
        self.solved.append(step)
        history = (*cache.get("warm", ()), step)
        cache["warm"] = history
        cache["rows"] = np.append(cache.get("rows", np.zeros(0)), step)
        return True, np.array([float(sum(history)), float(len(history))]), float(step)

    def call(self, B, cache, step):
        remember = "warm" not in cache  # ``_answer_kept`` over a noisy span
        return remembered_call(
            B,
            [np.array([float(step)])],
            ("test", False),
            cache,
            lambda: self.solved_on(cache, step),
            remember,
            replay=lambda state: self.solved_on(state, step),
        )


def test_objective_calls_answered_from_the_record_are_replayed_before_a_warm_solve():
    """Objective calls answered from the record leave the cache's warm program as a
    solve would have left it: a later call solved on that cache answers what it answers
    after the same calls all solved, and calls all answered from the record solve
    nothing."""
    calls, B = _WarmCalls(), object()
    cache = {}
    fresh = [calls.call(B, cache, s) for s in (2, 3, 5)]  # no record: each solved
    with remembered_spans():
        calls.call(B, {}, 2)  # solved and kept: the cache had no warm program
        calls.call(B, {}, 2)  # from the record, deferred
        second = {}
        calls.call(B, second, 2)
        calls.call(B, second, 3)  # replays 2, solves 3 (kept: no warm program before)
        assert calls.solved[3:] == [2, 2, 3] and second["warm"] == (2, 3)
        solved = len(calls.solved)
        again = {}
        kept = [calls.call(B, again, s) for s in (2, 3)]  # both from the record
        assert len(calls.solved) == solved
        assert len(again[_span_memo.DEFERRED]) == 2 and "warm" not in again
        kept.append(calls.call(B, again, 5))  # replays 2 and 3, then solves 5
        assert calls.solved[solved:] == [2, 3, 5]
        assert _span_memo.DEFERRED not in again and again["warm"] == (2, 3, 5)
        np.testing.assert_array_equal(again["rows"], cache["rows"])
    for a, b in zip(kept, fresh, strict=True):
        assert a[0] == b[0] and a[2] == b[2]
        np.testing.assert_array_equal(a[1], b[1])
    assert fresh[2][1][0] == 10.0  # not 5.0: the answer of a new warm program


@pytest.mark.skipif(not _dense_lp.available(), reason="HiGHS bindings not importable")
def test_inference_answers_do_not_depend_on_the_record(monkeypatch):
    """``infer_laplacian`` on perturbed eigenvectors whose searches pose programs again
    gives, with the record, the graph, family and candidates it gives solving every
    call (and the record answers some calls, objective calls among them)."""
    from gsp_householder import fourier_basis, infer_laplacian
    from gsp_householder.graphs import laplacian_inference

    # an objective call answered from the record defers its warm solves
    # (``replay_deferred``): without that, on these eigenvectors under SkylakeX kernels,
    # the next objective call of the family, solved on a new warm program, reached its
    # vertex to other bits, and 107 Laplacian entries differed
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

    def objective_counted(B, arrays, flags, cache, solve, remember, replay=None):
        solved = []
        answer = call(
            B, arrays, flags, cache, lambda: solved.append(1) or solve(), remember, replay
        )
        if not flags[2]:  # an objective call
            objective_hits.append(not solved)
        return answer

    monkeypatch.setattr(_span_memo._Record, "get", counted)
    monkeypatch.setattr(_template_lp, "remembered_call", objective_counted)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kept = infer_laplacian(V, rng=0)
    assert any(hits)
    assert any(objective_hits)  # reweighted descents of a family searched again
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
