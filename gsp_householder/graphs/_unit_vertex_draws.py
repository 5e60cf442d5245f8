"""A sparser member of a normalized Laplacian's unit-diagonal family than its member of
least $\\ell_1$ norm: members zero on random sets of pairs.

Exact eigenvectors of a normalized Laplacian leave an affine family of normalized
Laplacians $N(\\theta) = N_0 + Y\\theta$ ($d$ free coordinates; module ``_unit_diagonal``)
when the unit diagonal does not fix the eigenvalues. Its member of least $\\ell_1$ norm is
the graph on the graphs that module measured, and
`laplacian_inference._unit_diagonal_settled` returns it without the searches when no
member can have equal weights. It is not the sparsest member in general: on a tree with
weights uniform on [1, 10] (``gnr_graph(30, 0.3, seed=2)``, eigenvalue 1 of multiplicity
8, a family of dimension 11) it has 202 edges while the tree, 29 edges, is a member, and
the programs reweighted from it stay at it (a vertex stays optimal for nearby
objectives). A sparse member is zero on most pairs, so $d$ pairs drawn at random are
often all among its zeros, and the member zero on them (a $d \\times d$ solve) is it.
A valid member sparser than the least-$\\ell_1$ one means that member is not settled:
the searches run, and the member drawn, when connected and fitting, takes the
least-$\\ell_1$ member's place beside them. A member with equal weights is settled
the same way when no draw gives another valid member with no more edges
(``equally_sparse_unit_member``): a twin drawn (a path's, a cycle's, a grid's) leaves it
to the searches.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._pair_geometry import upper_index
from gsp_householder.graphs._unit_diagonal import ZERO_ENTRY, UnitDiagonal, _member_entries

#: Random sets of pairs drawn.
DRAWS = 64
#: Seed of the draws (their own generator: the caller's is not used).
SEED = 0
#: A drawn member's entries, relative to its largest, up to which they are zero (exact
#: eigenvectors: the pairs solved for are zero to rounding, the other zeros of the same
#: member too).
ON_PAIR = 1e-9


def sparser_unit_member(
    V: np.ndarray, zero_column: int, system: UnitDiagonal, u: np.ndarray, edges: int
) -> tuple[int, sp.csr_array | None] | None:
    """The sparsest valid member of the unit-diagonal family with fewer than ``edges``
    edges among the members zero on ``DRAWS`` random sets of $d$ pairs: its number of
    edges and its weights (None when its graph is disconnected); None when no member
    drawn is valid and sparser.

    Parameters
    ----------
    V, zero_column : ndarray of shape (n, n), int
        The anchored basis and its zero-eigenvalue column.
    system : UnitDiagonal
        Their unit-diagonal system (``unit_diagonal_system``), exact, with a family.
    u : ndarray of shape (n,)
        The zero-eigenvalue vector (positive): the weights are $w_{ij} = -N_{ij} u_i u_j$.
    edges : int
        The edges of the member of least $\\ell_1$ norm (``unit_diagonal_member``).

    Returns
    -------
    tuple of (int, scipy.sparse.csr_array or None) or None

    Notes
    -----
    A member is valid when no off-diagonal entry is positive above ``ZERO_ENTRY`` times
    the largest; its edges are the entries below $-$``ON_PAIR`` times the largest. Its
    fit is the caller's to check.
    """
    entries = _member_entries(V, zero_column, system)
    if entries is None or not entries[3].shape[1]:
        return None
    iu, ju, _, _ = entries
    best, best_off = edges, None
    for off, count in _drawn_members(entries):
        if count < best:
            best, best_off = count, off
    if best_off is None:
        return None
    edge = best_off < -ON_PAIR * float(np.abs(best_off).max())
    i, j = iu[edge], ju[edge]
    w = -best_off[edge] * u[i] * u[j]
    W = sp.csr_array((np.r_[w, w], (np.r_[i, j], np.r_[j, i])), shape=(V.shape[0],) * 2)
    if connected_components(W, directed=False)[0] > 1:
        return best, None
    return best, W


def equally_sparse_unit_member(
    V: np.ndarray, zero_column: int, system: UnitDiagonal, W: sp.csr_array
) -> bool:
    """Whether a valid member of the unit-diagonal family other than the graph of
    weights ``W`` (a member, the one of least $\\ell_1$ norm) with no more edges is
    among the members zero on ``DRAWS`` random sets of $d$ pairs (a twin of it, or a
    sparser graph); True also when no member can be drawn (nothing is then known).

    Parameters
    ----------
    V, zero_column : ndarray of shape (n, n), int
        The anchored basis and its zero-eigenvalue column.
    system : UnitDiagonal
        Their unit-diagonal system (``unit_diagonal_system``), exact, with a family.
    W : scipy.sparse.csr_array of shape (n, n)
        The member's weights.

    Returns
    -------
    bool
    """
    entries = _member_entries(V, zero_column, system)
    if entries is None or not entries[3].shape[1]:
        return True
    iu = entries[0]
    n = V.shape[0]
    upper = sp.triu(W, 1).tocoo()
    own = np.zeros(iu.size, dtype=bool)
    own[upper_index(n, upper.row, upper.col)] = True
    edges = int(own.sum())
    drawn = False
    for off, count in _drawn_members(entries):
        drawn = True
        if count <= edges and not np.array_equal(off < -ON_PAIR * float(np.abs(off).max()), own):
            return True
    return not drawn


def _drawn_members(entries):
    """The valid members zero on ``DRAWS`` random sets of $d$ pairs of the family
    ``entries`` (``_member_entries``), each with its number of edges: ``(off, edges)``,
    ``off`` its upper off-diagonal entries (none when no more live pairs than $d$)."""
    _, _, N0, Y = entries
    d = Y.shape[1]
    # pairs that every member holds at zero (no edge of any) are not drawn
    norms = np.linalg.norm(Y, axis=1)
    live = np.flatnonzero(norms > ON_PAIR * norms.max())
    if live.size <= d:
        return
    rng = np.random.default_rng(SEED)
    for _ in range(DRAWS):
        rows = rng.choice(live, size=d, replace=False)
        theta, *_, sv = np.linalg.lstsq(Y[rows], -N0[rows], rcond=None)
        if sv.size < d or sv[-1] <= 1e-10 * sv[0]:
            continue
        off = N0 + Y @ theta
        top = float(np.abs(off).max())
        if top == 0.0 or off.max() > ZERO_ENTRY * top:
            continue
        yield off, int(np.count_nonzero(off < -ON_PAIR * top))
