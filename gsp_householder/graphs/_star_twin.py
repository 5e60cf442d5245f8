"""Weighted stars and their twin: the star on the lightest leaf has the same eigenvectors.

A star with hub $h$ and leaf weights $w_i$, whose lightest leaf $m$ (weight $\\mu$) is
lighter than every other leaf, has a twin. $L - \\mu I$ is an arrowhead matrix whose
shaft has a zero at $m$; its inverse is an arrowhead with its point at $m$: solving
$(L - \\mu I) x = e_m$ row by row gives $x_h = -1 / \\mu$ and $x_i = -w_i / (\\mu (w_i -
\\mu))$ for the other leaves, and every other column of the inverse is zero off the
diagonal but in row $m$. Since $L \\mathbf 1 = 0$, the rows of $(L - \\mu I)^{-1}$ sum to
$-1 / \\mu$, so

$$L' = (L - \\mu I)^{-1} + I / \\mu$$

is the Laplacian of the star with hub $m$, weight $1 / \\mu$ on $(m, h)$ and $w_i / (\\mu
(w_i - \\mu))$ on $(m, i)$: all positive, as $w_i > \\mu$. A function of $L$, it has the
same eigenvectors, and the eigenvalue $\\lambda$ of $L$ becomes $\\lambda / (\\mu
(\\lambda - \\mu))$: every nonzero eigenvalue of the star is above $\\mu$ (they interlace
the leaf weights), so the map reverses their order. Without the eigenvalue order no
inference from eigenvectors tells the two stars apart: both have $n - 1$ edges and fit
exact eigenvectors to rounding. The twin of the twin is the star (its lightest leaf is
$h$, of weight $1 / \\mu$ against $w_i / (\\mu (w_i - \\mu)) > 1 / \\mu$).

Measured (perturbed by 1e-3, the input of ``bench_inference_sweep.run_one``): the
lognormal ($\\sigma$ = 0.5) star of 90 leaves, seed 906, draws 0-1, and of 150 leaves,
seed 1, was answered by the star on its lightest leaf (F1 0.011 and 0.0067); the
truth's edges refitted (``_weighted_tree.fitted_weights``) leave 0.63 to 1.19 times the
rotation residual of its twin's edges refitted, over 24 draws of weighted stars of 40 to
110 leaves: the noise does not tell them apart either. A near-star (a few edges between
leaves) has no exact twin, but the star on the lightest leaf of its star part is close:
the lognormal near-star of 60 leaves with 2 leaf edges, seed 913, draws 0-1, was
answered quietly by the star on that leaf (60 edges for 62, F1 0.016), whose own twin is
the truth's star, and the truth, that star plus its 2 leaf edges, fits the eigenvectors
better (rotation residual 0.64 times) and is among the candidates.

``star_alternative`` reads the twin of a weighted star returned (its weights not equal
to the noise level, ``_laplacian_fit._equal_within_noise``: a unit star has an
eigenspace of dimension $n - 2$ and no lightest leaf) and returns it when it fits the
eigenvectors as well as the star (``_laplacian_fit._fits_as_well``, its weights refitted
on its edges, or to rounding: ``_as_well``), else the sparsest candidate that holds
the twin's edges, agrees with it at ``EDGE_AGREEMENT`` or above and fits as well; the
result warns that the eigenvectors do not tell them apart. No constant is new. The star
is still returned: which of the two is the graph sought, the eigenvectors do not say.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._edge_significance import edge_significance
from gsp_householder.graphs._edge_test_descent import anchored_fit, connected
from gsp_householder.graphs._family_doubt import EDGE_AGREEMENT
from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _equal_within_noise,
    _fits_as_well,
    _laplacian,
    _residuals,
)
from gsp_householder.graphs._missing_edges import missing_threshold, non_edge_scores
from gsp_householder.graphs._sparser_rival import edge_agreement
from gsp_householder.graphs._support_search import EXACT_NOISE
from gsp_householder.graphs._thresholds import ROUNDING_FIT
from gsp_householder.graphs._weighted_tree import _symmetric, fitted_weights


def star_hub(W) -> int | None:
    """The hub of the graph of weights ``W`` when it is a star (a tree whose hub is
    joined to every other node), else None."""
    W = sp.csr_array(W)
    n = W.shape[0]
    if n < 3 or sp.triu(W, 1).nnz != n - 1:
        return None
    degrees = np.diff(W.indptr)
    hub = int(np.argmax(degrees))
    return hub if degrees[hub] == n - 1 else None


def star_twin(W) -> sp.csr_array | None:
    """The weights of the twin of the star of weights ``W`` (module docstring): the
    star on its lightest leaf $m$ with weight $1 / \\mu$ to the hub and $w_i / (\\mu
    (w_i - \\mu))$ to every other leaf; None when ``W`` is not a star or its lightest
    leaf is not lighter than every other.

    Parameters
    ----------
    W : sparse array
        Symmetric non-negative weights.

    Returns
    -------
    scipy.sparse.csr_array or None
        The twin's weights; its Laplacian commutes with that of ``W``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> W = sp.csr_array(np.array([[0, 1.0, 2, 4], [1, 0, 0, 0], [2, 0, 0, 0], [4, 0, 0, 0]]))
    >>> T = star_twin(W).toarray()
    >>> L, M = np.diag(W.sum(axis=1)) - W.toarray(), np.diag(T.sum(axis=1)) - T
    >>> bool(np.allclose(L @ M, M @ L)), T[1].tolist()
    (True, [1.0, 0.0, 2.0, 1.3333333333333333])
    """
    hub = star_hub(W)
    if hub is None:
        return None
    n = W.shape[0]
    weights = sp.csr_array(W)[[hub], :].toarray().ravel()
    leaves = np.flatnonzero(np.arange(n) != hub)
    order = np.argsort(weights[leaves], kind="stable")
    m, mu = int(leaves[order[0]]), float(weights[leaves[order[0]]])
    if not mu < weights[leaves[order[1]]]:
        return None
    others = leaves[leaves != m]
    twin = np.concatenate([[1.0 / mu], weights[others] / (mu * (weights[others] - mu))])
    leaves = np.concatenate([[hub], others])
    return _symmetric(np.full(leaves.size, m), leaves, twin, n)


def refitted(V: np.ndarray, W) -> sp.csr_array:
    """The tree of weights ``W`` with its weights refitted on its edges to the basis
    ``V`` (``_weighted_tree.fitted_weights``: the least off-diagonal residual), or
    ``W`` itself when a refitted weight is not positive."""
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    weights = fitted_weights(V, upper.row, upper.col)
    if not np.all(weights > 0.0):
        return sp.csr_array(W)
    return _symmetric(upper.row, upper.col, weights, W.shape[0])


def _holds(W, T) -> bool:
    """Whether the graph of weights ``W`` has every edge of the graph of weights ``T``."""
    upper = sp.triu(sp.csr_array(T), 1).tocoo()
    return bool(np.all(sp.csr_array(W)[upper.row, upper.col] != 0.0))


def _most_missing(V, L, eigenvalues, test):
    """The non-edge of ``L`` with the largest missing-edge z-score
    (``_missing_edges.non_edge_scores``) above the missing-edges threshold
    (``missing_threshold``), or None."""
    best, pair = missing_threshold(L), None
    for a, cols, z in non_edge_scores(V, L, eigenvalues, test):
        k = int(np.argmax(z)) if z.size else 0
        if z.size and z[k] > best:
            best, pair = float(z[k]), (a, int(cols[k]))
    return pair


def forward_path(basis, twin) -> list:
    """The graphs (weights) met adding to the edges of ``twin``, one at a time, the
    non-edge the eigenvectors show most (``_most_missing``), each edge set fitted on
    the anchored basis (``_edge_test_descent.anchored_fit``), as many as keep the
    agreement with the twin at ``EDGE_AGREEMENT`` or above; the path stops at a graph
    that lacks no edge, is not connected, or whose edge test cannot be made."""
    V = basis["V"]
    n = V.shape[0]
    budget = int(np.floor(2 * (n - 1) * (1.0 - EDGE_AGREEMENT) / EDGE_AGREEMENT))
    upper = sp.triu(sp.csr_array(twin), 1).tocoo()
    rows, cols = list(upper.row), list(upper.col)
    path = []
    for _ in range(budget + 1):
        A = anchored_fit(basis, np.array(rows), np.array(cols))
        if A.nnz == 0 or not connected(A):
            break
        path.append(A)
        L = _laplacian(A, basis)
        eigenvalues = _diagonal_fit(V, L)[0]
        test = edge_significance(V, L, eigenvalues)
        pair = None if test is None else _most_missing(V, L, eigenvalues, test)
        if pair is None:
            break
        rows.append(pair[0])
        cols.append(pair[1])
    return path


def _holders(basis, twin, candidates):
    """The graphs (weights) that hold the twin ``twin`` with a few edges more: the
    ``candidates`` that hold every edge of it and agree with it at ``EDGE_AGREEMENT``
    or above (``edge_agreement``), sparsest first, then the sparsest graph of the
    twin's ``forward_path`` that fits the eigenvectors as well as the best-fitting one
    of the path (``_fits_as_well``: graphs that fit alike are compared by sparsity),
    if it agrees with the twin so."""
    for C in sorted(candidates, key=lambda C: sp.triu(C, 1).nnz):
        if _holds(C, twin) and edge_agreement(twin, C) >= EDGE_AGREEMENT:
            yield C
    path = forward_path(basis, twin)
    if not path:
        return
    fits = [_residuals(basis, A) for A in path]
    best = fits[int(np.argmin([f[1] for f in fits]))]
    for A, fit in zip(path, fits, strict=True):
        if _fits_as_well(fit, best):
            if edge_agreement(twin, A) >= EDGE_AGREEMENT:
                yield A
            return


def star_alternative(basis, W, candidates, noise: float):
    """``(twin, holder)`` for the star of weights ``W`` returned on the basis ``basis``
    (combinatorial, no eigenvalue order, not a twin class's), its weights not equal to
    the noise level ``noise`` (``_equal_within_noise``, at least ``EXACT_NOISE``, the
    level of exact eigenvectors): its twin (``star_twin``, its weights refitted,
    ``refitted``) and None when the twin fits the eigenvectors as well as ``W``
    (``_fits_as_well``); else the twin and the first graph that holds it with a few
    edges more (``_holders``: one of ``candidates``, weights, or the edge tests'
    descent from it) and fits the eigenvectors as well as ``W``; None when none does
    or ``W`` has no twin.

    Parameters
    ----------
    basis : dict
        The inference's basis.
    W : sparse array
        Weights of the graph returned.
    candidates : list of sparse arrays
        Weights of the other candidates.
    noise : float
        The noise level the graph was found at (0 for exact eigenvectors).

    Returns
    -------
    tuple or None
        The twin's weights and the graph that holds it (None when the twin fits as
        well itself).
    """
    if basis["kind"] != "combinatorial" or basis["ordered"] or basis.get("twin_class"):
        return None
    twin = star_twin(W)
    if twin is None or _equal_within_noise(basis, W, max(noise, EXACT_NOISE)):
        return None
    twin = refitted(basis["V"], twin)
    reference = _residuals(basis, W)
    if _as_well(_residuals(basis, twin), reference):
        return twin, None
    for holder in _holders(basis, twin, candidates):
        if _as_well(_residuals(basis, holder), reference):
            return twin, holder
    return None


def _as_well(residuals, reference) -> bool:
    """`_fits_as_well`, or a residual at the rounding level (``ROUNDING_FIT``): two graphs
    that both fit exact eigenvectors to rounding are not told apart by the ratio of their
    rounding errors (a weighted star's twin: 2 to 4 times the star's 1e-15, by BLAS
    kernel)."""
    return residuals[0] <= ROUNDING_FIT or _fits_as_well(residuals, reference)


def fits_better_than_star(basis, holder, W) -> bool:
    """Whether the graph of weights ``holder`` fits the eigenvectors clearly better than
    the star of weights ``W``: the star does not fit them as well as it
    (``_fits_as_well``, the slack by which graphs that fit alike are compared by
    sparsity)."""
    return not _fits_as_well(_residuals(basis, W), _residuals(basis, holder))
