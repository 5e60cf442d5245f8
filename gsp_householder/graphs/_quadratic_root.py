"""The tree behind a noisy graph read as a quadratic of a sparser equal-weight graph.

A graph found at a noise level with the signature of ``_quadratic_doubt`` (weights that
are integer multiples of a unit $c$, largest eigenvalue $c\\,T^2/4$ for an integer $T$)
may be $A = c(TL - L^2)$ for a sparser graph $L$ with equal weights:
``random_labeled_tree(300, seed=23)`` perturbed by 1e-3 gives 700 edges for the tree's
299. Each column's eigenvalue $\\mu_k$ of $A$ is then $c\\,\\rho_k (T - \\rho_k)$ for the
column's eigenvalue $\\rho_k$ of $L$, one of the two roots $\\rho_k = T/2 + \\sigma_k s_k$,
$s_k = \\sqrt{T^2/4 - \\mu_k / c}$, $\\sigma_k = \\pm 1$: a choice of sign per column.

The right choice makes $R = V \\operatorname{diag}(\\rho) V^T$ the Laplacian of a graph
with unit weights, every off-diagonal entry 0 or $-1$ and every diagonal entry an
integer (the degrees), to the noise; a wrong one leaves entries between. ``root_signs``
minimises the squared distance of $R$'s entries to those values
(``integrality_misfit``) over the signs: from the smaller root of every column (most of
a sparse graph's eigenvalues lie below $T/2$, its largest degree sum's half), it flips
every column whose flip lowers the misfit, in sweeps over the columns (largest $s_k$
first) until none does, and then the best pair among the ``PAIR_CANDIDATES`` columns
whose flips cost least, and sweeps again; the graph read at each of these local minima
is checked, and the first that passes ends the search. On tree(300, seed 23) the smaller roots leave
222 of the 299 edges (all of them the tree's) and single flips end at the tree; on the
quadratic of tree(120, seed 21) (sibling-leaf pairs dropped as on that row) single
flips stop at a misfit of 11.8 with wrong roots, and one pair flip (the candidates
ranked 10th and 18th) frees them: 0.32, the tree.

The graph read off $R$ (entries below $-1/2$, unit weights) is returned only when it
is a tree (connected, $n - 1$ edges) that fits the eigenvectors as well as the graph
found (``_equal_graph_fits``), as every sparser graph returned in place of a noisy
search's must: a wrong choice of signs can only leave the warned quadratic in place,
and no connected graph is sparser than a tree. A root with more edges is not returned:
a quadratic may have several roots with unit weights (another choice of signs inside
repeated eigenvalues), and the one read need not be the sparsest (the 6 x 7 grid's
quadratic, perturbed: a valid graph of 82 edges with its eigenvectors, the grid has
71), so the warning of ``_quadratic_doubt`` stays.
Columns supported on a few nodes (``_local_columns``: sibling leaves, twins, two pendant
paths on one node) have a free eigenvalue: the quadratic found may have dropped their
pair or moved the entries among their nodes (tree(300, seed 23): two such columns above
the fold), and their roots need not be the graph's eigenvalues. Where the graph read at
a local minimum is not a tree that fits, their roots are set to the sparsest entries
among their nodes (``sparsest_local_roots``) and the graph is read again: on that row,
at the first local minimum, 301 edges become the tree.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from gsp_householder.graphs._laplacian_fit import _equal_graph_fits, _residuals
from gsp_householder.graphs._local_columns import LocalGroup, column_groups
from gsp_householder.graphs._quadratic_doubt import INTEGER_FACTOR

#: Columns (those whose single flip raises the misfit least) among which a pair flip is
#: sought when no single flip lowers it (the quadratic of tree(120, seed 21): the pair
#: that unblocks the search ranks 10th and 18th; 1128 pairs of $n \times n$ entries).
PAIR_CANDIDATES = 48
#: Most pair flips taken, each followed by single flips to a local minimum, where the
#: graph read is checked: the search ends at the first tree that fits (a pair round
#: costs ``PAIR_CANDIDATES`` choose 2 misfits of $n^2$ entries: 1.1 CPU s at n = 300).
MAX_PAIR_FLIPS = 8
#: A flip is taken when it lowers the misfit by more than this fraction of it.
MIN_GAIN = 1e-9


def integrality_misfit(R, out=None) -> float:
    """Squared distance of the off-diagonal entries of the symmetric ``R`` to the
    nearer of 0 and $-1$ (entries beyond them to the nearer end) and of its diagonal
    entries to the nearest integer, summed over the upper triangle and the diagonal.
    ``out`` (the shape of ``R``) is used as the work space; ``R`` may be ``out``."""
    d = np.diag(R).copy()
    out = np.add(R, 0.5, out=out)
    np.abs(out, out=out)
    out -= 0.5                      # distance to the nearer of 0 and -1
    np.square(out, out=out)         # summed without BLAS: no threads, any kernel
    far = out.sum() - np.trace(out)
    return float(far / 2.0 + np.sum((d - np.rint(d)) ** 2))


def _flipped_misfit(R, v, delta, out) -> float:
    """``integrality_misfit`` of $R + \\delta v v^T$, in the work space ``out``."""
    np.multiply.outer(delta * v, v, out=out)
    out += R
    return integrality_misfit(out, out=out)


def _flip_costs(R, V, step, columns, out) -> np.ndarray:
    """The misfit of $R + \\delta_k v_k v_k^T$ for every column ``k`` of ``columns``,
    $\\delta_k$ = ``step[k]``."""
    return np.array([_flipped_misfit(R, V[:, k], step[k], out) for k in columns])


def root_signs(V, half, s) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """The signs $\\sigma$ of the roots $\\rho = $ ``half`` $+ \\sigma$ ``s`` at each local
    minimum of the distance of $R = V \\operatorname{diag}(\\rho) V^T$ to a Laplacian
    with unit weights (``integrality_misfit``; module docstring), with $R$: after the
    single flips, then after each pair flip and the single flips that follow it (at
    most ``MAX_PAIR_FLIPS``), until no pair lowers the misfit.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal eigenvectors, the zero-eigenvalue column exactly constant.
    half : ndarray of shape (n,)
        $T/2$ on every column, 0 on the zero-eigenvalue column.
    s : ndarray of shape (n,)
        The roots' half distance $s_k \\ge 0$ (0 on the zero-eigenvalue column).

    Yields
    ------
    tuple of ndarray
        $\\pm 1$ per column ($-1$ where ``s`` is 0) and $R$ (read only: the search
        goes on in it).
    """
    sigma = -np.ones(s.size)
    R = (V * (half - s)) @ V.T
    misfit = integrality_misfit(R)
    movable = np.flatnonzero(s > 0.0)
    movable = movable[np.argsort(-s[movable], kind="stable")]
    out = np.empty_like(R)
    for _ in range(MAX_PAIR_FLIPS + 1):
        misfit = _single_flips(R, V, sigma, s, movable, misfit, out)
        yield sigma, R
        step = -2.0 * sigma * s
        costs = _flip_costs(R, V, step, movable, out)
        pair = _best_pair(R, V, step, movable[np.argsort(costs, kind="stable")
                                             [:PAIR_CANDIDATES]], misfit, out)
        if pair is None:
            return
        for k in pair:
            R += np.multiply.outer(step[k] * V[:, k], V[:, k])
            sigma[k] = -sigma[k]
        misfit = integrality_misfit(R)


def _single_flips(R, V, sigma, s, columns, misfit, out) -> float:
    """Flip, in place in ``R`` and ``sigma``, each column of ``columns`` in turn whose
    flip lowers the misfit, in sweeps until none does; the misfit left."""
    changed = True
    while changed:
        changed = False
        for k in columns:
            delta = -2.0 * sigma[k] * s[k]
            cost = _flipped_misfit(R, V[:, k], delta, out)
            if cost < misfit * (1.0 - MIN_GAIN):
                R += np.multiply.outer(delta * V[:, k], V[:, k])
                sigma[k], misfit, changed = -sigma[k], cost, True
    return misfit


def _best_pair(R, V, step, candidates, misfit, out) -> tuple[int, int] | None:
    """The pair of ``candidates`` whose joint flip lowers the misfit most, if any does."""
    best, pair = misfit * (1.0 - MIN_GAIN), None
    for a, k in enumerate(candidates):
        Rk = R + np.multiply.outer(step[k] * V[:, k], V[:, k])
        for m in candidates[a + 1:]:
            cost = _flipped_misfit(Rk, V[:, m], step[m], out)
            if cost < best:
                best, pair = cost, (int(k), int(m))
    return pair


def quadratic_root(basis, W, eigenvalues, signature, noise: float) -> sp.csr_array | None:
    """The weights of a tree with equal weights whose quadratic the graph of weights
    ``W`` is and that fits the eigenvectors as well, or None (module docstring).

    Parameters
    ----------
    basis : dict
        The read basis (``V``, ``V_anchored``, ``zero_column``, ``kind``, ``scale``).
    W : sparse array
        Symmetric weights of the graph found.
    eigenvalues : ndarray
        The eigenvalue of its Laplacian on every column of the basis.
    signature : tuple of (float, int)
        Its unit weight $c$ and integer $T$ (``_quadratic_doubt.quadratic_signature``).
    noise : float
        The noise level the graph was found at.

    Returns
    -------
    scipy.sparse.csr_array or None
        Symmetric unit weights of the tree.
    """
    unit, T = signature
    V = basis["V_anchored"]
    n = V.shape[0]
    half = np.full(n, T / 2.0)
    s = np.sqrt(np.maximum(T * T / 4.0 - np.asarray(eigenvalues) / unit, 0.0))
    z = basis["zero_column"]
    half[z] = s[z] = 0.0
    reference = _residuals(basis, W)
    groups = column_groups(V)
    for sigma, R in root_signs(V, half, s):
        root = _tree_read(R)
        if root is not None and _equal_graph_fits(basis, root, reference, noise):
            return root
        if not groups:
            continue
        root = _tree_read(sparsest_local_roots(R, V, half + sigma * s, groups, noise))
        if root is not None and _equal_graph_fits(basis, root, reference, noise):
            return root
    return None


def _tree_read(R) -> sp.csr_array | None:
    """The unit weights of the entries of ``R`` below $-1/2$ when they are $n - 1$
    edges (a tree if connected, which the fit tests); else None."""
    n = R.shape[0]
    I, J = np.nonzero(np.triu(R < -0.5, 1))
    if I.size != n - 1:
        return None
    U = sp.coo_array((np.ones(I.size), (I, J)), shape=(n, n))
    return sp.csr_array(U + U.T)


def sparsest_local_roots(R, V, roots, groups: list[LocalGroup], noise: float) -> np.ndarray:
    """A copy of $R = V \\operatorname{diag}(\\rho) V^T$ with the roots of the local
    columns set, group by group, to the sparsest valid entries among the group's nodes.

    A column supported on a few nodes (``_local_columns``) enters only the entries
    among them, and its eigenvalue in the quadratic is free: it says nothing about its
    root (tree(300, seed 23): the two pendant paths' opposite columns take
    $\\mu_k / c$ = 17.1, above the fold $T^2/4$, and the root $T/2$). Their roots are
    set as ``_local_columns.sparsify_local`` sets a family's local eigenvalues, by the
    least $\\ell_1$ of the entries among the group's nodes (one program, not
    reweighted: with unit weights it counts the edges; only the entries' side of $-1/2$
    is read, so no entry is solved to zero after it), every entry at most
    ``INTEGER_FACTOR`` times ``noise`` times $s_i + s_j$ ($s_i^2 = (R^2)_{ii}$, the
    band of ``_quadratic_doubt.integer_unit``), roots nonnegative; a group whose
    program fails keeps its roots.

    Parameters
    ----------
    R : ndarray of shape (n, n)
        The matrix read, for the roots ``roots`` on the columns of ``V``.
    V : ndarray of shape (n, n)
        Orthonormal eigenvectors.
    roots : ndarray of shape (n,)
        The root $\\rho_k$ of every column.
    groups : list of LocalGroup
        The local columns' groups (``_local_columns.column_groups``).
    noise : float
        The noise level the graph was found at.

    Returns
    -------
    ndarray of shape (n, n)
        $R$ with the local roots set.
    """
    R = R.copy()
    scale = np.sqrt(np.einsum("ij,ij->i", R, R))
    for grp in groups:
        cols = grp.cols
        A = V[grp.i][:, cols] * V[grp.j][:, cols]
        base = R[grp.i, grp.j] - A @ roots[cols]
        slack = INTEGER_FACTOR * noise * (scale[grp.i] + scale[grp.j])
        res = linprog(-A.sum(axis=0), A_ub=A, b_ub=slack - base,
                      bounds=[(0.0, None)] * cols.size, method="highs")
        if res.status == 0:
            R += (V[:, cols] * (res.x - roots[cols])) @ V[:, cols].T
    return R
