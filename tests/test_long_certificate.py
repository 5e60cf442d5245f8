"""Longer chains of small relaxations for programs over many pairs
(``_long_certificate``, used by ``_template_lp._certified``): they go on only while their
margins fall, prove failures only, and leave every answer as it was."""

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import shuffled as _shuffled

from gsp_householder.graphs import _long_certificate, _template_lp
from gsp_householder.graphs._long_certificate import converging, rounds_allowed
from gsp_householder.graphs.fourier import fourier_basis


def test_the_chain_goes_on_only_over_many_pairs():
    assert rounds_allowed(10**6, False, 6) == 0
    assert rounds_allowed(_long_certificate.LONG_PAIRS - 1, True, 6) == 6
    longer = 6 + _long_certificate.LONG_ROUNDS
    assert rounds_allowed(_long_certificate.LONG_PAIRS, True, 6) == longer
    # every program of a graph of at most 500 nodes is certified as before
    assert 500 * 499 // 2 < _long_certificate.LONG_PAIRS


def test_the_chain_goes_on_only_while_its_margins_halve():
    # margins of the three programs of RGG(1000, 0.055, seed 31) exact after its first
    # seven relaxations, and the next ones
    first = [0.1323, 0.0662, 0.0348, 0.0312, 0.0268, 0.0226, 0.0168]
    assert converging(first, 6) and converging([*first, 0.0114, 0.0100, 0.0082, 0.0039], 6)
    second = [0.2567, 0.2030, 0.0980, 0.0919, 0.0897, 0.0712, 0.0679, 0.0667]
    assert converging(second[:7], 6) and converging(second, 6)
    assert not converging([*second, 0.0654], 6)  # 0.0654 > 0.5 * 0.0980
    assert not converging(first[:6], 6)  # too few margins to tell
    assert converging([1.0, 0.5], 1) and not converging([1.0, 0.51], 1)


def _tree_family():
    from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
    from gsp_householder.graphs._support_search import leverage_ranking, seed_fit

    B = fourier_basis(nx.random_labeled_tree(80, seed=100))
    basis = _read_basis(_shuffled(B.eigenvectors, 0), None, None, None, None)
    P = _anchored_pair_basis(basis)
    return P, seed_fit(P, leverage_ranking(P, keep=0.7, r=8)[1], rounding=1e-9)


@pytest.fixture(scope="module")
def family():
    P, fit = _tree_family()
    assert len(fit.hint[0]) > _template_lp.CUT_ROWS
    _, _, t = _template_lp.valid_in_span(P, fit.Lam, fit.tol, fit.floor, fit.hint, settle=True)
    return P, fit, t


def _proofs(monkeypatch, family, long_pairs, certify_rounds):
    """``(floor, proved, answer, full answer)`` of the program at several floors, with the
    chain's rounds and the pairs above which it goes on set as given."""
    P, fit, t = family
    monkeypatch.setattr(_long_certificate, "LONG_PAIRS", long_pairs)
    monkeypatch.setattr(_template_lp, "CERTIFY_ROUNDS", certify_rounds)
    certified, calls = _template_lp._certified, []

    def spy(*args):
        calls.append(certified(*args))
        return calls[-1]

    monkeypatch.setattr(_template_lp, "_certified", spy)
    out = []
    for floor in (0.5 * t, 0.999 * t, 1.001 * t, 1.01 * t, 1.05 * t, 1.2 * t, 2.0 * t):
        calls.clear()
        answer = _template_lp.valid_in_span(P, fit.Lam, fit.tol, floor, fit.hint)
        full = _template_lp.valid_in_span(P, fit.Lam, fit.tol, floor, fit.hint, settle=True)
        assert len(calls) == 1
        out.append((floor, calls[0], answer, full))
    monkeypatch.setattr(_template_lp, "_certified", certified)
    return out


@pytest.mark.parametrize("certify_rounds", [0, 1, 2])
def test_a_longer_chain_proves_failures_only_and_keeps_every_answer(
    monkeypatch, family, certify_rounds
):
    t = family[2]
    short = _proofs(monkeypatch, family, 10**12, certify_rounds)
    long = _proofs(monkeypatch, family, 0, certify_rounds)
    for (floor, proved, answer, full), (_, proved_long, answer_long, _) in zip(
        short, long, strict=True
    ):
        assert answer[0] == answer_long[0] == full[0] == (floor <= t)
        if proved_long:  # a proof: only of a program below the floor
            assert floor > t and not answer_long[0]
        if proved:  # the longer chain holds the shorter one
            assert proved_long
        if full[0]:  # not proved: the rounds' vertex, unchanged
            np.testing.assert_array_equal(answer[1], answer_long[1])
    if certify_rounds == 0:
        # without later relaxations the chain stops at the first one, long or not
        assert [p for _, p, _, _ in short] == [p for _, p, _, _ in long]


def test_a_longer_chain_proves_what_a_shorter_one_leaves_to_the_rounds(monkeypatch, family):
    # relaxations of one pair row each, one after the first (CERTIFY_ROUNDS = 1): the
    # programs below the floor but near it are left to the cutting-plane rounds; going
    # on while the margins do not rise (PROGRESS = 1) proves them, with the same answers
    monkeypatch.setattr(_template_lp, "CERTIFY_ROWS", 1)
    monkeypatch.setattr(_long_certificate, "PROGRESS", 1.0)
    t = family[2]
    short = _proofs(monkeypatch, family, 10**12, 1)
    long = _proofs(monkeypatch, family, 0, 1)
    assert sum(p for _, p, _, _ in long) > sum(p for _, p, _, _ in short)
    for floor, proved, answer, full in long:
        assert answer[0] == full[0] == (floor <= t)
        assert not proved or floor > t
