"""Box products with a cycle or a path that share their eigenvectors with relabelled copies.

The box product $G \\square H$ on nodes $(g, h)$ has the products $u \\otimes w$ of
eigenvectors of its factors as eigenvectors, of eigenvalue $\\lambda_G + \\lambda_H$.
When $H$ is the cycle $C_m$, relabelling its nodes by a multiplier $q$ coprime to
$m$, $h \\mapsto qh \\bmod m$, maps its Fourier modes $\\pm k$ to $\\pm q^{-1} k$
(``_torus_twins``); when $H$ is the path $P_m$, a DCT multiplier maps its cosines to
one another up to sign (``_grid_twins.dct_relabelling``). Either way the relabelled
product $G \\square H'$ (a twin, with as many edges) is constant on every span of
products $u \\otimes w$ of the first, and has its eigenvectors whenever no eigenvalue of
the first joins spans that the twin keeps apart (its fit decides). The twin's
eigenvalues are $\\lambda_G + \\lambda_{H'}$: the eigenvectors alone, in no order, do not
tell $G \\square C_7$ from $G \\square C_7'$, the 7-cycle $h \\sim h + 2$.

Measured before this module (eighth audit, perturbed by 1e-3): the Petersen graph
boxed with a 7-cycle was returned as the Petersen graph boxed with the cycle
$h \\sim h + 2$ (175 edges, F1 0.6, draws 0-2) and the cylinder $C_{20} \\square P_4$
as $C_{20}' \\square P_4'$ (140 edges, F1 0.0 and 0.43, draws 1-2), with the family
flag only and the truth not among the candidates. The factors are read off the graph
returned (``box_coordinates``): the rows of one of its own eigenspaces of dimension
one or two take one value per node of a cycle or path factor (the product
$\\mathbf 1 \\otimes w$ of its first modes), and the graph is checked to be that product
exactly.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from itertools import pairwise, product

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._grid_twins import (
    dct_relabelling,
    fitting_twins,
    multipliers,
    relabelled_source,
    split_listed,
)
from gsp_householder.graphs._template_lp import edge_key
from gsp_householder.graphs._torus_twins import cycle_multipliers

#: Largest graph whose factors are read (one dense eigendecomposition of its Laplacian).
MAX_NODES = 200
#: Eigenvalues of the graph's own Laplacian within this fraction of the largest are one,
#: and rows of an eigenspace within it (relative to the largest row) are one point.
SAME_VALUE = 1e-8
#: Fewest nodes of a cycle or path factor read (a 3-cycle has no twin by relabelling).
MIN_SIDE = 4


def _neighbours(W: sp.csr_array) -> list[set[int]]:
    return [set(W.indices[W.indptr[i] : W.indptr[i + 1]].tolist()) for i in range(W.shape[0])]


def _line_order(nbrs: list[set[int]]) -> tuple[str, list[int]] | None:
    """``("cycle", order)`` or ``("path", order)`` when the graph of neighbour sets
    ``nbrs`` is one cycle or one path through all its nodes, ``order`` its nodes along
    it; None otherwise."""
    n = len(nbrs)
    degrees = [len(s) for s in nbrs]
    if n < 2 or max(degrees) > 2 or min(degrees) < 1:
        return None
    ends = [i for i in range(n) if degrees[i] == 1]
    if ends and len(ends) != 2:
        return None
    kind = "path" if ends else "cycle"
    order, previous = [ends[0] if ends else 0], -1
    while len(order) < n:
        ahead = [m for m in nbrs[order[-1]] if m != previous]
        if not ahead or ahead[0] == order[0]:
            return None
        previous = order[-1]
        order.append(min(ahead) if kind == "cycle" and len(order) == 1 else ahead[0])
    if kind == "cycle" and order[0] not in nbrs[order[-1]]:
        return None
    return kind, order


def _fibres(U: np.ndarray) -> np.ndarray | None:
    """The index of the point each row of ``U`` lies at (rows within ``SAME_VALUE`` of
    the largest are one point), when every point holds as many rows and there are at
    least ``MIN_SIDE`` points; None otherwise."""
    n = U.shape[0]
    scale = float(np.abs(U).max())
    if scale <= 0.0:
        return None
    tol = SAME_VALUE * scale
    direction = np.array([1.0, np.sqrt(2.0)])[: U.shape[1]]
    projected = U @ direction
    order = np.argsort(projected, kind="stable")
    starts = np.concatenate(([True], np.diff(projected[order]) > tol))
    label = np.empty(n, dtype=np.int64)
    label[order] = np.cumsum(starts) - 1
    m = int(label.max()) + 1
    counts = np.bincount(label, minlength=m)
    if m < MIN_SIDE or n % m or np.any(counts != n // m) or m == n:
        return None
    centres = np.zeros((m, U.shape[1]))
    np.add.at(centres, label, U)
    centres /= counts[:, None]
    if np.abs(U - centres[label]).max() > tol:
        return None
    return label


def _product_coordinates(W: sp.csr_array, label: np.ndarray):
    """``(kind, m, coords)`` when the graph of unit weights ``W`` is $G \\square H$
    with $H$ a cycle or path (``kind``) whose nodes are the ``m`` fibres of ``label``
    (nodes of one label), numbered along the fibres' quotient graph: ``coords[i] =
    (g, h)``, ``g`` the node of the first fibre that the fibres' matchings lead node
    ``i`` back to; None otherwise."""
    n = W.shape[0]
    m = int(label.max()) + 1
    size = n // m
    nbrs = _neighbours(W)
    quotient = [set() for _ in range(m)]
    for i in range(n):
        quotient[label[i]].update(int(label[j]) for j in nbrs[i] if label[j] != label[i])
    line = _line_order(quotient)
    if line is None:
        return None
    kind, order = line
    position = np.empty(m, dtype=np.int64)
    position[order] = np.arange(m)
    h = position[label]
    fibre = [np.flatnonzero(h == k) for k in range(m)]
    g = np.full(n, -1, dtype=np.int64)
    g[fibre[0]] = np.arange(size)
    for k in range(1, m):
        for i in fibre[k - 1]:
            ahead = [j for j in nbrs[i] if h[j] == k]
            if len(ahead) != 1 or g[ahead[0]] >= 0:
                return None
            g[ahead[0]] = g[i]
    coords = np.column_stack([g, h])
    if not _is_product(W, coords, m, kind):
        return None
    return kind, m, coords


def _layout(coords: np.ndarray, size: int, m: int) -> np.ndarray:
    """The node at each position $(g, h)$, flattened as ``g * m + h``."""
    where = np.empty(size * m, dtype=np.int64)
    where[coords[:, 0] * m + coords[:, 1]] = np.arange(size * m)
    return where


def _fibre_graph(W: sp.csr_array, coords: np.ndarray, m: int) -> sp.csr_array:
    """The graph $G$ on the first fibre's nodes, numbered by ``g``."""
    size = W.shape[0] // m
    where = _layout(coords, size, m)
    first = where[np.arange(size) * m]
    return sp.csr_array(W[first][:, first])


def _product_weights(G: sp.csr_array, kind: str, m: int, coords: np.ndarray) -> sp.csr_array:
    """Unit weights of $G \\square H$ ($H$ the cycle or path of ``m`` nodes of
    ``kind``) on the nodes at ``coords``."""
    size = G.shape[0]
    n = size * m
    where = _layout(coords, size, m).reshape(size, m)
    Gc = sp.triu(G, 1).tocoo()
    rows = [where[Gc.row].ravel(), where[:, :-1].ravel()]
    cols = [where[Gc.col].ravel(), where[:, 1:].ravel()]
    if kind == "cycle":
        rows.append(where[:, -1])
        cols.append(where[:, 0])
    r, c = np.concatenate(rows), np.concatenate(cols)
    upper = sp.coo_array((np.ones(r.size), (r, c)), shape=(n, n))
    return sp.csr_array(upper + upper.T)


def _is_product(W: sp.csr_array, coords: np.ndarray, m: int, kind: str) -> bool:
    """Whether the graph of unit weights ``W`` is exactly its first fibre's connected
    graph boxed with the cycle or path of ``m`` nodes, its nodes at ``coords``."""
    G = _fibre_graph(W, coords, m)
    if connected_components(G, directed=False)[0] != 1:
        return False
    A = _product_weights(sp.csr_array(G.astype(bool).astype(float)), kind, m, coords)
    return edge_key(sp.triu(A, 1)) == edge_key(sp.triu(W, 1))


def box_coordinates(W) -> tuple[str, int, np.ndarray] | None:
    """``(kind, m, coords)`` when the graph of weights ``W`` (equal weights) is a box
    product $G \\square H$ of a connected graph $G$ and a cycle or path $H$ of
    ``m`` $\\ge$ ``MIN_SIDE`` nodes (``kind`` ``"cycle"`` or ``"path"``), ``coords[i]``
    the position $(g, h)$ of node ``i``; else None.

    The rows of an eigenspace of dimension one or two of the graph's Laplacian that
    take ``m`` values, each at ``n / m`` nodes, are the fibres $G \\times \\{h\\}$ of a
    candidate factor $H$ (the products $\\mathbf 1 \\otimes w$ of $H$'s first modes);
    the fibres must be joined as $H$ is by perfect matchings that lead round a cycle
    back to the node they left, and the graph must be exactly that product.

    Examples
    --------
    >>> import networkx as nx
    >>> P = nx.convert_node_labels_to_integers(
    ...     nx.cartesian_product(nx.petersen_graph(), nx.cycle_graph(7)))
    >>> box_coordinates(nx.to_scipy_sparse_array(P))[:2]
    ('cycle', 7)
    """
    W = sp.csr_array(W)
    n = W.shape[0]
    if n > MAX_NODES or n < 2 * MIN_SIDE or W.nnz == 0:
        return None
    A = sp.csr_array(W.astype(bool).astype(float))
    L = np.diag(np.asarray(A.sum(axis=1)).ravel()) - A.toarray()
    lam, U = np.linalg.eigh(L)
    tol = SAME_VALUE * max(abs(lam[-1]), 1.0)
    bounds = np.concatenate(([0], np.flatnonzero(np.diff(lam) > tol) + 1, [n]))
    for a, b in pairwise(bounds):
        if a == 0 or b - a > 2:
            continue
        label = _fibres(U[:, a:b])
        if label is None:
            continue
        found = _product_coordinates(W, label)
        if found is not None:
            return found
    return None


def _factor_maps(kind: str, m: int) -> list[np.ndarray]:
    """Relabellings of the cycle or path of ``m`` nodes that give its twins (the
    identity first): multipliers $q$ coprime to $m$ of a cycle, DCT multipliers of a
    path."""
    identity = np.arange(m)
    if kind == "cycle":
        return [identity, *((q * identity) % m for q in cycle_multipliers(m))]
    return [identity, *(dct_relabelling(m, q) for q in multipliers(m))]


def box_twins(basis, W, candidates, noise: float = 0.0) -> tuple[list[sp.csr_array], list[int]]:
    """Laplacians of the box product of weights ``W`` (the graph returned, with equal
    weights as ``_grid_twins.grid_twins`` asks them) relabelled along its cycle or path
    factor (``_factor_maps``), and along its other factor too when that is a cycle or a
    path (not both identities), that fit the eigenvectors as well (``_fits_as_well`` of
    ``twin_residuals``) and whose edges are not ``W``'s, split into those not among the
    Laplacians ``candidates`` and the indices of the candidates that are such twins
    (``split_listed``); empty when ``W`` is no such product.

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
    twins : list of scipy.sparse.csr_array
    listed : list of int
    """
    W = sp.csr_array(W)
    if W.nnz == 0:
        return [], []
    pattern = sp.csr_array(W.astype(bool).astype(float))
    box = box_coordinates(pattern)
    if box is None:
        return [], []
    source = relabelled_source(basis, W, noise)
    if source is None:
        return [], []
    W, reference = source
    kind, m, coords = box
    G = _fibre_graph(pattern, coords, m)
    g_maps = [np.arange(G.shape[0])]
    line = _line_order(_neighbours(G)) if G.shape[0] >= MIN_SIDE else None
    if line is not None:
        order = np.asarray(line[1])
        for relabel in _factor_maps(line[0], order.size)[1:]:
            perm = np.empty(order.size, dtype=np.int64)
            perm[order] = order[relabel]
            g_maps.append(perm)
    h_maps = _factor_maps(kind, m)
    seen = {edge_key(sp.triu(W, 1))}
    weight = float(sp.triu(W, 1).data.mean())
    relabelled = (
        weight
        * _product_weights(G, kind, m, np.column_stack([g_map[coords[:, 0]], h_map[coords[:, 1]]]))
        for (a, g_map), (b, h_map) in product(enumerate(g_maps), enumerate(h_maps))
        if a or b
    )
    return split_listed(fitting_twins(basis, relabelled, reference, seen), candidates)
