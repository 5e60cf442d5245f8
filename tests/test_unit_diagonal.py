"""Normalized Laplacians: the unit diagonal pins the eigenvalues (module ``_unit_diagonal``)."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import perturbed, shuffled

from gsp_householder import ConvergenceWarning, compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import _unit_diagonal, laplacian_inference
from gsp_householder.graphs._basis_input import _zero_column
from gsp_householder.graphs._unit_diagonal import (
    UnitDiagonal,
    unit_diagonal_member,
    unit_diagonal_misfit,
    unit_diagonal_pattern_dimension,
    unit_diagonal_system,
)


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, laplacian="normalized", rng=0)
    return result, [w for w in caught if issubclass(w.category, UserWarning)]


def _system(V):
    c, _ = _zero_column(V, "normalized")
    return unit_diagonal_system(V, c)


def _rgg(n, radius, seed):
    G = nx.random_geometric_graph(n, radius, seed=seed)
    return G.subgraph(max(nx.connected_components(G), key=len)).copy()


def test_exact_normalized_eigenvectors_satisfy_the_unit_diagonal():
    B = fourier_basis(nx.florentine_families_graph(), laplacian="normalized")
    system = _system(shuffled(B.eigenvectors, 2))
    assert system.exact and system.family_dimension == 1
    # a perturbed basis is no normalized Laplacian's: the system's misfit is the noise's
    assert not _system(perturbed(shuffled(B.eigenvectors, 2), 1e-3, 0)).exact
    # nor is a random orthogonal basis with a column of one sign
    rng = np.random.default_rng(0)
    Q = np.linalg.qr(np.c_[rng.uniform(1, 2, 15), rng.standard_normal((15, 14))])[0]
    assert not _system(Q).exact


def test_the_member_of_a_unique_family_is_the_graph():
    B = fourier_basis(nx.florentine_families_graph(), laplacian="normalized")
    V = shuffled(B.eigenvectors, 2)
    c, u = _zero_column(V, "normalized")
    V = V * np.sign(V[:, c].sum())          # the zero-eigenvalue column positive
    V[:, c] = u
    W = unit_diagonal_member(V, c, unit_diagonal_system(V, c), u)
    L = B.laplacian.toarray()
    assert W is not None
    assert np.array_equal(W.toarray() > 0, (L < 0) & ~np.eye(15, dtype=bool))   # 20 edges


def test_the_family_entries_are_formed_once(monkeypatch):
    # the member and the zero pattern's dimension read the same k products of n x n
    B = fourier_basis(_rgg(80, 0.25, 4), laplacian="normalized")
    V = shuffled(B.eigenvectors, 1)
    c, u = _zero_column(V, "normalized")
    V = V * np.sign(V[:, c].sum())
    V[:, c] = u
    system = unit_diagonal_system(V, c)
    formed = []
    form = _unit_diagonal._formed_member_entries
    monkeypatch.setattr(_unit_diagonal, "_formed_member_entries",
                        lambda *args: formed.append(1) or form(*args))
    W = unit_diagonal_member(V, c, system, u)
    assert W is not None and system.family_dimension > 1
    assert unit_diagonal_pattern_dimension(V, c, system, W) >= 1
    assert len(formed) == 1


@pytest.mark.parametrize("seed", range(6))
def test_exact_florentine_normalized_eigenvectors_give_the_graph(seed):
    # before: shuffle seed 2 gave 43 edges for 20 (F1 0.254) with no warning, other
    # seeds the complete graph or other answers (the search depends on the column order)
    B = fourier_basis(nx.florentine_families_graph(), laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, seed))
    assert compare_graphs(B.laplacian, result)["f1"] == 1.0
    assert result.history["unit_diagonal_graph"] == 20
    assert result.family_dimension == 1 and not caught


@pytest.mark.parametrize(("make", "seed"), [
    (lambda: _rgg(80, 0.25, 4), 1),          # the complete graph, warned, before
    (nx.davis_southern_women_graph, 0),      # the complete graph (496 edges), warned
])
def test_exact_normalized_families_give_a_member_that_fits(make, seed):
    B = fourier_basis(make(), laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, seed))
    # a graph of the family of normalized Laplacians with these eigenvectors (flagged by
    # its dimension), or a warning
    assert result.residual <= 1e-6 or caught
    assert result.family_dimension > 1 or caught
    assert compare_graphs(B.laplacian, result)["f1"] >= 0.98 or caught


def test_a_graph_that_does_not_fit_exact_normalized_eigenvectors_is_warned(monkeypatch):
    # without the family's member, the searches give the Florentine families' shuffle 2
    # a graph of 43 edges that does not fit (residual 0.15): warned now
    monkeypatch.setattr(laplacian_inference, "unit_diagonal_member", lambda *a: None)
    B = fourier_basis(nx.florentine_families_graph(), laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, 2))
    assert result.residual <= 1e-6 or any(issubclass(w.category, ConvergenceWarning)
                                          for w in caught)


@pytest.mark.parametrize(("misfit", "residual", "history", "expected"), [
    (1e-16, 0.15, {}, True),
    (1e-16, 1e-12, {}, False),                         # fits
    (1e-5, 0.15, {}, False),                           # noisy eigenvectors
    (1e-16, 0.15, {"exact_search_misfit": 0.15}, False),   # already warned
])
def test_unit_diagonal_misfit_conditions(misfit, residual, history, expected):
    system = UnitDiagonal(misfit, np.zeros((1, 4)))
    assert unit_diagonal_misfit(system, residual, 10, 45, history, 1e-6) is expected
    assert ("unit_diagonal_misfit" in history) is expected
    assert unit_diagonal_misfit(system, 0.15, 45, 45, {}, 1e-6) is False   # complete
    assert unit_diagonal_misfit(None, 0.15, 10, 45, {}, 1e-6) is False


def test_the_truth_of_a_family_is_not_said_undetermined():
    # random_geometric_graph(60, 0.3, seed=1), normalized, exact shuffle 0: the family's
    # member is the graph (380 edges; the searches gave 668, F1 0.29, warned); its zero
    # pattern leaves 3 directions of Laplacians, 1 of normalized ones: not warned of
    B = fourier_basis(_rgg(60, 0.3, 1), laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, 0))
    assert result.residual <= 1e-6 or caught
    if compare_graphs(B.laplacian, result)["f1"] == 1.0:
        assert result.history.get("own_family_dimension", 1) == 1
        assert not any("simple spectrum" in str(w.message) for w in caught)
    else:
        assert caught
