"""The sparsest Cayley graphs of the basis's abelian group: exact (the grouped search
alone) and behind a weighted member of a noisy family."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import laplacian

from gsp_householder import fourier_basis, infer_laplacian
from gsp_householder.graphs._cayley_sparser import sparser_cayley_twins
from gsp_householder.graphs._cayley_sparsest import sparsest_cayley
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian
from tests._basis_inputs import perturbed, rotated, shuffled


def _weights(G) -> sp.csr_array:
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=sorted(G), dtype=float))


def _basis(V) -> dict:
    return {"V": V, "kind": "combinatorial", "ordered": False, "scale": None}


def _input(G, seed):
    G = nx.convert_node_labels_to_integers(G)
    V = shuffled(rotated(fourier_basis(G), np.random.default_rng(seed)), seed)
    return G, _basis(V)


@pytest.mark.parametrize(
    "G", [nx.cycle_graph(30), nx.circulant_graph(36, [1, 5]), nx.circular_ladder_graph(12)]
)
def test_a_cayley_graph_with_no_sparser_one_sharing_its_eigenvectors_is_settled(G):
    # the cycle: only the 15-edge matching is sparser (disconnected); the circulant
    # C_36(1, 5) and the ladder: no class alone has their eigenvectors
    G, basis = _input(G, 3)
    W = _weights(G)
    assert _diagonal_fit(basis["V"], _laplacian(W, basis))[1] < 1e-12
    level = sparsest_cayley(basis, W)
    assert level is not None
    # the level's other Cayley graphs fit too, with as many edges, connected
    for A in level:
        assert sp.triu(A, 1).nnz == sp.triu(W, 1).nnz
        assert _diagonal_fit(basis["V"], _laplacian(A, basis))[1] < 1e-12
        assert nx.is_connected(nx.from_scipy_sparse_array(A))


def test_a_sparser_cayley_graph_that_fits_is_found():
    # C_31(1, 2) has the planes of the cycle C_31(1) (no two of its eigenvalues
    # coincide): the cycle fits with fewer edges, so the 62-edge graph is not the
    # sparsest Cayley graph
    G, basis = _input(nx.circulant_graph(31, [1, 2]), 5)
    W = _weights(G)
    assert _diagonal_fit(basis["V"], _laplacian(W, basis))[1] < 1e-12
    assert None is sparsest_cayley(basis, W)
    cycle = _weights(nx.cycle_graph(31))
    assert _diagonal_fit(basis["V"], _laplacian(cycle, basis))[1] < 1e-12


def test_weighted_and_non_cayley_graphs_are_not_settled():
    G, basis = _input(nx.cycle_graph(30), 2)
    W = _weights(G)
    weighted = W.copy()
    weighted.data = weighted.data * np.where(np.arange(weighted.data.size) % 2, 1.0, 2.0)
    weighted = sp.csr_array((weighted + weighted.T) / 2)
    assert None is sparsest_cayley(basis, weighted)
    path = W.tolil()
    path[0, 29] = path[29, 0] = 0.0
    assert None is sparsest_cayley(basis, sp.csr_array(path))
    # no group: a graph without character planes (the Petersen graph)
    P, pbasis = _input(nx.petersen_graph(), 1)
    assert None is sparsest_cayley(pbasis, _weights(P))


def test_the_harary_graph_exact_is_answered_by_the_grouped_search_alone():
    # hkn_harary_graph(5, 60) exact: the grouped search's 120-edge Cayley graph fits and
    # no Cayley graph with fewer edges does; the ungrouped search (whose exact graph does
    # not fit, then three refit ladders: most of 5-9 CPU s) is not run
    G = nx.convert_node_labels_to_integers(nx.hkn_harary_graph(5, 60))
    V = shuffled(fourier_basis(G).eigenvectors, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    assert "misfit_refits" not in res.history
    assert res.history["eigenspace_groups"] > 1
    assert res.n_edges == 120
    L = res.laplacian.toarray() if sp.issparse(res.laplacian) else np.asarray(res.laplacian)
    M = V.T @ L @ V
    assert np.linalg.norm(M - np.diag(np.diag(M))) <= 1e-10 * np.linalg.norm(L)
    assert caught  # other valid graphs as sparse: warned


def test_a_weighted_member_of_a_noisy_cayley_basis_has_sparser_cayley_twins_first():
    # L - 0.05 L^2 of the circulant C_30(1, 4): valid, weighted, with its eigenvectors
    # and the distance-2 pairs as edges; perturbed eigenvectors: the connected Cayley
    # graphs with fewer edges that fit as well come sparsest first, the circulant's
    # level among them; the circulant itself (equal weights) has none put before it
    G = nx.convert_node_labels_to_integers(nx.circulant_graph(30, [1, 4]))
    V = perturbed(shuffled(fourier_basis(G).eigenvectors, 2), 1e-3, 2)
    basis = _basis(V)
    W = _weights(G)
    L = laplacian(W.toarray())
    member = L - 0.05 * L @ L
    Wm = sp.csr_array(np.where(np.eye(30, dtype=bool), 0.0, -member))
    assert Wm.min() >= 0.0 and sp.triu(Wm, 1).nnz > 60
    twins = sparser_cayley_twins(basis, Wm, 1e-3)
    assert twins
    sizes = [sp.triu(A, 1).nnz for A in twins]
    assert sizes == sorted(sizes) and max(sizes) < sp.triu(Wm, 1).nnz
    assert all(nx.is_connected(nx.from_scipy_sparse_array(A)) for A in twins)
    assert 60 in sizes
    assert sparser_cayley_twins(basis, W, 1e-3) == []
