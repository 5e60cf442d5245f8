"""Heavy edges read as twins: the split joins the pair and splits its neighbours."""

from __future__ import annotations

from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled
from test_edge_test_descent import _basis, _edges, _weights

from gsp_householder import fourier_basis
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs._edge_test_descent import edge_test_descent
from gsp_householder.graphs._laplacian_fit import _residuals
from gsp_householder.graphs._twin_split import twin_pairs, twin_split
from gsp_householder.graphs.laplacian_inference import _edge_test_descended

HEAVY = (5, 17)


def _heavy_cycle(n, seed):
    """A cycle with lognormal weights and the edges ``(h, h + 1)``, ``h`` in ``HEAVY``,
    of weight 60: each gives a column close to $(e_h - e_{h+1}) / \\sqrt 2$."""
    G = nx.cycle_graph(n)
    weights = np.random.default_rng(seed).lognormal(0.0, 1.0, n)
    for (u, v), w in zip(G.edges, weights, strict=True):
        G[u][v]["weight"] = 60.0 if min(u, v) in HEAVY and abs(u - v) == 1 else float(w)
    return G


def _as_twins(G):
    """The cycle with each heavy edge read as twins: the edge dropped, the pairs at
    distance 2 around it added (its nodes share their neighbours)."""
    extra = [(h - 1, h + 1) for h in HEAVY] + [(h, h + 2) for h in HEAVY]
    return _weights(G, extra=extra, dropped=[(h, h + 1) for h in HEAVY])


@pytest.mark.parametrize(("seed", "draw"), [(1, 0), (2, 1), (3, 2), (5, 1)])
def test_split_reads_the_heavy_edges_back(seed, draw):
    """From the cycle with its two heavy edges read as twins, the pairs found are the
    heavy edges, and the split ends at the cycle, which fits better."""
    G = _heavy_cycle(40, seed)
    basis = _basis(perturbed(shuffled(fourier_basis(G).eigenvectors, draw), 1e-3, draw))
    start = _as_twins(G)
    assert twin_pairs(basis["V"], start) == [(h, h + 1) for h in HEAVY]
    A = twin_split(basis, start)
    assert A is not None
    assert _edges(A) == _edges(_weights(G))
    assert _residuals(basis, A)[1] < _residuals(basis, start)[1]


def test_no_pair_on_the_cycle_itself():
    """On the cycle itself every heavy edge is joined: no pair, nothing split."""
    G = _heavy_cycle(40, 1)
    basis = _basis(perturbed(shuffled(fourier_basis(G).eigenvectors, 0), 1e-3, 0))
    W = sp.csr_array(_weights(G))
    assert twin_pairs(basis["V"], W) == []
    assert twin_split(basis, W) is None


@pytest.mark.parametrize(("seed", "draw"), [(1, 0), (6, 2)])
def test_split_where_the_descent_fails(seed, draw):
    """From the cycle with its heavy edges read as twins and five chords, the
    missing-edges test flags enough non-edges for the descent, which ends at a denser
    graph (48 and 52 edges for 47), refused: the inference splits the graph found
    instead, and the cycle is returned, with a warning."""
    G = _heavy_cycle(40, seed)
    basis = _basis(perturbed(shuffled(fourier_basis(G).eigenvectors, draw), 1e-3, draw))
    chords = [(0, 20), (10, 30), (25, 35), (2, 12), (8, 28)]
    start = sp.csr_array(_as_twins(G) + _weights(nx.empty_graph(40), extra=chords))
    descended = edge_test_descent(basis, start)
    assert descended is None or sp.triu(descended, 1).nnz >= sp.triu(start, 1).nnz
    m = sp.triu(start, 1).nnz
    B = SimpleNamespace(n=40, n_pairs=40 * 39 // 2)
    history = {"noise": 1e-4}
    with pytest.warns(ConvergenceWarning, match="joining the pairs that a column"):
        A, _ = _edge_test_descended(basis, B, [(m, 0.0, None, start)], history)
    assert A is not None and history["twin_split"] and history["edge_test_split"]
    assert _edges(A) == _edges(_weights(G))
