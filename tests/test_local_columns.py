"""Columns supported on a few nodes (twin nodes): found, and set to the sparsest entries."""

import networkx as nx
import numpy as np
import scipy.sparse as sp
from _basis_inputs import shuffled as _shuffled

from gsp_householder.graphs import _basis_input, _candidate_search, _ranking_ladder
from gsp_householder.graphs import laplacian_inference as inference
from gsp_householder.graphs._local_columns import explains, local_groups, sparsify_local
from gsp_householder.graphs.comparison import compare_graphs
from gsp_householder.graphs.fourier import fourier_basis


def _pairs(V):
    basis = _basis_input._read_basis(V, None, None, None, None)
    return _basis_input._anchored_pair_basis(basis)


def _twin_classes(G, nodelist):
    """Classes of nodes with the same closed neighbourhood (true twins)."""
    index = {v: k for k, v in enumerate(nodelist)}
    classes = {}
    for v in nodelist:
        key = frozenset(index[w] for w in G[v]) | {index[v]}
        classes.setdefault(key, []).append(index[v])
    return [c for c in classes.values() if len(c) > 1]


def _edge_set(L):
    U = sp.triu(sp.csr_array(L), 1).tocoo()
    return set(zip(U.row.tolist(), U.col.tolist(), strict=True))


def test_twin_column_is_local_and_its_edge_is_dropped():
    # path 0-...-6 with node 7 a true twin of node 2: e_2 - e_7 is an eigenvector
    G = nx.path_graph(7)
    G.add_edges_from([(7, 1), (7, 2), (7, 3)])
    F = fourier_basis(G)
    B = _pairs(F.eigenvectors)
    groups = local_groups(B)
    assert len(groups) == 1 and groups[0].nodes.tolist() == [2, 7]
    L = F.laplacian.toarray()
    lam = np.diag(B.V.T @ L @ B.V) / B.n                   # the true eigenvalues
    sparse = sparsify_local(B, lam, groups, np.full(B.n, 1e-12), 1e-5)
    L2 = B.matrix(sparse) * np.outer(B.u, B.u)
    L2 /= -L2[0, 1]                                          # edge (0, 1) has weight 1
    d = np.zeros(B.n)
    d[[2, 7]] = [1.0, -1.0]
    np.testing.assert_allclose(L2, L - np.outer(d, d), atol=1e-10)   # edge (2, 7) dropped
    # only the twin column's eigenvalue moved
    other = 0 if 0 not in groups[0].cols else 1
    moved = np.flatnonzero(~np.isclose(sparse, lam * sparse[other] / lam[other], atol=1e-10))
    assert moved.tolist() == groups[0].cols.tolist()


def test_explains_a_family_of_one_member_plus_local_columns():
    G = nx.path_graph(7)
    G.add_edges_from([(7, 1), (7, 2), (7, 3)])
    B = _pairs(fourier_basis(G).eigenvectors)
    groups = local_groups(B)
    main = np.linspace(1.0, 2.0, B.g)
    local = np.zeros(B.g)
    local[groups[0].cols] = 1.0
    assert explains(groups, np.column_stack([main, local]))
    other = np.zeros(B.g)
    other[0] = 1.0 if 0 not in groups[0].cols else 0.0
    other[1] = 1.0 if 1 not in groups[0].cols else 0.0
    assert not explains(groups, np.column_stack([main, local, other]))


def test_large_graph_path_drops_exactly_the_twin_edges(monkeypatch):
    # a random geometric graph with 10 classes of true twins (24 pairs within classes):
    # the sparsest graph with its eigenvectors is the graph without those 24 edges
    for patched in (_basis_input, _candidate_search, _ranking_ladder):
        monkeypatch.setattr(patched, "LADDER_MAX_N", 50)
    G = nx.random_geometric_graph(120, 0.16, seed=2)
    G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
    F = fourier_basis(G)
    classes = _twin_classes(G, F.nodelist)
    within = {(a, b) for c in classes for a in c for b in c if a < b}
    assert len(within) == 24
    res = inference.infer_laplacian(_shuffled(F.eigenvectors, 0), rng=0)
    expected = _edge_set(F.laplacian) - within
    assert _edge_set(res.laplacian) == expected
    assert res.residual < 1e-9
    assert res.family_dimension > 1
    assert compare_graphs(F.laplacian, res.laplacian)["f1"] > 0.97
