"""Exact prefix searches of large bases stop before the whole ranking (``_whole_ranking``)."""

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import shuffled

from gsp_householder.graphs import _basis_input, _thresholds, _whole_ranking
from gsp_householder.graphs._support_search import PrefixSearch, evaluation_hook
from gsp_householder.graphs.fourier import fourier_basis

TREE = nx.random_labeled_tree(30, seed=1)


def _basis():
    """A fresh exact pair basis of the 30-node tree (fresh: failed searches are kept with
    the basis and replayed)."""
    return _basis_input._anchored_pair_basis(
        _basis_input._read_basis(
            shuffled(fourier_basis(TREE).eigenvectors, 0), None, None, None, None
        )
    )


def _order(B, late_edge):
    """The tree's pairs ordered for a search, the whole ranking (``c_max`` pairs) first:
    the edges, then non-edges; with ``late_edge`` one edge is moved to the last place of
    the whole ranking, so that every size of the doubling below the whole ranking
    leaves it among the pairs to fit (no fit), and the whole ranking leaves only
    non-edges (the tree fits them)."""
    n = B.n
    c_max = B.n_pairs - max(B.g, 2 * n) - 1
    A = nx.to_numpy_array(TREE, nodelist=range(n))
    i, j = B.upper()
    edge = A[i, j] > 0
    ei, ej, ni, nj = i[edge], j[edge], i[~edge], j[~edge]
    if late_edge:
        k = c_max - ei.size
        order = (np.concatenate([ei[1:], ni[:k], ei[:1]]), np.concatenate([ej[1:], nj[:k], ej[:1]]))
    else:
        # non-edges first: no size fits, the whole ranking included
        order = (np.concatenate([ni, ei])[:c_max], np.concatenate([nj, ej])[:c_max])
    return order, c_max


def _run(late_edge, noise=0.0):
    B = _basis()
    order, c_max = _order(B, late_edge)
    sizes = []
    token = evaluation_hook.set(sizes.append)
    try:
        fit = PrefixSearch(B, order, 0.0, noise).run()
    finally:
        evaluation_hook.reset(token)
    return fit, sizes, c_max


def test_small_bases_evaluate_the_whole_ranking():
    # at most MIN_N nodes: the doubling ends at the whole ranking, which fits here
    fit, sizes, c_max = _run(late_edge=True)
    doubling = sizes[: sizes.index(c_max)]
    assert len(doubling) > 2 and max(doubling) < c_max <= 2 * doubling[-1]
    # found there (then bisected: no smaller size fits)
    assert fit is not None and fit.c == c_max
    fit, sizes, c_max = _run(late_edge=False)
    assert fit is None and sizes[-1] == c_max


def test_exact_searches_above_min_n_stop_before_it(monkeypatch):
    monkeypatch.setattr(_whole_ranking, "MIN_N", 20)
    for late_edge in (True, False):
        fit, sizes, c_max = _run(late_edge)
        # the same sizes up to the last doubling, then nothing
        assert fit is None and len(sizes) > 2 and max(sizes) < c_max
        assert sizes == sorted(sizes) and 2 * sizes[-1] >= c_max


def test_noisy_searches_evaluate_it(monkeypatch):
    monkeypatch.setattr(_whole_ranking, "MIN_N", 20)
    _, sizes, c_max = _run(late_edge=False, noise=1e-6)
    assert c_max in sizes


@pytest.mark.parametrize(
    "n, noise, c, c_max, expected",
    [
        (1000, 0.0, 560640, 496502, True),
        (1000, None, 496502, 496502, True),
        (1000, 0.0, 280320, 496502, False),
        (1000, 1e-11, 560640, 496502, False),
        (500, 0.0, 160000, 123749, False),
        (501, 0.0, 160000, 124248, True),
    ],
)
def test_rule(n, noise, c, c_max, expected):
    assert _whole_ranking.stops_before_whole(n, noise, c, c_max) is expected


def test_min_n_is_the_ladders_size():
    assert _whole_ranking.MIN_N == _thresholds.LADDER_MAX_N
