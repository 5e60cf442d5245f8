"""An edge of the graph sought that a noisy graph found hides: its weight spread on pairs around it.

A graph found from perturbed eigenvectors can lack an edge of the graph sought and hold,
in its place, edges around it whose fitted weights take the missing edge's share:
``random_geometric_graph(80, 0.2, seed=5)`` with lognormal weights ($\\sigma$ = 1),
perturbed by 1e-3 (``tests/_basis_inputs.perturbed``, draws 0 and 1), was answered with
322 to 323 edges for 315 (F1 0.984 to 0.986), one edge of weight 0.39 times the mean
missed and 8 to 9 extra ones of 0.004 to 0.08 times the mean. The edge tests cannot see it:
every extra edge is significantly nonzero (z-scores 7.5 to 52, threshold 3.6) and the
missed edge is not among the non-edges the missing-edges test flags (``_missing_edges``,
largest z-score 8.2 against 8.3), because its entry of $\\tilde V \\hat\\Lambda
\\tilde V^T$ is read with the eigenvalues the wrong support fits. The graph's residuals
are 1.7 times the truth's, and its own non-edges predict 0.68 times its rotation
residual (``_own_noise``: ratio 1.47, the truth's 0.97).

The eigenvalues the fit would take with a pair added to the support show it. The fit
on an edge set is the smallest eigenpair $(\\mu_0, u_0)$ of the Gram $G$ of its
non-edges' rows $a_{ij} = V_i \\circ V_j$ (``_edge_test_descent.support_fit``); adding
a pair $p$ to the support takes its row out, and the smallest eigenvalue $x$ of
$G - a_p a_p^T$ is the root below $\\mu_0$ of the secular equation
$\\sum_k (a_p^T u_k)^2 / (\\mu_k - x) = 1$. Its first-order part is the pair's entry
read with the current eigenvalues (the missing-edges test); the rest is the refit of
the eigenvalues, which the test lacks. The root is below a level $t$ exactly when the
sum at $t$ is at least 1, so every non-edge is screened at once with the
``SECULAR_PAIRS`` smallest eigenpairs and the rest of $\\|a_p\\|^2$ put at the next
eigenvalue (an upper bound of the sum: no pair that clears the level is lost). On the
graph above the missed edge takes the fit to 0.42 times $\\mu_0$, the next pair to
0.83. The pairs whose fit falls below $\\mu_0 /$ ``RESIDUAL_SLACK`` are tried, best
first: the pair added, the support refitted, the edge tests' descent made from it
(``_edge_test_descent.edge_test_descent``: weak edges dropped, missing ones added);
its end is taken when it is connected, has no more edges than the graph it replaces
(the edges that took the hidden edge's weight go) and that graph does not fit the
eigenvectors as well (``_laplacian_fit._fits_as_well``). On the graph above one pair
gives the truth (F1 1.0, residuals 0.58 times the graph's) in 0.05 CPU s.

Only graphs whose residual is above what their own non-edges predict by
``RESIDUAL_SLACK`` are screened (a graph that shares the eigenvectors has a ratio
about 1, ``_own_noise``), and only those the edge tests accept: a graph with a weak
edge or a flagged non-edge is left to the descent and reads of the result
(``laplacian_inference._edge_test_descended``). Screened so, a graph that the
eigenvectors show does not fit (``random_geometric_graph(90, 0.19, seed=31)``,
lognormal weights seed 11, perturbed, draw 1: 366 edges for 393, residual 13 times
the noise, warned) was replaced by a denser one that fits but still hides an edge
(413 edges, no warning), and a lognormal ($\\sigma$ = 2) ``gnp_random_graph(100,
0.08, seed=36)`` (275 edges for 414, warned) by 399 edges, F1 0.94, with no warning.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from gsp_householder.graphs._edge_test_descent import (
    anchored_fit,
    anchored_pair_gram,
    connected,
    edge_test_descent,
)
from gsp_householder.graphs._laplacian_fit import _equal_within_noise, _fits_as_well, _residuals
from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._template_lp import weight_cv
from gsp_householder.graphs._tested_candidates import edge_tests
from gsp_householder.graphs._thresholds import RESIDUAL_SLACK

#: Smallest eigenpairs of the non-edges' Gram with which every pair is screened (the
#: rest of a pair's row is bounded by the next eigenvalue).
SECULAR_PAIRS = 8
#: Most pairs tried (refit and descent each) per graph, best screened first (the
#: screen's bound orders them roughly: the hidden edge of ``random_geometric_graph(90,
#: 0.19, seed=31)`` with lognormal weights, perturbed, came sixth of 398 screened).
TRIED_PAIRS = 8
#: Most pairs added one after the other.
HIDDEN_ROUNDS = 4


def hidden_edge_first(basis, ranked, history) -> list:
    """``ranked`` with the first graph's repair (``hidden_edge_repair``) put first when
    it gives one; else ``ranked`` as it is. Graphs with equal weights to the noise
    level are left as they are (their weights are not read), and so is the complete
    graph (no pair to add). ``history["hidden_edges"]`` records the edges of both
    graphs."""
    if (
        not ranked
        or 2 * ranked[0][0] >= ranked[0][3].shape[0] * (ranked[0][3].shape[0] - 1)
        or _equal_within_noise(basis, ranked[0][3], history["noise"])
    ):
        return ranked
    W = ranked[0][3]
    repaired = hidden_edge_repair(basis, W)
    if repaired is None:
        return ranked
    weights = sp.triu(repaired, 1).data
    history["hidden_edges"] = (int(sp.triu(W, 1).nnz), int(weights.size))
    return [(int(weights.size), weight_cv(weights), None, repaired), *ranked]


def hidden_edge_repair(basis, W) -> sp.csr_array | None:
    """The weights of the graph the pairs hidden by the graph of weights ``W`` lead to
    (module docstring), at most ``HIDDEN_ROUNDS`` pairs one after the other; None when
    ``W``'s residual is within ``RESIDUAL_SLACK`` of what its non-edges predict, when the
    edge tests reject ``W`` (``_tested_candidates.edge_tests``: a weak edge or a missing
    one) or when no pair gives a graph that fits better."""
    if own_noise(basis, W)[1] <= RESIDUAL_SLACK:
        return None
    tests = edge_tests(basis, W)
    if tests is None or tests[1] or tests[2]:
        # a graph the edge tests reject (a weak edge, a missing one) is left to the
        # descent from it and the reads before it (``_edge_test_descended`` of
        # ``laplacian_inference``: a lognormal path of 80 nodes, perturbed, whose 91
        # edges found lack one the eigenvectors show, is read as the path there)
        return None
    repaired = None
    for _ in range(HIDDEN_ROUNDS):
        better = _better_with_a_pair(basis, W)
        if better is None:
            break
        repaired = W = better
    return repaired


def _better_with_a_pair(basis, W) -> sp.csr_array | None:
    """The end of the edge tests' descent from ``W``'s support with one screened pair
    added (``hidden_pairs``) that is connected, has no more edges than ``W`` and fits
    better than ``W``
    (``_fits_as_well`` fails for ``W`` against it), the pairs tried best first; None
    when none does."""
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    rows, cols = upper.row, upper.col
    before = _residuals(basis, W)
    for i, j in hidden_pairs(basis, rows, cols)[:TRIED_PAIRS]:
        fitted = anchored_fit(basis, np.append(rows, i), np.append(cols, j))
        descended = edge_test_descent(basis, fitted) if fitted.nnz else None
        if descended is None or sp.triu(descended, 1).nnz > rows.size or not connected(descended):
            # a denser end is not the edge's weight taken back from edges around it
            # (a lognormal path of 80 nodes, perturbed: 91 edges found, 98 so, where the
            # later cycle read gives the path)
            continue
        if not _fits_as_well(before, _residuals(basis, descended)):
            return descended
    return None


def hidden_pairs(basis, rows, cols) -> list[tuple[int, int]]:
    """The non-edges of the edge set ``(rows, cols)`` whose addition to the support
    takes the smallest eigenvalue of the non-edges' Gram below its value over
    ``RESIDUAL_SLACK`` (module docstring, on the anchored basis as
    ``_edge_test_descent.support_fit`` fits), by their secular sum at that level,
    largest first."""
    V = np.asarray(basis["V_anchored"])
    n = V.shape[0]
    free = np.arange(n) != basis["zero_column"]
    rows, cols = np.asarray(rows), np.asarray(cols)
    A = V[rows] * V[cols]
    gram = (anchored_pair_gram(basis) - A.T @ A)[np.ix_(free, free)]
    k = min(SECULAR_PAIRS, gram.shape[0] - 1)
    if k < 1:
        return []
    mu, U = scipy.linalg.eigh(gram, subset_by_index=[0, k])
    level = mu[0] / RESIDUAL_SLACK
    if mu[0] <= 0.0 or mu[k] <= level:
        return []
    Vf = V[:, free]
    i, j = np.triu_indices(n, 1)
    edge = np.zeros((n, n), dtype=bool)
    edge[rows, cols] = edge[cols, rows] = True
    non_edge = ~edge[i, j]
    i, j = i[non_edge], j[non_edge]
    squares = Vf * Vf
    total = np.einsum("pk,pk->p", squares[i], squares[j])
    secular = np.zeros(i.size)
    shown = np.zeros(i.size)
    for m in range(k):
        coefficients = ((Vf * U[:, m]) @ Vf.T)[i, j] ** 2
        secular += coefficients / (mu[m] - level)
        shown += coefficients
    secular += np.maximum(total - shown, 0.0) / (mu[k] - level)
    picked = np.flatnonzero(secular >= 1.0)
    picked = picked[np.argsort(-secular[picked], kind="stable")]
    return [(int(i[p]), int(j[p])) for p in picked]
