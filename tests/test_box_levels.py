"""Box products read off members of their family (module ``_box_levels``): a weighted
graph whose weight levels are the copies of one factor and a weighted member of the
other's family, and an equal-weight graph whose eigenspaces give the factors' copies."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed

from gsp_householder import fourier_basis
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._box_levels import (
    _sides,
    _sparser_factors,
    box_edges_floor,
    box_from_levels,
    box_from_partitions,
    eigenspace_partitions,
    level_sides,
    product_grid,
    quotient_basis,
    weight_levels,
)
from gsp_householder.graphs._laplacian_fit import _laplacian
from gsp_householder.graphs.laplacian_inference import _factor_weights

# the standardised noise level the noisy ladder reports on these inputs (perturbed by
# 1e-3: ``history["noise"]`` 1.8e-4 to 3.7e-4 on the box products' draws 0-12)
NOISE = 3e-4


def _adjacency(G) -> np.ndarray:
    return nx.to_numpy_array(G, nodelist=sorted(G))


def _laplacian_of(A: np.ndarray) -> np.ndarray:
    return np.diag(A.sum(axis=1)) - A


def _weights(L: np.ndarray) -> sp.csr_array:
    W = -L.copy()
    np.fill_diagonal(W, 0.0)
    W[np.abs(W) < 1e-12] = 0.0
    return sp.csr_array(W)


def _edges(W) -> set:
    return {tuple(map(int, e)) for e in zip(*sp.triu(W, 1).nonzero(), strict=True)}


def _is_box_or_its_twin(box, AF, A) -> bool:
    # the Frucht graph boxed with the 5-cycle (``A``), or its twin with the pentagram
    # (the 5-cycle relabelled by 2): both are sparsest with the box product's eigenvectors
    twin = _edges(sp.csr_array(np.kron(AF, np.eye(5)) + np.kron(np.eye(12), _pentagram())))
    return box is not None and _edges(box) in (_edges(A), twin)


def _pentagram() -> np.ndarray:
    return _adjacency(nx.circulant_graph(5, [2]))


@pytest.fixture(scope="module")
def frucht_box():
    """The Frucht graph boxed with a 5-cycle (node 5 f + c), its perturbed eigenvectors
    read as a basis, the factors' adjacencies and the box product's weights."""
    AF, AC = _adjacency(nx.frucht_graph()), _adjacency(nx.cycle_graph(5))
    A = np.kron(AF, np.eye(5)) + np.kron(np.eye(12), AC)
    B = fourier_basis(nx.from_numpy_array(A))
    V = perturbed(B.eigenvectors, 1e-3, 0)
    basis = _read_basis(V, None, False, "combinatorial", None)
    return basis, AF, AC, sp.csr_array(A)


def test_weight_levels_split_at_the_noise_level():
    # weights 1, 1 + 1e-6 and 2 on a star: two levels at noise 1e-3, three at 1e-8
    W = np.zeros((4, 4))
    W[0, 1:] = [1.0, 1.0 + 1e-6, 2.0]
    L = sp.csr_array(_laplacian_of(W + W.T))
    assert [r.size for r, _ in weight_levels(L, 1e-3)] == [2, 1]
    assert [r.size for r, _ in weight_levels(L, 1e-8)] == [1, 1, 1]


def test_the_grid_needs_every_pair_of_components_to_cross_once():
    # the 5-cycles and the Frucht graph's copies cross once: a 12 x 5 grid
    AF, AC = _adjacency(nx.frucht_graph()), _adjacency(nx.cycle_graph(5))
    cycles = sp.csr_array(np.kron(np.eye(12), AC))
    layers = sp.csr_array(np.kron(AF, np.eye(5)))
    grid = product_grid(cycles, layers)
    assert grid.shape == (12, 5)
    assert np.array_equal(grid, np.arange(60).reshape(12, 5))
    # a connected graph, or components that miss one another, give no grid
    assert product_grid(cycles + layers, layers) is None
    assert product_grid(cycles, cycles) is None


def test_the_quotient_basis_is_the_factor_eigenvectors(frucht_box):
    basis, AF, AC, _ = frucht_box
    cycles = sp.csr_array(np.kron(np.eye(12), AC))
    Q = quotient_basis(basis["V"], cycles, np.arange(60).reshape(12, 5))
    assert np.allclose(Q.T @ Q, np.eye(12))
    # Q diagonalises the Frucht graph's Laplacian to the noise of the input
    D = Q.T @ _laplacian_of(AF) @ Q
    assert np.linalg.norm(D - np.diag(np.diag(D))) < 0.05 * np.linalg.norm(D)


def test_a_weighted_member_with_the_cycles_at_one_level_gives_the_box(frucht_box):
    # c(8 L_F - L_F^2) on every copy of the Frucht graph (its edges and pairs at
    # distance 2, weights 1 to 3) beside the 5-cycles at weight 0.1: the same
    # eigenvectors, 275 edges; the level of the cycles and the Frucht graph inferred
    # from the columns they annihilate give the box product, 150 edges
    basis, AF, AC, A = frucht_box
    LF = _laplacian_of(AF)
    member = np.kron(8.0 * LF - LF @ LF, np.eye(5)) + 0.1 * np.kron(np.eye(12), _laplacian_of(AC))
    W = _weights(member)
    assert sp.triu(W, 1).nnz == 275
    box = box_from_levels(basis, W, NOISE, _factor_weights)
    assert box is not None and _edges(box) == _edges(A)
    # exact eigenvectors (noise 0) are not read
    assert box_from_levels(basis, W, 0.0, _factor_weights) is None


def test_a_weighted_box_product_is_kept(frucht_box):
    # one weight per factor: the levels are the factors, and the box product read has
    # as many edges, so it does not replace the graph found
    basis, AF, AC, _ = frucht_box
    W = sp.csr_array(0.7 * np.kron(AF, np.eye(5)) + 1.3 * np.kron(np.eye(12), AC))
    assert box_from_levels(basis, W, NOISE, _factor_weights) is None


def test_eigenspaces_give_both_factors_copies():
    # the tensor product of the Frucht graph and the pentagram: its eigenvectors are
    # the products u x w, and its eigenspaces give the 5-cycles' and the copies'
    # partitions (with others, coarser or finer)
    AF = _adjacency(nx.frucht_graph())
    parts = eigenspace_partitions(sp.csr_array(np.kron(AF, _pentagram())))
    fibres = np.repeat(np.arange(12), 5)
    copies = np.tile(np.arange(5), 12)
    assert any(np.array_equal(p, fibres) for p in parts)
    assert any(np.array_equal(p, copies) for p in parts)


def test_an_equal_weight_member_gives_the_box_or_its_twin(frucht_box):
    # the tensor product of the Frucht graph and the pentagram (180 edges, equal
    # weights) shares the box product's eigenvectors; the box read (150 edges) is the
    # box product or its twin with the pentagram (the 5-cycle relabelled by 2)
    basis, AF, _, A = frucht_box
    W = sp.csr_array(np.kron(AF, _pentagram()))
    box = box_from_partitions(basis, W, NOISE, _factor_weights)
    assert _is_box_or_its_twin(box, AF, A)
    assert _laplacian(box, basis).shape == (60, 60)


def test_a_box_product_found_is_not_read_again(frucht_box):
    # every edge of the graph found joins nodes of one copy of a factor: it is such a
    # product already (the box read would have as many edges or more)
    basis, *_, A = frucht_box
    assert box_from_partitions(basis, A, NOISE, _factor_weights) is None


def test_a_factor_read_as_the_complete_graph_is_not_used(frucht_box):
    # the complete graph fits every basis with the constant vector: a factor read as it
    # says nothing. The tensor products of the Frucht graph with the pentagram and of
    # K12 with the 5-cycle (840 edges, equal weights) share the box product's
    # eigenvectors; with the Frucht graph read as K12, the box read (K12 boxed with
    # the 5-cycle, 390 edges) would fit as well and be sparser (it is returned when
    # connectivity alone is asked of a factor)
    basis, AF, AC, _ = frucht_box
    K = np.ones((12, 12)) - np.eye(12)
    W = sp.csr_array(np.kron(AF, _pentagram()) + np.kron(K, AC))
    assert sp.triu(W, 1).nnz == 840

    def complete_first(Q):
        return sp.csr_array(K) if Q.shape[0] == 12 else _factor_weights(Q)

    assert box_from_partitions(basis, W, NOISE, complete_first) is None


def _frucht_sides():
    # the 12 five-cycles (whose factor across is the Frucht graph) and the 5 copies of
    # the Frucht graph (whose factor across is the 5-cycle) of the box product
    AF, AC = _adjacency(nx.frucht_graph()), _adjacency(nx.cycle_graph(5))
    cycles = sp.csr_array(np.kron(np.eye(12), AC))
    layers = sp.csr_array(np.kron(AF, np.eye(5)))
    grid = product_grid(cycles, layers)
    return AF, AC, (cycles, grid), (layers, grid.T)


def test_the_other_factor_is_not_read_when_the_box_cannot_be_sparser(frucht_box):
    # the 5-cycle (5 edges) is read first, the smaller factor: boxed with any connected
    # factor on 12 nodes it has 5 * 12 + 11 * 5 = 115 edges at least, so against a
    # graph of 115 edges the Frucht graph is not read (a whole inference)
    basis, AF, AC, _ = frucht_box
    _, _, frucht_side, cycle_side = _frucht_sides()
    factors = {12: sp.csr_array(AF), 5: sp.csr_array(AC)}
    read = []

    def infer(Q):
        read.append(Q.shape[0])
        return factors[Q.shape[0]]

    assert box_edges_floor(5, 12, 5) == 115
    assert _sparser_factors(basis["V"], frucht_side, cycle_side, infer, 115) is None
    assert read == [5]
    read.clear()
    G, H = _sparser_factors(basis["V"], frucht_side, cycle_side, infer, 116)
    assert read == [5, 12]
    assert (G.shape, H.shape) == ((12, 12), (5, 5))  # in the order of the sides


def test_no_factor_is_read_when_a_tree_is_too_many_already(frucht_box):
    # a tree on 5 nodes boxed with a connected factor on 12: 4 * 12 + 11 * 5 = 103
    basis, *_ = frucht_box
    _, _, frucht_side, cycle_side = _frucht_sides()
    read = []

    def infer(Q):
        read.append(Q.shape[0])

    assert _sparser_factors(basis["V"], frucht_side, cycle_side, infer, 103) is None
    assert read == []


def test_a_factor_read_as_the_complete_graph_ends_the_reading(frucht_box):
    # the 5-cycle's side, read first, as the complete graph says nothing: the Frucht
    # graph's side is not read
    basis, AF, *_ = frucht_box
    W = sp.csr_array(np.kron(AF, _pentagram()))
    read = []

    def complete(Q):
        read.append(Q.shape[0])
        k = Q.shape[0]
        return sp.csr_array(np.ones((k, k)) - np.eye(k))

    assert box_from_partitions(basis, W, NOISE, complete) is None
    assert read and all(k == 5 for k in read)


def test_a_factor_read_inside_an_inference_does_not_advance_its_progress_bar():
    # the factor's inference is nested in the caller's, whose progress bar counts the
    # caller's own evaluations only
    from gsp_householder.graphs._support_search import evaluation_hook

    ticks = []
    token = evaluation_hook.set(ticks.append)
    try:
        W = _factor_weights(fourier_basis(nx.path_graph(12)).eigenvectors)
    finally:
        evaluation_hook.reset(token)
    assert sp.triu(W, 1).nnz == 11
    assert ticks == []


def _complement(A: np.ndarray) -> np.ndarray:
    return np.ones_like(A) - np.eye(A.shape[0]) - A


def test_copies_of_complete_graphs_give_the_box(frucht_box):
    # K12 boxed with K5 at two weights (330 + 120 edges): every basis with the
    # copies' constant vectors diagonalises it, and both levels are copies of complete
    # graphs, which say nothing; each factor read on its own from the columns constant
    # on the other's copies gives the box product (or its twin with the pentagram)
    basis, AF, AC, A = frucht_box
    W = sp.csr_array(
        np.kron(_complement(0 * AF), np.eye(5)) + 2.0 * np.kron(np.eye(12), _complement(0 * AC))
    )
    assert sp.triu(W, 1).nnz == 450
    box = box_from_levels(basis, W, NOISE, _factor_weights)
    assert _is_box_or_its_twin(box, AF, A)


def test_copies_of_a_regular_factor_s_complement_give_the_factor(frucht_box):
    # the Frucht graph's complement (8-regular, the same eigenvectors) on every copy
    # and, on each 5-cycle's nodes, the cycle and the pentagram at two other weights:
    # the complement's level alone gives a grid, and the factor read on its own across
    # the 5-cycles is the Frucht graph (18 edges for the complement's 48): the box
    # product, not the complement's (300 edges)
    basis, AF, AC, A = frucht_box
    W = sp.csr_array(
        np.kron(_complement(AF), np.eye(5))
        + 0.3 * np.kron(np.eye(12), AC)
        + 0.6 * np.kron(np.eye(12), _pentagram())
    )
    assert sp.triu(W, 1).nnz == 360
    box = box_from_levels(basis, W, NOISE, _factor_weights)
    assert _is_box_or_its_twin(box, AF, A)


def test_levels_of_both_factors_spread_are_grouped(frucht_box):
    # c(8 L_F - L_F^2) on every copy of the Frucht graph (levels of weights 1 to 3) and
    # the 5-cycle and the pentagram at two weights on the cycles' nodes: no level alone
    # is one factor's copies (the rest joins them), the levels grouped by factor
    # (``level_sides``) are, and the box product is read
    basis, AF, AC, A = frucht_box
    LF = _laplacian_of(AF)
    member = np.kron(8.0 * LF - LF @ LF, np.eye(5)) + np.kron(
        np.eye(12), 0.1 * _laplacian_of(AC) + 0.25 * _laplacian_of(_pentagram())
    )
    W = _weights(member)
    levels = weight_levels(_laplacian(W, basis), NOISE)
    sides = level_sides(levels, 60)
    assert len(levels) > 2 and len(sides) == 2
    assert all(
        product_grid(_unit(levels, s), _unit(levels, t)) is None for s, t in _one_and_rest(levels)
    )
    box = box_from_levels(basis, W, NOISE, _factor_weights)
    assert _is_box_or_its_twin(box, AF, A)


def _unit(levels, indices) -> sp.csr_array:
    rows = np.concatenate([levels[i][0] for i in indices])
    cols = np.concatenate([levels[i][1] for i in indices])
    A = sp.coo_array((np.ones(rows.size), (rows, cols)), shape=(60, 60)).tocsr()
    return sp.csr_array(A + A.T)


def _one_and_rest(levels):
    for i in range(len(levels)):
        yield [i], [j for j in range(len(levels)) if j != i]


def test_a_box_product_with_complete_copies_is_read_again(frucht_box):
    # the Frucht graph boxed with K5, equal weights (180 edges): its eigenspaces give the
    # 5-cycles' nodes only (K5's is of dimension 4), the edges across them the copies;
    # it is a box product already, but of a complete factor, which says nothing: the
    # factors read on their own give the box product (or its twin), 150 edges
    basis, AF, AC, A = frucht_box
    W = sp.csr_array(np.kron(AF, np.eye(5)) + np.kron(np.eye(12), _complement(0 * AC)))
    assert len(eigenspace_partitions(W)) == 1
    box = box_from_partitions(basis, W, NOISE, _factor_weights)
    assert _is_box_or_its_twin(box, AF, A)


def test_levels_that_stay_apart_are_split_together():
    # a 6-cycle boxed with a 4-cycle (node 4 g + c), each factor's edges in two
    # perfect matchings at their own weights: no level lies in another's components,
    # so the four stay four groups; the split of both matchings of each factor is one
    # of those tried and gives the 6 x 4 grid
    def level(pairs, copies, stride, step):
        rows = np.array([stride * a + step * c for a, _ in pairs for c in range(copies)])
        cols = np.array([stride * b + step * c for _, b in pairs for c in range(copies)])
        return rows, cols

    levels = [
        level([(0, 1), (2, 3), (4, 5)], 4, 4, 1),
        level([(0, 1), (2, 3)], 6, 1, 4),
        level([(1, 2), (3, 4), (0, 5)], 4, 4, 1),
        level([(1, 2), (0, 3)], 6, 1, 4),
    ]
    assert level_sides(levels, 24) == [[0], [1], [2], [3]]
    grids = [product_grid(S, R) for S, R, _ in _sides(levels, 24)]
    assert any(g is not None and sorted(g.shape) == [4, 6] for g in grids)
