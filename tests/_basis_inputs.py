"""Inputs of the inference tests: shuffled, perturbed, rotated and stored eigenvector
matrices."""

from __future__ import annotations

import warnings
from pathlib import Path

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from gsp_householder.graphs import fourier_basis


def shuffled(V, seed):
    """The columns of ``V`` in a random order, with random signs."""
    rng = np.random.default_rng(seed)
    n = V.shape[1]
    return V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def perturbed(V, rel, seed):
    """``V`` plus noise of relative Frobenius size ``rel``, re-orthonormalised."""
    E = np.random.default_rng(seed).standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + rel * np.linalg.norm(V) * E / np.linalg.norm(E))
    return U @ Wt


def canonical(B):
    """The eigenvectors of the ``FourierBasis`` ``B`` in a basis that does not depend on
    the BLAS kernels: every repeated eigenspace spanned by the orthonormalised projection
    of fixed random vectors (seed: its dimension), every column signed by its product with
    a fixed random vector (seed 0).

    ``eigh`` returns an arbitrary basis of a repeated eigenspace, which differs between the
    kernels OpenBLAS picks for the CPU by far more than rounding (the eigenvectors of
    ``star_graph(30)`` by 0.94, those of a 3 x 4 x 5 torus by 0.48); perturbed or shuffled,
    such bases are different inputs. The projector onto an eigenspace is the same to
    rounding under every kernel, and so is the basis read from it here."""
    V = B.eigenvectors.copy()
    n = V.shape[0]
    for g in B.eigenspaces:
        if len(g) > 1:
            U = V[:, g]
            P = U @ (U.T @ np.random.default_rng(len(g)).standard_normal((n, len(g))))
            Q, R = np.linalg.qr(P)
            V[:, g] = Q * np.sign(np.diag(R))
    return V * np.sign(np.random.default_rng(0).standard_normal(n) @ V)


def rotated(B, rng):
    """The eigenvectors of the ``FourierBasis`` ``B`` with a random rotation inside every
    repeated eigenspace, drawn from ``rng`` (any basis of an eigenspace is a valid one; a
    learned basis gives an arbitrary one)."""
    V = B.eigenvectors.copy()
    for g in B.eigenspaces:
        if len(g) > 1:
            Q, R = np.linalg.qr(rng.standard_normal((len(g), len(g))))
            V[:, g] = V[:, g] @ (Q * np.sign(np.diag(R)))
    return V


def minnesota_ball(n, seed):
    """Breadth-first ball of ``n`` nodes of Minnesota around a random node (its largest
    component, nodes relabelled ``0..``), as the benchmarks build it."""
    import networkx as nx

    from gsp_householder.graphs.datasets import load_graph

    M = load_graph("minnesota")
    nodes = list(M)
    src = nodes[int(np.random.default_rng(seed).integers(len(nodes)))]
    ball = M.subgraph(list(nx.bfs_tree(M, src))[:n])
    ball = ball.subgraph(max(nx.connected_components(ball), key=len))
    return nx.convert_node_labels_to_integers(ball)


def audit_input(V, noise, draw):
    """``V`` perturbed by ``noise`` and shuffled as the audits build their input
    (``run_one`` of ``benchmarks/bench_inference_sweep.py``: one generator, seed ``draw``)."""
    rng = np.random.default_rng(draw)
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + noise * np.linalg.norm(V) * E / np.linalg.norm(E))
    V = U @ Wt
    n = V.shape[1]
    return V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def bench_input(V, draw, perturbed=True):
    """The input ``benchmarks/bench_inference.py`` makes of ``V`` for ``draw``: one
    generator, seed ``draw``; the exact input's shuffle (columns and signs) drawn first,
    then, for the perturbed input, the perturbation by 1e-3 and its own shuffle."""
    rng = np.random.default_rng(draw)
    n = V.shape[1]
    exact = V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)
    if not perturbed:
        return exact
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E))
    return (U @ Wt)[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def graph_bench_input(G, draw, perturbed=True):
    """``bench_input`` of the eigenvectors of ``G`` (``fourier_basis``)."""
    return bench_input(fourier_basis(G).eigenvectors, draw, perturbed)


def anchored(V):
    """``V`` of a normalized Laplacian as ``_read_basis`` anchors it: its zero-eigenvalue
    column ``c`` replaced by the positive vector ``u``; returns ``(V, c, u)``."""
    from gsp_householder.graphs._basis_input import _zero_column

    c, u = _zero_column(V, "normalized")
    V = V * np.sign(V[:, c].sum())
    V[:, c] = u
    return V, c, u


#: Eigenvector matrices that the eigensolver does not determine (eigenspaces of high
#: multiplicity), as ``fourier_basis`` gave them under OpenBLAS's Haswell kernels before
#: the canonical basis's tied pivot rows went to the earlier node (the common basis of
#: ``test_local_rewiring`` as ``_common_basis`` did): each is as valid an input as today's
#: canonical basis, and the tests whose case holds on it but on no nearby case of today's
#: basis read it from here (docs/measurements/families.md, "Test cases found again on
#: kernel-independent bases").
STORED_BASES = Path(__file__).parent / "data" / "stored_bases.npz"


def stored_eigenvectors(name, *laplacians):
    """The stored eigenvector matrix ``name`` (``STORED_BASES``), checked to be an
    orthonormal eigenbasis of each of ``laplacians`` (dense or sparse), eigenvalues
    ascending in the first: the input the named graph's eigensolver could have given."""
    with np.load(STORED_BASES) as bases:
        V = bases[name].copy()
    n = V.shape[0]
    assert np.abs(V.T @ V - np.eye(n)).max() < 1e-12
    for t, L in enumerate(laplacians):
        L = L.toarray() if hasattr(L, "toarray") else np.asarray(L, dtype=float)
        M = V.T @ L @ V
        scale = max(1.0, float(np.abs(L).max()))
        assert np.abs(M - np.diag(np.diag(M))).max() < 1e-10 * scale
        if t == 0:
            assert np.all(np.diff(np.diag(M)) > -1e-10 * scale)
    return V


def pygsp_block_model(n, k, seed):
    """PyGSP's ``StochasticBlockModel(n, k, seed)`` (blocks at density 0.7, 0.3 / k
    between them) as a networkx graph, asserted connected."""
    pygsp = pytest.importorskip("pygsp")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # scipy's diags, inside PyGSP
        W = pygsp.graphs.StochasticBlockModel(n, k=k, seed=seed).W
    G = nx.from_scipy_sparse_array(sp.csr_array(W))
    assert nx.is_connected(G)
    return G
