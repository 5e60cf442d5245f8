"""A cycle unfolded to the paths whose quadratic $4L - L^2$ it is
(``_cycle_unfolding``), and the path returned in place of such a cycle where the tree
search stalls (``_fitting_tree.tree_for_regular``): perturbed paths of 8 nodes, draw 6,
and 9 nodes, draw 10, gave that cycle with no warning."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input
from test_regular_tree import _infer

from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs import _basis_input, fourier_basis, infer_laplacian
from gsp_householder.graphs._cycle_unfolding import (
    cycle_order,
    path_at_own_noise,
    unfolded_paths,
)
from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT


def _edges(L):
    upper = sp.triu(sp.csr_array(L), 1).tocoo()
    keep = np.abs(upper.data) > 1e-8 * np.abs(upper.data).max()
    return {(int(i), int(j)) for i, j in zip(upper.row[keep], upper.col[keep], strict=True)}


def _laplacian(W):
    A = sp.csr_array(W).toarray()
    return np.diag(A.sum(axis=1)) - A


def _exact_misfit(L, U):
    """Off-diagonal of $U^T L U$ relative to $\\|L\\|_F$."""
    M = U.T @ L @ U
    return np.linalg.norm(M - np.diag(np.diag(M))) / np.linalg.norm(L)


def _folded(n, seed):
    """The cycle $4L - L^2$ of a path on the nodes in a random order, and that path."""
    nodes = np.random.default_rng(seed).permutation(n)
    P = nx.path_graph(nodes.tolist())
    L = nx.laplacian_matrix(P, nodelist=range(n)).toarray().astype(float)
    C = L @ L - 4.0 * L
    np.fill_diagonal(C, 0.0)
    return sp.csr_array(C), {tuple(sorted(e)) for e in P.edges()}


@pytest.mark.parametrize("n", [4, 5, 8, 9, 30])
def test_the_quadratic_of_a_path_is_a_cycle_whose_unfoldings_hold_it(n):
    C, path = _folded(n, seed=n)
    order = cycle_order(C)
    assert order is not None and sorted(order.tolist()) == list(range(n))
    paths = unfolded_paths(C)
    # one path per edge of the cycle read as its end edge (its two ends give one path)
    assert len(paths) == n
    assert path in [_edges(T) for T in paths]
    Lc = np.diag(sp.csr_array(C).sum(axis=1)) - C.toarray()
    for T in paths:
        L = _laplacian(T)
        assert nx.is_connected(nx.from_scipy_sparse_array(T)) and T.nnz == 2 * (n - 1)
        # every one of them has that cycle as its quadratic, exactly
        np.testing.assert_array_equal(4.0 * L - L @ L, Lc)


def test_a_graph_that_is_not_one_cycle_has_no_unfolding():
    two_triangles = nx.to_scipy_sparse_array(
        nx.disjoint_union(nx.cycle_graph(3), nx.cycle_graph(3))
    )
    assert cycle_order(two_triangles) is None and unfolded_paths(two_triangles) == []
    assert cycle_order(nx.to_scipy_sparse_array(nx.path_graph(6))) is None
    assert cycle_order(nx.to_scipy_sparse_array(nx.cycle_graph(3))) is None


def _exact_tree_warned_truth_listed(G, U, result, caught):
    """The spanning tree answered, after checking that it has the exact eigenvectors
    ``U``, that an `AmbiguousGraphWarning` is among the warnings' categories ``caught``
    and that the truth ``G`` is the answer or among the candidates."""
    n = G.number_of_nodes()
    edges = _edges(result.laplacian)
    tree = nx.Graph(list(edges))
    assert len(edges) == n - 1 and tree.number_of_nodes() == n and nx.is_connected(tree)
    assert _exact_misfit(_laplacian(nx.to_scipy_sparse_array(tree, nodelist=range(n))), U) < 1e-12
    assert AmbiguousGraphWarning in caught
    truth = {tuple(sorted(e)) for e in G.edges()}
    assert truth == edges or truth in [_edges(L) for L in result.candidates]
    return tree


@pytest.mark.parametrize(("n", "draw"), [(8, 6), (9, 10), (8, 3), (9, 11)])
def test_a_perturbed_path_whose_tree_search_stalls_gives_a_path_warned(n, draw):
    G = nx.path_graph(n)
    U = fourier_basis(G).eigenvectors
    result, caught = _infer(graph_bench_input(G, draw))
    # a path on all n nodes (the truth or a DCT twin), with the exact eigenvectors
    tree = _exact_tree_warned_truth_listed(G, U, result, caught)
    assert max(d for _, d in tree.degree()) == 2
    assert result.history["regular_tree_edges"] == 1


@pytest.mark.parametrize(("n", "draw"), [(7, 3), (9, 4), (10, 2), (10, 4)])
def test_a_perturbed_cycle_does_not_unfold(n, draw):
    G = nx.cycle_graph(n)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = infer_laplacian(graph_bench_input(G, draw), rng=0)
    assert _edges(result.laplacian) == {tuple(sorted(e)) for e in G.edges()}
    assert "regular_tree_edges" not in result.history


@pytest.mark.parametrize(("n", "draw"), [(10, 4), (10, 7)])
def test_a_spanning_tree_reached_by_one_program_is_not_warned_as_maybe_not_sparsest(n, draw):
    # the eigenvalue programs behind a cycle of 10 edges reach the path (9 edges) once:
    # no connected graph is sparser than a spanning tree, so no "still sparser graph"
    G = nx.path_graph(n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(graph_bench_input(G, draw), rng=0)
    assert result.history["extreme_members"] == (n, n - 1)
    assert "extreme_members_unconfirmed" not in result.history
    assert not any("a still sparser graph" in str(w.message) for w in caught)
    assert AmbiguousGraphWarning in [w.category for w in caught]


@pytest.mark.parametrize(("n", "draw"), [(11, 8), (11, 11), (14, 1)])
def test_a_cycle_found_at_a_noise_level_gives_the_path_it_unfolds_to_warned(n, draw):
    # the searches end at the cycle 4L - L^2 (n edges, equal weights), which fits the
    # eigenvectors at their noise; a path it unfolds to fits them at its own noise too
    G = nx.path_graph(n)
    U = fourier_basis(G).eigenvectors
    result, caught = _infer(graph_bench_input(G, draw))
    _exact_tree_warned_truth_listed(G, U, result, caught)
    assert result.history["unfolded_path_edges"] == 1


@pytest.mark.parametrize("draw", [0, 1])
def test_an_exact_cycle_found_in_place_of_a_path_gives_the_path_it_unfolds_to_warned(draw):
    # exact eigenvectors of a path of 100 nodes (a simple spectrum: the basis is fixed
    # but for signs) end the searches at the cycle 4L - L^2 (100 edges, family of
    # dimension 50); a path it unfolds to fits them to rounding too, and is returned
    G = nx.path_graph(100)
    U = fourier_basis(G).eigenvectors
    rng = np.random.default_rng(draw)
    result, caught = _infer(U[:, rng.permutation(100)] * rng.choice([-1.0, 1.0], 100))
    _exact_tree_warned_truth_listed(G, U, result, caught)
    assert result.history["unfolded_path_edges"] == 1
    assert 100 in result.history["candidate_edges"]


@pytest.mark.parametrize("n", [6, 9, 12, 17, 24])
def test_a_perturbed_cycle_unfolds_to_no_path_that_fits_at_its_own_noise(n):
    # every unfolded path of the true cycle leaves 2 to 17 times what its own non-edges
    # predict or shows on them 58 times the noise the cycle's show, or more: it fails the
    # test by a factor of 11.8 or more (cycles of 5 to 30 nodes, draws 0-3)
    G = nx.cycle_graph(n)
    basis = _basis_input._read_basis(graph_bench_input(G, n % 4), None, None, None, None)
    W = sp.csr_array(nx.to_scipy_sparse_array(G, dtype=float))
    sigma = own_noise(basis, W)[0]
    for P in unfolded_paths(W):
        path_sigma, ratio = own_noise(basis, P)
        assert max(ratio, path_sigma / sigma) > 2 * RESIDUAL_CONSISTENT
    assert path_at_own_noise(basis, W) is None
