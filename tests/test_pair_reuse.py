"""Work shared between the steps of the inference: grouped pair rows, complement Grams
updated from the nearest one built, kept eigenpairs and pair matrices, and the ordered
search that stops at the first valid size."""

import networkx as nx
import numpy as np
import pytest
import scipy.linalg
import scipy.linalg.blas
import scipy.sparse
from _basis_inputs import shuffled as _shuffled

from gsp_householder.graphs import (
    _basis_input,
    _basis_search,
    _candidate_search,
    _pair_geometry,
    _sampled_ranking,
    _support_search,
)
from gsp_householder.graphs import laplacian_inference as inference
from gsp_householder.graphs._pair_geometry import PairGram, complement_gram
from gsp_householder.graphs._support_search import leverage_scores, other_null_directions
from gsp_householder.graphs.comparison import compare_graphs
from gsp_householder.graphs.fourier import fourier_basis


def _pairs(V, eigenspaces=None, ordered=None):
    basis = _basis_input._read_basis(V, eigenspaces, ordered, None, None)
    return _basis_input._anchored_pair_basis(basis)


def _grid():
    """A 5 x 6 grid: eigenvalues of multiplicity 2 and 3 (grouped unknowns)."""
    return fourier_basis(nx.grid_2d_graph(5, 6))


def _close(A, B, rel=1e-12):
    np.testing.assert_allclose(A, B, rtol=0, atol=rel * max(float(np.abs(B).max()), 1e-300))


def test_grouped_rows_are_the_column_sums_of_each_unknown(monkeypatch):
    F = _grid()
    B = _pairs(F)
    assert B.G is not None and B.starts is not None and B.g < B.V.shape[1]
    i, j = B.upper()
    _close(B.rows(i, j), (B.V[i] * B.V[j]) @ B.G)
    R = B.rows(i, j)
    _close(R.T @ R, B.M)                          # the closed-form Gram of all pairs
    Lam = np.random.default_rng(0).standard_normal((B.g, 3))
    _close(B.products(i, j, Lam), R @ Lam)
    monkeypatch.setattr(_pair_geometry, "MAX_ROW_ENTRIES", 1000)   # chunks of 34 pairs
    _close(B.products(i[:300], j[:300], Lam), R[:300] @ Lam)
    assert B.rows(i[:0], j[:0]).shape == (0, B.g)
    # without the runs (a basis built by hand): the product with G, same rows
    B.starts = None
    _close(B.rows(i, j), R)


def test_eigenspaces_in_any_column_order_give_the_same_laplacian():
    F = _grid()
    rng = np.random.default_rng(3)
    perm = rng.permutation(F.n)
    where = np.argsort(perm)                      # new position of each old column
    groups = [np.sort(where[g]) for g in F.eigenspaces]
    order = rng.permutation(len(groups))
    groups = [groups[k] for k in order]
    B = _pairs(F.eigenvectors[:, perm], eigenspaces=groups)
    assert B.starts is not None
    # the unknowns follow the eigenspaces given, the zero-eigenvalue one left out
    lam = np.array([F.eigenvalues[F.eigenspaces[k][0]] for k in order
                    if F.eigenvalues[F.eigenspaces[k][0]] > 1e-9])
    L = B.matrix(lam) * np.outer(B.u, B.u)
    off = ~np.eye(F.n, dtype=bool)
    _close(L[off], F.laplacian.toarray()[off], rel=1e-10)
    # and any pair's row is its entry's coefficients
    i, j = np.nonzero(np.triu(off))
    _close(B.rows(i, j) @ lam, B.matrix(lam)[i, j], rel=1e-10)


@pytest.mark.parametrize("grouped", [False, True])
def test_complement_gram_equals_the_rebuilt_gram(grouped):
    F = _grid() if grouped else fourier_basis(nx.connected_watts_strogatz_graph(40, 4, 0.2,
                                                                                seed=1))
    B = _pairs(F) if grouped else _pairs(_shuffled(F.eigenvectors, 0))
    rng = np.random.default_rng(0)
    i, j = B.upper()

    def check(sel, flip=False):
        I, J = (j[sel], i[sel]) if flip else (i[sel], j[sel])
        got, want = complement_gram(B, I, J), PairGram(B).without(i[np.sort(sel)],
                                                                  j[np.sort(sel)])
        np.testing.assert_array_equal(got.M, want.M)
        np.testing.assert_array_equal(got.total, want.total)
        assert got.k == want.k == B.n_pairs - sel.size
        for r, cluster in ((4, None), (2, 10.0 * float(want.null_directions(1)[0][0]))):
            for a, b in zip(got.null_directions(r, cluster=cluster),
                            want.null_directions(r, cluster=cluster), strict=True):
                np.testing.assert_array_equal(a, b)
        return got

    first = rng.choice(i.size, 200, replace=False)
    built = check(first)
    assert len(B.grams) == 1 and B.grams[0][1] is built
    assert check(first[::-1], flip=True) is built         # same pairs, any order: kept
    other = check(np.union1d(first[15:], rng.choice(i.size, 20)))
    assert other is not built and B.grams[0][1] is other
    for _ in range(_pair_geometry.GRAM_CACHE + 1):        # unrelated sets: bounded
        check(rng.choice(i.size, 150, replace=False))
    assert len(B.grams) == _pair_geometry.GRAM_CACHE


def test_null_directions_are_kept_per_count():
    B = _pairs(_grid())
    i, j = B.upper()
    gram = PairGram(B).without(i[:100], j[:100])
    mu = gram.null_directions(8)[0]
    again = gram.null_directions(8)
    fresh = PairGram(B, gram.M.copy(), gram.total.copy(), gram.k).null_directions(8)
    for a, b in zip(again, fresh, strict=True):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(mu, fresh[0])
    assert set(gram._eigh) == {8}


@pytest.mark.parametrize("g", [3, 20, 50, 129, 300])
def test_smallest_eigenpairs_from_one_reduction_are_scipys(g):
    """Every count from one reduction: the numbers of ``scipy.linalg.eigh`` (evr), bit
    for bit, with clustered eigenvalues; the whole spectrum too."""
    rng = np.random.default_rng(g)
    Q = np.linalg.qr(rng.standard_normal((g, g)))[0]
    w = np.sort(np.r_[np.full(min(4, g), 1e-9), rng.random(g - min(4, g))])
    C = (Q * w) @ Q.T
    C = 0.5 * (C + C.T)
    B = _pairs(_grid())
    made = []
    pairs = _pair_geometry.SmallestEigenpairs(B, lambda: made.append(1) or C.copy())
    counts = [min(r, g) for r in (8, 1, 16, 32, 8, g)]
    w_all, Z_all = scipy.linalg.eigh(C)
    eps = np.finfo(float).eps
    for r in counts:
        got = pairs(r)
        want = scipy.linalg.eigh(C, subset_by_index=[0, r - 1], driver="evr")
        if not all(np.array_equal(a, b) for a, b in zip(got, want, strict=True)):
            # bit for bit with most BLAS kernels; where the reduction rounds otherwise
            # (OpenBLAS's SandyBridge kernels at g = 129), the same eigenpairs to rounding:
            # the eigenvalues, and each vector inside the eigenspaces of its cluster
            np.testing.assert_allclose(got[0], want[0], rtol=0, atol=16 * g * eps)
            top = np.searchsorted(w_all, got[0][-1] + 1e-6)
            outside = got[1] - Z_all[:, :top] @ (Z_all[:, :top].T @ got[1])
            assert np.abs(outside).max() <= 1e-8
        np.testing.assert_allclose(C @ got[1], got[1] * got[0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(got[1].T @ got[1], np.eye(r), rtol=0, atol=1e-12)
    # reduced once; the whole spectrum from C each time
    assert len(made) == 1 + counts.count(g)


def test_reductions_kept_per_basis_are_the_last_ones():
    B = _pairs(_grid())
    i, j = B.upper()
    grams = [PairGram(B).without(i[:k], j[:k]) for k in (10, 20, 30)]
    for gram in grams:
        gram.null_directions(4)
    assert [gram._smallest._reduced is not None for gram in grams] == [False, True, True]
    fresh = PairGram(B, grams[0].M.copy(), grams[0].total.copy(), grams[0].k)
    for a, b in zip(grams[0].null_directions(6), fresh.null_directions(6), strict=True):
        np.testing.assert_array_equal(a, b)


def test_pair_matrices_are_kept_read_only_and_exact():
    B = _pairs(_grid())
    rng = np.random.default_rng(1)
    lams = [rng.random(B.g) for _ in range(_pair_geometry.MATRIX_CACHE + 1)]
    first = B.matrix(lams[0])
    assert B.matrix(lams[0].copy()) is first and not first.flags.writeable
    with pytest.raises(ValueError):
        first[0, 0] = 1.0
    for lam in lams[1:]:
        B.matrix(lam)
    assert len(B.matrices) == _pair_geometry.MATRIX_CACHE
    for lam in lams:
        np.testing.assert_array_equal(B.matrix(lam), (B.V * B.columns(lam)) @ B.V.T)
    B.symmetric, B.matrices = True, []
    for lam in lams:
        L = B.matrix(lam)
        np.testing.assert_array_equal(L, L.T)                # exactly symmetric
        np.testing.assert_allclose(L, (B.V * B.columns(lam)) @ B.V.T, rtol=0,
                                   atol=1e-12 * np.abs(L).max())


def test_symmetric_product_of_mixed_signs_and_zeros():
    rng = np.random.default_rng(2)
    V = rng.standard_normal((9, 7))
    for w in (rng.standard_normal(7), np.r_[0.0, 0.0, rng.random(5)], -rng.random(7),
              np.zeros(7)):
        L = _pair_geometry.symmetric_product(V, w)
        np.testing.assert_array_equal(L, L.T)
        np.testing.assert_allclose(L, (V * w) @ V.T, rtol=0, atol=1e-13)


def _summed_product(V, w):
    """The symmetric product as formed before the mirror: ``C + C.T``, diagonal halved."""
    n = V.shape[0]
    C = np.zeros((n, n), order="F")
    for sign, part in ((1.0, w > 0), (-1.0, w < 0)):
        if part.any():
            A = V[:, part] * np.sqrt(sign * w[part])
            C = scipy.linalg.blas.dsyrk(sign, A.T, beta=1.0, c=C, trans=1, lower=0,
                                        overwrite_c=1)
    L = C + C.T
    L.flat[::n + 1] *= 0.5
    return L


@pytest.mark.parametrize("n", [3, 9, 255, 256, 257, 530])
def test_symmetric_product_mirrored_in_place_is_the_summed_one(n):
    """Bit for bit, across the mirror's block edges, with and without a reused buffer
    (filled with other numbers), for mixed signs, one sign and zeros."""
    rng = np.random.default_rng(n)
    V = rng.standard_normal((n, n - 1))
    buffer = np.full((n, n), np.nan, order="F")
    for w in (rng.standard_normal(n - 1), rng.random(n - 1), np.zeros(n - 1)):
        want = _summed_product(V, w)
        for got in (_pair_geometry.symmetric_product(V, w),
                    _pair_geometry.symmetric_product(V, w, out=buffer)):
            assert got.flags.c_contiguous and got.tobytes() == want.tobytes()


def test_centred_gram_is_the_formula():
    rng = np.random.default_rng(3)
    for g in (2, 40, 301):
        A = rng.standard_normal((g + 5, g))
        M, mean, k = A.T @ A, rng.standard_normal(g), 4321
        C = M - k * np.outer(mean, mean)
        C += (max(np.trace(C), 1e-300) / g) * np.ones((g, g))
        want = 0.5 * (C + C.T)
        assert _pair_geometry.centred_gram(M, mean, k).tobytes() == want.tobytes()


@pytest.mark.parametrize("symmetric", [False, True])
def test_leverage_scores_are_the_sum_over_kept_matrices(symmetric):
    """The buffered scores equal the sum of the kept matrices' squares bit for bit (with
    the general product, one block of rows: on and above the diagonal, mirrored below),
    and leave ``B.matrices`` as it was (general and symmetric products)."""
    B = _pairs(_grid())
    B.symmetric = symmetric
    mu, Lam = PairGram(B).null_directions(6)
    before = list(B.matrices)
    got = leverage_scores(B, mu, Lam)
    assert B.matrices == before
    want = np.zeros((B.n, B.n))
    for k in range(Lam.shape[1]):
        P = B.matrix(Lam[:, k])
        want += P * P / max(float(mu[k]), 1e-12)
    if not symmetric:
        upper = np.triu_indices(B.n)
        assert got[upper].tobytes() == want[upper].tobytes()
        assert got.tobytes() == got.T.tobytes()
    else:
        assert got.tobytes() == want.tobytes()


@pytest.mark.parametrize("grouped", [False, True])
def test_products_of_all_pairs_are_those_of_the_gathered_rows(grouped):
    """All pairs in the order of ``upper``: rows built node by node, the same products
    as gathered rows, bit for bit; any other order or subset is gathered."""
    F = _grid() if grouped else fourier_basis(nx.connected_watts_strogatz_graph(40, 4, 0.2,
                                                                             seed=1))
    B = _pairs(F if grouped else _shuffled(F.eigenvectors, 0))
    assert (B.G is not None) == grouped
    i, j = B.upper()
    Lam = np.random.default_rng(2).standard_normal((B.g, 5))
    W = B.columns(Lam)
    assert B._all_pairs(i, j) and not B._all_pairs(j, i)
    assert B.products(i, j, Lam).tobytes() == ((B.V[i] * B.V[j]) @ W).tobytes()
    assert B._upper_rows().tobytes() == (B.V[i] * B.V[j]).tobytes()
    k = np.random.default_rng(3).permutation(len(i))
    assert not B._all_pairs(i[k], j[k])
    assert B.products(i[k], j[k], Lam).tobytes() == ((B.V[i[k]] * B.V[j[k]]) @ W).tobytes()


@pytest.mark.parametrize("grouped", [False, True])
def test_products_build_their_rows_in_the_kept_buffer(grouped):
    """``products`` below ``MAX_ROW_ENTRIES`` builds its rows in ``row_buffer`` (one
    mapping per basis, not a fresh array per call): after rows of another size have been
    built there, all pairs and a subset still give the gathered products bit for bit,
    and the buffer is neither replaced nor grown by a product that fits in it."""
    F = _grid() if grouped else fourier_basis(nx.connected_watts_strogatz_graph(40, 4, 0.2,
                                                                             seed=1))
    B = _pairs(F if grouped else _shuffled(F.eigenvectors, 0))
    i, j = B.upper()
    Lam = np.random.default_rng(5).standard_normal((B.g, 4))
    W = B.columns(Lam)
    k = np.random.default_rng(6).permutation(len(i))[:300]
    B.row_buffer(len(i)).fill(np.nan)                   # stale rows of an earlier user
    kept = B.work["rows"]
    assert B.products(i, j, Lam).tobytes() == ((B.V[i] * B.V[j]) @ W).tobytes()
    assert B.products(i[k], j[k], Lam).tobytes() == ((B.V[i[k]] * B.V[j[k]]) @ W).tobytes()
    assert kept[:k.size * B.V.shape[1]].tobytes() == (B.V[i[k]] * B.V[j[k]]).tobytes()
    assert B.products(i, j, Lam).tobytes() == ((B.V[i] * B.V[j]) @ W).tobytes()
    assert B.work["rows"] is kept


@pytest.mark.parametrize("block", [1, 7 * 39, 1 << 15])
def test_pair_rows_built_in_blocks_and_buffers_are_the_gathered_products(block, monkeypatch):
    """``free_rows`` gathers and multiplies block by block (one row, a block that does
    not divide the rows, all rows at once), into a fresh array or the first rows of a
    larger buffer; ``row_chunks``, the chunked ``products`` and ``sample_gram`` reuse the
    basis's ``row_buffer``: all of them give the gathered products bit for bit."""
    B = _pairs(_shuffled(fourier_basis(nx.connected_watts_strogatz_graph(40, 4, 0.2,
                                                                        seed=1)).eigenvectors, 0))
    monkeypatch.setattr(_pair_geometry, "PRODUCT_BLOCK_ENTRIES", block)
    rng = np.random.default_rng(4)
    i, j = rng.integers(0, B.n, 500), rng.integers(0, B.n, 500)
    want = B.V[i] * B.V[j]
    assert B.free_rows(i, j).tobytes() == want.tobytes()
    buffer = np.full((600, B.V.shape[1]), np.nan)
    got = B.rows(i, j, out=buffer)
    assert np.shares_memory(got, buffer) and got.tobytes() == want.tobytes()
    assert B.rows(i[:0], j[:0]).shape == (0, B.V.shape[1])

    monkeypatch.setattr(_pair_geometry, "MAX_ROW_ENTRIES", 39 * 64)   # chunks of 64 pairs
    chunks = [A.copy() for A in B.row_chunks(i, j)]
    assert [len(A) for A in chunks] == [64] * 7 + [52]
    assert np.vstack(chunks).tobytes() == want.tobytes()
    Lam = rng.standard_normal((B.g, 3))
    W = B.columns(Lam)
    pieces = [want[s:s + 64] @ W for s in range(0, len(i), 64)]
    assert B.products(i, j, Lam).tobytes() == np.vstack(pieces).tobytes()

    big = B.row_buffer(64)
    assert np.shares_memory(B.row_buffer(10), big) and B.row_buffer(10).flags.c_contiguous
    monkeypatch.setattr(_sampled_ranking, "CHUNK", 64)
    gram = _sampled_ranking.sample_gram(B, i, j)
    M = sum(want[s:s + 64].T @ want[s:s + 64] for s in range(0, len(i), 64))
    assert gram.M.tobytes() == (0.5 * (M + M.T)).tobytes()


@pytest.mark.parametrize("symmetric", [False, True])
def test_products_read_off_matrices_are_those_of_the_kept_matrices(symmetric, monkeypatch):
    """Many pairs per column: the products read off matrices formed in one buffer equal
    those read off ``PairBasis.matrix``'s matrices bit for bit, and leave its cache as
    it was."""
    B = _pairs(fourier_basis(nx.connected_watts_strogatz_graph(40, 4, 0.2, seed=1)))
    B.symmetric = symmetric
    monkeypatch.setattr(_pair_geometry, "MAX_ROW_ENTRIES", 100)    # the matrix path
    i, j = B.upper()
    Lam = np.random.default_rng(1).standard_normal((B.g, 2))
    assert len(i) > 8 * B.n * Lam.shape[1] and len(i) * B.V.shape[1] > 100
    before = list(B.matrices)
    got = B.products(i, j, Lam)
    assert B.matrices == before
    want = np.column_stack([B.matrix(Lam[:, k])[i, j] for k in range(Lam.shape[1])])
    assert got.tobytes() == want.tobytes()
    _close(got, B.rows(i, j) @ Lam)


def test_local_free_gram_is_kept_with_its_reduction():
    """One Gram per pair set, its reduction kept (``pinned``) while later ones come and
    go, and its directions those of a fresh, unpinned Gram, bit for bit."""
    B = _pairs(_grid())
    i, j = B.upper()
    local = np.array([0, 3])
    gram = _pair_geometry.local_free_gram(B, i[:40], j[:40])
    assert _pair_geometry.local_free_gram(B, i[:40].copy(), j[:40].copy()) is gram
    first = other_null_directions(gram, local, 8)
    for k in range(_pair_geometry.REDUCTION_CACHE + 2):
        PairGram(B).without(i[:k + 5], j[:k + 5]).null_directions(4)
    (pinned,) = gram.others.values()
    assert pinned._reduced is not None and all(ref() is not pinned for ref in B.reductions)
    fresh = PairGram(B).without(i[:40], j[:40])
    for r in (8, 16):
        for a, b in zip(other_null_directions(gram, local, r),
                        other_null_directions(fresh, local, r), strict=True):
            np.testing.assert_array_equal(a, b)
    np.testing.assert_array_equal(first[0], other_null_directions(fresh, local, 8)[0])
    other = _pair_geometry.local_free_gram(B, i[:30], j[:30])
    assert other is not gram and B.local_free[1] is other


def test_same_span():
    rng = np.random.default_rng(2)
    A = rng.standard_normal((30, 4))
    assert _candidate_search._same_span(A, A @ rng.standard_normal((4, 4)))
    assert not _candidate_search._same_span(A, A[:, :3])
    C = A.copy()
    C[:, 0] += 1e-4 * rng.standard_normal(30)
    assert not _candidate_search._same_span(A, C)


def _record_bisect(monkeypatch):
    """The ``bisect`` flag of every `PrefixSearch.run` call, in order (a live list)."""
    calls = []
    run = _support_search.PrefixSearch.run

    def spy(self, start=None, bisect=True):
        calls.append(bisect)
        return run(self, start, bisect)

    monkeypatch.setattr(_support_search.PrefixSearch, "run", spy)
    return calls


@pytest.mark.parametrize("make", [
    # twin nodes: the order leaves a family; the first valid size is re-ranked
    lambda: nx.random_geometric_graph(150, 0.16, seed=4),
    lambda: nx.hexagonal_lattice_graph(5, 6),
    lambda: nx.barabasi_albert_graph(120, 2, seed=5),
])
def test_ordered_search_without_bisection_finds_the_graph(make, monkeypatch):
    G = make()
    G = G.subgraph(max(nx.connected_components(G), key=len)).copy()
    F = fourier_basis(G)
    monkeypatch.setattr(_basis_search, "UNBISECTED_MIN_N", 0)     # as above 500 nodes
    calls = _record_bisect(monkeypatch)
    res = inference.infer_laplacian(F)
    assert calls[0] is False and all(calls[1:])
    assert compare_graphs(F.laplacian, res.laplacian)["f1"] == 1.0


def test_ordered_search_bisects_on_small_graphs(monkeypatch):
    F = fourier_basis(nx.karate_club_graph())
    calls = _record_bisect(monkeypatch)
    res = inference.infer_laplacian(F)
    assert calls and all(calls)
    assert compare_graphs(F.laplacian, res.laplacian)["f1"] == 1.0


@pytest.mark.parametrize("symmetric", [False, True])
def test_direction_matrix_and_adjacency_match_the_kept_matrix(symmetric):
    """``_template_lp._direction_matrix`` (the certificates' products) is the general
    product, or with ``B.symmetric`` the kept matrix bit for bit (equal to the general
    product to 1e-12); ``adjacency`` gives the same weights from either form of -L."""
    from gsp_householder.graphs import _template_lp

    B = _pairs(_grid())
    B.symmetric = symmetric
    rng = np.random.default_rng(5)
    tol = np.full(B.n, 1e-9)
    for lam in (rng.standard_normal(B.g), B.equal_eigenvalues()):
        general = (B.V * B.columns(lam)) @ B.V.T
        got = _template_lp._direction_matrix(B, lam)
        if symmetric:
            assert got.tobytes() == B.matrix(lam).tobytes()
            np.testing.assert_array_equal(got, got.T)
            np.testing.assert_allclose(got, general, rtol=0, atol=1e-12 * np.abs(got).max())
        else:
            assert got.tobytes() == general.tobytes()
        L = B.matrix(lam)
        W = -0.5 * (L + L.T)
        np.fill_diagonal(W, 0.0)
        W[W <= 2.0 * (tol[:, None] + tol[None, :])] = 0.0
        W *= np.outer(B.u ** 2, B.u ** 2)
        W[W <= 1e-6 * W.max(initial=0.0)] = 0.0
        A = _template_lp.adjacency(B, lam, tol)
        assert A.nnz > 0
        np.testing.assert_array_equal(A.toarray(), W)
        # the dense form converted: the same sparse array, bit for bit
        dense = scipy.sparse.csr_array(W)
        for name in ("data", "indices", "indptr"):
            got, want = getattr(A, name), getattr(dense, name)
            assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), name


@pytest.mark.parametrize("symmetric", [False, True])
def test_adjacency_weights_only_the_entries_above_the_threshold(symmetric):
    """``adjacency`` weights the entries of -L above ``2 (tol_i + tol_j)`` only; its
    sparse array is the whole matrix weighted, cut and converted, bit for bit, with
    per-node tolerances that keep some entries of every sign pattern and drop others."""
    from gsp_householder.graphs import _template_lp

    B = _pairs(_grid())
    B.symmetric = symmetric
    rng = np.random.default_rng(11)
    for lam in (rng.standard_normal(B.g), B.equal_eigenvalues()):
        L = B.matrix(lam)
        spread = float(np.abs(L).max())
        for tol in (np.full(B.n, 1e-9), spread * rng.random(B.n) / 8, np.zeros(B.n)):
            W = -0.5 * (L + L.T)
            np.fill_diagonal(W, 0.0)
            W[W <= 2.0 * (tol[:, None] + tol[None, :])] = 0.0
            W *= np.outer(B.u * B.u, B.u * B.u)
            W[W <= 1e-6 * W.max(initial=0.0)] = 0.0
            want = scipy.sparse.csr_array(W)
            got = _template_lp.adjacency(B, lam, tol)
            assert got.shape == want.shape and got.nnz == want.nnz
            for name in ("data", "indices", "indptr"):
                a, b = getattr(got, name), getattr(want, name)
                assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), name


def test_constant_diagonal_fits_share_one_decomposition():
    """The fits of several dimensions of a basis share the centred diagonal's SVD, and
    give what a fresh basis gives, bit for bit."""
    from gsp_householder.graphs._regular_family import constant_diagonal_fit

    V = _perturbed_regular()
    B = _pairs(V)
    assert B.diagonal is None
    fits = [constant_diagonal_fit(B, noisy=True, dimension=d) for d in (2, 3, 2)]
    s = B.diagonal[1]
    for d, fit in zip((2, 3, 2), fits, strict=True):
        fresh = constant_diagonal_fit(_pairs(V), noisy=True, dimension=d)
        assert B.diagonal[1] is s and fresh is not None and fit is not None
        assert fit.Lam.tobytes() == fresh.Lam.tobytes()
        assert fit.lam.tobytes() == fresh.lam.tobytes()
    grouped = _pairs(_grid())
    assert constant_diagonal_fit(grouped) is None and grouped.diagonal == (None,)


def _perturbed_regular():
    B = fourier_basis(nx.random_regular_graph(3, 40, seed=2))
    E = np.random.default_rng(0).standard_normal(B.eigenvectors.shape)
    U, _, Wt = np.linalg.svd(B.eigenvectors + 1e-4 * E)
    return _shuffled(U @ Wt, 0)


def test_edge_keys_are_equal_exactly_when_the_edge_sets_are():
    import scipy.sparse as sp

    from gsp_householder.graphs._template_lp import edge_key

    def key_of(pairs, n=6, weights=None):
        i, j = np.array(pairs).T
        w = np.ones(len(i)) if weights is None else np.asarray(weights, dtype=float)
        U = sp.csr_array((w, (i, j)), shape=(n, n))
        return edge_key(sp.csr_array(U + U.T))

    a = key_of([(0, 1), (1, 2), (3, 5)])
    assert a == key_of([(3, 5), (0, 1), (1, 2)], weights=[2.0, 0.5, 7.0])  # order, weights
    assert a != key_of([(0, 1), (1, 2)]) and a != key_of([(0, 1), (1, 2), (3, 4)])
    assert a != key_of([(0, 1), (1, 2), (3, 5)], n=7)
    W = sp.coo_array((np.ones(4), ([0, 1, 1, 0], [1, 0, 0, 1])), shape=(6, 6))   # duplicates
    assert edge_key(W) == key_of([(0, 1)])


def test_upper_entries_are_those_of_triu_in_its_order():
    # a CSR array read off its index arrays: the entries of ``sp.triu(W, 1).tocoo()``,
    # in the same order, with unsorted column indices, duplicates, explicit zeros and
    # entries on and below the diagonal; other formats go through ``sp.triu``
    import scipy.sparse as sp

    from gsp_householder.graphs._sparse_upper import upper_entries

    rng = np.random.default_rng(4)
    data = np.array([1.0, 2.0, 0.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0])
    indices = np.array([3, 1, 2, 0, 4, 4, 2, 1, 0], dtype=np.int32)
    indptr = np.array([0, 3, 6, 6, 8, 9], dtype=np.int32)
    unsorted = sp.csr_array((data, indices, indptr), shape=(5, 5))
    assert not unsorted.has_sorted_indices
    A = sp.random_array((40, 40), density=0.2, rng=rng, format="csr")
    for W in (unsorted, A, sp.csr_array(A + A.T), sp.csr_array((5, 5)), A.tocoo(), A.tocsc()):
        ref = sp.triu(W, 1).tocoo()
        for got, want in zip(upper_entries(W), (ref.row, ref.col, ref.data), strict=True):
            np.testing.assert_array_equal(got, want)


def _kept_buffers_basis():
    return _pairs(_shuffled(fourier_basis(nx.connected_watts_strogatz_graph(
        60, 4, 0.2, seed=3)).eigenvectors, 1))


def test_symmetric_products_scale_the_columns_in_kept_memory():
    """``symmetric_product`` with a work buffer (larger than needed, filled with other
    numbers) gives the products without it bit for bit; ``PairBasis.matrix`` and the
    certificates' direction matrices form their scaled columns in the basis's
    ``column_buffer``, one flat array reused by every product."""
    rng = np.random.default_rng(5)
    V = rng.standard_normal((70, 69))
    work = np.full(V.size + 11, np.nan)
    for w in (rng.standard_normal(69), rng.random(69), -rng.random(69),
              np.r_[np.zeros(30), rng.standard_normal(39)], np.zeros(69)):
        want = _pair_geometry.symmetric_product(V, w)
        assert _pair_geometry.symmetric_product(V, w, work=work).tobytes() == want.tobytes()
        buffer = np.full((70, 70), np.nan, order="F")
        got = _pair_geometry.symmetric_product(V, w, out=buffer, work=work)
        assert got.tobytes() == want.tobytes()
    B = _kept_buffers_basis()
    B.symmetric = True
    lams = rng.standard_normal((3, B.g))
    assert "columns" not in B.work
    first = B.matrix(lams[0])
    kept = B.work["columns"]
    assert kept.size == B.V.size and first.tobytes() == _pair_geometry.symmetric_product(
        B.V, B.columns(lams[0])).tobytes()
    from gsp_householder.graphs import _template_lp
    once = _template_lp._direction_matrix(B, lams[1])
    assert once.tobytes() == _pair_geometry.symmetric_product(
        B.V, B.columns(lams[1])).tobytes()
    B.matrix(lams[2], out=np.empty((B.n, B.n), order="F"))
    assert B.work["columns"] is kept


@pytest.mark.parametrize("block", [1, 7 * 61, 1 << 15])
def test_leverage_scores_added_by_row_blocks_are_the_whole_sums(block, monkeypatch):
    """The terms added block of rows by block of rows (one row, blocks that do not divide
    the rows, all rows at once) are the sums of whole squared matrices, bit for bit."""
    B = _kept_buffers_basis()
    mu, Lam = PairGram(B).null_directions(5)
    for symmetric in (False, True):
        B.symmetric, B.matrices = symmetric, []
        want = np.zeros((B.n, B.n))
        for k in range(Lam.shape[1]):
            P = B.matrix(Lam[:, k])
            T = P * P
            T /= max(float(mu[k]), 1e-12)
            want += T
        monkeypatch.setattr(_support_search, "LEVERAGE_BLOCK_ENTRIES", block * B.n // 61)
        got = leverage_scores(B, mu, Lam)
        if symmetric:
            assert got.tobytes() == want.tobytes()
        else:           # the upper triangles (``_upper_leverage``), mirrored
            upper = np.triu_indices(B.n)
            _close(got[upper], want[upper], 1e-14)
            assert got.tobytes() == got.T.tobytes()


@pytest.mark.parametrize("grouped", [False, True])
def test_upper_leverage_scores_are_the_whole_products_scores(grouped, monkeypatch):
    """With the general product the scores are formed from the upper triangles by blocks
    of rows (blocks of one row, of 7, of 64 rows with a last short block, one block of
    all rows): on and above the diagonal they are the sums of the whole matrices'
    squares (to rounding: every entry is the same dot product), exactly symmetric, and
    every block size ranks the pairs alike up to rounding."""
    from gsp_householder.graphs import _upper_leverage
    if grouped:
        F = fourier_basis(nx.grid_2d_graph(9, 17))                          # n = 153
        B = _pairs(F)
        assert B.G is not None
    else:
        F = fourier_basis(nx.connected_watts_strogatz_graph(150, 6, 0.1, seed=2))
        B = _pairs(_shuffled(F.eigenvectors, 1))
    assert not B.symmetric
    mu, Lam = PairGram(B).null_directions(8)
    want = np.zeros((B.n, B.n))
    for k in range(Lam.shape[1]):
        P = (B.V * B.columns(Lam[:, k])) @ B.V.T
        want += P * P / max(float(mu[k]), 1e-12)
    upper = np.triu_indices(B.n)
    for rows in (1, 7, 64, 1000):
        monkeypatch.setattr(_upper_leverage, "UPPER_BLOCK_ROWS", rows)
        got = leverage_scores(B, mu, Lam)
        _close(got[upper], want[upper], 1e-13)
        assert got.tobytes() == got.T.tobytes()
        assert np.all(np.isfinite(got))


def test_chunk_grams_in_kept_memory_are_the_summed_products(monkeypatch):
    """``sample_gram`` and ``PairGram.without`` form each chunk's Gram in the basis's
    ``square_buffer`` and the sample's sum in its ``gram_sum_buffer``: the same numbers as
    summing fresh products, bit for bit, twice in a row, and the Grams returned are
    arrays of their own (not the kept memory)."""
    B = _kept_buffers_basis()
    rng = np.random.default_rng(6)
    i, j = B.upper()
    pick = np.sort(rng.choice(len(i), 700, replace=False))
    i, j = i[pick], j[pick]
    R = B.V[i] * B.V[j]
    monkeypatch.setattr(_sampled_ranking, "CHUNK", 64)
    monkeypatch.setattr(_pair_geometry, "MAX_ROW_ENTRIES", 64 * B.V.shape[1])
    M = sum(R[s:s + 64].T @ R[s:s + 64] for s in range(0, len(i), 64))
    down = B.M.copy()
    for s in range(0, len(i), 64):
        down -= R[s:s + 64].T @ R[s:s + 64]
    for _ in range(2):
        gram = _sampled_ranking.sample_gram(B, i, j)
        assert gram.M.tobytes() == (0.5 * (M + M.T)).tobytes()
        rest = PairGram(B).without(i, j)
        assert rest.M.tobytes() == down.tobytes()
        for kept in B.work.values():
            assert not np.shares_memory(gram.M, kept) and not np.shares_memory(rest.M, kept)
    assert set(B.work) == {"rows", "square", "sum"}     # the chunks' rows, Grams and sum


def test_centred_grams_in_kept_memory_are_the_plain_ones():
    """A centred Gram built with a work buffer (filled with other numbers) is the plain
    one bit for bit and exactly symmetric, and the null directions of a Gram (whose
    centred matrix is built in the basis's ``square_buffer``) are those of the
    reduction of the plain centred Gram."""
    B = _kept_buffers_basis()
    i, j = B.upper()
    gram = PairGram(B).without(i[:300], j[:300])
    mean = gram.total / gram.k
    plain = _pair_geometry.centred_gram(gram.M, mean, gram.k)
    work = np.full_like(plain, np.nan)
    C = _pair_geometry.centred_gram(gram.M, mean, gram.k, work=work)
    assert C.tobytes() == plain.tobytes() and C.tobytes() == C.T.copy().tobytes()
    assert not np.shares_memory(C, work)
    mu, Lam = gram.null_directions(6)
    w, D = _pair_geometry.smallest_eigenpairs(_pair_geometry.tridiagonal(plain), 6)
    assert mu.tobytes() == np.maximum(w, 0.0).tobytes()
    assert Lam.tobytes() == (D + np.outer(np.ones(B.g), mean @ D)).tobytes()
