"""Box products with a cycle or path share their eigenvectors with relabelled copies."""

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
from gsp_householder.graphs._box_twins import box_coordinates, box_twins
from gsp_householder.graphs._laplacian_fit import _diagonal_fit


def _box(G, H) -> nx.Graph:
    return nx.convert_node_labels_to_integers(nx.cartesian_product(G, H))


def _scrambled(G, seed=0) -> nx.Graph:
    order = np.random.default_rng(seed).permutation(G.number_of_nodes())
    return nx.relabel_nodes(G, {k: int(order[k]) for k in G})


def _weights(G) -> sp.csr_array:
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=sorted(G), dtype=float))


def _edges(L) -> set:
    return {tuple(sorted(map(int, e))) for e in zip(*sp.triu(L, 1).nonzero(), strict=True)}


def _perturbed(G, draw: int, laplacian=None) -> np.ndarray:
    return audit_input(fourier_basis(G, laplacian).eigenvectors, 1e-3, draw)


@pytest.mark.parametrize(
    ("G", "factor"),
    [
        (_box(nx.petersen_graph(), nx.cycle_graph(7)), ("cycle", 7)),
        (_box(nx.cycle_graph(20), nx.path_graph(4)), ("cycle", 20)),
        (_box(nx.heawood_graph(), nx.path_graph(5)), ("path", 5)),
        (nx.circular_ladder_graph(9), ("cycle", 9)),
        (nx.petersen_graph(), None),
        (nx.moebius_kantor_graph(), None),
        (nx.LCF_graph(20, [10], 20), None),  # the Moebius ladder: fibres twisted
        (nx.random_regular_graph(4, 40, seed=3), None),
        (_box(nx.petersen_graph(), nx.star_graph(3)), None),
    ],
)
def test_box_coordinates_recognise_products_with_a_cycle_or_path_only(G, factor):
    W = _weights(_scrambled(G))
    found = box_coordinates(W)
    assert (None if found is None else found[:2]) == factor
    if found is not None:
        # the coordinates give back the graph: nodes of one fibre share h, and the
        # edges join equal g (along H) or equal h (within a copy of G)
        kind, m, coords = found
        for i, j in _edges(W):
            same_g, same_h = coords[i, 0] == coords[j, 0], coords[i, 1] == coords[j, 1]
            assert same_g != same_h
            if same_g:
                step = abs(int(coords[i, 1]) - int(coords[j, 1]))
                assert step == 1 or (kind == "cycle" and step == m - 1)


def test_the_twins_of_a_box_product_with_a_cycle_are_its_relabellings_that_fit():
    # the Petersen graph boxed with the 7-cycle h ~ h + 2 (the answer of the eighth
    # audit's perturbed draws 0-2) has two twins, the products with h ~ h + 1 (the
    # truth) and h ~ h + 3: both have the exact eigenvectors of the first, 175 edges
    G = _box(nx.petersen_graph(), nx.cycle_graph(7))
    answer = _box(nx.petersen_graph(), nx.circulant_graph(7, [2]))
    basis = _read_basis(fourier_basis(G).eigenvectors, None, False, None, None)
    twins, listed = box_twins(basis, _weights(answer), [])
    assert len(twins) == 2 and listed == []
    for L in twins:
        assert _diagonal_fit(basis["V"], L)[1] < 1e-9
        assert sp.triu(L, 1).nnz == 175
        assert compare_graphs(answer, L)["f1"] == pytest.approx(0.6)
    assert _edges(_weights(G)) in [_edges(L) for L in twins]


def test_a_box_product_with_nothing_to_relabel_has_no_twin():
    # the cube boxed with a 6-cycle: 6 has no multiplier but +-1 and the cube is no
    # cycle or path, so there is nothing to relabel
    G = _box(nx.hypercube_graph(3), nx.cycle_graph(6))
    basis = _read_basis(fourier_basis(G).eigenvectors, None, False, None, None)
    assert box_coordinates(_weights(G))[:2] == ("cycle", 6)
    assert box_twins(basis, _weights(G), []) == ([], [])


@pytest.mark.parametrize("draw", [0, 2])
def test_perturbed_petersen_box_cycle_warns_with_the_truth_listed(draw):
    # eighth audit, perturbed by 1e-3: the Petersen graph boxed with the 7-cycle was
    # answered by its twin boxed with h ~ h + 2 (F1 0.6), family flag only, the truth
    # not among the candidates; the twins fit the eigenvectors as well as the truth
    G = _box(nx.petersen_graph(), nx.cycle_graph(7))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(_perturbed(G, draw), rng=0)
    assert result.history["box_twins"] >= 2
    assert sp.triu(result.laplacian, 1).nnz == 175
    assert compare_graphs(G, result)["f1"] in (pytest.approx(0.6), pytest.approx(1.0))
    assert [w for w in caught if issubclass(w.category, AmbiguousGraphWarning)]
    assert _edges(_weights(G)) in [_edges(L) for L in result.candidates]


def test_a_twin_among_the_candidates_is_named_by_its_index():
    # the truth listed by a search without a warning (Petersen boxed with a 5-cycle,
    # perturbed draw 0: F1 0.6, the truth a candidate, family flag only) is a twin too
    G = _box(nx.petersen_graph(), nx.cycle_graph(5))
    answer = _box(nx.petersen_graph(), nx.circulant_graph(5, [2]))
    B = fourier_basis(G)
    basis = _read_basis(B.eigenvectors, None, False, None, None)
    twins, listed = box_twins(basis, _weights(answer), [B.laplacian])
    assert twins == [] and listed == [0]
