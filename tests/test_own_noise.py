"""The noise a graph's non-edges show in perturbed eigenvectors, and the residual it predicts."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input

from gsp_householder import fourier_basis
from gsp_householder.graphs._own_noise import non_edge_noise, own_noise
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT


def _case(G, draw=0):
    """The eigenvectors of ``G`` perturbed by 1e-3 and shuffled (as the audits draw
    them), the inference's basis dictionary and the graph's weights."""
    B = fourier_basis(nx.convert_node_labels_to_integers(G))
    V = audit_input(B.eigenvectors, 1e-3, draw)
    W = -sp.csr_array(B.laplacian).tolil()
    W.setdiag(0.0)
    basis = {"V": V, "kind": "combinatorial", "scale": None, "ordered": False}
    return V, basis, sp.csr_array(W)


def _expected_sigma(n: int) -> float:
    """The standard deviation of the rotation's entries for a basis perturbed by 1e-3 of
    its Frobenius norm: entries of $10^{-3} / \\sqrt n$, of which the rotation is the
    antisymmetric part ($1 / \\sqrt 2$ of it)."""
    return 1e-3 / np.sqrt(2.0 * n)


@pytest.mark.parametrize(
    "G",
    [nx.star_graph(80), nx.cycle_graph(30), nx.karate_club_graph(), nx.grid_2d_graph(5, 6)],
    ids=["star80", "cycle30", "karate", "grid5x6"],
)
def test_the_graph_behind_the_eigenvectors_leaves_what_its_non_edges_predict(G):
    V, basis, W = _case(G)
    sigma, ratio = own_noise(basis, W)
    # the non-edges read the size of the rotation (a median over hundreds of pairs)
    # (a median over 400 to 3200 pairs: within 4 standard errors of the smallest)
    assert sigma == pytest.approx(_expected_sigma(V.shape[0]), rel=0.25)
    # and the whole residual is what that rotation leaves, whatever the degrees (the
    # star's centre carries most of it)
    assert 0.8 < ratio < 1.25


def test_exact_eigenvectors_show_no_noise():
    L = np.array([[2.0, -1, -1, 0], [-1, 2, 0, -1], [-1, 0, 1, 0], [0, -1, 0, 1]])
    V = np.linalg.eigh(L)[1]
    assert non_edge_noise(V, L) < 1e-12
    assert non_edge_noise(V, sp.csr_array(L)) < 1e-12


def test_a_star_with_a_leaf_moved_leaves_more_than_its_non_edges_predict():
    _, basis, W = _case(nx.star_graph(80))
    moved = W.tolil()
    moved[0, 80] = moved[80, 0] = 0.0
    moved[1, 80] = moved[80, 1] = 1.0
    _, ratio = own_noise(basis, sp.csr_array(moved))
    assert ratio > RESIDUAL_CONSISTENT


def test_a_spanning_tree_of_a_graph_with_cycles_shows_a_noise_far_above_the_graphs():
    _, basis, W = _case(nx.karate_club_graph())
    bfs = nx.bfs_tree(nx.from_scipy_sparse_array(W), 0).to_undirected()
    tree = sp.csr_array(nx.to_scipy_sparse_array(bfs, dtype=float))
    sigma_tree, _ = own_noise(basis, tree)
    sigma, _ = own_noise(basis, W)
    assert sigma_tree > RESIDUAL_CONSISTENT * sigma
