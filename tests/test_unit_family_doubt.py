"""Normalized grids above the equal-weight programs' size: the answer is doubted and a
grid returned brings its checkerboard twin (modules ``_unit_family_doubt`` and
``_grid_twins.checkerboard_reflections``)."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import shuffled

from gsp_householder import AmbiguousGraphWarning, compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._grid_twins import checkerboard_reflections


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, laplacian="normalized", rng=0)
    return result, [w for w in caught if issubclass(w.category, AmbiguousGraphWarning)]


def _relabelled(a, b, x, y):
    """The grid's edges between the nodes placed at ``(x, y)``."""
    where = {(int(p), int(q)): i for i, (p, q) in enumerate(zip(x, y, strict=True))}
    rows, cols = [], []
    for (p, q), i in where.items():
        for j in (where.get((p + 1, q)), where.get((p, q + 1))):
            if j is not None:
                rows += [i, j]
                cols += [j, i]
    return sp.csr_array((np.ones(len(rows)), (rows, cols)), shape=(a * b, a * b))


def _misfit(L, V):
    LV = np.asarray(L @ V)
    return float(np.linalg.norm(LV - V * np.einsum("ij,ij->j", V, LV)))


@pytest.mark.parametrize(("a", "b", "count"), [(4, 5, 1), (4, 6, 1), (3, 9, 3), (5, 5, 3)])
def test_checkerboard_reflections_are_twins_of_the_normalized_grid(a, b, count):
    G = nx.grid_2d_graph(a, b)
    xy = np.array(list(G))
    W = nx.to_scipy_sparse_array(G, nodelist=list(G))
    reflections = checkerboard_reflections(a, b, xy)
    assert len(reflections) == count  # an odd side each, and both when a + b is even
    V = fourier_basis(G, laplacian="normalized").eigenvectors
    Vc = fourier_basis(G).eigenvectors
    # a square's eigenspaces repeat: of its reflections, the mirror across both axes
    # (the last) fits the basis given
    for k, (x, y) in enumerate(reflections):
        T = _relabelled(a, b, x, y)
        assert nx.is_isomorphic(nx.from_scipy_sparse_array(T), G)
        assert abs(T - W).sum() > 0  # other edges
        d = np.asarray(T.sum(axis=1)).ravel()
        N = sp.eye_array(a * b) - sp.diags_array(d**-0.5) @ T @ sp.diags_array(d**-0.5)
        if a != b or k == count - 1:
            assert _misfit(N, V) < 1e-10
        # the combinatorial grid's eigenvectors are not shared (a normalized twin only)
        assert _misfit(sp.diags_array(d) - T, Vc) > 1e-3


def test_a_normalized_grid_twin_returned_brings_the_grid():
    # before: the 7 x 7 grid's twin (F1 0.05), silent, the grid not among the candidates
    G = nx.grid_2d_graph(7, 7)
    B = fourier_basis(G, laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, 0))
    assert caught and result.n_edges == 84
    assert max(compare_graphs(B.laplacian, L)["f1"] for L in result.candidates) == 1.0


def test_a_weighted_member_of_a_normalized_grid_family_is_not_returned():
    # before: 50 edges for the 4 x 12 grid's 80 (a valid weighted member), silent; then
    # doubted ("unequal weights"); now the grid read from the degrees and spectrum
    # (``_normalized_grid``) comes first, the weighted member among the candidates
    G = nx.grid_2d_graph(4, 12)
    B = fourier_basis(G, laplacian="normalized")
    result, caught = _infer(shuffled(B.eigenvectors, 1))
    assert result.history["normalized_grid"]
    assert compare_graphs(B.laplacian, result)["f1"] == 1.0
    assert caught  # its checkerboard twin fits as well
    assert 50 in result.history["candidate_edges"]
