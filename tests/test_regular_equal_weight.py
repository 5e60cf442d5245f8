"""Members of the noisy constant-diagonal family with equal weights before a sparser
weighted member (``_regular_candidates.equal_weight_regular_first``), warned of."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input, canonical, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._laplacian_fit import _residual
from gsp_householder.graphs._regular_candidates import (
    _equal_member,
    regular_equal_weight_warning,
)
from gsp_householder.graphs._regular_family import constant_diagonal_noise
from gsp_householder.graphs._template_lp import edge_key
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT

# The eigenvectors of the 3-cube (nodes of ``hypercube_graph(3)`` relabelled 0..7) that
# ``fourier_basis`` gives, written out so that no BLAS kernel changes them: entries
# ``sign * sqrt(square / 24)``; eigenvalues 0, 2, 2, 2, 4, 4, 4, 6. Every Laplacian with
# them is a member of a family of 7 directions holding regular graphs of 9 edges with
# weights 1 and 2 beside the cube.
SQUARES = np.array(
    [
        [3, 6, 2, 1, 6, 2, 1, 3],
        [3, 0, 8, 1, 0, 8, 1, 3],
        [3, 0, 0, 9, 0, 0, 9, 3],
        [3, 6, 2, 1, 6, 2, 1, 3],
        [3, 6, 2, 1, 6, 2, 1, 3],
        [3, 0, 0, 9, 0, 0, 9, 3],
        [3, 0, 8, 1, 0, 8, 1, 3],
        [3, 6, 2, 1, 6, 2, 1, 3],
    ]
)
SIGNS = np.array(
    [
        [1, 1, 1, 1, 1, -1, -1, 1],
        [1, 1, 1, -1, 1, 1, -1, -1],
        [1, 1, 1, 1, 1, 1, 1, -1],
        [1, -1, 1, 1, -1, -1, -1, 1],
        [1, 1, -1, -1, -1, -1, -1, -1],
        [1, 1, 1, -1, 1, 1, 1, 1],
        [1, 1, -1, 1, 1, 1, -1, 1],
        [1, -1, -1, -1, 1, -1, -1, -1],
    ]
)
CUBE = nx.convert_node_labels_to_integers(nx.hypercube_graph(3))
MESSAGE = "is a regular graph with equal weights to the noise level"


def _cube_basis():
    return SIGNS * np.sqrt(SQUARES / 24.0)


def _perturbed_input(draw):
    # as ``benchmarks/bench_inference.py`` builds it: the shuffle of the exact input
    # first, then the perturbed and shuffled one, from one generator
    rng = np.random.default_rng(draw)
    V = _cube_basis()
    shuffled_exact = V[:, rng.permutation(8)] * rng.choice([-1.0, 1.0], 8)
    assert shuffled_exact.shape == (8, 8)
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E))
    V = U @ Wt
    return V[:, rng.permutation(8)] * rng.choice([-1.0, 1.0], 8)


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, rng=0)
    return result, [w for w in caught if MESSAGE in str(w.message)]


def _truth():
    return nx.laplacian_matrix(CUBE, nodelist=range(8)).astype(float)


def test_cube_basis_is_the_cubes():
    V = _cube_basis()
    assert np.allclose(V.T @ V, np.eye(8), atol=1e-15)
    D = V.T @ _truth() @ V
    assert np.allclose(D, np.diag(np.diag(D)), atol=1e-14)
    assert np.allclose(np.sort(np.diag(D)), [0, 2, 2, 2, 4, 4, 4, 6])


@pytest.mark.parametrize("draw", [0, 3])
def test_perturbed_cube_returns_the_cube_warned(draw):
    # the sparser weighted member (9 edges, weights 1 and 2) was returned with no
    # warning; the cube, with equal weights to the family's level, now goes first
    result, mine = _infer(_perturbed_input(draw))
    assert compare_graphs(_truth(), result.laplacian)["f1"] == 1.0
    assert result.history["regular_equal_weight"]["weighted"] == 9
    assert 9 in result.history["candidate_edges"]
    assert len(mine) == 1 and issubclass(mine[0].category, AmbiguousGraphWarning)


def test_perturbed_cube_twin_returned_is_warned_and_the_cube_listed():
    # draw 1: equal-weight twins of the cube (10 of its 12 edges) fit as well, and one
    # goes first; it is warned of, with the cube among the candidates (on main the
    # weighted member was returned with no warning and the cube was not listed)
    result, mine = _infer(_perturbed_input(1))
    assert result.n_edges == 12
    assert max(compare_graphs(_truth(), C)["f1"] for C in result.candidates) == 1.0
    assert len(mine) == 1 and "other regular graph(s) with equal weights and 12 edges" in str(
        mine[0].message
    )


def _weighted_member():
    # the regular member of 9 edges with weights 1 and 2 (weighted degree 3) that the
    # cube's basis diagonalises exactly
    W = np.zeros((8, 8))
    for i, j, w in [
        (0, 2, 1),
        (0, 7, 2),
        (1, 5, 1),
        (1, 6, 2),
        (2, 3, 1),
        (2, 6, 1),
        (3, 4, 2),
        (4, 5, 1),
        (5, 7, 1),
    ]:
        W[i, j] = W[j, i] = w
    return sp.csr_array(W)


def test_weighted_member_shares_the_cubes_basis():
    W = _weighted_member()
    L = np.diag(W.sum(axis=1)) - W.toarray()
    D = _cube_basis().T @ L @ _cube_basis()
    assert np.allclose(D, np.diag(np.diag(D)), atol=1e-14)


def test_equal_member_rejects_the_weighted_member():
    # both fit the perturbed eigenvectors at the family's level with their own weights;
    # with equal weights the weighted member loses its constant degree and does not
    basis = _read_basis(_perturbed_input(0), None, False, "combinatorial", None)
    level = constant_diagonal_noise(_anchored_pair_basis(basis))
    assert level is not None
    weighted = _weighted_member()
    assert _residual(basis, weighted) <= RESIDUAL_CONSISTENT * level
    assert not _equal_member(basis, weighted, level)
    cube = sp.csr_array(nx.adjacency_matrix(CUBE, nodelist=range(8)).astype(float))
    assert _equal_member(basis, cube, level)


def test_exact_cube_is_not_read():
    # exact eigenvectors are not searched at the family's noise level
    result, mine = _infer(shuffled(_cube_basis(), 0))
    assert "regular_equal_weight" not in result.history
    assert mine == []


def test_weighted_member_without_equal_ones_is_warned():
    W = sp.csr_array(np.array([[0.0, 1.0, 2.0], [1.0, 0.0, 2.0], [2.0, 2.0, 0.0]]))
    history = {"regular_equal_weight": {"weighted": 3, "equal": [], "first": edge_key(W)}}
    with pytest.warns(AmbiguousGraphWarning, match="no member with equal weights"):
        regular_equal_weight_warning((3, 0.3, None, W), history)
    other = {"regular_equal_weight": {**history["regular_equal_weight"], "first": b""}}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        regular_equal_weight_warning((3, 0.3, None, W), other)


def test_perturbed_cocktail_party_graph_is_read_as_a_regular_graph():
    # K(2, 2, 2, 2) perturbed (kernel-independent basis, draw 0): the sparsest member
    # that fits at the family's level has 17 edges of degrees 3 to 6, whose equal
    # weights fit at that level too but are no regular graph; it was returned with no
    # warning, and the truth (24 edges, 6-regular) now goes first, warned
    G = nx.complete_multipartite_graph(2, 2, 2, 2)
    B = fourier_basis(G)
    result, mine = _infer(audit_input(canonical(B), 1e-3, 0))
    assert compare_graphs(B.laplacian, result.laplacian)["f1"] == 1.0
    assert result.history["regular_equal_weight"]["weighted"] < 24
    assert len(mine) == 1 and issubclass(mine[0].category, AmbiguousGraphWarning)
