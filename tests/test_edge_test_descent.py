"""The descent of the edge tests: weak edges dropped, missing edges added, refitted."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import fourier_basis
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._edge_significance import edge_significance
from gsp_householder.graphs._edge_test_descent import edge_test_descent, settled, support_fit
from gsp_householder.graphs._laplacian_fit import _laplacian
from gsp_householder.graphs._missing_edges import missing_edges
from gsp_householder.graphs._template_lp import edge_codes


def _weighted_cycle(n, seed, sigma=1.0):
    G = nx.cycle_graph(n)
    weights = np.random.default_rng(seed).lognormal(0.0, sigma, n)
    for (u, v), w in zip(G.edges, weights, strict=True):
        G[u][v]["weight"] = float(w)
    return G


def _basis(V):
    basis = _read_basis(V, None, False, "combinatorial", None)
    _anchored_pair_basis(basis)
    return basis


def _weights(G, extra=(), dropped=()):
    """The upper weights of ``G`` less the edges ``dropped``, plus the pairs ``extra``
    at weight 1."""
    H = G.copy()
    H.remove_edges_from(dropped)
    H.add_edges_from(extra, weight=1.0)
    return sp.csr_array(nx.adjacency_matrix(H, nodelist=range(G.number_of_nodes())))


def _edges(W):
    W = sp.csr_array(W, copy=True)
    W.eliminate_zeros()
    return set(edge_codes(W).tolist())


def test_support_fit_reads_the_weights_of_the_true_edges():
    """On exact eigenvectors, the fit on the true edges is the true Laplacian up to scale
    (the smallest eigenvector of the non-edges' Gram is the true eigenvalues); pairs
    added to the edges get no weight (rounding)."""
    G = _weighted_cycle(30, 4)
    B = fourier_basis(G)
    basis = _basis(shuffled(B.eigenvectors, 1))
    W = _weights(G, extra=[(0, 15), (3, 20)])
    upper = sp.triu(W, 1).tocoo()
    A = support_fit(basis["V_anchored"], basis["zero_column"], upper.row, upper.col)
    true = sp.csr_array(nx.adjacency_matrix(G, nodelist=range(30)))
    assert _edges(true) <= _edges(A)
    scale = true.sum() / A.sum()
    np.testing.assert_allclose((A * scale).toarray(), true.toarray(), atol=1e-9)


CASES = [(40, 1, 0), (60, 7, 3), (50, 3, 0), (50, 4, 1), (70, 5, 2), (50, 2, 1), (30, 6, 0)]


def _swapped_start(n, seed, draw):
    """Perturbed eigenvectors (1e-3) of a weighted cycle and a start that misses two of
    the cycle's edges (drawn) and holds five wrong pairs."""
    G = _weighted_cycle(n, seed)
    V = perturbed(shuffled(fourier_basis(G).eigenvectors, draw), 1e-3, draw)
    rng = np.random.default_rng(seed)
    edges = list(G.edges)
    dropped = [edges[k] for k in rng.choice(n, 2, replace=False)]
    extra = set()
    while len(extra) < 5:
        u, v = sorted(int(x) for x in rng.choice(n, 2, replace=False))
        if not G.has_edge(u, v):
            extra.add((u, v))
    return G, _basis(V), _weights(G, extra=extra, dropped=dropped)


@pytest.mark.parametrize(("n", "seed", "draw"), CASES[:5])
def test_descent_reads_the_cycle_behind_swapped_edges(n, seed, draw):
    """The descent drops the wrong pairs and adds the missing edges, and ends at the
    cycle. Of the seven starts of ``CASES``, five end so; the sixth at the cycle plus
    three pairs that fit as well (rotation residual 0.99 times the cycle's), the
    seventh at a wrong graph of 3.4 times the cycle's rotation residual, which the
    inference's fit tests refuse (``laplacian_inference._edge_test_descended``)."""
    G, basis, start = _swapped_start(n, seed, draw)
    A = edge_test_descent(basis, start)
    assert A is not None
    assert _edges(A) == _edges(_weights(G))


@pytest.mark.parametrize(("n", "seed", "draw"), CASES)
def test_descent_ends_where_the_edge_tests_move_nothing(n, seed, draw):
    """Wherever the descent ends, the edge test finds no weak edge and the missing-edges
    test no missing edge on the graph returned."""
    _, basis, start = _swapped_start(n, seed, draw)
    A = edge_test_descent(basis, start)
    assert A is not None
    V = basis["V"]
    L = _laplacian(A, basis)
    eigenvalues = np.einsum("ij,ij->j", V, L @ V)
    test = edge_significance(V, L, eigenvalues)
    assert not test["weak"].any()
    assert missing_edges(V, L, eigenvalues, test)["count"] == 0


def test_descent_ends_at_the_truth_when_started_there():
    """Started at the true cycle, the descent stays there: no weak edge, no missing
    edge."""
    G = _weighted_cycle(50, 5)
    V = perturbed(shuffled(fourier_basis(G).eigenvectors, 2), 1e-3, 2)
    A = edge_test_descent(_basis(V), _weights(G))
    assert A is not None
    assert _edges(A) == _edges(_weights(G))


def test_descent_gives_up_on_eigenvectors_at_rounding():
    """Exact eigenvectors: the edge test has no noise level to test at, and the descent
    returns None rather than a graph it has not tested."""
    G = _weighted_cycle(30, 2)
    basis = _basis(shuffled(fourier_basis(G).eigenvectors, 0))
    assert edge_test_descent(basis, _weights(G, extra=[(0, 10)])) is None


@pytest.mark.parametrize(("n", "seed", "draw"), CASES[:3])
def test_settled_where_the_descent_ends_not_at_its_start(n, seed, draw):
    """The edge tests move nothing at the descent's end (``settled``), and they move
    the start that misses two edges of the cycle and holds five wrong pairs."""
    _, basis, start = _swapped_start(n, seed, draw)
    upper = sp.triu(start, 1).tocoo()
    fitted = support_fit(basis["V_anchored"], basis["zero_column"], upper.row, upper.col)
    assert not settled(basis, fitted)
    assert settled(basis, edge_test_descent(basis, start))
