"""Graphs whose eigenvalues, conjugated in a quadratic field, give another graph.

An unweighted graph's Laplacian $L = \\sum_i \\theta_i P_i$ has integer entries, so its
eigenvalues are algebraic integers and the automorphisms of the field they generate
permute them. When that field is abelian (a cycle's, the dodecahedron's, any Cayley
graph of an abelian group's), an automorphism $\\sigma$ gives a rational matrix
$\\sum_i \\sigma(\\theta_i) P_i$ with the projectors $P_i$ of $L$ kept: it has the
eigenvectors of $L$ and its spectrum. When it is again a Laplacian with equal weights it
is a twin that the eigenvectors, in no order, do not tell from $L$ (the multipliers of
a cycle's nodes are such automorphisms, ``_torus_twins``).

This module takes the automorphisms of one quadratic field $\\mathbb Q(\\sqrt d)$ that
the eigenvalues show: an eigenvalue $\\theta = a + b \\sqrt d$ ($b \\ne 0$) has its
conjugate $a - b \\sqrt d$ among the eigenvalues with the same multiplicity, the two the
roots of $x^2 - s x + p$ with integers $s$ and $p$; swapping every such pair of one
$d$ (the others kept) gives the candidate, which must be a Laplacian with equal weights
and as many edges, and fit the eigenvectors as well (``_grid_twins.fitting_twins``).

Measured before this module (eighth audit, perturbed by 1e-3, normalized): the
dodecahedron boxed with a 3-cycle was returned as its conjugate twin, the eigenvalues
$\\pm \\sqrt 5$ of the dodecahedron's adjacency swapped (150 edges, F1 0.4, draws 0-3),
with the family flag only and the truth not among the candidates.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import itertools

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._grid_twins import fitting_twins, relabelled_source, split_listed
from gsp_householder.graphs._template_lp import edge_key

#: Largest graph read (one dense eigendecomposition of its Laplacian).
MAX_NODES = 200
#: Tolerance on integers read off the eigenvalues (sums, products, entries of the
#: twin), relative to the largest eigenvalue; eigenvalues within it are one.
INTEGER_TOL = 1e-7


def _near_integer(x: float, scale: float) -> bool:
    return abs(x - round(x)) <= INTEGER_TOL * scale


def _squarefree(k: int) -> int:
    """The squarefree part of the positive integer ``k``."""
    f = 2
    while f * f <= k:
        while k % (f * f) == 0:
            k //= f * f
        f += 1
    return k


def _conjugates(theta: np.ndarray, mult: np.ndarray, scale: float) -> dict[int, np.ndarray]:
    """For each squarefree $d > 1$ the eigenvalues show, the permutation of the distinct
    eigenvalues ``theta`` (multiplicities ``mult``) that swaps every pair of conjugates
    $a \\pm b \\sqrt d$ of equal multiplicity and keeps the others."""
    r = theta.size
    fields: dict[int, np.ndarray] = {}
    for i in range(r):
        if _near_integer(theta[i], scale):
            continue
        for j in range(i + 1, r):
            s, p = theta[i] + theta[j], theta[i] * theta[j]
            if mult[i] != mult[j] or not (
                _near_integer(s, scale) and _near_integer(p, scale * scale)
            ):
                continue
            disc = round(s) ** 2 - 4 * round(p)
            if disc <= 0 or round(np.sqrt(disc)) ** 2 == disc:
                continue
            perm = fields.setdefault(_squarefree(disc), np.arange(r))
            perm[i], perm[j] = j, i
            break
    return fields


def conjugate_weights(W) -> list[sp.csr_array]:
    """Unit weights of the graphs $\\sum_i \\sigma(\\theta_i) P_i$ (``_conjugates``) of
    the graph of weights ``W`` (read as unweighted) that are connected Laplacians with
    weights 0 or 1, as many edges and other edges; empty above ``MAX_NODES`` nodes.

    Examples
    --------
    >>> import networkx as nx
    >>> D = nx.to_scipy_sparse_array(nx.dodecahedral_graph())
    >>> [T.nnz // 2 for T in conjugate_weights(D)]
    [30]
    """
    W = sp.csr_array(W)
    n = W.shape[0]
    if n > MAX_NODES or W.nnz == 0:
        return []
    A = W.astype(bool).astype(float).toarray()
    L = np.diag(A.sum(axis=1)) - A
    lam, U = np.linalg.eigh(L)
    scale = max(float(lam[-1]), 1.0)
    bounds = np.concatenate(([0], np.flatnonzero(np.diff(lam) > INTEGER_TOL * scale) + 1, [n]))
    theta = np.array([lam[a:b].mean() for a, b in itertools.pairwise(bounds)])
    mult = np.diff(bounds)
    group = np.repeat(np.arange(theta.size), mult)
    twins = []
    for perm in _conjugates(theta, mult, scale).values():
        T = -(U * theta[perm][group]) @ U.T
        np.fill_diagonal(T, 0.0)
        rounded = np.round(T)
        if (
            np.abs(T - rounded).max() > INTEGER_TOL * scale * n
            or rounded.min() < 0
            or rounded.max() > 1
            or rounded.sum() != A.sum()
            or np.array_equal(rounded, A)
        ):
            continue
        twin = sp.csr_array(rounded)
        if connected_components(twin, directed=False)[0] == 1:
            twins.append(twin)
    return twins


def conjugate_twins(
    basis, W, candidates, noise: float = 0.0
) -> tuple[list[sp.csr_array], list[int]]:
    """Laplacians of the conjugate twins (``conjugate_weights``) of the graph of
    weights ``W`` (the graph returned, with equal weights as
    ``_grid_twins.grid_twins`` asks them), at its weight, that fit the eigenvectors as
    well (``_fits_as_well`` of ``twin_residuals``), split into those not among the
    Laplacians ``candidates`` and the indices of the candidates that are such twins
    (``split_listed``).

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph returned.
    candidates : list of scipy.sparse.csr_array
        The Laplacians already among the result's candidates.
    noise : float
        The noise level the graph was found at; 0 for exact eigenvectors.

    Returns
    -------
    twins : list of scipy.sparse.csr_array
    listed : list of int
    """
    W = sp.csr_array(W)
    if W.nnz == 0 or W.shape[0] > MAX_NODES:
        return [], []
    twins = conjugate_weights(W)
    if not twins:
        return [], []
    source = relabelled_source(basis, W, noise)
    if source is None:
        return [], []
    W, reference = source
    weight = float(sp.triu(W, 1).data.mean())
    fitting = fitting_twins(
        basis, (weight * T for T in twins), reference, {edge_key(sp.triu(W, 1))}
    )
    return split_listed(fitting, candidates)
