"""A cycle's order repaired by sorting its windows along the columns localised there."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import graph_bench_input
from test_edge_test_descent import _basis

from gsp_householder.graphs._cycle_blocks import _path_edges, reorder_blocks
from gsp_householder.graphs._cycle_repair import support_misfit
from gsp_householder.graphs._cycle_sorted_windows import (
    MAX_SPAN,
    sort_windows,
    sorted_windows,
    sorting_columns,
)

#: A chain of eight edges, nodes 30 to 38, in a cycle of 60 (weights of the chain
#: 438-446 of ``cycle_graph(450)`` with lognormal weights, sigma 2, ``default_rng(5)``).
CHAIN_WEIGHTS = (0.5, 11.7, 2.9, 1.6, 55.6, 5.3, 13.7, 0.1)

#: The chain's nodes as that cycle's angles' order, adjacent swaps and block windows
#: leave them (perturbed by 1e-3, draw 1).
SCRAMBLED = (30, 32, 35, 33, 34, 37, 31, 36, 38)


def _chain_cycle(seed):
    """A cycle of 60 nodes with lognormal weights (sigma 1) and the chain above."""
    G = nx.cycle_graph(60)
    weights = np.random.default_rng(seed).lognormal(0.0, 1.0, 60)
    for (u, v), w in zip(G.edges, weights, strict=True):
        a = min(u, v)
        chained = abs(u - v) == 1 and 30 <= a < 38
        G[u][v]["weight"] = CHAIN_WEIGHTS[a - 30] if chained else float(w)
    return G


def _cycle_edges(order):
    return _path_edges(np.r_[order, order[0]])


def test_moves_sort_each_run_of_a_columns_places():
    """A column's block within ``MAX_SPAN`` places proposes each run of at least two of
    its places sorted by the column, both ways round, and no run already so."""
    order = np.array([0, 1, 4, 3, 2, 5, 6, 7])
    column = np.array([0.0, 0.0, 1.0, 2.0, 3.0, 0.0, 0.0, 0.0])
    moves = sorted_windows(order, [(np.array([2, 3, 4]), column)])
    assert (2, (2, 3, 4)) in moves and (3, (2, 3)) in moves
    assert (2, (4, 3, 2)) not in moves  # the run as it stands
    assert all(2 <= start and start + len(nodes) <= 5 for start, nodes in moves)
    # a block on both sides of the order's start: its places run round the cycle
    assert sorted_windows(order, [(np.array([0, 7]), column)]) == [(7, (0, 7))]


def test_columns_localised_on_at_most_max_span_nodes():
    """The columns kept are those whose energy sits on two to ``MAX_SPAN`` nodes."""
    V = np.eye(60)[:, ::-1]
    V[:, 0] = 1.0 / np.sqrt(60.0)
    columns = sorting_columns(V, 0)
    assert columns == []  # one node each
    spread = np.zeros(60)
    spread[: 2 * MAX_SPAN] = 1.0
    V[:, 1] = spread
    two = np.zeros(60)
    two[[3, 9]] = 1.0
    V[:, 2] = two
    blocks = [sorted(block.tolist()) for block, _ in sorting_columns(V, 0)]
    assert blocks == [[3, 9]]


@pytest.mark.parametrize(("seed", "draw"), [(2, 1), (5, 4)])
def test_chain_longer_than_a_block_window_is_sorted_back(seed, draw):
    """The chain scrambled over nine places, beyond the block windows (``reorder_blocks``
    does not put it back), is put back by windows sorted along its columns: the cycle,
    of least support misfit, which no sorted window moves."""
    basis = _basis(graph_bench_input(_chain_cycle(seed), draw))
    truth = np.arange(60)
    order = truth.copy()
    order[30:39] = SCRAMBLED
    assert support_misfit(basis, truth) < support_misfit(basis, order)
    assert _cycle_edges(reorder_blocks(basis, order)) != _cycle_edges(truth)
    assert _cycle_edges(sort_windows(basis, order)) == _cycle_edges(truth)
    assert np.array_equal(sort_windows(basis, truth), truth)
