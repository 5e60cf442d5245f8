"""A weighted member of a noisy Cayley basis: its sparser Cayley twins go first."""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import laplacian

from gsp_householder import fourier_basis
from gsp_householder.graphs._cayley_sparser import sparser_cayley_twins
from tests._basis_inputs import perturbed, shuffled


def _weights(G) -> sp.csr_array:
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=sorted(G), dtype=float))


def _basis(V) -> dict:
    return {"V": V, "kind": "combinatorial", "ordered": False, "scale": None}


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
