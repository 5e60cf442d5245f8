"""Normalized Laplacians: the unit diagonal, n linear equations in the eigenvalues.

A normalized Laplacian $N = I - D^{-1/2} W D^{-1/2}$ with the eigenvectors $V$ (column
$c$ the zero-eigenvalue vector $u = D^{1/2}\\mathbf 1 / \\|\\cdot\\|$) is
$N = \\sum_{k \\ne c} \\lambda_k v_k v_k^T$ with $N_{ii} = 1$ on every node (the graph
connected): $Z\\lambda = \\mathbf 1$ with $Z = V_{\\setminus c} \\circ V_{\\setminus c}$,
$n$ equations that the combinatorial kind does not have. Conversely every $\\lambda$ with
$Z\\lambda = \\mathbf 1$ and $N_{ij} \\le 0$ off the diagonal is a normalized Laplacian
with these eigenvectors: $w_{ij} = -N_{ij} u_i u_j$ has degrees
$-u_i \\sum_{j \\ne i} N_{ij} u_j = u_i^2 N_{ii} = u_i^2$ (as $N u = 0$), so
$I - D^{-1/2} W D^{-1/2} = N$.

The homogeneous system $[Z, -\\mathbf 1]\\,(\\lambda, t) = 0$ ($n$ equations, $n$
unknowns) therefore has a null vector for exact eigenvectors of a normalized Laplacian,
and its smallest singular value, relative to the largest, is at rounding
(``UnitDiagonal.exact``); a perturbed basis leaves it at the noise level (1e-7 to 1e-4
of the largest for a relative error 1e-3, measured on karate, Florentine families,
BA, RGG, grids, trees, Les Misérables). When the null space is one vector
(``UnitDiagonal.family_dimension`` 1: karate, Florentine families, BA graphs) the
eigenvectors determine the eigenvalues, hence the graph, by this linear system alone.
Otherwise (graphs with the eigenvalue 1 repeated, from pendant nodes and twins, and
other structured spectra: RGG, grids, trees, Les Misérables, Davis southern women) the
normalized Laplacians with these eigenvectors are an affine family of that dimension
less one, and its member whose off-diagonal entries have the least $\\ell_1$ norm, one
linear program (``unit_diagonal_member``), is sparse: the graph itself on the RGG,
trees, Les Misérables and Davis southern women measured, not on grids (a denser member).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._pair_geometry import upper_index

#: Smallest singular value of $[Z, -\\mathbf 1]$, relative to the largest, at or below
#: which the unit diagonal holds to rounding: exact eigenvectors of normalized
#: Laplacians leave 1e-17 to 1e-15, a relative perturbation of 1e-3 leaves 5e-7 and more
#: (karate, Florentine families, BA, RGG, grids, trees, Les Misérables).
UNIT_DIAGONAL_ROUNDING = 1e-12
#: Largest basis whose system is solved (a dense singular value decomposition of an
#: $n \\times n$ matrix: 0.5 s at 1000 nodes).
UNIT_DIAGONAL_MAX_N = 1000
#: Off-diagonal entries of the solved $N$, relative to its largest, below which they are
#: read as zero (exact eigenvectors; the graph read is then checked by its residual).
ZERO_ENTRY = 1e-9
#: Entries of a program's vertex, relative to its largest, up to which it holds them at
#: zero (HiGHS's feasibility tolerance, 1e-7, relative to entries of order 1).
PROGRAM_ZERO = 1e-6
#: Largest $k n^2$ for a family of $k$ null vectors: the program's matrix holds
#: $(k - 1) n (n - 1) / 2$ entries (80 MB at most; 20 directions at 1000 nodes).
MAX_PROGRAM_ENTRIES = 20_000_000


@dataclass(frozen=True)
class UnitDiagonal:
    """The homogeneous unit-diagonal system of a basis.

    Attributes
    ----------
    misfit : float
        Its smallest singular value over its largest: how far the eigenvectors are from
        any normalized Laplacian's (rounding for exact ones).
    null : ndarray of shape (k, n)
        Its right singular vectors of singular values at most ``UNIT_DIAGONAL_ROUNDING``
        times the largest (the free columns' eigenvalues, then $t$): for exact
        eigenvectors, $k - 1$ is the dimension of the family of normalized Laplacians
        that have them.
    """

    misfit: float
    null: np.ndarray
    #: ``_member_entries`` of the basis the system was built from, formed once (the
    #: member and the zero pattern's dimension both read them: $k$ products of
    #: $n \times n$).
    entries: dict = field(default_factory=dict, compare=False, repr=False)

    @property
    def exact(self) -> bool:
        """Whether the eigenvectors are a normalized Laplacian's to rounding."""
        return self.misfit <= UNIT_DIAGONAL_ROUNDING

    @property
    def family_dimension(self) -> int:
        """Dimension of the family of normalized Laplacians with exact eigenvectors
        (1: the eigenvectors determine the eigenvalues)."""
        return max(self.null.shape[0], 1)


def unit_diagonal_system(V: np.ndarray, zero_column: int) -> UnitDiagonal | None:
    """The unit-diagonal system of the anchored basis ``V`` (column ``zero_column`` the
    zero-eigenvalue vector), None above ``UNIT_DIAGONAL_MAX_N`` nodes.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal basis, its zero-eigenvalue column exactly $u$.
    zero_column : int
        That column.

    Returns
    -------
    UnitDiagonal or None
    """
    n = V.shape[0]
    if n > UNIT_DIAGONAL_MAX_N or n < 3:
        return None
    free = np.delete(np.arange(n), zero_column)
    A = np.empty((n, n))
    np.multiply(V[:, free], V[:, free], out=A[:, :-1])
    A[:, -1] = -1.0
    _, s, Wt = np.linalg.svd(A)
    return UnitDiagonal(float(s[-1] / s[0]), Wt[s <= UNIT_DIAGONAL_ROUNDING * s[0]])


def unit_diagonal_member(V: np.ndarray, zero_column: int, system: UnitDiagonal,
                         u: np.ndarray) -> sp.csr_array | None:
    """The weights of the normalized Laplacian with the exact eigenvectors ``V`` whose
    off-diagonal entries have the smallest sum of magnitudes (an $\\ell_1$ program over
    the family ``system.null``; the only one when the family has dimension 1), or None.

    The members are $N(\\theta) = N_0 + \\sum_m \\theta_m Y_m$: $N_0$ the member of the
    null vector with the largest $|t|$ scaled to $t = 1$, $Y_m$ those of the null
    directions with $t = 0$. The linear program maximises $\\sum_{i<j} N_{ij}(\\theta)$
    subject to $N_{ij}(\\theta) \\le 0$ (HiGHS); its vertex is polished by solving the
    entries it holds at zero exactly (least squares). The weights are
    $w_{ij} = -N_{ij} u_i u_j$ for the entries below $-$``ZERO_ENTRY`` times the largest.
    None when the eigenvectors are not exact, the family has more than
    ``MAX_PROGRAM_ENTRIES`` entries, the program fails, a positive off-diagonal entry is
    left above that level, or the graph is disconnected. The caller checks that the
    graph fits ``V`` (its residual).

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
    scipy.sparse.csr_array or None
    """
    entries = _member_entries(V, zero_column, system)
    if entries is None:
        return None
    iu, ju, N0, Y = entries
    n = V.shape[0]
    if Y.shape[1]:
        res = linprog(-Y.sum(axis=0), A_ub=Y, b_ub=-N0,
                      bounds=[(None, None)] * Y.shape[1], method="highs")
        if res.status != 0:
            return None
        off = N0 + Y @ res.x
        zero = off > -PROGRAM_ZERO * np.abs(off).max()
        theta = np.linalg.lstsq(Y[zero], -N0[zero], rcond=None)[0]
        off = N0 + Y @ theta
    else:
        off = N0
    level = ZERO_ENTRY * float(np.abs(off).max())
    if off.max() > level:
        return None
    edge = off < -level
    i, j = iu[edge], ju[edge]
    w = -off[edge] * u[i] * u[j]
    W = sp.csr_array((np.r_[w, w], (np.r_[i, j], np.r_[j, i])), shape=(n, n))
    if W.nnz == 0 or connected_components(W, directed=False)[0] > 1:
        return None
    return W


def _member_entries(V, zero_column, system):
    """The upper off-diagonal entries of the family's members, ``(iu, ju, N0, Y)``:
    $N(\\theta)_{ij} = N_0 + Y\\theta$ on the pairs ``(iu, ju)``, $N_0$ the member of the
    null vector with the largest $|t|$ scaled to $t = 1$, the columns of $Y$ those of an
    orthonormal basis of the null directions with $t = 0$; None when the eigenvectors
    are not exact, the family has more than ``MAX_PROGRAM_ENTRIES`` entries, or no null
    vector has $t \\ne 0$ (no member has a unit diagonal)."""
    if "members" not in system.entries:
        system.entries["members"] = _formed_member_entries(V, zero_column, system)
    return system.entries["members"]


def _formed_member_entries(V, zero_column, system):
    """``_member_entries``, formed (``V`` the basis ``system`` was built from)."""
    null = system.null
    if (not system.exact or null.shape[0] == 0
            or null.shape[0] * V.shape[0] ** 2 > MAX_PROGRAM_ENTRIES):
        return None
    k = int(np.argmax(np.abs(null[:, -1])))
    if abs(null[k, -1]) <= UNIT_DIAGONAL_ROUNDING:
        return None
    base = null[k] / null[k, -1]
    directions = np.delete(null - np.outer(null[:, -1], base), k, axis=0)[:, :-1]
    Vf = np.delete(V, zero_column, axis=1)
    iu, ju = np.triu_indices(V.shape[0], 1)
    N0 = ((Vf * base[:-1]) @ Vf.T)[iu, ju]
    Y = np.empty((iu.size, directions.shape[0]))
    if directions.shape[0]:
        Q = np.linalg.qr(directions.T)[0]
        for m, q in enumerate(Q.T):
            Y[:, m] = ((Vf * q) @ Vf.T)[iu, ju]
    return iu, ju, N0, Y


def unit_diagonal_pattern_dimension(V: np.ndarray, zero_column: int,
                                    system: UnitDiagonal | None, W) -> int | None:
    """The dimension of the family of normalized Laplacians with the exact eigenvectors
    ``V`` that vanish on the pairs the graph of weights ``W`` leaves at zero (1: its zero
    pattern determines it among them), or None when the system is not exact or too
    large (``MAX_PROGRAM_ENTRIES``).

    The family of Laplacians of any kind that vanish there (``_result_checks.
    _undetermined_support``) also holds matrices without a unit diagonal, which are no
    normalized Laplacians: exact shuffled eigenvectors of
    ``random_geometric_graph(60, 0.3, seed=1)``, normalized, give the graph with 3 such
    directions, and 1 here.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        The anchored basis.
    zero_column : int
        Its zero-eigenvalue column.
    system : UnitDiagonal or None
        Its unit-diagonal system.
    W : sparse array of shape (n, n)
        The graph's weights.

    Returns
    -------
    int or None
    """
    entries = None if system is None else _member_entries(V, zero_column, system)
    if entries is None:
        return None
    iu, _, _, Y = entries
    n = V.shape[0]
    upper = sp.triu(W, 1).tocoo()
    edge = np.zeros(iu.size, dtype=bool)
    edge[upper_index(n, upper.row, upper.col)] = True
    if not Y.shape[1]:
        return 1
    rank = np.linalg.matrix_rank(Y[~edge]) if (~edge).any() else 0
    return 1 + Y.shape[1] - int(rank)


#: Entries of the history set by the checks that already say that the graph returned
#: does not fit the eigenvectors or is not the graph sought (each with its warning).
ALREADY_WARNED = ("complete_graph_found", "column_halves_graph", "unranked_residual",
                  "exact_misfit", "exact_search_misfit", "unresolvable")


def unit_diagonal_misfit(system: UnitDiagonal | None, residual: float, edges: int,
                         n_pairs: int, history: dict, fits_exactly: float) -> bool:
    """Whether the graph returned (``edges`` of ``n_pairs`` pairs, residual ``residual``)
    is not a normalized Laplacian of eigenvectors that are a normalized Laplacian's to
    rounding (``system.exact``): every graph that has them fits them to rounding, so a
    residual above ``fits_exactly`` says that the graph is not the graph sought, whatever
    noise level the searches took (``history["noise"]``; with few pairs per unknown every
    ranking fits exact and noisy eigenvectors alike, and the misfit checks that tell them
    apart by the rankings stay silent: the Florentine families, shuffle seed 2, 43 edges
    for 20 at a residual of 0.15). Not asked when another check already said so
    (``ALREADY_WARNED``) or for the complete graph; then ``history
    ["unit_diagonal_misfit"]`` holds the residual and the system's misfit.

    Parameters
    ----------
    system : UnitDiagonal or None
        The basis's unit-diagonal system (``unit_diagonal_system``).
    residual : float
        The graph's residual (``_diagonal_fit``).
    edges, n_pairs : int
        Edges of the graph and pairs of nodes.
    history : dict
        The searches' history.
    fits_exactly : float
        Residual up to which a graph fits exact eigenvectors.

    Returns
    -------
    bool
    """
    if (system is None or not system.exact or residual <= fits_exactly
            or edges >= n_pairs or any(key in history for key in ALREADY_WARNED)):
        return False
    history["unit_diagonal_misfit"] = (float(residual), system.misfit)
    return True
