"""A weighted star and the star on its lightest leaf share their eigenvectors."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input

from gsp_householder import AmbiguousGraphWarning, fourier_basis, infer_laplacian
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._laplacian_fit import _residuals
from gsp_householder.graphs._star_twin import star_alternative, star_hub, star_twin
from gsp_householder.graphs._thresholds import ROUNDING_FIT


def _star_weights(weights: np.ndarray, hub: int = 0) -> sp.csr_array:
    """Symmetric weights of the star with ``hub`` joined to the other nodes."""
    n = weights.size + 1
    leaves = np.flatnonzero(np.arange(n) != hub)
    W = np.zeros((n, n))
    W[hub, leaves] = W[leaves, hub] = weights
    return sp.csr_array(W)


def _laplacian(W) -> np.ndarray:
    A = W.toarray()
    return np.diag(A.sum(axis=1)) - A


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_twin_is_the_star_on_the_lightest_leaf_and_commutes(seed):
    """The twin is a star on the lightest leaf with positive weights, its Laplacian is
    $(L - \\mu I)^{-1} + I / \\mu$ (so it commutes with $L$), and the twin of the twin
    is the star again."""
    rng = np.random.default_rng(seed)
    w = rng.lognormal(0.0, 0.5, 12)
    W = _star_weights(w, hub=3)
    T = star_twin(W)
    leaf = int(np.flatnonzero(np.arange(13) != 3)[np.argmin(w)])
    assert star_hub(T) == leaf
    assert T.data.min() > 0.0
    L, M = _laplacian(W), _laplacian(T)
    mu = w.min()
    assert np.allclose(M, np.linalg.inv(L - mu * np.eye(13)) + np.eye(13) / mu, atol=1e-10)
    assert np.abs(L @ M - M @ L).max() < 1e-10 * np.abs(L).max() * np.abs(M).max()
    back = _laplacian(star_twin(T))
    assert np.allclose(back / np.trace(back), L / np.trace(L), atol=1e-12)


def test_the_twin_reverses_the_order_of_the_nonzero_eigenvalues():
    """The eigenvalue $\\lambda$ of each shared eigenvector becomes $\\lambda / (\\mu
    (\\lambda - \\mu))$: decreasing in $\\lambda$ above $\\mu$, where every nonzero
    eigenvalue of the star lies."""
    w = np.array([0.5, 1.0, 2.0, 3.0, 5.0])
    L = _laplacian(_star_weights(w))
    M = _laplacian(star_twin(_star_weights(w)))
    lam, U = np.linalg.eigh(L)
    twin = np.einsum("ik,ik->k", U, M @ U)
    assert np.allclose(twin, lam / (0.5 * (lam - 0.5)), atol=1e-10)
    assert np.all(np.diff(twin[1:]) < 0.0)


def test_no_twin_for_equal_lightest_leaves_or_a_graph_that_is_not_a_star():
    assert star_twin(_star_weights(np.ones(6))) is None
    assert star_twin(_star_weights(np.array([1.0, 1.0, 2.0, 3.0]))) is None
    path = sp.csr_array(nx.adjacency_matrix(nx.path_graph(5), dtype=float))
    assert star_hub(path) is None and star_twin(path) is None


def _basis(V, ordered=False):
    basis = _read_basis(V, None, None, None, None)
    basis["ordered"] = ordered
    _anchored_pair_basis(basis)         # the anchored basis the fits read, as the inference has
    return basis


def test_exact_eigenvectors_of_a_weighted_star_fit_its_twin_to_rounding():
    """Exact eigenvectors: the twin fits them to rounding, so it is returned as the
    alternative that fits as well; with the eigenvalue order known none is."""
    rng = np.random.default_rng(5)
    W = _star_weights(rng.lognormal(0.0, 0.5, 30))
    V = np.linalg.eigh(_laplacian(W))[1]
    basis = _basis(V)
    twin, holder = star_alternative(basis, W, [], 0.0)
    assert holder is None
    assert _residuals(basis, twin)[0] <= ROUNDING_FIT
    assert star_hub(twin) == star_hub(star_twin(W))
    assert star_alternative(_basis(V, ordered=True), W, [], 0.0) is None


def _lognormal_star(leaves: int, extra: int, seed: int) -> nx.Graph:
    """The star with ``leaves`` leaves and ``extra`` edges between random pairs of
    leaves, lognormal ($\\sigma$ = 0.5) weights, as the eighth audit draws them."""
    rng = np.random.default_rng(seed)
    G = nx.star_graph(leaves)
    while G.number_of_edges() < leaves + extra:
        u, v = (int(x) for x in rng.choice(np.arange(1, leaves + 1), 2, replace=False))
        G.add_edge(u, v)
    weights = np.random.default_rng(500 + seed)
    H = nx.Graph()
    H.add_nodes_from(G)
    for u, v in G.edges:
        H.add_edge(u, v, weight=weights.lognormal(0.0, 0.5))
    return H


def _edges(L) -> set:
    A = sp.triu(sp.csr_array(L), 1).tocoo()
    return {(int(i), int(j)) for i, j, x in zip(A.row, A.col, A.data, strict=True) if x < 0}


def test_a_near_star_answered_by_the_twin_of_its_star_gets_its_leaf_edges():
    """The lognormal near-star of 60 leaves with 2 leaf edges (seed 913) perturbed by
    1e-3, draw 0: the searches end at the star on the lightest leaf of the truth's star
    part (60 edges, F1 0.016, no warning before); its twin plus the leaf edges the
    eigenvectors show, the truth, fits clearly better and is returned, the star and
    its twin next among the candidates."""
    G = _lognormal_star(60, 2, 913)
    B = fourier_basis(G)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        res = infer_laplacian(audit_input(B.eigenvectors, 1e-3, 0), rng=0)
    assert res.history["star_twin_holder"] == (62, 60)
    assert _edges(res.laplacian) == _edges(B.laplacian)
    assert res.history["candidate_edges"][:2] == [62, 60]
    assert res.history["candidate_edges"][-1] == res.history["star_twin_edges"] == 60
    assert len(res.candidates) == len(res.history["candidate_edges"])
    star = _edges(B.laplacian) - {(9, 34), (11, 15)}
    assert _edges(res.candidates[-1]) == star


def test_a_weighted_star_is_warned_of_with_its_twin_among_the_candidates():
    """The lognormal star of 90 leaves (seed 906) perturbed by 1e-3, draw 0: the
    searches answer the star on its lightest leaf (F1 0.011); the eigenvectors do not
    tell it from the truth, its twin, which is warned of and is the last candidate."""
    B = fourier_basis(_lognormal_star(90, 0, 906))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(audit_input(B.eigenvectors, 1e-3, 0), rng=0)
    assert star_hub(sp.csr_array(-sp.triu(res.laplacian, 1) - sp.tril(res.laplacian, -1)))
    assert res.history["star_twin_edges"] == 90
    assert {
        _edges(res.laplacian) == _edges(B.laplacian),
        _edges(res.candidates[-1]) == _edges(B.laplacian),
    } == {True, False}
    assert [
        w
        for w in caught
        if issubclass(w.category, AmbiguousGraphWarning) and "lightest leaf" in str(w.message)
    ]
