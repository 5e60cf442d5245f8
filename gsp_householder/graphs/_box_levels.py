"""A box product read off a member of its family: off a weighted graph whose weight
levels are its factors' copies, or off the eigenspaces of an equal-weight graph.

The box product $G \\square H$ on nodes $(g, h)$ has the Laplacian
$L_G \\otimes I + I \\otimes L_H$, and each term alone has its eigenvectors: every
valid Laplacian that is a function of the two (a sum $f(L_G) \\otimes I + I \\otimes
k(L_H)$, a tensor product $A_G \\otimes A_H$, ...) is a member of the family of valid
graphs the eigenvectors hold. A noisy search can end at such a member:

- one factor's copies at one weight and a weighted, denser member of the other's family
  (or copies weighted differently). One weight level is then the graph $I \\otimes H$
  (or $G \\otimes I$): disconnected into copies of one factor, each meeting every
  component of the rest of the graph once (``box_from_levels``);
- an equal-weight graph such as $A_G \\otimes A_{H'}$, whose own eigenspaces
  $u \\otimes \\mathbf 1$ and $\\mathbf 1 \\otimes w$ give the factors' copies as the
  classes of equal rows (``box_from_partitions``).

``frucht_graph()`` boxed with a 5-cycle perturbed by 1e-3 (``tests/_basis_inputs.py``:
``perturbed`` draw 10, ``shuffled`` seed 17) was answered by 305 edges (F1 0.571) with
the family flag only: the twelve 5-cycles at one weight, and on each of the five copies
of the Frucht graph a weighted graph of 49 edges of its family; draws 1 and 12 by 162
edges (F1 0.808): the Frucht graph's copies at one weight, a weighted circulant on each
5-cycle; draw 8 by the tensor product of the Frucht graph and the pentagram (180 edges,
equal weights, F1 0.0). The truth is sparser and fits the eigenvectors as well.

Each factor is inferred on its own from the columns that are constant on the other's
copies ($u \\otimes \\mathbf 1$ gives $u$: ``quotient_basis``); the box product of the
factors, with equal weights, is returned when it has fewer edges than the graph found
and fits the eigenvectors as well (``_equal_graph_fits``, the test a sparser rival
meets). A level's own copies are not taken as its factor when they are complete
graphs or when the factor read across the rest is sparser (``_level_factors``: the
copies can be a regular factor's complement, which has its eigenvectors), and levels
spread over both factors are grouped by the copies they lie in (``level_sides``).
``random_regular_graph(3, 16, seed=3)`` boxed with a 5-cycle, draw 0, was answered by
$K_{16} \\square K_5$ at two weights (760 edges, no warning), draw 1 by the box product
of the factor's complement (560 edges, F1 0.0); ``random_regular_graph(3, 18, seed=4)``,
draw 2, by 774 edges in eleven levels, none a factor's copies alone.

No new constant: the levels are split at the noise level of the weights
(``_equal_within_noise``'s standardisation, at one noise unit), classes of equal rows
are read at ``_box_twins.SAME_VALUE`` and the size limit is ``_box_twins.MAX_NODES``.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._box_twins import MAX_NODES, SAME_VALUE
from gsp_householder.graphs._laplacian_fit import (
    _equal_graph_fits,
    _fits_as_well,
    _laplacian,
    _residuals,
    entry_scales,
)


def weight_levels(L: sp.csr_array, noise: float) -> list[tuple[np.ndarray, np.ndarray]]:
    """The edges of the Laplacian ``L`` (upper triangle) grouped by weight: sorted by
    weight and split wherever two consecutive weights differ by more than ``noise``
    times $s_i + s_j$ of either edge, $s_i^2 = (L^2)_{ii}$ (the standardisation of
    ``_laplacian_fit._equal_within_noise``). Each level is ``(rows, cols)``, lightest
    first.

    >>> L = sp.csr_array(np.array([[2.0, -1.0, -1.0], [-1.0, 1.0, 0.0],
    ...                            [-1.0, 0.0, 1.0]]))
    >>> [r.tolist() for r, _ in weight_levels(L, 1e-3)]
    [[0, 0]]
    """
    U = sp.triu(L, 1).tocoo()
    keep = U.data < 0
    rows, cols, weights = U.row[keep], U.col[keep], -U.data[keep]
    s = entry_scales(L)
    band = noise * (s[rows] + s[cols])
    order = np.argsort(weights, kind="stable")
    gaps = np.diff(weights[order]) > np.maximum(band[order][:-1], band[order][1:])
    splits = np.flatnonzero(gaps) + 1
    return [(rows[part], cols[part]) for part in np.split(order, splits)]


def _unit_graph(n: int, rows: np.ndarray, cols: np.ndarray) -> sp.csr_array:
    A = sp.coo_array((np.ones(rows.size), (rows, cols)), shape=(n, n)).tocsr()
    return sp.csr_array(A + A.T)


def product_grid(S: sp.csr_array, R: sp.csr_array) -> np.ndarray | None:
    """The nodes as a grid ``grid[a, b]``: ``a`` the component of the graph ``S``,
    ``b`` that of ``R``, when there are at least two of each and every component of
    one meets every component of the other in exactly one node; else None.

    >>> S = _unit_graph(4, np.array([0, 2]), np.array([1, 3]))
    >>> R = _unit_graph(4, np.array([0, 1]), np.array([2, 3]))
    >>> product_grid(S, R).tolist()
    [[0, 1], [2, 3]]
    """
    n = S.shape[0]
    k, a = connected_components(S, directed=False)
    m, b = connected_components(R, directed=False)
    if k < 2 or m < 2 or k * m != n:
        return None
    grid = np.full((k, m), -1)
    grid[a, b] = np.arange(n)
    return grid if np.all(grid >= 0) else None


def quotient_basis(V: np.ndarray, S: sp.csr_array, grid: np.ndarray) -> np.ndarray:
    """Orthonormal eigenvectors of the factor across the components of the graph ``S``
    (the rows of ``grid``): the ``grid.shape[0]`` columns of ``V`` that the Laplacian
    of ``S`` annihilates most nearly, summed over each component (a column
    $u \\otimes \\mathbf 1$ gives $u$), and made orthonormal by their polar factor."""
    k, m = grid.shape
    LS = sp.diags_array(np.asarray(S.sum(axis=1)).ravel()) - S
    energy = np.einsum("ij,ij->j", V, LS @ V)
    kernel = np.argsort(energy, kind="stable")[:k]
    Q = V[grid][:, :, kernel].sum(axis=1) / np.sqrt(m)
    left, _, right = np.linalg.svd(Q)
    return left @ right


def _row_classes(U: np.ndarray) -> np.ndarray | None:
    """The index of the point each row of ``U`` lies at (rows within ``SAME_VALUE`` of
    the largest entry are one point), when there are at least two points and fewer
    than rows; None otherwise."""
    n = U.shape[0]
    tol = SAME_VALUE * float(np.abs(U).max())
    projected = U @ np.array([1.0, np.sqrt(2.0)])[: U.shape[1]]
    order = np.argsort(projected, kind="stable")
    label = np.empty(n, dtype=np.int64)
    label[order] = np.cumsum(np.concatenate(([True], np.diff(projected[order]) > tol))) - 1
    m = int(label.max()) + 1
    if not 2 <= m < n:
        return None
    counts = np.bincount(label, minlength=m)
    centres = np.zeros((m, U.shape[1]))
    np.add.at(centres, label, U)
    return label if np.abs(U - centres[label] / counts[label, None]).max() <= tol else None


def _meet(labels: list[np.ndarray]) -> np.ndarray:
    """The coarsest partition finer than every partition of ``labels``, its classes
    numbered in the order of their first node."""
    _, label = np.unique(np.column_stack(labels), axis=0, return_inverse=True)
    label = label.ravel()
    _, first = np.unique(label, return_index=True)
    return np.argsort(np.argsort(first))[label]


def eigenspace_partitions(W: sp.csr_array) -> list[np.ndarray]:
    """Partitions of the nodes into at least two classes of equal size read off the
    eigenspaces of dimension one or two of the Laplacian of the graph ``W`` with unit
    weights (one dense eigendecomposition, as ``_box_twins.box_coordinates`` reads
    fibres): for each divisor $d$ of the number of nodes, the meet of the partitions by
    equal rows (``_row_classes``) whose classes all hold a multiple of $d$ nodes. A box
    product's eigenspaces $u \\otimes \\mathbf 1$ give unions of copies of one factor,
    whose meet is the copies themselves, and $\\mathbf 1 \\otimes w$ those of the other.

    >>> import networkx as nx
    >>> P = nx.convert_node_labels_to_integers(
    ...     nx.cartesian_product(nx.path_graph(3), nx.cycle_graph(5)))
    >>> sorted(np.bincount(p).tolist() for p in
    ...        eigenspace_partitions(nx.to_scipy_sparse_array(P)))
    [[3, 3, 3, 3, 3], [5, 5, 5]]
    """
    A = sp.csr_array(sp.csr_array(W).astype(bool).astype(float))
    n = A.shape[0]
    lam, U = np.linalg.eigh(np.diag(np.asarray(A.sum(axis=1)).ravel()) - A.toarray())
    tol = SAME_VALUE * max(abs(lam[-1]), 1.0)
    bounds = np.concatenate(([0], np.flatnonzero(np.diff(lam) > tol) + 1, [n]))
    labels = [
        label
        for a, b in pairwise(bounds)
        if a > 0 and b - a <= 2 and (label := _row_classes(U[:, a:b])) is not None
    ]
    found, keys = [], set()
    for d in range(2, n):
        chosen = [label for label in labels if np.all(np.bincount(label) % d == 0)]
        if n % d or not chosen:
            continue
        meet = _meet(chosen)
        counts = np.bincount(meet)
        if counts.size >= 2 and np.all(counts == counts[0]) and meet.tobytes() not in keys:
            keys.add(meet.tobytes())
            found.append(meet)
    return found


def _classes_graph(label: np.ndarray) -> sp.csr_array:
    """The disjoint union of cliques on the classes of ``label``."""
    A = sp.csr_array((label[:, None] == label[None, :]).astype(float))
    A.setdiag(0.0)
    A.eliminate_zeros()
    return A


def _informative(F: sp.csr_array) -> bool:
    """Whether the factor of weights ``F`` is connected and, on four nodes or more, not
    the complete graph: every orthonormal basis with the constant vector diagonalises
    that graph, so it says nothing about the factor (on three nodes, the complete graph
    is the 3-cycle, a factor of its own, e.g. of the Chvatal graph boxed with it).

    >>> import networkx as nx
    >>> [_informative(nx.to_scipy_sparse_array(G)) for G in
    ...  (nx.cycle_graph(3), nx.complete_graph(4), nx.cycle_graph(4))]
    [True, False, True]
    """
    k = F.shape[0]
    complete = sp.triu(F, 1).nnz == k * (k - 1) // 2
    return connected_components(F, directed=False)[0] == 1 and not (complete and k >= 4)


def _lifted(grid: np.ndarray, G: sp.csr_array) -> tuple[np.ndarray, np.ndarray]:
    """The edges of the graph ``G`` on the rows of ``grid``, on every column of it."""
    U = sp.triu(G, 1).tocoo()
    return grid[U.row].ravel(), grid[U.col].ravel()


def _crossing_partitions(W: sp.csr_array, U: sp.coo_array, partitions) -> list[np.ndarray]:
    """For each partition of ``partitions``, the components of the graph of the edges
    ``U`` (the upper triangle of ``W``) that join two of its classes, when they are at
    least two of one size and not among ``partitions``: a box product's other factor's
    copies. A factor whose eigenspaces are large (a complete graph: $G \\square K_5$
    has the eigenspace $\\mathbf 1 \\otimes w$ of dimension 4) gives no partition of
    its own, the other factor's eigenspaces give its copies' nodes."""
    n = W.shape[0]
    keys = {p.tobytes() for p in partitions}
    found = []
    for partition in partitions:
        across = partition[U.row] != partition[U.col]
        k, label = connected_components(
            _unit_graph(n, U.row[across], U.col[across]), directed=False
        )
        counts = np.bincount(label)
        if k >= 2 and np.all(counts == counts[0]) and label.tobytes() not in keys:
            keys.add(label.tobytes())
            found.append(label)
    return found


def _box_already(W: sp.csr_array, U: sp.coo_array, first, second) -> bool:
    """Whether every edge ``U`` (the upper triangle of ``W``) joins nodes of one class of
    the partition ``first`` or of ``second``, and the graph on each partition's first
    class says something about its factor (``_informative``): a box product found, whose
    factors read on their own would have as many edges or more. Copies of a complete
    graph ($G \\square K_5$, found in place of $G \\square C_5$) say nothing: the
    factor read on its own can be sparser."""
    if not np.all((first[U.row] == first[U.col]) | (second[U.row] == second[U.col])):
        return False
    return all(
        _informative(sp.csr_array(W[cls][:, cls]))
        for cls in (np.flatnonzero(first == 0), np.flatnonzero(second == 0))
    )


def box_edges_floor(nodes: int, copies: int, edges: int | None = None) -> int:
    """The fewest edges of a box product of a factor of ``nodes`` nodes and ``edges``
    edges (default ``nodes - 1``, a connected factor's fewest) with a connected factor
    of ``copies`` nodes: the first factor on each of ``copies`` copies, the second,
    of ``copies - 1`` edges at least, on each of ``nodes`` copies.

    >>> box_edges_floor(3, 40), box_edges_floor(3, 40, 3)
    (197, 237)
    """
    edges = nodes - 1 if edges is None else edges
    return edges * copies + (copies - 1) * nodes


def _sparser_factors(V, first, second, infer, edges: int):
    """The factors ``infer`` reads across the components of each side (``(S, grid)``:
    a graph whose components are the rows of ``grid``), in that order, when both are
    informative (``_informative``) and their box product can have fewer than ``edges``
    edges; else None.

    The factor of fewer nodes is read first, and the other is not read when the box
    product would have ``edges`` edges or more whatever it is (``box_edges_floor``):
    its product is then not returned, and reading a factor is a whole inference
    (``grid_graph([4, 5, 6])`` perturbed by 1e-3: 0.7 CPU s for a 15-node factor
    after an 8-node one of 12 edges, whose box product has 292 edges at least against
    the 286 found). Neither is read when a tree for the first would be too many
    already.
    """
    sides = [first, second]
    if second[1].shape[0] < first[1].shape[0]:
        sides.reverse()
    (S, grid), (R, other) = sides
    nodes, copies = grid.shape
    if box_edges_floor(nodes, copies) >= edges:
        return None
    F = infer(quotient_basis(V, S, grid))
    if F is None or not _informative(F):
        return None
    if box_edges_floor(nodes, copies, sp.triu(F, 1).nnz) >= edges:
        return None
    E = infer(quotient_basis(V, R, other))
    if E is None or not _informative(E):
        return None
    return (F, E) if sides[0] is first else (E, F)


def box_from_partitions(
    basis, W, noise: float, infer: Callable[[np.ndarray], sp.csr_array | None]
) -> sp.csr_array | None:
    """A box product with equal weights read off the eigenspaces of the graph of equal
    weights ``W`` found at the noise level ``noise``, when it has fewer edges and fits
    the eigenvectors of ``basis`` as well; else None.

    Two partitions of ``eigenspace_partitions`` that cross once in every pair of
    classes (``product_grid``) are the nodes of a box product's factors when ``W``
    shares its eigenvectors: ``infer`` reads each factor from its orthonormal
    eigenvectors (``quotient_basis``) and the factors are boxed. A graph whose edges all
    join nodes of one class of either partition is such a product already and is not
    read, unless its copies of a factor are complete graphs (``_box_already``).
    """
    W = sp.csr_array(W)
    n = W.shape[0]
    if noise <= 0.0 or n > MAX_NODES or basis["kind"] != "combinatorial":
        return None
    U = sp.triu(W, 1).tocoo()
    edges = U.nnz
    partitions = eigenspace_partitions(W)
    partitions += _crossing_partitions(W, U, partitions)
    reference = None
    for i, first in enumerate(partitions):
        for second in partitions[i + 1 :]:
            S, R = _classes_graph(first), _classes_graph(second)
            grid = product_grid(S, R)
            if grid is None or _box_already(W, U, first, second):
                continue
            factors = _sparser_factors(basis["V"], (S, grid), (R, grid.T), infer, edges)
            if factors is None:
                continue
            G, H = factors
            rows, cols = zip(_lifted(grid, G), _lifted(grid.T, H), strict=True)
            box = _unit_graph(n, np.concatenate(rows), np.concatenate(cols))
            reference = _residuals(basis, W) if reference is None else reference
            if sp.triu(box, 1).nnz < edges and _equal_graph_fits(basis, box, reference, noise):
                return box
    return None


def _level_factors(basis, S, R, grid, infer) -> list[tuple[np.ndarray, np.ndarray]]:
    """The edges, on every copy, of the factor whose copies are the components of the
    weight level ``S`` (the rows of ``grid``; ``R`` the rest of the graph found): the
    level's own copies when they are not complete graphs (``_informative``), and the
    factor ``infer`` reads from its orthonormal eigenvectors (``quotient_basis`` across
    the components of ``R``) when it differs, sparser first.

    A level can be the copies of the complete graph, or of the complement of a regular
    factor, which have the same eigenvectors as the factor: the factor read on its own
    gives the sparser graph the eigenvectors hold."""
    copy = sp.csr_array(S[grid[0]][:, grid[0]])
    U = sp.triu(S, 1).tocoo()
    factors = [(U.row, U.col)] if _informative(copy) else []
    read = infer(quotient_basis(basis["V"], R, grid.T))
    if read is not None and _informative(read):
        lifted = _lifted(grid.T, read)
        if not factors or sp.triu(read, 1).nnz < sp.triu(copy, 1).nnz:
            factors.insert(0, lifted)
    return factors


def level_sides(levels: list[tuple[np.ndarray, np.ndarray]], n: int) -> list[list[int]]:
    """The weight levels grouped by the factor whose copies they lie in: two groups are
    merged while an edge of one joins two nodes of one component of the other's graph
    (a component of a graph on one factor's copies lies in one copy, and an edge of the
    other factor joins two copies). Each group lists its levels' indices, lowest first;
    a box product's member whose weights spread over many levels of both factors gives
    the levels of one factor, or of both, as groups.

    The triangle boxed with an edge (node $2g + c$): a path on each triangle at one
    weight, its closing edges at another (inside the paths: merged), the matching
    between the triangles at a third.

    >>> rows = [np.array([0, 2, 1, 3]), np.array([0, 1]), np.array([0, 2, 4])]
    >>> cols = [np.array([2, 4, 3, 5]), np.array([4, 5]), np.array([1, 3, 5])]
    >>> level_sides(list(zip(rows, cols)), 6)
    [[0, 1], [2]]
    """
    level = np.concatenate([np.full(r.size, i) for i, (r, _) in enumerate(levels)])
    rows = np.concatenate([r for r, _ in levels])
    cols = np.concatenate([c for _, c in levels])
    group = np.arange(len(levels))
    merged = True
    while merged:
        merged = False
        for g in np.unique(group):
            own = group[level] == g
            if not own.any():
                continue
            _, label = connected_components(_unit_graph(n, rows[own], cols[own]), directed=False)
            inside = ~own & (label[rows] == label[cols])
            if inside.any():
                group[np.isin(group, group[level[inside]])] = g
                merged = True
    return sorted(np.flatnonzero(group == g).tolist() for g in np.unique(group))


def _sides(levels, n: int):
    """``(S, R, group)`` for each way of taking one factor's copies from the weight
    levels: ``group`` the levels' indices, ``S`` their graph and ``R`` that of the
    other levels, unit weights. Every single level first, then every group of
    ``level_sides`` of two levels or more (grouped only when no single level gave
    a box), then every union of two groups or more against the rest when there are at
    most $n$ such splits (``level_sides`` merges only groups one of whose edges lies in
    a component of the other: a factor's levels whose graphs are each disconnected on
    a copy stay apart). Each split costs $O(|E|)$: at most $n$ of them cost no more
    than the reading's dense eigendecomposition, $O(n^3)$."""

    def split(group):
        chosen = set(group)
        parts = ([levels[i] for i in group], [x for i, x in enumerate(levels) if i not in chosen])
        return tuple(
            _unit_graph(n, np.concatenate([r for r, _ in p]), np.concatenate([c for _, c in p]))
            for p in parts
        )

    for i in range(len(levels)):
        yield (*split([i]), [i])
    groups = level_sides(levels, n)
    for group in groups:
        if 1 < len(group) < len(levels):
            yield (*split(group), group)
    if len(groups) < 3 or 2 ** (len(groups) - 1) > n:
        return
    for mask in range(1, 2 ** (len(groups) - 1) - 1):
        if mask & (mask - 1):
            chosen = [i for b, g in enumerate(groups) if mask >> b & 1 for i in g]
            yield (*split(chosen), chosen)


def box_from_levels(
    basis, W, noise: float, infer: Callable[[np.ndarray], sp.csr_array | None]
) -> sp.csr_array | None:
    """A box product with equal weights read off the graph of weights ``W`` found at
    the noise level ``noise``, when it has fewer edges and fits the eigenvectors of
    ``basis`` as well (the module docstring); else None.

    A weight level (``weight_levels``) of ``W``, or a group of levels on one factor's
    copies (``level_sides``), whose graph fits the eigenvectors as well as ``W`` alone
    (``_fits_as_well``; a level with unit weights, a group with the weights found) and
    whose components each meet every component of the rest of ``W`` once
    (``product_grid``) is one factor's copies; ``infer`` reads the other factor's
    weights from its orthonormal eigenvectors (``quotient_basis``), or None. The
    level's factor is its copies, or the factor ``infer`` reads across the rest's
    components when that is sparser or the copies are complete graphs
    (``_level_factors``). The box product is that factor on every row of the grid
    plus the other on every column, all weights 1; the first that is sparser than
    ``W`` and fits is returned.
    """
    n = W.shape[0]
    if noise <= 0.0 or n > MAX_NODES or basis["kind"] != "combinatorial":
        return None
    W = sp.csr_array(W)
    L = _laplacian(W, basis)
    levels = weight_levels(L, noise)
    if len(levels) < 2:
        return None
    edges = sum(rows.size for rows, _ in levels)
    reference = None
    for S, R, group in _sides(levels, n):
        grid = product_grid(S, R)
        if grid is None:
            continue
        reference = _residuals(basis, W) if reference is None else reference
        fits = [S] if len(group) == 1 else _weighted_sides(levels, group, W)
        if not any(_fits_as_well(_residuals(basis, F), reference) for F in fits):
            continue
        G = infer(quotient_basis(basis["V"], S, grid))
        if G is None or not _informative(G):
            continue
        lifted_rows, lifted_cols = _lifted(grid, G)
        for level_rows, level_cols in _level_factors(basis, S, R, grid, infer):
            box = _unit_graph(
                n,
                np.concatenate([level_rows, lifted_rows]),
                np.concatenate([level_cols, lifted_cols]),
            )
            if sp.triu(box, 1).nnz < edges and _equal_graph_fits(basis, box, reference, noise):
                return box
    return None


def _weighted_sides(levels, group: list[int], W: sp.csr_array) -> list[sp.csr_array]:
    """The graphs of the levels of ``group`` and of the other levels, with the weights
    of ``W``: a member $f(L_G) \\otimes I + I \\otimes k(L_H)$ of a box product's
    family has both terms' eigenvectors, and a group of levels is one term when it,
    or the rest, fits them."""
    n = W.shape[0]
    graphs = []
    for part in (group, [i for i in range(len(levels)) if i not in group]):
        rows = np.concatenate([levels[i][0] for i in part])
        cols = np.concatenate([levels[i][1] for i in part])
        weights = np.abs(np.asarray(W[rows, cols]).ravel())
        A = sp.coo_array((weights, (rows, cols)), shape=(n, n)).tocsr()
        graphs.append(sp.csr_array(A + A.T))
    return graphs
