"""Graphs held together only by edges within one noise unit of zero (module
``_noise_connected``), and the warning of the inference on such an answer."""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._noise_connected import noise_level_edges, split_at_noise

# the standardised noise level the noisy ladder reports on inputs perturbed by 1e-3
# (``history["noise"]`` 2.6e-4 on Heawood x C5 draw 5)
NOISE = 3e-4


def _joined(weight: float) -> sp.csr_array:
    """Two copies of the Petersen graph (unit weights) joined by two edges of
    ``weight``, as a Laplacian."""
    A = nx.to_numpy_array(nx.disjoint_union(nx.petersen_graph(), nx.petersen_graph()))
    A[0, 10] = A[10, 0] = A[5, 17] = A[17, 5] = weight
    return sp.csr_array(np.diag(A.sum(axis=1)) - A)


def test_light_joining_edges_split_the_graph():
    # s_i ~ sqrt(3^2 + 3) = 3.5 on every node: one noise unit is 3e-4 * 7 = 2.1e-3;
    # joining edges of 1e-3 lie within it, of 1e-2 outside it
    assert split_at_noise(_joined(1e-3), NOISE) == (2, 2)
    assert split_at_noise(_joined(1e-2), NOISE) is None
    # no noise level, no reading
    assert split_at_noise(_joined(1e-3), 0.0) is None


def test_only_the_light_edges_are_at_the_noise_level():
    L = _joined(1e-3)
    weak = noise_level_edges(L, NOISE)
    U = sp.triu(L, 1).tocoo()
    assert weak.sum() == 2
    assert {(int(i), int(j)) for i, j in zip(U.row[weak], U.col[weak], strict=True)} == {
        (0, 10),
        (5, 17),
    }


def test_a_light_edge_that_does_not_hold_the_graph_together_is_not_read():
    # a light chord inside a connected graph: dropped, the graph stays connected
    A = nx.to_numpy_array(nx.petersen_graph())
    A[0, 2] = A[2, 0] = 1e-3
    L = sp.csr_array(np.diag(A.sum(axis=1)) - A)
    assert noise_level_edges(L, NOISE).sum() == 1
    assert split_at_noise(L, NOISE) is None
