"""A spanning tree with fitted weights read from the cone of valid eigenvalue vectors."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import _ranking_ladder
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian
from gsp_householder.graphs._weighted_tree import (
    _symmetric,
    accepted,
    early_weighted_tree,
    fitted_weights,
    reweighted_tree,
)


def _broom(handle: int, bristles: int, seed: int) -> nx.Graph:
    """A path of ``handle`` nodes whose last node carries ``bristles`` leaves, integer
    weights uniform on {1, ..., 5} (as the seventh audit's broom)."""
    G = nx.path_graph(handle)
    G.add_edges_from((handle - 1, handle + k) for k in range(bristles))
    rng = np.random.default_rng(700 + seed)
    H = nx.Graph()
    H.add_nodes_from(G)
    H.add_weighted_edges_from((u, v, float(rng.integers(1, 6))) for u, v in G.edges)
    return H


def _basis(V):
    return {"kind": "combinatorial", "ordered": False, "V": V, "scale": None}


def _weights(G) -> sp.csr_array:
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(len(G)), dtype=float))


@pytest.fixture(scope="module")
def broom():
    """The seventh audit's broom (20, 60) with integer weights, perturbed by 1e-3 (draw
    0), and the truth's residual: the rankings' smallest estimate is 2.9e-4 there, the
    truth leaves 3.3 times it."""
    G = _broom(20, 60, 505)
    V = audit_input(fourier_basis(G).eigenvectors, 1e-3, 0)
    truth = _diagonal_fit(V, _laplacian(_weights(G), _basis(V)))[1]
    return G, V, truth / 3.0


def _edges(W):
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    return set(zip(upper.row.tolist(), upper.col.tolist(), strict=True))


def test_fitted_weights_of_exact_eigenvectors_are_the_tree_s():
    G = _broom(4, 6, 1)
    V = fourier_basis(G).eigenvectors
    upper = sp.triu(_weights(G), 1).tocoo()
    w = fitted_weights(V, upper.row, upper.col)
    np.testing.assert_allclose(w, upper.data * (w.size / upper.data.sum()), atol=1e-9)


def test_the_broom_is_read_and_accepted(broom):
    G, V, level = broom
    W = reweighted_tree(V, _basis(V), level)
    assert W is not None
    assert _edges(W) == _edges(_weights(G))
    truth = _weights(G).toarray()
    ratio = W.toarray()[truth > 0] / truth[truth > 0]
    assert np.ptp(ratio) < 0.05 * ratio.mean()


def test_a_tree_with_a_leaf_moved_or_a_level_too_small_is_not_accepted(broom):
    G, V, level = broom
    basis = _basis(V)
    upper = sp.triu(_weights(G), 1).tocoo()
    rows, cols = upper.row.copy(), upper.col.copy()
    w = fitted_weights(V, rows, cols)
    assert accepted(V, rows, cols, w, _symmetric(rows, cols, w, len(G)), basis, level)
    assert not accepted(V, rows, cols, w, _symmetric(rows, cols, w, len(G)), basis, level / 10)
    leaf = int(np.nonzero(cols == 79)[0][0])
    rows[leaf] = 0  # leaf 79 moved from the hub to the handle's end
    w = fitted_weights(V, rows, cols)
    assert not accepted(V, rows, cols, w, _symmetric(rows, cols, w, len(G)), basis, level)


@pytest.mark.parametrize(
    "G",
    [
        nx.grid_2d_graph(6, 7),
        nx.cycle_graph(30),
        nx.karate_club_graph(),
    ],
    ids=["grid", "cycle", "karate"],
)
def test_no_tree_on_graphs_with_cycles(G):
    G = nx.convert_node_labels_to_integers(G)
    V = audit_input(fourier_basis(G).eigenvectors, 1e-3, 0)
    truth = _diagonal_fit(V, _laplacian(_weights(G), _basis(V)))[1]
    assert reweighted_tree(V, _basis(V), truth) is None


def test_the_perturbed_broom_is_answered_by_the_weighted_tree(broom):
    G, V, _ = broom
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = infer_laplacian(V, rng=0)
    assert compare_graphs(fourier_basis(G).laplacian, result.laplacian)["f1"] == 1.0
    assert "weighted_tree" in result.history
    assert result.history["weighted_tree"] <= 5.0


def test_no_tree_is_read_for_a_caller_that_keeps_only_regular_graphs(broom, monkeypatch):
    # the rule asked on the broom's inference reads its tree; asked the same question on
    # the same basis for a caller that keeps only a regular graph (``_regular_reading``),
    # it reads nothing: a spanning tree of more than two nodes is not regular
    _, V, _ = broom
    asked = []
    rule = _ranking_ladder.early_weighted_tree

    def spy(B, basis, history, keys, ranking):
        asked.append((B, basis, dict(history), keys, ranking))
        return rule(B, basis, history, keys, ranking)

    monkeypatch.setattr(_ranking_ladder, "early_weighted_tree", spy)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        infer_laplacian(V, rng=0)
    B, basis, history, keys, ranking = asked[0]
    assert early_weighted_tree(B, basis, dict(history), keys, ranking) is not None
    regular_only = {**basis, "regular_only": True}
    assert early_weighted_tree(B, regular_only, dict(history), keys, ranking) is None
