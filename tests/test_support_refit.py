"""Exact eigenvectors of a comet (a star on a path): the exact searches' tree fitted again
on its own edges fits them to rounding (``_support_refit``), and an answer far denser
than the misfit it replaced is warned of (``_misfit_doubt``)."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs import _basis_input
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian
from gsp_householder.graphs._misfit_doubt import misfit_agreement, replaced_misfit_warning
from gsp_householder.graphs._pair_geometry import complement_gram
from gsp_householder.graphs._support_refit import refitted_on_support
from gsp_householder.graphs._thresholds import ROUNDING_FIT


def _comet(n, k):
    """PyGSP's ``Comet(n, k)``: node 0 joined to nodes 1 to ``k``, and a path from node
    ``k`` to node ``n - 1``."""
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from((0, leaf) for leaf in range(1, k + 1))
    G.add_edges_from((a, a + 1) for a in range(k, n - 1))
    return G


def test_comet_tree_is_not_replaced_by_a_denser_member():
    # the exact searches' tree fitted its weights to 3e-7 only (residual 9.6e-9, above
    # ROUNDING_FIT) and a member of 767 edges fitting to 4e-14 replaced it: F1 0.219,
    # no warning, before
    G = _comet(100, 20)
    B = fourier_basis(G)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = infer_laplacian(graph_bench_input(G, 0, perturbed=False), rng=0)
    assert compare_graphs(B.laplacian, result)["f1"] == 1.0
    assert result.residual <= ROUNDING_FIT
    assert "misfit_replaced" not in result.history
    edges, before, refitted, after = result.history["support_refit"]
    assert edges == refitted == result.n_edges
    assert after <= ROUNDING_FIT < before


def test_comet_member_far_denser_than_the_misfit_it_replaced_is_warned():
    # the exact searches gave 102 edges at a residual of 9.4e-6, not a graph of the
    # eigenvectors even refitted on its edges, replaced by a member of 212 edges (F1
    # 0.125 with the tree of 59 edges) that fits to rounding, quietly before
    G = _comet(60, 15)
    with pytest.warns(AmbiguousGraphWarning, match="sparser member"):
        result = infer_laplacian(graph_bench_input(G, 0, perturbed=False), rng=0)
    edges, agreement = result.history["misfit_doubt"]
    assert edges < result.n_edges
    assert agreement == misfit_agreement(edges, result.n_edges) < 0.95


def _shifted_tree(G, shift):
    """The pair basis of ``G``'s exact eigenvectors (shuffled), the basis read, and the
    candidate of ``G``'s edges whose eigenvalues are the null direction of its
    non-edges' Gram moved by ``shift`` along the next direction (the nearly free
    direction a star's leaves leave)."""
    basis = _basis_input._read_basis(
        graph_bench_input(G, 0, perturbed=False), None, None, None, None
    )
    B = _basis_input._anchored_pair_basis(basis)
    row, col = np.array(G.edges).T
    _, Lam = complement_gram(B, row, col).null_directions()
    lam = Lam[:, 0] + shift * np.linalg.norm(Lam[:, 0]) * Lam[:, 1] / np.linalg.norm(Lam[:, 1])
    lam *= B.n / float(B.mult @ lam)
    W = sp.csr_array(
        np.where(nx.to_numpy_array(G) > 0, -B.matrix(lam), 0.0) * np.outer(B.u**2, B.u**2)
    )
    upper = sp.triu(W, 1).data
    return B, basis, (upper.size, float(np.std(upper) / np.mean(upper)), lam, W)


def test_refit_on_support_fits_a_tree_off_along_a_nearly_free_direction():
    G = _comet(40, 10)
    B, basis, item = _shifted_tree(G, 1e-6)
    assert _diagonal_fit(basis["V"], _laplacian(item[3], basis))[1] > ROUNDING_FIT
    (edges, cv, _, W), residual = refitted_on_support(B, basis, item)
    assert edges == G.number_of_edges()
    assert residual <= ROUNDING_FIT
    assert cv < 1e-9  # the comet's unit weights
    assert (sp.triu(W, 1) != 0).sum() == edges


def test_refit_on_support_drops_edges_the_eigenvectors_leave_at_zero():
    # the tree's edges and two pairs more: the refit is the tree
    G = _comet(40, 10)
    B, basis, item = _shifted_tree(G, 1e-6)
    W = item[3].tolil()
    for a, b in ((1, 2), (30, 35)):
        W[a, b] = W[b, a] = 1e-3 * W[0, 1]
    (edges, _, _, W2), residual = refitted_on_support(
        B, basis, (item[0] + 2, 0.0, item[2], sp.csr_array(W))
    )
    assert edges == G.number_of_edges()
    assert residual <= ROUNDING_FIT
    assert W2[1, 2] == 0 and W2[30, 35] == 0


def test_refit_on_support_of_a_complete_graph_is_none():
    # the exact searches' graph on a perturbed 9-cycle may be complete (no non-edge:
    # the non-edges' Gram is empty, its null vector not determined)
    B, basis, item = _shifted_tree(nx.cycle_graph(9), 0.0)
    K = nx.complete_graph(9)
    W = sp.csr_array(nx.to_numpy_array(K))
    assert B.n_pairs == K.number_of_edges()
    assert refitted_on_support(B, basis, (K.number_of_edges(), 0.0, item[2], W)) is None


@pytest.mark.parametrize(
    ("misfit", "edges", "warned"), [(149, 767, True), (1268, 1276, False), (800, 767, False)]
)
def test_replaced_misfit_warning(misfit, edges, warned):
    history = {"misfit_replaced": (misfit, 1e-6)}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        replaced_misfit_warning(edges, history)
    assert bool(caught) == warned
    assert ("misfit_doubt" in history) == warned
    assert not caught or caught[0].category is AmbiguousGraphWarning


def test_replaced_misfit_warning_without_a_misfit():
    history = {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        replaced_misfit_warning(99, history)
    assert history == {}
