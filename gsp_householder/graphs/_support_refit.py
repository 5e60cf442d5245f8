"""A graph of exact eigenvectors fitted again on its own edges, from its non-edges' rows.

The projection of a linear-program vertex on the null space of its non-edges
(``_template_lp.polish``) reads that space off the Gram of the non-edges' pair rows,
which ``complement_gram`` forms by taking the edges' rows out of the Gram $M$ of all
pairs. Its entries carry the rounding of $M$, $\\epsilon \\lVert M \\rVert$, and the null
direction is off by that over the gap to the next direction. A star's leaves leave
nearly free directions: on PyGSP ``Comet(100, 20)`` (a star of 20 leaves on a path, an
eigenvalue of multiplicity 18) the Gram of the tree's non-edges has a null direction,
then 2.8e-5, with $\\operatorname{tr} M / g$ = 4.2e3, and the tree the exact searches
projected had weights equal to 3e-7 only and a residual of 9.6e-9, above
``ROUNDING_FIT``: taken for a misfit, it was replaced by a member of 767 edges.

The rows themselves hold the null direction to $\\epsilon \\lVert A \\rVert / \\sigma_1$
(singular values of the rows: the square roots of the Gram's), so the error is in the
Gram's few smallest directions: the null vector of the non-edges' rows restricted to
those directions and the graph's own vector (a singular value decomposition of a
few columns) is the graph fitted again, to rounding when its edges admit a graph of
the eigenvectors (the comet's tree: 6e-15).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian
from gsp_householder.graphs._pair_geometry import PairBasis, complement_gram, other_pairs
from gsp_householder.graphs._sparse_upper import upper_entries
from gsp_householder.graphs._template_lp import LP_ACCURACY, weight_cv

#: Smallest directions of the non-edges' Gram searched with the graph's own vector.
REFIT_DIRECTIONS = 8


def refitted_on_support(B: PairBasis, basis: dict, item) -> tuple[tuple, float] | None:
    """The candidate ``item`` (``(n_edges, weight_cv, lam, W)``, as ``rank_candidates``
    lists them) with its eigenvalues fitted again on its own edges (the null vector of
    its non-edges' pair rows within the ``REFIT_DIRECTIONS`` smallest directions of
    their Gram and its own vector), and that graph's residual (``_diagonal_fit``). Edges
    whose refitted weight is within ``LP_ACCURACY`` of zero, relative to the largest
    (as ``_template_lp.edge_pairs`` cuts edges), are dropped: the support may hold a
    sparser graph of the eigenvectors. None when an edge's weight is negative beyond
    that, or the graph left is not connected, or when its non-edges are fewer than the
    directions searched (a complete graph has none): their null vector is then not
    determined.

    Parameters
    ----------
    B : PairBasis
        The pair rows of the basis.
    basis : dict
        The basis read (``_basis_input``): its eigenvectors ``"V"``, kind and scale.
    item : tuple
        The candidate.

    Returns
    -------
    tuple or None
        ``(item, residual)``.
    """
    row, col, _ = upper_entries(item[3])
    if B.n_pairs - row.size <= REFIT_DIRECTIONS:
        return None
    _, Lam = complement_gram(B, row, col).null_directions(REFIT_DIRECTIONS)
    S = np.linalg.qr(np.column_stack([item[2], Lam]))[0]
    P = B.products(*other_pairs(B, row, col), S)
    refit = S @ np.linalg.svd(P, full_matrices=False)[2][-1]
    trace = float(B.mult @ refit)
    if trace == 0.0:
        return None
    refit *= B.n / trace
    u2 = B.u * B.u
    weights = -B.products(row, col, refit[:, None])[:, 0] * (u2[row] * u2[col])
    cut = LP_ACCURACY * weights.max()
    if weights.min() < -cut:
        return None
    keep = weights > cut
    row, col, weights = row[keep], col[keep], weights[keep]
    W = sp.csr_array(
        (
            np.concatenate([weights, weights]),
            (np.concatenate([row, col]), np.concatenate([col, row])),
        ),
        shape=item[3].shape,
    )
    if sp.csgraph.connected_components(W, directed=False)[0] > 1:
        return None
    _, residual = _diagonal_fit(basis["V"], _laplacian(W, basis))
    return (int(weights.size), weight_cv(weights), refit, W), residual
