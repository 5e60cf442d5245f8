"""Columns supported on a few nodes: their eigenvalues only move the entries among those nodes.

Twin nodes (same closed neighbourhood) and small symmetric structures (pendant paths or
stars hanging on one node) give eigenvectors supported on a few nodes: $e_a - e_b$ for
a pair of twins. Such a column's eigenvalue enters only the entries $L_{ij}$ with both
$i$ and $j$ in its support, so every valid Laplacian with the other eigenvalues fixed
stays valid when these eigenvalues change, as long as the entries among those nodes
stay $\\le 0$ and the eigenvalues positive. They span most of the families of valid
graphs on geometric graphs (RGG(1000, 0.06): 63 twin classes, a family of dimension
64; Minnesota: 27 such columns, a family of dimension 28), where the vertices of a
linear program over the whole family are slow to reach and often inaccurate.

``local_groups`` finds the columns (a gap of ``GAP`` between the entries of the
support and the rest, at most ``MAX_SUPPORT`` nodes) and joins those with overlapping
supports; ``sparsify_local`` sets their eigenvalues, one small linear program per
group, to the sparsest entries among the group's nodes (least $\\ell_1$, reweighted),
then solves the zero entries exactly. ``explains`` tells whether a family is one
member plus these columns, in which case no search over the family is needed.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog
from scipy.sparse import csgraph

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._template_lp import LP_ACCURACY

#: Largest support (nodes) of a local column.
MAX_SUPPORT = 64
#: Smallest ratio between the smallest entry of the support and the largest outside it.
GAP = 100.0
#: Largest squared mass of a local column outside its support.
OUTSIDE_MASS = 1e-4
#: Squared mass outside the support below which a column is exactly local (rounding).
EXACT_OUTSIDE = 1e-12
#: Largest ratio of the largest to the median entry outside the support of a local
#: column of a noisy basis (Gaussian noise on 1000 entries: about 5). A localised
#: eigenvector (sensor(1000, seed 7): $10^{-5}$ of its mass outside 2 nodes, decaying)
#: is far above it.
NOISE_SPREAD = 20.0
#: Reweighted rounds of the group linear programs.
REWEIGHT = 2
#: Relative singular value below which a family direction has no part outside the
#: local columns.
EXPLAINED = 1e-6


@dataclass
class LocalGroup:
    """Unknowns ``cols`` whose columns live on the nodes ``nodes`` (pairs ``i < j``)."""

    cols: np.ndarray
    nodes: np.ndarray
    i: np.ndarray
    j: np.ndarray


def local_columns(V: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The columns of the basis ``V`` supported on a few nodes and the size of each
    support: at most ``MAX_SUPPORT`` entries, ``GAP`` times the largest outside them,
    which hold all but ``OUTSIDE_MASS`` of the column's squared mass, the rest rounding
    or noise (``_noise_outside``)."""
    A = np.abs(V)
    n = A.shape[0]
    top = min(MAX_SUPPORT + 1, n)
    part = -np.partition(-A, top - 1, axis=0)[:top]       # the largest entries, unsorted
    part = -np.sort(-part, axis=0)
    mass = np.cumsum(part * part, axis=0) / np.maximum((A * A).sum(axis=0), 1e-300)
    ratio = part[:-1] / np.maximum(part[1:], 1e-300)
    ok = (ratio >= GAP) & (1.0 - mass[:-1] <= OUTSIDE_MASS)
    cols = np.flatnonzero(ok.any(axis=0))
    if cols.size == 0:
        return cols, cols
    size = np.argmax(ok[:, cols], axis=0) + 1
    keep = np.array([_noise_outside(A[:, k], s) for k, s in zip(cols, size, strict=True)],
                    dtype=bool)
    return cols[keep], size[keep]


def local_groups(B: PairBasis) -> list[LocalGroup]:
    """Groups of local columns of an unordered basis with one unknown per column."""
    if B.G is not None or B.ordered:
        return []
    groups = column_groups(B.V)
    if sum(grp.cols.size for grp in groups) > B.g - 2:    # too few other columns left
        return []
    return groups


def column_groups(V: np.ndarray) -> list[LocalGroup]:
    """The local columns of the basis ``V`` (``local_columns``), those sharing a node
    joined in one group, groups of more than ``MAX_SUPPORT`` nodes left out."""
    A = np.abs(V)
    n = V.shape[0]
    cols, size = local_columns(V)
    if cols.size == 0:
        return []
    supports = [np.sort(np.argsort(-A[:, k])[:s]) for k, s in zip(cols, size, strict=True)]
    # columns sharing a node join one group: components of the column-node links
    column = np.repeat(np.arange(cols.size), [nodes.size for nodes in supports])
    links = sp.coo_array((np.ones(column.size), (column, cols.size + np.concatenate(supports))),
                         shape=(cols.size + n, cols.size + n))
    label = csgraph.connected_components(links, directed=False)[1][:cols.size]
    roots = {}
    for a in range(cols.size):
        roots.setdefault(label[a], []).append(a)
    groups = []
    for members in roots.values():
        nodes = np.unique(np.concatenate([supports[a] for a in members]))
        if nodes.size > MAX_SUPPORT:
            continue
        i, j = np.triu_indices(nodes.size, 1)
        groups.append(LocalGroup(cols[members], nodes, nodes[i], nodes[j]))
    return groups


def _noise_outside(a, s):
    """Whether the entries of ``a`` outside its ``s`` largest are rounding or noise: at
    most ``EXACT_OUTSIDE`` of its squared mass, or spread like noise (largest at most
    ``NOISE_SPREAD`` times the median), not decaying away from the support as a
    localised eigenvector of an ordinary graph does."""
    out = np.sort(a)[:-s]
    mass = float(out @ out) / max(float(a @ a), 1e-300)
    return mass <= EXACT_OUTSIDE or out.max() <= NOISE_SPREAD * np.median(out)


def explains(groups: list[LocalGroup], Lam) -> bool:
    """Whether the span ``Lam`` is one direction plus directions of the local columns."""
    if not groups or Lam.shape[1] < 2:
        return False
    Q = np.linalg.qr(Lam)[0]
    rest = np.ones(Q.shape[0], dtype=bool)
    rest[np.concatenate([grp.cols for grp in groups])] = False
    s = np.linalg.svd(Q[rest], compute_uv=False)
    return bool(s.size < 2 or s[1] <= EXPLAINED * s[0])


def sparsify_local(B: PairBasis, lam, groups: list[LocalGroup], tol, floor):
    """``lam`` with the eigenvalues of each group's columns set to the sparsest valid entries.

    ``tol`` is the per-node tolerance (pair $(i, j)$ may reach ``tol[i] + tol[j]``),
    ``floor`` the smallest eigenvalue allowed. A group whose program fails keeps its
    eigenvalues. The result is normalised to trace $n$.
    """
    lam = np.array(lam, dtype=np.float64)
    for grp in groups:
        R = B.rows(grp.i, grp.j)
        A = R[:, grp.cols]
        base = R @ lam - A @ lam[grp.cols]
        x = _group_program(A, base, tol[grp.i] + tol[grp.j], floor, lam[grp.cols])
        if x is not None:
            lam[grp.cols] = x
    return lam * (B.n / (B.mult @ lam))


def _group_program(A, base, slack, floor, x0):
    """Least reweighted $\\ell_1$ of the entries ``base + A x`` $\\le$ ``slack`` over
    ``x >= floor``, with the entries it leaves at zero then solved exactly."""
    if A.shape[1] == 1:
        return _one_column(A[:, 0], base, slack, floor)
    weights = np.ones(len(base))
    high = max(float(np.max(x0)), floor) * 1e3
    x = None
    for _ in range(REWEIGHT + 1):
        res = linprog(-(weights @ A), A_ub=A, b_ub=slack - base,
                      bounds=[(floor, high)] * A.shape[1], method="highs")
        if res.status != 0:
            break
        x = res.x
        weights = 1.0 / (np.abs(base + A @ x) + 1e-3 * max(float(np.abs(base).max()), 1e-300))
    if x is None:
        return None
    entries = base + A @ x
    zero = np.abs(entries) <= np.maximum(slack, LP_ACCURACY * float(np.abs(entries).max()))
    if zero.any():
        exact = x + np.linalg.lstsq(A[zero], -entries[zero], rcond=None)[0]
        if exact.min() >= 0.5 * floor and np.all(base + A @ exact <= slack):
            x = exact
    return x


def _one_column(a, base, slack, floor):
    """`_group_program` for one column: the least $\\ell_1$ is at a bound of ``x``."""
    up, down = a > 0, a < 0      # entries that grow with x bound it from above
    high = float(np.min((slack[up] - base[up]) / a[up], initial=np.inf))
    low = max(float(np.max((slack[down] - base[down]) / a[down], initial=-np.inf)), floor)
    if low > high:
        return None
    x = high if a.sum() > 0 else low
    if not np.isfinite(x):
        return None
    entries = base + a * x
    zero = np.abs(entries) <= np.maximum(slack, LP_ACCURACY * float(np.abs(entries).max()))
    if zero.any():
        exact = x - float(a[zero] @ entries[zero]) / float(a[zero] @ a[zero])
        if exact >= 0.5 * floor and np.all(base + a * exact <= slack):
            x = exact
    return np.array([x])
