"""A regular graph's quadratic family: members sparser than the graph, without programs."""

from __future__ import annotations

import copy

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed as _perturbed
from _basis_inputs import shuffled as _shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import _basis_search
from gsp_householder.graphs import _regular_candidates as rc
from gsp_householder.graphs._quadratic_family import pair_points, sparser_member_possible


def test_pair_points_of_the_petersen_graph():
    # (W_ij, (L^2)_ij): edges at (1, -6) (no triangle), the other pairs at (0, 1) (one
    # common neighbour each); scaled to (1, -1) and (0, 1/6). Two points, no polygon.
    A = nx.to_scipy_sparse_array(nx.petersen_graph())
    points, counts, n_pairs = pair_points(A)
    assert n_pairs == 45
    assert {tuple(p): c for p, c in zip(np.round(points, 12), counts, strict=True)} == {
        (0.0, round(1.0 / 6.0, 9)): 30, (1.0, -1.0): 15}
    assert sparser_member_possible(A, 15)


def test_sparser_members_of_the_quadratic_family():
    cubic = nx.random_regular_graph(3, 60, seed=7)
    A = nx.to_scipy_sparse_array(cubic)
    # the other members: the distance-2 graph (180 edges) and the pairs at distance
    # 3 or more (1500 edges), both denser
    assert not sparser_member_possible(A, 90)
    # the complement's family holds the cubic graph
    assert sparser_member_possible(nx.to_scipy_sparse_array(nx.complement(cubic)), 1680)
    # a cycle's distance-2 graph has as many edges (two cycles here: disconnected,
    # which only the programs' floor would exclude): no proof
    W = sp.csr_array(nx.to_scipy_sparse_array(nx.cycle_graph(12)) * 2.0)
    assert sparser_member_possible(W, 12)
    # an odd cycle's distance-2 graph is a twin cycle
    assert sparser_member_possible(nx.to_scipy_sparse_array(nx.cycle_graph(13)), 13)


def _captured_sparser_regular(monkeypatch, V):
    """The arguments of the first call of ``_sparser_regular`` of an inference on ``V``,
    with a copy of its generator."""
    calls = []
    original = _basis_search._sparser_regular

    def capture(B, basis, found, noisy, rng):
        calls.append((B, basis, found, noisy, copy.deepcopy(rng)))
        return original(B, basis, found, noisy, rng)

    monkeypatch.setattr(_basis_search, "_sparser_regular", capture)
    res = infer_laplacian(V, rng=0)
    monkeypatch.undo()
    return res, calls[0]


def _assert_skip_is_the_search(monkeypatch, args, forbidden, proof):
    """``_sparser_regular`` finds nothing without calling ``forbidden``, and leaves the
    generator as the search does when the ``proof`` is switched off."""
    P, basis, found, noisy, rng = args
    skipped, solved = copy.deepcopy(rng), copy.deepcopy(rng)
    with monkeypatch.context() as m:
        def refuse(*a, **k):
            raise AssertionError(f"{forbidden} was called")
        m.setattr(rc, forbidden, refuse)
        assert rc._sparser_regular(P, basis, found, noisy, skipped) == []
    with monkeypatch.context() as m:
        m.setattr(rc, proof, lambda *a: False)
        assert rc._sparser_regular(P, basis, found, noisy, solved) == []
    assert skipped.random() == solved.random()


@pytest.mark.parametrize(("d", "n", "seed"), [(6, 80, 2), (4, 70, 99), (8, 96, 87)])
def test_regular_graph_without_sparser_member_solves_no_program(monkeypatch, d, n, seed):
    # exact eigenvectors of a regular graph whose family is its quadratic family: the
    # pairs' points prove that no member is as sparse, and the programs (which find
    # none) are not solved; the generator is left as they would leave it
    B = fourier_basis(nx.random_regular_graph(d, n, seed=seed))
    res, (P, basis, found, noisy, rng) = _captured_sparser_regular(
        monkeypatch, _shuffled(B.eigenvectors, seed))
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert not noisy and found[0] == d * n // 2

    _assert_skip_is_the_search(monkeypatch, (P, basis, found, False, rng),
                               forbidden="constant_diagonal_fit",
                               proof="_no_sparser_quadratic_member")


def test_distance_two_graph_still_searched(monkeypatch):
    # the distance-2 graph of a girth-5 cubic graph is not the family's quadratic
    # family (the cubic graph's is): the programs run and find the cubic graph
    B = fourier_basis(nx.random_regular_graph(3, 60, seed=7))
    res, (P, _, found, _, rng) = _captured_sparser_regular(
        monkeypatch, _shuffled(B.eigenvectors, 5))
    assert found[0] == 178
    assert not rc._no_sparser_quadratic_member(P, found, copy.deepcopy(rng))
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0


@pytest.mark.parametrize(("d", "n", "seed"), [(6, 80, 2), (4, 70, 99), (8, 96, 87)])
def test_perturbed_regular_graph_family_not_searched(monkeypatch, d, n, seed):
    # eigenvectors perturbed by 1e-3: the family's near-null space is the graph's
    # quadratic family, which holds no sparser member; neither it nor its smallest
    # directions (which find none) are searched, and the generator draws are made
    B = fourier_basis(nx.random_regular_graph(d, n, seed=seed))
    V = _shuffled(_perturbed(B.eigenvectors, 1e-3, seed), seed)
    res, (P, basis, found, noisy, rng) = _captured_sparser_regular(monkeypatch, V)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert noisy and rc._noisy_quadratic_member_only(P, basis, found)

    _assert_skip_is_the_search(monkeypatch, (P, basis, found, True, rng),
                               forbidden="_sparse_members",
                               proof="_noisy_quadratic_member_only")


def test_perturbed_distance_two_graph_is_not_a_quadratic_family():
    # the distance-2 graph of a cubic graph found from perturbed eigenvectors: its
    # square is far from a constant diagonal (690 times the noise level)
    from gsp_householder.graphs._quadratic_family import noisy_quadratic_family

    B = fourier_basis(nx.random_regular_graph(3, 100, seed=5))
    V = _shuffled(_perturbed(B.eigenvectors, 1e-3, 5), 5)
    calls = []
    original = _basis_search._sparser_regular

    def capture(P, basis, found, noisy, rng):
        calls.append((P, found))
        return original(P, basis, found, noisy, rng)

    _basis_search._sparser_regular = capture
    try:
        res = infer_laplacian(V, rng=0)
    finally:
        _basis_search._sparser_regular = original
    P, found = calls[0]
    assert found[0] == 290
    assert not noisy_quadratic_family(P, found[2])
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
