"""Cliques on a graph's adjacent twins: the sparser equal-weight graph is returned."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._sparser_rival import equal_weight_rival
from gsp_householder.graphs._twin_cliques import adjacent_twin_labels, without_twin_cliques

#: Noise level of the perturbed tree below (a ranking's estimate is about 3e-4 to 4e-4).
NOISE = 4e-4


def _weights(G):
    W = sp.csr_array(nx.adjacency_matrix(G, nodelist=range(G.number_of_nodes()),
                                         weight="weight").astype(float))
    W.eliminate_zeros()
    return W


def _edges(W):
    U = sp.triu(W, 1).tocoo()
    return set(zip(U.row.tolist(), U.col.tolist(), strict=True))


def _tree_input(draw=1):
    G = nx.balanced_tree(3, 4)
    V = perturbed(shuffled(fourier_basis(G).eigenvectors, draw), 1e-3, draw)
    return G, {"V": V, "kind": "combinatorial", "scale": None}


def _with_triangles(G, weight, parents):
    """``G`` plus triangles of ``weight`` on the leaves of ``parents`` (weight 1 else)."""
    H = nx.Graph(G)
    nx.set_edge_attributes(H, 1.0, "weight")
    for p in parents:
        leaves = [c for c in G[p] if G.degree(c) == 1]
        H.add_edges_from(((a, b) for k, a in enumerate(leaves) for b in leaves[k + 1:]),
                         weight=weight)
    return H


def test_adjacent_twin_labels_are_the_closed_neighbourhood_classes():
    # a triangle 0-1-2 hanging on node 3: 0, 1, 2 are adjacent twins, 3 and 4 are not
    W = _weights(nx.Graph([(0, 1), (1, 2), (0, 2), (0, 3), (1, 3), (2, 3), (3, 4)]))
    labels = adjacent_twin_labels(W)
    assert labels[0] == labels[1] == labels[2] >= 0
    assert labels[3] == labels[4] == -1


def test_cliques_on_twin_leaves_are_dropped_at_a_noise_level():
    # balanced_tree(3, 4) perturbed by 1e-3 (draw 1): a noisy search returned the tree
    # plus triangles of weight 0.536 on six classes of sibling leaves (tree edges 0.424),
    # which fits as well as the tree; the tree with equal weights is returned instead
    G, basis = _tree_input()
    parents = [p for p in G if 13 <= p <= 39][:6]
    W = _weights(_with_triangles(G, 0.536 / 0.424, parents))
    A = without_twin_cliques(basis, W, NOISE)
    assert A is not None
    assert _edges(A) == _edges(_weights(G))
    # exact eigenvectors (no noise level) leave the graph as found
    assert without_twin_cliques(basis, W, 0.0) is None


def test_equal_weight_cliques_are_dropped_only_down_to_a_spanning_tree():
    # the triangles' weight equal to the tree's: the graph may be the truth (caveman
    # graphs, karate), but the tree, the sparsest connected graph, fits as well
    # (balanced_tree(4, 3) perturbed, draw 1: K4s of the tree's weight on sibling leaves)
    G, basis = _tree_input()
    parents = [p for p in G if 13 <= p <= 39][:6]
    A = without_twin_cliques(basis, _weights(_with_triangles(G, 1.0, parents)), NOISE)
    assert A is not None
    assert _edges(A) == _edges(_weights(G))
    # with one more edge outside the twin classes (a cycle through the root) the graph
    # left is no tree, and an equal-weight graph is left as found
    H = _with_triangles(G, 1.0, parents)
    H.add_edge(1, 2, weight=1.0)
    assert without_twin_cliques(basis, _weights(H), NOISE) is None


def test_cliques_whose_removal_disconnects_or_misfits_are_kept():
    G, basis = _tree_input()
    # the complete graph: every node a twin of every other, nothing left when dropped
    K = np.ones((G.number_of_nodes(),) * 2) - np.eye(G.number_of_nodes())
    assert without_twin_cliques(basis, sp.csr_array(K), NOISE) is None
    # a weighted tree (weights spanning 1 to 3) whose sibling leaves are joined: the
    # graph left is not of equal weights
    H = _with_triangles(G, 2.0, [13, 14])
    rng = np.random.default_rng(0)
    for u, v in G.edges:
        H[u][v]["weight"] = float(rng.uniform(1.0, 3.0))
    assert without_twin_cliques(basis, _weights(H), NOISE) is None


def test_balanced_tree_with_noise_is_found_or_its_family_reported():
    # before: F1 0.930 (138 edges for 120), no warning, the tree not among the
    # candidates. Under every BLAS kernel the tree is returned, or the result warns
    G, basis = _tree_input()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(basis["V"], rng=0)
    f1 = compare_graphs(nx.laplacian_matrix(G).astype(float), res.laplacian)["f1"]
    assert f1 >= 0.95 or caught


def test_sparser_equal_weight_rival_is_returned():
    # the tree as the rival recorded at the smallest noise estimate, beside the tree plus
    # triangles of another weight (fitting as well, not of equal weights)
    G, basis = _tree_input()
    parents = [p for p in G if 13 <= p <= 39][:6]
    W = _weights(_with_triangles(G, 0.536 / 0.424, parents))
    tree = _weights(G)
    history = {"sparser_rival": (None, tree)}
    A = equal_weight_rival(history, basis, W, NOISE)
    assert A is not None and _edges(A) == _edges(tree)
    assert "sparser_rival" not in history
    # exact eigenvectors, a graph found of equal weights, or a rival no sparser: none
    for found, noise in ((W, 0.0), (_weights(_with_triangles(G, 1.0, parents)), NOISE),
                         (tree, NOISE)):
        history = {"sparser_rival": (None, tree)}
        assert equal_weight_rival(history, basis, found, noise) is None
        assert "sparser_rival" in history
