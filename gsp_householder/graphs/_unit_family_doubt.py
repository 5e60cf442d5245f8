"""Doubt of a normalized answer whose family was not searched for equal-weight members.

Exact eigenvectors of a normalized Laplacian leave an affine family of normalized
Laplacians with them (``_unit_diagonal``); when the degrees $u_i^2$ are multiples of
one weight (``integer_degrees``) the family may hold graphs with equal weights, which
one integer program lists up to ``_unit_equal_weight.MAX_NODES`` nodes only (its cost
grows fast and unevenly: the 5 x 10 grid over 4 minutes). Above that size the
searches' graph is returned unchecked against them, and two answers are then doubtful:

- a graph with **unequal weights**: integer degrees are those of an unweighted graph,
  and the grids' families hold sparser weighted members that the searches find (the
  4 x 12 grid: 50 edges for 80; the 8 x 12 grid: 102 for 172; the 10 x 10 grid: the
  family's member of least $\\ell_1$ norm, 2284 for 180);
- a **grid** (equal weights): the grids whose families were listed (5 x 6, 6 x 6,
  6 x 7) hold an isomorphic twin with the same eigenvectors, and the searches return
  either (the 7 x 7 grid: the twin).

An unweighted graph that is not a grid, returned with equal weights (random geometric
graphs, trees, Davis southern women), is not doubted: its answers are right.

Noisy eigenvectors are never searched for equal-weight members, at any size. Their
degrees $u_i^2$ are integers to the noise only (``NOISY_DEGREE_ROUNDING``), and a
graph returned with weights unequal to the noise level (``_equal_within_noise``) from
a family of dimension above 1 is doubted alike (``noisy_family_doubt``): the 4 x 12
grid perturbed by 1e-3 (shuffle 1) was answered by a weighted member of 50 edges for 80
(F1 0.77) with the family dimension as the only flag.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._grid_twins import grid_coordinates
from gsp_householder.graphs._laplacian_fit import _equal_within_noise
from gsp_householder.graphs._template_lp import EQUAL_WEIGHTS_CV
from gsp_householder.graphs._unit_diagonal import UnitDiagonal
from gsp_householder.graphs._unit_equal_weight import MAX_NODES, integer_degrees


def unsearched_family_doubt(
    system: UnitDiagonal | None, u: np.ndarray, W: sp.sparray
) -> str | None:
    """Why the graph of weights ``W`` returned for exact normalized eigenvectors is
    doubtful, or None: ``"unequal weights"`` or ``"grid"`` (module docstring) when the
    unit-diagonal family ``system`` is exact, of dimension above 1, on more than
    ``MAX_NODES`` nodes, and its degrees $u_i^2$ are integers (``integer_degrees``).

    Parameters
    ----------
    system : UnitDiagonal or None
        The unit-diagonal system of the anchored basis (``unit_diagonal_system``).
    u : ndarray of shape (n,)
        The zero-eigenvalue vector (positive).
    W : sparse array of shape (n, n)
        The weights of the graph returned.

    Returns
    -------
    str or None
    """
    if (
        system is None
        or not system.exact
        or system.family_dimension < 2
        or u.size <= MAX_NODES
        or integer_degrees(u) is None
    ):
        return None
    weights = sp.triu(sp.csr_array(W), 1).data
    if weights.size == 0:
        return None
    if float(weights.std() / weights.mean()) > EQUAL_WEIGHTS_CV:
        return "unequal weights"
    grid = grid_coordinates(W)
    if grid is not None and grid[0] >= 2:
        return "grid"
    return None


#: Largest distance of the noisy degrees $m\,u_i^2 / \min u^2$ from integers for them to
#: be read as an unweighted graph's (``noisy_family_doubt``): measured at most 0.022 on
#: the 4 x 12 and 5 x 10 grids, 0.09 on RGG(60, 0.3), RGG(150, 0.15) and BA(80, 2) at
#: 1e-3 (0.07 to 0.26 at 3e-3); weighted degrees fall within it at a node with
#: probability 1/2, so at all of 20 nodes or more with at most 1e-6.
NOISY_DEGREE_ROUNDING = 0.25


def noisy_family_doubt(
    basis, u: np.ndarray, W: sp.sparray, noise: float, family_dimension: int
) -> str | None:
    """``"unequal weights"`` when the graph of weights ``W``, returned for noisy
    normalized eigenvectors at the noise level ``noise`` from a family of
    ``family_dimension`` above 1, has weights unequal to that level
    (``_equal_within_noise``) although the degrees $u_i^2$ are integers to
    ``NOISY_DEGREE_ROUNDING`` (``integer_degrees``); else None (module docstring).

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    u : ndarray of shape (n,)
        The zero-eigenvalue vector (positive).
    W : sparse array of shape (n, n)
        The weights of the graph returned.
    noise : float
        The noise level the graph was found at (positive).
    family_dimension : int
        The dimension of the family it was found in.

    Returns
    -------
    str or None
    """
    if (
        basis["kind"] != "normalized"
        or noise <= 0.0
        or family_dimension < 2
        or sp.triu(sp.csr_array(W), 1).nnz == 0
        or integer_degrees(u, NOISY_DEGREE_ROUNDING) is None
        or _equal_within_noise(basis, sp.csr_array(W), noise)
    ):
        return None
    return "unequal weights"
