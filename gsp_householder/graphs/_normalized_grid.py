"""The grid behind exact normalized eigenvectors, read from its degrees and spectrum.

The zero-eigenvalue vector of a normalized Laplacian is $D^{1/2}\\mathbf 1$ up to
scale, so exact eigenvectors give the degrees up to one factor (``integer_degrees``).
An $a \\times b$ grid ($2 \\le a \\le b$) has 4 nodes of degree 2, $2(a - 2) + 2(b - 2)$
of degree 3 and $(a - 2)(b - 2)$ of degree 4, and these counts give its sides
(``grid_sides``: $a + b$ and $ab$). Its normalized Laplacian $L$ is then known up to a
relabelling $P$ of its nodes, and so are its eigenvalues $\\lambda_l$ and eigenvectors
$w_l$; the basis holds $\\pm P w_l$ in some order. The sorted magnitudes of a column are
the same under any relabelling and sign, so matching the columns $v_k$ to the $w_l$ by
them (an assignment of least squared difference) gives each column its eigenvalue, and
$V \\operatorname{diag}(\\lambda) V^T$ is a normalized Laplacian with the eigenvectors
$V$. It is taken as the grid when its entries are those of a grid with equal weights
($-1 / \\sqrt{d_i d_j}$ on its edges, 0 elsewhere, to ``ENTRY_TOLERANCE``) and it is one
(``grid_coordinates``); an eigenvalue assigned to the wrong column leaves another
matrix, which is not taken.

Above ``_unit_equal_weight.MAX_NODES`` the family's equal-weight members are not listed,
and exact normalized grids were answered by weighted members of their family (the
4 x 12 grid: 50 edges for 80; the 10 x 10 grid: 2284 for 180) without the grid among
the candidates; the grid read so joins them as an equal-weight member
(``laplacian_inference._unit_diagonal_settled``). Where its eigenvalues repeat (square
grids) the columns of an eigenspace may be any basis of it; the check decides.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._grid_eigenspaces import (
    block_options,
    eigenspace_profiles,
    sign_blocks,
)
from gsp_householder.graphs._grid_twins import grid_coordinates

#: Largest distance of the weights $-L_{ij} \\sqrt{d_i d_j}$ read from
#: $V \\operatorname{diag}(\\lambda) V^T$ from 0 or 1 (exact eigenvectors: rounding).
ENTRY_TOLERANCE = 1e-6

#: Most nodes for which the grid is read (a dense eigendecomposition of the grid and an
#: $n \\times n$ assignment).
MAX_GRID_NODES = 300

#: Largest squared difference of two columns' sorted magnitudes for them to match.
PROFILE_TOLERANCE = 1e-10

#: Largest distance from 1 of $|v_k|^T u$ and $|v_k^T S v_l|$ for the columns to pair.
PAIR_TOLERANCE = 1e-8

#: The tolerances for noisy eigenvectors (``noisy=True``): distance of $|v_k^T S v_l|$
#: from 1, of the weights from 0 or 1, and the profiles within this factor of a
#: column's best match (perturbed 4 x 12 and 5 x 10 grids at 1e-3: pairs within 0.02,
#: weights within 0.15); the caller checks that the grid fits as well as its answer.
NOISY_PAIR_TOLERANCE = 0.1
NOISY_ENTRY_TOLERANCE = 0.3
NOISY_PROFILE_FACTOR = 10.0

#: Random starts of the search over the pairs' eigenvalues.
RESTARTS = 100

#: Most grids read (``normalized_grids``), and the starts after the first grid: the
#: exact 3 x 17 grid, shuffle 1, reached the grid at the 14th start, three twins before.
MAX_GRIDS = 8
EXTRA_STARTS = 20


def grid_sides(degrees: np.ndarray) -> tuple[int, int] | None:
    """The sides $(a, b)$, $2 \\le a \\le b$, of the grid with these node degrees' counts,
    or None when no grid has them.

    Parameters
    ----------
    degrees : ndarray of shape (n,)
        Integer degrees.

    Returns
    -------
    tuple of int or None

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.grid_2d_graph(4, 12)
    >>> grid_sides(np.array([d for _, d in G.degree()]))
    (4, 12)
    >>> grid_sides(np.array([2, 2, 2, 2, 2]))
    """
    degrees = np.asarray(degrees, dtype=int)
    n = degrees.size
    if n < 4 or degrees.min() < 2 or degrees.max() > 4:
        return None
    counts = np.bincount(degrees, minlength=5)
    if counts[2] != 4:
        return None
    total = int(counts[3]) // 2 + 4  # a + b
    disc = total * total - 4 * n
    if disc < 0 or counts[3] % 2:
        return None
    root = round(float(np.sqrt(disc)))
    if root * root != disc or (total - root) % 2:
        return None
    a, b = (total - root) // 2, (total + root) // 2
    if a < 2 or a * b != n or counts[4] != (a - 2) * (b - 2):
        return None
    return int(a), int(b)


def _grid_spectrum(a: int, b: int) -> tuple[np.ndarray, np.ndarray]:
    """Eigenvalues and eigenvectors of the $a \\times b$ grid's normalized Laplacian."""

    def path(s: int) -> np.ndarray:
        return np.eye(s, k=1) + np.eye(s, k=-1)

    A = np.kron(path(a), np.eye(b)) + np.kron(np.eye(a), path(b))
    s = 1.0 / np.sqrt(A.sum(axis=1))
    return np.linalg.eigh(np.eye(a * b) - s[:, None] * A * s[None, :])


def _ends(V: np.ndarray, u: np.ndarray, tolerance: float) -> tuple[int, int] | None:
    """The zero-eigenvalue column ``z`` ($\\pm u$) and the eigenvalue-2 column ``t``
    ($\\pm S u$): the two columns whose magnitudes are $u$'s; None when there are
    none."""
    magnitude = np.abs(V).T @ u
    ends = np.argsort(np.abs(magnitude - 1.0))[:2]
    if np.abs(magnitude[ends] - 1.0).max() > tolerance:
        return None
    signs = np.abs(V.T @ u)
    z = int(ends[np.argmax(signs[ends])])
    return z, int(ends[ends != z][0])


def _pairs(
    V: np.ndarray, u: np.ndarray, tolerance: float = PAIR_TOLERANCE
) -> tuple[int, np.ndarray, list] | None:
    """``(z, S, pairs)``: the zero-eigenvalue column ``z``, the bipartition's signs ``S``
    (read from the column $\\pm u$, eigenvalue 2) and the other columns in pairs
    $(k, l)$ with $v_l = \\pm S v_k$ (eigenvalues $\\mu$ and $2 - \\mu$); None when
    the columns do not pair so. A column with $S v_k = \\pm v_k$ (eigenvalue 1) is
    left out."""
    n = V.shape[0]
    read = _ends(V, u, tolerance)
    if read is None:
        return None
    z, t = read
    S = np.sign(V[:, t] * V[:, z])
    G = np.abs(V.T @ (S[:, None] * V))
    partner = np.argmax(G, axis=1)
    pairs, used = [], {z, t}
    for k in range(n):
        if k in used:
            continue
        l = int(partner[k])
        if l == k and G[k, k] >= 1.0 - tolerance:
            # S v_k = +-v_k: eigenvalue 1, which adds nothing to D^{-1/2} A D^{-1/2}
            used.add(k)
            continue
        if l in used or l == k or partner[l] != k or G[k, l] < 1.0 - tolerance:
            return None
        used |= {k, l}
        pairs.append((k, l))
    return z, S, pairs


def _column_options(V, root, eigenvalues, W, noisy) -> tuple | None:
    """``(z, S, blocks, options)`` read column by column (`_pairs`): each pair's first
    column and its options $\\pm(1 - \\mu)$ from the grid's eigenvectors of the same
    sorted magnitudes; None when the columns do not pair or a column matches none."""
    pair_tol = NOISY_PAIR_TOLERANCE if noisy else PAIR_TOLERANCE
    paired = _pairs(V, root / np.linalg.norm(root), pair_tol)
    if paired is None:
        return None
    z, S, pairs = paired
    P, Q = np.sort(np.abs(V), axis=0), np.sort(np.abs(W), axis=0)
    cost = (P * P).sum(axis=0)[:, None] + (Q * Q).sum(axis=0)[None, :] - 2.0 * (P.T @ Q)
    options = []
    for k, _ in pairs:
        limit = PROFILE_TOLERANCE + (NOISY_PROFILE_FACTOR * cost[k].min() if noisy else 0.0)
        near = eigenvalues[cost[k] <= limit]
        if near.size == 0:
            return None
        mu = np.unique(np.round(np.minimum(near, 2.0 - near), 9))
        options.append(np.unique(np.concatenate([1.0 - mu, mu - 1.0])))
    return z, S, [np.array([k]) for k, _ in pairs], options


def _eigenspace_options(V, root, eigenvalues, W, noisy) -> tuple | None:
    """``(z, S, blocks, options)`` read by eigenspace (module ``_grid_eigenspaces``:
    repeated eigenvalues, the columns any basis of their eigenspace); None when the
    columns do not split so or a block matches no eigenspace."""
    pair_tol = NOISY_PAIR_TOLERANCE if noisy else PAIR_TOLERANCE
    ends = _ends(V, root / np.linalg.norm(root), pair_tol)
    if ends is None:
        return None
    z, t = ends
    S = np.sign(V[:, t] * V[:, z])
    blocks = sign_blocks(V, S, (z, t), pair_tol)
    if blocks is None:
        return None
    factor = NOISY_PROFILE_FACTOR if noisy else 0.0
    options = block_options(
        V, blocks, eigenspace_profiles(eigenvalues, W), PROFILE_TOLERANCE, factor
    )
    if options is None:
        return None
    return z, S, blocks, options


def normalized_grids(
    V: np.ndarray, degrees: np.ndarray | None, noisy: bool = False, restarts: int = RESTARTS
) -> list[sp.csr_array]:
    """The weights (every weight 1) of the grids whose normalized Laplacians have the
    eigenvectors ``V``, read from the degrees and the grid's spectrum (module
    docstring): the distinct grids (the grid and its twins) that the starts reach, at
    most ``MAX_GRIDS``, the starts ending ``EXTRA_STARTS`` after the first grid; empty
    when none is read.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal eigenvectors, one of them the zero-eigenvalue vector.
    degrees : ndarray of shape (n,) or None
        The integer degrees read from that vector (``integer_degrees``).
    noisy : bool, optional
        Whether ``V`` is noisy: the ``NOISY_*`` tolerances (default exact).
    restarts : int, optional
        Random starts of the search over the pairs' eigenvalues (seeded: the same
        answer for the same input).

    Returns
    -------
    list of scipy.sparse.csr_array

    Examples
    --------
    >>> import networkx as nx
    >>> from gsp_householder import fourier_basis
    >>> G = nx.grid_2d_graph(4, 12)
    >>> V = fourier_basis(G, laplacian="normalized").eigenvectors
    >>> rng = np.random.default_rng(0)
    >>> X = V[:, rng.permutation(48)] * rng.choice([-1.0, 1.0], 48)
    >>> grids = normalized_grids(X, np.array([d for _, d in G.degree()]))
    >>> [int(W.nnz // 2) for W in grids]
    [80, 80]
    >>> all(nx.is_isomorphic(nx.from_scipy_sparse_array(W), G) for W in grids)
    True
    """
    n = V.shape[0]
    if degrees is None or n > MAX_GRID_NODES:
        return []
    sides = grid_sides(degrees)
    if sides is None:
        return []
    root = np.sqrt(np.asarray(degrees, dtype=float))
    entry_tol = NOISY_ENTRY_TOLERANCE if noisy else ENTRY_TOLERANCE
    eigenvalues, W = _grid_spectrum(*sides)
    for reader in (_column_options, _eigenspace_options):
        # column by column first (simple eigenvalues); by eigenspace when that reads
        # no grid (a square grid's repeated eigenvalues)
        read = reader(V, root, eigenvalues, W, noisy)
        grids = [] if read is None else _search(V, root, degrees, read, entry_tol, restarts)
        if grids:
            return grids
    return []


def _search(V, root, degrees, read, entry_tol, restarts) -> list[sp.csr_array]:
    """The distinct grids that the seeded starts of `_descend` reach from the columns
    read (``(z, S, blocks, options)``), at most ``MAX_GRIDS``, the starts ending
    ``EXTRA_STARTS`` after the first grid."""
    n = V.shape[0]
    z, S, blocks, options = read
    # the scaled adjacency on the pairs across the bipartition:
    # x_ij = sqrt(d_i d_j) sum_k (1 - lambda_k) v_ik v_jk, pair (k, l) giving 2 c v_ik v_jk
    iu, ju = np.nonzero(np.triu(S[:, None] != S[None, :], 1))
    scale = 2.0 * root[iu] * root[ju]
    x0 = scale * V[iu, z] * V[ju, z]
    K = np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.int64)
    G = scale[:, None] * V[iu][:, K] * V[ju][:, K]
    if K.size > len(blocks):  # blocks of several columns: their products summed
        G = np.add.reduceat(G, np.cumsum([0] + [b.size for b in blocks[:-1]]), axis=1)
    rng = np.random.default_rng(0)
    found: dict[bytes, sp.csr_array] = {}
    left = restarts
    while left > 0 and len(found) < MAX_GRIDS:
        left -= 1
        c = np.array([rng.choice(o) for o in options])
        x = _descend(x0 + G @ c, G, c, options, rng)
        edges = np.abs(x - 1.0) <= entry_tol
        key = np.packbits(edges).tobytes()
        if (
            key in found
            or not np.all(edges | (np.abs(x) <= entry_tol))
            or 2 * edges.sum() != np.sum(degrees)
        ):
            continue
        A = sp.coo_array((np.ones(edges.sum()), (iu[edges], ju[edges])), shape=(n, n))
        A = sp.csr_array(A + A.T)
        if grid_coordinates(A) is not None:
            if not found:
                left = min(left, EXTRA_STARTS)
            found[key] = A
    return list(found.values())


def _misfit(x: np.ndarray) -> float:
    """How far the scaled adjacency ``x`` is outside $[0, 1]$ (squared)."""
    return float(np.sum(np.minimum(x, 0.0) ** 2) + np.sum(np.maximum(x - 1.0, 0.0) ** 2))


def _descend(x, G, c, options, rng) -> np.ndarray:
    """``x = x0 + G c`` after changing one pair's coefficient at a time to the option
    of least ``_misfit`` until none lowers it."""
    f = _misfit(x)
    improved = True
    while improved and f > 0.0:
        improved = False
        for p in rng.permutation(c.size):
            for value in options[p]:
                y = x + (value - c[p]) * G[:, p]
                g = _misfit(y)
                if g < f - 1e-12:
                    x, f, c[p], improved = y, g, value, True
    return x
