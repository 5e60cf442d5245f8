"""Twin classes whose columns are a star's eigenvectors are not searched
(``laplacian_inference._twin_superset``, ``_twin_superset.star_rotation``)."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

import gsp_householder.graphs.laplacian_inference as inference
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._twin_superset import star_rotation, twin_basis, twin_classes
from gsp_householder.graphs.fourier import fourier_basis


def _hubs() -> nx.Graph:
    """Three hubs in a triangle, each with five leaves: three classes of five twins."""
    G = nx.cycle_graph(3)
    for hub in range(3):
        G.add_edges_from((hub, 3 + 5 * hub + k) for k in range(5))
    return G


def _weights(G) -> sp.csr_array:
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(len(G)), dtype=float))


def _star_laplacian(s: int, centre: int) -> np.ndarray:
    L = np.zeros((s, s))
    L[centre, :] = L[:, centre] = -1.0
    np.fill_diagonal(L, 1.0)
    L[centre, centre] = s - 1.0
    return L


@pytest.mark.parametrize("s", [4, 9])
def test_a_stars_eigenvectors_leave_it_no_rotation(s):
    # eigh's basis of the star on s nodes (its leaves' eigenspace of dimension s - 2 in
    # whatever basis the solver gives), centred anywhere, rotated by nothing
    for centre in (0, s // 2, s - 1):
        _, U = np.linalg.eigh(_star_laplacian(s, centre))
        assert star_rotation(U * np.sign(U[0, 0])) < 1e-13


def test_a_cycles_eigenvectors_are_far_from_a_stars():
    # the wheel's rim: its leaves' columns are the cycle's eigenvectors, no star's
    Q = fourier_basis(nx.cycle_graph(12)).eigenvectors
    assert star_rotation(Q) > 0.05


@pytest.mark.parametrize("noise", [0.0, 1e-3])
def test_classes_of_hub_leaves_are_not_searched(monkeypatch, noise):
    # fourier_basis gives each hub's leaves nested columns (Gram-Schmidt on pivoted
    # rows), a star's eigenvectors: the search of each class (a nested inference) found
    # the star, or the complete graph, both with twins, and nothing was joined
    G = _hubs()
    B = fourier_basis(G)
    V = B.eigenvectors if noise == 0.0 else perturbed(B.eigenvectors, noise, 0)
    basis = _read_basis(shuffled(V, 1), None, None, "combinatorial", None)
    searched = []
    monkeypatch.setattr(
        inference,
        "_twin_class_graph",
        lambda Q: searched.append(Q.shape[0]) or pytest.fail("searched"),
    )
    W = _weights(G)
    assert [len(c) for c in twin_classes(W)] == [5, 5, 5]
    assert inference._twin_superset(basis, W) is None
    assert searched == []


def test_the_wheels_rim_class_is_still_searched():
    # the star of wheel(12) and its 11 twin leaves, whose columns are the rim cycle's
    # eigenvectors: the class is searched and the star plus the rim is found
    G = nx.wheel_graph(12)
    B = fourier_basis(G)
    basis = _read_basis(shuffled(B.eigenvectors, 0), None, None, "combinatorial", None)
    star = _weights(nx.star_graph(11))
    (nodes,) = twin_classes(star)
    assert star_rotation(twin_basis(basis["V"], nodes, 0.98)) > 0.05
    total = inference._twin_superset(basis, star)
    assert total is not None and sp.triu(total, 1).nnz == G.number_of_edges()
