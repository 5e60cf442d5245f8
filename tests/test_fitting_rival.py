"""A sparser equal-weight graph of the noisy ladder that fits, though not as well."""

from __future__ import annotations

from types import SimpleNamespace

import networkx as nx
import pytest
import scipy.sparse as sp

from gsp_householder.graphs._candidate_search import _edge_key
from gsp_householder.graphs._ranking_ladder import _record_equal_rival
from gsp_householder.graphs._sparser_rival import record_fitting_rival
from gsp_householder.graphs.laplacian_inference import _fitting_rival

#: The pairs of a basis of 1000 nodes.
PAIRS = 1000 * 999 // 2


def _item(edges, graph):
    """A candidate item ``(n_edges, cv, lam, W)`` whose weights ``W`` are ``graph``'s."""
    return edges, 0.0, None, sp.csr_array(nx.to_scipy_sparse_array(graph))


def _entry(edges, residual, rotation, equal, graph):
    """A noisy ladder entry ``(residual, ranked, dim, rotation, reordered, equal)``."""
    return residual, [_item(edges, graph)], 31, rotation, False, equal


# PyGSP Sensor(1000, seed=5) perturbed by 1e-3, draw 0 of bench_inference.py: the noisy
# ladder chose a quadratic of the truth (9375 edges, residuals 3.20e-4 and 3.52e-5) beside
# 3545 of the true edges with equal weights to the noise level (9.82e-4 and 7.94e-5)
DENSE = (3.20e-4, 3.52e-5)
SPARSE = (9.82e-4, 7.94e-5)


def test_sparser_equal_weight_graph_that_fits_not_as_well_is_a_fitting_rival():
    chosen = _entry(9375, *DENSE, False, nx.complete_graph(5))
    sparse = _entry(3545, *SPARSE, True, nx.path_graph(5))
    history = {}
    _record_equal_rival(history, chosen, [chosen, sparse], SimpleNamespace(n_pairs=PAIRS))
    # not as well: no sparser rival, a fitting one (rotation 2.24 times per free pair)
    assert "sparser_rival" not in history
    key, W, ratio = history["fitting_rival"]
    assert key == _edge_key(chosen[1][0][3]) and _edge_key(W) == _edge_key(sparse[1][0][3])
    assert ratio == pytest.approx(2.24, abs=0.01)


@pytest.mark.parametrize(
    ("rival_fit", "sparser", "fitting"),
    [
        (SPARSE, False, True),
        # within the slacks: a sparser rival, not a fitting one
        ((5.0e-4, 4.0e-5), True, False),
        # a rotation residual beyond RESIDUAL_CONSISTENT times: it does not fit
        ((9.82e-4, 1.9e-4), False, False),
    ],
)
def test_fitting_rival_between_the_slacks_and_the_consistent_level(rival_fit, sparser, fitting):
    found, rival = _item(9375, nx.complete_graph(5)), _item(3545, nx.path_graph(5))
    history = {}
    _record_equal_rival(
        history,
        (*DENSE[:1], [found], 31, DENSE[1], False, False),
        [(*rival_fit[:1], [rival], 40, rival_fit[1], False, True)],
        SimpleNamespace(n_pairs=PAIRS),
    )
    assert ("sparser_rival" in history) is sparser
    assert ("fitting_rival" in history) is fitting


def test_fitting_rival_never_denser():
    history = {}
    record_fitting_rival(
        history,
        _item(3545, nx.path_graph(5)),
        _item(9375, nx.complete_graph(5)),
        DENSE,
        SPARSE,
        PAIRS,
    )
    assert "fitting_rival" not in history


def test_result_lists_a_fitting_rival_that_disagrees():
    # the quadratic of a cycle (its pairs at distance 1 and 2) beside the cycle: F1 2/3
    cycle = sp.csr_array(nx.to_scipy_sparse_array(nx.cycle_graph(12)))
    square = sp.csr_array(nx.to_scipy_sparse_array(nx.circulant_graph(12, [1, 2])))
    best = (int(sp.triu(square, 1).nnz), 0.0, None, square)
    history = {"fitting_rival": (_edge_key(square), cycle, 2.24)}
    W = _fitting_rival(history, best, _edge_key(square))
    assert W is cycle and "fitting_rival" not in history
    assert history["fitting_rival_agreement"] == pytest.approx(2 * 12 / 36)
    assert history["fitting_rival_ratio"] == 2.24
    # recorded against another graph, or agreeing within EDGE_AGREEMENT: no rival
    history = {"fitting_rival": (_edge_key(cycle), cycle, 2.24)}
    assert _fitting_rival(history, best, _edge_key(square)) is None
    near = sp.csr_array(square.copy())
    near[0, 2] = near[2, 0] = 0.0
    near.eliminate_zeros()
    history = {"fitting_rival": (_edge_key(square), near, 1.5)}
    assert _fitting_rival(history, best, _edge_key(square)) is None
    assert "fitting_rival_agreement" not in history
