"""Regular graphs with equal weights that exact eigenvectors fit as exactly as the graph
found: a regular superset of an irregular graph, regular twins of a regular one.

Exact eigenvectors of a regular graph with repeated eigenvalues can diagonalise a sparser
irregular graph with equal weights on a subset of its edges: the eigenvectors of a
triangle are also those of a path on its nodes (the basis of its repeated eigenvalue
picks one), so the 3 x 4 torus $C_3 \\square C_4$ shares its eigenvectors with the
cylinder $P_3 \\square C_4$, four edges fewer. The searches return the sparser graph,
and no rule tells the two apart: the eigenvectors fit both to rounding.

The regular graph is found from the graph returned $W$ (equal weights, scaled to 1) as the
valid graph $W + D$ with a constant diagonal, the weights of $W$ kept and the least weight
added on the other pairs. Its Laplacian is a member of the constant-diagonal family (its
$d$ directions, ``constant_diagonal_family``): the members with weight 1 on the $|E|$
edges of $W$ are $t_0 + N s$, solutions of $|E|$ equations in $d$ unknowns. The complete
graph is always one; when it is the only one ($N$ empty: the unweighted irregular
graphs of 200 nodes of the benchmarks, a tree among them) there is no superset and no
program is solved.
Otherwise the least weight added is a linear program in $s$ (a column per direction of
$N$, a row per other pair). Its weights rounded to 0 or 1, $W + D$ is kept when it is
regular, it is not the complete graph, and the eigenvectors diagonalise it to
``FITS_EXACTLY`` (``regular_superset``).

A regular graph returned can likewise have twins: other regular graphs with as many
edges and equal weights that the exact eigenvectors diagonalise (the Heawood graph beside
an isomorphic cubic graph four edges apart, read off the sampled members of its family).
They are the sparsest members of the constant-diagonal family that
``sparser_regular_members`` reads, with as many edges as the graph returned and other
edges (``regular_ties``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._dense_lp import OPTIMAL, solve
from gsp_householder.graphs._laplacian_fit import _residual, equal_weights
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._regular_candidates import _constant_degree
from gsp_householder.graphs._regular_family import NULL_LEVEL
from gsp_householder.graphs._regular_member import (
    REGULAR_MAX_N,
    constant_diagonal_family,
    sparser_regular_members,
)
from gsp_householder.graphs._result_checks import EQUAL_WEIGHT_CV
from gsp_householder.graphs._template_lp import edge_key
from gsp_householder.graphs._thresholds import FITS_EXACTLY

#: Seed of the planes drawn for ``regular_ties`` (the graph returned is known, the
#: inference's generator is not at hand there).
TIES_SEED = 0


def regular_superset(B: PairBasis, basis, W) -> sp.csr_array | None:
    """The weights of a connected regular graph with equal weights that holds the graph of
    weights ``W`` and that the exact eigenvectors diagonalise, or None.

    None unless ``W`` has equal weights (coefficient of variation at most
    ``EQUAL_WEIGHT_CV``) and is not regular (``_constant_degree``), the basis has at most
    ``REGULAR_MAX_N`` nodes and one unknown per column, and its constant-diagonal family
    has a direction other than the complete graph's (``constant_diagonal_family``).

    Parameters
    ----------
    B : PairBasis
        The pair basis of the exact eigenvectors (combinatorial Laplacian).
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph returned.

    Returns
    -------
    scipy.sparse.csr_array of shape (n, n) or None
        The superset's weights, ``W``'s mean weight on every edge.
    """
    W = sp.csr_array(W)
    weights = sp.triu(W, 1).data
    if (
        B.n > REGULAR_MAX_N
        or not weights.size
        or _constant_degree(W)
        or np.std(weights) > EQUAL_WEIGHT_CV * weights.mean()
    ):
        return None
    A = equal_weights(W)
    added = _added_weights(B, A)
    if added is None:
        return None
    superset = sp.csr_array(A + added) * weights.mean()
    n_edges = sp.triu(superset, 1).nnz
    if (
        n_edges == B.n_pairs
        or not _constant_degree(superset)
        or _residual(basis, superset) > FITS_EXACTLY
    ):
        return None
    return superset


def _added_weights(B: PairBasis, A) -> sp.csr_array | None:
    """The weights $D$ (zero on the edges of the unit-weight graph ``A``, non-negative on
    the other pairs, least in sum) for which the eigenvectors diagonalise ``A`` + $D$ and
    its degree is constant, each rounded to 0 or 1; None if only the complete graph holds
    ``A`` so, or $D$ rounds to no edge.

    ``A`` + $D$ is a member of the constant-diagonal family (``constant_diagonal_family``:
    $d$ directions, the complete graph's among them) with weight 1 on the edges of ``A``:
    the members $t_0 + N s$ of the solutions of those $|E|$ equations in $d$ unknowns
    (``_members_holding``), of which the complete graph is one. The least weight added
    is a linear program in $s$ (one unknown per direction of $N$, a row per other pair),
    none when $N$ is empty: a program over the family's few directions, not over every
    eigenvalue.
    """
    Lam = constant_diagonal_family(B)
    if Lam is None or Lam.shape[1] < 2:
        return None
    i, j = B.upper()
    on = np.asarray(A[i, j]).ravel() > 0
    held = _members_holding(B.products(i[on], j[on], Lam))
    if held is None:
        return None
    t0, N = held
    # off-diagonal entries of the members on the other pairs: minus their weights
    rows = B.products(i[~on], j[~on], Lam @ np.column_stack([t0, N]))
    base, directions = rows[:, 0], rows[:, 1:]
    g = N.shape[1]
    status, x = solve(
        -directions.sum(axis=0),
        directions,
        -base,
        np.zeros((0, g)),
        np.zeros(0),
        np.full(g, -np.inf),
        np.full(g, np.inf),
    )
    if status != OPTIMAL:
        return None
    # rounded to 0 or 1: the caller's fit tells whether the eigenvectors diagonalise it
    keep = -(base + directions @ x) > 0.5
    if not keep.any():
        return None
    ii, jj = i[~on][keep], j[~on][keep]
    U = sp.csr_array((np.ones(ii.size), (ii, jj)), shape=A.shape)
    return sp.csr_array(U + U.T)


def _members_holding(R: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(t0, N)``: the coordinates ``t0`` of one member of the constant-diagonal family
    with weight 1 on every edge (``R t0 = -1``, ``R`` the edges' rows over the family's
    directions) and an orthonormal basis ``N`` of the null space of ``R`` (singular
    values up to ``NULL_LEVEL`` of the largest), or None when it is empty: the complete
    graph is then the only member with those weights."""
    # only Vt (d x d) is used: the reduced factorisation holds all of it unless R has
    # fewer rows than columns (the full one would also form U, |E| x |E|)
    _, s, Vt = np.linalg.svd(R, full_matrices=R.shape[0] < R.shape[1])
    rank = int(np.count_nonzero(s > NULL_LEVEL * s[0]))
    if rank == R.shape[1]:
        return None
    t0 = Vt[:rank].T @ ((Vt[:rank] @ (R.T @ -np.ones(R.shape[0]))) / s[:rank] ** 2)
    return t0, Vt[rank:].T


def regular_ties(B: PairBasis, basis, W, known) -> list[sp.csr_array]:
    """Unit weights of the connected regular graphs with as many edges as the regular
    graph of equal weights ``W`` and other edges than it and than the edge keys ``known``
    that the exact eigenvectors diagonalise to ``FITS_EXACTLY``: the sparsest members of
    the constant-diagonal family (``sparser_regular_members``, planes drawn from
    ``TIES_SEED``). Empty unless ``W`` is regular (``_constant_degree``) with equal
    weights (coefficient of variation at most ``EQUAL_WEIGHT_CV``).

    Parameters
    ----------
    B : PairBasis
        The pair basis of the exact eigenvectors (combinatorial Laplacian).
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph returned.
    known : set of bytes
        Edge keys (``edge_key`` of the upper triangles) of the graphs listed already.

    Returns
    -------
    list of scipy.sparse.csr_array
    """
    W = sp.csr_array(W)
    upper = sp.triu(W, 1)
    weights = upper.data
    if (
        not weights.size
        or not _constant_degree(W)
        or np.std(weights) > EQUAL_WEIGHT_CV * weights.mean()
    ):
        return []
    found = (upper.nnz + 1, 0.0, None, W)
    members = sparser_regular_members(B, basis, found, np.random.default_rng(TIES_SEED))
    skip = {*known, edge_key(upper)}
    return [
        A
        for edges, _, _, A in members
        if edges == upper.nnz and edge_key(sp.triu(A, 1)) not in skip
    ]
