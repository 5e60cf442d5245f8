"""A graph returned with unequal weights while denser equal-weight graphs fit as well:
warned, those graphs among the candidates (``_equal_weight_fits_warning``)."""

from __future__ import annotations

import importlib
import sys
import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input, shuffled
from test_eigenvalue_extremes import _captured

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs import laplacian_inference
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._eigenvalue_extremes import (
    ExtremeScan,
    extreme_scan,
    sparser_extreme_members,
)
from gsp_householder.graphs._laplacian_fit import _residual
from gsp_householder.graphs._thresholds import FITS_EXACTLY


def _from_benchmarks(module: str, name: str):
    """``name`` of the benchmark script ``module`` (the inputs as the benchmarks build them)."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    try:
        return getattr(importlib.import_module(module), name)
    finally:
        sys.path.pop(0)


MESSAGE = "has unequal weights, and other graphs with equal weights"


def _gp_15_4_pairs():
    # the pairs at distance 2 of GP(15, 4): 30 nodes, 90 edges, 6-regular; the root's
    # eigenvalues +-sqrt(5) merge, so the root itself does not fit
    return nx.convert_node_labels_to_integers(
        _from_benchmarks("bench_distance_two", "pairs_at_distance_two")(
            nx.generalized_petersen_graph(15, 4)
        )
    )


def _torus_5x6():
    return nx.convert_node_labels_to_integers(nx.grid_2d_graph(5, 6, periodic=True))


def _infer(V):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, rng=0)
    return result, [w for w in caught if issubclass(w.category, UserWarning)]


def _weight_levels(L) -> np.ndarray:
    w = -sp.triu(sp.csr_array(L), 1).data
    return np.unique(np.round(w / w.min(), 2))


@pytest.mark.parametrize(
    ("kind", "draw"),
    [("exact", 0), ("perturbed", 0), ("perturbed", 1), ("perturbed", 3)],
)
def test_weighted_answer_to_pairs_at_distance_two_is_warned(kind, draw):
    # the answer is a graph of 75 edges with weights 1 and 2 (the root's 45 edges at 1,
    # six 5-cycles at 2) that fits the eigenvectors as well as the truth: it was
    # returned with no warning; the truth, with equal weights, is read off the
    # constant-diagonal family (and, on some draws, at a vertex of the scan)
    B = fourier_basis(_gp_15_4_pairs())
    V = (
        shuffled(B.eigenvectors, draw)
        if kind == "exact"
        else audit_input(B.eigenvectors, 1e-3, draw)
    )
    result, caught = _infer(V)
    assert result.n_edges == 75
    assert list(_weight_levels(result.laplacian)) == [1.0, 2.0]
    assert result.history["equal_weight_fits_edges"] == [90]
    assert max(compare_graphs(B.laplacian, C)["f1"] for C in result.candidates) == 1.0
    mine = [w for w in caught if MESSAGE in str(w.message)]
    assert len(mine) == 1 and issubclass(mine[0].category, AmbiguousGraphWarning)


def test_scan_keeps_the_equal_weight_vertices_behind_a_weighted_graph(monkeypatch):
    # exact shuffle 0: the truth (90 edges) is the vertex of the first program behind
    # the 75-edge weighted graph; it is no sparser member, so the scan's members are
    # unchanged and it is kept apart, fitting to FITS_EXACTLY with equal weights
    B = fourier_basis(_gp_15_4_pairs())
    B_, basis, found = _captured(monkeypatch, shuffled(B.eigenvectors, 0))[0]
    assert found[0] == 75
    scan = extreme_scan(B_, basis, found)
    assert isinstance(scan, ExtremeScan)
    assert (scan.members, scan.reached) == sparser_extreme_members(B_, basis, found)
    truth = [A for edges, _, _, A in scan.equal_weight_fits if edges == 90]
    assert len(truth) == 1
    A = truth[0]
    assert np.all(sp.triu(A, 1).data == 1.0)
    assert _residual(basis, A) <= FITS_EXACTLY
    L = sp.diags_array(np.asarray(A.sum(axis=1)).ravel()) - A
    assert compare_graphs(B.laplacian, L)["f1"] == 1.0
    for edges, cv, _, _ in scan.equal_weight_fits:
        assert cv == 0.0 and edges > found[0]


def test_scan_keeps_nothing_behind_an_equal_weight_graph():
    # behind the truth itself (90 edges, equal weights) no vertex is kept apart
    B = fourier_basis(_gp_15_4_pairs())
    basis = _read_basis(shuffled(B.eigenvectors, 0), None, False, "combinatorial", None)
    B_ = _anchored_pair_basis(basis)
    W = -sp.csr_array(B.laplacian)
    W.setdiag(0)
    W.eliminate_zeros()
    scan = extreme_scan(B_, basis, (90, 0.0, None, sp.csr_array(W)), 0.0, 9)
    assert scan.equal_weight_fits == []


def test_scan_vertex_alone_is_warned_of(monkeypatch):
    # with no regular graph read off the constant-diagonal family, the truth reached at
    # a vertex of the scan behind the weighted graph is warned of and listed
    monkeypatch.setattr(laplacian_inference, "sampled_regular_member", lambda V, zero: None)
    B = fourier_basis(_gp_15_4_pairs())
    result, caught = _infer(shuffled(B.eigenvectors, 0))
    assert result.n_edges == 75
    assert result.history["equal_weight_fits_edges"] == [90]
    assert max(compare_graphs(B.laplacian, C)["f1"] for C in result.candidates) == 1.0
    assert any(MESSAGE in str(w.message) for w in caught)


def test_regular_member_alone_is_warned_of(monkeypatch):
    # with no vertex kept by the scan, the truth read off the constant-diagonal family
    # (equal weights, fitting to FITS_EXACTLY) is warned of and listed
    original = laplacian_inference.extreme_scan

    def no_fits(B_, basis, found, noise=0.0, family_dimension=0):
        return original(B_, basis, found, noise, family_dimension)._replace(equal_weight_fits=[])

    monkeypatch.setattr(laplacian_inference, "extreme_scan", no_fits)
    B = fourier_basis(_gp_15_4_pairs())
    result, caught = _infer(shuffled(B.eigenvectors, 0))
    assert result.n_edges == 75
    assert result.history["equal_weight_fits_edges"] == [90]
    assert any(MESSAGE in str(w.message) for w in caught)


def test_right_torus_with_weights_unequal_to_the_noise_only_is_not_warned_of_it():
    # the perturbed 5 x 6 torus, draw 3: the truth's edges, weights unequal to the
    # noise level but fitting as well with equal weights; denser equal-weight graphs
    # fit as well too, and are not reported as graphs beside a weighted one
    B = fourier_basis(_torus_5x6())
    rng = np.random.default_rng(3)
    shuffle_columns = _from_benchmarks("bench_inference", "_shuffle")
    perturb = _from_benchmarks("bench_inference", "_perturb")
    V = shuffle_columns(perturb(B.eigenvectors, 1e-3, rng), rng)
    result, caught = _infer(V)
    assert compare_graphs(B.laplacian, result.laplacian)["f1"] == 1.0
    assert "equal_weight_fits_edges" not in result.history
    assert not any(MESSAGE in str(w.message) for w in caught)


def test_right_pairs_at_distance_two_not_warned_of_it():
    # exact shuffle 2 of the same truth is answered right (90 edges, equal weights):
    # no graph beside it is reported by this rule
    B = fourier_basis(_gp_15_4_pairs())
    result, caught = _infer(shuffled(B.eigenvectors, 2))
    assert compare_graphs(B.laplacian, result.laplacian)["f1"] == 1.0
    assert "equal_weight_fits_edges" not in result.history
    assert not any(MESSAGE in str(w.message) for w in caught)
