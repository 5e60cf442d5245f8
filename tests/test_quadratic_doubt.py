"""Noisy graphs with the weights and spectrum of a quadratic of a sparser equal-weight graph."""

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs._local_columns import local_columns
from gsp_householder.graphs._quadratic_doubt import (
    integer_fold,
    integer_unit,
    quadratic_signature,
)

#: The noise level a search of eigenvectors perturbed by 1e-3 reports (tree(300, seed
#: 23): 7.8e-4).
NOISE = 7.8e-4


def _tree_quadratic(n=120, seed=4, c=0.2):
    """A random labelled tree's Laplacian, its quadratic $c(TL - L^2)$ with $T$ the
    largest degree sum over an edge (the sparsest valid one: those edges cancel), the
    quadratic's eigenvalues on the tree's eigenvectors and $T$."""
    G = nx.random_labeled_tree(n, seed=seed)
    L = nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float)
    d = np.diag(L)
    T = int(max(d[u] + d[v] for u, v in G.edges))
    A = c * (T * L - L @ L)
    _, V = np.linalg.eigh(L)
    mu = np.einsum("ij,ij->j", V, A @ V)
    return L, A, mu, T


def _entry_noise(A, rel, seed):
    """``A`` with symmetric noise of relative size ``rel`` on its nonzero off-diagonal
    entries (rows kept at sum zero)."""
    rng = np.random.default_rng(seed)
    U = np.triu(A, 1)
    E = np.where(U != 0, rel * U * rng.standard_normal(U.shape), 0.0)
    B = A + E + E.T
    return B - np.diag(B.sum(axis=1))


def test_quadratic_of_a_tree_has_the_signature():
    L, A, mu, T = _tree_quadratic()
    assert (np.triu(A, 1) < -1e-12).sum() > 2 * (L.shape[0] - 1)  # denser than the tree
    assert np.all(np.triu(A, 1) <= 1e-12)  # a valid Laplacian
    assert quadratic_signature(sp.csr_array(A), mu, NOISE) == pytest.approx((0.2, T))
    # noise on the weights well inside the noise level's band keeps it
    noisy = sp.csr_array(_entry_noise(A, 1e-4, 0))
    assert quadratic_signature(noisy, mu, NOISE) is not None


def test_signature_absent_from_equal_and_free_weights():
    L, A, _, _ = _tree_quadratic()
    lam = np.linalg.eigvalsh(L)
    # the tree itself: one level of weights
    assert integer_unit(sp.csr_array(L), NOISE) is None
    # lognormal weights on the quadratic's edges: not integer multiples of one unit
    rng = np.random.default_rng(1)
    U = np.triu(-A, 1)
    U[U > 0] = rng.lognormal(0.0, 0.5, int((U > 0).sum()))
    W = U + U.T
    assert integer_unit(sp.csr_array(np.diag(W.sum(axis=1)) - W), NOISE) is None
    assert quadratic_signature(sp.csr_array(L), lam, NOISE) is None


def test_fold_is_read_to_the_noise_level():
    _, _, mu, T = _tree_quadratic()
    assert integer_fold(mu, 0.2, NOISE) == T
    # the largest eigenvalue raised by the noise: still T
    assert integer_fold(mu * (1.0 + 2.0 * NOISE), 0.2, NOISE) == T
    # half a unit off an integer fold: not a quadratic with an integer T
    assert integer_fold(0.2 * (T + 0.5) ** 2 / 4.0 * np.ones(3), 0.2, NOISE) is None


def _relative_with_swapped_ends(c=0.2, T=8):
    """The quadratic $c(TL - L^2)$ of tree(120, seed 4) with two pendant paths of two
    nodes hung on one node of degree 2, but with the paths' ends swapped as the search
    returned on tree(300, seed 23): $2c(9I - 5P)$ added on the paths' opposite
    vectors ($P$ the Laplacian the path takes on them). Its Laplacian, the tree's
    eigenvectors, its eigenvalues on them and the four nodes."""
    G = nx.random_labeled_tree(120, seed=4)
    hub = next(v for v in G if G.degree(v) == 2)
    a1, a2, b1, b2 = 120, 121, 122, 123
    G.add_edges_from([(hub, a1), (a1, a2), (hub, b1), (b1, b2)])
    n = G.number_of_nodes()
    L = nx.laplacian_matrix(G, nodelist=range(n)).toarray().astype(float)
    P = 9.0 * np.eye(2) - 5.0 * np.array([[2.0, -1.0], [-1.0, 1.0]])
    A = T * L - L @ L
    A[np.ix_([a1, a2, b1, b2], [a1, a2, b1, b2])] += np.block([[P, -P], [-P, P]])
    A *= c
    _, V = np.linalg.eigh(L)
    return A, V, np.einsum("ij,ij->j", V, A @ V), [a1, a2, b1, b2]


def test_fold_is_read_without_the_columns_on_few_nodes():
    A, V, mu, nodes = _relative_with_swapped_ends()
    assert np.all(np.triu(A, 1) <= 1e-12)  # a valid Laplacian
    assert np.abs(V.T @ A @ V - np.diag(mu)).max() < 1e-12  # the tree's eigenvectors
    local, _ = local_columns(V)
    on_paths = [k for k in local if np.abs(V[nodes, k]).sum() > 1.0]
    assert len(on_paths) == 2 and np.max(mu[on_paths]) / 0.2 > 17.0  # above the fold 16
    assert np.max(np.delete(mu, local)) / 0.2 < 16.0
    # read on every column the fold is 8.27, no integer; without the local columns, 8
    assert quadratic_signature(sp.csr_array(A), mu, NOISE) is None
    assert quadratic_signature(sp.csr_array(A), mu, NOISE, V) == pytest.approx((0.2, 8))
    assert integer_fold(mu, 0.2, NOISE, local) == 8
    # the quadratic itself is read as before, with or without the basis
    _, Q, q, T = _tree_quadratic()
    L = nx.laplacian_matrix(nx.random_labeled_tree(120, seed=4), nodelist=range(120))
    _, W = np.linalg.eigh(L.toarray().astype(float))
    assert quadratic_signature(sp.csr_array(Q), q, NOISE, W) == pytest.approx((0.2, T))
    # free weights on the relative's edges: no signature, the basis or not
    rng = np.random.default_rng(2)
    U = np.triu(-A, 1)
    U[U > 0] = rng.lognormal(0.0, 0.5, int((U > 0).sum()))
    F = U + U.T
    assert quadratic_signature(sp.csr_array(np.diag(F.sum(axis=1)) - F), mu, NOISE, V) is None


@pytest.mark.slow
def test_tree_300_seed_23_perturbed_is_not_silent():
    """``bench_inference_tree_sweep.py --inputs perturbed --kinds labelled --sizes 300
    --seeds 23``: the quadratic c(8L - L^2) of the tree (700 edges for 299, F1 0.577) was
    returned without a warning. On today's basis the search returns a relative of it
    (702 edges, F1 0.567) whose largest eigenvalue is on two columns supported on four
    nodes each: the fold is read without them, and the tree behind the quadratic is read
    with those columns' roots set to the sparsest entries among their nodes."""
    B = fourier_basis(nx.random_labeled_tree(300, seed=23))
    rng = np.random.default_rng(0)
    n = B.n
    rng.permutation(n), rng.choice([-1.0, 1.0], n)  # the exact input's draw
    V = B.eigenvectors
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E))
    V = U @ Wt
    V = V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    assert compare_graphs(B.laplacian, res.laplacian)["f1"] == 1.0
    assert res.history["quadratic_root"][1] == 8
    assert not [w for w in caught if issubclass(w.category, ConvergenceWarning)]
