"""A spanning tree searched inside the kept pairs' family, above ``LADDER_MAX_N`` nodes."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp
from _basis_inputs import audit_input

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._family_tree import family_search, large_basis_tree
from gsp_householder.graphs._tree_search import DONE_MISFIT


def _tree_and_span(extra: int, truth: bool):
    """A power-law tree of 120 nodes, its exact eigenvectors' free columns ``Vs``
    (orthonormal), its unit weights and an orthonormal span of ``extra`` random
    directions of eigenvalues, with the tree's own eigenvalues if ``truth``."""
    G = nx.convert_node_labels_to_integers(nx.random_powerlaw_tree(120, seed=3, tries=10000))
    V = fourier_basis(G).eigenvectors
    Vs = V[:, np.abs(V.sum(axis=0)) < 1e-6]  # without the constant column
    A = sp.csr_array(nx.to_scipy_sparse_array(G, dtype=float))
    L = sp.diags_array(np.asarray(A.sum(axis=1)).ravel()) - A
    lam = np.einsum("ik,ik->k", Vs, L @ Vs)
    rng = np.random.default_rng(1)
    columns = [lam] if truth else []
    Q, _ = np.linalg.qr(
        np.column_stack(columns + [rng.standard_normal(lam.size) for _ in range(extra)])
    )
    return Vs, A, Q


def _edges(T):
    return set(zip(*sp.triu(sp.csr_array(T), 1).nonzero(), strict=True))


def test_a_search_held_to_a_span_that_holds_the_tree_finds_it():
    Vs, A, Q = _tree_and_span(60, truth=True)
    T, value = family_search(Vs, Q, np.random.default_rng(0))
    assert value < DONE_MISFIT
    assert _edges(T) == _edges(A)


def test_a_search_held_to_a_span_without_the_tree_does_not_end_below_the_bound():
    Vs, _, Q = _tree_and_span(61, truth=False)
    _, value = family_search(Vs, Q, np.random.default_rng(0))
    assert value > DONE_MISFIT


def test_not_asked_up_to_ladder_max_n_nodes_nor_on_ordered_bases():
    class Basis:
        n, G = 500, None

    calls = []

    def ranking(key):
        calls.append(key)
        return None, None, 1e-3

    basis = {"kind": "combinatorial", "ordered": False, "V": None}
    history = {"noise_estimates": [1e-3]}
    assert large_basis_tree(Basis(), basis, [(8, 0.7, 3)], ranking, (1e-9, 0.05), history) is None
    Basis.n = 600
    ordered = dict(basis, ordered=True)
    assert large_basis_tree(Basis(), ordered, [(8, 0.7, 3)], ranking, (1e-9, 0.05), history) is None
    normalized = dict(basis, kind="normalized")
    assert (
        large_basis_tree(Basis(), normalized, [(8, 0.7, 3)], ranking, (1e-9, 0.05), history) is None
    )
    assert not calls


def test_a_perturbed_power_law_tree_of_600_nodes_is_answered_by_the_tree_before_the_searches():
    G = nx.convert_node_labels_to_integers(nx.random_powerlaw_tree(600, seed=69, tries=100000))
    B = fourier_basis(G)
    V = audit_input(B.eigenvectors, 1e-3, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, rng=0)
    assert compare_graphs(B.laplacian, result.laplacian)["f1"] == 1.0
    assert not caught
    # read before the noisy ladder's searches, at the noise level
    assert result.history["fitting_tree"] <= 5.0
    assert "noisy_graphs" not in result.history
