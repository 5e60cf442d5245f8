"""Band programs refused by a bound on their margin (``_dense_lp.bound_exceeded``,
``_template_lp.SCREEN_MARGIN``) before their presolved solves."""

import networkx as nx
import numpy as np
import pytest

from gsp_householder import fourier_basis
from gsp_householder.graphs import _dense_lp
from gsp_householder.graphs._template_lp import SCREEN_MARGIN, edge_pairs, valid_in_span


def _margin_program(d=6):
    """Maximise ``t`` subject to ``t <= x_k`` and ``sum(x) = d``: the maximum is
    ``t = 1`` (all ``x_k = 1``), the minimum of ``-t`` is -1."""
    A = np.hstack([-np.eye(d), np.ones((d, 1))])
    b = np.zeros(d)
    A_eq = np.append(np.ones(d), 0.0)[None, :]
    b_eq = np.array([float(d)])
    lower = np.full(d + 1, -np.inf)
    upper = np.append(np.full(d, np.inf), 5.0)
    return np.append(np.zeros(d), -1.0), A, b, A_eq, b_eq, lower, upper


def test_bound_exceeded_proves_a_minimum_above_the_bound_only():
    if not _dense_lp.available():
        pytest.skip("the HiGHS bindings are not available")
    program = _margin_program()
    assert _dense_lp.solve(*program)[1][-1] == pytest.approx(1.0)
    assert _dense_lp.bound_exceeded(*program, -2.0)          # min -1 > -2
    assert not _dense_lp.bound_exceeded(*program, -0.5)      # min -1 < -0.5


def _tree_family():
    from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
    from gsp_householder.graphs._support_search import leverage_ranking, seed_fit

    B = fourier_basis(nx.random_labeled_tree(80, seed=100))
    rng = np.random.default_rng(0)
    V = B.eigenvectors[:, rng.permutation(80)] * rng.choice([-1.0, 1.0], 80)
    basis = _read_basis(V, None, None, None, None)
    P = _anchored_pair_basis(basis)
    return P, seed_fit(P, leverage_ranking(P, keep=0.7, r=8)[1], rounding=1e-9)


def _bands(P, fit):
    """Bands on the weakest edges of the family's max-margin member: all, half, a
    quarter, one."""
    I, J = edge_pairs(P, fit.lam, fit.tol)
    order = np.argsort(-P.matrix(fit.lam)[I, J])
    for k in (len(order), len(order) // 2, len(order) // 4, 1):
        bi, bj = I[order[:k]], J[order[:k]]
        yield bi, bj, fit.tol[bi] + fit.tol[bj]


def test_a_band_program_proven_below_the_floor_is_refused_before_any_presolved_solve(
        monkeypatch):
    P, fit = _tree_family()
    band = next(_bands(P, fit))
    asked, solves = [], []
    monkeypatch.setattr(_dense_lp, "bound_exceeded", lambda *a: asked.append(a[-1]) or True)
    solve = _dense_lp.solve
    monkeypatch.setattr(_dense_lp, "solve", lambda *a, **k: solves.append(1) or solve(*a, **k))
    assert valid_in_span(P, fit.Lam, fit.tol, fit.floor, fit.hint, band=band,
                         cache=dict(fit.programs)) == (False, None, -np.inf)
    assert asked == [SCREEN_MARGIN - fit.floor] and solves == []
    # programs that fill their cache for later ones (``settle``) are solved as before
    asked.clear()
    valid_in_span(P, fit.Lam, fit.tol, fit.floor, fit.hint, band=band,
                  cache=dict(fit.programs), settle=True)
    assert asked == [] and solves


def test_band_programs_answer_as_without_the_screen(monkeypatch):
    """The screen refuses only programs whose margin is far below the floor: every band
    of the tree family gets the same answer with it and without it."""
    P, fit = _tree_family()
    with_screen = [valid_in_span(P, fit.Lam, fit.tol, fit.floor, fit.hint, band=band,
                                 cache=dict(fit.programs)) for band in _bands(P, fit)]
    monkeypatch.setattr(_dense_lp, "bound_exceeded", lambda *a: False)
    without = [valid_in_span(P, fit.Lam, fit.tol, fit.floor, fit.hint, band=band,
                             cache=dict(fit.programs)) for band in _bands(P, fit)]
    assert [r[0] for r in with_screen] == [r[0] for r in without]
    assert False in [r[0] for r in without] and True in [r[0] for r in without]
    for a, b in zip(with_screen, without, strict=True):
        if a[0]:
            np.testing.assert_allclose(a[1], b[1], atol=1e-9 * np.abs(b[1]).max())
