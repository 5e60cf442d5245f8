"""Equal-weight members of the unit-diagonal family: integer degrees, one integer program.

The normalized Laplacians with exact eigenvectors $V$ are an affine family
(``_unit_diagonal``), and their graphs' weights $w_{ij} = -N_{ij} u_i u_j$ have the
degrees $u_i^2$ whatever the member ($u$ the zero-eigenvalue vector). A graph with
equal weights $c$ on its edges therefore has the integer degrees $d_i = u_i^2 / c$:
when the ratios $u_i^2 / \\min u^2$ are multiples of $1/m$ for a small integer $m$
(``integer_degrees``), the family may hold such a graph, and one mixed-integer program
(HiGHS) finds it: binary $x_{ij}$ equal to $w_{ij}(\\theta) / c$ on every pair, with
$\\theta$ the family's free coordinates (``equal_weight_unit_members``; each graph
found is cut off and the program solved again, to list the others).

The sparsest valid member need not be that graph: the normalized Laplacian of the 5 x 6
grid has a valid weighted member of 33 edges (weights 0.17 to 0.61) for the grid's 49
with the same eigenvectors, the 6 x 7 grid one of 46 for 71, and the member of least
$\\ell_1$ norm is denser still (138-156 and 341-349 edges, unequal weights). The
programs give the grid and one isomorphic twin with the same eigenvectors, and a third
proves that no other is left (5 x 6, 6 x 6 and 6 x 7 grids; 0.3 to 4 CPU s in all).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._unit_diagonal import UnitDiagonal, _member_entries

#: Largest $m$ tried for degrees $d_i = m\\,u_i^2 / \\min u^2$ (the smallest degree).
MAX_SMALLEST_DEGREE = 12
#: Distance of $m\\,u_i^2 / \\min u^2$ from an integer up to which it is read as one
#: (exact eigenvectors leave rounding; the weights found are checked by their fit).
DEGREE_ROUNDING = 1e-8
#: Slack of the program's equalities $x_{ij} = w_{ij}(\\theta) / c$ (weights of order
#: 1; exact eigenvectors leave rounding, the graph found is checked by its fit): at
#: 1e-7, HiGHS's feasibility tolerance, it called the 6 x 6 grid's program infeasible
#: (shuffle 1, the grid cut off after its twin was found).
MEMBER_SLACK = 1e-6
#: Most equal-weight members listed (each one more program; the 3 x 9 grid has more
#: than 2, the truth among them). A program that finds none proves it, which grows
#: fast with the pairs (the 6 x 7 grid's third program 3.4 CPU s, the 8 x 8 grid's over
#: 90 s; its first two 0.6 and 0.9 s): ``MAX_NODES``.
MAX_MEMBERS = 4
#: Branch-and-bound nodes per program (a bound on its work that does not depend on the
#: machine's load); a program stopped there ends the listing.
NODE_LIMIT = 2000
#: Most nodes for which the programs are built (their equalities are one per pair):
#: their cost grows fast and unevenly with them (the 6 x 7 grid, 42 nodes: 1-4 CPU s in
#: all; the 7 x 7 grid, 49: 3-11 s; the 5 x 10 grid, 50: over 4 minutes; the 8 x 8
#: grid's proof that no member is left over 90 s).
MAX_NODES = 42


def integer_degrees(u: np.ndarray, rounding: float = DEGREE_ROUNDING) -> np.ndarray | None:
    """The smallest integer degrees $d_i \\propto u_i^2$, or None.

    The degrees are $d_i = m\\,u_i^2 / \\min u^2$ for the smallest $m \\le$
    ``MAX_SMALLEST_DEGREE`` that makes every one an integer to ``rounding``,
    when none exceeds $n - 1$ (a simple graph's) and their sum is even and at least
    $2(n - 1)$ (a connected graph's: a regular graph's $m = 1$, a perfect matching, is
    passed over).

    Parameters
    ----------
    u : ndarray of shape (n,)
        The zero-eigenvalue vector of a normalized Laplacian (positive).
    rounding : float, optional
        Largest distance of a degree from its integer (default ``DEGREE_ROUNDING``:
        exact eigenvectors).

    Returns
    -------
    ndarray of int of shape (n,) or None
    """
    ratio = u**2 / float(np.min(u**2))
    n = u.size
    for m in range(1, MAX_SMALLEST_DEGREE + 1):
        d = m * ratio
        if m * ratio.max() > n - 1 + 0.5:
            return None
        rounded = np.round(d)
        if (
            np.abs(d - rounded).max() <= rounding
            and int(rounded.sum()) % 2 == 0
            and int(rounded.sum()) >= 2 * (n - 1)
        ):
            return rounded.astype(int)
    return None


def equal_weight_unit_members(
    V: np.ndarray, zero_column: int, system: UnitDiagonal, u: np.ndarray
) -> list[sp.csr_array]:
    """The connected graphs with equal weights whose normalized Laplacians are members of
    the unit-diagonal family of the exact eigenvectors ``V``, at most ``MAX_MEMBERS``,
    in the order the programs find them (empty when the degrees are not integers,
    ``integer_degrees``, the family is not formed, ``_member_entries``, or has more than
    ``MAX_NODES`` nodes). The caller checks that each fits ``V`` (its residual).

    Each program is the feasibility problem: $\\theta$ free and $x_{ij} \\in \\{0, 1\\}$
    with $x_{ij} = w_{ij}(\\theta) / c$ on every pair (to ``MEMBER_SLACK``),
    $c = \\min u^2 / \\min d$ (the degrees are then $d$); every graph found is cut off
    ($\\sum_{ij \\in E} x_{ij} \\le |E| - 1$) before the next program.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        The anchored basis.
    zero_column : int
        Its zero-eigenvalue column.
    system : UnitDiagonal
        Its unit-diagonal system (``unit_diagonal_system``).
    u : ndarray of shape (n,)
        The zero-eigenvalue vector (positive).

    Returns
    -------
    list of scipy.sparse.csr_array
        The graphs' weights (every weight 1).
    """
    n = V.shape[0]
    degrees = integer_degrees(u)
    if degrees is None or n > MAX_NODES:
        return []
    entries = _member_entries(V, zero_column, system)
    if entries is None:
        return []
    iu, ju, N0, Y = entries
    scale = float(np.min(u**2)) / float(degrees.min())
    uu = u[iu] * u[ju] / scale
    x0, Yx = -N0 * uu, -Y * uu[:, None]  # x = x0 + Yx theta
    P, k = Yx.shape
    # the degrees $\\sum_j x_{ij} = d_i$ hold on the family: as constraints of their
    # own they slow HiGHS down (the 6 x 7 grid: 0.2 s without, minutes with)
    rows = [sp.hstack([sp.csr_array(Yx), -sp.eye_array(P)])]
    lower, upper = [-x0 - MEMBER_SLACK], [-x0 + MEMBER_SLACK]
    integrality = np.r_[np.zeros(k), np.ones(P)]
    bounds = Bounds(np.r_[np.full(k, -np.inf), np.zeros(P)], np.r_[np.full(k, np.inf), np.ones(P)])
    found: list[sp.csr_array] = []
    for _ in range(MAX_MEMBERS):
        constraints = LinearConstraint(
            sp.vstack(rows).tocsr(), np.concatenate(lower), np.concatenate(upper)
        )
        res = milp(
            np.zeros(k + P),
            constraints=constraints,
            integrality=integrality,
            bounds=bounds,
            options={"node_limit": NODE_LIMIT},
        )
        if res.status != 0 or res.x is None:
            break
        edge = res.x[k:] > 0.5
        W = sp.csr_array(
            (np.ones(2 * int(edge.sum())), (np.r_[iu[edge], ju[edge]], np.r_[ju[edge], iu[edge]])),
            shape=(n, n),
        )
        if connected_components(W, directed=False)[0] == 1:
            found.append(W)
        cut = np.zeros(k + P)
        cut[k:][edge] = 1.0
        rows.append(sp.csr_array(cut[None, :]))
        lower.append(np.array([-np.inf]))
        upper.append(np.array([float(edge.sum()) - 1.0]))
    return found
