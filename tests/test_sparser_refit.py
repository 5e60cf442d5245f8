"""Above ``FAMILY_SEARCH_MAX_N`` nodes, a noisy ladder's graph sparser than the one it
takes, which misses edges the eigenvectors show, is compared refitted with them."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from test_missing_edge_refit import _edges, _lognormal_rgg, _without_weakest

import gsp_householder.graphs._ranking_ladder as ladder
from gsp_householder.graphs._laplacian_fit import _laplacian, _residuals
from gsp_householder.graphs._template_lp import weight_cv

#: The noise level the entries are read at (the eigenvectors are perturbed by 1e-3).
LEVEL = 1e-3


def _item(W):
    """The candidate item ``(n_edges, cv, lam, W)`` of the weights ``W`` (``lam`` not
    read here)."""
    upper = sp.triu(W, 1)
    return int(upper.nnz), weight_cv(upper.data), None, W


def _quadratic(basis, truth):
    """The weights of $L - cL^2$ for the truth's Laplacian $L$, $c$ a tenth of the
    inverse of its largest diagonal entry: the truth's edges and the pairs at distance
    two, a denser graph with the truth's eigenvectors."""
    L = _laplacian(truth, basis).toarray()
    Q = L - 0.1 / L.diagonal().max() * L @ L
    W = -np.triu(Q, 1)
    W[W < 1e-12 * W.max()] = 0.0
    return sp.csr_array(W + W.T)


def _entries(basis, B, truth):
    """A noisy ladder's entries: the truth's quadratic and the truth without its three
    heaviest edges."""
    dense = _item(_quadratic(basis, truth))
    lacking = _item(_without_weakest(truth, 3, heaviest=True))
    return [ladder._noisy_entry(basis, [item], 2, LEVEL) for item in (dense, lacking)]


def test_above_the_size_the_sparser_graph_refitted_is_taken(monkeypatch):
    """Above ``FAMILY_SEARCH_MAX_N`` nodes (lowered to the test graph's size) the graph
    lacking edges is replaced by its refit, the truth's edges, which fits as well as the
    quadratic and is sparser: the noisy ladder's choice. Without the refit the graph
    lacking edges does not fit as well as the quadratic, which is taken."""
    basis, B, truth = _lognormal_rgg()
    found = _entries(basis, B, truth)
    assert found[1][1][0][0] < len(_edges(truth)) < found[0][1][0][0]
    assert not ladder._fits_as_well((found[1][0], found[1][3]), (found[0][0], found[0][3]))
    assert ladder._noisy_choice(found) is found[0]
    monkeypatch.setattr(ladder, "FAMILY_SEARCH_MAX_N", B.n - 1)
    history = {}
    refitted = ladder._sparser_refitted(B, basis, found, [LEVEL, LEVEL], history)
    assert refitted[0] is found[0]
    assert _edges(refitted[1][1][0][3]) == _edges(truth)
    assert history["missing_edge_refit"] == (found[1][1][0][0], len(_edges(truth)))
    chosen = ladder._noisy_choice(refitted)
    assert chosen is refitted[1]
    assert _residuals(basis, chosen[1][0][3])[1] < found[1][3]


@pytest.mark.parametrize("size", ["at", "below"])
def test_at_most_the_size_nothing_is_refitted(monkeypatch, size):
    """At most ``FAMILY_SEARCH_MAX_N`` nodes (where the graph returned is refitted after
    the searches) the entries are left as they are."""
    basis, B, truth = _lognormal_rgg()
    found = _entries(basis, B, truth)
    if size == "at":
        monkeypatch.setattr(ladder, "FAMILY_SEARCH_MAX_N", B.n)
    history = {}
    assert ladder._sparser_refitted(B, basis, found, [LEVEL, LEVEL], history) == found
    assert "missing_edge_refit" not in history
