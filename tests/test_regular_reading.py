"""A normalized basis of a regular graph read as a combinatorial one
(``_regular_reading``): the sparser regular graph behind a weighted member."""

from __future__ import annotations

import warnings

import networkx as nx
import pytest
import scipy.sparse as sp

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._regular_reading import constant_zero_vector
from tests._basis_inputs import anchored, audit_input


def _cubic():
    # the harness's labels (``bench_inference_sweep._relabel``): the basis's row order
    return nx.convert_node_labels_to_integers(nx.random_regular_graph(3, 40, seed=90))


def _normalized_inference(G, draw):
    V = audit_input(fourier_basis(G, "normalized").eigenvectors, 1e-3, draw)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0, laplacian="normalized")
    return res, caught


def test_constant_zero_vector_tells_regular_bases_from_irregular_ones():
    regular = audit_input(fourier_basis(_cubic(), "normalized").eigenvectors, 3e-3, 0)
    assert constant_zero_vector(anchored(regular)[2])
    for G in (nx.grid_2d_graph(5, 6), nx.gnp_random_graph(40, 0.3, seed=92)):
        G = nx.convert_node_labels_to_integers(G)
        V = audit_input(fourier_basis(G, "normalized").eigenvectors, 1e-3, 0)
        assert not constant_zero_vector(anchored(V)[2])


@pytest.mark.parametrize("complement", [False, True])
def test_weighted_member_of_a_regular_normalized_basis_gives_the_regular_graph(complement):
    # draw 0: the normalized searches end at the weighted graph of the cubic graph's
    # 2-walks (118 edges, no warning, no flag); the combinatorial reading of the same
    # eigenvectors gives the cubic graph, which fits them as well and is returned, the
    # weighted graph among the candidates
    cubic = _cubic()
    G = nx.complement(cubic) if complement else cubic
    res, caught = _normalized_inference(G, 0)
    assert res.history["regular_reading"] == (118, 60)
    assert compare_graphs(cubic, res.laplacian)["f1"] == 1.0
    assert res.n_candidates == 2 and sp.triu(res.candidates[1], 1).nnz == 118
    # the cubic graph shares its eigenvectors with its complement: flagged, so the
    # complement's answer is no longer silent, and the truth is one call away
    assert res.complement_twin and not caught
    if complement:
        assert compare_graphs(G, res.complement())["f1"] == 1.0


def test_equal_weight_answers_are_not_read_again():
    # draw 1: the searches give the cubic graph itself (equal weights to the noise)
    res, _ = _normalized_inference(_cubic(), 1)
    assert compare_graphs(_cubic(), res.laplacian)["f1"] == 1.0
    assert "regular_reading" not in res.history and res.n_candidates == 1


def test_the_reading_asks_no_weighted_tree(monkeypatch):
    # the combinatorial reading keeps only a regular graph: its basis says so, and the
    # weighted-tree rule, asked, reads nothing there (``_weighted_tree``)
    from gsp_householder.graphs import _ranking_ladder

    asked = []
    rule = _ranking_ladder.early_weighted_tree

    def spy(B, basis, *args):
        answer = rule(B, basis, *args)
        asked.append((basis["kind"], bool(basis.get("regular_only")), answer is None))
        return answer

    monkeypatch.setattr(_ranking_ladder, "early_weighted_tree", spy)
    res, _ = _normalized_inference(_cubic(), 0)
    assert res.history["regular_reading"] == (118, 60)
    readings = [a for a in asked if a[0] == "combinatorial"]
    assert readings and all(regular and none for _, regular, none in readings)


def test_no_regular_member_sparser_than_n_edges():
    # a connected regular graph on n > 2 nodes has at least n edges: members sparser
    # than a graph of n edges are spanning trees, which the reading does not keep
    from gsp_householder.graphs.laplacian_inference import _no_regular_member

    class Basis:
        n = 30

    reading = {"regular_only": True}
    assert _no_regular_member(reading, Basis, (30, 0.0, None, None))
    assert _no_regular_member(reading, Basis, (29, 0.0, None, None))
    assert not _no_regular_member(reading, Basis, (31, 0.0, None, None))
    assert not _no_regular_member({}, Basis, (30, 0.0, None, None))
    Basis.n = 2
    assert not _no_regular_member(reading, Basis, (1, 0.0, None, None))


def test_the_reading_scans_no_member_sparser_than_a_cycle(monkeypatch):
    # the perturbed normalized cycle of 30 nodes, draw 1: the normalized searches end
    # at a weighted graph of 45 edges, and the combinatorial reading's searches at the
    # 30-edge cycle with equal weights, whose scan of extreme members (members sparser
    # than it: spanning trees) is not solved; the reading returns the cycle
    from gsp_householder.graphs import laplacian_inference

    decided, scanned = [], []
    decide = laplacian_inference._no_regular_member
    scan = laplacian_inference.extreme_scan

    def decide_spy(basis, B, found):
        answer = decide(basis, B, found)
        decided.append(answer)
        return answer

    def scan_spy(B, basis, found, *args):
        scanned.append((bool(basis.get("regular_only")), int(found[0]), B.n))
        return scan(B, basis, found, *args)

    monkeypatch.setattr(laplacian_inference, "_no_regular_member", decide_spy)
    monkeypatch.setattr(laplacian_inference, "extreme_scan", scan_spy)
    G = nx.cycle_graph(30)
    res, _ = _normalized_inference(G, 1)
    assert res.history["regular_reading"] == (45, 30)
    A = nx.from_scipy_sparse_array(sp.csr_array(sp.triu(res.laplacian, 1) != 0))
    assert nx.is_connected(A) and {d for _, d in A.degree()} == {2}
    assert any(decided)
    assert all(edges > n for regular, edges, n in scanned if regular)
