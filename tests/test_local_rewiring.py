"""Noisy results rewired among the nodes of columns supported on a few nodes."""

import warnings
from types import SimpleNamespace

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled, stored_eigenvectors

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import _basis_input
from gsp_householder.graphs._local_rewiring import (
    _local_only,
    sparser_on_local_columns,
    sparsest_entries,
)
from gsp_householder.graphs._twin_cliques import without_twin_cliques

#: A noise level of the rankings of eigenvectors perturbed by 1e-3 (their estimates on the
#: trees of 100 to 300 nodes: 2e-4 to 7e-4).
NOISE = 3e-4


def _two_pendant_paths():
    """A tree of 100 nodes, a path of 96 with two pendant paths of two nodes, h-a1-a2 and
    h-b1-b2, hung on its node h = 40, and those nodes. Its only repeated eigenvalues are
    those of the pendant paths' vectors (no eigensolver's choice of a basis of a larger
    eigenspace merges the local columns into one group of many nodes), and the path's
    eigenvectors, spread over more than ``MAX_SUPPORT`` nodes, are not local columns
    (a path of 56 nodes: a column nearly zero at one node was, and its group, of 59
    nodes, left no sparser graph)."""
    G = nx.path_graph(96)
    h = 40
    G.add_edges_from([(h, 96), (96, 97), (h, 98), (98, 99)])
    return G, (96, 97, 98, 99)


def _cycle_graph(G, nodes):
    """The equal-weight graph with the eigenvectors of ``G``: the pendant edges a1-a2 and
    b1-b2 replaced by a1-b2, a2-b1 and a2-b2 (one edge more)."""
    a1, a2, b1, b2 = nodes
    H = G.copy()
    H.remove_edges_from([(a1, a2), (b1, b2)])
    H.add_edges_from([(a1, b2), (a2, b1), (a2, b2)])
    return H


def _weights(G, n):
    return sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(n), format="csr"),
                        dtype=float)


def _edges(W):
    U = sp.triu(sp.csr_array(W), 1).tocoo()
    return set(zip(U.row.tolist(), U.col.tolist(), strict=True))


def _basis(V):
    basis = _basis_input._read_basis(V, None, None, None, None)
    return basis, _basis_input._anchored_pair_basis(basis)


def _common_basis(G, H, n):
    """Eigenvectors shared by the Laplacians of ``G`` and ``H`` (they commute): those of
    a combination of the two, so that no eigensolver's choice inside an eigenspace of
    one that the other splits enters the tests."""
    Lg = nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float)
    Lh = nx.laplacian_matrix(H, nodelist=range(n)).toarray().astype(float)
    V = np.linalg.eigh(Lg + 0.37 * Lh)[1]
    for L in (Lg, Lh):
        M = V.T @ L @ V
        assert np.abs(M - np.diag(np.diag(M))).max() < 1e-10
    return V


def _stored_common_basis(G, H, n):
    """``_common_basis`` of the hub's graph as the eigensolver gave it under OpenBLAS's
    Haswell kernels (``stored_eigenvectors``: the leaves' eigenvalue of multiplicity
    seven leaves its basis to the BLAS kernels), checked to diagonalise both Laplacians."""
    Lg = nx.laplacian_matrix(G, nodelist=range(n)).astype(float)
    Lh = nx.laplacian_matrix(H, nodelist=range(n)).astype(float)
    return stored_eigenvectors("hub_leaves_common", Lg + 0.37 * Lh, Lg, Lh)


def test_the_cycle_graph_shares_the_trees_eigenvectors():
    G, nodes = _two_pendant_paths()
    n = G.number_of_nodes()
    Lg = nx.laplacian_matrix(G, nodelist=range(n)).toarray()
    Lh = nx.laplacian_matrix(_cycle_graph(G, nodes), nodelist=range(n)).toarray()
    assert np.abs(Lg @ Lh - Lh @ Lg).max() == 0


@pytest.mark.parametrize("draw", [0, 1, 2])
def test_the_tree_replaces_the_graph_with_one_cycle(draw):
    # perturbed by 1e-3: the equal-weight graph with one cycle fits the eigenvectors as
    # well as the tree; its edges among the four nodes of the pendant paths are rewired
    G, nodes = _two_pendant_paths()
    n, H = G.number_of_nodes(), _cycle_graph(G, nodes)
    basis, B = _basis(perturbed(shuffled(_common_basis(G, H, n), draw), 1e-3, draw))
    W = sparser_on_local_columns(basis, B, _weights(H, n), NOISE)
    assert W is not None
    assert _edges(W) == _edges(_weights(G, n))


def test_no_rewiring_of_a_tree_exact_eigenvectors_or_a_graph_that_does_not_fit():
    G, nodes = _two_pendant_paths()
    n, H = G.number_of_nodes(), _cycle_graph(G, nodes)
    basis, B = _basis(perturbed(shuffled(_common_basis(G, H, n), 4), 1e-3, 4))
    cycle = _weights(H, n)
    assert sparser_on_local_columns(basis, B, _weights(G, n), NOISE) is None
    assert sparser_on_local_columns(basis, B, cycle, 0.0) is None
    complete = sp.csr_array(np.ones((n, n)) - np.eye(n))
    assert sparser_on_local_columns(basis, B, complete, NOISE) is None
    # an edge elsewhere (not among the local columns' nodes) stays: nothing sparser fits
    far = [v for v in range(n) if v not in nodes and G.degree(v) == 1][:2]
    other = G.copy()
    other.add_edge(*far)
    W = sparser_on_local_columns(basis, B, _weights(other, n), NOISE)
    assert W is None or tuple(sorted(far)) in _edges(W)



@pytest.mark.parametrize("draw", [0, 1])
def test_no_rewiring_of_a_graph_with_unequal_weights(draw):
    # the path's edges away from the pendant paths weighted in [1, 3]: the graph with one
    # cycle still shares the tree's eigenvectors, but with weights free a sparser
    # rewiring among a few nodes is always at hand and says nothing (Les Miserables
    # perturbed lost two true edges so): nothing is rewired
    G, nodes = _two_pendant_paths()
    weights = np.random.default_rng(draw).uniform(1.0, 3.0, 95)
    for v, w in enumerate(weights):
        G[v][v + 1]["weight"] = w
    n, H = G.number_of_nodes(), _cycle_graph(G, nodes)
    basis, B = _basis(perturbed(shuffled(_common_basis(G, H, n), draw), 1e-3, draw))
    assert sparser_on_local_columns(basis, B, _weights(H, n), NOISE) is None

def test_sparsest_entries_zero_the_most_entries():
    # entries base + A x of one column, all at most 0 for x <= 2: x = 2 zeroes three
    # entries, x = 3 one (and leaves three positive), x = -1 one (below the floor)
    A = np.array([[1.0], [1.0], [1.0], [1.0], [-1.0]])
    base = np.array([-2.0, -2.0, -2.0, -3.0, -1.0])
    x, = sparsest_entries(A, base, [np.full(5, 1e-9)], 0.1)
    assert x is not None and abs(x[0] - 2.0) < 1e-12
    # several slacks at once: each as if solved alone
    both = sparsest_entries(A, base, [np.full(5, 1e-9), np.full(5, 1.5)], 0.1)
    alone = [sparsest_entries(A, base, [np.full(5, s)], 0.1)[0] for s in (1e-9, 1.5)]
    assert all(np.array_equal(a, b) for a, b in zip(both, alone, strict=True))
    # infeasible: every x >= 0.1 leaves an entry above the slack
    assert sparsest_entries(np.array([[1.0]]), np.array([0.5]), [np.array([0.1])], 0.1) == [None]


@pytest.mark.parametrize(("n", "seed"), [(100, 0), (150, 6)])
def test_perturbed_random_trees_give_the_tree_or_warn(n, seed):
    # perturbed by 1e-3 and shuffled as bench_inference_tree_sweep.py does: the noisy
    # searches returned the tree with two pendant paths rewired (100 and 150 edges, F1
    # 0.975 and 0.983, no warning)
    F = fourier_basis(nx.random_labeled_tree(n, seed=seed))
    rng = np.random.default_rng(0)
    rng.permutation(n), rng.choice([-1.0, 1.0], n)      # the sweep's exact input first
    E = rng.standard_normal(F.eigenvectors.shape)
    U, _, Wt = np.linalg.svd(F.eigenvectors + 1e-3 * np.sqrt(n) * E / np.linalg.norm(E))
    V = (U @ Wt)[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    assert compare_graphs(F.laplacian, res.laplacian)["f1"] == 1.0 or caught


def test_groups_spanning_every_node_are_not_local():
    # a group of columns on all n nodes is left out, one on fewer nodes is kept
    groups = [
        SimpleNamespace(i=np.array([0, 0, 1]), j=np.array([1, 2, 2]), cols=[0]),
        SimpleNamespace(i=np.array([0, 1, 2, 3]), j=np.array([1, 2, 3, 4]), cols=[1, 2]),
    ]
    basis = SimpleNamespace(n=5, local_groups=groups)
    kept = _local_only(basis)
    assert len(kept) == 1 and kept[0] is groups[0]


def _sibling_subtrees_swapped():
    """``full_rary_tree(3, 120)`` and the equal-weight graph with its eigenvectors that
    ``infer_laplacian`` gave perturbed (draw 0): nodes 28 and 29, siblings with three
    leaves each (85-87 and 88-90), take each other's leaves, and the six leaves are
    joined as $K_{3,3}$ (128 edges for 119). Every repeated eigenvalue of the tree
    (multiplicities 5 to 53: sibling leaves and subtrees) gives columns mixed over
    several parents' subtrees, whose supports join in groups of up to 36 columns."""
    G = nx.full_rary_tree(3, 120)
    H = G.copy()
    H.remove_edges_from([(28, v) for v in (85, 86, 87)] + [(29, v) for v in (88, 89, 90)])
    H.add_edges_from([(28, v) for v in (88, 89, 90)] + [(29, v) for v in (85, 86, 87)])
    H.add_edges_from((a, b) for a in (85, 86, 87) for b in (88, 89, 90))
    return G, H


def test_sibling_subtrees_swapped_share_the_trees_eigenvectors():
    G, H = _sibling_subtrees_swapped()
    Lg = nx.laplacian_matrix(G, nodelist=range(120)).toarray()
    Lh = nx.laplacian_matrix(H, nodelist=range(120)).toarray()
    assert np.abs(Lg @ Lh - Lh @ Lg).max() == 0
    assert H.number_of_edges() == 128


def _mixed_in_subtree(G, H, n, nodes, seed):
    """``_common_basis`` with every shared eigenspace's vectors supported on ``nodes``
    rotated at random among themselves (as an eigensolver mixes the sibling leaves of
    several parents): the columns stay eigenvectors of both graphs, supported on
    ``nodes``, and their supports overlap."""
    V = _common_basis(G, H, n)
    Lg = nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float)
    Lh = nx.laplacian_matrix(H, nodelist=range(n)).toarray().astype(float)
    values = np.einsum("ij,ij->j", V, (Lg + 0.37 * Lh) @ V)
    outside = np.setdiff1d(np.arange(n), nodes)
    rng = np.random.default_rng(seed)
    for value in np.unique(np.round(values, 8)):
        cols = np.flatnonzero(np.abs(values - value) < 1e-8)
        E = V[:, cols]
        _, s, Wt = np.linalg.svd(E[outside])
        inside = Wt[np.sum(s > 1e-10):].T       # combinations supported on ``nodes``
        if inside.shape[1] < 2:
            continue
        Q = np.linalg.qr(rng.standard_normal((inside.shape[1],) * 2))[0]
        rest = Wt[:np.sum(s > 1e-10)].T
        V[:, cols] = E @ np.hstack([inside @ Q, rest])
    return V


@pytest.mark.parametrize("draw", [0, 1, 2])
def test_the_tree_replaces_sibling_subtrees_swapped(draw):
    # the six columns that tell the two graphs apart live on the eight nodes 28, 29,
    # 85-90, inside a group of many more columns (node 2's subtree, 40 nodes): the
    # subsets of pairs of the whole group do not determine them, the system nested in
    # their support does
    G, H = _sibling_subtrees_swapped()
    subtree = np.array(sorted(nx.descendants(nx.bfs_tree(G, 0), 2) | {2}))
    V = _mixed_in_subtree(G, H, 120, subtree, draw)
    basis, B = _basis(perturbed(shuffled(V, draw), 1e-3, draw))
    assert max(grp.cols.size for grp in _local_only(B)) > 6
    W = sparser_on_local_columns(basis, B, _weights(H, 120), NOISE)
    assert W is not None
    # with some BLAS kernels (Nehalem, draw 1) the sibling leaves' columns end beside
    # their old eigenvalues: cliques on the two classes of three leaves are left, which
    # the result drops as cliques on adjacent twins (``laplacian_inference._result``)
    lean = without_twin_cliques(basis, W, NOISE)
    assert _edges(W if lean is None else lean) == _edges(_weights(G, 120))



def test_nested_systems_inverted_once(monkeypatch):
    # the systems nested in a group are solved for each tolerance and pass with the same
    # rows: their subsets' pseudo-inverses are computed once
    from gsp_householder.graphs import _local_rewiring

    G, H = _sibling_subtrees_swapped()
    subtree = np.array(sorted(nx.descendants(nx.bfs_tree(G, 0), 2) | {2}))
    basis, B = _basis(perturbed(shuffled(_mixed_in_subtree(G, H, 120, subtree, 0), 0),
                                1e-3, 0))
    pinv, inverted, solved = np.linalg.pinv, [], []
    entries = _local_rewiring.sparsest_entries

    def counted_pinv(M, *args, **kwargs):
        inverted.append(M.tobytes())
        return pinv(M, *args, **kwargs)

    def counted_entries(A, *args, **kwargs):
        solved.append(A.tobytes())
        return entries(A, *args, **kwargs)

    monkeypatch.setattr(np.linalg, "pinv", counted_pinv)
    monkeypatch.setattr(_local_rewiring, "sparsest_entries", counted_entries)
    assert sparser_on_local_columns(basis, B, _weights(H, 120), NOISE) is not None
    assert len(solved) > len(set(solved))         # systems solved again with the same rows
    assert len(inverted) == len(set(inverted))    # but none inverted twice


@pytest.mark.parametrize(("p", "k"), [(12, 4), (40, 6)])
def test_kept_inverses_give_the_same_entries(p, k):
    # all subsets (495) or transversal ones (40 choose 6 > MAX_SUBSETS): the kept blocks
    # are those computed afresh, and so are the entries found from them, bit for bit
    from gsp_householder.graphs._local_rewiring import KeptInverses, subset_inverses

    rng = np.random.default_rng(p)
    A = rng.standard_normal((p, k))
    kept = KeptInverses()
    first = subset_inverses(A, 64, kept)
    assert subset_inverses(A, 64, kept) is first
    for (S0, P0), (S1, P1) in zip(first, subset_inverses(A, 64), strict=True):
        assert np.array_equal(S0, S1) and np.array_equal(P0, P1)
    for _ in range(3):
        base = -np.abs(rng.standard_normal(p))
        slacks = [np.full(p, 1e-9), np.full(p, 0.3)]
        fresh = sparsest_entries(A, base, slacks, -10.0, 64)
        again = sparsest_entries(A, base, slacks, -10.0, 64, kept)
        assert all((a is None and b is None) or np.array_equal(a, b)
                   for a, b in zip(fresh, again, strict=True))
    none = KeptInverses(max_entries=0)
    subset_inverses(A, 64, none)
    assert not none.blocks and none.entries == 0


def test_later_calls_on_a_basis_invert_nothing_again(monkeypatch):
    # the subsets' pseudo-inverses are kept with the basis: a second call on the same
    # basis (another graph to rewire, as ``tree_behind`` asks) inverts no subset again
    # and gives what a fresh basis gives
    from gsp_householder.graphs import _local_rewiring

    G, H = _sibling_subtrees_swapped()
    subtree = np.array(sorted(nx.descendants(nx.bfs_tree(G, 0), 2) | {2}))
    V = perturbed(shuffled(_mixed_in_subtree(G, H, 120, subtree, 0), 0), 1e-3, 0)
    basis, B = _basis(V)
    pinv, inverted = np.linalg.pinv, []

    def counted_pinv(M, *args, **kwargs):
        inverted.append(M.tobytes())
        return pinv(M, *args, **kwargs)

    monkeypatch.setattr(np.linalg, "pinv", counted_pinv)
    first = sparser_on_local_columns(basis, B, _weights(H, 120), NOISE)
    assert first is not None and inverted and B.inverses.blocks
    count = len(inverted)
    again = sparser_on_local_columns(basis, B, _weights(H, 120), NOISE)
    # only the whole groups' systems (not kept) are inverted again
    assert len(inverted) - count < count / 4
    assert set(inverted[count:]) <= set(inverted[:count])
    fresh_basis, fresh_B = _basis(V)
    fresh = sparser_on_local_columns(fresh_basis, fresh_B, _weights(H, 120), NOISE)
    for W in (again, fresh):
        assert (W != first).nnz == 0
    assert _local_rewiring.kept_with_basis(B) is B.inverses


def test_kept_inverses_fill_the_parent_first():
    from gsp_householder.graphs._local_rewiring import KeptInverses, subset_inverses

    rng = np.random.default_rng(3)
    A, C = rng.standard_normal((12, 4)), rng.standard_normal((10, 3))
    parent = KeptInverses(max_entries=495 * 16)        # room for A's blocks only
    child = KeptInverses(parent=parent)
    first = subset_inverses(A, 64, child)
    assert parent.entries == 495 * 16 and not child.blocks
    assert subset_inverses(A, 64, KeptInverses(parent=parent)) is first
    other = subset_inverses(C, 64, child)              # the parent is full: kept here
    assert child.entries == 120 * 9 and subset_inverses(C, 64, child) is other
    assert subset_inverses(C, 64, KeptInverses(parent=parent)) is not other


def test_a_group_without_edges_solves_no_system(monkeypatch):
    # no eigenvalues leave fewer edges than none: while a group's pairs hold no edge its
    # systems are not solved and the eigenvalues are kept; with an edge they are solved
    from gsp_householder.graphs import _local_rewiring

    calls = []

    def counted_entries(A, base, slacks, *args, **kwargs):
        calls.append(A.shape)
        return [None] * len(slacks)

    monkeypatch.setattr(_local_rewiring, "sparsest_entries", counted_entries)
    grp = SimpleNamespace(i=np.array([0, 0, 1]), j=np.array([1, 2, 2]))
    R = np.array([[1.0, -1.0], [0.5, 0.5], [0.0, 1.0]])
    systems = [(np.array([0, 1]), np.array([0, 1, 2]))]
    limit, tol = np.full(3, -0.1), np.zeros(3)
    for lam, solved in ((np.array([1.0, 1.0]), False), (np.array([1.0, -1.0]), True)):
        before = lam.copy()
        assert _local_rewiring._holds_edges(R, lam, limit) is solved
        calls.clear()
        _local_rewiring._sparser_systems(grp, R, systems, lam, tol, limit, 0.0)
        assert bool(calls) is solved and np.array_equal(lam, before)


def test_groups_without_edges_give_the_rewiring_of_every_system(monkeypatch):
    # a hub's eight leaves (twins: no edge among them) beside the two pendant paths: the
    # leaves' group is not solved, and the rewiring is the one that solving every system
    # gives (the tree; on draw 1 the leaves' seven columns are a group of their own)
    from gsp_householder.graphs import _local_rewiring

    G = nx.path_graph(95)
    G.add_edges_from([(40, 95), (95, 96), (40, 97), (97, 98)])
    G.add_edges_from((70, 99 + t) for t in range(8))
    n, H = G.number_of_nodes(), _cycle_graph(G, (95, 96, 97, 98))
    V = perturbed(shuffled(_stored_common_basis(G, H, n), 1), 1e-3, 1)
    holds, entries = _local_rewiring._holds_edges, _local_rewiring.sparsest_entries
    skipped = []

    def counted_holds(R, lam, limit):
        out = holds(R, lam, limit)
        skipped.extend([] if out else [R.shape])
        return out

    monkeypatch.setattr(_local_rewiring, "_holds_edges", counted_holds)
    basis, B = _basis(V)
    found = sparser_on_local_columns(basis, B, _weights(H, n), NOISE)
    assert found is not None and _edges(found) == _edges(_weights(G, n))
    assert (28, n - 1) in skipped  # the leaves' group: 28 pairs, every column

    def every_system(grp, R, systems, lam, tol, limit, floor, kept=None):
        # ``_sparser_systems`` without the test of the group's edges
        for _ in range(_local_rewiring.NESTED_PASSES):
            changed = False
            for cols, pairs in systems:
                Rp = R[pairs]
                base = Rp @ lam - Rp[:, cols] @ lam[cols]
                slack = tol[grp.i[pairs]] + tol[grp.j[pairs]]
                x = entries(
                    Rp[:, cols], base, [slack], floor, _local_rewiring.NESTED_SUBSETS, kept
                )[0]
                if x is not None and _local_rewiring._fewer_edges(R, lam, cols, x, limit):
                    lam[cols] = x
                    changed = True
            if not changed:
                return

    monkeypatch.setattr(_local_rewiring, "_sparser_systems", every_system)
    basis, B = _basis(V)
    every = sparser_on_local_columns(basis, B, _weights(H, n), NOISE)
    assert (found != every).nnz == 0
    assert np.array_equal(found.data, every.data)
