"""A spanning tree with fitted weights read from the cone of valid eigenvalue vectors.

The tree rules of ``_fitting_tree`` ask a spanning tree with *unit* weights. A tree
whose weights differ, with leaves of equal weight on one hub (eigenspaces of high
multiplicity: the perturbed broom (20, 60) with integer weights has five of 7 to 14
dimensions), is not one of them: its topology with unit weights leaves a misfit of 32,
and the noisy searches spend 35 to 72 CPU s on it for a denser graph (405 and 600 edges
for 79) while the broom fits the eigenvectors at 3.3 to 4.3 times the rankings'
smallest noise estimate.

The eigenvalue vectors $\\lambda$ whose matrix $M = V \\operatorname{diag}(\\lambda)
V^T$ has no positive off-diagonal entry (a valid weighted graph, the rows $a_{ij} = V_i
\\circ V_j$ of the pairs) form a cone; on exact eigenvectors of the broom it holds the
broom and the complete graph and their sums, and the sparsest of its members is the
tree. ``reweighted_tree`` reads it by reweighted $\\ell_1$ programs (HiGHS, $n$
unknowns, one row a pair): minimise $\\sum_{ij} c_{ij} |a_{ij} \\lambda|$ over the cone
(each $a_{ij} \\lambda$ at most the noise its entry carries, ``entry_noise``), the
degree of one node (``_tree_search.hub_nodes``) held to 1; each program's weights are
$c_{ij} = 1 / (|a_{ij} \\lambda| + \\varepsilon)$ with $\\varepsilon$ the
$(n - 1)$-th largest entry of the last program (the smallest a tree's edge may be), so
that a tree's $n - 1$ entries cost about 1 each and the others are pressed to zero
(reweighted $\\ell_1$ minimisation). After each program the maximum spanning tree of
$-M$ is the topology and its weights are fitted (``fitted_weights``).

A tree read so is returned only when it is a weighted graph the eigenvectors show
(``accepted``): every weight above ``RESIDUAL_CONSISTENT`` times the noise its entry
carries (a weight within the noise may be dropped and the tree still fit: wrong trees
whose weights carry the eigenspaces' columns on a few edges between leaves of equal
weight, every other weight within 1e-2 of zero and some negative, fit within
``RESIDUAL_CONSISTENT`` times the level), its rotation residual within
``RESIDUAL_CONSISTENT`` times the one its non-edges' noise predicts
(``_own_noise.own_noise``), and its residual within ``RESIDUAL_CONSISTENT`` times the
rankings' smallest estimate (``_fitting_tree.fits_at_noise``). No constant is new.

When the programs stop with no tree accepted, their best fitting tree may still have the
star part of a broom right and its handle in the wrong order (edges $(i, i + 2)$: the
perturbed integer brooms (30, 50) and (20, 45)); the broom with that star part and its
handle ordered by a column of the eigenvectors (``_broom_read``), the best fitting of
the columns' orders, is returned when accepted as above.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from gsp_householder.graphs._broom_read import broom_orders
from gsp_householder.graphs._fitting_tree import (
    fits_at_noise,
    noise_level,
    searchable,
    tree_family,
)
from gsp_householder.graphs._hopeless_basis import kept_family
from gsp_householder.graphs._hopeless_family import HOPELESS_SEARCHES
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _equal_within_noise, _laplacian
from gsp_householder.graphs._own_noise import non_edge_noise, own_noise
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._thresholds import EXACT_LEVEL, MAX_NOISE, RESIDUAL_CONSISTENT
from gsp_householder.graphs._tree_search import MAX_STEPS, _spanning, hub_nodes

#: Largest basis read: each program has a row per pair and a column per node (some
#: 0.1 CPU s at 80 nodes, growing as $n^3$).
MAX_NODES = 120


def fitted_weights(V: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> np.ndarray:
    """The weights of the tree of edges ``(rows, cols)`` that leave the least
    off-diagonal residual $\\|\\mathrm{off}(V^T L_w V)\\|_F$ for $\\|w\\| = 1$: the
    eigenvector of least eigenvalue of $Q = (U U^T) \\circ (U U^T) - (U \\circ U)(U
    \\circ U)^T$, $U$ the rows $V_i - V_j$ of the edges, scaled to a mean of 1.

    Parameters
    ----------
    V : numpy.ndarray
        Orthogonal basis, shape ``(n, n)``.
    rows, cols : numpy.ndarray
        The tree's edges.

    Returns
    -------
    numpy.ndarray
        The weights, in the order of the edges (some may be negative).

    Examples
    --------
    >>> import numpy as np
    >>> L = np.array([[2.0, -2, 0], [-2, 3, -1], [0, -1, 1]])
    >>> w = fitted_weights(np.linalg.eigh(L)[1], np.array([0, 1]), np.array([1, 2]))
    >>> bool(np.allclose(w, [4 / 3, 2 / 3]))
    True
    """
    U = V[rows] - V[cols]
    G = U @ U.T
    S = U * U
    w = np.linalg.eigh(G * G - S @ S.T)[1][:, 0]
    return w * (w.size / w.sum())


def _tree_laplacian(rows: np.ndarray, cols: np.ndarray, w: np.ndarray, n: int) -> np.ndarray:
    """Dense Laplacian of the weighted tree."""
    L = np.zeros((n, n))
    L[rows, cols] = -w
    L[cols, rows] = -w
    L[np.arange(n), np.arange(n)] = -L.sum(axis=1)
    return L


def _symmetric(rows: np.ndarray, cols: np.ndarray, w: np.ndarray, n: int) -> sp.csr_array:
    """Symmetric sparse weights of the tree."""
    return sp.csr_array(
        (np.concatenate([w, w]), (np.concatenate([rows, cols]), np.concatenate([cols, rows]))),
        shape=(n, n),
    )


def entry_noise(V: np.ndarray, L: np.ndarray, i: np.ndarray, j: np.ndarray):
    """``(sigma, sd)``: the noise the non-edges of ``L`` show (``non_edge_noise``) and
    the standard deviation $\\sigma \\sqrt{v_{ij}}$ it gives the entry of each pair
    ``(i, j)`` (``_own_noise``'s variance, in the units of ``L``)."""
    sigma = non_edge_noise(V, L)
    diagonal = np.diag(L)
    s2 = np.einsum("ij,ij->i", L, L)
    v = np.maximum(s2[i] + s2[j] - 2.0 * diagonal[i] * diagonal[j], 0.0)
    return sigma, sigma * np.sqrt(v)


def _program(A: np.ndarray, norm: np.ndarray, c: np.ndarray, bound: np.ndarray):
    """The eigenvalue vector minimising ``c @ |A lam|`` over ``A lam <= bound`` (the
    entries $-c \\cdot A \\lambda$ on the cone, where they are non-positive up to the
    bound) with ``norm @ lam == 1``; None when HiGHS finds none."""
    result = linprog(
        -(c @ A),
        A_ub=A,
        b_ub=bound,
        A_eq=norm[None],
        b_eq=[1.0],
        bounds=[(None, None)] * A.shape[1],
        method="highs",
    )
    return result.x if result.status == 0 else None


def shown_at_own_noise(V: np.ndarray, rows, cols, w: np.ndarray, W, basis) -> bool:
    """The part of ``accepted`` that does not depend on the level: every weight of the
    tree of edges ``(rows, cols)`` and weights ``w`` (``W``, the symmetric sparse
    weights) above ``RESIDUAL_CONSISTENT`` times its entry's noise, and its rotation
    residual within ``RESIDUAL_CONSISTENT`` times the one its non-edges' noise
    predicts."""
    n = V.shape[0]
    L = _tree_laplacian(rows, cols, w, n)
    sigma, sd = entry_noise(V, L, rows, cols)
    if sigma <= 0.0 or np.any(w <= RESIDUAL_CONSISTENT * sd):
        return False
    return own_noise(basis, W)[1] <= RESIDUAL_CONSISTENT


def accepted(V: np.ndarray, rows, cols, w: np.ndarray, W, basis, level: float) -> bool:
    """Whether the weighted tree of edges ``(rows, cols)`` and weights ``w`` (``W``, the
    symmetric sparse weights) is one the
    eigenvectors show (module docstring): every weight above ``RESIDUAL_CONSISTENT``
    times its entry's noise, its rotation residual within ``RESIDUAL_CONSISTENT`` times
    the one its non-edges' noise predicts (``shown_at_own_noise``), and its residual
    within ``RESIDUAL_CONSISTENT`` times ``level``."""
    return shown_at_own_noise(V, rows, cols, w, W, basis) and fits_at_noise(basis, W, level)


def reweighted_tree(V: np.ndarray, basis, level: float):
    """The weights (sparse, symmetric) of a spanning tree read from the cone of valid
    eigenvalue vectors by reweighted $\\ell_1$ programs (module docstring) that the
    eigenvectors show (``accepted`` at the noise level ``level``); else None. The
    programs stop at the first tree accepted, at the first tree that fits the
    eigenvectors no better than the last (``_diagonal_fit``: the descent no longer
    descends), or after ``_tree_search.MAX_STEPS``; when they stop with no tree
    accepted, the broom with the star part of their best fitting tree and its handle
    ordered by a column of ``V`` (``broom_in_order``) is returned if accepted."""
    n = V.shape[0]
    i, j = np.triu_indices(n, 1)
    A = V[i] * V[j]
    hub = int(hub_nodes(V, 1)[0])
    norm = -A[(i == hub) | (j == hub)].sum(axis=0)
    c = np.ones(i.size)
    bound = np.zeros(i.size)
    last = np.inf
    best = None
    for _ in range(MAX_STEPS):
        lam = _program(A, norm, c, bound)
        if lam is None:
            break
        x = A @ lam
        T = sp.triu(_spanning(-(V * lam) @ V.T), 1).tocoo()
        rows, cols = T.row, T.col
        w = fitted_weights(V, rows, cols)
        W = _symmetric(rows, cols, w, n)
        if accepted(V, rows, cols, w, W, basis, level):
            return W
        residual = _diagonal_fit(V, _laplacian(W, basis))[1]
        if residual >= last:
            break
        last, best = residual, (rows, cols)
        # the tree's weights in the program's units (the hub's degree 1): the bound
        # of each entry is the noise it carries
        L = _tree_laplacian(rows, cols, w, n)
        scale = float(norm @ np.einsum("ik,ik->k", V, L @ V))
        if scale > 0.0:
            bound = RESIDUAL_CONSISTENT * entry_noise(V, L / scale, i, j)[1]
        epsilon = np.sort(np.abs(x))[-(n - 1)]
        c = 1.0 / (np.abs(x) + max(epsilon, np.finfo(float).tiny))
    return None if best is None else broom_in_order(V, basis, level, *best)


def broom_in_order(V: np.ndarray, basis, level: float, rows: np.ndarray, cols: np.ndarray):
    """The weights (sparse, symmetric) of the best fitting broom with the star part of
    the tree of edges ``(rows, cols)`` and its handle in the order of a column of ``V``
    (``_broom_read.broom_orders``, weights ``fitted_weights``, residual
    ``_diagonal_fit``), when ``accepted`` at the noise level ``level``; else None."""
    n = V.shape[0]
    best = None
    for edges in broom_orders(V, rows, cols):
        w = fitted_weights(V, *edges)
        W = _symmetric(*edges, w, n)
        residual = _diagonal_fit(V, _laplacian(W, basis))[1]
        if best is None or residual < best[0]:
            best = (residual, edges, w, W)
    if best is None or not accepted(V, *best[1], best[2], best[3], basis, level):
        return None
    return best[3]


def free_eigenvalues(B: PairBasis, keys, ranking, levels) -> bool:
    """Whether one of the first ``HOPELESS_SEARCHES`` rankings of ``keys`` whose noise
    estimate is in ``levels`` (``(low, high]``) keeps pairs whose family
    (``_hopeless_basis.kept_family``) leaves most of the ``g`` unknown eigenvalues free
    (more than half): eigenspaces of high multiplicity, where the searches wander
    through weighted members of that family (``_hopeless_basis.large_family_tree`` asks
    the unit tree above ``HOPELESS_FRACTION``). ``ranking(key)`` gives ``(scores,
    trimmed, noise)``."""
    low, high = levels
    noisy = [key for key in keys if low < ranking(key)[2] <= high][:HOPELESS_SEARCHES]
    for key in noisy:
        _, trimmed, noise = ranking(key)
        if 2 * kept_family(B, trimmed, noise) > B.g:
            return True
    return False


def early_weighted_tree(B: PairBasis, basis, history, keys, ranking):
    """``(ranked, family dimension)`` with a spanning tree with fitted weights that the
    eigenvectors show (``reweighted_tree`` at the rankings' smallest noise level),
    asked where the tree with unit weights (``_fitting_tree.early_tree``) was not
    answered, before the noisy searches, when the rankings of ``keys`` leave most
    eigenvalues free (``free_eigenvalues``); else None, also for a tree whose weights
    are equal to the noise level (``_equal_within_noise``: the unit-weight rules'
    reading, as the perturbed ``star_graph(80)``'s). Not asked on a basis whose caller
    keeps only a regular graph (``basis["regular_only"]``, the combinatorial reading
    of a normalized basis, ``_regular_reading``): a spanning tree of more than two
    nodes is not regular. ``history["noise"]`` is then that level and
    ``history["weighted_tree"]`` the tree's residual in its units."""
    level = noise_level(history)
    if (
        level <= 0.0
        or B.n > MAX_NODES
        or not searchable(basis, B.n)
        or basis.get("regular_only")
        or not free_eigenvalues(B, keys, ranking, (EXACT_LEVEL, MAX_NOISE))
    ):
        return None
    W = reweighted_tree(basis["V"], basis, level)
    if W is None or _equal_within_noise(basis, W, level):
        # a tree with equal weights is read by the unit-weight rules (``_fitting_tree``)
        return None
    history["noise"] = level
    history["weighted_tree"] = _diagonal_fit(basis["V"], _laplacian(W, basis))[1] / level
    return [(B.n - 1, 0.0, None, W)], tree_family(B, W, level)
