"""A weighted cycle read from the eigenvectors: the angles, then the heavy groups ordered."""

from __future__ import annotations

from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled
from test_edge_test_descent import _basis, _edges, _weights

from gsp_householder import fourier_basis
from gsp_householder.graphs import laplacian_inference as inference
from gsp_householder.graphs._cycle_read import (
    cycle_order,
    heavy_groups,
    read_cycle,
    round_pairs,
)
from gsp_householder.graphs._edge_test_descent import anchored_fit, connected
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian, _residuals
from gsp_householder.graphs.laplacian_inference import _edge_test_descended

#: Heavy edges ``(h, h + 1)`` of the cycle: one alone, and a chain of two (a group of
#: three nodes carrying two columns).
HEAVY = (5, 17, 18)


def _heavy_cycle(n, seed):
    """A cycle with lognormal weights and the edges ``(h, h + 1)``, ``h`` in ``HEAVY``,
    of weight 60."""
    G = nx.cycle_graph(n)
    weights = np.random.default_rng(seed).lognormal(0.0, 1.0, n)
    for (u, v), w in zip(G.edges, weights, strict=True):
        G[u][v]["weight"] = 60.0 if min(u, v) in HEAVY and abs(u - v) == 1 else float(w)
    return G


def _setup(G, draw):
    basis = _basis(perturbed(shuffled(fourier_basis(G).eigenvectors, draw), 1e-3, draw))
    W = sp.csr_array(_weights(G))
    eigenvalues, _ = _diagonal_fit(basis["V"], _laplacian(W, basis))
    return basis, W, eigenvalues


@pytest.mark.parametrize(("seed", "draw"), [(1, 0), (2, 1), (3, 2), (4, 3)])
def test_the_cycle_is_read(seed, draw):
    """The heavy groups are the heavy edges' nodes, the angles alone go wrong only at
    nodes of a heavy group, and the cycle read is the cycle, fitting as well as its own
    edges refitted."""
    G = _heavy_cycle(60, seed)
    basis, W, eigenvalues = _setup(G, draw)
    groups = [sorted(g) for g in heavy_groups(basis["V"], basis["zero_column"])]
    assert [5, 6] in groups and [17, 18, 19] in groups
    grouped = {a for g in groups for a in g}
    order = cycle_order(basis["V"], eigenvalues, basis["zero_column"])
    after = np.roll(order, -1)
    wrong = [(a, b) for a, b in zip(order, after, strict=True) if W[a, b] == 0]
    assert all(a in grouped or b in grouped for a, b in wrong)
    A = read_cycle(basis, eigenvalues, W)
    assert A is not None
    assert _edges(A) == _edges(W)


@pytest.mark.parametrize(("seed", "draw"), [(1, 0), (5, 1)])
def test_the_winding_pair_read_where_the_eigenvalues_misplace_it(seed, draw):
    """With the eigenvalues of the ring's two least columns swapped with the two
    largest (the graph found ranking them wrongly), the two columns of least eigenvalue
    give a cycle the graph holds no more than half of; the pair read from the basis (the
    roundest pairs) is the winding pair, and the cycle read is the cycle."""
    G = _heavy_cycle(60, seed)
    basis, W, eigenvalues = _setup(G, draw)
    zero = basis["zero_column"]
    least = [int(k) for k in np.argsort(eigenvalues, kind="stable") if k != zero][:2]
    assert sorted(round_pairs(basis["V"], zero, 1)[0]) == sorted(least)
    largest = [int(k) for k in np.argsort(eigenvalues, kind="stable")[-2:]]
    misplaced = eigenvalues.copy()
    misplaced[least + largest] = eigenvalues[largest + least]
    order = cycle_order(basis["V"], misplaced, zero)
    assert 2 * np.count_nonzero(W[order, np.roll(order, -1)]) <= 60
    A = read_cycle(basis, misplaced, W)
    assert A is not None
    assert _edges(A) == _edges(W)


def test_groups_ordered_where_the_angles_swap():
    """Heavier edges (weight 600) swap their nodes in the angles' order on some draws;
    the groups' orders chosen by the fit give a cycle that fits at least as well as the
    cycle's own edges refitted on every draw (the cycle itself where the two nodes of an
    edge of 600 are swapped; within the chain of two such edges the order of least
    residual can differ from the cycle's: draw 2 fits better with two of its three nodes
    swapped, which the eigenvectors do not tell apart at this noise)."""
    G = _heavy_cycle(80, 7)
    for u in HEAVY:
        G[u][u + 1]["weight"] = 600.0
    swapped = 0
    for draw in range(4):
        basis, W, eigenvalues = _setup(G, draw)
        order = cycle_order(basis["V"], eigenvalues, basis["zero_column"])
        swapped += int(np.count_nonzero(W[order, np.roll(order, -1)] == 0) > 0)
        A = read_cycle(basis, eigenvalues, W)
        upper = sp.triu(W, 1).tocoo()
        own = anchored_fit(basis, upper.row, upper.col)
        assert A is not None
        assert _residuals(basis, A)[1] <= _residuals(basis, own)[1] * (1.0 + 1e-9)
        assert _edges(A) - _edges(W) <= {17 * 80 + 19, 18 * 80 + 20}
    assert swapped > 0


def test_no_cycle_behind_a_tree():
    """Behind a tree the inference keeps the tree: the cycle read (41 edges, the pairs of
    non-positive weight left out) is no connected graph."""
    G = nx.random_labeled_tree(60, seed=3)
    nx.set_edge_attributes(G, 1.0, "weight")
    basis, W, eigenvalues = _setup(G, 0)
    A = read_cycle(basis, eigenvalues, W)
    assert A is None or not connected(A)
    history = {"noise": 1e-4}
    B = SimpleNamespace(n=60, n_pairs=60 * 59 // 2)
    assert _edge_test_descended(basis, B, [(59, 0.0, None, W)], history)[0] is None
    assert "cycle_read" not in history


@pytest.mark.parametrize(("seed", "weighted"), [(3, False), (4, True)])
def test_a_tree_found_is_not_descended_from(monkeypatch, seed, weighted):
    """From a spanning tree found, whose missing-edges test shows non-edges, no cycle is
    read and no descent made (no connected graph is sparser than a tree, and only a
    sparser one is returned): the graph found stays, with the edge tests and the
    split's record that the full path gives."""
    G = nx.random_labeled_tree(60, seed=seed)
    weights = np.random.default_rng(seed).lognormal(0.0, 1.0, 59) if weighted else None
    for k, (u, v) in enumerate(G.edges):
        G[u][v]["weight"] = 1.0 if weights is None else float(weights[k])
    basis, _, _ = _setup(G, 0)
    # the tree with one edge moved: the edge left out is a missing edge
    u, v = next(iter(G.edges))
    G.remove_edge(u, v)
    a, b = (sorted(c) for c in nx.connected_components(G))
    G.add_edge(a[-1], b[-1], weight=1.0)
    W = sp.csr_array(_weights(G))
    B = SimpleNamespace(n=60, n_pairs=60 * 59 // 2)
    ranked = [(59, 0.0, None, W)]
    full = {"noise": 1e-4}
    _, tested = _edge_test_descended(basis, B, ranked, full)
    assert tested[1] is not None and tested[1]["count"] > 0

    def made(*args, **kwargs):
        raise AssertionError("made for a tree found")

    monkeypatch.setattr(inference, "read_cycle", made)
    monkeypatch.setattr(inference, "edge_test_descent", made)
    history = {"noise": 1e-4}
    A, again = _edge_test_descended(basis, B, ranked, history)
    assert A is None and history == full
    assert again[1]["count"] == tested[1]["count"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_inference_returns_the_cycle_read(seed):
    """From the cycle with its heavy edges read as twins (the pairs at distance 2 around
    them instead) and five light chords, the graph returned is the cycle read."""
    G = _heavy_cycle(60, seed)
    basis, W, _ = _setup(G, 0)
    twins = [(4, 6), (5, 7), (16, 18), (17, 19), (18, 20)]
    chords = [(0, 30), (10, 40), (25, 45), (2, 12), (8, 28)]
    start = _weights(G, extra=twins, dropped=[(5, 6), (17, 18), (18, 19)])
    start = sp.csr_array(start + 0.05 * _weights(nx.empty_graph(60), extra=chords))
    m = sp.triu(start, 1).nnz
    history = {"noise": 1e-4}
    B = SimpleNamespace(n=60, n_pairs=60 * 59 // 2)
    A, _ = _edge_test_descended(basis, B, [(m, 0.0, None, start)], history)
    assert history.get("cycle_read") is True
    assert _edges(A) == _edges(W)
    assert _residuals(basis, A)[1] < _residuals(basis, start)[1]
