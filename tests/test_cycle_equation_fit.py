"""A cycle's weights solved from the eigenvector equations, each in the units of its noise."""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp
from _basis_inputs import graph_bench_input
from test_edge_test_descent import _basis

from gsp_householder.graphs._cycle_equation_fit import _equation_variances, equation_weights


def _lognormal_cycle(n, sigma, seed):
    G = nx.cycle_graph(n)
    weights = np.random.default_rng(seed).lognormal(0.0, sigma, n)
    for (u, v), w in zip(G.edges, weights, strict=True):
        G[u][v]["weight"] = float(w)
    return G


def _weights_along(W, order):
    return np.asarray(sp.csr_array(W)[order, np.roll(order, -1)]).ravel()


def test_exact_eigenvectors_solve_for_the_weights():
    """On exact eigenvectors the equations hold for the true weights alone: a cycle of
    lognormal weights (sigma 2), read in a shifted, reversed order, gets its weights
    back to rounding, up to their scale, with unit variances as with variances read on
    other weights."""
    G = _lognormal_cycle(40, 2.0, 3)
    basis = _basis(graph_bench_input(G, 0, perturbed=False))
    order = np.roll(np.arange(40)[::-1], 7)
    truth = _weights_along(nx.to_scipy_sparse_array(G, nodelist=range(40)), order)
    first = equation_weights(basis, order)
    again = equation_weights(basis, order, first * 3.0)
    for W in (first, again):
        weights = _weights_along(W, order)
        np.testing.assert_allclose(weights / weights.sum(), truth / truth.sum(), rtol=1e-7)


def test_variances_are_those_random_rotations_leave():
    """The variance read for an entry of $L V - V \\Lambda$ at the true weights is the
    one small random rotations $V e^{S}$ of the exact eigenvectors leave there, within
    the sampling error of 4000 rotations."""
    G = _lognormal_cycle(8, 1.0, 5)
    order = np.arange(8)
    W = sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(8)))
    L = sp.diags(np.asarray(W.sum(axis=1)).ravel()) - W
    eigenvalues, V0 = np.linalg.eigh(L.toarray())
    differences = (V0[order] - V0[np.roll(order, -1)])[:, 1:]
    predicted = _equation_variances(differences, order, np.roll(order, -1), W)
    rng = np.random.default_rng(0)
    residuals = []
    for _ in range(4000):
        A = rng.standard_normal((8, 8)) * 1e-6
        S = np.triu(A, 1) - np.triu(A, 1).T
        V = V0 @ (np.eye(8) + S)  # first order in S
        residuals.append((L @ V - V * eigenvalues)[:, 1:])
    measured = np.mean(np.square(residuals), axis=0) / 1e-12
    np.testing.assert_allclose(measured, predicted, rtol=0.1)
