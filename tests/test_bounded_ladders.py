"""Bounds on the work of the ranking ladders: searches of rankings that are one ranking
made once (``SearchRecord``), no last resort on the uncapped rankings (the capped
ladder keeps it), and relaxations that HiGHS cannot solve (``full_program_rows``)."""

import networkx as nx
import numpy as np

from gsp_householder.graphs import _dense_lp, _ranking_ladder, _template_lp
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._deep_trimming import DEEP
from gsp_householder.graphs._template_lp import full_program_rows, valid_in_span
from gsp_householder.graphs.fourier import fourier_basis


def _stubbed_ladder(monkeypatch, capped_sizes, deep=False):
    """``_ladder`` on stubbed leverage rankings (noise 1e-3 each) whose searches find no
    graph and draw nothing; ``capped_sizes(keep)`` gives the trimming sizes of a capped
    ranking (equal sizes: one ranking); with ``deep`` the uncapped rankings are
    searched. Returns the ladder's outcome, the searches made as ``(key, truncated)``
    and the history."""
    from types import SimpleNamespace

    calls = []

    def ranking(B, keep, r, first=None, **options):
        return (r, keep), (r, keep)

    def search(B, scores, trimmed, tol, noise, rng, history, **options):
        calls.append((scores, bool(options.get("search_truncated"))))
        history["n_evaluations"] += 1
        return [], 1

    monkeypatch.setattr(_ranking_ladder, "leverage_ranking", ranking)
    monkeypatch.setattr(_ranking_ladder, "deep_ranking",
                        lambda B, keep, r, first=None: ((r, keep, DEEP), None, 1e-3))
    monkeypatch.setattr(_ranking_ladder, "full_scores", lambda B, r: None)
    monkeypatch.setattr(_ranking_ladder, "trimming_sizes", lambda B, keep: capped_sizes(keep))
    monkeypatch.setattr(_ranking_ladder, "uncapped_sizes", lambda B, keep: ("deep", keep))
    monkeypatch.setattr(_ranking_ladder, "robust_noise", lambda B, trimmed: 1e-3)
    monkeypatch.setattr(_ranking_ladder, "_search_at_noise", search)
    # the stubbed rankings keep no pairs: the hopeless-basis rule and the tree behind a
    # large kept family have nothing to count
    monkeypatch.setattr(_ranking_ladder, "hopeless_basis", lambda *args, **kwargs: None)
    monkeypatch.setattr(_ranking_ladder, "large_family_tree", lambda *args, **kwargs: None)
    monkeypatch.setattr(
        _ranking_ladder, "deeper_order",
        lambda B, order, compute: [(*k[:2], DEEP) for k in order] if deep else order)
    B = SimpleNamespace(n=300, g=299, n_pairs=44850, rankings={})
    history = {"noise": 0.0, "noise_estimates": [], "n_evaluations": 0, "vertex_searches": 0}
    out = _ranking_ladder._ladder(B, {}, 0.0, np.random.default_rng(0), history)
    return out, calls, history


def test_rankings_that_are_one_ranking_are_searched_once(monkeypatch):
    # from 201 nodes to LADDER_MAX_N the capped rankings of keep 0.6 and 0.7 trim the
    # same pairs (the cap): one ranking per r, whose search at its estimate and in the
    # last resort found no graph without drawing, and is not made again for the other
    # keep; its counters are replayed
    out, calls, history = _stubbed_ladder(monkeypatch, lambda keep: (6000, 6000, 6000))
    assert out == ([], 1)
    first = [key for key, truncated in calls if not truncated]
    last = [key for key, truncated in calls if truncated]
    assert sorted(first) == sorted(last) == sorted((r, 0.7) for r in (8, 16, 24, 32))
    assert history["n_evaluations"] == 2 * len(_ranking_ladder.RANKINGS)


def test_rankings_that_trim_other_pairs_are_each_searched(monkeypatch):
    out, calls, _ = _stubbed_ladder(monkeypatch, lambda keep: (keep,))
    keys = list(_ranking_ladder.RANKINGS)
    assert out == ([], 1)
    assert calls == [(k, False) for k in keys] + [(k, True) for k in keys]


def test_uncapped_rankings_stop_without_a_last_resort(monkeypatch):
    # the uncapped ladder stops when its first DEEP_MISSES rankings give no graph, and
    # leaves the truncated families at the largest estimate to the capped ladder
    # (``capped_fallback``): on perturbed PyGSP DavidSensorNet(500) those searches,
    # over two thirds of the pairs, did not end in 1000 CPU s
    out, calls, history = _stubbed_ladder(monkeypatch, lambda keep: (keep,), deep=True)
    assert out == ([], 1)
    assert history["deep_trimming"]
    keys = _ranking_ladder.RANKINGS[:_ranking_ladder.DEEP_MISSES]
    assert calls == [((*k, DEEP), False) for k in keys]


def _program(n_nodes=12):
    """A max-margin program over the span of a path's exact eigenvalues and one other
    direction, every pair a hint (``n(n - 1)/2`` pair rows)."""
    G = nx.path_graph(n_nodes)
    basis = _read_basis(fourier_basis(G).eigenvectors, None, False, None, None)
    B = _anchored_pair_basis(basis)
    rng = np.random.default_rng(0)
    Lam = np.column_stack([np.ones(B.g), rng.standard_normal(B.g)])
    i, j = B.upper()
    return B, Lam, np.full(B.n, 1e-3), 1e-5, (i, j)


def test_whole_program_after_an_unsolved_relaxation_is_bounded(monkeypatch):
    # a relaxation that HiGHS ends with no answer says nothing: the whole program is
    # solved when it has at most full_program_rows(n) pair rows, and otherwise taken
    # as holding no valid Laplacian (perturbed DavidSensorNet(500): 81960 pair rows,
    # 34 CPU s to find it infeasible)
    B, Lam, tol, floor, hint = _program()
    whole = len(hint[0]) + B.g        # pair rows and the eigenvalue rows
    solved = []
    solve = _dense_lp.solve

    def stub_solve(cost, A_ub, b_ub, *args, **options):
        solved.append(len(A_ub))
        if len(A_ub) < whole:
            return _dense_lp.OTHER, None
        return solve(cost, A_ub, b_ub, *args, **options)

    monkeypatch.setattr(_dense_lp, "solve", stub_solve)
    monkeypatch.setattr(_dense_lp.WarmProgram, "solve",
                        lambda self, cost: (_dense_lp.OTHER, None))
    monkeypatch.setattr(_template_lp, "CUT_ROWS", 10)
    ok, lam, _ = valid_in_span(B, Lam, tol, floor, hint)
    assert ok and lam is not None                     # solved whole: the path is valid
    assert solved[-1] == whole
    solved.clear()
    monkeypatch.setattr(_template_lp, "full_program_rows", lambda n: len(hint[0]) - 1)
    ok, lam, _ = valid_in_span(B, Lam, tol, floor, hint)
    assert not ok and lam is None
    assert whole not in solved


def test_full_program_rows_is_the_capped_trimming():
    from gsp_householder.graphs._support_search import trimming_sizes

    class _B:
        def __init__(self, n):
            self.n, self.n_pairs = n, n * (n - 1) // 2

    for n in (300, 400, 500, 1000):
        assert full_program_rows(n) == max(trimming_sizes(_B(n)))
