"""Noisy normalized eigenvectors of an unweighted graph above ``NOISY_MAX_N`` nodes: the
near-null unit-diagonal family's graph read before the searches, when its degrees are
the basis's.

The near-null family of a perturbed normalized basis (module ``_noisy_unit_diagonal``)
is read after the searches up to ``NOISY_MAX_N`` nodes; above, the searches alone
answered, and on the normalized RGG(600, 0.08) (seed 73, 599 nodes, relative noise
1e-3) they were stopped at 300 CPU s, in the noisy ladder's max-margin programs. The
family's charged members read the graph there in seconds (dimension 35, gap 19.8).

The zero-eigenvalue vector $u$ of a normalized Laplacian gives the degrees,
$u_i^2 \\propto d_i$: for an unweighted graph they are integers to the noise
(``integer_degrees`` at ``NOISY_DEGREE_ROUNDING``). A graph read off the family
(edges above the largest ratio of its member's entries) whose number of edges at every
node is that integer degree agrees with $u$ on all $n$ nodes, which a wrong reading
(edges lost or added at some node) does not; such a graph is returned without the
searches. The members are the interior point method's (module ``_charged_member``),
charge by charge, the first graph whose degrees agree ending the reading; where its
vertex is not certified optimal, the vertex of its basis (a member all the same) is
read instead of solving the program by the simplex (23 to 78 CPU s per program at 599
to 800 nodes). When no charged member reads such a graph, the members that vanish on
random sets of pairs are read the same way (module ``_sampled_zeros``, as
``noisy_unit_diagonal_member`` falls back to them; families of at most
``MAX_FREE + 1`` dimensions): the normalized RGG(500, 0.12) (seed 13, family of 32
dimensions), whose charged members are dense at every charge (their top 5128 entries
12 to 19 % edges), is read by the fourth draw (gap 144). A graph read either way is
returned only when it also fits the noise its own non-edges show (``fits_own_noise``):
a graph with the basis's degrees but two edges moved leaves 12 to 16 times the
residual that noise predicts (the normalized RGG(330, 0.1)), the graph behind the
eigenvectors about once. Weighted graphs (no integer degrees), graphs whose degrees do not
agree, and bases above ``UNIT_DIAGONAL_MAX_N`` go to the searches as before; so do
the graphs whose twins (other graphs of the same degrees with the same eigenvectors)
are known: regular graphs (their degrees read as a cycle's), trees (twin trees of
sibling leaves) and grids and paths (DCT twins).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._charged_member import _interior_point
from gsp_householder.graphs._grid_twins import grid_coordinates
from gsp_householder.graphs._noisy_unit_diagonal import (
    NOISY_MAX_N,
    NoisyMember,
    _members,
    _read_member,
    _unit_diagonal_system,
    near_null_dimensions,
)
from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT
from gsp_householder.graphs._unit_diagonal import UNIT_DIAGONAL_MAX_N
from gsp_householder.graphs._unit_equal_weight import integer_degrees
from gsp_householder.graphs._unit_family_doubt import NOISY_DEGREE_ROUNDING

#: Largest $(k n)^2$ of a family read ($k$ its dimension): an interior point step costs
#: $O(k^2 n^2)$ (RGG(800, 0.07): $k = 43$, 1.2e9, 22 CPU s for the four charges; the
#: 17 x 19 grid's family, $k = 233$ at 323 nodes, 5.7e9, took minutes).
MAX_FAMILY_WORK = 2e9


def settled_noisy_member(V: np.ndarray, zero_column: int, u: np.ndarray) -> NoisyMember | None:
    """The graph of the near-null unit-diagonal family of the noisy basis ``V`` whose
    edges at every node number the integer degree that ``u`` gives (module docstring),
    for bases of more than ``NOISY_MAX_N`` and at most ``UNIT_DIAGONAL_MAX_N`` nodes;
    None otherwise.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal basis, its zero-eigenvalue column exactly ``u``.
    zero_column : int
        That column.
    u : ndarray of shape (n,)
        The zero-eigenvalue vector (positive).

    Returns
    -------
    NoisyMember or None
    """
    n = V.shape[0]
    if n <= NOISY_MAX_N or n > UNIT_DIAGONAL_MAX_N:
        return None
    degrees = integer_degrees(u, NOISY_DEGREE_ROUNDING)
    if degrees is None or degrees.min() == degrees.max() or degrees.sum() == 2 * (n - 1):
        # regular graphs (their degrees read as a cycle's) and trees (sibling leaves:
        # twin trees of the same degrees fit as well) are left to the searches
        return None
    Vf, Z, s, Wt = _unit_diagonal_system(V, zero_column)
    dimensions = [k for k in near_null_dimensions(s) if (k * n) ** 2 <= MAX_FAMILY_WORK]
    for sampled in (False, True):
        for k in dimensions:
            members = _members(Vf, Wt[n - k :], sampled=sampled, uncertified=_basis_vertex)
            for off in members:
                found = _read_member(Vf, Z, u, off)
                if found is not None and _settles(V, found[0], degrees):
                    return NoisyMember(found[0], k, found[1], sampled=sampled)
    return None


def _settles(V: np.ndarray, W, degrees: np.ndarray) -> bool:
    """Whether the graph of weights ``W`` read off the family has the integer
    ``degrees`` at every node, is no grid or path (their DCT twins have its degrees:
    left to the searches) and fits the noise its own non-edges show
    (``fits_own_noise``)."""
    counts = np.diff(sp.csr_array(W).indptr)
    return np.array_equal(counts, degrees) and grid_coordinates(W) is None and fits_own_noise(V, W)


def fits_own_noise(V: np.ndarray, W) -> bool:
    """Whether the normalized Laplacian of weights ``W`` leaves the basis ``V`` the
    residual that the noise its own non-edges show predicts (``_own_noise.own_noise``:
    the ratio within ``RESIDUAL_CONSISTENT``, as the trees read at their own noise are
    judged, ``_fitting_tree.tree_at_own_noise``).

    A graph with the basis's degrees but edges moved between its nodes leaves on the
    moved pairs the entries of the graph behind the eigenvectors, far above what its
    other non-edges show.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal basis.
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric non-negative weights of a connected graph.

    Returns
    -------
    bool
    """
    basis = {"V": V, "kind": "normalized", "scale": None}
    return own_noise(basis, W)[1] <= RESIDUAL_CONSISTENT


def _basis_vertex(N0, Y, charge):
    """The member's coordinates $x$ that make the entries of the $m$ pairs whose dual
    variables lie deepest inside $(0, 1)$ at the end of the interior point method
    vanish (``_charged_member``), or None when that solve fails."""
    try:
        a = _interior_point(N0, Y, charge)
        rows = np.argsort(-np.minimum(a, 1.0 - a), kind="stable")[: Y.shape[1]]
        x = np.linalg.solve(Y[rows], -N0[rows])
    except np.linalg.LinAlgError:
        return None
    return x if np.isfinite(x).all() else None
