"""A spanning tree returned in place of a regular graph of the constant-diagonal family
(``_fitting_tree.tree_for_regular``): perturbed paths of 6 to 9 nodes, whose rankings
are clean to rounding, gave the cycle of n equal weights (an exact twin with one edge
more) with no warning."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input

from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs import fourier_basis, infer_laplacian
from gsp_householder.graphs._fitting_tree import tree_for_regular


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, rng=0)
    return result, [w.category for w in caught]


def _edges(L):
    upper = sp.triu(sp.csr_array(L), 1).tocoo()
    keep = np.abs(upper.data) > 1e-8 * np.abs(upper.data).max()
    return {(int(i), int(j)) for i, j in zip(upper.row[keep], upper.col[keep], strict=True)}


def _unit_laplacian(edges, n):
    A = np.zeros((n, n))
    for i, j in edges:
        A[i, j] = A[j, i] = 1.0
    return np.diag(A.sum(axis=1)) - A


def _exact_misfit(L, U):
    """Off-diagonal of $U^T L U$ relative to $\\|L\\|_F$: 0 to rounding for a graph
    with the eigenvectors ``U``."""
    M = U.T @ L @ U
    return np.linalg.norm(M - np.diag(np.diag(M))) / np.linalg.norm(L)


@pytest.mark.parametrize(("n", "draw"), [(6, 1), (7, 0), (7, 3), (8, 1), (9, 4)])
def test_a_perturbed_path_gives_a_path_twin_warned_not_the_cycle(n, draw):
    U = fourier_basis(nx.path_graph(n)).eigenvectors
    result, categories = _infer(graph_bench_input(nx.path_graph(n), draw))
    edges = _edges(result.laplacian)
    tree = nx.Graph(list(edges))
    # a path on all n nodes (the truth or a DCT twin): it has the exact eigenvectors
    assert len(edges) == n - 1
    assert tree.number_of_nodes() == n and nx.is_connected(tree)
    assert max(d for _, d in tree.degree()) == 2
    assert _exact_misfit(_unit_laplacian(edges, n), U) < 1e-12
    assert result.history["regular_tree_edges"] == 1
    # the graph the constant-diagonal family gave is among the candidates: a cycle of n
    # equal weights, which has these eigenvectors exactly too, and the answer is warned
    cycles = [
        e
        for e in map(_edges, result.candidates[1:])
        if len(e) == n and all(d == 2 for _, d in nx.Graph(list(e)).degree())
    ]
    assert cycles
    assert _exact_misfit(_unit_laplacian(cycles[0], n), U) < 1e-12
    assert AmbiguousGraphWarning in categories


@pytest.mark.parametrize(("n", "draw"), [(6, 0), (6, 3), (8, 1)])
def test_a_perturbed_cycle_stays_the_cycle(n, draw):
    G = nx.cycle_graph(n)
    result, _ = _infer(graph_bench_input(G, draw))
    assert _edges(result.laplacian) == {tuple(sorted(e)) for e in G.edges()}
    assert "regular_tree_edges" not in result.history


def test_no_tree_is_searched_outside_the_regular_family_found_clean():
    history = {"regular_family": True, "noise": 0.0}
    assert tree_for_regular(None, None, (7, 0.0, None, None), history) is None
    history = {"regular_family": "sparser", "noise": 1e-4}
    assert tree_for_regular(None, None, (7, 0.0, None, None), history) is None
