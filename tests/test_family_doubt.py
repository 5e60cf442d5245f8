"""Noisy weighted graphs whose family may hold a much sparser member are warned of."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._family_doubt import family_agreement, sparsest_possible_member
from gsp_householder.graphs.laplacian_inference import _family_doubt

#: Noise level of the perturbed tree below (a ranking's estimate is about 3e-4 to 5e-4).
NOISE = 4e-4


def test_fewest_edges_and_agreement_of_a_family():
    # balanced_tree(3, 4) perturbed (draw 0, SandyBridge): 158 edges, family 64, 121 nodes
    assert sparsest_possible_member(121, 158, 64) == 120
    assert family_agreement(121, 158, 64) == pytest.approx(240 / 278)
    # a family smaller than the graph's excess over a tree: m - d + 1 edges
    assert sparsest_possible_member(77, 254, 21) == 234
    assert family_agreement(77, 254, 21) == pytest.approx(468 / 488)
    # a tree is the sparsest connected graph whatever its family
    assert family_agreement(150, 149, 20) == 1.0


def _weighted_graph(G, extra, weights):
    """``G`` with unit weights plus the pairs ``extra`` with ``weights``."""
    H = nx.Graph(G)
    nx.set_edge_attributes(H, 1.0, "weight")
    H.add_weighted_edges_from((a, b, w) for (a, b), w in zip(extra, weights, strict=True))
    W = sp.csr_array(nx.adjacency_matrix(H, nodelist=range(H.number_of_nodes()),
                                         weight="weight").astype(float))
    return (int(sp.triu(W, 1).nnz), 0.3, None, W)


def _caught(basis, B, found, dim, history):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _family_doubt(basis, B, found, dim, history)
    return [w for w in caught if issubclass(w.category, ConvergenceWarning)]


def test_weighted_member_of_a_large_noisy_family_is_warned_of():
    G = nx.balanced_tree(3, 4)
    V = perturbed(shuffled(fourier_basis(G).eigenvectors, 0), 1e-3, 0)
    basis = _read_basis(V, None, False, "combinatorial", None)
    B = _anchored_pair_basis(basis)
    rng = np.random.default_rng(0)
    leaves = [v for v in G if G.degree(v) == 1]
    extra = [(leaves[k], leaves[k + 1]) for k in range(0, 76, 2)]       # 38 pairs
    found = _weighted_graph(G, extra, rng.uniform(0.3, 1.6, len(extra)))
    assert found[0] == 158
    history = {"noise": NOISE, "noise_ratio": 1.0}
    assert len(_caught(basis, B, found, 64, history)) == 1
    assert history["family_doubt"] == (120, pytest.approx(240 / 278))
    # a small family cannot hold a member that far from it
    history = {"noise": NOISE, "noise_ratio": 1.0}
    assert not _caught(basis, B, found, 10, history) and "family_doubt" not in history
    # exact eigenvectors: the family dimension is the flag
    assert not _caught(basis, B, found, 64, {"noise": 0.0})
    # a graph already said not to fit the eigenvectors is not asked
    assert not _caught(basis, B, found, 64, {"noise": NOISE, "noise_ratio": 50.0})
    # equal weights: what a family's sparse members look like
    equal = _weighted_graph(G, extra, np.ones(len(extra)))
    assert not _caught(basis, B, equal, 64, {"noise": NOISE, "noise_ratio": 1.0})


def test_balanced_tree_perturbed_is_found_or_warned():
    # balanced_tree(3, 4) perturbed by 1e-3, draw 0: the tree with the Haswell, Zen and
    # Nehalem kernels; 158 edges (F1 0.734, family 64) with the SandyBridge kernels,
    # which gave no warning before
    G = nx.convert_node_labels_to_integers(nx.balanced_tree(3, 4))
    B = fourier_basis(G)
    V = perturbed(shuffled(B.eigenvectors, 0), 1e-3, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    if compare_graphs(B.laplacian, res.laplacian)["f1"] < 0.95:
        assert any(issubclass(w.category, ConvergenceWarning) for w in caught)
