"""A sparser graph with no edge of the graph found: the null space of its edges' rows.

Every Laplacian with the eigenvectors $V$ is $L = V \\operatorname{diag}(\\lambda) V^T$,
and its entry on the pair $(i, j)$ is $a_{ij} \\cdot \\lambda$ (the pair row). A graph
$H$ that leaves every edge of the graph found $F$ at zero has its eigenvalue vector in
the null space of $F$'s edge rows. With more rows than unknowns that null space is
empty for generic eigenvectors, so a (near-)null direction is structure, not chance:
the Laplacian of a triangle-free cubic graph $L$ and that of its distance-2 graph
$6L - L^2$ (the weights of $A^2$ off the diagonal) share the eigenvectors and no edge,
and the denser one fits noisy eigenvectors better. The Tutte graph (46 nodes, 69
edges, girth 4) perturbed by 1e-3 came back as its distance-2 graph (126 edges, F1
0.0, no warning) on every draw: the noisy rankings reach it first, and the
constant-diagonal family that holds both (``_regular_candidates``) shows no gap with
noise, since its repeated eigenvalues leave 8 or more exact directions.

``disjoint_member`` takes the direction of the edge rows of the graph found below a
gap of at least ``NOISY_GAP`` among their smallest singular values (one direction:
the graph is then determined up to scale), checks that it gives a valid connected
Laplacian with fewer edges, refits that graph's weights on its edges (``_support_fit``)
and keeps it when it fits the eigenvectors as well as the graph found
(``_fits_as_well``): the sparser valid graph is the one sought, and the graph found
stays among the candidates.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._laplacian_fit import _fits_as_well, _residuals
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._regular_candidates import _support_fit
from gsp_householder.graphs._regular_family import DEFAULT_FLOOR, NOISY_GAP, NOISY_LEVEL
from gsp_householder.graphs._support_search import CLEAN_FACTOR
from gsp_householder.graphs._template_lp import adjacency, valid_in_span, weight_cv
from gsp_householder.graphs._thresholds import FAMILY_SEARCH_MAX_N

#: The edge rows of the graph found must outnumber the unknowns by this factor: the
#: smallest singular value of a square set of generic rows is near zero, that of twice
#: as many rows is not, so a near-null direction is not chance.
ROW_EXCESS = 2


def _null_direction(R) -> tuple[np.ndarray, float] | None:
    """``(direction, level)``: the right singular vector of ``R`` of its smallest
    singular value and that value relative to the largest, when it lies below a gap of
    at least ``NOISY_GAP`` to the next and below ``NOISY_LEVEL``; else None.

    From the eigenpairs of $R^T R$ (a tenth of the SVD's time on 6000 rows): its
    eigenvalues are accurate to about $10^{-16}$ of the largest, so an exact null
    direction shows up at $10^{-8}$ relative in singular value, well below the gap.
    """
    if R.shape[0] < 2:
        return None
    mu, X = np.linalg.eigh(R.T @ R)
    s = np.sqrt(np.maximum(mu, 0.0))
    if s.size < 2 or s[-1] <= 0.0:
        return None
    level = float(s[0] / s[-1])
    if level > NOISY_LEVEL or s[0] * NOISY_GAP > s[1]:
        return None
    return X[:, 0], level


def disjoint_member(B: PairBasis, basis, found, noisy: bool):
    """A candidate item ``(n_edges, weight cv, lam, W)`` of a connected valid graph with
    fewer edges than ``found`` (a candidate item) and none of its edges, that fits the
    eigenvectors as well (``_fits_as_well``, its weights refitted on its edges); None
    if there is none in one direction, for other than combinatorial Laplacians, with
    the eigenvalue order, for grouped unknowns, above ``FAMILY_SEARCH_MAX_N`` nodes,
    when ``found`` has fewer than ``ROW_EXCESS`` times as many edges as unknowns, and
    when it holds more than half the pairs: the complement of a graph with equal
    weights is then the sparser graph with none of its edges, which
    ``_close_complement`` reports with a warning.

    ``noisy``: the eigenvectors are not exact; the edge threshold and the eigenvalue
    floor are then at the level of the direction's singular value.
    """
    n_edges, W = found[0], found[3]
    if (basis["kind"] != "combinatorial" or basis["ordered"] or B.G is not None
            or B.n > FAMILY_SEARCH_MAX_N or n_edges < ROW_EXCESS * B.g
            or 2 * n_edges > B.n_pairs):
        return None
    upper = sp.triu(W, 1).tocoo()
    null = _null_direction(B.rows(upper.row, upper.col))
    if null is None:
        return None
    direction, level = null
    tol, floor = np.full(B.n, 1e-9 * B.n), DEFAULT_FLOOR
    if noisy:
        tol = np.maximum(CLEAN_FACTOR * level * B.node_scale(B.equal_eigenvalues()), 5e-10)
        floor = max(floor, level)
    lam = direction if float(B.mult @ direction) > 0.0 else -direction
    ok, lam, _ = valid_in_span(B, lam[:, None], tol, floor, B.upper())
    if not ok:
        return None
    H = adjacency(B, lam, tol)
    edges = sp.triu(H, 1).nnz
    if not B.n - 1 <= edges < n_edges or connected_components(H, directed=False)[0] > 1:
        return None
    refit = _support_fit(basis, H)
    if refit is None or not _fits_as_well(_residuals(basis, refit[1]), _residuals(basis, W)):
        return None
    return edges, weight_cv(sp.triu(refit[1], 1).data), lam, refit[1]
