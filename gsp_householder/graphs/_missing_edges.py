"""Whether the eigenvectors show edges that a graph inferred from perturbed ones lacks.

The dual of ``_edge_significance``: there every edge of the graph returned is tested
for being nonzero; here every non-edge is tested for being zero. Under the rotation
model of that module, at a non-edge ($L_{ij} = 0$) the entry
$\\tilde L_{ij} = \\sum_k \\tilde V_{ik} \\hat\\lambda_k \\tilde V_{jk}$ read with the
graph's eigenvalues $\\hat\\lambda$ (the diagonal of $\\tilde V^T L \\tilde V$) is
$N(0, \\sigma^2 \\mathrm{se}_{ij}^2)$, with

$$\\mathrm{se}_{ij}^2 = (L_{ii} - L_{jj})^2 + r_i + r_j + \\sum_k \\tilde V_{ik}^2
\\tilde V_{jk}^2 / F_{kk}$$

(rotation term and fitted-eigenvalue term, ``edge_significance``'s standard error at
$L_{ij} = 0$). A non-edge whose $z_{ij} = -\\tilde L_{ij} / (\\sigma\\, \\mathrm{se}_{ij})$
is above ``SE_FACTOR`` times the one-sided Bonferroni quantile $\\Phi^{-1}(1 - \\alpha /
N)$ over the $N$ non-edges is a significantly negative entry: a weight the eigenvectors show between
two nodes that the graph does not join. On the true graph none is expected (family-wise
level $\\alpha$); a graph that misses heavy edges of the truth, whose weight went to the
pairs around them, leaves tens to hundreds (see ``docs/measurements/families.md``,
"Missing edges: non-edges that the eigenvectors show").
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.special import ndtri

from gsp_householder.graphs._edge_significance import PAIR_BLOCK, pair_scale

#: Family-wise level of the test that every non-edge is zero (one-sided, Bonferroni
#: over the non-edges of the graph).
MISSING_LEVEL = 0.05
#: Rotation noise level below which the test is not made: the errors of eigenvectors
#: that close to exact are the eigensolver's rounding, concentrated on pairs of nearly
#: equal eigenvalues rather than the isotropic rotation of the model (weighted
#: Delaunay(200) exact, ``bench_inference.py --extra``: noise 1e-10, 388 non-edges
#: flagged on the right graph); eigenvectors perturbed by 1e-3 show 5e-5 to 1e-4.
MODEL_NOISE = 1e-8
#: Factor on the Bonferroni quantile: the diagonal information matrix understates
#: standard errors by up to 2 times (``_edge_significance``'s calibration, largest ratio
#: 1.97 on four graphs), and wide weights more (right graphs of trees and cycles with
#: lognormal weights, $\\sigma$ = 1 to 1.5: non-edge z-scores up to 23 at
#: thresholds 4.2 to 4.4).
SE_FACTOR = 2.0
#: Largest basis the test is made on (every pair visited: $O(n^3)$ flops in blocks of
#: rows, no $n \\times n$ matrix; 0.2 to 0.3 CPU s on 600 nodes, 2 s on 1000). Not the
#: family searches' bound (``FAMILY_SEARCH_MAX_N``, 500): a test of the fit, it costs
#: no search, and ``random_labeled_tree(600, seed=43)`` perturbed by 1e-3 returned 2709
#: edges for 599 (F1 0.353) with 321 such non-edges and no warning while it stopped there.
MAX_NODES = 1000


def missing_edges(V, L, eigenvalues, test, level: float = MISSING_LEVEL) -> dict | None:
    """The non-edges of ``L`` (inferred from ``V``, with ``eigenvalues`` the diagonal of
    $V^T L V$) whose entry of $V \\hat\\Lambda V^T$ is significantly negative at the
    noise level of ``test`` (the dict of ``edge_significance``, whose ``"noise"``,
    ``"node_terms"`` and ``"information"`` are used).

    Every pair is visited in blocks of ``PAIR_BLOCK`` ($O(n)$ each, $O(n^3)$ in all,
    no $n \\times n$ matrix); the caller bounds $n$.

    Returns
    -------
    dict or None
        None when the noise level is at most ``MODEL_NOISE``; else ``"count"``: the
        number of such non-edges, ``"z"``: the largest z-score among the non-edges (0
        if there is none), ``"threshold"``: ``SE_FACTOR`` times the Bonferroni quantile.
    """
    sigma = test["noise"]
    if sigma <= MODEL_NOISE:
        return None
    L = sp.csr_array(L)
    threshold = missing_threshold(L, level)
    count, largest = 0, 0.0
    for _, _, z in non_edge_scores(V, L, eigenvalues, test):
        count += int((z > threshold).sum())
        largest = max(largest, float(z.max(initial=0.0)))
    return {"count": count, "z": largest, "threshold": threshold}


def missing_threshold(L, level: float = MISSING_LEVEL) -> float:
    """The z-score above which a non-edge of the sparse ``L`` is missing: ``SE_FACTOR``
    times the Bonferroni quantile of ``level`` over its non-edges."""
    n = L.shape[0]
    n_non_edges = n * (n - 1) // 2 - sp.triu(L, 1).nnz
    return SE_FACTOR * float(ndtri(1.0 - level / max(n_non_edges, 1)))


def non_edge_scores(V, L, eigenvalues, test):
    """The z-scores $z_{ij}$ of the module docstring, in blocks: yields ``(a, cols,
    z)`` for the pairs ``(a, cols)``, ``a < cols``, edges of the sparse ``L`` at
    $-\\infty$; ``test`` as for `missing_edges` (its noise level above
    ``MODEL_NOISE``)."""
    sigma = test["noise"]
    L = sp.csr_array(L)
    n = L.shape[0]
    d, r = test["node_terms"]
    F, free = test["information"]
    V = np.asarray(V)
    Z = V[:, free] ** 2 / np.sqrt(np.maximum(F[free], 1e-300))
    scaled = V * eigenvalues
    for a in range(n - 1):
        b = np.arange(a + 1, n)
        for s in range(0, b.size, PAIR_BLOCK):
            cols = b[s:s + PAIR_BLOCK]
            entries = V[cols] @ scaled[a]
            fitted = Z[cols] @ Z[a]
            se = np.sqrt(pair_scale(d, r, np.full(cols.size, a), cols, 0.0) ** 2 + fitted)
            z = -entries / (sigma * se + 1e-300)
            z[_is_edge(L, a, cols)] = -np.inf
            yield a, cols, z


def flagged_non_edges(V, L, eigenvalues, test) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The non-edges ``(rows, cols, z)`` whose z-score (``non_edge_scores``) is above
    ``missing_threshold(L)``: the pairs ``missing_edges`` counts, with their scores."""
    threshold = missing_threshold(L)
    rows, cols, scores = [], [], []
    for a, block, z in non_edge_scores(V, L, eigenvalues, test):
        above = z > threshold
        rows.append(np.full(int(above.sum()), a, dtype=np.int64))
        cols.append(block[above].astype(np.int64))
        scores.append(z[above])
    if not rows:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), np.zeros(0)
    return np.concatenate(rows), np.concatenate(cols), np.concatenate(scores)


def _is_edge(L, a, cols) -> np.ndarray:
    """Which of the pairs ``(a, cols)`` are edges of the sparse ``L``."""
    row = L.indices[L.indptr[a]:L.indptr[a + 1]]
    return np.isin(cols, row)
