"""A noisy graph that misses weak edges, refitted with the non-edges the eigenvectors show."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._laplacian_fit import _residual
from gsp_householder.graphs._missing_edge_refit import missing_edge_refit, pair_support_fit
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT


def _lognormal_geometric(n, radius, seed):
    """The largest component of ``random_geometric_graph(n, radius, seed)``, nodes
    relabelled, with lognormal weights ($\\sigma$ = 1, generator seed 3)."""
    G = nx.random_geometric_graph(n, radius, seed=seed)
    G = nx.convert_node_labels_to_integers(G.subgraph(max(nx.connected_components(G), key=len)))
    rng = np.random.default_rng(3)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.lognormal(0.0, 1.0))
    return G


def _lognormal_rgg():
    """A random geometric graph of 80 nodes (largest component) with lognormal weights
    ($\\sigma$ = 1), its eigenvectors perturbed by 1e-3 and shuffled as ``infer_laplacian``
    reads them, and the truth's weights."""
    G = _lognormal_geometric(80, 0.2, seed=5)
    B = fourier_basis(G)
    basis = _read_basis(perturbed(shuffled(B.eigenvectors, 0), 1e-3, 0), None, None, None, None)
    truth = sp.csr_array(nx.adjacency_matrix(G, nodelist=range(len(G)), weight="weight"))
    return basis, _anchored_pair_basis(basis), truth


def _edges(W):
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    return set(zip(upper.row.tolist(), upper.col.tolist(), strict=True))


def _without_weakest(truth, k, heaviest=False):
    """The truth without its ``k`` weakest edges (``heaviest``: its ``k`` heaviest),
    still connected."""
    upper = sp.triu(truth, 1).tocoo()
    W = truth.tolil()
    dropped = 0
    for e in np.argsort(-upper.data if heaviest else upper.data):
        i, j = int(upper.row[e]), int(upper.col[e])
        W[i, j] = W[j, i] = 0.0
        if sp.csgraph.connected_components(W.tocsr(), directed=False)[0] > 1:
            W[i, j] = W[j, i] = upper.data[e]
            continue
        dropped += 1
        if dropped == k:
            break
    W = sp.csr_array(W.tocsr())
    W.eliminate_zeros()
    return W


def test_pair_support_fit_reads_the_truth_on_its_own_support():
    """Fitted on the truth's support, the weights are the truth's up to scale (trace $n$),
    to the noise."""
    _, B, truth = _lognormal_rgg()
    upper = sp.triu(truth, 1).tocoo()
    lam, W = pair_support_fit(B, upper.row, upper.col)
    assert _edges(W) == _edges(truth)
    scaled = W * (sp.linalg.norm(truth) / sp.linalg.norm(W))
    assert np.abs((scaled - truth).toarray()).max() < 1e-2 * np.abs(truth.data).max()
    assert lam.shape == (B.g,)


def test_the_truth_is_not_refitted():
    """No non-edge of the truth is flagged: nothing to refit."""
    basis, B, truth = _lognormal_rgg()
    assert missing_edge_refit(B, basis, truth) is None


@pytest.mark.parametrize("k", [3, 6])
def test_a_graph_without_its_weakest_edges_is_refitted_to_the_truth(k):
    """The truth without its ``k`` weakest edges does not fit the eigenvectors to their
    noise; the refit gives back every edge of the truth and no other, and fits."""
    basis, B, truth = _lognormal_rgg()
    lacking = _without_weakest(truth, k)
    assert len(_edges(truth) - _edges(lacking)) == k
    refit = missing_edge_refit(B, basis, lacking)
    assert refit is not None
    n_edges, _, _, W = refit
    assert _edges(W) == _edges(truth)
    assert n_edges == len(_edges(truth))
    assert _residual(basis, W) < _residual(basis, lacking)
    assert _residual(basis, W) <= RESIDUAL_CONSISTENT * _residual(basis, truth)


@pytest.mark.parametrize("wrong", [(0, 4), (0, 19), (0, 26)])
def test_a_weak_edge_put_in_place_of_the_edges_missed_is_dropped(wrong):
    """The truth without its 3 weakest edges, with a pair at distance 2 of weight 1 %
    of the mean in their place (as a search that misses an edge puts another): the refit
    adds the edges missed, and the pair, then weak, is dropped, not kept beside them."""
    basis, B, truth = _lognormal_rgg()
    a, b = wrong
    assert (a, b) not in _edges(truth)
    W = _without_weakest(truth, 3).tolil()
    W[a, b] = W[b, a] = 0.01 * truth.data.mean()
    refit = missing_edge_refit(B, basis, sp.csr_array(W.tocsr()))
    assert refit is not None
    assert _edges(refit[3]) == _edges(truth)
    assert refit[0] == len(_edges(truth))


def test_inference_keeps_the_weak_edges_of_a_lognormal_preferential_attachment_graph():
    """``barabasi_albert_graph(100, 2, seed=8)`` with lognormal weights, perturbed by 1e-3:
    the noisy ladder's graph lacks the truth's three weakest edges and does not fit the
    eigenvectors to their noise level (a ConvergenceWarning, an error here); refitted
    with the pairs the eigenvectors show, it is the truth, and nothing is warned."""
    G = nx.barabasi_albert_graph(100, 2, seed=8)
    rng = np.random.default_rng(3)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.lognormal(0.0, 1.0))
    B = fourier_basis(G)
    result = infer_laplacian(perturbed(shuffled(B.eigenvectors, 0), 1e-3, 0), rng=0)
    found = compare_graphs(B.laplacian, result.laplacian)
    assert found["f1"] == 1.0
    assert result.history["missing_edge_refit"] == (193, 196)
    assert result.history["noise_ratio"] <= RESIDUAL_CONSISTENT


def test_inference_refits_a_graph_taken_as_fitting_that_misses_weak_edges():
    """``random_geometric_graph(100, 0.17, seed=9)`` with lognormal weights, perturbed by
    1e-3 (shuffle 1): the searches' graph (375 edges for 382) is within the noise
    estimate's bound, and nothing was warned, but the eigenvectors show its seven missed
    edges; refitted with them it fits 3.5 times better and is the truth."""
    G = _lognormal_geometric(100, 0.17, seed=9)
    B = fourier_basis(G)
    result = infer_laplacian(perturbed(shuffled(B.eigenvectors, 1), 1e-3, 1), rng=0)
    assert compare_graphs(B.laplacian, result.laplacian)["f1"] == 1.0
    assert result.history["missing_edge_refit"] == (375, 382)
