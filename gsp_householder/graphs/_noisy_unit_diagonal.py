"""Normalized Laplacians from noisy eigenvectors: the unit diagonal's near-null family.

The unit diagonal of a normalized Laplacian with the eigenvectors $V$ is $n$ linear
equations $[Z, -\\mathbf 1]\\,(\\lambda, t) = 0$, $Z = V_{\\setminus c} \\circ
V_{\\setminus c}$ (module ``_unit_diagonal``). Exact eigenvectors make the system
singular, its null space the family of normalized Laplacians with them. A perturbed
basis (relative error 1e-3) lifts those singular values to the noise, 1e-8 to 1e-4 of
the largest, while the others stay put: 1.3 to 3.9 decades above them (karate, Les
Misérables, RGG, BA, WS, SBM, trees, grids, Davis southern women, Florentine families,
$G(n, p)$ measured); the smallest singular directions up to such a gap (the near-null
family) hold the truth's eigenvalues to 1e-4 to 2e-2 in relative norm, and its
members' entries on the non-edges are at the noise, 1e-4 to 6e-3, while the edges are
2e-2 to 0.7.

``noisy_unit_diagonal_member`` reads a graph off that family:

1. every dimension $k$ at which the singular values (ascending, relative to the
   largest) jump by ``NEAR_NULL_GAP`` from a value at most ``NEAR_NULL_LEVEL`` is a
   candidate;
2. a member of each family: for $k = 1$ the singular vector; otherwise the member
   maximising the sum of its off-diagonal entries (the least $\\ell_1$ norm) with
   each positive entry charged ``PENALTIES`` times (noise leaves no member without
   one), one program per charge (module ``_charged_member``: an interior point method
   and its certified vertex; HiGHS's simplex when the vertex is not certified);
3. its edges: the pairs above the largest ratio between consecutive entries (sorted,
   most negative first), among the entries above their median magnitude (the noise,
   the graphs being sparse: no member of more than ``MAX_EDGE_SHARE`` of the pairs is
   read); that ratio is the member's gap;
4. the normalized Laplacian with these eigenvectors closest, in least squares, to
   vanishing off the edges and to a unit diagonal, over all eigenvalues (its normal
   matrix $\\tfrac12 (P \\circ P + Z^T Z) - M_E^T M_E$, $P = V^T V$ over the free
   columns, $M_E$ the rows $V_i \\circ V_j$ of the edges, since
   $\\sum_{i, j} (V_i \\circ V_j)(V_i \\circ V_j)^T = P \\circ P$); kept when negative
   on every edge and connected.

The member of the largest gap is returned: the truth's gap is 3.9 to 420 on the graphs
above, the wrong members' 1.8 to 7.2 (each beside one of the truth's at another
charge). The caller decides whether it replaces the searches' graph (by their fits).

When no charged member reads as a graph (every charge gives a dense member: the
normalized triangular lattices, whose family of dimension 8 or 9 holds the lattice and
an equally sparse twin), the members that vanish on random sets of pairs are read
instead (module ``_sampled_zeros``): of the graphs read, those that fit the
eigenvectors as well as the best one, the sparsest (then the largest gap) is returned,
the others with no more edges kept (``NoisyMember.others``) for the caller to list.
The same reading serves combinatorial bases of regular graphs
(``sampled_regular_member``), whose constant-diagonal system is this one.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.linalg import lapack
from scipy.optimize import linprog
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._charged_member import charged_member
from gsp_householder.graphs._laplacian_fit import _fits_as_well, _per_free_pair, _residuals
from gsp_householder.graphs._sampled_zeros import sampled_zero_members
from gsp_householder.graphs._template_lp import edge_key

#: Ratio between consecutive singular values (ascending) of $[Z, -\\mathbf 1]$ that
#: ends a near-null family: the measured jumps are 20 to 8000 (1.3 to 3.9 decades).
NEAR_NULL_GAP = 10.0
#: Largest singular value, relative to the largest, of a near-null family (noise of
#: 1e-3 leaves 1e-8 to 1e-4).
NEAR_NULL_LEVEL = 1e-3
#: Charges on the positive off-diagonal entries of a family's member, each one program:
#: at low charges a noisy family's least member can be a dense one of a smaller
#: $\\ell_1$ norm (RGG(120, 0.18, seed 5): found at 30 and 100 only), at high ones a
#: large family bends to zero its noise (a random tree, Davis southern women: found at
#: 3); the member of the largest gap is kept.
PENALTIES = (3.0, 10.0, 30.0, 100.0)
#: Largest share of the pairs that a member's edges may take: the cut reads the median
#: entry as the noise, which holds when most pairs are non-edges (the graphs found:
#: 7 to 21 % of the pairs; the wrong members of large families read at 1e-3 and 3e-3,
#: 5 x 6 grid, Davis southern women, a random tree: 36 to 48 %).
MAX_EDGE_SHARE = 1 / 3
#: Largest basis read (the program has $n (n - 1) / 2$ slack variables: 45 thousand at
#: 300 nodes).
NOISY_MAX_N = 300


@dataclass(frozen=True)
class NoisyMember:
    """A graph read off the near-null unit-diagonal family of a noisy basis.

    Attributes
    ----------
    W : scipy.sparse.csr_array of shape (n, n)
        Its weights.
    dimension : int
        The near-null family's dimension $k$.
    gap : float
        Ratio between its weakest edge's entry and the largest non-edge's above.
    others : tuple of scipy.sparse.csr_array
        The other graphs read off the family's sampled members (none when a charged
        member reads) that fit the eigenvectors as well with no more edges than ``W``
        (sparsest, then by decreasing gap).
    sampled : bool
        Whether ``W`` was read off a sampled member (no charged member read).
    """

    W: sp.csr_array
    dimension: int
    gap: float
    others: tuple = ()
    sampled: bool = False


def noisy_unit_diagonal_member(
    V: np.ndarray, zero_column: int, u: np.ndarray
) -> NoisyMember | None:
    """The graph of the near-null unit-diagonal family of the noisy basis ``V`` (module
    docstring), or None (too large, no near-null family, no valid member).

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
    if n > NOISY_MAX_N or n < 3:
        return None
    Vf, Z, s, Wt = _unit_diagonal_system(V, zero_column)
    best = None
    dimensions = near_null_dimensions(s)
    for k in dimensions:
        for off in _members(Vf, Wt[n - k :]):
            found = _read_member(Vf, Z, u, off)
            if found is not None and (best is None or found[1] > best.gap):
                best = NoisyMember(found[0], k, found[1])
    if best is None:
        best = _sampled_member(V, Vf, Z, u, Wt, dimensions, "normalized")
    return best


def sampled_regular_member(V: np.ndarray, zero_column: int) -> NoisyMember | None:
    """The graph read off the sampled members (module ``_sampled_zeros``) of the
    near-null constant-diagonal family of the noisy basis ``V`` of a combinatorial
    Laplacian, or None.

    A regular graph's combinatorial Laplacian is its normalized one times its degree,
    and its zero-eigenvalue vector is constant: the unit-diagonal system of the module
    docstring is then the constant-diagonal one, and its near-null families, of
    dimension above 1 (the first holds the complete graph, whose eigenvalues are all
    equal, in every basis), hold the regular graphs with these eigenvectors
    (``frucht_graph()`` boxed with a 4-cycle perturbed by 1e-3: a family of dimension
    27, the graph among the members that vanish on random pairs, on every draw
    measured).

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal basis, its zero-eigenvalue column exactly constant.
    zero_column : int
        That column.

    Returns
    -------
    NoisyMember or None
        Its weights are those of the normalized Laplacian fitted (equal, for a regular
        graph, to the combinatorial one's up to scale).
    """
    n = V.shape[0]
    if n > NOISY_MAX_N or n < 3:
        return None
    Vf, Z, s, Wt = _unit_diagonal_system(V, zero_column)
    dimensions = [k for k in near_null_dimensions(s) if k > 1]
    u = np.full(n, 1.0 / np.sqrt(n))
    return _sampled_member(V, Vf, Z, u, Wt, dimensions, "combinatorial")


def _unit_diagonal_system(V, zero_column):
    """The columns ``Vf`` of ``V`` but its ``zero_column``, their squares ``Z`` and the
    singular values (descending) and right singular vectors of $[Z, -\\mathbf 1]$,
    whose near-null rows are the families of the module docstring."""
    Vf = np.delete(V, zero_column, axis=1)
    Z = Vf * Vf
    _, s, Wt = np.linalg.svd(np.c_[Z, -np.ones(V.shape[0])])
    return Vf, Z, s, Wt


def _sampled_member(V, Vf, Z, u, Wt, dimensions, kind) -> NoisyMember | None:
    """The graph read off the members of the near-null families (``dimensions``, rows
    of ``Wt``) that vanish on random pairs (``_sampled_zeros``): of the distinct
    graphs read, those that fit ``V`` as well (``_fits_as_well``, the Laplacian of
    ``kind``, residuals per free pair: ``_per_free_pair``) as the one of the least
    rotation residual, the sparsest (then the one of
    the largest gap) first, the others with no more edges as its ``others``; None when
    none reads."""
    n = Vf.shape[0]
    graphs = {}
    for k in dimensions:
        for off in _members(Vf, Wt[n - k :], sampled=True):
            found = _read_member(Vf, Z, u, off)
            if found is None:
                continue
            key = edge_key(sp.triu(found[0], 1))
            if key not in graphs or found[1] > graphs[key][2]:
                graphs[key] = (found[0], k, found[1])
    if not graphs:
        return None
    basis = {"V": V, "kind": kind, "scale": None}
    pairs = n * (n - 1) // 2
    # per free pair: a denser graph fits its own pairs (``_per_free_pair``)
    fits = [
        (_per_free_pair(_residuals(basis, g[0]), sp.triu(g[0], 1).nnz, pairs), g)
        for g in graphs.values()
    ]
    reference = min(fits, key=lambda f: f[0][1])[0]
    fitting = sorted(
        (g for fit, g in fits if _fits_as_well(fit, reference)),
        key=lambda g: (sp.triu(g[0], 1).nnz, -g[2]),
    )
    W, k, gap = fitting[0]
    edges = sp.triu(W, 1).nnz
    others = tuple(g[0] for g in fitting[1:] if sp.triu(g[0], 1).nnz <= edges)
    return NoisyMember(W, k, gap, others, sampled=True)


def near_null_dimensions(s: np.ndarray) -> list[int]:
    """The dimensions $k$ at which the singular values ``s`` (descending) jump by
    ``NEAR_NULL_GAP`` from at most ``NEAR_NULL_LEVEL`` times the largest.

    Parameters
    ----------
    s : ndarray of shape (n,)
        Singular values, descending.

    Returns
    -------
    list of int
    """
    r = np.maximum(s[::-1] / s[0], np.finfo(float).tiny)
    return [
        k
        for k in range(1, r.size)
        if r[k - 1] <= NEAR_NULL_LEVEL and r[k] >= NEAR_NULL_GAP * r[k - 1]
    ]


def _members(Vf, null, sampled: bool = False, uncertified=None):
    """The upper off-diagonal entries of the family ``null`` (rows $(\\lambda, t)$)'s
    members: the one vector's scaled to $t = 1$, or one per charge of ``PENALTIES``
    (``sampled``: those vanishing on random pairs, ``sampled_zero_members``, instead).
    A charged member that the interior point method does not certify is read by
    ``uncertified(N0, Y, charge)`` (default ``_simplex_member``: HiGHS)."""
    k = int(np.argmax(np.abs(null[:, -1])))
    if abs(null[k, -1]) <= np.finfo(float).eps:
        return
    base = null[k] / null[k, -1]
    iu, ju = np.triu_indices(Vf.shape[0], 1)
    N0 = ((Vf * base[:-1]) @ Vf.T)[iu, ju]
    if null.shape[0] == 1:
        if not sampled:  # one member: the charged pass read it already
            yield N0
        return
    directions = np.delete(null - np.outer(null[:, -1], base), k, axis=0)[:, :-1]
    Q = np.linalg.qr(directions.T)[0]
    Y = np.stack([((Vf * q) @ Vf.T)[iu, ju] for q in Q.T], axis=1)
    if sampled:
        yield from sampled_zero_members(N0, Y)
        return
    for charge in PENALTIES:
        x = charged_member(N0, Y, charge)
        if x is None:
            x = (uncertified or _simplex_member)(N0, Y, charge)
        if x is not None:
            yield N0 + Y @ x


def _simplex_member(N0, Y, charge):
    """The minimiser of ``_charged_member``'s $F$ by HiGHS, one slack per pair, or None
    when the program fails."""
    m, pairs = Y.shape[1], Y.shape[0]
    A = sp.hstack([sp.csr_array(Y), -sp.identity(pairs, format="csr")]).tocsr()
    res = linprog(
        np.r_[-Y.sum(axis=0), np.full(pairs, charge)],
        A_ub=A,
        b_ub=-N0,
        bounds=[(None, None)] * m + [(0, None)] * pairs,
        method="highs",
    )
    return res.x[:m] if res.status == 0 else None


def _determined(G: np.ndarray) -> bool:
    """Whether the refit's Gram ``G`` (symmetric, positive semi-definite) determines
    its eigenvalues: its Cholesky factorisation exists and LAPACK's estimate of its
    reciprocal condition number exceeds ``len(G)`` times the unit roundoff.

    A Gram singular to rounding means the edges hold a second member of the family,
    one that vanishes on every other pair and on the diagonal: the refit's weights
    are then any of a line of solutions, and ``np.linalg.solve`` returns one set by
    rounding, or raises (``LCF_graph(60, [9, -9, 15, -15], 15)``, exact, shuffle 1).

    Examples
    --------
    >>> import numpy as np
    >>> _determined(np.eye(3)), _determined(np.diag([1.0, 1.0, 1e-17]))
    (True, False)
    """
    c, info = lapack.dpotrf(G, lower=False, clean=True)
    if info != 0:
        return False
    rcond, info = lapack.dpocon(c, np.abs(G).sum(axis=0).max(), uplo="U")
    return bool(info == 0 and rcond > G.shape[0] * np.finfo(float).eps)


def _read_member(Vf, Z, u, off):
    """``(W, gap)``: the edges of the member of upper entries ``off`` (above its largest
    ratio, module docstring) refitted over all eigenvalues; None when the refit is
    not determined (``_determined``), not negative on every edge, or the graph is
    disconnected."""
    n = Vf.shape[0]
    iu, ju = np.triu_indices(n, 1)
    order = np.argsort(off)
    v = -off[order]
    above = np.nonzero(v[1:] > np.median(np.abs(off)))[0]
    if above.size == 0:
        return None
    ratios = v[above] / v[above + 1]
    cut = int(above[np.argmax(ratios)]) + 1
    if cut > MAX_EDGE_SHARE * off.size:
        return None
    edge = order[:cut]
    i, j = iu[edge], ju[edge]
    M = Vf[i] * Vf[j]
    P = Vf.T @ Vf
    G = 0.5 * (P * P + Z.T @ Z) - M.T @ M
    if not _determined(G):
        return None
    lam = np.linalg.solve(G, Z.T @ np.ones(n))
    entries = np.einsum("ek,k,ek->e", Vf[i], lam, Vf[j])
    if entries.max() >= 0:
        return None
    w = -entries * u[i] * u[j]
    W = sp.csr_array((np.r_[w, w], (np.r_[i, j], np.r_[j, i])), shape=(n, n))
    if connected_components(W, directed=False)[0] > 1:
        return None
    return W, float(ratios.max())
