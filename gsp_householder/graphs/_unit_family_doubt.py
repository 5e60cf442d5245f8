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

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._grid_twins import grid_coordinates
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
