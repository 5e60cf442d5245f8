"""Sparser regular graphs with the exact eigenvectors: the constant-diagonal family's
plane with the most pair rows."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import shuffled
from scipy.sparse.csgraph import connected_components

from gsp_householder import fourier_basis, infer_laplacian
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._laplacian_fit import _residual
from gsp_householder.graphs._regular_member import (
    draws_for,
    sparser_regular_members,
)
from gsp_householder.graphs._thresholds import FITS_EXACTLY


def _torus(*dims):
    return nx.convert_node_labels_to_integers(nx.grid_graph(dim=list(dims), periodic=True))


def _pair_basis(V):
    basis = _read_basis(V, None, None, None, None)
    return _anchored_pair_basis(basis), basis


def test_complete_graph_gives_a_member_as_sparse_as_the_torus():
    # the complete graph is the densest member of the constant-diagonal family (every
    # eigenvalue equal); the plane with the most rows is the 4 x 4 x 5 torus (240 edges)
    # or a twin of it: connected, equal weights, the eigenvectors diagonalise it
    B_true = fourier_basis(_torus(4, 4, 5))
    B, basis = _pair_basis(shuffled(B_true.eigenvectors, 3))
    complete = sp.csr_array(np.ones((B.n, B.n)) - np.eye(B.n))
    members = sparser_regular_members(B, basis, (B.n_pairs, 0.0, None, complete),
                                      np.random.default_rng(0))
    assert members
    for edges, cv, _, A in members:
        assert cv == 0.0 and sp.triu(A, 1).nnz == edges < B.n_pairs
        assert connected_components(A, directed=False)[0] == 1
        assert _residual(basis, A) <= FITS_EXACTLY
    assert min(m[0] for m in members) == 240


def test_no_member_behind_a_found_graph_of_n_minus_one_edges():
    # a connected graph has at least n - 1 edges: a found graph of n - 1 is not searched
    B, basis = _pair_basis(shuffled(fourier_basis(_torus(3, 4, 5)).eigenvectors, 0))
    path = sp.csr_array(nx.to_scipy_sparse_array(nx.path_graph(B.n)))
    assert sparser_regular_members(B, basis, (B.n - 1, 0.0, None, path),
                                   np.random.default_rng(0)) == []


def test_draws_bounded_by_their_row_entries():
    assert draws_for(3160, 43) == 512
    assert 64 <= draws_for(19900, 100) < 512


@pytest.mark.parametrize(("dims", "seed"), [((4, 4, 5), 2), ((3, 5, 6), 0)])
def test_torus_is_not_answered_by_a_denser_member_without_a_warning(dims, seed):
    # exact eigenvectors (seed 0 of the 4 x 4 x 5 torus raises in the eigenspace search
    # with the Nehalem kernels, as on main): the searches settled on a regular member
    # denser than the torus
    # (4 x 4 x 5: 320 edges for 240; 3 x 5 x 6: 315 for 270) sharing none of its edges,
    # flagged by the family dimension only; now a sparser member is found (the torus or
    # a twin, which the eigenvectors do not tell apart) and the result warns, or the
    # answer is at most as dense as the truth. The member's draws depend on rounding:
    # where numpy's own loops run AVX-512 (Zen 4), the 4 x 4 x 5 torus gives a member
    # of 280 edges (warned), elsewhere the torus's 240
    G = _torus(*dims)
    B = fourier_basis(G)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(shuffled(B.eigenvectors, seed), rng=0)
    warned = any(issubclass(w.category, AmbiguousGraphWarning) for w in caught)
    assert res.n_edges <= G.number_of_edges() or warned
    if "regular_members" in res.history:
        found, sparsest = res.history["regular_members"]
        assert found > sparsest == res.n_edges >= G.number_of_edges()
        assert warned


def test_svd_falls_back_to_gesvd(monkeypatch):
    # numpy's divide-and-conquer SVD did not converge on the centred Z of the exact
    # 10 x 20 torus (draw 0 of the sweep's shuffles; with the Haswell kernels also on
    # the centred Z times Q of draw 2, the decomposition the family now reuses): the
    # family is still computed
    from gsp_householder.graphs import _regular_family

    def failing(*args, **kwargs):
        raise np.linalg.LinAlgError("SVD did not converge")

    A = np.random.default_rng(0).standard_normal((6, 4))
    expected = np.linalg.svd(A, full_matrices=True)[1]
    B, _ = _pair_basis(shuffled(fourier_basis(nx.cycle_graph(12)).eigenvectors, 0))
    monkeypatch.setattr(_regular_family.np.linalg, "svd", failing)
    s = _regular_family.svd_or_gesvd(A, full_matrices=True)[1]
    np.testing.assert_allclose(s, expected, rtol=1e-12)
    assert _regular_family._diagonal_svd(B) is not None


def test_family_reuses_the_diagonal_decomposition(monkeypatch):
    # the constant-diagonal family is read off the decomposition of the centred Z that
    # the family's fits computed (``PairBasis.diagonal``), not decomposed again; it spans
    # the null space of the centred Z (1 among it), with orthonormal columns
    from gsp_householder.graphs import _regular_family, _regular_member

    B, _ = _pair_basis(shuffled(fourier_basis(_torus(3, 4, 5)).eigenvectors, 1))
    _regular_family._diagonal_svd(B)
    calls = []
    real = np.linalg.svd
    monkeypatch.setattr(_regular_family.np.linalg, "svd",
                        lambda *a, **k: calls.append(1) or real(*a, **k))
    Lam = _regular_member.constant_diagonal_family(B)
    assert calls == []
    Z = B.V * B.V * (B.u ** 2)[:, None]
    Zc = Z - Z.mean(axis=0)
    # as ``constant_diagonal_dimension`` counts it (31 with the Haswell kernels, 30 with
    # Nehalem's, whose eigenvectors of the torus differ)
    assert Lam.shape[1] == _regular_family.constant_diagonal_dimension(B) > 20
    np.testing.assert_allclose(Lam.T @ Lam, np.eye(Lam.shape[1]), atol=1e-10)
    assert np.linalg.norm(Zc @ Lam) <= 1e-9 * np.linalg.norm(Zc)
    one = np.ones(B.V.shape[1]) / np.sqrt(B.V.shape[1])
    assert np.linalg.norm(Lam @ (Lam.T @ one) - one) <= 1e-10


def _rows_on_a_plane(rank, k=6, m=40, seed=0):
    # ``m`` unit rows of ``k`` entries spanning ``rank`` directions
    rng = np.random.default_rng(seed)
    U = rng.standard_normal((m, rank)) @ np.linalg.qr(rng.standard_normal((k, rank)))[0].T
    return U / np.linalg.norm(U, axis=1)[:, None]


def test_rows_of_rank_k_minus_one_pin_their_plane_without_a_decomposition(monkeypatch):
    # the rows on a plane of rank k - 1 leave one normal: their Gram settles it and the
    # member is kept without the decomposition of all rows (the 10 x 20 torus's 19500
    # rows of 125 entries took 0.25 CPU s each, twice); rows of rank k - 2 are not pinned
    from gsp_householder.graphs import _regular_member

    pinned = _rows_on_a_plane(5)
    assert _regular_member._pinned(pinned)
    assert not _regular_member._pinned(_rows_on_a_plane(4))
    assert not _regular_member._pinned(pinned[:3])           # too few rows to tell
    assert _regular_member._pinned(pinned[:, :1])           # one direction: nothing to pin

    def no_decomposition(*args, **kwargs):
        raise AssertionError("decomposed the rows on the plane")

    monkeypatch.setattr(_regular_member, "_row_space", no_decomposition)
    lam = np.arange(3.0)
    on = np.ones(len(pinned), dtype=bool)
    kept = _regular_member._inside_face(pinned, None, None, lam, on, np.ones(6))
    assert kept is lam


def test_rank_of_rows_on_a_plane_is_the_decomposition_s():
    # where ``_pinned`` says rank k - 1 or more, the decomposition of the rows (the
    # slower path) says so too; it never says so of rows of lower rank
    from gsp_householder.graphs import _regular_member

    for seed in range(20):
        for rank in (3, 4, 5):
            U = _rows_on_a_plane(rank, seed=seed)
            sv = _regular_member._row_space(U)[0]
            full = int(np.count_nonzero(sv > _regular_member.RANK_LEVEL * sv[0])) >= 5
            if _regular_member._pinned(U):
                assert full
            assert full == (rank == 5)


def test_quadratic_family_of_the_graph_found_is_not_searched(monkeypatch):
    # a random regular graph's constant-diagonal family is span{1, lambda, lambda^2}:
    # its pairs' points prove that no other member is as sparse, and the planes are not
    # drawn (0.1-0.2 CPU s at 150-200 nodes for nothing); a torus's family is larger
    from gsp_householder.graphs import _regular_member

    def no_draws(*args, **kwargs):
        raise AssertionError("drew planes of a quadratic family")

    monkeypatch.setattr(_regular_member, "_most_rows_members", no_draws)
    G = nx.random_regular_graph(6, 60, seed=4)
    B, basis = _pair_basis(shuffled(fourier_basis(G).eigenvectors, 0))
    A = sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(B.n), dtype=float))
    found = (G.number_of_edges(), 0.0, None, A)
    assert _regular_member._quadratic_family_only(B, found)
    assert sparser_regular_members(B, basis, found, np.random.default_rng(0)) == []
    T = _torus(3, 4, 5)
    B, _ = _pair_basis(shuffled(fourier_basis(T).eigenvectors, 0))
    A = sp.csr_array(nx.to_scipy_sparse_array(T, nodelist=range(B.n), dtype=float))
    assert not _regular_member._quadratic_family_only(B, (T.number_of_edges(), 0.0, None, A))
