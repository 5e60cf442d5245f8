"""Order-free inference on graph families the method was not developed on."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import ConvergenceWarning


def _shuffled(V, seed):
    rng = np.random.default_rng(seed)
    n = V.shape[1]
    return V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def _perturbed(V, rel, seed):
    rng = np.random.default_rng(seed)
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + rel * np.linalg.norm(V) * E / np.linalg.norm(E))
    return U @ Wt


@pytest.mark.parametrize(("make", "noise"), [
    (lambda: nx.disjoint_union(nx.connected_watts_strogatz_graph(30, 4, 0.2, seed=1),
                               nx.random_labeled_tree(30, seed=1)), 1e-3),
    (lambda: nx.disjoint_union(nx.path_graph(3), nx.barabasi_albert_graph(40, 2, seed=2)),
     1e-2),
])
def test_perturbed_basis_of_a_disconnected_graph_is_split(make, noise):
    # no exact zeros: the components show as blocks above the noise level
    G = make()
    B = fourier_basis(G)
    V = _shuffled(_perturbed(B.eigenvectors, noise, 0), 0)
    with warnings.catch_warnings():
        # a component's residual may sit at the doubt threshold (5.4 noise units here)
        warnings.simplefilter("ignore", ConvergenceWarning)
        res = infer_laplacian(V, rng=0)
    assert sorted(res.history["components"]) == sorted(
        len(c) for c in nx.connected_components(G))
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] >= 0.95


@pytest.mark.parametrize("make", [lambda: nx.karate_club_graph(),
                                  lambda: nx.barbell_graph(6, 3),
                                  lambda: nx.star_graph(8)])
def test_perturbed_basis_of_a_connected_graph_is_not_split(make):
    from gsp_householder.graphs._components import node_blocks

    V = _perturbed(fourier_basis(make()).eigenvectors, 1e-2, 3)
    assert node_blocks(V) is None
