"""Grams of pair sets updated from the Gram of a nearby set (``PairGram.changed``): the
sampled ranking's later rounds and the complements of large bases, against the Grams
built directly."""

import networkx as nx
import numpy as np
import pytest

from gsp_householder.graphs import _basis_input, _pair_geometry, _sampled_ranking
from gsp_householder.graphs._pair_geometry import PairGram, complement_gram
from gsp_householder.graphs.fourier import fourier_basis


def _pairs(V):
    basis = _basis_input._read_basis(V, None, None, None, None)
    return _basis_input._anchored_pair_basis(basis)


@pytest.fixture(scope="module", params=["simple", "grouped"])
def basis(request):
    """A Watts-Strogatz graph (one unknown per column) and a 5 x 6 grid (eigenvalues of
    multiplicity 2 and 3: grouped unknowns)."""
    if request.param == "simple":
        F = fourier_basis(nx.connected_watts_strogatz_graph(40, 4, 0.2, seed=3))
    else:
        F = fourier_basis(nx.grid_2d_graph(5, 6))
    return _pairs(F.eigenvectors)


def _close(got: PairGram, want: PairGram, rel=1e-12):
    scale = float(np.abs(want.M).max())
    np.testing.assert_allclose(got.M, want.M, rtol=0, atol=rel * scale)
    np.testing.assert_allclose(got.total, want.total, rtol=0,
                               atol=rel * float(np.abs(want.total).max()))
    assert got.k == want.k
    assert np.array_equal(got.M, got.M.T)                     # exactly symmetric


def test_changed_gram_is_the_gram_of_the_new_set(basis):
    B = basis
    rng = np.random.default_rng(0)
    i, j = B.upper()
    old = rng.random(i.size) < 0.5
    new = old.copy()
    new[rng.choice(i.size, 60, replace=False)] ^= True       # some leave, some enter
    left, entered = old & ~new, new & ~old
    assert left.any() and entered.any()
    start = _sampled_ranking.sample_gram(B, i[old], j[old])
    got = start.changed((i[left], j[left]), (i[entered], j[entered]), chunk=7)
    _close(got, _sampled_ranking.sample_gram(B, i[new], j[new]))
    # the complement form: all pairs but a set, the set changed
    got = PairGram(B).without(i[old], j[old]).changed((i[entered], j[entered]),
                                                      (i[left], j[left]))
    _close(got, PairGram(B).without(i[new], j[new]))
    # nothing changed: the same Gram
    same = start.changed((i[:0], j[:0]), (i[:0], j[:0]))
    assert same.M.tobytes() == start.M.tobytes() and same.k == start.k


def test_next_sample_gram_updates_when_few_pairs_changed(basis, monkeypatch):
    B = basis
    rng = np.random.default_rng(1)
    i, j = B.upper()
    calls = []
    fresh = _sampled_ranking.sample_gram
    monkeypatch.setattr(_sampled_ranking, "sample_gram",
                        lambda *a: calls.append("fresh") or fresh(*a))
    first = rng.random(i.size) < 0.7
    gram = _sampled_ranking.next_sample_gram(B, i, j, first)
    assert calls == ["fresh"]
    second = first & (rng.random(i.size) < 0.7)               # 30 % leave, none enter
    second[np.flatnonzero(~first)[:5]] = True                 # a few enter
    got = _sampled_ranking.next_sample_gram(B, i, j, second, gram, first)
    assert calls == ["fresh"]                                 # updated
    _close(got, fresh(B, i[second], j[second]))
    other = rng.random(i.size) < 0.3                          # most pairs changed
    got = _sampled_ranking.next_sample_gram(B, i, j, other, got, second)
    assert calls == ["fresh", "fresh"]
    assert got.M.tobytes() == fresh(B, i[other], j[other]).M.tobytes()


def test_complement_gram_updates_a_nearby_kept_gram_on_large_bases(basis, monkeypatch):
    B = basis
    B.grams.clear()
    rng = np.random.default_rng(2)
    i, j = B.upper()
    first = rng.choice(i.size, 120, replace=False)
    near = np.union1d(first[10:], rng.choice(i.size, 8, replace=False))
    built = complement_gram(B, i[first], j[first])
    # below NEARBY_GRAM_MIN_N nodes: built from the Gram of all pairs, bit for bit
    small = complement_gram(B, i[near], j[near])
    assert small.M.tobytes() == PairGram(B).without(i[near], j[near]).M.tobytes()
    B.grams.clear()
    monkeypatch.setattr(_pair_geometry, "NEARBY_GRAM_MIN_N", B.n)
    calls = []
    changed = PairGram.changed
    monkeypatch.setattr(PairGram, "changed",
                        lambda self, *a, **k: calls.append(self) or changed(self, *a, **k))
    built = complement_gram(B, i[first], j[first])
    assert calls == []                                        # nothing kept: built
    got = complement_gram(B, j[near], i[near])                # either order of a pair
    assert calls == [built]                                   # from the nearby one
    _close(got, PairGram(B).without(i[near], j[near]))
    assert complement_gram(B, i[near], j[near]) is got        # the same set: kept
    far = rng.choice(i.size, 30, replace=False)
    got = complement_gram(B, i[far], j[far])                  # nothing near: built
    assert len(calls) == 1
    assert got.M.tobytes() == PairGram(B).without(*(np.unique(
        np.stack([i[far], j[far]]), axis=1))).M.tobytes()


def test_rankings_trimmed_grams_are_updated_from_the_last_one(monkeypatch):
    """Two sampled rankings of one large basis (the threshold lowered to 150 nodes): the
    second's Gram of all pairs but its top ones is updated from the first's, and equals
    the Gram built from all pairs to rounding."""
    F = fourier_basis(nx.connected_watts_strogatz_graph(150, 6, 0.1, seed=4))
    B = _pairs(F.eigenvectors)
    monkeypatch.setattr(_pair_geometry, "NEARBY_GRAM_MIN_N", B.n)
    calls = []
    changed = PairGram.changed
    monkeypatch.setattr(PairGram, "changed",
                        lambda self, *a, **k: calls.append(self) or changed(self, *a, **k))
    _, (first, i1, j1) = _sampled_ranking.sampled_leverage_ranking(
        B, np.random.default_rng(0), rounds=1)
    assert first not in calls
    _, (second, i2, j2) = _sampled_ranking.sampled_leverage_ranking(
        B, np.random.default_rng(1), rounds=1, r=16)
    assert calls[-1] is first
    assert len(np.intersect1d(i1 * B.n + j1, i2 * B.n + j2)) < len(i2)   # not the same set
    _close(second, PairGram(B).without(i2, j2), rel=1e-11)
