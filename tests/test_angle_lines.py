"""A ladder's long side read from the angles of its eigenvector pairs."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from gsp_householder import fourier_basis
from gsp_householder.graphs._angle_lines import angle_line_readings, ladder_sides
from gsp_householder.graphs._basis_grid import basis_grids, grid_weights
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._grid_twins import twin_residuals
from gsp_householder.graphs._laplacian_fit import _fits_as_well


def _perturbed_ladder(b: int, draw: int) -> tuple[nx.Graph, np.ndarray]:
    """``ladder_graph(b)`` and its eigenvectors perturbed by 1e-3 (relative Frobenius)
    and shuffled, as ``bench_inference._perturb`` makes them."""
    G = nx.convert_node_labels_to_integers(nx.ladder_graph(b))
    V = np.asarray(fourier_basis(G).eigenvectors)
    rng = np.random.default_rng(draw)
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E))
    P = U @ Wt
    return G, P[:, rng.permutation(P.shape[1])] * rng.choice([-1.0, 1.0], P.shape[1])


def _fitting_grid(V, G):
    """The first grid of ``basis_grids`` that fits ``V`` as well as ``G`` does."""
    basis = _read_basis(V, None, False, None, None)
    truth = twin_residuals(basis, sp.csr_array(nx.to_scipy_sparse_array(G, dtype=float)))
    for a, b, xy in basis_grids(V):
        W = grid_weights(a, b, xy)
        if _fits_as_well(twin_residuals(basis, W), truth):
            return a, b, W
    return None


@pytest.mark.parametrize(
    ("b", "draw"), [(50, 1), (50, 0), (40, 3), (30, 0), (33, 1), (60, 2), (70, 1)]
)
def test_a_perturbed_ladder_is_read_from_its_basis(b, draw):
    # the sorted columns cannot separate 50 lines or more at 1e-3 (no reading on main),
    # the across column may mix the two eigenvectors of the eigenvalue 2 (b even), and
    # the first column constant on b runs may pair (0, j) with (1, b - 1 - j) (30 and
    # 33, read on main from that column only): the angles, every order and the
    # ladder's sides read from its lines give the ladder or one of its DCT twins
    G, V = _perturbed_ladder(b, draw)
    found = _fitting_grid(V, G)
    assert found is not None
    a, b_read, W = found
    assert (a, b_read) == (2, b)
    assert nx.is_isomorphic(nx.from_scipy_sparse_array(W), G)


def test_angle_readings_need_grid_pairs():
    # a random orthogonal basis has no pair of columns whose squares sum to a constant
    V = np.linalg.qr(np.random.default_rng(3).standard_normal((40, 40)))[0]
    assert next(angle_line_readings(V, np.sort(V, axis=0), 20), None) is None


def test_ladder_sides_split_every_line():
    _, V = _perturbed_ladder(12, 0)
    side = ladder_sides(V, np.arange(24) % 12)
    assert side is not None
    assert np.all(side[:12] == side[0]) and np.all(side[12:] == 1 - side[0])
