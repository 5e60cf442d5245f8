"""A denser candidate put first by the tested-candidate swap, warned of unless it fits
clearly better."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import AmbiguousGraphWarning, fourier_basis, infer_laplacian
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._laplacian_fit import _residual
from gsp_householder.graphs._swap_doubt import clearly_better, doubtful_swap, fits_noise
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT


def _weights(G, n):
    return sp.csr_array(nx.adjacency_matrix(G, nodelist=range(n), dtype=float))


def _case(draw=0):
    """A random geometric graph of 60 nodes (largest component) perturbed by 1e-3 and
    shuffled, read as ``infer_laplacian`` reads it; the weights of the truth, of the
    truth without a fifth of its edges (kept connected) and of the truth with a fifth
    more edges between random non-adjacent pairs (weights 1)."""
    G = nx.random_geometric_graph(60, 0.3, seed=7)
    G = nx.convert_node_labels_to_integers(G.subgraph(max(nx.connected_components(G), key=len)))
    n = G.number_of_nodes()
    B = fourier_basis(G)
    basis = _read_basis(
        perturbed(shuffled(B.eigenvectors, draw), 1e-3, draw), None, None, None, None
    )
    rng = np.random.default_rng(draw)
    lacking, denser = G.copy(), G.copy()
    edges = list(G.edges)
    for k in rng.permutation(len(edges)):
        if lacking.number_of_edges() <= 0.8 * G.number_of_edges():
            break
        lacking.remove_edge(*edges[k])
        if not nx.is_connected(lacking):
            lacking.add_edge(*edges[k])
    while denser.number_of_edges() < 1.2 * G.number_of_edges():
        u, v = (int(x) for x in rng.choice(n, 2, replace=False))
        denser.add_edge(u, v)
    return basis, _weights(G, n), _weights(lacking, n), _weights(denser, n)


def _item(W):
    return (sp.triu(W, 1).nnz, 0.0, None, W)


def test_a_graph_lacking_edges_is_replaced_clearly():
    """The truth in place of the truth without a fifth of its edges: the latter's
    non-edges (the dropped edges among them) show a noise far above the truth's, so the
    truth fits clearly better and the swap is not doubtful."""
    for draw in (0, 1):
        basis, truth, lacking, _ = _case(draw)
        assert clearly_better(basis, truth, lacking, None)
        assert not doubtful_swap(basis, _item(truth), (truth, lacking), None)


def test_a_denser_graph_in_place_of_the_truth_is_doubtful():
    """A denser graph (the truth with a fifth more edges) in place of the truth: the two
    graphs' non-edges show the same noise and the truth fits that noise, so the denser
    answer is doubtful; not when the answer is no denser than the graph found, or when
    nothing was swapped."""
    for draw in (0, 1):
        basis, truth, _, denser = _case(draw)
        assert not clearly_better(basis, denser, truth, None)
        assert doubtful_swap(basis, _item(denser), (denser, truth), None)
        assert not doubtful_swap(basis, _item(truth), (denser, truth), None)
        assert not doubtful_swap(basis, _item(denser), None, None)


def test_the_pairs_level_reads_the_residual():
    """A graph fits the pairs' level when its residual is at most ``RESIDUAL_CONSISTENT``
    times it, and any graph without a level; the truth fits clearly better than the
    graph lacking edges at a level that the latter misses by more than that, and the
    truth meets."""
    basis, truth, lacking, _ = _case()
    mine, theirs = _residual(basis, truth), _residual(basis, lacking)
    assert fits_noise(basis, truth, None)
    assert fits_noise(basis, truth, 1.01 * mine / RESIDUAL_CONSISTENT)
    assert not fits_noise(basis, truth, 0.99 * mine / RESIDUAL_CONSISTENT)
    assert mine < theirs
    assert clearly_better(basis, truth, lacking, 0.5 * (mine + theirs) / RESIDUAL_CONSISTENT)


def _lognormal_star(leaves, seed):
    """``star_graph(leaves)`` with lognormal ($\\sigma$ = 0.5) weights drawn in edge order
    with seed ``500 + seed``."""
    rng = np.random.default_rng(500 + seed)
    G = nx.Graph()
    G.add_nodes_from(range(leaves + 1))
    for u, v in nx.star_graph(leaves).edges:
        G.add_edge(u, v, weight=rng.lognormal(0.0, 0.5))
    return G


def test_a_weighted_star_replaced_by_a_denser_candidate_gets_it_back():
    """The lognormal star of 90 leaves (seed 906) perturbed by 1e-3 (the sweeps' input,
    draw 0): the searches find a 90-edge tree, the missing-edges test flags 15 of its
    non-edges, and the swap put a candidate of 594 edges (F1 0.26) first, with the family
    flag only. The candidate fits no better: the 90-edge graph is returned, warned of,
    the denser graph the next candidate."""
    B = fourier_basis(_lognormal_star(90, 906))
    rng = np.random.default_rng(0)
    V = B.eigenvectors
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E))
    V = (U @ Wt)[:, rng.permutation(V.shape[1])] * rng.choice([-1.0, 1.0], V.shape[1])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    swapped = res.history.get("tested_candidate")
    if swapped is None:
        # no swap (another BLAS): no denser answer
        assert res.n_edges <= 100 or caught
        return
    put_first, found = swapped[:2]
    assert res.history["doubtful_swap"] == (put_first, found)
    assert res.n_edges == found == 90
    assert res.history["candidate_edges"][:2] == [found, put_first]
    assert len(res.candidates) == len(res.history["candidate_edges"])
    assert res.candidates[1].nnz == res.candidates[1].shape[0] + 2 * put_first
    assert [
        w
        for w in caught
        if issubclass(w.category, AmbiguousGraphWarning) and "denser candidate" in str(w.message)
    ]
