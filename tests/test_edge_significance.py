"""The significance test of the inferred edges: its standard errors, noise level and warning."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.linalg
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs._edge_significance import (
    edge_significance,
    node_terms,
    pair_scale,
    rotation_noise,
)
from gsp_householder.graphs._missing_edges import missing_edges


def _weighted_laplacian(n=9, m=16, seed=3):
    G = nx.gnm_random_graph(n, m, seed=seed)
    rng = np.random.default_rng(seed)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.lognormal(0.0, 1.0))
    assert nx.is_connected(G)
    return sp.csr_array(nx.laplacian_matrix(G).astype(float))


def test_pair_scale_is_the_first_order_standard_deviation():
    """Var L~_ij = sigma^2 ((L_ii - L_jj)^2 + r_i + r_j - 2 L_ij^2) for V~ = V e^S: the
    exact linear map S -> off(V [S, Lambda] V^T), summed over the unit antisymmetric S,
    and the derivative of V e^{hS} Lambda e^{-hS} V^T by central differences."""
    L = _weighted_laplacian()
    lam, V = np.linalg.eigh(L.toarray())
    n = lam.size
    d, r = node_terms(L)
    i, j = np.triu_indices(n, 1)
    predicted = pair_scale(d, r, i, j, L.toarray()[i, j])
    variance = np.zeros(i.size)
    h = 1e-5
    for k, l in zip(*np.triu_indices(n, 1), strict=True):
        S = np.zeros((n, n))
        S[k, l], S[l, k] = 1.0, -1.0
        plus = V @ scipy.linalg.expm(h * S)
        minus = V @ scipy.linalg.expm(-h * S)
        dL = ((plus * lam) @ plus.T - (minus * lam) @ minus.T) / (2 * h)
        variance += dL[i, j] ** 2
    np.testing.assert_allclose(np.sqrt(variance), predicted, rtol=1e-6)


def test_pair_scale_against_monte_carlo():
    """Entries of V e^S Lambda e^{-S} V^T for random antisymmetric S of entries N(0,
    sigma^2): their standard deviation over 4000 draws is sigma times ``pair_scale`` to
    within 8 % (the estimate's relative error is 1.1 %)."""
    L = _weighted_laplacian()
    lam, V = np.linalg.eigh(L.toarray())
    n, sigma, draws = lam.size, 1e-6, 4000
    rng = np.random.default_rng(0)
    i, j = np.triu_indices(n, 1)
    samples = np.empty((draws, i.size))
    for t in range(draws):
        A = np.triu(rng.standard_normal((n, n)), 1) * sigma
        Vt = V @ scipy.linalg.expm(A - A.T)
        samples[t] = ((Vt * lam) @ Vt.T)[i, j]
    d, r = node_terms(L)
    predicted = sigma * pair_scale(d, r, i, j, L.toarray()[i, j])
    ratio = samples.std(axis=0) / predicted
    assert np.all(np.abs(ratio - 1.0) < 0.08), ratio


@pytest.mark.parametrize("seed", [0, 1])
def test_rotation_noise_recovers_the_perturbation(seed):
    """``perturbed(V, rel)`` adds entries of variance rel^2 / n and re-orthonormalises:
    the rotation's entries have variance rel^2 / (2 n)."""
    G = nx.connected_watts_strogatz_graph(60, 4, 0.2, seed=seed)
    L = sp.csr_array(nx.laplacian_matrix(G).astype(float))
    V = perturbed(fourier_basis(G).eigenvectors, 1e-3, seed)
    eigenvalues = np.einsum("ij,ij->j", V, L @ V)
    sigma = rotation_noise(V, eigenvalues, L)
    assert sigma == pytest.approx(1e-3 / np.sqrt(2 * 60), rel=0.15)


def test_exact_eigenvectors_are_not_tested():
    G = nx.karate_club_graph()
    B = fourier_basis(G)
    L = sp.csr_array(B.laplacian)
    assert edge_significance(B.eigenvectors, L, B.eigenvalues) is None


def test_true_edges_are_significant_and_a_zero_weight_is_not():
    """The truth's edges, read on a perturbed basis, pass; an edge of weight 0 added to
    the graph (its entry is noise only) fails."""
    G = nx.karate_club_graph()
    B = fourier_basis(G)
    V = perturbed(B.eigenvectors, 1e-3, 4)
    L = sp.csr_array(B.laplacian)
    eigenvalues = np.einsum("ij,ij->j", V, L @ V)
    test = edge_significance(V, L, eigenvalues)
    assert not test["weak"].any()
    a, b = 16, 33                      # not adjacent in karate
    assert L[a, b] == 0
    entry = float(V[a] @ (eigenvalues * V[b]))
    W = sp.lil_array(-L)
    W.setdiag(0.0)
    W[a, b] = W[b, a] = max(-entry, 1e-12)
    W = sp.csr_array(W)
    L2 = sp.csr_array(sp.diags_array(np.asarray(W.sum(axis=1)).ravel()) - W)
    test = edge_significance(V, L2, np.einsum("ij,ij->j", V, L2 @ V))
    weak = set(zip(test["rows"][test["weak"]].tolist(), test["cols"][test["weak"]].tolist(),
                   strict=True))
    assert weak == {(a, b)}


@pytest.mark.parametrize(("parts", "draw"), [((5, 20), 3), ((4, 30), 0), ((4, 4, 4, 4), 6)])
def test_multipartite_member_with_noise_level_edges_is_not_silent(parts, draw):
    """Perturbed by 1e-3, complete multipartite graphs' eigenvectors fit weighted members
    with weights down to the noise, better than the truth in the rotation residual;
    these draws returned such a graph (F1 0.01 to 0.34) with no warning and the truth in
    no candidate. Which member comes back, and which test flags it, depends on the last
    bits of the basis (the BLAS kernels): the answer is right or warned, and when the
    significance test flags it, a fifth to two thirds of its edges are not significantly
    nonzero."""
    B = fourier_basis(nx.complete_multipartite_graph(*parts))
    V = shuffled(perturbed(B.eigenvectors, 1e-3, draw), draw + 7)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    right = [compare_graphs(B.laplacian, C)["f1"] >= 0.95 for C in res.candidates]
    messages = [str(w.message) for w in caught if issubclass(w.category, ConvergenceWarning)]
    assert any(right) or messages
    if not any("not significantly nonzero" in m for m in messages):
        return
    z, threshold = res.history["edge_z"]
    assert z < threshold
    m, k = res.n_edges, res.history["weak_edges"]
    assert 2 * (m - k) / (2 * m - k) < 0.95


@pytest.mark.parametrize("draw", [0, 1])
def test_right_perturbed_answers_are_not_warned(draw):
    """Weighted karate and a lognormal-weighted random graph (weights 0.05 to 20),
    perturbed by 1e-3: the truth is returned, every edge significant, no warning."""
    G = nx.gnm_random_graph(40, 100, seed=5)
    rng = np.random.default_rng(5)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.lognormal(0.0, 1.0))
    for graph in (nx.karate_club_graph(), G):
        B = fourier_basis(graph)
        V = shuffled(perturbed(B.eigenvectors, 1e-3, draw), draw + 7)
        res = infer_laplacian(V, rng=0)       # warnings are errors in the tests
        assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
        assert "weak_edges" not in res.history


def _lognormal_graph(G, seed, sigma):
    """``G`` with lognormal edge weights (as ``_wide_weights`` of the families' tests)."""
    rng = np.random.default_rng(1000 + seed)
    H = nx.Graph()
    H.add_nodes_from(G)
    for u, v in G.edges:
        H.add_edge(u, v, weight=float(rng.lognormal(0.0, sigma)))
    return H


def _missing_test(V, L):
    L = sp.csr_array(L)
    eigenvalues = np.einsum("ij,ij->j", V, L @ V)
    test = edge_significance(V, L, eigenvalues)
    return test, missing_edges(V, L, eigenvalues, test)


@pytest.mark.parametrize(("make", "seed", "sigma", "draw"), [
    (lambda: nx.path_graph(80), 12, 1.5, 0),
    (lambda: nx.random_labeled_tree(60, seed=11), 11, 1.0, 2),
    (lambda: nx.gnm_random_graph(40, 100, seed=5), 5, 1.0, 1),
])
def test_true_laplacian_shows_no_missing_edges(make, seed, sigma, draw):
    """The true Laplacian read on its perturbed eigenvectors: every non-edge's entry is
    noise (family-wise level 0.05 over the non-edges), so no pair, or far too few to
    take the graph outside 0.95 in F1, is flagged; the wrong graphs returned for the
    first two inputs show 120 and 22 such pairs at the plain quantile (61 and fewer at
    twice it, the threshold of the warning)."""
    G = _lognormal_graph(make(), seed, sigma)
    B = fourier_basis(G)
    V = perturbed(shuffled(B.eigenvectors, draw), 1e-3, draw)
    test, found = _missing_test(V, B.laplacian)
    m = test["z"].size
    assert found["count"] <= 1
    assert 2 * m / (2 * m + found["count"]) >= 0.95
    assert found["threshold"] > 3.5


def test_a_dropped_heavy_edge_is_missing():
    """The truth without its heaviest edge: that pair's entry is the edge's weight,
    hundreds of standard errors from zero."""
    G = _lognormal_graph(nx.path_graph(60), 3, 1.0)
    B = fourier_basis(G)
    V = perturbed(shuffled(B.eigenvectors, 3), 1e-3, 3)
    u, v, _ = max(G.edges(data="weight"), key=lambda e: e[2])
    H = G.copy()
    H.remove_edge(u, v)
    H.add_edge(u, u + 2 if u + 2 < 60 else u - 2, weight=1.0)   # keep it connected
    L = sp.csr_array(nx.laplacian_matrix(H, nodelist=list(G)).astype(float))
    _, found = _missing_test(V, L)
    assert found["count"] >= 1
    assert found["z"] > 10 * found["threshold"]


@pytest.mark.parametrize(("seed", "sigma", "draw"), [(12, 1.5, 0), (12, 1.0, 2)])
def test_path_with_wide_weights_is_right_or_warned_of_missing_edges(seed, sigma, draw):
    """A path of 80 nodes with lognormal weights perturbed by 1e-3. With sigma 1.5
    (weights seed 12, draw 0) the graph returned missed the heaviest edges and has 115
    edges for 79 (F1 0.69), with no warning before the test of the non-edges; with
    sigma 1 (draw 2) it is the path (F1 1), and must stay quiet. Which graph a kernel
    finds may differ: the test holds the answer right (F1 at least 0.95) or warned, and
    a right answer (F1 1) free of the missing-edges warning."""
    B = fourier_basis(_lognormal_graph(nx.path_graph(80), seed, sigma))
    V = perturbed(shuffled(B.eigenvectors, draw), 1e-3, draw)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    f1 = compare_graphs(B.laplacian, res.laplacian)["f1"]
    missing = [w for w in caught if "significantly negative" in str(w.message)]
    assert f1 >= 0.95 or caught
    if f1 == 1.0:
        assert not missing
    if missing:
        m, k = res.n_edges, res.history["missing_edges"]
        assert 2 * m / (2 * m + k) < 0.95
        assert issubclass(missing[0].category, ConvergenceWarning)


def _tree_above_family_bound(dropped: int):
    """A random tree of 600 nodes (above the family searches' 500) perturbed by 1e-3,
    read as a basis, with the Laplacians of the tree and of the tree less its first
    ``dropped`` edges (unit weights)."""
    from gsp_householder.graphs import laplacian_inference as li

    G = nx.random_labeled_tree(600, seed=61)
    B = fourier_basis(G)
    V = perturbed(shuffled(B.eigenvectors, 0), 1e-3, 0)
    basis = li._read_basis(V, None, None, None, None)
    H = G.copy()
    H.remove_edges_from(list(G.edges)[:dropped])
    return basis, [
        sp.csr_array(nx.laplacian_matrix(T, nodelist=list(G)).astype(float)) for T in (G, H)
    ]


def test_missing_edges_are_tested_above_the_family_searches_bound():
    """On 600 nodes (``_missing_edges.MAX_NODES`` 1000, not ``FAMILY_SEARCH_MAX_N``
    500): a graph that lacks 100 of a perturbed tree's edges is warned of (each dropped
    pair shows its weight), the tree itself shows no missing edge and is not warned.
    ``random_labeled_tree(600, seed=43)`` perturbed returned 2709 edges for 599 with 321
    such pairs and no warning when the test stopped at 500 nodes."""
    from gsp_householder.graphs import laplacian_inference as li

    basis, (L_tree, L_less) = _tree_above_family_bound(100)
    for L, warned in ((L_tree, False), (L_less, True)):
        eigenvalues = np.einsum("ij,ij->j", basis["V"], L @ basis["V"])
        test = edge_significance(basis["V"], L, eigenvalues)
        history = {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            li._missing_edges(basis, L, eigenvalues, history, test)
        missing = [w for w in caught if "significantly negative" in str(w.message)]
        assert bool(missing) == warned
        if warned:
            assert history["missing_edges"] >= 90
            assert issubclass(missing[0].category, ConvergenceWarning)
        else:
            assert history.get("missing_edges", 0) == 0
