"""Laplacian inference on large graphs: the sampled ranking, chunked pair products, the
refit of a noisy prefix, and the large-graph path end to end (forced on small graphs)."""

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import minnesota_ball as _minnesota_ball
from _basis_inputs import perturbed as _perturbed
from _basis_inputs import shuffled as _shuffled

from gsp_householder.graphs import (
    _basis_input,
    _candidate_search,
    _laplacian_fit,
    _pair_geometry,
    _ranking_ladder,
)
from gsp_householder.graphs import laplacian_inference as inference
from gsp_householder.graphs._pair_geometry import PairGram
from gsp_householder.graphs._sampled_ranking import sampled_leverage_ranking
from gsp_householder.graphs._support_search import (
    CLEAN_FACTOR,
    COARSE_ROUNDING,
    PrefixSearch,
    robust_noise,
    top_pairs,
)
from gsp_householder.graphs.comparison import compare_graphs
from gsp_householder.graphs.fourier import fourier_basis


def _pairs(V):
    """Pair geometry of an order-free basis, as ``infer_laplacian`` builds it."""
    basis = _basis_input._read_basis(V, None, None, None, None)
    return _basis_input._anchored_pair_basis(basis)


def _edges(B):
    """Boolean (n, n) adjacency of the graph of a FourierBasis."""
    L = B.laplacian.toarray()
    return (L != 0) & ~np.eye(B.n, dtype=bool)


@pytest.fixture(scope="module")
def watts_strogatz():
    return fourier_basis(nx.connected_watts_strogatz_graph(150, 6, 0.1, seed=4))


def test_sampled_ranking_puts_the_edges_first_and_its_gram_is_exact(watts_strogatz):
    F = watts_strogatz
    B = _pairs(F.eigenvectors)                      # node order kept: edges comparable
    A = _edges(F)
    m = int(A.sum()) // 2
    S, (gram, i, j) = sampled_leverage_ranking(B, np.random.default_rng(0))
    iu, ju = B.upper()
    first = np.argsort(-S[iu, ju])[:2 * m]
    assert A[iu[first], ju[first]].sum() == m        # every edge among the 2 m top pairs
    assert A[i, j].sum() == m                        # all trimmed
    expected = PairGram(B).without(i, j)
    np.testing.assert_allclose(gram.M, expected.M, atol=1e-9 * np.abs(expected.M).max())
    assert robust_noise(B, (gram, i, j)) < 1e-9      # the kept pairs are exact non-edges


def test_chunked_pair_products_and_grams_match_the_dense_rows(watts_strogatz, monkeypatch):
    B = _pairs(watts_strogatz.eigenvectors)
    rng = np.random.default_rng(1)
    iu, ju = B.upper()
    pick = rng.choice(iu.size, 3000, replace=False)
    i, j = iu[pick], ju[pick]
    Lam = rng.standard_normal((B.g, 3))
    dense = B.rows(i, j) @ Lam
    gram = PairGram(B).without(i, j)
    # 2000 entries: chunks of 13 rows; 3000 pairs > 8 n * 3 columns: dense-matrix path
    monkeypatch.setattr(_pair_geometry, "MAX_ROW_ENTRIES", 2000)
    tol = 1e-10 * np.abs(dense).max()
    np.testing.assert_allclose(B.products(i, j, Lam), dense, atol=tol)
    np.testing.assert_allclose(B.products(i[:1000], j[:1000], Lam), dense[:1000], atol=tol)
    chunked = PairGram(B).without(i, j)
    np.testing.assert_allclose(chunked.M, gram.M, atol=1e-10 * np.abs(gram.M).max())
    np.testing.assert_allclose(chunked.total, gram.total, atol=1e-10 * np.abs(gram.total).max())
    assert chunked.k == gram.k == B.n_pairs - 3000


def test_refit_cuts_a_noisy_prefix_to_its_edges(watts_strogatz):
    F = watts_strogatz
    B = _pairs(_perturbed(F.eigenvectors, 1e-3, 2))
    A = _edges(F)
    m = int(A.sum()) // 2
    S, trimmed = sampled_leverage_ranking(B, np.random.default_rng(0))
    noise = robust_noise(B, trimmed)
    order = top_pairs(B, S, B.n_pairs - 2 * B.n)
    c = 3 * m                                        # every edge and 2 m non-edges
    assert A[order[0][:c], order[1][:c]].sum() == m
    gram = PairGram(B).without(order[0][:c], order[1][:c])
    search = PrefixSearch(B, order, 0.0, noise, refit=True)
    lam0 = gram.null_directions(1)[1][:, 0]
    lam0 *= B.n / (B.mult @ lam0)
    scale = np.sqrt(np.abs((B.V * B.V) @ B.columns(lam0 ** 2)))
    fit = search._refit(c, lam0, CLEAN_FACTOR * noise * scale)   # the tolerance evaluate uses
    assert fit is not None and fit.c == m            # the prefix is cut to the edges
    I, J = fit.hint
    assert A[I, J].all()


@pytest.mark.parametrize("noise", [0.0, 1e-3])
def test_large_graph_path_recovers_the_graph(watts_strogatz, noise, monkeypatch):
    for patched in (_basis_input, _candidate_search, _ranking_ladder):
        monkeypatch.setattr(patched, "LADDER_MAX_N", 50)
    F = watts_strogatz
    V = F.eigenvectors if noise == 0 else _perturbed(F.eigenvectors, noise, 3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = inference.infer_laplacian(_shuffled(V, 5))
    assert compare_graphs(F.laplacian, res.laplacian)["f1"] == 1.0
    assert res.history["noise"] == 0.0 if noise == 0 else res.history["noise"] > 1e-6


def _rounding_levels(monkeypatch):
    """Record the ``rounding`` of every ``_search_at_noise`` call (None: the fine level)."""
    levels = []
    search = _candidate_search._search_at_noise

    def recorded(*args, **kwargs):
        levels.append(kwargs.get("rounding"))
        return search(*args, **kwargs)
    monkeypatch.setattr(_ranking_ladder, "_search_at_noise", recorded)
    return levels


def test_family_without_vertex_search_is_not_searched_again(watts_strogatz, monkeypatch):
    # the family (dimension 2) is resolved without linear-program vertices: the search
    # at the coarse rounding level would repeat it
    for patched in (_basis_input, _candidate_search, _ranking_ladder):
        monkeypatch.setattr(patched, "LADDER_MAX_N", 50)
    levels = _rounding_levels(monkeypatch)
    F = watts_strogatz
    res = inference.infer_laplacian(_shuffled(F.eigenvectors, 0), rng=0)
    assert compare_graphs(F.laplacian, res.laplacian)["f1"] == 1.0
    assert res.family_dimension == 2
    assert res.history["vertex_searches"] == 0
    assert levels == [None]


def test_family_with_vertex_search_is_searched_at_the_coarse_rounding(monkeypatch):
    # twin nodes and a family searched by its vertices: the coarse level runs too. Which
    # ranking prefix the search settles on depends on rounding (with two BLAS threads
    # the first ranking gives the same graph without a vertex search), so one thread
    from gsp_householder._blas_threads import one_blas_thread

    for patched in (_basis_input, _candidate_search, _ranking_ladder):
        monkeypatch.setattr(patched, "LADDER_MAX_N", 50)
    levels = _rounding_levels(monkeypatch)
    G = nx.random_geometric_graph(120, 0.16, seed=8)
    F = fourier_basis(G.subgraph(max(nx.connected_components(G), key=len)).copy())
    with one_blas_thread():
        res = inference.infer_laplacian(_shuffled(F.eigenvectors, 0), rng=0)
    assert res.history["vertex_searches"] >= 1
    assert levels[0] is None and COARSE_ROUNDING in levels
    assert res.family_dimension > 1


def test_rotation_residual_is_the_same_for_polynomials_of_the_laplacian(watts_strogatz):
    # L - c L^2 (denser: the pairs within distance 2) shares the eigenvectors of L; on a
    # perturbed basis its residual relative to ||L||_F is smaller than the truth's, its
    # rotation residual (relative to the spread of the eigenvalues) is not
    F = watts_strogatz
    basis = _basis_input._read_basis(_shuffled(_perturbed(F.eigenvectors, 1e-3, 3), 5), None,
                                  None, None, None)
    L = sp.csr_array(F.laplacian)
    raw, rotation = [], []
    for c in (0.0, 0.02, 0.05):
        M = L - c * (L @ L)
        W = -(M - sp.diags_array(M.diagonal()))
        assert W.min() >= 0.0                               # valid
        assert W.nnz > L.nnz - F.n or c == 0.0              # denser for c > 0
        r, s = _laplacian_fit._residuals(basis, W)
        assert r == _laplacian_fit._residual(basis, W)
        raw.append(r)
        rotation.append(s)
    assert raw[2] < 0.85 * raw[0]                           # the raw residual prefers L - cL^2
    np.testing.assert_allclose(rotation, rotation[0], rtol=1e-2)


@pytest.mark.parametrize("noise", [0.0, 1e-3])
def test_rotated_parts_match_the_product(watts_strogatz, noise):
    # the off-diagonal norm from ||L V||_F^2 - ||diag||^2 (noisy) or the product (exact)
    F = watts_strogatz
    V = F.eigenvectors if noise == 0.0 else _perturbed(F.eigenvectors, noise, 3)
    V = _basis_input._orthonormal(V)
    L = sp.csr_array(F.laplacian)
    M = V.T @ (L @ V)
    lam, off = _laplacian_fit._rotated_parts(V, L)
    np.testing.assert_allclose(lam, np.diag(M), rtol=0, atol=1e-12 * np.abs(M).max())
    expected = np.linalg.norm(M - np.diag(np.diag(M)))
    if noise:
        assert expected > _laplacian_fit.DIRECT_OFF_DIAGONAL * np.linalg.norm(L @ V)
        np.testing.assert_allclose(off, expected, rtol=1e-6)
    else:
        assert off == expected                               # rounding level: the product


def test_seed_vertices_far_denser_than_the_sparsest_are_not_polished():
    # vertices of a seed family: L and L - c L^2 (valid for a small c > 0, with edges on
    # the pairs within distance 2); only those within SEED_EDGE_SLACK of the sparsest
    # are kept, in their order
    from types import SimpleNamespace

    from gsp_householder.graphs._seed_vertices import SEED_EDGE_SLACK, vertices_to_polish
    from gsp_householder.graphs._template_lp import edge_pairs

    F = fourier_basis(nx.connected_watts_strogatz_graph(60, 4, 0.1, seed=2))
    B = _pairs(F.eigenvectors)
    lam = F.eigenvalues[1:]                      # the zero column is the first
    fit = SimpleNamespace(tol=np.zeros(B.n))
    vertices = [lam - 0.02 * lam ** 2, lam, lam - 0.04 * lam ** 2, 1.01 * lam]
    counts = [len(edge_pairs(B, v, fit.tol)[0]) for v in vertices]
    assert counts[1] == counts[3] == F.laplacian.count_nonzero() // 2 - F.n // 2
    assert min(counts[0], counts[2]) > SEED_EDGE_SLACK * counts[1]
    history = {}
    kept = vertices_to_polish(B, vertices, fit, history)
    assert [id(v) for v in kept] == [id(vertices[1]), id(vertices[3])]
    assert history["unpolished_vertices"] == 2
    assert vertices_to_polish(B, vertices[:1], fit, history) == vertices[:1]
    assert history["unpolished_vertices"] == 2


def test_noisy_seed_family_recovers_the_graph_with_its_dense_vertices_unpolished(
        monkeypatch):
    # a Minnesota ball (pendant paths, twins: a seed family of its local columns and
    # powers of L) perturbed by 1e-3, on the large-graph path: the seed's dense vertices
    # are left unpolished and the graph is the one found with every vertex polished
    from gsp_householder.graphs import _seed_vertices

    for patched in (_basis_input, _candidate_search, _ranking_ladder):
        monkeypatch.setattr(patched, "LADDER_MAX_N", 50)
    F = fourier_basis(_minnesota_ball(200, 3))
    V = _shuffled(_perturbed(F.eigenvectors, 1e-3, 3), 5)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = inference.infer_laplacian(V, rng=0)
    assert compare_graphs(F.laplacian, res.laplacian)["f1"] == 1.0
    assert res.history["unpolished_vertices"] > 0
    monkeypatch.setattr(_seed_vertices, "SEED_EDGE_SLACK", np.inf)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        every = inference.infer_laplacian(V, rng=0)
    assert every.history.get("unpolished_vertices", 0) == 0
    assert compare_graphs(every.laplacian, res.laplacian)["f1"] == 1.0
