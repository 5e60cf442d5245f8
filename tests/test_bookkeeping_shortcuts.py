"""Bookkeeping of the inference done once or without copies: the same arrays and answers
as the plain forms (``PairBasis.upper``, ``edge_codes``, ``program_key``,
``_nonzeros_by_row``, ``WarmProgram`` basis masks)."""

import hashlib

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from gsp_householder.graphs import _dense_lp
from gsp_householder.graphs._pair_geometry import pair_basis
from gsp_householder.graphs._program_memo import program_key
from gsp_householder.graphs._template_lp import edge_codes
from gsp_householder.graphs.fourier import fourier_basis


def _basis(n=9):
    B = fourier_basis(nx.cycle_graph(n))
    V = B.eigenvectors
    return pair_basis(V, 0, V[:, 0])


def test_upper_pairs_are_triu_indices_formed_once_and_read_only():
    B = _basis()
    i, j = B.upper()
    ref_i, ref_j = np.triu_indices(B.n, 1)
    np.testing.assert_array_equal(i, ref_i)
    np.testing.assert_array_equal(j, ref_j)
    assert i.dtype == ref_i.dtype and j.dtype == ref_j.dtype
    again = B.upper()
    assert again[0] is i and again[1] is j
    with pytest.raises(ValueError):
        i[0] = 1  # a caller cannot change the pairs of the others


@pytest.mark.parametrize("canonical", [True, False])
def test_edge_codes_are_the_sorted_distinct_codes(canonical):
    rng = np.random.default_rng(3)
    n = 12
    A = sp.random_array((n, n), density=0.4, random_state=4, format="csr")
    W = sp.csr_array(A + A.T)
    if not canonical:
        # each row's columns in random order, and row 0's last edge stored twice
        indices, data, indptr = [], [], [0]
        for r in range(n):
            s, e = W.indptr[r], W.indptr[r + 1]
            order = rng.permutation(e - s)
            cols, vals = list(W.indices[s:e][order]), list(W.data[s:e][order])
            if r == 0:
                cols, vals = [*cols, max(cols)], [*vals, 1.0]
            indices += cols
            data += vals
            indptr.append(len(indices))
        W = sp.csr_array(
            (np.array(data), np.array(indices, dtype=np.int32), np.array(indptr, dtype=np.int32)),
            shape=(n, n),
        )
        assert not W.has_canonical_format
    upper = sp.triu(W, 1).tocoo()
    want = np.unique(upper.row.astype(np.int64) * n + upper.col.astype(np.int64))
    got = edge_codes(W)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_program_key_is_the_digest_of_the_arrays_bytes():
    rng = np.random.default_rng(0)
    arrays = (
        rng.standard_normal((5, 4))[:, :3],
        np.arange(4),
        np.zeros((0, 2)),
        rng.standard_normal(6).astype(np.float32),
    )
    digest = hashlib.blake2b(digest_size=32)
    digest.update(repr((True, False)).encode())
    for a in arrays:
        a = np.ascontiguousarray(a, dtype=np.float64)
        digest.update(repr(a.shape).encode())
        digest.update(a.tobytes())
    assert program_key(arrays, (True, False)) == digest.digest()
    assert program_key(arrays[:1], (True, False)) != digest.digest()


@pytest.mark.parametrize("zeros", ["margin", "scattered"])
def test_rows_beside_a_zero_column_are_packed_as_their_nonzero_entries(zeros):
    rng = np.random.default_rng(7)
    A = rng.standard_normal((40, 6))
    if zeros == "margin":
        A[10:, -1] = 0.0  # pair rows under the margin's dense rows
    else:
        A[rng.random(A.shape) < 0.3] = 0.0
    nz = A != 0.0
    start = np.concatenate([[0], np.cumsum(nz.sum(axis=1))[:-1]]).astype(np.int32)
    want = (start, np.nonzero(nz)[1].astype(np.int32), A[nz])
    for got, ref in zip(_dense_lp._nonzeros_by_row(A), want, strict=True):
        assert got.dtype == ref.dtype
        np.testing.assert_array_equal(got, ref)


@pytest.mark.skipif(_dense_lp._highs is None, reason="HiGHS bindings not available")
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_basic_masks_are_those_of_the_basis_status(seed):
    rng = np.random.default_rng(seed)
    m, d = 50, 5
    A = rng.standard_normal((m, d + 1))
    A[:, -1] = 1.0
    A[m // 2 :] = A[: m - m // 2]  # repeated rows: degenerate vertices
    b = rng.uniform(0.1, 1.0, m)
    lower = np.append(np.full(d, -10.0), -np.inf)
    upper = np.append(np.full(d, 10.0), 5.0)
    program = _dense_lp.WarmProgram(A, b, np.zeros((0, d + 1)), np.zeros(0), lower, upper)
    for k in range(3):
        status, _ = program.solve(np.append(rng.standard_normal(d), -1.0))
        assert status == _dense_lp.OPTIMAL
        basis, basic = program._h.getBasis(), int(_dense_lp._highs.HighsBasisStatus.kBasic)
        want_cols = np.fromiter(map(int, basis.col_status), int) == basic
        want_rows = np.fromiter(map(int, basis.row_status), int) == basic
        cols, rows = program._basic()
        np.testing.assert_array_equal(cols, want_cols)
        np.testing.assert_array_equal(rows, want_rows)
        program.add_rows(rng.standard_normal((4, d + 1)), rng.uniform(0.5, 1.0, 4) + k)
