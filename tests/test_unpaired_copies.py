"""A weighted member of a box product's family with one level on a factor's copies and
the rest not the other factor (module ``_unpaired_copies``)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed

from gsp_householder import fourier_basis
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._unpaired_copies import equal_copies, unpaired_copies

# the standardised noise level the noisy ladder reports on inputs perturbed by 1e-3
# (``history["noise"]`` 5.2e-4 on the factor below boxed with a 5-cycle, draw 2)
NOISE = 5e-4
# the factor's two edges whose matching commutes with its Laplacian
MATCHING = [(3, 4), (5, 7)]


def _adjacency(G) -> np.ndarray:
    return nx.to_numpy_array(G, nodelist=sorted(G))


def _laplacian_of(A: np.ndarray) -> np.ndarray:
    return np.diag(A.sum(axis=1)) - A


@pytest.fixture(scope="module")
def product():
    """``random_regular_graph(3, 14, seed=2)`` (F) boxed with a 5-cycle (node 5 f + c),
    its perturbed eigenvectors read as a basis, F less the matching (F'), the swap of
    the matched nodes (P) and the pentagram's adjacency."""
    AF = _adjacency(nx.random_regular_graph(3, 14, seed=2))
    AC = _adjacency(nx.cycle_graph(5))
    B = fourier_basis(nx.from_numpy_array(np.kron(AF, np.eye(5)) + np.kron(np.eye(14), AC)))
    basis = _read_basis(perturbed(B.eigenvectors, 1e-3, 2), None, False, "combinatorial", None)
    lean, swap = AF.copy(), np.eye(14)
    for i, j in MATCHING:
        lean[i, j] = lean[j, i] = 0.0
        swap[[i, j]] = swap[[j, i]]
    # both commute with the factor's Laplacian (a simple spectrum: same eigenvectors)
    LF, lean_laplacian = _laplacian_of(AF), _laplacian_of(lean)
    assert np.allclose(LF @ lean_laplacian, lean_laplacian @ LF)
    assert np.allclose(LF @ swap, swap @ LF)
    return basis, AF, lean, swap, _adjacency(nx.circulant_graph(5, [2]))


def test_copies_of_one_graph_are_told():
    two = nx.disjoint_union(nx.petersen_graph(), nx.petersen_graph())
    assert equal_copies(sp.csr_array(nx.to_scipy_sparse_array(two))) == (2, 10)
    # components of one size with other degrees, or complete graphs, are not
    odd = nx.disjoint_union(nx.petersen_graph(), nx.circulant_graph(10, [1, 2]))
    assert equal_copies(sp.csr_array(nx.to_scipy_sparse_array(odd))) is None
    cliques = nx.disjoint_union(nx.complete_graph(5), nx.complete_graph(5))
    assert equal_copies(sp.csr_array(nx.to_scipy_sparse_array(cliques))) is None


def test_a_member_whose_rest_is_not_the_other_factor_is_read(product):
    # F''s five copies at weight 1 and the pentagram twisted by the swap at 0.26 (P (x)
    # A_pentagram: the matched nodes' pentagrams joined across the matching): the 165
    # edges the product perturbed by 1e-3 was answered by (draw 2), a member of the
    # product's family that is not a box product
    basis, _, lean, swap, pentagram = product
    W = sp.csr_array(np.kron(lean, np.eye(5)) + 0.26 * np.kron(swap, pentagram))
    assert sp.triu(W, 1).nnz == 165
    assert unpaired_copies(basis, W, NOISE) == (95, 5, 14)
    # exact eigenvectors (noise 0) are not read
    assert unpaired_copies(basis, W, 0.0) is None


@pytest.mark.parametrize("twisted", [False, True])
def test_a_box_product_with_two_weights_is_not_read(product, twisted):
    # F (or F') boxed with the pentagram at two weights: the rest is the other factor
    # on the copies (a grid), a box product, not read
    basis, AF, lean, _, pentagram = product
    factor = lean if twisted else AF
    W = sp.csr_array(np.kron(factor, np.eye(5)) + 0.26 * np.kron(np.eye(14), pentagram))
    assert unpaired_copies(basis, W, NOISE) is None
