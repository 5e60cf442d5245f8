"""Near twins: a graph that misses the heavy edges between nodes a column of the
eigenvectors lives on, refitted with those pairs (``_missing_edge_refit``)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pygsp
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input

from gsp_householder import fourier_basis
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._missing_edge_refit import _column_pairs, missing_edge_refit


def _edges(W) -> set:
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    return set(zip(upper.row.tolist(), upper.col.tolist(), strict=True))


@pytest.fixture(scope="module")
def sensor_without_twin_edges():
    """PyGSP ``Sensor(200, seed=5)`` as ``bench_inference.py`` builds it, its perturbed
    input (draw 0) read as ``infer_laplacian`` reads it, the truth's weights, and the
    truth without the edges of weight above 1/2 between the two nodes that hold at
    least 0.9 of a column's squared mass (near twins: 7 edges)."""
    G = pygsp.graphs.Sensor(200, seed=5)
    G = nx.from_scipy_sparse_array(G.W)
    G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
    truth = sp.csr_array(nx.adjacency_matrix(G, nodelist=list(G), weight="weight"))
    V = fourier_basis(G).eigenvectors
    Z = V * V
    twins = set()
    for k in np.flatnonzero(np.sort(Z, axis=0)[-2:].sum(axis=0) >= 0.9):
        a, b = sorted(np.argsort(-Z[:, k])[:2].tolist())
        if truth[a, b] > 0.5:
            twins.add((a, b))
    W = truth.tolil()
    for a, b in twins:
        W[a, b] = W[b, a] = 0.0
    basis = _read_basis(graph_bench_input(G, 0), None, None, None, None)
    return basis, _anchored_pair_basis(basis), truth, sp.csr_array(W), twins


def test_the_column_pairs_are_the_non_edges_columns_live_on(sensor_without_twin_edges):
    basis, _, truth, W, twins = sensor_without_twin_edges
    I, J = _column_pairs(basis["V"], W)
    pairs = set(zip(I.tolist(), J.tolist(), strict=True))
    assert len(pairs) == I.size and (I < J).all()
    assert twins <= pairs  # every near-twin edge missed
    assert not pairs & _edges(W)  # no edge of the graph
    assert len(pairs - _edges(truth)) > 50  # and many non-edges of the truth


def test_near_twin_edges_missed_are_refitted_and_the_other_pairs_dropped(
    sensor_without_twin_edges,
):
    """The missing-edges test does not flag the near-twin edges (their columns'
    eigenvalues absorb them): the refit of the non-edges it flags fails. With the column
    pairs added in the first round, the refit is the truth: the near-twin edges kept,
    the other pairs dropped as weak."""
    basis, B, truth, W, twins = sensor_without_twin_edges
    assert len(twins) == 7
    assert missing_edge_refit(B, basis, W) is None
    refit = missing_edge_refit(B, basis, W, column_pairs=True)
    assert refit is not None
    assert _edges(refit[3]) == _edges(truth)
