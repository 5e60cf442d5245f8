"""A sparser graph read by the edge tests: weak edges dropped, missing edges added.

A noisy search can return a graph that misses edges of the graph sought and holds extra
ones in their place, which the missing-edges test (``_missing_edges``) shows as non-edges
with significantly negative entries. The descent starts from that graph's edges and
moves them, each move followed by a refit of the eigenvalues on the edge set
(``support_fit``: the eigenvalues, the zero column's held at 0, that minimise the squared
entries of $V \\Lambda V^T$ at the non-edges, with edges whose weight comes out
non-positive dropped and the fit made again). Each move drops the edges that the edge
test (``_edge_significance``) finds weak and adds the non-edges whose z-score
(``_missing_edges.non_edge_scores``) is above the missing-edges threshold and is the
largest at both of their nodes. It ends at an edge set that the move does not change (no
weak edge, no missing edge), or gives up after ``MAX_ROUNDS`` moves or at an edge set
met before. Such an end need not be the graph sought (a weighted cycle of 40 nodes
started without its two heaviest edges ends with paths of pairs at distance 2 around
them, at 1.8 times the cycle's rotation residual): the caller compares its fit.

Perturbed PyGSP ``RandomRing(180, seed=2)`` (weights 0.1 to 90; 1e-3, the draw of
``bench_inference.py --pygsp``): the search returned 254 edges (176 of the 180,
rotation residual 1.05e-4) with 110 such non-edges; the descent reads the ring in a few
moves (rotation residual 7.62e-5, the truth's 7.64e-5), 0.2 CPU s.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._edge_significance import edge_significance
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian
from gsp_householder.graphs._missing_edges import flagged_non_edges

#: Most moves of the descent.
MAX_ROUNDS = 40


def support_fit(V, zero_column: int, rows, cols, full=None) -> sp.csr_array:
    """The weights on the pairs ``(rows, cols)`` of the Laplacian $V \\Lambda V^T$ whose
    eigenvalues $\\lambda$ (unit norm, $\\lambda$ of ``zero_column`` held at 0, sign
    giving a positive total weight) minimise $\\sum (V \\Lambda V^T)_{ij}^2$ over the
    other pairs, the smallest eigenvector of their Gram $\\sum a_{ij} a_{ij}^T$,
    $a_{ij} = V_i \\circ V_j$; pairs of non-positive weight left out, and the fit made
    again on the rest, until every weight is positive.

    ``V`` is orthogonal, so the Gram of all pairs is $(I - Z^T Z) / 2$ with
    $Z = V \\circ V$ (``full``, `pair_gram`, when given), and the pairs' own rows are
    taken out of it; only the smallest eigenpair is computed: $O(n^3 + |E| n^2)$.
    """
    V = np.asarray(V)
    n = V.shape[0]
    full = pair_gram(V) if full is None else full
    free = np.arange(n) != zero_column
    rows, cols = np.asarray(rows), np.asarray(cols)
    while True:
        A = V[rows] * V[cols]
        gram = (full - A.T @ A)[np.ix_(free, free)]
        lam = np.zeros(n)
        lam[free] = scipy.linalg.eigh(gram, subset_by_index=[0, 0])[1][:, 0]
        weights = -np.einsum("ek,k,ek->e", V[rows], lam, V[cols])
        if weights.sum() < 0.0:
            weights = -weights
        positive = weights > 0.0
        if positive.all() or not positive.any():
            break
        rows, cols = rows[positive], cols[positive]
    W = sp.csr_array((np.maximum(weights, 0.0), (rows, cols)), shape=(n, n))
    W.eliminate_zeros()
    return sp.csr_array(W + W.T)


def pair_gram(V) -> np.ndarray:
    """The Gram $(I - Z^T Z) / 2$, $Z = V \\circ V$, of the pair rows $V_i \\circ V_j$
    of all pairs $i < j$ of the orthogonal ``V``."""
    Z = V * V
    return (np.eye(V.shape[0]) - Z.T @ Z) / 2.0


def anchored_fit(basis, rows, cols) -> sp.csr_array:
    """`support_fit` on the anchored basis (``basis["V_anchored"]``,
    ``basis["zero_column"]``), its `pair_gram` kept in ``basis["anchored_pair_gram"]``
    for the next fits."""
    return support_fit(basis["V_anchored"], basis["zero_column"], rows, cols,
                       anchored_pair_gram(basis))


def anchored_pair_gram(basis) -> np.ndarray:
    """The `pair_gram` of the anchored basis (``basis["V_anchored"]``), formed once and
    kept in ``basis["anchored_pair_gram"]`` for the fits that follow."""
    if "anchored_pair_gram" not in basis:
        basis["anchored_pair_gram"] = pair_gram(np.asarray(basis["V_anchored"]))
    return basis["anchored_pair_gram"]


def _missing_pairs(V, L, eigenvalues, test) -> tuple[np.ndarray, np.ndarray]:
    """The non-edges of ``L`` whose missing-edge z-score is above the threshold of
    ``_missing_edges.missing_edges`` and is the largest of the non-edges' at both of
    their nodes."""
    n = L.shape[0]
    I, J, S = flagged_non_edges(V, L, eigenvalues, test)
    best = np.full(n, -np.inf)
    np.maximum.at(best, I, S)
    np.maximum.at(best, J, S)
    pick = (S >= best[I]) & (S >= best[J])
    return I[pick], J[pick]


def edge_test_descent(basis, W) -> sp.csr_array | None:
    """The weights of the edge set the descent of the module docstring ends at, started
    from the edges of the graph of weights ``W``: fitted on the anchored basis
    (``basis["V_anchored"]``, ``basis["zero_column"]``, ``support_fit``), tested on
    ``basis["V"]`` as the result's graph is; None when the descent does not end
    (``MAX_ROUNDS``, an edge set met again), when a fit loses every edge, or when the
    edge test cannot be made (noise at rounding)."""
    n = basis["V"].shape[0]
    tested = basis["V"]
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    rows, cols = upper.row[upper.data > 0], upper.col[upper.data > 0]
    seen = set()
    for _ in range(MAX_ROUNDS):
        A = anchored_fit(basis, rows, cols)
        if A.nnz == 0:
            return None
        L = _laplacian(A, basis)
        eigenvalues, _ = _diagonal_fit(tested, L)
        test = edge_significance(tested, L, eigenvalues)
        if test is None:
            return None
        keep = ~test["weak"]
        I, J = _missing_pairs(tested, L, eigenvalues, test)
        if keep.all() and I.size == 0:
            return A
        rows = np.concatenate([test["rows"][keep], I])
        cols = np.concatenate([test["cols"][keep], J])
        key = np.unique(rows.astype(np.int64) * n + cols).tobytes()
        if key in seen:
            return None
        seen.add(key)
    return None


def settled(basis, W) -> bool:
    """Whether the edge tests move nothing on the graph of weights ``W`` (a fit of
    `anchored_fit`), tested on ``basis["V"]`` as `edge_test_descent` tests: no weak
    edge and no missing pair, the end of a descent. False when the edge test cannot
    be made."""
    tested = basis["V"]
    L = _laplacian(W, basis)
    eigenvalues, _ = _diagonal_fit(tested, L)
    test = edge_significance(tested, L, eigenvalues)
    if test is None or test["weak"].any():
        return False
    return _missing_pairs(tested, L, eigenvalues, test)[0].size == 0


def connected(W) -> bool:
    """Whether the graph of weights ``W`` is connected."""
    return connected_components(W, directed=False)[0] == 1
