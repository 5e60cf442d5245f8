"""Classes of non-adjacent twins joined one block at a time: every graph they make that
fits is a candidate, so a graph that joins some classes and not others is listed."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input

from gsp_householder import fourier_basis
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._laplacian_fit import _residuals
from gsp_householder.graphs._twin_cliques import twin_clique_members, with_twin_cliques
from gsp_householder.graphs._twin_superset import twin_classes


def _weights(G):
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(len(G)), dtype=float))


def _edges(W):
    U = sp.triu(W, 1).tocoo()
    return set(zip(U.row.tolist(), U.col.tolist(), strict=True))


@pytest.fixture(scope="module")
def cave():
    """`relaxed_caveman_graph(5, 8, 0.15, seed=71)`, exact input of draw 1, and the
    graph inferred from it: the truth without the edges inside its four classes of
    adjacent twins. Nodes 14 and 15 are non-adjacent twins of the truth."""
    G = nx.relaxed_caveman_graph(5, 8, 0.15, seed=71)
    G.remove_edges_from(list(nx.selfloop_edges(G)))
    assert nx.is_connected(G)
    basis = _read_basis(graph_bench_input(G, 1, perturbed=False), None, None, "combinatorial", None)
    W = _weights(G)
    sparsest = nx.Graph(G)
    for nodes in twin_classes(W, 2, adjacent_only=True):
        sparsest.remove_edges_from((a, b) for a in nodes for b in nodes if a < b)
    return G, basis, _weights(sparsest)


def test_the_graph_with_some_classes_joined_is_listed(cave):
    G, basis, W = cave
    truth = {tuple(sorted(e)) for e in G.edges}
    joined = with_twin_cliques(basis, W, 0.0)
    assert _edges(joined) == truth | {(14, 15)}  # every class joined: not the truth
    members = twin_clique_members(basis, W, 0.0)
    assert _edges(members[0]) == _edges(joined)
    assert truth in [_edges(A) for A in members]
    assert all(_residuals(basis, A)[0] <= 1e-6 for A in members)


def test_classes_that_share_mixed_columns_are_joined_together():
    # two pairs of twins whose vectors share the eigenvalue 4 (the eigensolver may mix
    # them) and a triple at 5: the pairs' cliques fit together or not at all
    G = nx.empty_graph(11)
    G.add_edges_from([(0, 3), (3, 7), (0, 7), (0, 8), (8, 3)])
    for pair, hubs in (([1, 2], [0, 7]), ([9, 10], [3, 8])):
        G.add_edges_from((u, v) for u in pair for v in hubs)
        G.add_edge(*pair)
    G.add_edges_from((u, v) for u in [4, 5, 6] for v in [3, 7])
    G.add_edges_from([(4, 5), (4, 6), (5, 6)])
    V = fourier_basis(G).eigenvectors
    # mix the two pairs' vectors inside their eigenspace
    cols = np.flatnonzero(np.abs(fourier_basis(G).eigenvalues - 4.0) < 1e-9)
    angle = 0.6
    R = np.eye(cols.size)
    R[:2, :2] = [[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]]
    V[:, cols] = V[:, cols] @ R
    basis = _read_basis(V, None, None, "combinatorial", None)
    H = nx.Graph(G)
    H.remove_edges_from([(1, 2), (9, 10), (4, 5), (4, 6), (5, 6)])
    W = _weights(H)
    members = [_edges(A) for A in twin_clique_members(basis, W, 0.0)]
    added = [sorted(m - _edges(W)) for m in members]
    assert added[0] == sorted([(1, 2), (9, 10), (4, 5), (4, 6), (5, 6)])
    assert [(1, 2), (9, 10)] in added and [(4, 5), (4, 6), (5, 6)] in added
    assert all(((1, 2) in m) == ((9, 10) in m) for m in members)
