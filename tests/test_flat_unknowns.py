"""Flat columns in the fitted rankings' span (``_fitted_ranking.flat_unknowns``): the
community vectors of a block model with two dense blocks, and the trimmed fit started
with their eigenvalues half way (``_halfway_start``)."""

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import bench_input, pygsp_block_model

from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs._basis_input import _anchored_pair_basis
from gsp_householder.graphs._fitted_ranking import fitted_ranking, flat_unknowns
from gsp_householder.graphs._ranking_ladder import kept_fitted_ranking
from gsp_householder.graphs.comparison import compare_graphs
from gsp_householder.graphs.fourier import fourier_basis
from gsp_householder.graphs.laplacian_inference import infer_laplacian


def _pair_basis(V):
    return _anchored_pair_basis({"V": V, "kind": "combinatorial", "groups": None, "ordered": False})


@pytest.fixture(scope="module")
def two_blocks():
    # two blocks of 50 at density 0.7, 0.15 between them: 42 % of the pairs are edges
    G = pygsp_block_model(100, 2, 1)
    return G, fourier_basis(G)


def test_the_flat_unknown_is_the_community_vector(two_blocks):
    _, B = two_blocks
    V = np.asarray(B.eigenvectors)
    P = _pair_basis(V)
    flat = flat_unknowns(P)
    # the columns in ascending order of eigenvalue; the zero-eigenvalue one is not an
    # unknown, so unknown 0 is the column of the second smallest eigenvalue (13.9, the
    # others 31 to 55)
    assert flat.tolist() == [0]


def test_a_dense_random_graph_has_no_flat_unknown():
    G = nx.gnp_random_graph(100, 0.4, seed=1)
    assert flat_unknowns(_pair_basis(np.asarray(fourier_basis(G).eigenvectors))).size == 0


@pytest.mark.parametrize("perturbed", [False, True])
def test_the_fitted_ranking_keeps_no_edge_of_two_dense_blocks(two_blocks, perturbed):
    # in the plain span, 1098 of the 2079 edges were among the 2475 pairs kept
    G, B = two_blocks
    P = _pair_basis(bench_input(B.eigenvectors, 0, perturbed))
    scores, (_, I, J), _ = kept_fitted_ranking(P, (16, 0.5, "fitted"))
    A = nx.to_numpy_array(G, nodelist=range(len(G))) > 0
    i, j = np.triu_indices(len(G), 1)
    left_out = np.zeros(A.shape, dtype=bool)
    left_out[I, J] = True
    assert not np.any(A[i, j] & ~left_out[i, j])
    m = G.number_of_edges()
    assert A[i, j][np.argsort(-scores[i, j], kind="stable")[:m]].all()


@pytest.mark.parametrize("perturbed", [False, True])
def test_two_dense_blocks_are_inferred(two_blocks, perturbed):
    # main returned the complete graph, warned (F1 0.59); the graph's complement, also
    # connected, has the same eigenvectors, and that is the only warning
    _, B = two_blocks
    with pytest.warns(AmbiguousGraphWarning, match="complement"):
        res = infer_laplacian(bench_input(B.eigenvectors, 0, perturbed), rng=0)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0


def test_a_wider_span_that_keeps_edges_is_not_kept():
    # three blocks, only one of whose two community vectors is flat: with it in the
    # span the fit keeps 12 edges (estimate 5.4e-3), without it none (8.1e-5)
    G = pygsp_block_model(120, 3, 3)
    B = fourier_basis(G)
    P = _pair_basis(bench_input(B.eigenvectors, 0))
    flat = flat_unknowns(P)
    assert flat.size == 1
    _, (_, I, J), noise = kept_fitted_ranking(P, (16, 0.5, "fitted"))
    A = nx.to_numpy_array(G, nodelist=range(len(G))) > 0
    assert A[I, J].sum() == G.number_of_edges()  # every edge left out
    assert noise < 1e-3
    _, (_, I, J) = fitted_ranking(P, r=16, keep=0.5, flat=flat)
    assert A[I, J].sum() < G.number_of_edges()  # the wider span's ranking keeps edges
