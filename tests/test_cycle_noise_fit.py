"""A cycle's weights fitted in the units of its non-edges' noise (``_cycle_noise_fit``)."""

from __future__ import annotations

import itertools
import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input
from test_edge_test_descent import _basis
from test_weighted_cycle import _edges, _random_ring, _true_edges

from gsp_householder import fourier_basis
from gsp_householder.graphs import (
    _cycle_noise_fit,
    _weighted_cycle,
    compare_graphs,
    infer_laplacian,
)
from gsp_householder.graphs._cycle_noise_fit import _CycleNoiseFit, noise_scaled_weights
from gsp_householder.graphs._weighted_cycle import (
    _shown_within_agreement,
    cycle_in_order,
    cycle_weights,
    shown_cycle,
    weighted_cycle,
)

pytest.importorskip("pygsp")


def _ring_fit(n, seed, draw):
    """The basis of ``RandomRing(n, seed)`` perturbed as the benchmark's ``draw``, the
    least squares cycle on its true order and that cycle's fit."""
    basis = _basis(graph_bench_input(_random_ring(n, seed), draw))
    W = cycle_weights(basis, np.arange(n))
    upper = sp.triu(W, 1).tocoo()
    return basis, W, _CycleNoiseFit(np.asarray(basis["V_anchored"]), upper.row, upper.col)


def test_squared_z_scores_do_not_change_with_the_weights_scale():
    # f(w) = sum e^2 / v: e is linear and v quadratic in w
    _, W, fit = _ring_fit(60, 2, 0)
    w = sp.triu(W, 1).tocoo().data
    assert fit.value(7.5 * w) == pytest.approx(fit.value(w), rel=1e-10)
    z, _, _ = fit.linearised(w)
    assert float((z * z).sum()) == pytest.approx(fit.value(w), rel=1e-12)


def test_jacobian_matches_differences_and_its_adjoint():
    # the derivative along a step xi in log w against central differences of
    # e / sqrt(v), and the adjoint against the dot-product identity
    _, W, fit = _ring_fit(40, 3, 1)
    w = sp.triu(W, 1).tocoo().data
    rng = np.random.default_rng(5)
    xi = rng.standard_normal(w.size)
    z, jacobian, adjoint = fit.linearised(w)
    h = 1e-6
    ahead = fit.linearised(w * np.exp(h * xi))[0]
    behind = fit.linearised(w * np.exp(-h * xi))[0]
    numeric = ((ahead - behind) / (2.0 * h)).ravel()
    assert np.linalg.norm(jacobian(xi) - numeric) <= 1e-6 * np.linalg.norm(numeric)
    y = rng.standard_normal(z.size)
    assert jacobian(xi) @ y == pytest.approx(xi @ adjoint(y), rel=1e-10)


def test_fit_shows_the_ring_whose_least_squares_weights_miss_edges():
    # RandomRing(150, seed 3) perturbed by 1e-3, draw 2 (weights 0.22 to 359): the least
    # squares weights leave non-edges significantly negative; the fit in the units of
    # their noise lowers the squared z-scores and is shown, on the same edges
    basis, W, fit = _ring_fit(150, 3, 2)
    assert shown_cycle(basis, W)[0] == "missing"
    member = noise_scaled_weights(basis, W, lambda m: _shown_within_agreement(basis, m))
    assert member is not None
    assert _edges(member) == _edges(W) == _true_edges(_random_ring(150, 3))
    assert sp.triu(member, 1).data.sum() == pytest.approx(sp.triu(W, 1).data.sum())
    before = fit.value(sp.triu(W, 1).tocoo().data)
    after = fit.value(sp.triu(member, 1).tocoo().data)
    assert after < before
    assert shown_cycle(basis, member, weak_within_agreement=True)[0] == "shown"


def test_fit_refuses_what_it_cannot_show():
    # a member never accepted: None after the steps (no member returned unshown)
    basis, W, _ = _ring_fit(60, 2, 0)
    assert noise_scaled_weights(basis, W, lambda m: False) is None


@pytest.mark.parametrize(("n", "seed", "draw"), [(60, 2, 0), (150, 3, 2)])
def test_steps_end_when_no_z_score_moves_by_a_noise_unit(n, seed, draw):
    # refused members: the steps go on while each moves some non-edge's z-score by their
    # root mean square at least, and end at the first that moves none (no step count)
    basis, W, fit = _ring_fit(n, seed, draw)
    members = []
    assert noise_scaled_weights(basis, W, lambda m: members.append(m) or False) is None
    scores = [fit.scores(sp.triu(M, 1).tocoo().data) for M in [W, *members]]
    moved = [
        np.abs(after - before).max() / np.sqrt(np.square(after).sum() / fit.mask.sum())
        for before, after in itertools.pairwise(scores)
    ]
    assert len(moved) >= 1
    assert all(m >= 1.0 for m in moved[:-1]) and moved[-1] < 1.0


def test_z_scores_are_the_square_roots_of_the_value():
    _, W, fit = _ring_fit(40, 3, 1)
    w = sp.triu(W, 1).tocoo().data
    z = fit.scores(w)
    assert float((z * z).sum()) == pytest.approx(fit.value(w), rel=1e-12)
    assert np.all(z[fit.mask == 0.0] == 0.0)


@pytest.mark.slow
@pytest.mark.parametrize(("n", "seed", "draw"), [(600, 70, 0), (400, 6, 0)])
def test_perturbed_rings_of_three_decades_read_as_rings(n, seed, draw):
    # weights spread over three decades (0.11 to 655, 0.17 to 3031), perturbed by 1e-3:
    # the complete graph (warned) before; the ring, quiet, in 7 and 17 CPU s
    G = _random_ring(n, seed)
    B = fourier_basis(G)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = infer_laplacian(graph_bench_input(G, draw), rng=0)
    assert res.history["weighted_cycle"] is True
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0


def test_cycle_with_a_chord_of_more_nodes_not_read():
    # 400 nodes, lognormal weights and a chord, perturbed by 1e-3: no cycle is read
    G = nx.cycle_graph(400)
    weights = np.random.default_rng(3).lognormal(0.0, 1.0, 400)
    for (u, v), x in zip(G.edges, weights, strict=True):
        G[u][v]["weight"] = float(x)
    G.add_edge(0, 150, weight=1.0)
    basis = _basis(graph_bench_input(G, 0))
    assert weighted_cycle(basis) is None


def test_a_step_that_overflows_the_weights_is_no_decrease_and_warns_nothing():
    # a step in log w beyond the float range (the lognormal sigma 2 cycles' first
    # steps) is read as one that does not lower f, as a halving step needs, without
    # numpy's overflow warnings; a finite step is scored as before
    from gsp_householder.graphs._cycle_noise_fit import _trial

    _, W, fit = _ring_fit(40, 3, 1)
    w = sp.triu(W, 1).tocoo().data
    xi = np.zeros_like(w)
    xi[0] = 1e4
    nothing_held = np.zeros(0, dtype=np.intp)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        trial, value = _trial(fit, w, xi, nothing_held)
        assert value == np.inf
        trial, value = _trial(fit, w, xi / 2.0**20, nothing_held)
    assert np.all(np.isfinite(trial)) and value == pytest.approx(fit.value(trial))


def _normal_residual(fit, w, xi, damping, held):
    """The gradient of the damped objective of `_CycleNoiseFit.step` at ``xi`` over the
    gradient at 0: ``J^T (z + J xi) + hold * J_h^T (z_h + J_h xi) + damping * xi``."""
    z, jacobian, adjoint = fit.linearised(w)
    moved = z.ravel() + jacobian(xi)
    weighted = moved.copy()
    np.add.at(weighted, held, fit.hold_weight() * moved[held])
    start = z.ravel().copy()
    np.add.at(start, held, fit.hold_weight() * start[held])
    return np.linalg.norm(adjoint(weighted) + damping * xi) / np.linalg.norm(adjoint(start))


def test_damped_step_solves_the_levenberg_normal_equations():
    # 40 unknowns, 50 LSQR iterations: the step is the damped least-squares solution,
    # held pairs weighted by the number of terms of f; the damping shortens it
    _, W, fit = _ring_fit(40, 3, 1)
    w = sp.triu(W, 1).tocoo().data
    f = fit.value(w)
    nothing = np.zeros(0, dtype=np.intp)
    z = fit.scores(w)
    held = np.flatnonzero(z.ravel() == z.min())  # the most negative pair, both ways
    for damping, pairs in [(f / fit.m, nothing), (f / fit.m, held), (100.0 * f, nothing)]:
        xi = fit.step(w, damping, pairs)
        assert _normal_residual(fit, w, xi, damping, pairs) < 1e-3
    light = np.linalg.norm(fit.step(w, f / fit.m, nothing))
    assert np.linalg.norm(fit.step(w, 100.0 * f, nothing)) < 0.5 * light


def test_pairs_missing_where_the_steps_settle_are_held_at_zero(monkeypatch):
    # the steps settle (every member refused) after the first with its most negative
    # non-edge read as missing: it is held, and the next step halves its z-score, where
    # the same step without the hold leaves it below -3 noise units
    basis, W, fit = _ring_fit(60, 2, 0)
    settles = {"from": 1}
    steps = []

    def settled(before, after, mask):
        steps.append(1)
        return len(steps) >= settles["from"]

    monkeypatch.setattr(_cycle_noise_fit, "_settled", settled)
    found = {"pair": np.zeros(0, dtype=np.intp)}
    calls = []

    def missing_once(scores, mask, threshold, held):
        calls.append(held.size)
        return found["pair"] if len(calls) == 1 else np.zeros(0, dtype=np.intp)

    monkeypatch.setattr(_cycle_noise_fit, "_missing", missing_once)

    def members():
        steps.clear()
        calls.clear()
        found_members = []
        assert noise_scaled_weights(basis, W, lambda m: found_members.append(m) or False) is None
        return [fit.scores(sp.triu(M, 1).tocoo().data).ravel() for M in found_members]

    first = members()[0]
    i = int(np.argmin(first))
    found["pair"] = np.sort([i, (i % 60) * 60 + i // 60])  # both ways
    held = members()
    assert calls == [0, 2] and len(held) == 2  # held once, then none left: refused
    settles["from"] = 2
    found["pair"] = np.zeros(0, dtype=np.intp)
    free = members()
    assert np.array_equal(held[0], first) and np.array_equal(free[0], first)
    unit = np.sqrt(np.square(first).sum() / fit.mask.sum())
    assert first[i] < -3.0 * unit and free[1][i] < -3.0 * unit
    assert abs(held[1][i]) < 0.6 * abs(first[i])


def test_member_missing_more_non_edges_than_edges_is_refitted_without_the_program(
    monkeypatch,
):
    # RandomRing(300, seed 64) perturbed by 1e-3, draw 0, on its true order: the least
    # squares member misses 397 non-edges for 300 edges; the noise-scaled fit shows the
    # ring in two steps, and the program of the family's vectors is not solved
    G = _random_ring(300, 64)
    basis = _basis(graph_bench_input(G, 0))
    W = cycle_weights(basis, np.arange(300))
    assert shown_cycle(basis, W, many_missing=True)[0] == "many missing"

    def no_program(*args):
        raise AssertionError("program solved")

    monkeypatch.setattr(_weighted_cycle, "least_missing_member", no_program)
    found = cycle_in_order(basis, np.arange(300), many_missing=True)
    assert found is not None
    assert _edges(found[0]) == _true_edges(G)


def test_program_member_not_shown_is_refitted_by_the_noise_scaled_fit(monkeypatch):
    # up to MEMBER_MAX_N nodes a program's member that still misses non-edges is
    # followed by the noise-scaled fit (RandomRing(300, seed 64) draw 1: the program
    # leaves 11 missing, the fit none after one step); here the program and the
    # family's refit return the least-squares member, refused
    basis, W, _ = _ring_fit(150, 3, 2)
    assert shown_cycle(basis, W)[0] == "missing"
    monkeypatch.setattr(_weighted_cycle, "noise_weighted_refit", lambda basis, W: None)
    monkeypatch.setattr(_weighted_cycle, "least_missing_member", lambda basis, W: W)
    found = cycle_in_order(basis, np.arange(150))
    assert found is not None
    assert _edges(found[0]) == _true_edges(_random_ring(150, 3))
    assert shown_cycle(basis, found[0])[0] == "shown"


def test_ring_whose_member_misses_more_non_edges_than_edges_is_read():
    # RandomRing(300, seed 64) perturbed by 1e-3, draw 0: the adjacent swaps give the
    # ring's order, whose least-squares member misses 397 non-edges for 300 edges; it
    # was refused there (and the reordered blocks, the same order, were refitted only
    # above MEMBER_MAX_N nodes): the complete graph, warned, in 61 CPU s
    G = _random_ring(300, 64)
    found = weighted_cycle(_basis(graph_bench_input(G, 0)))
    assert found is not None
    assert _edges(found[0]) == _true_edges(G)
