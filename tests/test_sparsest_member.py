"""Zeroing a family member's weakest edges: sets of zeros known infeasible are not solved."""

import networkx as nx
import numpy as np
from _basis_inputs import shuffled

from gsp_householder import fourier_basis
from gsp_householder.graphs import _sparsest_member
from gsp_householder.graphs._sparsest_member import InfeasibleZeros, zero_weakest_edges
from gsp_householder.graphs._template_lp import edge_pairs


def test_infeasible_zeros_imply_their_supersets():
    known = InfeasibleZeros(5)
    known.add(np.array([0, 3]), np.array([1, 2]))
    assert known.implied(np.array([2, 1, 4]), np.array([3, 0, 0]))   # pairs in any order
    assert known.implied(np.array([0, 2]), np.array([1, 3]))
    assert not known.implied(np.array([0, 1]), np.array([1, 2]))
    assert not InfeasibleZeros(5).implied(np.array([0]), np.array([1]))


def _family(seed, shuffle):
    from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
    from gsp_householder.graphs._support_search import leverage_ranking, seed_fit
    from gsp_householder.graphs._template_lp import rank_candidates, sparse_vertices

    B = fourier_basis(nx.random_labeled_tree(80, seed=seed))
    basis = _read_basis(shuffled(B.eigenvectors, shuffle), None, None, None, None)
    P = _anchored_pair_basis(basis)
    fit = seed_fit(P, leverage_ranking(P, keep=0.7, r=8)[1], rounding=1e-9)
    assert fit is not None and fit.Lam.shape[1] > 1
    best = rank_candidates(P, sparse_vertices(P, fit, np.random.default_rng(0)), fit)[0]
    return P, fit, best[2]


def test_the_second_half_of_an_infeasible_block_is_not_solved_again(monkeypatch):
    # a family none of whose members holds its two weakest edges both at zero: the
    # block of the two is infeasible, its first half feasible, and the second half
    # with the first asks for the block's zeros again
    P, fit, lam = _family(100, 0)
    I, J = edge_pairs(P, lam, fit.tol)
    order = np.argsort(-P.matrix(lam)[I, J])
    pair = {(int(I[k]), int(J[k])) for k in order[:2]}
    asked = []

    def program(B, Lam, tol, floor, hint, band, cache, settle):
        zeros = frozenset(zip(band[0].tolist(), band[1].tolist(), strict=True))
        asked.append(zeros)
        return (not pair <= zeros), lam, 1.0

    monkeypatch.setattr(_sparsest_member, "valid_in_span", program)
    zero_weakest_edges(P, fit, lam)
    assert len(asked) == len(set(asked))
    assert pair not in [set(z) for z in asked[asked.index(frozenset(pair)) + 1:]]
    # without the record the block's zeros are asked twice, the other steps the same
    first = list(asked)
    asked.clear()
    monkeypatch.setattr(InfeasibleZeros, "implied", lambda self, I, J: False)
    zero_weakest_edges(P, fit, lam)
    assert len(asked) == len(first) + 1 and asked.count(frozenset(pair)) == 2
    assert [z for k, z in enumerate(asked) if z not in asked[:k]] == first


def test_no_program_holds_zeros_found_infeasible(monkeypatch):
    # the bisection over a tree's family, its programs solved: the same steps and
    # members as when every program is solved
    solved, skipped = [], []
    program = _sparsest_member.valid_in_span
    implied = InfeasibleZeros.implied

    def recorded(*args, band, **kwargs):
        out = program(*args, band=band, **kwargs)
        solved.append((frozenset(zip(band[0].tolist(), band[1].tolist(), strict=True)), out[0]))
        return out

    def counted(self, I, J):
        out = implied(self, I, J)
        skipped.append(out)
        return out

    monkeypatch.setattr(_sparsest_member, "valid_in_span", recorded)
    monkeypatch.setattr(InfeasibleZeros, "implied", counted)
    P, fit, lam = _family(100, 0)
    found = zero_weakest_edges(P, fit, lam)
    for k, (zeros, _) in enumerate(solved):
        assert not any(ok is False and earlier <= zeros for earlier, ok in solved[:k])
    # every step counts against the budget, solved or not
    assert len(skipped) == len(solved) + sum(skipped) <= _sparsest_member.MAX_PROGRAMS

    # the same steps and members as solving every program
    solved_all = []
    monkeypatch.setattr(InfeasibleZeros, "implied", lambda self, I, J: False)

    def recorded_all(*args, band, **kwargs):
        out = program(*args, band=band, **kwargs)
        solved_all.append((frozenset(zip(band[0].tolist(), band[1].tolist(), strict=True)), out[0]))
        return out

    monkeypatch.setattr(_sparsest_member, "valid_in_span", recorded_all)
    P, fit, lam = _family(100, 0)
    found_all = zero_weakest_edges(P, fit, lam)
    repeats = [any(not ok0 and z0 <= zeros for z0, ok0 in solved_all[:k])
               for k, (zeros, _) in enumerate(solved_all)]
    assert [step for step, again in zip(solved_all, repeats, strict=True) if not again] == solved
    assert not any(ok for (_, ok), again in zip(solved_all, repeats, strict=True) if again)
    assert len(found) == len(found_all)
    for a, b in zip(found, found_all, strict=True):
        assert np.count_nonzero(P.matrix(a) < 0) == np.count_nonzero(P.matrix(b) < 0)
