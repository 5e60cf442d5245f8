"""Graphs whose eigenvalues conjugated in a quadratic field give another graph."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._conjugate_twins import (
    _conjugates,
    _squarefree,
    conjugate_twins,
    conjugate_weights,
)
from gsp_householder.graphs._laplacian_fit import _diagonal_fit


def _weights(G) -> sp.csr_array:
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=sorted(G), dtype=float))


def _edges(L) -> set:
    return {tuple(sorted(map(int, e))) for e in zip(*sp.triu(L, 1).nonzero(), strict=True)}


def _laplacian(W) -> np.ndarray:
    W = W.toarray()
    return np.diag(W.sum(axis=1)) - W


@pytest.mark.parametrize(("k", "part"), [(1, 1), (5, 5), (8, 2), (12, 3), (45, 5), (72, 2)])
def test_squarefree_part(k, part):
    assert _squarefree(k) == part


def test_conjugates_swap_the_pairs_of_one_field_only():
    # eigenvalues 0, 3 -+ sqrt 5 (multiplicity 2), 2 -+ sqrt 2 (multiplicity 1), 4
    theta = np.array([0.0, 2 - np.sqrt(2), 3 - np.sqrt(5), 4.0, 2 + np.sqrt(2), 3 + np.sqrt(5)])
    mult = np.array([1, 1, 2, 1, 1, 2])
    fields = _conjugates(theta, mult, 6.0)
    assert sorted(fields) == [2, 5]
    assert fields[5].tolist() == [0, 1, 5, 3, 4, 2]
    assert fields[2].tolist() == [0, 4, 2, 3, 1, 5]
    # conjugates of unequal multiplicity are not swapped
    assert _conjugates(theta, np.array([1, 1, 2, 1, 1, 1]), 6.0).keys() == {2}


def test_the_five_cycle_conjugate_is_the_pentagram():
    twins = conjugate_weights(_weights(nx.cycle_graph(5)))
    assert [_edges(T) for T in twins] == [{(0, 2), (0, 3), (1, 3), (1, 4), (2, 4)}]


def test_the_dodecahedron_conjugate_shares_its_eigenvectors_and_no_edge():
    D = _weights(nx.dodecahedral_graph())
    (T,) = conjugate_weights(D)
    assert T.nnz == D.nnz
    assert _edges(T).isdisjoint(_edges(D))
    L, M = _laplacian(D), _laplacian(T)
    assert np.abs(L @ M - M @ L).max() < 1e-9
    # the same spectrum: the eigenvalues are permuted, sqrt 5 -> -sqrt 5
    np.testing.assert_allclose(np.linalg.eigvalsh(M), np.linalg.eigvalsh(L), atol=1e-9)
    assert nx.is_isomorphic(nx.from_scipy_sparse_array(T), nx.dodecahedral_graph())


@pytest.mark.parametrize(
    "G",
    [nx.petersen_graph(), nx.hypercube_graph(3), nx.complete_graph(6), nx.star_graph(7)],
)
def test_integer_spectra_have_no_conjugate(G):
    assert conjugate_weights(_weights(nx.convert_node_labels_to_integers(G))) == []


def test_a_conjugate_twin_that_fits_joins_exact_eigenvectors():
    G = nx.convert_node_labels_to_integers(nx.dodecahedral_graph())
    basis = _read_basis(fourier_basis(G).eigenvectors, None, False, None, None)
    (L,), listed = conjugate_twins(basis, _weights(G), [])
    assert listed == []
    assert _diagonal_fit(basis["V"], L)[1] < 1e-9
    assert compare_graphs(G, L)["f1"] == 0.0


def _perturbed(G, draw: int, laplacian=None) -> np.ndarray:
    return audit_input(fourier_basis(G, laplacian).eigenvectors, 1e-3, draw)


def test_perturbed_normalized_dodecahedron_box_triangle_warns_with_the_truth_listed():
    # eighth audit, perturbed by 1e-3: the normalized dodecahedron boxed with a
    # 3-cycle was answered by its conjugate twin (F1 0.4), family flag only, the truth
    # not among the candidates
    G = nx.convert_node_labels_to_integers(
        nx.cartesian_product(nx.dodecahedral_graph(), nx.cycle_graph(3))
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(_perturbed(G, 0, "normalized"), rng=0, laplacian="normalized")
    assert compare_graphs(G, result)["f1"] in (pytest.approx(0.4), pytest.approx(1.0))
    assert [w for w in caught if issubclass(w.category, AmbiguousGraphWarning)]
    assert _edges(_weights(G)) in [_edges(L) for L in result.candidates]
