"""Noisy normalized eigenvectors above ``NOISY_MAX_N`` nodes: the near-null family's
graph with the basis's integer degrees is read before the searches (module
``_noisy_unit_settled``)."""

from __future__ import annotations

import networkx as nx
import numpy as np
import scipy.sparse as sp
from _basis_inputs import anchored as _anchored
from _basis_inputs import perturbed, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._noisy_unit_diagonal import NOISY_MAX_N
from gsp_householder.graphs._noisy_unit_settled import settled_noisy_member


def _rgg(n, radius, seed):
    G = nx.random_geometric_graph(n, radius, seed=seed)
    G = G.subgraph(max(nx.connected_components(G), key=len))
    return nx.convert_node_labels_to_integers(G)


def _laplacian(W):
    d = np.asarray(W.sum(axis=1)).ravel()
    return sp.diags(d) - W


def test_rgg_above_the_family_size_is_read_with_its_degrees():
    G = _rgg(330, 0.1, 3)
    assert G.number_of_nodes() > NOISY_MAX_N
    B = fourier_basis(G, laplacian="normalized")
    for draw in (0, 1):
        V, c, u = _anchored(shuffled(perturbed(B.eigenvectors, 1e-3, draw), draw + 7))
        member = settled_noisy_member(V, c, u)
        assert member is not None
        assert compare_graphs(B.laplacian, _laplacian(member.W))["f1"] == 1.0
        counts = np.diff(sp.csr_array(member.W).indptr)
        assert np.array_equal(counts, [G.degree(i) for i in range(G.number_of_nodes())])


def test_weighted_and_small_bases_are_left_to_the_searches():
    G = _rgg(330, 0.1, 3)
    rng = np.random.default_rng(5)
    for a, b in G.edges:
        G[a][b]["weight"] = rng.uniform(1.0, 4.0)
    B = fourier_basis(G, laplacian="normalized")
    V, c, u = _anchored(shuffled(perturbed(B.eigenvectors, 1e-3, 0), 7))
    assert settled_noisy_member(V, c, u) is None  # no integer degrees
    small = fourier_basis(_rgg(120, 0.18, 5), laplacian="normalized")
    V, c, u = _anchored(shuffled(perturbed(small.eigenvectors, 1e-3, 0), 7))
    assert settled_noisy_member(V, c, u) is None  # read after the searches there


def test_inference_returns_it_without_the_searches():
    G = _rgg(330, 0.1, 3)
    B = fourier_basis(G, laplacian="normalized")
    V = shuffled(perturbed(B.eigenvectors, 1e-3, 0), 7)
    result = infer_laplacian(V, laplacian="normalized", rng=0)
    assert compare_graphs(B.laplacian, result)["f1"] == 1.0
    assert "noisy_unit_settled" in result.history
    assert "n_evaluations" not in result.history  # no search ran


def test_graphs_with_known_twins_are_left_to_the_searches():
    # a grid's DCT twins, a tree's twin trees and a regular graph's relabellings have
    # the same degrees: none is read before the searches
    for G in (
        nx.convert_node_labels_to_integers(nx.grid_2d_graph(17, 19)),
        nx.random_labeled_tree(320, seed=4),
        nx.random_regular_graph(4, 320, seed=4),
    ):
        B = fourier_basis(G, laplacian="normalized")
        V, c, u = _anchored(shuffled(perturbed(B.eigenvectors, 1e-3, 0), 7))
        assert settled_noisy_member(V, c, u) is None
