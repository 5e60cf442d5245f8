"""The sparsest member of an exact family: L among its powers."""

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import shuffled as _shuffled

from gsp_householder.graphs import (
    _basis_input,
    _candidate_search,
    _ranking_ladder,
    _regular_candidates,
)
from gsp_householder.graphs import _support_search as search
from gsp_householder.graphs._family_member import at_trace_n, sparsest_direction
from gsp_householder.graphs._pair_geometry import PairGram
from gsp_householder.graphs.fourier import fourier_basis


def _graph(seed):
    """A sparse small-world graph (simple spectrum)."""
    return nx.connected_watts_strogatz_graph(60 - 10 * seed, 4, 0.3 - 0.1 * seed, seed=seed + 1)


def _within_two(F, k=2):
    """Upper pairs within distance ``k`` (where L, ..., L^k may be non-zero), and the
    rest."""
    A = (sp.csr_array(F.laplacian) != 0).astype(float)
    Ak = A.copy()
    for _ in range(k - 1):
        Ak = Ak @ A
    Ak = Ak.toarray() != 0
    i, j = np.triu_indices(F.n, 1)
    near = Ak[i, j]
    return (i[near], j[near]), (i[~near], j[~near])


def _edges(L, n):
    U = sp.triu(sp.csr_array(L), 1).tocoo()
    U.data[np.abs(U.data) <= 1e-8 * np.abs(U.data).max()] = 0.0
    U.eliminate_zeros()
    return set(zip(U.row.tolist(), U.col.tolist(), strict=True))


@pytest.mark.parametrize(("seed", "k"), [(0, 2), (1, 2), (0, 3), (1, 3)])
def test_sparsest_direction_is_the_laplacian_among_its_powers(seed, k):
    G = _graph(seed)
    F = fourier_basis(G)
    basis = _basis_input._read_basis(_shuffled(F.eigenvectors, seed), None, None, None, None)
    B = _basis_input._anchored_pair_basis(basis)
    (I, J), _ = _within_two(F, k)
    mu, Lam = PairGram(B).without(I, J).null_directions(cluster=0.0)
    Lam = Lam[:, mu <= B.cluster(mu[0])]
    assert Lam.shape[1] == k                # L, ..., L^k all vanish outside the pairs
    lam = sparsest_direction(B, Lam, (I, J), np.random.default_rng(0), np.full(B.n, 1e-10),
                             1e-5)
    L = B.matrix(lam) * np.outer(B.u, B.u)
    assert _edges(L, B.n) == _edges(F.laplacian, B.n)
    L *= F.laplacian.diagonal().sum() / np.trace(L)
    np.testing.assert_allclose(L, F.laplacian.toarray(), atol=1e-8)


def test_family_candidates_return_the_graph_not_a_polynomial_of_it(monkeypatch):
    def no_vertex_search(*args, **kwargs):
        raise AssertionError("the sparsest member needs no linear-program vertex search")
    for patched in (_candidate_search, _regular_candidates):
        monkeypatch.setattr(patched, "sparse_vertices", no_vertex_search)
    for patched in (_basis_input, _candidate_search, _ranking_ladder):
        monkeypatch.setattr(patched, "LADDER_MAX_N", 20)
    G = _graph(0)
    F = fourier_basis(G)
    basis = _basis_input._read_basis(_shuffled(F.eigenvectors, 2), None, None, None, None)
    B = _basis_input._anchored_pair_basis(basis)
    (I, J), (ki, kj) = _within_two(F, 3)
    order = (np.concatenate([I, ki]), np.concatenate([J, kj]))
    fit = search.PrefixSearch(B, order).evaluate(len(I), PairGram(B).without(I, J))
    assert fit is not None and fit.Lam.shape[1] >= 2
    ranked = _candidate_search._candidates(B, fit, np.random.default_rng(0))
    assert _edges(ranked[0][3], B.n) == _edges(F.laplacian, B.n)


def test_one_direction_or_noise_gives_no_member():
    F = fourier_basis(_graph(0))
    basis = _basis_input._read_basis(F.eigenvectors, None, None, None, None)
    B = _basis_input._anchored_pair_basis(basis)
    (I, J), _ = _within_two(F)
    lam = np.diag(B.V.T @ F.laplacian.toarray() @ B.V)
    assert sparsest_direction(B, lam[:, None], (I, J), np.random.default_rng(0),
                             np.full(B.n, 1e-10), 1e-5) is None


def test_a_vector_of_zero_trace_is_no_member_and_raises_no_warning():
    # outside the local columns its entries sum to 1, but its trace (with the
    # multiplicities) is 0: no factor gives it the trace n (the exact 4 x 6 torus,
    # shuffle 1, met such vectors and divided by zero fifteen times)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert at_trace_n(np.array([2.0, -1.0]), np.array([1.0, 2.0]), 2,
                          np.array([True, True]), np.zeros(0, dtype=np.intp)) == (None, None)
        lam, factor = at_trace_n(np.array([-1.0, -3.0, 5.0]), np.array([1.0, 1.0, 2.0]), 4,
                                 np.array([True, True, False]), np.array([2]))
    # signed (the sum outside was -4), the local entry set to the mean, trace 4
    np.testing.assert_allclose(lam, [0.5, 1.5, 1.0])
    assert factor == -0.5 and float(np.array([1.0, 1.0, 2.0]) @ lam) == 4.0
