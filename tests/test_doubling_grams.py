"""A prefix search of an order of pairs searched before downdates no Gram again
(``_doubling_grams``)."""

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import shuffled
from _search_counts import counted_search

from gsp_householder.graphs import _basis_input
from gsp_householder.graphs._pair_geometry import PairGram
from gsp_householder.graphs._support_search import PrefixSearch, top_pairs
from gsp_householder.graphs.fourier import fourier_basis


def _basis():
    G = nx.random_labeled_tree(30, seed=1)
    B = _basis_input._anchored_pair_basis(
        _basis_input._read_basis(shuffled(fourier_basis(G).eigenvectors, 0), None, None, None, None)
    )
    return B, G


@pytest.fixture
def upside_down():
    """The exact basis of a tree of 30 nodes and an order of its pairs with non-edges
    only: every size of every search fails, so each search doubles to its last pair."""
    B, G = _basis()
    scores = 1.0 - nx.to_numpy_array(G, nodelist=range(30))
    c_max = B.n_pairs - max(B.g, 2 * B.n) - 1
    return B, top_pairs(B, scores, c_max), scores, c_max


def _search(B, order, noise, start=None):
    """``(fit, sizes evaluated, Gram downdates made)`` of a prefix search."""
    with counted_search() as (sizes, downdates):
        fit = PrefixSearch(B, order, 0.0, noise).run(start)
    return fit, sizes, downdates


def test_the_same_order_at_another_level_downdates_nothing(upside_down):
    B, order, _, _ = upside_down
    fit, sizes, made = _search(B, order, 0.0)
    assert fit is None and len(made) == len(sizes) > 2
    # another noise level: another search (not replayed), on the same Grams
    again, sizes_again, made_again = _search(B, order, 1e-6)
    assert made_again == []
    fresh, _ = _basis()
    reference, sizes_fresh, made_fresh = _search(fresh, order, 1e-6)
    assert len(made_fresh) == len(sizes_fresh)
    assert sizes_again == sizes_fresh
    assert (again is None) == (reference is None)


def test_kept_grams_are_the_downdated_ones_bit_for_bit(upside_down):
    B, order, _, _ = upside_down
    _search(B, order, 0.0)
    (chain,) = B.doubling_grams.values()
    fresh, _ = _basis()
    base, previous = PairGram(fresh), 0
    _, sizes, _ = _search(fresh, order, 1e-6)
    assert len(chain) == len(sizes)
    for gram, c in zip(chain, sizes, strict=True):
        base = base.without(order[0][previous:c], order[1][previous:c])
        previous = c
        assert np.array_equal(gram.M, base.M) and np.array_equal(gram.total, base.total)
        assert gram.k == base.k


def test_another_order_or_start_is_downdated(upside_down):
    B, order, scores, c_max = upside_down
    _search(B, order, 0.0)
    _, sizes, made = _search(B, order, 1e-6, start=2 * B.n)
    assert len(made) == len(sizes) > 1
    other = top_pairs(B, scores + 1e-3 * np.arange(30)[:, None], c_max)
    assert not all(np.array_equal(a, b) for a, b in zip(other, order, strict=True))
    _, sizes, made = _search(B, other, 1e-6)
    assert len(made) == len(sizes) > 1


def test_only_the_last_orders_are_kept(upside_down):
    from gsp_householder.graphs._doubling_grams import MAX_ORDERS

    B, order, _, _ = upside_down
    for start in range(B.n, B.n + MAX_ORDERS + 2):
        _search(B, order, 0.0, start=start)
    assert len(B.doubling_grams) == MAX_ORDERS
    assert [key[2] for key in B.doubling_grams] == list(range(B.n + 2, B.n + MAX_ORDERS + 2))


def test_the_ladders_rankings_searched_again_in_turn_downdate_nothing(upside_down):
    # the refit levels search the ladder's rankings again in the order the ladder did:
    # with fewer orders kept than rankings, each one was dropped just before its turn
    from gsp_householder.graphs._ranking_ladder import RANKINGS

    B, _, scores, c_max = upside_down
    orders = [
        top_pairs(B, scores + 1e-3 * np.random.default_rng(k).random(scores.shape), c_max)
        for k in range(len(RANKINGS))
    ]
    assert len({a.tobytes() + b.tobytes() for a, b in orders}) == len(RANKINGS)
    for order in orders:
        _search(B, order, 0.0)
    for order in orders:
        fit, sizes, made = _search(B, order, 1e-6)
        assert fit is None and len(sizes) > 2 and made == []


def test_a_size_keeping_fewer_pairs_than_it_downdates_sums_them(upside_down, monkeypatch):
    # a search that doubles to its last pair downdates half the pairs to keep the last
    # few: from ``NEARBY_GRAM_MIN_N`` nodes the Gram of the pairs kept is summed instead
    from gsp_householder.graphs import _pair_geometry

    B, order, _, _ = upside_down
    fit, sizes, made = _search(B, order, 0.0)
    assert fit is None and sizes[-1] == len(order[0])
    (reference,) = B.doubling_grams.values()
    monkeypatch.setattr(_pair_geometry, "NEARBY_GRAM_MIN_N", B.n)
    fresh, _ = _basis()
    fit, sizes_fresh, made_fresh = _search(fresh, order, 0.0)
    assert fit is None and sizes_fresh == sizes
    # the last size keeps fewer pairs than lie between it and the size before
    assert B.n_pairs - sizes[-1] < sizes[-1] - sizes[-2]
    assert made_fresh == made[:-1]
    (chain,) = fresh.doubling_grams.values()
    scale = np.abs(B.M).max()
    for gram, kept in zip(chain, reference, strict=True):
        assert gram.k == kept.k
        np.testing.assert_allclose(gram.M, kept.M, rtol=0, atol=1e-12 * scale)
        np.testing.assert_allclose(gram.total, kept.total, rtol=0, atol=1e-12 * scale)


def test_gram_without_downdates_below_the_size_or_when_fewer_pairs_leave(upside_down):
    from gsp_householder.graphs._pair_geometry import gram_without

    B, order, _, _ = upside_down
    i, j = order[0][:-5], order[1][:-5]
    # below ``NEARBY_GRAM_MIN_N`` nodes: the downdate itself, bit for bit
    gram = gram_without(PairGram(B), i, j, (i, j))
    reference = PairGram(B).without(i, j)
    assert np.array_equal(gram.M, reference.M) and gram.k == reference.k
