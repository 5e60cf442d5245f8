"""The examples of docs/coming-from-pygsp-networkx.md, checked against PyGSP and networkx.

Each test runs the snippet of one section of the page (same code, same names) and
compares the result with what PyGSP or networkx compute themselves.
"""

from __future__ import annotations

import logging

import networkx as nx
import numpy as np
import pytest

from gsp_householder import (
    adjacency_matrix,
    fourier_basis,
    gft,
    householder_fourier_basis,
    igft,
    infer_laplacian,
    laplacian_matrix,
)

pygsp = pytest.importorskip("pygsp")
logging.getLogger("pygsp").setLevel(logging.WARNING)   # PyGSP logs its k-NN search


def _same_eigenspaces(B, U, e, tol=1e-8):
    """Columns of ``B.eigenvectors`` and ``U`` span the same eigenspaces of equal eigenvalues."""
    np.testing.assert_allclose(B.eigenvalues, e, atol=tol)
    for g in B.eigenspaces:
        P = B.eigenvectors[:, g] @ B.eigenvectors[:, g].T
        Q = U[:, g] @ U[:, g].T
        np.testing.assert_allclose(P, Q, atol=1e-7)


def test_pygsp_basis_and_gft():
    # --- page: "The Fourier basis: G.U and G.e"
    G = pygsp.graphs.Sensor(50, seed=42)
    G.compute_fourier_basis()

    B = fourier_basis(G)             # the PyGSP graph itself (its weights G.W)
    e = B.eigenvalues                # G.e
    U = B.eigenvectors               # G.U, up to signs (see below)
    # --- checks
    assert np.allclose(e, G.e)
    _same_eigenspaces(B, G.U, G.e)
    assert np.allclose(laplacian_matrix(G).toarray(), G.L.toarray())

    # --- page: "The transform: G.gft and G.igft"
    rng = np.random.default_rng(0)
    s = rng.standard_normal(G.N)
    s_hat = gft(B, s)                # G.gft(s), up to the signs of the columns
    assert np.allclose(igft(B, s_hat), s)               # G.igft(s_hat)
    S = rng.standard_normal((G.N, 5))                   # five signals, one per column
    S_hat = gft(B, S)
    # --- checks: simple eigenvalues give the same coefficients up to the column's sign
    signs = np.sign(np.sum(U * G.U, axis=0))
    simple = [g[0] for g in B.eigenspaces if len(g) == 1]
    np.testing.assert_allclose((signs * s_hat)[simple], G.gft(s)[simple], atol=1e-10)
    np.testing.assert_allclose((signs[:, None] * S_hat)[simple], G.gft(S)[simple], atol=1e-10)
    np.testing.assert_allclose(igft(B, S_hat), G.igft(G.gft(S)), atol=1e-10)
    assert U.shape == (G.N, G.N)


def test_householder_basis_transform():
    # --- page: "A faster transform: the basis as few reflectors"
    G = pygsp.graphs.Sensor(50, seed=42)
    V, lam = householder_fourier_basis(G, return_eigenvalues=True)
    s = np.random.default_rng(0).standard_normal(G.N)
    c = gft(V, s)                    # O(m n) instead of O(n^2): V has V.m reflectors
    # column k of V is an eigenvector with eigenvalue lam[k]
    # --- checks
    G.compute_fourier_basis()
    assert np.allclose(np.sort(lam), G.e)
    Vd = V.to_dense()
    L = G.L.toarray()
    np.testing.assert_allclose(L @ Vd, Vd * lam, atol=1e-8)
    np.testing.assert_allclose(c, Vd.T @ s, atol=1e-10)
    assert np.allclose(igft(V, c), s)


def test_lap_type_normalized():
    # --- page: "Combinatorial or normalized: lap_type"
    G = pygsp.graphs.Sensor(50, seed=42, lap_type="normalized")
    G.compute_fourier_basis()
    B = fourier_basis(G, laplacian="normalized")
    L = laplacian_matrix(G, "normalized")              # G.L
    # --- checks
    assert np.allclose(B.eigenvalues, G.e)
    _same_eigenspaces(B, G.U, G.e)
    assert np.allclose(L.toarray(), G.L.toarray())
    assert B.laplacian_type == "normalized"


def test_networkx_labels_and_nodelist():
    # --- page: "networkx: node labels and nodelist"
    H = nx.les_miserables_graph()          # nodes are character names
    B = fourier_basis(H)                   # rows in the order of list(H)
    first = B.nodelist[0]                  # 'Napoleon': the node of row 0
    order = sorted(H)
    B2 = fourier_basis(H, nodelist=order)  # rows in the order of `order`, as in networkx
    L = laplacian_matrix(H, nodelist=order)
    # a signal given per node, as a dict, to a vector in row order and back
    degree = dict(H.degree(weight="weight"))
    x = np.array([degree[v] for v in B2.nodelist])
    x_back = dict(zip(B2.nodelist, igft(B2, gft(B2, x)), strict=True))
    # --- checks
    assert first == "Napoleon" and B.nodelist == list(H) and B2.nodelist == order
    assert np.allclose(L.toarray(), nx.laplacian_matrix(H, nodelist=order).toarray())
    assert np.allclose(B2.eigenvalues, np.sort(nx.laplacian_spectrum(H)))
    assert np.allclose(B.eigenvalues, B2.eigenvalues)
    assert all(np.isclose(x_back[v], degree[v]) for v in H)


def test_networkx_weights():
    # --- page: "Edge weights: weight="
    H = nx.les_miserables_graph()
    B_weighted = fourier_basis(H)                   # attribute "weight", as networkx
    B_unweighted = fourier_basis(H, weight=None)    # every edge weight 1
    K = nx.Graph()
    K.add_edge("a", "b", capacity=2.0)
    K.add_edge("b", "c", capacity=0.5)
    B_capacity = fourier_basis(K, weight="capacity")
    N = laplacian_matrix(H, "normalized")           # nx.normalized_laplacian_matrix(H)
    # --- checks
    assert np.allclose(B_weighted.eigenvalues, np.sort(nx.laplacian_spectrum(H)))
    assert np.allclose(B_unweighted.eigenvalues,
                       np.sort(nx.laplacian_spectrum(H, weight=None)))
    assert np.allclose(B_capacity.eigenvalues,
                       np.sort(nx.laplacian_spectrum(K, weight="capacity")))
    assert np.allclose(N.toarray(), nx.normalized_laplacian_matrix(H).toarray())


def test_back_to_networkx_with_labels():
    # --- page: "From a basis back to a networkx graph"
    grid = nx.grid_2d_graph(4, 4)                   # nodes (i, j)
    B = fourier_basis(grid)
    result = infer_laplacian(B, rng=0)              # eigenvalue order and eigenspaces from B
    G_hat = result.to_networkx(B.nodelist)          # the grid's (i, j) labels
    # --- checks
    assert set(G_hat.nodes) == set(grid.nodes)
    assert {frozenset(e) for e in G_hat.edges} == {frozenset(e) for e in grid.edges}


def test_pygsp_graph_from_networkx():
    # --- page: "Between PyGSP and networkx"
    H = nx.karate_club_graph()
    W = nx.to_scipy_sparse_array(H, nodelist=list(H), weight="weight", dtype=float)
    G = pygsp.graphs.Graph(W)
    G.compute_fourier_basis()
    # the same basis from either object
    assert np.allclose(fourier_basis(G).eigenvalues, fourier_basis(H).eigenvalues)
    np.testing.assert_allclose(fourier_basis(G).eigenvectors, fourier_basis(H).eigenvectors,
                               atol=1e-10)
    assert np.allclose(fourier_basis(H).eigenvalues, G.e)
    W2, nodes = adjacency_matrix(H)                 # G.W, with the node of each row
    assert nodes == list(H) and np.allclose(W2.toarray(), G.W.toarray())
