"""Other valid graphs with no more edges than the graph returned.

The search returns the sparsest valid graph it finds. When another valid graph with as
few edges fits the eigenvectors as well, the eigenvectors do not tell the two apart, and
the graph returned may be the wrong one: the result must say so. Two sources of such a
graph, checked when the graph returned fits exact eigenvectors (to ``FITS_EXACTLY``) or
noisy ones to the noise level it was found at:

- *a candidate* (``tied_candidates``): a family vertex found by the search with at most
  as many edges, another edge set, connected, fitting the eigenvectors as well (with
  noise: with equal weights to that level). Exact shuffled eigenvectors of
  ``nx.cycle_graph(150)`` gave an isomorphic cycle with none of the true edges (F1 0.0,
  family 76) beside 19 more cycles of 150 edges among the candidates, the truth one of
  them; ``circulant_graph(150, [1, 2])`` a 300-edge circulant beside five more of 300
  edges; ``circular_ladder_graph(75)`` a 150-edge cycle for its 225 edges beside 19
  more 150-edge cycles; the Moebius-Kantor graph an isomorphic copy (F1 0.5) beside five
  more of 24 edges. None was warned of.
- *a relabelled circulant* (``relabelled_circulant``): number the nodes
  $0, \\dots, n - 1$ along the graph returned when it is one cycle, or (exact
  eigenvectors) in the order of their angles in a two-dimensional eigenspace whose rows
  lie on a regular $n$-gon, as a Fourier mode $\\pm m$ ($m$ coprime to $n$) of a
  circulant graph does. For $k$ coprime to $n$, $p \\mapsto k p \\bmod n$ maps the modes
  $\\pm m$ to $\\pm k^{-1} m$, so a circulant relabelled so is constant on every
  eigenspace of the first and has its eigenvectors whatever basis of each was given: a
  cycle is never determined by its eigenvectors when some $k \\not\\equiv \\pm 1$ is
  coprime to $n$ (every $n \\ge 5$ but 6). The relabelled graph's fit is checked all
  the same (the order is found from one eigenspace), and it joins the candidates.
  ``circulant_graph(30, [1, 4])`` exact (shuffle 1) gave an isomorphic copy (F1 0.0)
  with no twin as sparse among the candidates.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from itertools import pairwise
from math import gcd

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _equal_within_noise,
    _fits_as_well,
    _laplacian,
    _residuals,
    equal_at_level,
)
from gsp_householder.graphs._template_lp import edge_key
from gsp_householder.graphs._thresholds import ROUNDING_FIT

#: Eigenvalues within this fraction of the largest are one (``_fourier_order``).
EQUAL_EIGENVALUES = 1e-9
#: Tolerance of ``_fourier_order`` on the rows' norms and angles, relative to their mean
#: and to the spacing $2 \\pi / n$.
SPACING_TOL = 0.25
#: Multipliers $k$ tried by ``relabelled_circulant``.
MAX_MULTIPLIERS = 3


def _weights(L) -> sp.csr_array:
    """The weights of the Laplacian ``L``: its off-diagonal entries negated, the zeros
    dropped."""
    W = sp.csr_array(-sp.triu(sp.csr_array(L), 1))
    W.eliminate_zeros()
    return sp.csr_array(W + W.T)


def _floored_residuals(basis, W) -> list[float]:
    """``_residuals`` of the graph of weights ``W``, floored at ``ROUNDING_FIT`` (two
    graphs that both fit exact eigenvectors to rounding fit them as well)."""
    return [max(r, ROUNDING_FIT) for r in _residuals(basis, W)]


def tied_candidates(basis, candidates, noise: float = 0.0) -> list[int]:
    """Indices (from 1) of the candidates with no more edges than ``candidates[0]``
    (the graph returned), another edge set, connected, fitting the eigenvectors as well
    (``_fits_as_well``, residuals floored at ``ROUNDING_FIT``) and, for noisy
    eigenvectors (``noise`` > 0), with equal weights to that noise level
    (``_equal_within_noise``).

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    candidates : list of scipy.sparse.csr_array
        Laplacians, the graph returned first.
    noise : float
        The noise level the graph returned was found at; 0 for exact eigenvectors.

    Returns
    -------
    list of int
    """
    if len(candidates) < 2:
        return []
    W0 = _weights(candidates[0])
    edges0, key0 = sp.triu(W0, 1).nnz, edge_key(sp.triu(W0, 1))
    reference = _floored_residuals(basis, W0)
    tied, seen = [], {key0}
    for k, L in enumerate(candidates[1:], start=1):
        W = _weights(L)
        upper = sp.triu(W, 1)
        key = edge_key(upper)
        if upper.nnz > edges0 or key in seen:
            continue
        seen.add(key)
        if (connected_components(W, directed=False)[0] == 1
                and (noise <= 0.0 or _equal_within_noise(basis, W, noise))
                and _fits_as_well(_floored_residuals(basis, W), reference)):
            tied.append(k)
    return tied


def _cycle_order(W) -> np.ndarray | None:
    """The nodes of the graph of weights ``W`` in their order along it when it is one
    cycle through every node; None otherwise."""
    n = W.shape[0]
    W = sp.csr_array(W)
    if n < 5 or W.nnz != 2 * n or np.any(np.diff(W.indptr) != 2):
        return None
    order = np.empty(n, dtype=np.int64)
    previous, node = -1, 0
    for p in range(n):
        order[p] = node
        a, b = W.indices[W.indptr[node]:W.indptr[node + 1]]
        previous, node = node, (b if a == previous else a)
    return order if node == 0 and np.unique(order).size == n else None


def _fourier_order(basis, W) -> np.ndarray | None:
    """The nodes in the order of their angles in a two-dimensional eigenspace of the
    Laplacian of weights ``W`` (two columns of the basis with one eigenvalue) whose rows
    have one norm and angles $2\\pi / n$ apart, as a Fourier mode $\\pm m$ with $m$
    coprime to $n$ has in a circulant graph (to a quarter of the spacing: the fit of the
    graph relabelled by that order decides); None when no such eigenspace exists."""
    V = basis["V"]
    n = V.shape[0]
    lam = _diagonal_fit(V, _laplacian(W, basis))[0]
    order = np.argsort(lam)
    gaps = np.flatnonzero(np.diff(lam[order]) > EQUAL_EIGENVALUES * np.abs(lam).max())
    bounds = np.concatenate(([0], gaps + 1, [n]))
    spacing = 2.0 * np.pi / n
    for a, b in pairwise(bounds):
        if b - a != 2:
            continue
        R = V[:, order[a:b]]
        norms = np.einsum("ij,ij->i", R, R)
        if np.ptp(norms) > SPACING_TOL * norms.mean():
            continue
        angles = np.arctan2(R[:, 1], R[:, 0])
        nodes = np.argsort(angles)
        steps = np.diff(np.append(angles[nodes], angles[nodes[0]] + 2.0 * np.pi))
        if np.abs(steps - spacing).max() <= SPACING_TOL * spacing:
            return nodes
    return None


def relabelled_circulant(basis, W, exact: bool = True) -> sp.csr_array | None:
    """The graph of weights ``W`` relabelled by $p \\mapsto k p \\bmod n$ along a cyclic
    order of its nodes (along ``W`` when it is one cycle through every node, else
    ``_fourier_order``, on ``exact`` eigenvectors only), for the first $k$ in
    $[2, n/2]$ coprime to $n$ (at most ``MAX_MULTIPLIERS`` of them) that gives another
    edge set fitting the eigenvectors as well; None when there is none.

    In that order a circulant graph's eigenspaces are sums of Fourier modes $\\pm m$,
    which $p \\mapsto k p$ permutes ($\\pm m \\mapsto \\pm k^{-1} m$): the relabelled
    graph is constant on every eigenspace of the first and has its eigenvectors. For a
    cycle $p \\sim p + 1$ it is the cycle $p \\sim p + k$.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph returned.
    exact : bool
        Whether the eigenvectors are exact.

    Returns
    -------
    scipy.sparse.csr_array or None
    """
    W = sp.csr_array(W)
    n = W.shape[0]
    order = _cycle_order(W)
    if order is None and exact:
        order = _fourier_order(basis, W)
    if order is None:
        return None
    key = edge_key(sp.triu(W, 1))
    reference = _floored_residuals(basis, W)
    coo = W.tocoo()
    multipliers = [k for k in range(2, n // 2 + 1) if gcd(k, n) == 1][:MAX_MULTIPLIERS]
    for k in multipliers:
        perm = np.empty(n, dtype=np.int64)
        perm[order] = order[(k * np.arange(n)) % n]
        A = sp.csr_array(sp.coo_array((coo.data, (perm[coo.row], perm[coo.col])), shape=(n, n)))
        if (edge_key(sp.triu(A, 1)) != key
                and _fits_as_well(_floored_residuals(basis, A), reference)):
            return A
    return None


def equally_sparse(basis, W, candidates,
                   noise: float = 0.0) -> tuple[sp.csr_array | None, list[int]]:
    """The checks of this module on the graph returned (weights ``W``, Laplacian
    ``candidates[0]``), found at the noise level ``noise`` (0: exact eigenvectors):
    the Laplacian of ``W`` relabelled (``relabelled_circulant``) when ``W`` has equal
    weights (exact: coefficient of variation below ``EQUAL_WEIGHTS_CV``; noisy:
    ``_equal_within_noise``) and that graph is not among the ``candidates`` already
    (None otherwise; the caller appends it), and the indices of the candidates, that
    one included when appended, with no more edges than the graph returned that fit
    the eigenvectors as well (``tied_candidates``)."""
    equal = equal_at_level(basis, W, noise)
    relabelled = relabelled_circulant(basis, W, noise <= 0.0) if equal else None
    added = None
    if relabelled is not None:
        keys = {edge_key(sp.triu(_weights(L), 1)) for L in candidates}
        if edge_key(sp.triu(relabelled, 1)) not in keys:
            added = _laplacian(relabelled, basis)
    return added, tied_candidates(basis, candidates if added is None else [*candidates, added],
                                  noise)
