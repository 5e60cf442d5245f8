"""Concentration steps steered by the normal equations give the numbers of steps that
all solve by ``gelsd``, bit for bit (``_trimmed_fit``)."""

import networkx as nx
import numpy as np
import pytest

from gsp_householder.graphs import _trimmed_fit
from gsp_householder.graphs._fitted_ranking import MAX_STEPS
from gsp_householder.graphs._pair_geometry import PairGram, pair_basis
from gsp_householder.graphs._trimmed_fit import (
    clear_smallest,
    normal_solve,
    selection_level,
    trimmed_fit,
)
from gsp_householder.graphs.fourier import fourier_basis


def _gelsd_fit(X, kept, k, max_steps=MAX_STEPS, solves=None):
    """The concentration steps with every step solved by ``gelsd`` (each solve appended
    to the list ``solves``)."""
    solves = [] if solves is None else solves
    y = np.linalg.lstsq(X[kept], np.ones(k), rcond=None)[0]
    solves.append(1)
    for _ in range(max_steps - 1):
        new = np.sort(np.argpartition(np.abs(X @ y - 1.0), k - 1)[:k])
        if np.array_equal(new, kept):
            break
        kept = new
        y = np.linalg.lstsq(X[kept], np.ones(k), rcond=None)[0]
        solves.append(1)
    res = X @ y - 1.0
    return float(np.sum(res[kept] ** 2)), y, kept


def _assert_same(got, want):
    assert got[0] == want[0]
    assert np.array_equal(got[1], want[1])
    assert np.array_equal(got[2], want[2])


class _CountedLstsq:
    """``np.linalg.lstsq`` of ``_trimmed_fit``, counted."""

    def __init__(self, monkeypatch):
        self.calls = 0
        real = np.linalg.lstsq

        def counted(*args, **kwargs):
            self.calls += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(_trimmed_fit.np.linalg, "lstsq", counted)


def _fitted_rows(V, r, keep, perturb=0.0, seed=0):
    """The rows ``X``, ``k`` and the two starts of ``fitted_ranking`` for the basis ``V``."""
    rng = np.random.default_rng(seed)
    if perturb:
        E = rng.standard_normal(V.shape)
        U, _, Wt = np.linalg.svd(V + perturb * np.linalg.norm(V) * E / np.linalg.norm(E))
        V = U @ Wt
    V = V[:, rng.permutation(V.shape[1])]
    c = int(np.argmax(np.abs(V.sum(axis=0))))
    u = np.full(V.shape[0], 1.0 / np.sqrt(V.shape[0]))
    V[:, c] = u
    B = pair_basis(V, c, u)
    mu, Lam = PairGram(B).null_directions(r)
    i, j = B.upper()
    X = B.products(i, j, Lam)
    k = max(min(int(keep * len(i)), len(i) - 1), Lam.shape[1])
    leverage = (X * X) @ (1.0 / np.maximum(mu, np.finfo(float).tiny))
    starts = [np.sort(np.argsort(v, kind="stable")[:k]) for v in (leverage, (X * X).sum(axis=1))]
    return X, k, starts


@pytest.mark.parametrize(
    ("graph", "perturb"),
    [
        (lambda: nx.gnp_random_graph(60, 0.35, seed=4), 0.0),
        (lambda: nx.gnp_random_graph(60, 0.35, seed=4), 1e-3),
        (lambda: nx.random_regular_graph(8, 70, seed=5), 0.0),
        (lambda: nx.random_regular_graph(8, 70, seed=5), 1e-3),
        (lambda: nx.connected_caveman_graph(4, 5), 1e-3),
    ],
    ids=["gnp-exact", "gnp-perturbed", "regular-exact", "regular-perturbed", "caveman-perturbed"],
)
def test_steered_steps_give_the_numbers_of_gelsd_steps(graph, perturb, monkeypatch):
    V = fourier_basis(graph()).eigenvectors
    counted = _CountedLstsq(monkeypatch)
    solves, fits = [], 0
    for r, keep in ((16, 0.5), (32, 0.5), (16, 0.7)):
        X, k, starts = _fitted_rows(V, r, keep, perturb)
        for start in starts:
            want = _gelsd_fit(X, start, k, solves=solves)
            _assert_same(trimmed_fit(X, start, k, MAX_STEPS), want)
            fits += 1
    # the steered steps ran: gelsd solved the rows kept at the end of each fit and, where
    # rounding could decide the cut, a few steps more
    assert fits <= counted.calls - len(solves) < len(solves) // 2


def test_tied_residuals_at_the_cut_are_solved_by_gelsd(monkeypatch):
    # every row twice: residuals tie in pairs, and an odd k cuts a tied pair, which
    # rounding alone decides; the steps there must be gelsd's
    rng = np.random.default_rng(3)
    half = rng.standard_normal((300, 6)) * np.array([1, 1, 1, 1, 1, 0.2])
    X = np.repeat(half, 2, axis=0)
    k = 301
    start = np.sort(np.argsort((X * X).sum(axis=1), kind="stable")[:k])
    counted = _CountedLstsq(monkeypatch)
    _assert_same(trimmed_fit(X, start, k, MAX_STEPS), _gelsd_fit(X, start, k))
    assert counted.calls >= 2


def test_near_ties_within_the_level_are_solved_by_gelsd():
    # pairs of rows that differ by one part in 1e15: their residuals differ below the
    # level of rounding, so the cut between them is gelsd's
    rng = np.random.default_rng(4)
    half = rng.standard_normal((400, 8))
    X = np.repeat(half, 2, axis=0)
    X[1::2] *= 1.0 + 1e-15 * rng.standard_normal((400, 1))
    for k in (401, 401 + 2 * 50, 799):
        start = np.sort(np.argsort(X[:, 0], kind="stable")[:k])
        _assert_same(trimmed_fit(X, start, k, MAX_STEPS), _gelsd_fit(X, start, k))


def test_rank_deficient_rows_are_solved_by_gelsd():
    # a repeated column: the normal equations are singular, gelsd's truncated solution
    rng = np.random.default_rng(5)
    X = rng.standard_normal((500, 5))
    X = np.column_stack([X, X[:, 2]])
    k = 250
    start = np.arange(k)
    assert normal_solve(X[start], np.ones(k)) is None
    _assert_same(trimmed_fit(X, start, k, MAX_STEPS), _gelsd_fit(X, start, k))


@pytest.mark.parametrize("condition", [1.0, 1e2, 1e4, 1e5])
def test_the_level_bounds_the_residual_differences_of_the_two_solves(condition):
    rng = np.random.default_rng(6)
    k, r = 4000, 16
    Q, _ = np.linalg.qr(rng.standard_normal((k, r)))
    W, _ = np.linalg.qr(rng.standard_normal((r, r)))
    rows = Q @ np.diag(np.geomspace(1.0, 1.0 / condition, r)) @ W.T * 3.0
    rows = rows + 0.01 * rng.standard_normal((k, 1))
    z, w = normal_solve(rows, np.ones(k))
    y = np.linalg.lstsq(rows, np.ones(k), rcond=None)[0]
    largest = float(np.sqrt(np.max((rows * rows).sum(axis=1))))
    level = selection_level(w, z, k, largest)
    assert np.max(np.abs(np.abs(rows @ z - 1.0) - np.abs(rows @ y - 1.0))) <= level / 2


def test_normal_equations_singular_to_rounding_are_not_solved():
    # condition 1e6 of the rows: 1e12 of their Gram, beyond 1 / (k r u) = 1.4e11
    rng = np.random.default_rng(6)
    k, r = 4000, 16
    Q, _ = np.linalg.qr(rng.standard_normal((k, r)))
    rows = Q @ np.diag(np.geomspace(1.0, 1e-6, r))
    assert normal_solve(rows, np.ones(k)) is None
    assert normal_solve(Q, np.ones(k)) is not None


def test_clear_smallest_keeps_the_k_smallest_only_beyond_the_level():
    values = np.array([0.5, 0.1, 0.3, 0.3 + 1e-9, 0.9])
    assert np.array_equal(clear_smallest(values, 1, 1e-3), [1])
    assert clear_smallest(values, 2, 1e-3) is None  # 0.3 and 0.3 + 1e-9: too close
    assert np.array_equal(clear_smallest(values, 2, 1e-10), [1, 2])
    assert np.array_equal(clear_smallest(values, 3, 1e-3), [1, 2, 3])
    assert clear_smallest(np.array([0.2, 0.2, 0.4]), 1, 0.0) is None  # an exact tie
    assert np.array_equal(clear_smallest(values, 5, 1.0), np.arange(5))
