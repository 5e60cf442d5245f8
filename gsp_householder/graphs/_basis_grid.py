"""The grid whose path factors a basis shows, when the graph returned is denser.

The grid $P_a \\square P_b$ has the eigenvectors $v_k \\otimes w_l$ (``_grid_twins``);
those with $l = 0$ are constant on each of the $a$ lines of $b$ nodes along one side,
those with $k = 0$ on each of the $b$ lines of $a$ nodes along the other, and the
value of $v_k$ on the lines runs through $a$ distinct values in the order of the
path relabelled by a DCT multiplier $k$ (for $k$ odd and coprime to $a$: the values
$\\cos(\\pi k (2j + 1) / 2a)$ are then distinct). Sorting such a column therefore
gives $a$ runs of $b$ nearly equal values, separated by gaps far above the noise
(``line_columns``), and the runs' order is a twin of the path. A column of each kind
whose lines cross in single nodes numbers the nodes $(x, y)$ of a grid that has the
eigenvectors of the basis (``basis_grids``, its fit to them checked by the caller).

Where the search returns a denser member of the grid's family (noisy eigenvectors:
``PyGSP Grid2d(9, 11)`` perturbed by 1e-3 gave 187 to 223 edges for 178, F1 0 to 0.12,
and ``grid_2d_graph(9, 17)`` 289 to 306 for 280, with the family dimension the only
flag), this grid and its DCT twins, the truth among them, join the candidates and the
answer is warned of. A square grid ($a = b$) repeats the eigenvalues of $v_k \\otimes
w_0$ and $v_0 \\otimes w_k$, whose basis may then be any rotation of them: its lines
are not read (none is found).

When $a$ divides $b$ every $v_k \\otimes w_0$ shares its eigenvalue with
$v_0 \\otimes w_{kb/a}$, and the basis may hold any rotation of the pair: no column is
constant on the $a$ lines (exact ``grid_2d_graph(20, 40)`` gave a denser member of 1578
edges for 1540, F1 0.001, with the family dimension the only flag). A column
$c_1 v_k \\otimes w_0 + c_2 v_0 \\otimes w_{kb/a}$ is then $c_1 v_k(x) + g(y)$: on each of the $b$
lines read from the other side it runs through the same $a$ values shifted by a
constant, whose order numbers the nodes along the line (``within_line_columns``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._angle_lines import angle_line_readings, ladder_sides
from gsp_householder.graphs._grid_twins import grid_coordinates, grid_twins, twin_residuals
from gsp_householder.graphs._laplacian_fit import _fits_as_well, _laplacian
from gsp_householder.graphs._template_lp import edge_key

#: Largest spread of a run of sorted values relative to the smallest gap between runs
#: for a column to be read as constant on lines (``line_columns``).
RUN_SPREAD = 0.25
#: Orders tried per pair of line counts (``basis_grids``): the columns of one side
#: beyond the first give other twins, or mix eigenvectors that share an eigenvalue.
MAX_ORDERS = 4
#: Least cosine between a column's line means and the partner path eigenvector for the
#: column to number the nodes along the lines of a grid whose sides divide
#: (``_shared_side_grids``; exact eigenvectors give 1).
PARTNER_COSINE = 0.99


def line_columns(S, m: int) -> np.ndarray:
    """Indices of the columns of ``S`` (each sorted, ``n`` rows, ``m`` dividing ``n``)
    that fall into ``m`` runs of ``n / m`` values, every run's spread below
    ``RUN_SPREAD`` times the smallest gap between consecutive runs.

    Examples
    --------
    >>> S = np.sort(np.array([[1.0, 0.1], [1.01, 0.4], [2.0, 0.2], [2.02, 0.3]]), axis=0)
    >>> line_columns(S, 2).tolist()
    [0]
    """
    n = S.shape[0]
    runs = S.reshape(m, n // m, S.shape[1])
    spread = (runs[:, -1] - runs[:, 0]).max(axis=0)
    gaps = (runs[1:, 0] - runs[:-1, -1]).min(axis=0)
    return np.flatnonzero((gaps > 0.0) & (spread < RUN_SPREAD * gaps))


def _lines(column, m: int) -> np.ndarray:
    """The run (0 to ``m - 1``) of every value of ``column`` in sorted order."""
    runs = np.empty(column.size, dtype=np.int64)
    runs[np.argsort(column, kind="stable")] = np.repeat(np.arange(m), column.size // m)
    return runs


def within_line_columns(V, y, m: int) -> np.ndarray:
    """Indices of the columns of ``V`` (``n`` rows) that take, on each of the ``m``
    lines ``y`` (the line of every node, ``n / m`` nodes each), the same values up to a
    constant shift: the sorted values of every line less their mean agree across lines
    within ``RUN_SPREAD`` times the smallest gap between consecutive values.

    Examples
    --------
    >>> V = np.array([[0.0, 1.0], [1.0, 1.0], [5.0, 2.0], [6.0, 2.0]])
    >>> within_line_columns(V, np.array([0, 0, 1, 1]), 2).tolist()
    [0]
    """
    order = np.argsort(y, kind="stable")
    runs = np.sort(V[order].reshape(m, V.shape[0] // m, V.shape[1]), axis=1)
    runs -= runs.mean(axis=1, keepdims=True)
    spread = (runs.max(axis=0) - runs.min(axis=0)).max(axis=0)
    gaps = np.diff(runs.mean(axis=0), axis=0).min(axis=0)
    return np.flatnonzero((gaps > 0.0) & (spread < RUN_SPREAD * gaps))


def _within_lines(column, y) -> np.ndarray:
    """The rank of every node's value of ``column`` among those of its line ``y``."""
    order = np.lexsort((column, y))
    ranks = np.empty(column.size, dtype=np.int64)
    ranks[order] = np.arange(column.size) - np.searchsorted(y[order], y[order])
    return ranks


def grid_weights(a: int, b: int, xy) -> sp.csr_array:
    """Unit weights of the grid $P_a \\square P_b$ on nodes at coordinates ``xy``
    (a bijection onto $\\{0..a-1\\} \\times \\{0..b-1\\}$)."""
    n = a * b
    where = np.empty(n, dtype=np.int64)
    where[xy[:, 0] * b + xy[:, 1]] = np.arange(n)
    grid = where.reshape(a, b)
    rows = np.concatenate([grid[:-1].ravel(), grid[:, :-1].ravel()])
    cols = np.concatenate([grid[1:].ravel(), grid[:, 1:].ravel()])
    upper = sp.coo_array((np.ones(rows.size), (rows, cols)), shape=(n, n))
    return sp.csr_array(upper + upper.T)


def basis_grids(V) -> Iterator[tuple[int, int, np.ndarray]]:
    """Candidate grids whose eigenvectors ``V`` (``n`` x ``n``, orthonormal columns)
    may be: ``(a, b, xy)`` for $a \\le b$, $ab = n$, $a \\ge 2$, ``xy`` the coordinates
    read from a column constant on $a$ lines (``line_columns``) and one constant on $b$
    lines crossing them in single nodes (up to ``MAX_ORDERS`` per $(a, b)$). A side
    whose lines no column shows is read from the angles of pairs of columns
    (``_angle_lines``), each distinct order tried; a ladder's sides ($a = 2$) are also
    read from its lines (``ladder_sides``). A generator: the caller keeps the first
    that fits the eigenvectors.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.convert_node_labels_to_integers(nx.grid_2d_graph(3, 5))
    >>> V = np.linalg.eigh(nx.laplacian_matrix(G).toarray().astype(float))[1]
    >>> a, b, xy = next(basis_grids(V))
    >>> (a, b), nx.is_isomorphic(nx.from_scipy_sparse_array(grid_weights(a, b, xy)), G)
    ((3, 5), True)
    """
    n = V.shape[0]
    S = np.sort(V, axis=0)
    for a in range(2, int(np.sqrt(n)) + 1):
        if n % a or a * a == n:
            continue
        b = n // a
        tried = 0
        across = [x for x, _ in _side_readings(V, S, a)]
        # (a ladder's sides may be read from its lines, ``ladder_sides``, with no column
        # across; a grid whose sides divide may have none either, ``_shared_side_grids``)
        for x in across or ([None] if a == 2 else []):
            seen = set()
            for y, angled in _side_readings(V, S, b):
                key = min(y.tobytes(), (b - 1 - y).tobytes())
                if key in seen:
                    continue
                seen.add(key)
                sides = [] if x is None else [x]
                if a == 2:
                    # (for $b$ even the ladder's eigenvalue 2 is $u_1 \otimes w_0$'s and
                    # $u_0 \otimes w_{b/2}$'s, which the basis may mix, and the column
                    # of two runs read may be $u_1 \otimes w_{b/2}$ instead: the sides
                    # are read from the lines)
                    sides.append(ladder_sides(V, y))
                found = False
                for side in sides:
                    if side is None or np.unique(side * b + y).size != n:
                        continue
                    found = True
                    tried += 1
                    yield a, b, np.column_stack([side, y])
                if found and not angled and a != 2:
                    # (an angle's cosine column may be $u_k \otimes w_l$, $k \ne 0$,
                    # whose lines cross these in other nodes, and so may a ladder's
                    # column $u_1 \otimes w_l$, $\pm w_l$ on its sides, whose runs
                    # pair $(0, j)$ with $(1, b - 1 - j)$ for $l$ odd: every order is
                    # tried)
                    break
            if tried >= MAX_ORDERS:
                break
        if b % a == 0:
            # the a lines' columns share their eigenvalues with the other side's: any
            # rotation of the pairs may be given, constant on no line or near one only
            yield from _shared_side_grids(V, a, b, line_columns(S, b))


def _shared_side_grids(V, a: int, b: int, along) -> Iterator[tuple[int, int, np.ndarray]]:
    """``basis_grids`` of a grid whose $a$ lines' columns share their eigenvalues with
    the other side's ($a$ divides $b$): up to ``MAX_ORDERS`` grids, each numbering the
    $b$ lines ``y`` by a column of ``along`` and the nodes of each line by a column that
    runs through the same values on every line (``within_line_columns``) and whose
    line means follow the partner $w_{b/a}$ of that numbering within ``PARTNER_COSINE``
    (the read grid's $v_1 \\otimes w_0$ and $v_0 \\otimes w_{b/a}$ share an eigenvalue:
    the column is then an eigenvector of the read grid)."""
    partner = np.cos(np.pi * (b // a) * (2 * np.arange(b) + 1) / (2 * b))
    partner /= np.linalg.norm(partner)
    tried = 0
    for j in along:
        y = _lines(V[:, j], b)
        for i in within_line_columns(V, y, b):
            means = np.bincount(y, V[:, i], b)
            if abs(means @ partner) < PARTNER_COSINE * np.linalg.norm(means):
                continue
            tried += 1
            yield a, b, np.column_stack([_within_lines(V[:, i], y), y])
            break
        if tried >= MAX_ORDERS:
            return


def _side_readings(V, S, m: int) -> Iterator[tuple[np.ndarray, bool]]:
    """The lines (0 to ``m - 1``) of every node read from the columns constant on ``m``
    lines (``line_columns``), or, when none is, from the angles of pairs of columns
    (``_angle_lines.angle_line_readings``: a long side whose sorted values the noise
    blurs), each with whether it was read from angles."""
    cols = line_columns(S, m)
    if cols.size:
        for i in cols:
            yield _lines(V[:, i], m), False
        return
    for lines in angle_line_readings(V, S, m):
        yield lines, True


def basis_grid_members(
    basis, W, candidates, noise: float = 0.0
) -> tuple[tuple[int, int], list[sp.csr_array]]:
    """The grid read from the basis (``basis_grids``: the first with fewer edges than
    the graph of weights ``W`` that fits the eigenvectors as well as ``W``,
    ``_fits_as_well`` of ``twin_residuals``) and its DCT twins (``grid_twins``), as
    Laplacians not among the ``candidates``, when ``W`` (the graph returned) is no
    grid or path; ``((a, b), [])`` with ``a = b = 0`` otherwise. Combinatorial
    Laplacians only (a grid's normalized Laplacian has other eigenvectors).

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
    tuple of ((int, int), list of scipy.sparse.csr_array)
        The grid's sides $(a, b)$ and the Laplacians, the grid's first.
    """
    W = sp.csr_array(W)
    edges = sp.triu(W, 1).nnz
    if basis["kind"] != "combinatorial" or grid_coordinates(W) is not None:
        return (0, 0), []
    reference = None
    for a, b, xy in basis_grids(basis["V"]):
        if edges <= 2 * a * b - a - b:
            continue
        reference = twin_residuals(basis, W) if reference is None else reference
        G = grid_weights(a, b, xy)
        if not _fits_as_well(twin_residuals(basis, G), reference):
            continue
        seen = {edge_key(sp.triu(L, 1)) for L in candidates}
        own = [] if edge_key(sp.triu(G, 1)) in seen else [_laplacian(G, basis)]
        return (a, b), own + grid_twins(basis, G, candidates, noise)
    return (0, 0), []
