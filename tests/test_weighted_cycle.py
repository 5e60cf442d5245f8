"""A weighted cycle read from unordered eigenvectors before any search (``_weighted_cycle``)."""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import graph_bench_input, perturbed, shuffled
from scipy.optimize import linprog
from test_edge_test_descent import _basis

from gsp_householder import fourier_basis
from gsp_householder.exceptions import AmbiguousGraphWarning, ConvergenceWarning
from gsp_householder.graphs import _dense_lp, _weighted_cycle, compare_graphs, infer_laplacian
from gsp_householder.graphs._cycle_read import _angle_order, round_pairs
from gsp_householder.graphs._laplacian_fit import held_graph, rounding_edges
from gsp_householder.graphs._thresholds import MAX_NOISE
from gsp_householder.graphs._weighted_cycle import (
    MIN_NODES,
    band_misfit,
    cycle_weights,
    least_missing_member,
    noise_weighted_refit,
    shown_cycle,
    weighted_cycle,
)

pygsp = pytest.importorskip("pygsp")


def _random_ring(n, seed):
    """PyGSP ``RandomRing(n, seed)``: the nodes in the order of the cycle, weights
    ``2 pi / n`` over the angular gap of each edge."""
    return nx.from_scipy_sparse_array(pygsp.graphs.RandomRing(n, seed=seed).W)


def _weighted_cycle_graph(n, seed, chords=0):
    """``cycle_graph(n)`` with lognormal weights and ``chords`` chords of weight 1."""
    G = nx.cycle_graph(n)
    weights = np.random.default_rng(seed).lognormal(0.0, 1.0, n)
    for (u, v), w in zip(G.edges, weights, strict=True):
        G[u][v]["weight"] = float(w)
    for c in range(chords):
        G.add_edge(c, c + n // 3 + 7 * c, weight=1.0)
    return G


def _edges(W):
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    return {(int(i), int(j)) for i, j in zip(upper.row, upper.col, strict=True)}


def _true_edges(G):
    return {(min(u, v), max(u, v)) for u, v in G.edges}


def _inputs(G, noise, draw):
    V = shuffled(fourier_basis(G).eigenvectors, draw)
    return perturbed(V, noise, draw) if noise else V


def test_fewest_nodes_leave_more_pairs_off_the_band_than_unknowns():
    # the pairs off the band (n (n - 1) / 2 - 2 n) outnumber the n - 1 eigenvalues from
    # MIN_NODES on, not before
    def enough(n):
        return n * (n - 1) // 2 - 2 * n >= n - 1

    assert enough(MIN_NODES)
    assert not enough(MIN_NODES - 1)


@pytest.mark.parametrize(("n", "seed", "draw"), [(100, 1, 0), (60, 4, 2), (600, 70, 0)])
def test_exact_ring_read_with_its_weights(n, seed, draw):
    # RandomRing(100, seed 1) took 7.8 CPU s in the searches, RandomRing(600, seed 70)
    # gave the complete graph: read here from the winding pair's angles, weights to
    # rounding, noise 0
    G = _random_ring(n, seed)
    basis = _basis(_inputs(G, 0.0, draw))
    found = weighted_cycle(basis)
    assert found is not None
    W, noise = found
    assert noise == 0.0
    assert _edges(W) == _true_edges(G)
    truth = nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr")
    rows, cols = np.nonzero(sp.triu(truth, 1))
    ratio = np.asarray(W[rows, cols]).ravel() / np.asarray(truth[rows, cols]).ravel()
    np.testing.assert_allclose(ratio, ratio.mean(), rtol=1e-7)


def test_exact_order_leaves_no_misfit_off_its_band():
    G = _random_ring(100, 1)
    basis = _basis(_inputs(G, 0.0, 0))
    assert band_misfit(basis, np.arange(100)) < 1e-6
    # two nodes far apart exchanged: the band misfit is only a gate (a vector on the
    # columns localised by heavy edges can leave little off any band), the fit decides
    order = np.arange(100)
    order[[10, 60]] = order[[60, 10]]
    W = cycle_weights(basis, order)
    assert W is None or shown_cycle(basis, W)[0] == "not shown"


def test_lognormal_cycle_shown_by_the_weights_its_eigenvector_equations_solve():
    """A cycle of lognormal weights (sigma 2, 200 nodes, weight seed 41) perturbed by
    1e-3 (draw 0): its least-squares member and the refits after it leave non-edges
    missing (no cycle was returned); the weights solved from its eigenvector equations,
    each over its rotation noise (``_cycle_equation_fit``), give the cycle back."""
    G = nx.cycle_graph(200)
    rng = np.random.default_rng(41)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.lognormal(0.0, 2.0)
    found = weighted_cycle(_basis(graph_bench_input(G, 0)))
    assert found is not None
    assert _edges(found[0]) == _true_edges(G)
    assert found[1] > 0.0


@pytest.mark.parametrize(
    "G",
    [
        nx.connected_watts_strogatz_graph(200, 6, 0.1, seed=0),
        nx.barabasi_albert_graph(200, 2, seed=0),
    ],
)
@pytest.mark.parametrize("noise", [0.0, 1e-3])
def test_no_cycle_behind_the_angles_of_other_graphs(G, noise):
    # the angles' order of graphs that are no cycle leaves their other edges off the
    # band (above 6 here): rejected in one eigensolve
    basis = _basis(_inputs(G, noise, 1))
    V = basis["V"]
    angles = _angle_order(V, *round_pairs(V, basis["zero_column"], 1)[0])
    assert band_misfit(basis, angles) > MAX_NOISE
    assert weighted_cycle(basis) is None


@pytest.mark.parametrize(("n", "seed", "chords"), [(150, 4, 1), (200, 5, 2)])
@pytest.mark.parametrize("noise", [0.0, 1e-3])
def test_no_cycle_read_from_a_cycle_with_chords(n, seed, chords, noise):
    G = _weighted_cycle_graph(n, seed, chords=chords)
    assert weighted_cycle(_basis(_inputs(G, noise, 1))) is None


def test_cycle_with_a_chord_is_not_shown_by_its_eigenvectors():
    # the cycle alone through the true order: its chord is a non-edge far outside the
    # noise (a rotation residual far above the one its non-edges predict, or a missing
    # edge), so even the right order is not returned as a cycle
    G = _weighted_cycle_graph(150, 4, chords=1)
    basis = _basis(_inputs(G, 1e-3, 1))
    W = cycle_weights(basis, np.arange(150))
    assert W is None or shown_cycle(basis, W)[0] != "shown"


@pytest.mark.parametrize(("n", "seed", "draw"), [(200, 1, 0), (120, 3, 1)])
def test_perturbed_ring_read_without_search_or_warning(n, seed, draw):
    # RandomRing(200, seed 1) perturbed by 1e-3: 22.5 CPU s in the searches and two
    # ConvergenceWarning on the right ring; read here directly
    G = _random_ring(n, seed)
    B = fourier_basis(G)
    V = perturbed(shuffled(B.eigenvectors, draw), 1e-3, draw)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = infer_laplacian(V, rng=0)
    assert res.history["weighted_cycle"] is True
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert res.n_edges == n
    assert res.history["noise"] > 0.0


def test_noise_weighted_refit_keeps_the_edges_and_fits_no_worse():
    # the refit chooses inside the family the non-edges leave at the noise level: the
    # same edges, positive weights, and a least squares misfit weighted by the
    # non-edges' variances no larger than the plain fit's
    G = _random_ring(200, 1)
    basis = _basis(_inputs(G, 1e-3, 0))
    W = cycle_weights(basis, np.arange(200))
    refit = noise_weighted_refit(basis, W)
    assert refit is not None
    assert _edges(refit) == _edges(W) == _true_edges(G)
    assert sp.triu(refit, 1).data.min() > 0.0
    assert shown_cycle(basis, refit)[0] == "shown"


def test_unweighted_cycle_left_to_its_own_rules():
    # equal weights (eigenvalues of multiplicity 2): no winding pair is read, and the
    # searches' rules answer as before
    G = nx.cycle_graph(60)
    B = fourier_basis(G)
    basis = _basis(shuffled(B.eigenvectors, 0))
    assert weighted_cycle(basis) is None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(shuffled(B.eigenvectors, 0), rng=0)
    assert "weighted_cycle" not in res.history
    # its twins are still warned of
    assert any(w.category is AmbiguousGraphWarning for w in caught)


def test_least_missing_member_where_the_refit_still_misses_edges():
    # RandomRing(150, seed 3) perturbed by 1e-3, draw 2 (weights 0.22 to 359): the fit
    # and its refit leave non-edges significantly negative (the truth leaves none);
    # the member of least missing entry in the family is shown, with the same edges
    G = _random_ring(150, 3)
    basis = _basis(graph_bench_input(G, 2))
    W = cycle_weights(basis, np.arange(150))
    assert shown_cycle(basis, W)[0] == "missing"
    refit = noise_weighted_refit(basis, W)
    assert refit is None or shown_cycle(basis, refit)[0] == "missing"
    member = least_missing_member(basis, W)
    assert member is not None
    assert _edges(member) == _true_edges(G)
    assert shown_cycle(basis, member)[0] == "shown"


def test_member_programs_are_solved_over_fewer_rows_to_an_optimum_of_every_row(monkeypatch):
    # the programs of the member above (RandomRing(150, seed 3), draw 2) are solved over
    # working sets of their rows (every weight's row and the non-edges' rows that the
    # optima violate): none is solved on all of its 11 175 rows, each ends at the
    # optimum that HiGHS reaches on every row (``linprog``), within its tolerances, and
    # the member has the same edges and weights within the eigenvectors' noise (1e-3)
    G = _random_ring(150, 3)
    basis = _basis(graph_bench_input(G, 2))
    W = cycle_weights(basis, np.arange(150))
    programs, whole = [], []
    solved, whole_solve = _weighted_cycle._largest_entry_program, _dense_lp.solve

    def recorded(entries, weights, total, start):
        status, x = solved(entries, weights, total, start)
        programs.append((entries, weights, total, status, x))
        return status, x

    def counted(cost, A_ub, *args, **kwargs):
        whole.append(A_ub.shape)
        return whole_solve(cost, A_ub, *args, **kwargs)

    monkeypatch.setattr(_weighted_cycle, "_largest_entry_program", recorded)
    monkeypatch.setattr(_dense_lp, "solve", counted)
    member = least_missing_member(basis, W)
    assert _edges(member) == _true_edges(G)
    assert programs
    assert not any(rows >= len(programs[0][0]) for rows, _ in whole)
    for entries, weights, total, status, x in programs:
        size = weights.shape[1]
        every_row = linprog(
            np.r_[np.zeros(size), 1.0],
            A_ub=np.block(
                [[-entries, -np.ones((len(entries), 1))], [-weights, np.zeros((len(weights), 1))]]
            ),
            b_ub=np.zeros(len(entries) + len(weights)),
            A_eq=np.r_[weights.sum(axis=0), 0.0][None],
            b_eq=[total],
            bounds=[(None, None)] * (size + 1),
            method="highs",
        )
        assert status == every_row.status == 0
        assert x[-1] == pytest.approx(every_row.x[-1], rel=1e-5)
        np.testing.assert_allclose(weights @ x[:size], weights @ every_row.x[:size], rtol=1e-3)


def _lognormal_cycle_of_the_family_tests(n, seed):
    """``test_inference_families._wide_weights(cycle_graph(n), seed, "ln1")``."""
    rng = np.random.default_rng(1000 + seed)
    G = nx.cycle_graph(n)
    for u, v in G.edges:
        G[u][v]["weight"] = float(rng.lognormal(0.0, 1.0))
    return G


@pytest.mark.parametrize(
    ("make", "draw"),
    [
        (lambda: _lognormal_cycle_of_the_family_tests(60, 2), 2),
        (lambda: _lognormal_cycle_of_the_family_tests(60, 20), 20),
        (lambda: _random_ring(150, 0), 0),
    ],
)
def test_cycles_of_the_exact_search_tests_are_read_first(make, draw):
    # the exact cycles whose searches ``test_inference_families`` tests (with this
    # reading left out): answered here without a search, to rounding, unwarned
    G = make()
    B = fourier_basis(G)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = infer_laplacian(shuffled(B.eigenvectors, draw), rng=0)
    assert res.history["weighted_cycle"] is True
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert res.residual < 1e-9


@pytest.mark.parametrize(
    ("make", "draw"),
    [
        (lambda: nx.hypercube_graph(3), 2),
        (lambda: nx.hypercube_graph(3), 4),
        (lambda: nx.complete_bipartite_graph(4, 4), 4),
    ],
)
def test_cycle_with_weights_at_rounding_is_not_read(make, draw):
    # the exact eigenvectors of the 3-cube (draws 2 and 4) and of K(4, 4) (draw 4) fit a
    # cycle whose weights are at rounding but two or one: a disconnected graph, once
    # returned quiet with eight edges counted; such a weight is no edge, and the
    # searches answer a connected graph with as many edges as its Laplacian holds
    B = fourier_basis(nx.convert_node_labels_to_integers(make()))
    V = shuffled(B.eigenvectors, draw)
    assert weighted_cycle(_basis(V)) is None
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    assert "weighted_cycle" not in res.history
    L = res.laplacian
    assert not rounding_edges(L).any()
    assert res.n_edges == sp.triu(L, 1).nnz
    assert sp.csgraph.connected_components(held_graph(L), directed=False)[0] == 1


def test_three_cube_answer_at_draw_two_is_warned_with_the_truth_listed():
    B = fourier_basis(nx.convert_node_labels_to_integers(nx.hypercube_graph(3)))
    with pytest.warns(AmbiguousGraphWarning):
        res = infer_laplacian(shuffled(B.eigenvectors, 2), rng=0)
    assert any(compare_graphs(B.laplacian, C)["f1"] == 1.0 for C in res.candidates)


def test_disconnected_answer_to_a_connected_basis_is_warned():
    # the cycle that the 3-cube's eigenvectors (draw 2) fit with six weights at
    # rounding, had it been returned: two edges in six components, warned
    from gsp_householder.graphs._laplacian_fit import _diagonal_fit
    from gsp_householder.graphs.inferred import InferredLaplacian
    from gsp_householder.graphs.laplacian_inference import _disconnected_answer_warning

    B = fourier_basis(nx.convert_node_labels_to_integers(nx.hypercube_graph(3)))
    order = [0, 3, 1, 2, 7, 4, 6, 5]
    weights = {(0, 3): 2.0, (7, 4): 2.0}
    W = nx.Graph()
    for u, v in zip(order, order[1:] + order[:1], strict=True):
        W.add_edge(u, v, weight=weights.get((u, v), 1e-15))
    L = sp.csr_array(nx.laplacian_matrix(W, nodelist=range(8)))
    assert _diagonal_fit(B.eigenvectors, L)[1] < 1e-9  # it fits them
    truth = sp.csr_array(B.laplacian)
    res = InferredLaplacian(truth, B.eigenvalues, 12, 0.0)  # connected: quiet
    _disconnected_answer_warning(res)
    assert "disconnected_answer" not in res.history
    res = InferredLaplacian(L, B.eigenvalues, sp.triu(L, 1).nnz, 0.0)
    with pytest.warns(ConvergenceWarning, match="6 connected components"):
        _disconnected_answer_warning(res)
    assert res.history["disconnected_answer"] == 6
