"""Programs of a span solved once per state of its cache (``_span_memo``)."""

import contextlib
import warnings

import networkx as nx
import numpy as np
import pytest

from gsp_householder.graphs import _dense_lp, _span_memo
from gsp_householder.graphs._span_memo import remembered_call, remembered_spans


class _Program:
    """A stand-in for ``valid_in_span``'s solve: each call appends ``step`` entries to
    the cache's ``rows`` and, when ``warm`` (an objective program), advances the cache's
    ``warm`` counter; its answer depends on both, as a warm program's does on its
    basis."""

    def __init__(self):
        self.solved = []

    def call(self, B, cache, step, warm=False):
        def solve():
            rows = cache.get("rows", np.zeros(0, dtype=bool))
            seen = int(cache.get("warm", 0)) if warm else -1
            self.solved.append((step, rows.size, seen))
            cache["rows"] = np.append(rows, [step % 2 == 0] * step)
            if warm:
                cache["warm"] = seen + 1
            lam = np.array([float(step), float(rows.size), float(seen)])
            return True, lam, float(step)

        flags = ("test", warm)
        return remembered_call(B, [np.array([float(step)])], flags, cache, solve, remember=not warm)


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


def test_objective_calls_are_solved_and_name_a_new_state():
    """A warm call (an objective program) is solved every time, and a max-margin call
    after it is answered only on a cache with the same warm calls before."""
    program, B = _Program(), object()
    with remembered_spans():
        first, again, other = {}, {}, {}
        for cache in (first, again):
            program.call(B, cache, 2)
            program.call(B, cache, 3, warm=True)
            program.call(B, cache, 1)
        assert [s for s, _, _ in program.solved] == [2, 3, 1, 3]  # the warm call again
        program.call(B, other, 2)
        program.call(B, other, 4, warm=True)  # another objective
        program.call(B, other, 1)  # another state: solved
        assert [s for s, _, _ in program.solved] == [2, 3, 1, 3, 4, 1]


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
    call (and the record answers some calls)."""
    from gsp_householder import fourier_basis, infer_laplacian
    from gsp_householder.graphs import laplacian_inference

    B = fourier_basis(nx.circular_ladder_graph(8))
    rng = np.random.default_rng(1)
    V = B.eigenvectors + 1e-3 * rng.standard_normal(B.eigenvectors.shape) / np.sqrt(B.n)
    V = np.linalg.qr(V)[0] * np.sign(np.sum(V * np.linalg.qr(V)[0], axis=0))
    V = V[:, rng.permutation(B.n)]
    hits, get = [], _span_memo._Record.get

    def counted(self, key):
        kept = get(self, key)
        hits.append(kept is not None)
        return kept

    monkeypatch.setattr(_span_memo._Record, "get", counted)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        kept = infer_laplacian(V, rng=0)
    assert any(hits)
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
