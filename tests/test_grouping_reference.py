"""The grouped search groups the columns by the first graph found that fits them."""

import networkx as nx
import numpy as np
import scipy.sparse as sp
from _basis_inputs import perturbed, rotated, shuffled

from gsp_householder.graphs._eigenspace_search import _eigenspace_groups, _fitting_reference
from gsp_householder.graphs._laplacian_fit import _residuals
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT
from gsp_householder.graphs.fourier import fourier_basis


def _basis(V) -> dict:
    return {
        "V": V,
        "V_anchored": V,
        "kind": "combinatorial",
        "ordered": False,
        "scale": None,
        "zero_column": int(np.argmin(np.std(V, axis=0))),
    }


def _entry(W) -> tuple:
    weights = sp.triu(W, 1).data
    return (int(weights.size), float(weights.std() / weights.mean()), None, W)


def _caveman_45():
    # rotated in its eigenspace of multiplicity 8 and perturbed by 1e-3 (the tests' draw 12)
    G = nx.connected_caveman_graph(4, 5)
    B = fourier_basis(G)
    V = shuffled(perturbed(rotated(B, np.random.default_rng(12)), 1e-3, 12), 12)
    W = sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=sorted(G), dtype=float))
    return _basis(V), W


def _unequal(W, seed):
    # the truth's edges with weights spread by a factor up to 3: a member of the
    # constant-diagonal family's kind that does not share the eigenvectors
    U = sp.triu(W, 1).tocoo()
    w = np.random.default_rng(seed).uniform(1.0, 3.0, U.nnz)
    T = sp.coo_array((w, (U.row, U.col)), shape=W.shape)
    return sp.csr_array(T + T.T)


def test_a_first_graph_that_does_not_fit_is_not_the_reference():
    basis, W = _caveman_45()
    bad = _unequal(W, 0)
    truth_fit, bad_fit = _residuals(basis, W), _residuals(basis, bad)
    assert bad_fit[1] > RESIDUAL_CONSISTENT * truth_fit[1]  # it does not fit
    found, fit = _fitting_reference(basis, [_entry(bad), _entry(W)])
    assert found[3] is W and fit == truth_fit
    # the graph that does not fit groups no columns; the one that fits groups them into
    # the truth's eigenspaces (one of multiplicity 8)
    assert _eigenspace_groups(basis, bad) is None
    assert max(len(g) for g in _eigenspace_groups(basis, W)) == 8


def test_a_first_graph_that_fits_is_the_reference():
    basis, W = _caveman_45()
    bad = _unequal(W, 1)
    found, fit = _fitting_reference(basis, [_entry(W), _entry(bad)])
    assert found[3] is W and fit == _residuals(basis, W)
    # alone, the first graph is the reference whatever its fit
    found, fit = _fitting_reference(basis, [_entry(bad)])
    assert found[3] is bad and fit == _residuals(basis, bad)
