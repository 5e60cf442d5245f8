"""Normalized exact families: equal-weight members and the family settling the graph
(modules ``_unit_equal_weight`` and ``laplacian_inference._unit_diagonal_settled``)."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import anchored as _anchored
from _basis_inputs import shuffled

from gsp_householder import AmbiguousGraphWarning, compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import laplacian_inference
from gsp_householder.graphs._unit_diagonal import unit_diagonal_system
from gsp_householder.graphs._unit_equal_weight import equal_weight_unit_members, integer_degrees


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, laplacian="normalized", rng=0)
    return result, [w for w in caught if issubclass(w.category, UserWarning)]


def _edges(W):
    upper = W.tocoo()
    return {(int(i), int(j)) for i, j in zip(upper.row, upper.col, strict=True) if i < j}


def test_integer_degrees():
    G = nx.grid_2d_graph(3, 4)
    u = np.sqrt([d for _, d in G.degree()])
    assert np.array_equal(integer_degrees(u / np.linalg.norm(u)), [d for _, d in G.degree()])
    # a regular graph's smallest integer degrees are not 1 (a perfect matching)
    assert integer_degrees(np.full(6, 1 / np.sqrt(6)))[0] == 2
    # irrational ratios, or degrees above n - 1: none
    assert integer_degrees(np.sqrt([1.0, 2.0, np.pi, 3.0])) is None
    assert integer_degrees(np.sqrt([1.0, 7.0, 1.0, 1.0])) is None


@pytest.mark.parametrize("seed", [1])
def test_the_grid_is_an_equal_weight_member_of_its_normalized_family(seed):
    G = nx.grid_2d_graph(5, 6)
    B = fourier_basis(G, laplacian="normalized")
    V, c, u = _anchored(shuffled(B.eigenvectors, seed))
    members = equal_weight_unit_members(V, c, unit_diagonal_system(V, c), u)
    truth = _edges(nx.to_scipy_sparse_array(G, nodelist=list(G)))
    # the grid and one twin with its eigenvectors (isomorphic, other edges): all of them
    assert len(members) == 2
    assert truth in [_edges(W) for W in members]
    assert all(nx.is_isomorphic(nx.from_scipy_sparse_array(W), G) for W in members)


@pytest.mark.parametrize("seed", [0, 2])
def test_normalized_grids_are_warned_with_the_grid_among_the_candidates(seed):
    # before: 33 edges for 49 (a valid weighted member), silent on these shuffles
    G = nx.grid_2d_graph(5, 6)
    B = fourier_basis(G, laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, seed))
    assert any(issubclass(w.category, AmbiguousGraphWarning) for w in caught)
    assert result.n_edges == 49 and result.residual <= 1e-6
    assert max(compare_graphs(B.laplacian, L)["f1"] for L in result.candidates) == 1.0
    assert 33 in result.history["candidate_edges"]  # the sparser weighted member


def test_a_settled_family_runs_no_search(monkeypatch):
    # Les Misérables (weighted): the family's member of least l1 norm is the graph, and
    # the searches (26-39 CPU s before) do not run
    def no_search(*args):
        raise AssertionError("the searches ran")

    monkeypatch.setattr(laplacian_inference, "_search", no_search)
    B = fourier_basis(nx.les_miserables_graph(), laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, 2))
    assert compare_graphs(B.laplacian, result)["f1"] == 1.0 and not caught
    assert result.family_dimension > 1
    assert "unit_equal_weight" not in result.history  # degrees above n - 1: no program
