"""Regular twins of a regular graph found on noisy eigenvectors, listed and warned of
(``_regular_twins.regular_twins``, ``laplacian_inference._regular_twin_warning``)."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from gsp_householder import fourier_basis, infer_laplacian
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._laplacian_fit import _fits_as_well, _residuals
from gsp_householder.graphs._regular_family import MAX_DIMENSION, constant_diagonal_noise

MESSAGE = "other regular graph(s) with equal weights and as many edges"


def _perturbed_input(G, draw):
    # as ``benchmarks/bench_inference.py`` builds it: the shuffle of the exact input
    # first, then the eigenvectors perturbed by 1e-3 and shuffled, from one generator
    V = fourier_basis(G).eigenvectors
    n = V.shape[1]
    rng = np.random.default_rng(draw)
    rng.permutation(n), rng.choice([-1.0, 1.0], n)
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E))
    V = U @ Wt
    return V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def _edges(L):
    upper = sp.coo_array(sp.triu(sp.csr_array(L), 1))
    edges = zip(upper.row, upper.col, upper.data, strict=True)
    return {(int(i), int(j)) for i, j, w in edges if w < 0}


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, rng=0)
    return result, [w for w in caught if MESSAGE in str(w.message)]


@pytest.mark.parametrize(
    ("graph", "draw"),
    [(nx.pappus_graph, 0), (nx.heawood_graph, 2)],
    ids=["pappus-d0", "heawood-d2"],
)
def test_twin_returned_is_warned_with_the_truth_listed(graph, draw):
    # an isomorphic twin (same spectrum, the same eigenvectors, other edges) was
    # returned alone with no warning; the truth fits the noisy eigenvectors as well
    G = nx.convert_node_labels_to_integers(graph())
    truth = {tuple(sorted(e)) for e in G.edges}
    result, caught = _infer(_perturbed_input(G, draw))
    found = _edges(result.laplacian)
    assert found != truth and len(found) == len(truth)
    assert len(caught) == 1 and caught[0].category is AmbiguousGraphWarning
    listed = [_edges(C) for C in result.candidates]
    assert truth in listed
    assert len(result.history["regular_twin_edges"]) >= 1
    assert set(result.history["regular_twin_edges"]) == {len(truth)}


def test_right_answer_warned_only_of_twins_that_fit_as_well():
    # the Heawood graph found (perturbed, draw 3) has twins that fit as well: the warning
    # is true, and every twin listed fits within the slacks of the graph found
    G = nx.convert_node_labels_to_integers(nx.heawood_graph())
    truth = {tuple(sorted(e)) for e in G.edges}
    V = _perturbed_input(G, 3)
    result, caught = _infer(V)
    assert _edges(result.laplacian) == truth
    assert len(caught) == 1
    basis = _read_basis(V, None, False, None, None)
    W = sp.csr_array(np.diag(np.diag(result.laplacian.toarray())) - result.laplacian.toarray())
    reference = _residuals(basis, W)
    for C in result.candidates[-len(result.history["regular_twin_edges"]) :]:
        A = sp.csr_array((np.asarray(C.toarray()) < 0).astype(float))
        assert _fits_as_well(_residuals(basis, A), reference)


def test_family_read_below_its_widest_gap():
    # the Pappus graph's noisy constant-diagonal family has 9 directions: no gap among
    # the 9 smallest singular values, one below the widest among MAX_DIMENSION + 1
    G = nx.convert_node_labels_to_integers(nx.pappus_graph())
    B = _anchored_pair_basis(_read_basis(_perturbed_input(G, 0), None, False, None, None))
    assert constant_diagonal_noise(B) is None
    level = constant_diagonal_noise(B, tail_size=MAX_DIMENSION)
    assert level is not None and 1e-4 < level < 1e-2


def test_no_twins_of_an_irregular_graph():
    # the rule reads the family of regular graphs only
    from gsp_householder.graphs._regular_twins import regular_twins

    G = nx.convert_node_labels_to_integers(nx.heawood_graph())
    basis = _read_basis(_perturbed_input(G, 2), None, False, None, None)
    B = _anchored_pair_basis(basis)
    W = nx.to_scipy_sparse_array(G, nodelist=range(14), format="csr")
    W = sp.csr_array(W)
    W[0, 1] = W[1, 0] = 0.0
    W.eliminate_zeros()
    assert regular_twins(basis, B, W, 1e-3) == []
