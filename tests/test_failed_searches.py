"""Prefix searches that found nothing are replayed, not made again (``_failed_searches``)."""

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import shuffled

from gsp_householder.graphs import _basis_input, _thresholds
from gsp_householder.graphs._failed_searches import MAX_N, search_key
from gsp_householder.graphs._support_search import PrefixSearch, evaluation_hook, top_pairs
from gsp_householder.graphs.fourier import fourier_basis


@pytest.fixture
def upside_down():
    """The exact basis of a tree of 30 nodes and an order of its pairs with non-edges
    only (374 of the 406): every prefix leaves the 29 edges and at least 32 non-edges to
    fit, more rows than the 29 unknowns, which no direction fits, on any kernel (the
    true eigenvalues give the edges' rows their weights, not zero)."""
    G = nx.random_labeled_tree(30, seed=1)
    B = _basis_input._anchored_pair_basis(_basis_input._read_basis(
        shuffled(fourier_basis(G).eigenvectors, 0), None, None, None, None))
    scores = 1.0 - nx.to_numpy_array(G, nodelist=range(30))
    c_max = B.n_pairs - max(B.g, 2 * B.n) - 1
    return B, top_pairs(B, scores, c_max)


def _search(B, order, sizes, noise=0.0):
    search = PrefixSearch(B, order, 0.0, noise)
    token = evaluation_hook.set(sizes.append)
    try:
        return search.run(), search.n_evaluations
    finally:
        evaluation_hook.reset(token)


def test_a_failed_search_is_replayed_with_its_counts(upside_down, monkeypatch):
    B, order = upside_down
    first, second = [], []
    fit, count = _search(B, order, first)
    assert fit is None and count == len(first) > 1
    assert len(B.failed_searches) == 1

    def never(self, c, gram):
        raise AssertionError("a failed search was made again")

    monkeypatch.setattr(PrefixSearch, "evaluate", never)
    fit, again = _search(B, (order[0].copy(), order[1].copy()), second)
    assert fit is None and again == count and second == first


def test_a_search_that_differs_is_made(upside_down):
    B, order = upside_down
    _search(B, order, [])
    made = []
    # another noise level, another order: searched, and remembered apart
    _search(B, order, made, noise=1e-6)
    _search(B, (order[0][::-1].copy(), order[1][::-1].copy()), made)
    assert len(made) > 2 and len(B.failed_searches) == 3
    keys = {search_key(PrefixSearch(B, order, 0.0, noise), None, True) for noise in (0.0, 1e-6)}
    assert len(keys) == 2


def test_found_graphs_are_not_remembered():
    G = nx.random_labeled_tree(30, seed=1)
    B = _basis_input._anchored_pair_basis(_basis_input._read_basis(
        shuffled(fourier_basis(G).eigenvectors, 0), None, None, None, None))
    scores = nx.to_numpy_array(G, nodelist=range(30)) + 1e-3 * np.eye(30)
    fit, _ = _search(B, top_pairs(B, scores, B.n_pairs - max(B.g, 2 * B.n) - 1), [])
    assert fit is not None and not B.failed_searches


def test_kept_up_to_the_ladders_size():
    assert MAX_N == _thresholds.LADDER_MAX_N
