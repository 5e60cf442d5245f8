"""A prefix search does not evaluate again a refit that found nothing
(``_support_search.PrefixSearch._refit``)."""

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import perturbed, shuffled
from _search_counts import counted_search

from gsp_householder.graphs import _basis_input
from gsp_householder.graphs import _support_search as support_search
from gsp_householder.graphs._support_search import PrefixSearch, top_pairs
from gsp_householder.graphs.fourier import fourier_basis

#: A noise level below the perturbation: every refit of the tree's search finds nothing.
NOISE = 1e-5


def _search(B, order):
    return PrefixSearch(B, order, 0.0, NOISE, refit=True)


@pytest.fixture
def tree_refit(monkeypatch):
    """A noisy search of a 30-node tree (perturbed by 1e-3, ranked by its own
    Laplacian) whose refit finds nothing, the arguments of that refit, and the basis and
    order to make the same search again."""
    G = nx.random_labeled_tree(30, seed=1)
    V = shuffled(perturbed(fourier_basis(G).eigenvectors, 1e-3, 2), 3)
    B = _basis_input._anchored_pair_basis(_basis_input._read_basis(V, None, None, None, None))
    L = nx.laplacian_matrix(G, nodelist=range(30)).toarray().astype(float)
    order = top_pairs(B, L**2, B.n_pairs - max(B.g, 2 * B.n) - 1)
    calls = []
    original = PrefixSearch._refit

    def recorded(self, c, lam0, tol):
        calls.append((c, lam0.copy(), tol.copy()))
        return original(self, c, lam0, tol)

    monkeypatch.setattr(PrefixSearch, "_refit", recorded)
    search = _search(B, order)
    assert search.run(None) is None
    monkeypatch.setattr(PrefixSearch, "_refit", original)
    assert len(calls) == 1
    return search, calls[0], B, order


def _refit(search, args, chained=True):
    """``(result, sizes the progress hook got, Grams built)`` of ``search._refit``, with
    the chain answers of the search's sizes (``PrefixSearch.run``) unless not
    ``chained``."""
    chain = support_search.CHAIN_ANSWERS.set(chained)
    try:
        with counted_search() as (sizes, made):
            result = search._refit(*args)
        return result, sizes, made
    finally:
        support_search.CHAIN_ANSWERS.reset(chain)


def test_a_refit_that_found_nothing_is_counted_not_evaluated_again(tree_refit):
    search, args, B, order = tree_refit
    before = search.n_evaluations
    again, sizes, made = _refit(search, args)
    assert again is None and made == []
    assert search.n_evaluations == before + 1
    # the same counts and progress as the refit made by a search that never made it
    fresh = _search(B, order)
    reference, fresh_sizes, fresh_made = _refit(fresh, args)
    assert reference is None and len(fresh_made) == 1
    assert fresh.n_evaluations == 1 and sizes == fresh_sizes == [fresh_made[0]]


def test_the_refit_of_other_edges_is_evaluated(tree_refit):
    search, (c, lam0, tol), _, _ = tree_refit
    # the same direction read on a shorter prefix: other edge-like pairs
    shorter = c - 1
    while True:
        edge = search.B.products(search.i[:shorter], search.j[:shorter], lam0[:, None])
        mask = edge[:, 0] < -2.0 * (tol[search.i[:shorter]] + tol[search.j[:shorter]])
        if (
            0
            < np.count_nonzero(mask)
            < np.count_nonzero(
                search.B.products(search.i[:c], search.j[:c], lam0[:, None])[:, 0]
                < -2.0 * (tol[search.i[:c]] + tol[search.j[:c]])
            )
        ):
            break
        shorter -= 1
    _, _, made = _refit(search, (shorter, lam0, tol))
    assert len(made) == 1


def test_a_refit_is_keyed_by_the_chain_answers(tree_refit):
    search, args, _, _ = tree_refit
    _, _, made = _refit(search, args, chained=False)
    assert len(made) == 1
