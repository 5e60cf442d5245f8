"""Normalized grids: the grid read from exact eigenvectors' degrees and spectrum (module
``_normalized_grid``) and the perturbed 3 x 15 grid judged at the pairs' noise level
(module ``_pair_noise_level``)."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import perturbed, shuffled

from gsp_householder import AmbiguousGraphWarning, compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._normalized_grid import grid_sides, normalized_grids
from gsp_householder.graphs._pair_noise_level import pair_noise_level


def _grid(a, b):
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(a, b))
    return G, np.array([d for _, d in G.degree()])


def _misfit(W, V):
    """$\\|NV - V \\operatorname{diag}(V^T N V)\\|_F$ for the normalized Laplacian N of W."""
    d = np.asarray(W.sum(axis=1)).ravel()
    N = np.eye(W.shape[0]) - (W.toarray() / np.sqrt(d)[:, None]) / np.sqrt(d)[None, :]
    NV = N @ V
    return float(np.linalg.norm(NV - V * np.einsum("ij,ij->j", V, NV)))


@pytest.mark.parametrize(("a", "b"), [(2, 2), (3, 15), (4, 12), (7, 7), (10, 11)])
def test_grid_sides_from_degree_counts(a, b):
    _, degrees = _grid(a, b)
    assert grid_sides(degrees) == (a, b)
    assert grid_sides(np.random.default_rng(0).permutation(degrees)) == (a, b)


def test_grid_sides_refuse_other_degrees():
    assert grid_sides(np.array([d for _, d in nx.ladder_graph(6).degree()])) == (2, 6)
    assert grid_sides(np.array([2] * 10)) is None  # a cycle
    _, degrees = _grid(4, 12)
    assert grid_sides(np.r_[degrees, 3]) is None  # one node more
    assert grid_sides(np.where(np.arange(48) == 5, 1, degrees)) is None  # a leaf


@pytest.mark.parametrize(
    ("a", "b", "s"), [(4, 12, 0), (4, 12, 1), (5, 13, 0), (8, 12, 1), (3, 20, 0)]
)
def test_the_grid_is_read_from_exact_normalized_eigenvectors(a, b, s):
    # 5 x 13: eigenvalue 1 is simple, its column its own partner
    G, degrees = _grid(a, b)
    V = shuffled(fourier_basis(G, laplacian="normalized").eigenvectors, s)
    grids = normalized_grids(V, degrees)
    assert grids
    W = grids[0]
    assert nx.is_isomorphic(nx.from_scipy_sparse_array(W), G)  # the grid or a twin
    assert _misfit(W, V) < 1e-9  # it has the eigenvectors


def test_no_grid_is_read_from_another_graph():
    G, degrees = _grid(4, 12)
    V = fourier_basis(G, laplacian="normalized").eigenvectors
    assert normalized_grids(V, _grid(3, 16)[1]) == []  # other sides: no profile
    assert normalized_grids(V, None) == []
    # a grid's degree counts, another graph's eigenvectors: two edges of the grid swapped
    H = G.copy()
    H.remove_edges_from([(0, 1), (46, 47)])
    H.add_edges_from([(0, 47), (1, 46)])
    assert sorted(d for _, d in H.degree()) == sorted(degrees)
    assert (
        normalized_grids(
            fourier_basis(H, laplacian="normalized").eigenvectors,
            np.array([d for _, d in H.degree()]),
        )
        == []
    )


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, laplacian="normalized", rng=0)
    return result, [w for w in caught if issubclass(w.category, AmbiguousGraphWarning)]


@pytest.mark.parametrize("s", [0, 1])
def test_exact_normalized_grid_above_42_nodes_has_the_grid_among_the_candidates(s):
    # main: a weighted member of 50 edges for 80, warned, the grid not a candidate
    G, _ = _grid(4, 12)
    B = fourier_basis(G, laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, s))
    assert caught
    assert result.n_edges == 80
    assert result.history.get("normalized_grid")
    L = result.laplacian.toarray()
    A = (np.abs(L) > 1e-9) & ~np.eye(48, dtype=bool)
    assert nx.is_isomorphic(nx.from_numpy_array(A.astype(float)), G)  # the grid or a twin
    assert max(compare_graphs(B.laplacian, L)["f1"] for L in result.candidates) == 1.0


def test_pair_noise_level_only_behind_an_overstated_search_level():
    history = {"noise": 0.021, "leverage_noise_estimates": [3.4e-4, 3.8e-4, 3.6e-4]}
    assert pair_noise_level(history, 4.5e-4) == pytest.approx(3.6e-4)
    assert pair_noise_level(history, 5.0 * 3.6e-4 * 1.01) == 0.0  # does not fit to it
    assert pair_noise_level({**history, "noise": 3e-4}, 4.5e-4) == 0.0  # the level is fine
    assert pair_noise_level({"noise": 0.021}, 4.5e-4) == 0.0  # no leverage estimate


def test_perturbed_normalized_3x15_grid_is_warned():
    # main: 98 edges for 72 (F1 0.31), a weighted member, the family flag only: its search
    # ended at 0.021, above UNRESOLVABLE_NOISE, its fit at the pairs' 3.6e-4
    G, _ = _grid(3, 15)
    B = fourier_basis(G, laplacian="normalized")
    result, caught = _infer(shuffled(perturbed(B.eigenvectors, 1e-3, 0), 0))
    assert caught
    assert result.history["unit_family_doubt"] == "unequal weights"


@pytest.mark.parametrize("s", [0, 1])
def test_perturbed_normalized_grid_lists_the_grid_behind_a_weighted_member(s):
    # main: 50 edges for 80 (F1 0.77), warned, the grid not among the candidates
    G, _ = _grid(4, 12)
    B = fourier_basis(G, laplacian="normalized")
    result, caught = _infer(shuffled(perturbed(B.eigenvectors, 1e-3, s), s))
    assert caught
    assert result.history["unit_family_doubt"] == "unequal weights"
    assert result.history["normalized_grid"] >= 1
    assert max(compare_graphs(B.laplacian, L)["f1"] for L in result.candidates) == 1.0


def test_perturbed_grid_is_read_with_the_noisy_tolerances():
    G, degrees = _grid(5, 10)
    V = shuffled(perturbed(fourier_basis(G, laplacian="normalized").eigenvectors, 1e-3, 0), 0)
    assert normalized_grids(V, degrees) == []  # not exact
    grids = normalized_grids(V, degrees, noisy=True)
    assert grids
    W = grids[0]
    assert nx.is_isomorphic(nx.from_scipy_sparse_array(W), G)
