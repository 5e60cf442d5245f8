"""Pair rows and trimmed fits formed without fresh arrays: the same numbers, bit for bit."""

import networkx as nx
import numpy as np
from _basis_inputs import shuffled as _shuffled

from gsp_householder.graphs import _basis_input, _pair_geometry
from gsp_householder.graphs._fitted_ranking import MAX_STEPS, fitted_ranking
from gsp_householder.graphs._pair_geometry import PairGram
from gsp_householder.graphs.fourier import fourier_basis


def _pairs(V, ordered=None):
    basis = _basis_input._read_basis(V, None, ordered, None, None)
    return _basis_input._anchored_pair_basis(basis)


def _simple_spectrum_graph():
    """A connected weighted graph of 40 nodes whose eigenvalues are all distinct."""
    G = nx.connected_watts_strogatz_graph(40, 4, 0.3, seed=3)
    rng = np.random.default_rng(3)
    for a, b in G.edges:
        G[a][b]["weight"] = float(rng.uniform(0.5, 2.0))
    return G


def test_rows_of_one_column_per_unknown_are_the_products():
    F = fourier_basis(_simple_spectrum_graph())
    assert np.min(np.diff(np.sort(F.eigenvalues))) > 1e-8
    B = _pairs(F)                               # ordered: one unknown per eigenvalue
    assert B.G is not None and B.starts is not None and B.starts.size == B.V.shape[1]
    i, j = B.upper()
    products = B.V[i] * B.V[j]
    R = B.rows(i, j)
    # what the runs of one column sum to: each entry itself
    assert np.array_equal(R, np.add.reduceat(products, B.starts, axis=1))
    assert np.array_equal(np.signbit(R), np.signbit(products))
    # built in the buffer given, not copied to a fresh array
    buffer = np.empty((len(i), B.V.shape[1]))
    rows = B.rows(i, j, out=buffer)
    assert np.shares_memory(rows, buffer) and np.array_equal(rows, R)
    assert B.rows(i[:0], j[:0]).shape == (0, B.g)


def test_grouped_rows_of_repeated_eigenvalues_still_sum_their_columns():
    F = fourier_basis(nx.grid_2d_graph(5, 6))   # multiplicities 2 and 3
    B = _pairs(F)
    assert B.starts is not None and B.starts.size < B.V.shape[1]
    i, j = B.upper()
    assert np.array_equal(B.rows(i, j), np.add.reduceat(B.V[i] * B.V[j], B.starts, axis=1))


def _fresh_trimmed_fit(X, kept, k):
    """The concentration steps from the rows ``kept``, each step's rows a fresh array."""
    target = np.ones(X.shape[0])
    y = np.linalg.lstsq(X[kept], target[kept], rcond=None)[0]
    for _ in range(MAX_STEPS - 1):
        res = np.abs(X @ y - 1.0)
        new = np.sort(np.argpartition(res, k - 1)[:k])
        if np.array_equal(new, kept):
            break
        kept = new
        y = np.linalg.lstsq(X[kept], target[kept], rcond=None)[0]
    return float(np.sum((X @ y - 1.0)[kept] ** 2)), y, kept


def _fitted_reference(B, r, keep):
    """``fitted_ranking`` with the kept rows gathered into a fresh array at every step."""
    full = PairGram(B)
    mu, Lam = full.null_directions(r)
    i, j = B.upper()
    X = B.products(i, j, Lam)
    k = max(min(int(keep * len(i)), len(i) - 1), Lam.shape[1])
    leverage = (X * X) @ (1.0 / np.maximum(mu, np.finfo(float).tiny))
    first = _fresh_trimmed_fit(X, np.sort(np.argsort(leverage, kind="stable")[:k]), k)
    second = _fresh_trimmed_fit(X, np.sort(np.argsort((X * X).sum(axis=1), kind="stable")[:k]), k)
    _, y, kept = second if second[0] < (1 - 1e-9) * first[0] - k * 1e-18 else first
    lam = Lam @ y + 1.0
    out = np.ones(len(i), dtype=bool)
    out[kept] = False
    return B.matrix(lam) ** 2, i[out], j[out]


def test_fitted_ranking_gives_the_fresh_gathers_numbers():
    G = nx.gnp_random_graph(40, 0.3, seed=2)
    B = _pairs(_shuffled(fourier_basis(G).eigenvectors, 0))
    for r, keep in ((16, 0.5), (16, 0.7)):
        scores, (gram, I, J) = fitted_ranking(B, r=r, keep=keep)
        ref_scores, ref_I, ref_J = _fitted_reference(B, r, keep)
        assert np.array_equal(scores, ref_scores)
        assert np.array_equal(I, ref_I) and np.array_equal(J, ref_J)
        assert np.array_equal(gram.M, PairGram(B).without(I, J).M)


def test_products_of_many_pairs_are_written_chunk_by_chunk_in_place(monkeypatch):
    """``PairBasis.products`` past ``MAX_ROW_ENTRIES`` row entries (made small here) and
    below ``8 n`` pairs per column: each chunk's product written into the result is the
    chunk's product formed alone, bit for bit."""
    B = _pairs(fourier_basis(_simple_spectrum_graph()).eigenvectors)
    rng = np.random.default_rng(5)
    i, j = B.upper()
    order = rng.permutation(len(i))
    i, j = i[order], j[order]
    Lam = rng.standard_normal((B.g, 3))
    q = B.V.shape[1]
    monkeypatch.setattr(_pair_geometry, "MAX_ROW_ENTRIES", 100 * q)
    assert len(i) * q > 100 * q and len(i) <= 8 * B.n * Lam.shape[1]
    H = B.products(i, j, Lam)
    W = B.columns(Lam)
    chunks = [B.free_rows(i[s : s + 100], j[s : s + 100]) @ W for s in range(0, len(i), 100)]
    want = np.vstack(chunks)
    assert H.tobytes() == want.tobytes()
