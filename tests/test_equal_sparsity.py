"""Another valid graph with no more edges fits exact eigenvectors as well: warned."""

from __future__ import annotations

import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs._basis_input import _read_basis
from gsp_householder.graphs._equal_sparsity import relabelled_circulant, tied_candidates
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian


def _weights(G) -> sp.csr_array:
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(len(G)), format="csr",
                                                 dtype=float))


def _basis(G, seed=0):
    return _read_basis(shuffled(fourier_basis(G).eigenvectors, seed), None, False, None, None)


def _edges(W) -> set:
    upper = sp.triu(W, 1).tocoo()
    return set(zip(upper.row.tolist(), upper.col.tolist(), strict=True))


@pytest.mark.parametrize("n", [5, 7, 20, 30])
def test_a_cycle_relabelled_along_itself_has_its_eigenvectors(n):
    # p -> p + k along the cycle, k coprime to n and not +-1: another cycle of n edges,
    # none of them shared for n >= 5 with k = 2 or 3, valid for any basis of the
    # cycle's two-dimensional eigenspaces
    G = nx.cycle_graph(n)
    basis = _basis(G)
    W = _weights(G)
    A = relabelled_circulant(basis, W)
    assert A is not None
    assert sp.triu(A, 1).nnz == n and not _edges(A) & _edges(W)
    assert nx.is_isomorphic(nx.from_scipy_sparse_array(A), G)
    assert _diagonal_fit(basis["V"], _laplacian(A, basis))[1] < 1e-9


def test_no_relabelled_circulant_without_a_multiplier_or_a_cycle():
    # 6 nodes: only k = 1 and 5 are coprime to 6; a path is not a cycle
    assert relabelled_circulant(_basis(nx.cycle_graph(6)), _weights(nx.cycle_graph(6))) is None
    path = nx.path_graph(20)
    assert relabelled_circulant(_basis(path), _weights(path)) is None


def test_tied_candidates_are_other_edge_sets_with_no_more_edges_that_fit():
    G = nx.cycle_graph(20)
    basis = _basis(G)
    W = _weights(G)
    twin = relabelled_circulant(basis, W)
    denser = _weights(nx.circulant_graph(20, [1, 3]))
    laps = [_laplacian(W, basis), _laplacian(denser, basis), _laplacian(twin, basis),
            _laplacian(W, basis)]
    assert tied_candidates(basis, laps) == [2]


@pytest.mark.parametrize(("G", "seed"), [
    (nx.cycle_graph(60), 0), (nx.cycle_graph(97), 1),
    (nx.circulant_graph(30, [1, 4]), 1), (nx.LCF_graph(16, [5, -5], 8), 0)])
def test_exact_symmetric_graphs_are_right_or_warned_of_an_equally_sparse_graph(G, seed):
    # exact shuffled eigenvectors of a cycle or a circulant never tell it from its
    # relabellings p -> k p (isomorphic copies with the same eigenspaces: circulant(30,
    # [1, 4]), shuffle 1, gave one with F1 0.0 and no twin among the candidates); the
    # Moebius-Kantor graph's isomorphic twins (``nx.cycle_graph(150)`` gave a copy with
    # F1 0.0, no warning): the graph returned is the truth or the result warns that
    # another as sparse fits as well, and lists it
    B = fourier_basis(G)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(shuffled(B.eigenvectors, seed), rng=0)
    ambiguous = [w for w in caught if issubclass(w.category, AmbiguousGraphWarning)]
    f1 = compare_graphs(B.laplacian, res.laplacian)["f1"]
    if nx.is_isomorphic(G, nx.cycle_graph(len(G))):
        # a cycle: never identifiable, always warned
        assert ambiguous and res.n_edges == len(G)
    assert f1 == 1.0 or ambiguous
    if ambiguous and "equally_sparse_edges" in res.history:
        assert min(res.history["equally_sparse_edges"]) <= res.n_edges
        V = shuffled(B.eigenvectors, seed)
        ties = [L for L in res.candidates if sp.triu(L, 1).nnz <= res.n_edges]
        # the graph returned and at least one other as sparse fit to rounding
        assert sum(_diagonal_fit(V, L)[1] < 1e-9 for L in ties) >= 2


def test_a_graph_determined_by_its_eigenvectors_stays_quiet():
    # a weighted graph with a simple spectrum: one valid sparsest graph, no warning
    rng = np.random.default_rng(3)
    G = nx.random_regular_graph(3, 40, seed=1)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.uniform(1.0, 3.0))
    B = fourier_basis(G)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = infer_laplacian(shuffled(B.eigenvectors, 0), rng=0)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert "equally_sparse_edges" not in res.history


@pytest.mark.parametrize("draw", [0, 2])
def test_a_graph_read_off_the_noisy_regular_family_is_compared_with_its_ties(draw,
                                                                          monkeypatch):
    # circulant(13, [1, 5]) perturbed by 1e-3: its eigenspaces have dimension 4, no group
    # is read, and the answer comes off the constant-diagonal family (which gives no
    # noise level): a relabelling by a multiplier of the group, F1 0, returned with the
    # truth among the candidates and no warning. At the level its non-edges show, the
    # truth fits as well: warned, and the truth is one of the graphs as sparse listed
    from test_abelian_twins import _bench_perturbed

    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "benchmarks"))
    G = nx.circulant_graph(13, [1, 5])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(_bench_perturbed(G, draw), rng=0)
    assert res.history.get("constant_diagonal_graph")
    assert any(issubclass(w.category, AmbiguousGraphWarning) for w in caught)
    truth = _edges(_weights(G))
    listed = [_edges(sp.csr_array(-sp.triu(L, 1))) for L in res.candidates]
    assert truth in listed
    assert min(res.history["equally_sparse_edges"]) <= res.n_edges
