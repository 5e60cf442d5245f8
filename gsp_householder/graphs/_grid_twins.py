"""Grids and paths that share their eigenvectors with a relabelled copy of themselves.

The path $P_s$ on nodes $0, \\dots, s - 1$ has the eigenvectors
$v_k(j) = \\cos(\\pi k (2j + 1) / 2s)$ (the DCT-II basis). For an odd $q$ coprime to $s$
the map $t \\mapsto q t$ permutes the odd residues modulo $4s$, and with
$\\cos(\\pi k t / 2s)$ even and $4s$-periodic in $t$ it relabels the nodes,
$2j + 1 \\mapsto \\pm q (2j + 1) \\bmod 4s$, so that every $v_k$ becomes $\\pm v_{qk}$
(indices read the same way; $qk \\equiv s$ is impossible for $0 < k < s$). The path
relabelled so (another path, the "DCT twin") has the eigenvectors of the first. Unless
$q \\equiv \\pm 1 \\pmod{2s}$ (the identity and the reversal) its edges differ: every path
of $s \\ge 4$ nodes has such a twin (the smallest odd $q \\ge 3$ coprime to $s$; checked
for $s = 4, \\dots, 11$: the two Laplacians commute). The grid $P_a \\square P_b$ has the
products $v_k \\otimes w_l$ as eigenvectors, and relabelling either factor (or both)
maps them to products again; where eigenvalues repeat, the basis of an eigenspace may be
another, and the twin's fit decides. A grid or a path is then not determined by its
eigenvectors: the inference may return a twin (F1 0 against the truth, with as many
edges) and must say that the answer is one of several.

Measured before this module: ``nx.grid_2d_graph(8, 9)`` learned from its signals
($\\theta = 0.1$, $p = 5n$, basis exact to 5e-13) was returned as a twin (127 edges, F1
0.0, family dimension 16) with no warning; the 5 x 5 grid's exact shuffled eigenvectors
likewise (F1 0.0, 40 edges, no warning).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from itertools import product
from math import gcd

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components, shortest_path

from gsp_householder.graphs._laplacian_fit import _fits_as_well, _laplacian, equal_at_level
from gsp_householder.graphs._template_lp import edge_key, laplacian_edge_key
from gsp_householder.graphs._thresholds import ROUNDING_FIT

#: Smallest factor that has a DCT twin (paths of 4 and 5 nodes have one, 3 has none).
MIN_FACTOR = 4


def dct_relabelling(s: int, q: int) -> np.ndarray:
    """The permutation $j \\mapsto j'$ of the nodes $0, \\dots, s - 1$ of a path with
    $2j' + 1 \\equiv \\pm q (2j + 1) \\pmod{4s}$ (``q`` odd and coprime to ``s``).

    Examples
    --------
    >>> dct_relabelling(5, 3).tolist()
    [1, 4, 2, 0, 3]
    """
    t = (q * (2 * np.arange(s) + 1)) % (4 * s)
    t = np.where(t > 2 * s, 4 * s - t, t)
    return (t - 1) // 2


def multipliers(s: int) -> list[int]:
    """Every odd multiplier $3 \\le q < s$ coprime to ``s``: each gives a path's twin,
    $q$ and $2s - q$ the same one up to the reversal.

    The odd residues modulo $2s$ coprime to $s$, taken up to sign, form a group under
    multiplication, and relabelling by $q$ then $q'$ is relabelling by $qq'$: these
    multipliers (with the identity) are all of it, so the twins of a twin hold the path
    it came from. Trying only the first few left the truth out of the candidates when
    the twin returned came from a larger one (the 25 x 40 grid, exact: 3 per side).

    Examples
    --------
    >>> multipliers(10)
    [3, 7, 9]
    """
    if s < MIN_FACTOR:
        return []
    return [q for q in range(3, s, 2) if gcd(q, s) == 1]


def twin_residuals(basis, W) -> list[float]:
    """The residual and rotation residual of the Laplacian of weights ``W``
    (``_laplacian_fit._residuals``), floored at ``ROUNDING_FIT`` as
    ``_equal_sparsity._floored_residuals`` are, with the off-diagonal part of
    $V^T L V$ read as $\\|LV - V \\mathrm{diag}(\\lambda)\\|_F$ ($V$ orthogonal):
    $O(\\mathrm{nnz}(L)\\, n)$ at any fit, where the difference of squared norms
    loses its digits at rounding and forms an $n \\times n$ product instead (a second
    per twin at 1000 nodes, and the 25 x 40 grid has 159 twins)."""
    V = basis["V"]
    L = _laplacian(W, basis)
    LV = np.asarray(L @ V)
    lam = np.einsum("ij,ij->j", V, LV)
    off = float(np.linalg.norm(LV - V * lam))
    nl = float(sp.linalg.norm(L))
    spread = float(np.sqrt(lam.size * np.sum((lam - lam.mean()) ** 2)))
    return [max(off / nl if nl > 0 else 0.0, ROUNDING_FIT),
            max(off / spread if spread > 0 else np.inf, ROUNDING_FIT)]


def grid_coordinates(W) -> tuple[int, int, np.ndarray] | None:
    """``(a, b, xy)`` when the graph of weights ``W`` is the grid $P_a \\square P_b$
    ($a \\le b$; $a = 1$ a path), ``xy[i]`` the coordinates of node ``i``; else None.

    A path is read from one of its two ends. A grid of $a, b \\ge 2$ has four corners
    (degree 2); from a corner $c_0$ and the nearest other corner $c_1$ (at distance
    $a - 1$), a node at distances $d_0, d_1$ sits at
    $x = (d_0 - d_1 + a - 1)/2$, $y = (d_0 + d_1 - a + 1)/2$; the coordinates are
    then checked to be a bijection onto the grid whose edges are the graph's.
    """
    W = sp.csr_array(W)
    n = W.shape[0]
    degree = np.diff(W.indptr)
    edges = W.nnz // 2
    if n < MIN_FACTOR or connected_components(W, directed=False)[0] != 1:
        return None
    if edges == n - 1 and np.count_nonzero(degree == 1) == 2 and degree.max() == 2:
        d = shortest_path(W, unweighted=True, indices=int(np.flatnonzero(degree == 1)[0]))
        return 1, n, np.column_stack([np.zeros(n, dtype=np.int64), d.astype(np.int64)])
    corners = np.flatnonzero(degree == 2)
    if corners.size != 4 or degree.max() > 4:
        return None
    d = shortest_path(W, unweighted=True, indices=corners[:1])[0]
    c1 = corners[1:][np.argmin(d[corners[1:]])]
    a = int(d[c1]) + 1
    if a < 2 or n % a:
        return None
    b = n // a
    if edges != 2 * a * b - a - b:
        return None
    d1 = shortest_path(W, unweighted=True, indices=[int(c1)])[0]
    twice_x, twice_y = d - d1 + a - 1, d + d1 - a + 1
    if np.any(twice_x % 2) or np.any(twice_y % 2):
        return None
    xy = np.column_stack([twice_x // 2, twice_y // 2]).astype(np.int64)
    if (xy.min() < 0 or xy[:, 0].max() >= a or xy[:, 1].max() >= b
            or np.unique(xy[:, 0] * b + xy[:, 1]).size != n):
        return None
    upper = sp.triu(W, 1).tocoo()
    if np.any(np.abs(xy[upper.row] - xy[upper.col]).sum(axis=1) != 1):
        return None
    return a, b, xy


def relabelled_source(basis, W, noise: float):
    """The weights whose relabellings are a lattice's twins, and the residuals a twin
    must fit as well as (``twin_residuals`` of ``W``): ``W`` itself when its weights
    are equal (exact, coefficient of variation below ``EQUAL_WEIGHTS_CV``; noisy,
    equal to the noise level ``noise``), else the same edges with equal weights if
    they fit as well as ``W`` (a weighted member of the family on the lattice's
    edges), else None.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph returned, with at least one edge.
    noise : float
        The noise level the graph was found at; 0 for exact eigenvectors.

    Returns
    -------
    tuple of (scipy.sparse.csr_array, residuals) or None
    """
    reference = twin_residuals(basis, W)
    if equal_at_level(basis, W, noise):
        return W, reference
    W = sp.csr_array(W.astype(bool).astype(float))
    if not _fits_as_well(twin_residuals(basis, W), reference):
        return None
    return W, reference


def checkerboard_reflections(a: int, b: int, xy: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
    """The grid positions of the nodes of the $a \\times b$ grid at ``xy`` after its
    checkerboard reflections: the nodes of odd $x + y$ mirrored across the first axis
    ($x \\mapsto a - 1 - x$, when $a$ is odd), the second ($b$ odd) or both
    ($a + b$ even), the others in place (each map keeps the parity of $x + y$, and is
    then a bijection).

    The normalized Laplacian of the grid shares its eigenvectors with the grid so
    relabelled (an isomorphic twin, not a DCT one): the integer programs of
    ``_unit_equal_weight`` list exactly the grid and that twin (5 x 6, 4 x 5, 4 x 6,
    6 x 6 grids), and its fit was checked on the 3 x 9, 3 x 20, 4 x 7, 4 x 12, 5 x 13,
    6 x 7, 6 x 11, 7 x 7, 8 x 12, 9 x 9, 10 x 10 and 11 x 11 grids (to 2e-12; on the
    squares by the mirror across both axes only).

    Parameters
    ----------
    a, b : int
        The grid's sides.
    xy : ndarray of int of shape (a * b, 2)
        The nodes' positions (``grid_coordinates``).

    Returns
    -------
    list of (ndarray, ndarray)
        The new first and second coordinates of every node, one pair per reflection.
    """
    odd = (xy[:, 0] + xy[:, 1]) % 2 == 1
    out = []
    for axes in ((0,), (1,), (0, 1)):
        if sum((a, b)[k] - 1 for k in axes) % 2:
            continue
        moved = xy.copy()
        for k in axes:
            moved[odd, k] = (a, b)[k] - 1 - xy[odd, k]
        out.append((moved[:, 0], moved[:, 1]))
    return out


def grid_twins(basis, W, candidates, noise: float = 0.0) -> list[sp.csr_array]:
    """Laplacians of the grid or path of weights ``W`` (the graph returned, with equal
    weights: exact, coefficient of variation below ``EQUAL_WEIGHTS_CV``; noisy, equal to
    the noise level ``noise``; otherwise the same edges with equal weights, if they fit
    the eigenvectors as well as ``W``) relabelled by DCT multipliers of its factors
    (``dct_relabelling``: each factor's identity or one of its ``multipliers``, not all
    identities) that fit the eigenvectors as well (``_fits_as_well`` of
    ``twin_residuals``) and whose edges are neither ``W``'s nor those of one of the
    Laplacians ``candidates``; empty when ``W`` is no grid or path.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph returned.
    candidates : list of scipy.sparse.csr_array
        The Laplacians already among the result's candidates.
    noise : float
        The noise level the graph was found at; 0 for exact eigenvectors.

    Returns
    -------
    list of scipy.sparse.csr_array
    """
    W = sp.csr_array(W)
    weights = sp.triu(W, 1).data
    grid = grid_coordinates(W) if weights.size else None
    if grid is None:
        return []
    source = relabelled_source(basis, W, noise)
    if source is None:
        return []
    W, reference = source
    a, b, xy = grid
    maps_a = [None, *multipliers(a)]
    maps_b = [None, *multipliers(b)]
    seen = known_edges(candidates, W)
    coo = W.tocoo()
    where = np.empty(a * b, dtype=np.int64)        # the node at each grid position
    where[xy[:, 0] * b + xy[:, 1]] = np.arange(a * b)
    positions = [
        (xy[:, 0] if qa is None else dct_relabelling(a, qa)[xy[:, 0]],
         xy[:, 1] if qb is None else dct_relabelling(b, qb)[xy[:, 1]])
        for qa, qb in product(maps_a, maps_b) if qa is not None or qb is not None]
    if basis["kind"] == "normalized" and a >= 2:
        positions += checkerboard_reflections(a, b, xy)
    perms = (where[x * b + y] for x, y in positions)   # node i takes the place of (x, y)
    relabelled = (sp.csr_array(sp.coo_array((coo.data, (perm[coo.row], perm[coo.col])),
                                            shape=W.shape))
                  for perm in perms)
    return fitting_twins(basis, relabelled, reference, seen)


def known_edges(candidates, W) -> set[bytes]:
    """The edge keys (``edge_key``) a twin of the graph of weights ``W`` is not listed
    with: those of ``W`` and of the Laplacians ``candidates``."""
    return {laplacian_edge_key(L) for L in candidates} | {edge_key(sp.triu(W, 1))}


def fitting_twins(basis, relabelled, reference, seen: set) -> list[sp.csr_array]:
    """Laplacians of the weights in ``relabelled`` (an iterable of relabellings of a
    lattice) whose edges are not in ``seen`` (edge keys, updated) and that fit the
    eigenvectors as well as ``reference`` (``_fits_as_well`` of ``twin_residuals``)."""
    twins = []
    for A in relabelled:
        key = edge_key(sp.triu(A, 1))
        if key in seen:
            continue
        seen.add(key)
        if _fits_as_well(twin_residuals(basis, A), reference):
            twins.append(_laplacian(A, basis))
    return twins


def split_listed(fitting, candidates) -> tuple[list[sp.csr_array], list[int]]:
    """The twins ``fitting`` (Laplacians) that are not among the Laplacians
    ``candidates``, and the indices of the candidates that are (by edge set): a search
    can list a twin without a warning."""
    listed = {laplacian_edge_key(L): k for k, L in enumerate(candidates)}
    keys = [laplacian_edge_key(L) for L in fitting]
    twins = [L for L, key in zip(fitting, keys, strict=True) if key not in listed]
    return twins, [listed[key] for key in keys if key in listed]
