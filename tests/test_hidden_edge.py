"""An edge that a noisy graph found hides, its weight spread on edges around it."""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled
from test_missing_edge_refit import _edges, _lognormal_geometric

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._edge_test_descent import anchored_fit, edge_test_descent
from gsp_householder.graphs._hidden_edge import hidden_edge_repair, hidden_pairs

#: The edge of ``_lognormal_geometric(80, 0.2, seed=5)`` (weight 0.39 times the mean)
#: that the inference hid before, perturbed by 1e-3 (draws 0 and 1).
HIDDEN = (30, 52)


def _perturbed_rgg():
    """The lognormal random geometric graph of 80 nodes, its eigenvectors perturbed by
    1e-3 and shuffled (draw 0) as ``infer_laplacian`` reads them (the basis record, the
    anchored pair basis built), and the truth's edges."""
    G = _lognormal_geometric(80, 0.2, seed=5)
    basis = _read_basis(
        perturbed(shuffled(fourier_basis(G).eigenvectors, 0), 1e-3, 0), None, None, None, None
    )
    _anchored_pair_basis(basis)
    return basis, set(map(tuple, map(sorted, G.edges)))


def test_the_hidden_edge_lowers_the_fit_most():
    # the truth without the hidden edge, refitted: the edge is the pair whose addition
    # lowers the fit most, and the descent with it added ends at the truth; the repair
    # itself leaves this graph to the descent of the result (the missing-edges test
    # flags the edge, and the truth has an edge more)
    basis, truth = _perturbed_rgg()
    rows, cols = np.array(sorted(truth - {HIDDEN})).T
    W = anchored_fit(basis, rows, cols)
    assert hidden_pairs(basis, *sp.triu(W, 1).nonzero())[0] == HIDDEN
    added = anchored_fit(basis, np.append(rows, HIDDEN[0]), np.append(cols, HIDDEN[1]))
    assert _edges(edge_test_descent(basis, added)) == truth
    assert hidden_edge_repair(basis, W) is None


def test_the_truth_is_not_repaired():
    basis, truth = _perturbed_rgg()
    rows, cols = np.array(sorted(truth)).T
    assert hidden_edge_repair(basis, anchored_fit(basis, rows, cols)) is None


def test_inference_finds_the_edge_that_edges_around_it_hid():
    # before, 323 edges for 315 with no warning: the hidden edge missed, 9 extra edges
    # around it (z-scores 7.5 to 52), residuals 1.7 times the truth's
    G = _lognormal_geometric(80, 0.2, seed=5)
    V = perturbed(shuffled(fourier_basis(G).eigenvectors, 0), 1e-3, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = infer_laplacian(V, rng=0)
    assert compare_graphs(G, result.laplacian)["f1"] == 1.0
    assert result.history["hidden_edges"] == (323, 315)
