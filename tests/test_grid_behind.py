"""The grid read behind the graph the searches found from noisy normalized eigenvectors
(``laplacian_inference._grid_behind``): a relabelled grid that does not fit, a denser
member that fits no better, a denser graph the searches found (the 9 x 9 grid's), and the
searches' warnings about a graph not returned."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled, stored_eigenvectors

from gsp_householder import (
    AmbiguousGraphWarning,
    ConvergenceWarning,
    compare_graphs,
    fourier_basis,
    infer_laplacian,
)
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._laplacian_fit import _residuals
from gsp_householder.graphs.laplacian_inference import _grid_behind


def _grid(a, b):
    G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(a, b))
    return G, sp.csr_array(nx.to_scipy_sparse_array(G, dtype=float))


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, laplacian="normalized", rng=0)
    return result, caught


@pytest.fixture(scope="module")
def perturbed_9x9():
    """The normalized 9 x 9 grid, its Fourier basis, and `_infer` on its eigenvectors
    perturbed by 1e-3 (draw 1) and shuffled (draw 1): one inference read by the tests
    on the grid behind a denser graph and on the searches' warnings."""
    G, _ = _grid(9, 9)
    B = fourier_basis(G, laplacian="normalized")
    return (G, B, *_infer(shuffled(perturbed(B.eigenvectors, 1e-3, 1), 1)))


def test_a_relabelled_grid_that_does_not_fit_gives_way_to_the_grid_read():
    G, A = _grid(6, 6)
    V = shuffled(perturbed(fourier_basis(G, laplacian="normalized").eigenvectors, 1e-3, 0), 0)
    basis = _read_basis(V, None, False, "normalized", None)
    B = _anchored_pair_basis(basis)
    perm = np.random.default_rng(3).permutation(36)
    wrong = sp.csr_array(A[perm][:, perm])  # a grid too, as many edges, not this basis's
    fit = _residuals(basis, wrong)
    grid = _grid_behind(basis, B, [(60, 0.0, None, wrong)], fit[0], 9)
    assert grid is not None and sp.triu(grid, 1).nnz == 60
    better = _residuals(basis, grid)
    assert better[0] < fit[0] / 10 and better[1] < fit[1] / 10
    # the grid itself (and so any twin that fits as well) is not replaced
    assert _grid_behind(basis, B, [(60, 0.0, None, A)], _residuals(basis, A)[0], 9) is None


def test_perturbed_grid_behind_a_denser_member_that_fits_no_better_is_returned():
    # main: a member of 196 edges (F1 0.22), warned, the grid listed: the grid fits as
    # well (rotation residual 1.1 times, residual 1.7 times the member's) with 60 edges;
    # the eigenvectors fourier_basis gave before its repeated eigenspaces took ties by
    # node order (stored)
    G, _ = _grid(6, 6)
    B = fourier_basis(G, laplacian="normalized")
    V = stored_eigenvectors("grid_6x6_normalized", B.laplacian)
    result, caught = _infer(shuffled(perturbed(V, 1e-3, 0), 0))
    assert any(issubclass(w.category, AmbiguousGraphWarning) for w in caught)
    assert result.n_edges == 60
    assert 60 + result.history["normalized_grid_edges"] in result.history["candidate_edges"]
    L = result.laplacian.toarray()
    found = nx.from_numpy_array(((np.abs(L) > 1e-9) & ~np.eye(36, dtype=bool)).astype(float))
    assert nx.is_isomorphic(found, G)  # the grid or a twin, the grid among the candidates
    assert max(compare_graphs(B.laplacian, C)["f1"] for C in result.candidates) == 1.0


def test_perturbed_square_grid_behind_a_denser_graph_is_returned(perturbed_9x9):
    # main: the complete graph (3240 edges, F1 0.085), no grid among the candidates; the
    # grid read from the degrees and spectrum fits better (both residuals) and is sparser
    G, B, result, caught = perturbed_9x9
    assert any(issubclass(w.category, AmbiguousGraphWarning) for w in caught)
    assert result.n_edges == 144
    # the graph the searches found (the complete graph with one BLAS thread, a weighted
    # member of 230 edges with the kernels' threads: the path follows their last bits)
    # is denser and kept among the candidates
    found = 144 + result.history["normalized_grid_edges"]
    assert found > 144
    assert found in result.history["candidate_edges"]
    L = result.laplacian.toarray()
    edges = ((np.abs(L) > 1e-9) & ~np.eye(81, dtype=bool)).astype(float)
    assert nx.is_isomorphic(nx.from_numpy_array(edges), G)  # the grid or a twin
    assert max(compare_graphs(B.laplacian, C)["f1"] for C in result.candidates) == 1.0


def test_searches_warnings_about_a_graph_not_returned_are_kept_in_the_history(perturbed_9x9):
    # main: the complete graph's ConvergenceWarning beside the grid's that replaced it
    _, _, result, caught = perturbed_9x9
    assert result.n_edges == 144 and result.history["normalized_grid_edges"] > 0
    given = {str(w.message) for w in caught}
    kept = result.history.get("searches_warnings", [])
    assert not given & set(kept)
    assert not any(
        "complete graph" in m for m in given if not m.startswith("the eigenvectors are noisy")
    )
    # the grid fits to the noise level: no doubt of that kind about it
    assert result.history["noise_ratio"] <= 5.0
    assert not any(
        issubclass(w.category, ConvergenceWarning) and "noise level (residual" in str(w.message)
        for w in caught
    )
