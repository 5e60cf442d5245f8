"""The tree behind a noisy graph read as a quadratic of a sparser equal-weight graph."""

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input, shuffled

from gsp_householder.graphs import _quadratic_root
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian
from gsp_householder.graphs._quadratic_doubt import quadratic_signature
from gsp_householder.graphs._quadratic_root import integrality_misfit, quadratic_root

#: The noise level a search of eigenvectors perturbed by 1e-3 reports (tree(300, seed
#: 23): 7.8e-4).
NOISE = 7.8e-4


def _quadratic_case(G, perturbed, draw):
    """The graph ``G``'s quadratic $T L - L^2$ (the smallest valid $T$, the pairs of
    twins dropped, as the search returned it on tree(300, seed 23)) and its eigenvectors,
    shuffled and sign-flipped (perturbed by a relative 1e-3 when ``perturbed``), read
    as ``infer_laplacian`` reads them: the basis, the quadratic's weights, its
    eigenvalues on the basis and its signature."""
    n = G.number_of_nodes()
    L = nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float)
    adjacency = (L < 0).astype(int)
    common = adjacency @ adjacency
    d = np.diag(L)
    T = int(max(d[u] + d[v] - common[u, v] for u, v in G.edges))
    A = T * L - L @ L
    same = np.array([[G[u].keys() == G[v].keys() for v in range(n)] for u in range(n)])
    A[same & ~np.eye(n, dtype=bool)] = 0.0
    A -= np.diag(A.sum(axis=1))
    V = np.linalg.eigh(L)[1]
    V = audit_input(V, 1e-3, draw) if perturbed else shuffled(V, draw)
    basis = _read_basis(V, None, None, None, None)
    _anchored_pair_basis(basis)
    W = sp.csr_array(np.where(np.eye(n, dtype=bool), 0.0, -A))
    eigenvalues = _diagonal_fit(basis["V"], _laplacian(W, basis))[0]
    signature = quadratic_signature(_laplacian(W, basis), eigenvalues, NOISE)
    return basis, W, eigenvalues, signature, T


def _pendant_paths_case(n, seed, draw):
    """``_quadratic_case`` of tree(``n``, ``seed``) with two pendant paths of two nodes
    hung on node 0, the quadratic's entries among their four nodes moved as the search
    moved them on tree(300, seed 23): by $18 I - 10 M$ on the paths' opposite vectors
    ($M$ the tree's Laplacian on them): integer weights and the same eigenvectors, but
    on those two columns eigenvalues whose roots are not the tree's (on the row, with
    $T = 8$, one above the fold $T^2/4$: no root at all)."""
    G = nx.random_labeled_tree(n, seed=seed)
    G.add_edges_from([(0, n), (n, n + 1), (0, n + 2), (n + 2, n + 3)])
    n += 4
    L = nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float)
    adjacency = (L < 0).astype(int)
    d = np.diag(L)
    T = int(max(d[u] + d[v] - (adjacency @ adjacency)[u, v] for u, v in G.edges))
    A = T * L - L @ L
    same = np.array([[G[u].keys() == G[v].keys() for v in range(n)] for u in range(n)])
    A[same & ~np.eye(n, dtype=bool)] = 0.0
    A -= np.diag(A.sum(axis=1))
    O = np.zeros((n, 2))
    O[[n - 4, n - 2], 0] = O[[n - 3, n - 1], 1] = [1.0, -1.0]
    O /= np.sqrt(2.0)
    A = np.rint(A + O @ (18.0 * np.eye(2) - 10.0 * (O.T @ L @ O)) @ O.T)
    V = audit_input(np.linalg.eigh(L + 1e-3 * A)[1], 1e-3, draw)
    basis = _read_basis(V, None, None, None, None)
    _anchored_pair_basis(basis)
    W = sp.csr_array(np.where(np.eye(n, dtype=bool), 0.0, -A))
    eigenvalues = _diagonal_fit(basis["V"], _laplacian(W, basis))[0]
    signature = quadratic_signature(_laplacian(W, basis), eigenvalues, NOISE, basis["V"])
    return G, basis, W, eigenvalues, signature, T


def _edges(W):
    I, J = sp.triu(W, 1).nonzero()
    return set(zip(I.tolist(), J.tolist(), strict=True))


def test_integrality_misfit_is_zero_on_unit_weights_only():
    L = nx.laplacian_matrix(nx.random_labeled_tree(30, seed=1)).toarray().astype(float)
    assert integrality_misfit(L) == pytest.approx(0.0, abs=1e-24)
    L[0, 1] += 0.25
    L[1, 0] += 0.25
    assert integrality_misfit(L) == pytest.approx(0.25 ** 2, rel=1e-12)


@pytest.mark.parametrize("perturbed", [False, True])
@pytest.mark.parametrize(("n", "seed"), [(60, 31), (120, 21)])
def test_tree_found_behind_its_quadratic(n, seed, perturbed):
    """tree(120, seed 21): single flips end at a wrong choice of roots, a pair flip
    frees them; tree(60, seed 31): T = 11."""
    G = nx.random_labeled_tree(n, seed=seed)
    for draw in (0, 1):
        basis, W, eigenvalues, signature, T = _quadratic_case(G, perturbed, draw)
        assert signature is not None and signature[1] == T
        assert sp.triu(W, 1).nnz > 2 * (n - 1)                   # the denser quadratic
        root = quadratic_root(basis, W, eigenvalues, signature, NOISE)
        assert root is not None
        assert _edges(root) == {tuple(sorted(e)) for e in G.edges}


@pytest.mark.parametrize(("n", "seed", "draw"), [(100, 3, 0), (120, 21, 1)])
def test_tree_found_behind_its_quadratic_with_free_local_columns(n, seed, draw):
    """The pendant paths' opposite columns are supported on four nodes: their
    eigenvalue in the quadratic is free and its roots are not the tree's; their roots
    are set to the sparsest entries among those nodes, and the tree is read."""
    G, basis, W, eigenvalues, signature, T = _pendant_paths_case(n, seed, draw)
    assert signature is not None and signature[1] == T
    root = quadratic_root(basis, W, eigenvalues, signature, NOISE)
    assert root is not None
    assert _edges(root) == {tuple(sorted(e)) for e in G.edges}


def test_wrong_roots_are_refused(monkeypatch):
    """Without the pair flips the roots of tree(120, seed 21) stay wrong: the graph read
    off them does not fit, and nothing is returned (the warned quadratic stays)."""
    monkeypatch.setattr(_quadratic_root, "MAX_PAIR_FLIPS", 0)
    basis, W, eigenvalues, signature, _ = _quadratic_case(
        nx.random_labeled_tree(120, seed=21), True, 0)
    assert quadratic_root(basis, W, eigenvalues, signature, NOISE) is None


@pytest.mark.parametrize("G", [nx.random_regular_graph(3, 60, seed=1), nx.grid_2d_graph(6, 7),
                               nx.connected_watts_strogatz_graph(60, 4, 0.1, seed=2)],
                         ids=["3-regular", "grid", "watts-strogatz"])
def test_roots_other_than_trees_are_not_returned(G):
    """A quadratic of a sparse graph that is not a tree: the roots read need not be the
    sparsest (the 6 x 7 grid's: a valid graph of 82 edges with its eigenvectors), and
    none is returned."""
    G = nx.convert_node_labels_to_integers(G)
    basis, W, eigenvalues, signature, _ = _quadratic_case(G, True, 0)
    assert signature is not None
    assert quadratic_root(basis, W, eigenvalues, signature, NOISE) is None
