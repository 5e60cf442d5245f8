"""Max-margin programs answered by the last small relaxation of their certificate chain
(``_chain_optimum``, used by ``_template_lp._certified`` inside the sizes of a prefix
search): the same answers as the cutting-plane rounds to rounding, over noisy spans
only, only at a relaxation's only optimum, and the search's fit the rounds' bit for
bit."""

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import shuffled as _shuffled

from gsp_householder.graphs import _chain_optimum, _dense_lp, _span_memo, _template_lp
from gsp_householder.graphs._support_search import PrefixSearch, leverage_ranking
from gsp_householder.graphs.fourier import fourier_basis


def _noisy_basis(n):
    """The pair basis of a perturbed cycle of ``n`` nodes with lognormal weights."""
    from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis

    G = nx.cycle_graph(n)
    weights = np.random.default_rng(1).lognormal(0.0, 1.0, n)
    for (u, v), w in zip(G.edges(), weights, strict=True):
        G[u][v]["weight"] = float(w)
    V = fourier_basis(G).eigenvectors
    V = np.linalg.qr(V + 1e-3 * np.random.default_rng(0).standard_normal(V.shape))[0]
    return _anchored_pair_basis(_read_basis(_shuffled(V, 0), None, None, None, None))


def _noisy_fits():
    """Seed fits of a perturbed cycle of 60 nodes with lognormal weights at the noise
    levels of three leverage rankings (families of 20 to 26 directions)."""
    from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
    from gsp_householder.graphs._support_search import leverage_ranking, robust_noise, seed_fit

    G = nx.cycle_graph(60)
    weights = np.random.default_rng(1).lognormal(0.0, 1.0, 60)
    for (u, v), w in zip(G.edges(), weights, strict=True):
        G[u][v]["weight"] = float(w)
    V = fourier_basis(G).eigenvectors
    V = np.linalg.qr(V + 1e-3 * np.random.default_rng(0).standard_normal(V.shape))[0]
    P = _anchored_pair_basis(_read_basis(_shuffled(V, 0), None, None, None, None))
    fits = []
    for keep, r in ((0.7, 8), (0.6, 8), (0.7, 16)):
        trimmed = leverage_ranking(P, keep=keep, r=r)[1]
        fits.append(seed_fit(P, trimmed, noise=robust_noise(P, trimmed)))
    return P, fits


@pytest.fixture(scope="module")
def noisy():
    P, fits = _noisy_fits()
    assert all(fit is not None and fit.Lam.shape[1] > 10 for fit in fits)
    return P, fits


def _answers(monkeypatch, P, fit, floors, shortcut):
    """``valid_in_span`` of the fit's span at each floor (a fresh cache each) and the
    verdicts of the certificate chains, with or without the chain's optimum."""
    certified, verdicts = _template_lp._certified, []

    def spy(*args, **kwargs):
        verdicts.append(certified(*args, **kwargs))
        return verdicts[-1]

    monkeypatch.setattr(_template_lp, "_certified", spy)
    out = []
    token = _chain_optimum.CHAIN_ANSWERS.set(shortcut)
    try:
        for floor in floors:
            cache = {}
            out.append(
                (
                    *_template_lp.valid_in_span(P, fit.Lam, fit.tol, floor, fit.hint, cache=cache),
                    cache,
                )
            )
    finally:
        _chain_optimum.CHAIN_ANSWERS.reset(token)
    monkeypatch.undo()
    return out, verdicts


def test_the_chain_optimum_is_the_rounds_answer(monkeypatch, noisy):
    P, fits = noisy
    settled = 0
    for fit in fits:
        t = _template_lp.valid_in_span(P, fit.Lam, fit.tol, fit.floor, fit.hint)[2]
        floors = [0.5 * t, 0.9 * t, 0.999 * t, 1.001 * t, 1.1 * t, 2.0 * t]
        short, verdicts = _answers(monkeypatch, P, fit, floors, shortcut=True)
        rounds, before = _answers(monkeypatch, P, fit, floors, shortcut=False)
        assert not any(isinstance(v, _chain_optimum.ChainOptimum) for v in before)
        settled += sum(isinstance(v, _chain_optimum.ChainOptimum) for v in verdicts)
        for (ok, lam, margin, cache), (ok0, lam0, margin0, _) in zip(short, rounds, strict=True):
            assert ok == ok0
            if ok:
                np.testing.assert_allclose(lam, lam0, rtol=1e-9, atol=1e-12)
                assert margin == pytest.approx(margin0, rel=1e-9)
                if cache.get(_chain_optimum.ANSWERED):
                    # the later programs of the span start from the relaxation's rows
                    assert cache["rows"].shape == cache["h"].shape and cache["rows"].any()
    # the chain answers most of the programs that hold a valid Laplacian
    assert settled >= 3


def test_no_chain_optimum_over_exact_spans_or_with_a_band(monkeypatch, noisy):
    P, fits = noisy
    fit = fits[0]
    verdicts = []
    certified = _template_lp._certified

    def spy(*args, **kwargs):
        verdicts.append(certified(*args, **kwargs))
        return verdicts[-1]

    monkeypatch.setattr(_template_lp, "_certified", spy)
    token = _chain_optimum.CHAIN_ANSWERS.set(True)
    try:
        # bounds below WARM_MIN_SLACK (exact spans): the rounds decide, as before
        tiny = np.full_like(fit.tol, 0.25 * _template_lp.WARM_MIN_SLACK)
        _template_lp.valid_in_span(P, fit.Lam, tiny, 1e-6, fit.hint)
        I, J = fit.hint
        band = (I[:5], J[:5], np.full(5, 1.0))
        _template_lp.valid_in_span(P, fit.Lam, fit.tol, 0.5 * fit.floor, fit.hint, band=band)
    finally:
        _chain_optimum.CHAIN_ANSWERS.reset(token)
    # outside a search's sizes: the rounds decide
    _template_lp.valid_in_span(P, fit.Lam, fit.tol, 0.5 * fit.floor, fit.hint)
    assert len(verdicts) == 3
    assert not any(isinstance(v, _chain_optimum.ChainOptimum) for v in verdicts)


def test_a_relaxation_with_a_face_of_optima_answers_nothing():
    # maximise x + y on the square [0, 1]^2 cut by x + y <= 1: a face of optima
    cost = np.array([-1.0, -1.0])
    program = _dense_lp.WarmProgram(
        np.array([[1.0, 1.0]]),
        np.array([1.0]),
        np.zeros((0, 2)),
        np.zeros(0),
        np.zeros(2),
        np.ones(2),
    )
    assert program.solve(cost)[0] == _dense_lp.OPTIMAL
    assert _chain_optimum.chain_optimum(program, np.array([0.5, 0.5]), np.array([0])) is False
    # maximise 2x + y: the vertex (1, 0) only
    assert program.solve(np.array([-2.0, -1.0]))[0] == _dense_lp.OPTIMAL
    found = _chain_optimum.chain_optimum(program, np.array([1.0, 0.0]), np.array([3, 1]))
    assert isinstance(found, _chain_optimum.ChainOptimum)
    assert found.mask(5).tolist() == [False, True, False, True, False]


def _searched(monkeypatch, P, noise, scores, shortcut):
    """The fit of a prefix search of the ranking ``scores`` and the number of chain
    answers its sizes took, with or without them (a fresh record of programs)."""
    answers = []
    certified = _template_lp._certified

    def spy(*args, **kwargs):
        verdict = certified(*args, **kwargs)
        answers.append(isinstance(verdict, _chain_optimum.ChainOptimum))
        return verdict

    monkeypatch.setattr(_template_lp, "_certified", spy)
    if not shortcut:
        monkeypatch.setattr(_template_lp, "chain_optimum", lambda *args: False)
    from gsp_householder.graphs._support_search import top_pairs

    c_max = P.n_pairs - max(P.g, 2 * P.n) - 1
    with _span_memo.remembered_spans():
        search = PrefixSearch(P, top_pairs(P, scores, c_max), noise=noise)
        fit = search.run()
    monkeypatch.undo()
    return fit, sum(answers), search.n_evaluations


def test_the_search_returns_the_rounds_fit_bit_for_bit(monkeypatch):
    from gsp_householder.graphs._support_search import robust_noise

    P = _noisy_basis(80)
    answered = 0
    for keep, r in ((0.7, 8),):
        scores, trimmed = leverage_ranking(P, keep=keep, r=r)
        noise = robust_noise(P, trimmed)
        fit, n, evaluations = _searched(monkeypatch, P, noise, scores, shortcut=True)
        fit0, n0, evaluations0 = _searched(monkeypatch, P, noise, scores, shortcut=False)
        answered += n
        assert n0 == 0 and evaluations == evaluations0
        assert (fit is None) == (fit0 is None)
        if fit is not None:
            assert fit.c == fit0.c and fit.chained_gram is None
            assert np.array_equal(fit.lam, fit0.lam) and np.array_equal(fit.Lam, fit0.Lam)
            assert np.array_equal(fit.programs["rows"], fit0.programs["rows"])
    # the sizes of the searches were settled by chain answers
    assert answered >= 2
