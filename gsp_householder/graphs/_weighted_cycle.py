"""A weighted cycle read from unordered eigenvectors before any search.

A cycle's Laplacian is fixed by the cyclic order of its nodes and its $n$ weights, and
the two eigenvectors that wind once round it put every node near a circle in their
plane, in the order of the cycle (``_cycle_read.round_pairs``: the pair of columns
whose radii $\\sqrt{V_{ia}^2 + V_{ib}^2}$ vary least). ``weighted_cycle`` reads that
order from the roundest pair; when the eigenvalue vector of least misfit off the pairs
at distance 1 or 2 in it leaves more than ``MAX_NOISE`` of its energy there
(``band_misfit``: no cycle behind it, even with swapped neighbours) it stops, in one
eigensolve. Otherwise it fits the cycle's weights on its non-edges
(``_edge_test_descent.anchored_fit``), repairs the neighbours the noise swapped by
adjacent swaps when that fit is not shown (``_cycle_repair.repair_order``), and
returns the cycle only when the eigenvectors show it (``shown_cycle``), by the
library's own tests:

- exact eigenvectors: a residual (``_laplacian_fit._diagonal_fit``) within
  ``ROUNDING_FIT``, or within ``FITS_EXACTLY`` when the cycle's non-edges leave one
  eigenvalue vector (the second least misfit on them above ``RESIDUAL_CONSISTENT``
  squared times the least): weights spread over four decades leave the eigensolver's
  rounding above ``ROUNDING_FIT`` (``RandomRing(300, seed=4)``, weights 0.15 to 4126:
  6.2e-9 for the truth itself). Every graph that shares exact eigenvectors fits them
  to rounding, and a cycle with positive weights on its $n$ edges is the sparsest
  connected graph but a tree;
- perturbed eigenvectors: every weight significantly nonzero
  (``_edge_significance.edge_significance``), a rotation residual within
  ``RESIDUAL_CONSISTENT`` times the one its non-edges' noise predicts
  (``_own_noise.own_noise``: a cycle through a denser graph leaves its chords there)
  and no non-edge significantly negative (``_missing_edges.missing_edges``).

On perturbed rings with weights spread over three decades, the cycle's non-edges leave
a family of eigenvalue vectors that fit them about as well (ten within
``RESIDUAL_CONSISTENT`` squared of the least misfit on ``RandomRing(600, seed=70)``),
and the least squares member can leave non-edges significantly negative where the
truth leaves none (``RandomRing(200, seed=1)``, draw 0: one at z = 9.15, threshold
9.12; ``RandomRing(150, seed=3)``, draw 2: 30, z up to 74). Up to
``FAMILY_SEARCH_MAX_N`` nodes the member is then chosen again in that family,
weighted by the variance of each non-edge's entry (``noise_weighted_refit``), and up
to ``MEMBER_MAX_N`` nodes, if still missing edges, by a linear program that minimises
the largest missing-edge entry over the ``MAX_FAMILY`` vectors of least misfit
(``least_missing_member``). Above ``MEMBER_MAX_N`` nodes the weights are fitted
instead to the squared z-scores the missing-edge test reads on the non-edges
(``_cycle_noise_fit.noise_scaled_weights``, $n$ unknowns, products of order $n^3$):
the least-squares member leaves whole stretches next to the heaviest edges scaled by
0.5 to 0.8, which the family's few vectors do not undo (``RandomRing(600, seed=70)``
draw 0: 313 missing non-edges before, none after three steps). Above ``MEMBER_MAX_N``
nodes, edges that are not significantly nonzero are held to ``EDGE_AGREEMENT`` (the
rule of the weak-edge warning on the graph returned,
``_edge_significance.weak_beyond_agreement``), as the truth itself leaves one
(``RandomRing(400, seed=6)`` draw 0: z = 3.31 at the threshold 3.66, next to the
heaviest edge). The member returned must pass the same tests. No constant is new.

When neither the angles' order nor its adjacent swaps give a cycle shown, the nodes
of heavy chains, which the noise scrambles beyond adjacent swaps, are reordered
(``_cycle_blocks.reorder_blocks``: every order of a block the eigenvectors localise,
scored by its exact support misfit without an eigensolve each), and the cycle in that
order is fitted. The least-squares member of each order read (the angles', repaired,
reordered) is refitted however many non-edges it misses, by the noise-scaled fit when
they outnumber its edges (``RandomRing(360, seed=5)`` draw 0: 570 missing for 360
edges on the true order, none after the fit; ``RandomRing(300, seed=64)`` draw 0: 397
missing, none after two steps; ``RandomRing(450, seed=5)`` draw 0, whose repaired order
is the ring's and whose reordered blocks lose two edges: 2236 missing, shown). Up to
``MEMBER_MAX_N`` nodes the noise-scaled fit also follows a program's member that is
not shown (``RandomRing(300, seed=64)`` draw 1: 11 missing after the program, none
after one step). Rings shown without these refits take the same path as before.

A cycle whose weights are equal to the rankings' noise level (``early_cycle``,
``_laplacian_fit._equal_within_noise``; on exact eigenvectors, a coefficient of
variation below ``EQUAL_WEIGHTS_CV``) is left to the searches, whose rules read the
unweighted cycle and the circulants and warn of their twins: the exact eigenvectors of
a path are also those of the cycle of $n$ equal weights, one edge more than the path.

Before this reading, PyGSP ``RandomRing`` reached its cycle only after the searches:
``RandomRing(100, seed=1)`` exact 7.8 CPU s, ``RandomRing(200, seed=1)`` perturbed 22.5
CPU s with two ``ConvergenceWarning``, and at 600 nodes (seed 70) exact the ladder
found no valid prefix and returned the complete graph.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from gsp_householder.graphs._cycle_blocks import reorder_blocks
from gsp_householder.graphs._cycle_equation_fit import equation_weights
from gsp_householder.graphs._cycle_noise_fit import noise_scaled_weights
from gsp_householder.graphs._cycle_read import _angle_order, round_pairs
from gsp_householder.graphs._cycle_repair import _band_pairs, _least_pairs, repair_order
from gsp_householder.graphs._cycle_sorted_windows import sort_windows
from gsp_householder.graphs._dense_lp import OPTIMAL, RowGeneratedProgram
from gsp_householder.graphs._edge_significance import edge_significance, weak_beyond_agreement
from gsp_householder.graphs._edge_test_descent import anchored_fit, anchored_pair_gram
from gsp_householder.graphs._fitted_level_fit import non_edge_level
from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _laplacian,
    equal_at_level,
    rounding_edges,
)
from gsp_householder.graphs._missing_edges import MAX_NODES as MISSING_MAX_N
from gsp_householder.graphs._missing_edges import missing_edges
from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._support_search import MAX_FAMILY
from gsp_householder.graphs._thresholds import (
    FAMILY_SEARCH_MAX_N,
    FITS_EXACTLY,
    MAX_NOISE,
    RESIDUAL_CONSISTENT,
    ROUNDING_FIT,
)

#: Fewest nodes read: the pairs off the band of `band_misfit` (distance 1 or 2 in the
#: cycle, $2n$ pairs) must outnumber the $n - 1$ unknown eigenvalues,
#: $n (n - 1) / 2 - 2 n \ge n - 1$, which holds from 7 nodes.
MIN_NODES = 7

#: Programs of `least_missing_member` (the variances read again on each member).
MEMBER_ROUNDS = 2

#: Solutions of `_equation_member` (the variances read on the least-squares member,
#: then on the first solution, as ``noise_weighted_refit`` reads its variances twice).
EQUATION_ROUNDS = 2

#: Largest cycle whose member `least_missing_member` seeks: its program has a row per
#: pair and its entries cost ``MAX_FAMILY`` products of order $n$ (1.2 CPU s at 150
#: nodes, 14 s at 400 where it found no member shown).
MEMBER_MAX_N = 300


def band_misfit(basis, order) -> float:
    """The relative misfit off the band of the nodes in ``order``: for the eigenvalue
    vector $\\lambda$ of least misfit off the pairs at distance 1 or 2 in their cycle
    (``_cycle_repair._least_pairs``), the square root of that misfit over the squared
    entries of $V \\Lambda V^T$ on the band. The band holds both edges of every
    adjacent swap: a cycle read with swapped neighbours leaves the noise there (1e-3
    on PyGSP ``RandomRing`` perturbed by 1e-3, 1e-8 on exact ones), a graph that is
    no cycle its other edges (0.6 to 7 on Watts-Strogatz, Barabasi-Albert, grid graphs
    and cycles with a chord). A gate only: a vector on the few columns that heavy edges
    localise can leave little off any band (1e-3 on perturbed random geometric graphs
    and ladders, 6.5e-5 on an exact ring with two distant nodes exchanged); the fit
    decides (``shown_cycle``).

    The misfit is infinite when some node has no pair in the band whose entry stands
    out of its row's noise (`_every_node_banded`): a cycle read, even with swapped
    neighbours, has both edges of every node in the band, and a cycle the eigenvectors
    show has every weight significantly positive. Nodes that are twins (the same
    neighbours, as in Barabasi-Albert graphs) have equal entries in every column but
    the one localised on them, so they stand side by side in any angular order, and
    that column alone, as $\\lambda$, leaves nothing off the band (misfit 0 exact,
    1.3e-3 perturbed by 1e-3) while no other node has an edge."""
    V = np.asarray(basis["V_anchored"])
    rows, cols = _band_pairs(order, 2)
    misfit, lam = _least_pairs(basis, rows, cols)
    L = (V * lam) @ V.T
    band = float(np.square(L[rows, cols]).sum())
    if band == 0.0 or not _every_node_banded(L, rows, cols):
        return np.inf
    return float(np.sqrt(max(misfit, 0.0) / band))


def _every_node_banded(L, rows, cols) -> bool:
    """Whether every node has a pair ``(rows, cols)`` whose entry of ``L`` exceeds
    ``RESIDUAL_CONSISTENT`` times its row's noise: the normal scale (1.4826 times the
    median absolute value) of its entries off those pairs and the diagonal. Scaled
    per row, the entries of nodes next to heavy edges, whose noise is larger, do not
    set the level of the others'."""
    off = np.abs(L)
    np.fill_diagonal(off, np.nan)
    off[rows, cols] = np.nan
    off[cols, rows] = np.nan
    noise = 1.4826 * np.nanmedian(off, axis=1)
    strongest = np.zeros(L.shape[0])
    np.maximum.at(strongest, rows, np.abs(L[rows, cols]))
    np.maximum.at(strongest, cols, np.abs(L[rows, cols]))
    return bool(np.all(strongest > RESIDUAL_CONSISTENT * noise))


def cycle_weights(basis, order) -> sp.csr_array | None:
    """The weights fitted to the cycle through the nodes in ``order``
    (``anchored_fit``), or None when the fit leaves out one of its edges (a
    non-positive weight)."""
    after = np.roll(order, -1)
    W = anchored_fit(basis, np.minimum(order, after), np.maximum(order, after))
    return W if sp.triu(W, 1).nnz == order.size else None


def _off_cycle(L, rows, cols) -> tuple[np.ndarray, np.ndarray]:
    """The pairs ``i < j`` that are not edges ``(rows, cols)`` of the cycle."""
    n = L.shape[0]
    off = np.ones((n, n), dtype=bool)
    off[rows, cols] = False
    off[cols, rows] = False
    i, j = np.nonzero(np.triu(off, 1))
    return i, j


def _entry_variance(L, i, j) -> np.ndarray:
    """The variance, over $\\sigma^2$, of the entries ``(i, j)`` of non-edges of the
    Laplacian ``L`` under the rotation model (``_own_noise``: $v_{ij} = (L^2)_{ii} +
    (L^2)_{jj} - 2 L_{ii} L_{jj}$)."""
    diagonal = L.diagonal()
    s2 = np.asarray(L.multiply(L).sum(axis=1)).ravel()
    return s2[i] + s2[j] - 2.0 * diagonal[i] * diagonal[j]


def _entry_scale(L, i, j) -> np.ndarray:
    """The standard deviation, over $\\sigma$, of the entries ``(i, j)`` of non-edges of
    the Laplacian ``L`` under the rotation model: $\\sqrt{v_{ij}}$ (`_entry_variance`)."""
    return np.sqrt(np.maximum(_entry_variance(L, i, j), 1e-300))


def cycle_family(basis, W) -> tuple[np.ndarray, np.ndarray]:
    """``(values, family)``: the eigenvalue vectors $\\lambda$ (columns of ``family``,
    unit norm, 0 at the zero column) whose misfit on the non-edges of ``W`` (the
    smallest eigenvalues ``values`` of their Gram, as ``_cycle_repair`` reads it) is
    within ``RESIDUAL_CONSISTENT`` squared of the least: the family those non-edges
    leave at the level of the fit, at most ``MAX_FAMILY`` of them."""
    V = np.asarray(basis["V_anchored"])
    n = V.shape[0]
    upper = sp.triu(W, 1).tocoo()
    free = np.arange(n) != basis["zero_column"]
    A = V[upper.row] * V[upper.col]
    gram = (anchored_pair_gram(basis) - A.T @ A)[np.ix_(free, free)]
    last = min(MAX_FAMILY, int(free.sum())) - 1
    values, vectors = scipy.linalg.eigh(gram, subset_by_index=[0, last])
    k = int(np.count_nonzero(values <= RESIDUAL_CONSISTENT**2 * max(values[0], 0.0)))
    family = np.zeros((n, max(k, 1)))
    family[free] = vectors[:, : max(k, 1)]
    return values[: max(k, 1)], family


def noise_weighted_refit(basis, W) -> sp.csr_array | None:
    """The weights on the edges of ``W`` refitted in the family its non-edges leave at
    the noise level (module docstring): the eigenvalue vectors $\\lambda$ whose misfit
    on the non-edges is within ``RESIDUAL_CONSISTENT`` squared of the least (at most
    ``MAX_FAMILY`` of them), combined to the least misfit weighted by the variance
    $v_{ij}$ each non-edge's entry has under the rotation model (``_own_noise``), $v$
    read on ``W`` and then on the refit (two rounds); None when a weight is not
    positive. ``W`` itself when the family has one member."""
    V = np.asarray(basis["V_anchored"])
    n = V.shape[0]
    upper = sp.triu(W, 1).tocoo()
    rows, cols = upper.row, upper.col
    _, family = cycle_family(basis, W)
    k = family.shape[1]
    if k <= 1:
        return W
    i, j = np.triu_indices(n, 1)
    off = np.ones((n, n), dtype=bool)
    off[rows, cols] = False
    i, j = i[off[i, j]], j[off[i, j]]
    entries = np.array([((V * family[:, m]) @ V.T)[i, j] for m in range(k)])
    for _ in range(2):
        v = np.maximum(_entry_variance(_laplacian(W, basis), i, j), np.finfo(float).tiny)
        c = scipy.linalg.eigh((entries / v) @ entries.T, subset_by_index=[0, 0])[1][:, 0]
        lam = family @ c
        weights = -np.einsum("ek,k,ek->e", V[rows], lam, V[cols])
        if weights.sum() < 0.0:
            weights = -weights
        if np.any(weights <= 0.0):
            return None
        W = sp.csr_array((weights, (rows, cols)), shape=(n, n))
        W = sp.csr_array(W + W.T)
    return W


def least_missing_member(basis, W) -> sp.csr_array | None:
    """The cycle on the edges of ``W`` whose eigenvalue vector, in the span of the
    ``MAX_FAMILY`` vectors of least misfit on its non-edges, leaves its most negative
    non-edge least (module docstring): a linear program (HiGHS, ``MAX_FAMILY`` + 1
    unknowns, a row per non-edge) minimising the largest one-sided entry
    $-\\tilde L_{ij} / \\sqrt{v_{ij}}$ of $V \\operatorname{diag}(\\hat\\lambda) V^T$
    read as the missing-edge test reads it ($\\hat\\lambda$ the diagonal of
    $V^T L V$, linear in the weights), every weight non-negative and their sum held;
    $v_{ij}$ read on ``W``, then on the member found (``MEMBER_ROUNDS`` rounds, while
    only non-edges fail, ``shown_cycle``). None when a program fails or
    leaves a weight at zero; the last member otherwise."""
    V = np.asarray(basis["V"])
    anchored = np.asarray(basis["V_anchored"])
    n = V.shape[0]
    upper = sp.triu(W, 1).tocoo()
    rows, cols = upper.row, upper.col
    free = np.arange(n) != basis["zero_column"]
    A = anchored[rows] * anchored[cols]
    gram = (anchored_pair_gram(basis) - A.T @ A)[np.ix_(free, free)]
    size = min(MAX_FAMILY, int(free.sum()))
    family = np.zeros((n, size))
    family[free] = scipy.linalg.eigh(gram, subset_by_index=[0, size - 1])[1]
    weights = -(A @ family)  # the edges' weights of each vector
    reread = ((V[rows] - V[cols]) ** 2).T @ weights  # their diagonal of V^T L V
    i, j = _off_cycle(W, rows, cols)
    entries = np.stack([((V * reread[:, k]) @ V.T)[i, j] for k in range(size)], axis=1)
    total = float(upper.data.sum())
    member = W
    start = np.r_[np.linalg.lstsq(weights, upper.data, rcond=None)[0], 0.0]
    for _ in range(MEMBER_ROUNDS):
        scale = _entry_scale(_laplacian(member, basis), i, j)
        status, x = _largest_entry_program(entries / scale[:, None], weights, total, start)
        if status != OPTIMAL:
            return None
        start = x
        w = weights @ x[:size]
        if np.any(w <= 0.0):
            return None
        member = sp.csr_array((np.r_[w, w], (np.r_[rows, cols], np.r_[cols, rows])), shape=(n, n))
        if shown_cycle(basis, member)[0] != "missing":
            # shown, or failing another test that the variances read again do not move
            break
    return member


def _largest_entry_program(entries, weights, total, start) -> tuple[int, np.ndarray | None]:
    """``(status, x)`` of the program of ``least_missing_member``: minimise $s$ over
    $x = (c, s)$ with $-\\mathrm{entries}\\, c \\le s$ (a row per non-edge),
    $\\mathrm{weights}\\, c \\ge 0$ (a row per edge) and the weights' sum held at
    ``total``; ``linprog``'s status code, ``x`` None unless optimal.

    Its optimum is fixed by about as many rows as it has columns, out of one per pair:
    it is solved over working sets of the rows (``_dense_lp.RowGeneratedProgram``),
    which every edge's row joins (they bound the columns), starting from the rows
    largest at ``start``. An optimum of a working set that no row violates is the
    whole program's. The program of every row, solved whole by HiGHS's dual simplex,
    took 4.9 and 5.2 CPU s (44 850 rows, 49 columns, 439 and 405 iterations) on
    PyGSP's ``RandomRing(300, seed=64)`` perturbed, draw 1.
    """
    n_entries, size = entries.shape
    A = np.block(
        [
            [-entries, -np.ones((n_entries, 1))],
            [-weights, np.zeros((len(weights), 1))],
        ]
    )
    free = np.full(size + 1, np.inf)
    program = RowGeneratedProgram(
        A,
        np.zeros(len(A)),
        np.r_[weights.sum(axis=0), 0.0][None],
        np.array([total]),
        -free,
        free,
        start,
        kept=np.arange(n_entries, len(A)),
    )
    return program.solve(np.r_[np.zeros(size), 1.0])


def _alone(basis, W) -> bool:
    """Whether the non-edges of ``W`` leave one eigenvalue vector: the second least
    misfit on them above ``RESIDUAL_CONSISTENT`` squared times the least."""
    anchored = np.asarray(basis["V_anchored"])
    upper = sp.triu(W, 1).tocoo()
    free = np.arange(anchored.shape[0]) != basis["zero_column"]
    A = anchored[upper.row] * anchored[upper.col]
    gram = (anchored_pair_gram(basis) - A.T @ A)[np.ix_(free, free)]
    values = scipy.linalg.eigh(gram, eigvals_only=True, subset_by_index=[0, 1])
    return bool(values[1] > RESIDUAL_CONSISTENT**2 * max(values[0], 0.0))


def shown_cycle(
    basis, W, *, weak_within_agreement: bool = False, many_missing: bool = False
) -> tuple[str, float]:
    """``(verdict, noise)`` for the cycle of weights ``W`` by the tests of the module
    docstring: ``"shown"``, ``"missing"`` (it passes them but for non-edges
    significantly negative, no more of them than it has edges), ``"many missing"``
    (more of them, only with ``many_missing``; else ``"not shown"``) or ``"not
    shown"``, and the rotation noise its non-edges read (0 for exact eigenvectors).
    With ``weak_within_agreement``, edges not significantly nonzero are refused only
    when the cycle without them agrees with it below ``EDGE_AGREEMENT`` in F1, the rule
    of the weak-edge warning on the graph returned
    (``_edge_significance.weak_beyond_agreement``)."""
    V = basis["V"]
    L = _laplacian(W, basis)
    eigenvalues, residual = _diagonal_fit(V, L)
    if residual <= ROUNDING_FIT or (residual <= FITS_EXACTLY and _alone(basis, W)):
        # exact eigenvectors (spread weights leave the eigensolver's rounding above
        # ROUNDING_FIT: RandomRing(300, seed 4), weights 0.15 to 4126, 6.2e-9 for the
        # truth), and the cycle's non-edges leave it alone; a weight at rounding is no
        # edge (``rounding_edges``: the 3-cube's eigenvectors fit a cycle with six of
        # its eight weights at 1e-15, a matching of two edges)
        return ("not shown" if rounding_edges(L).any() else "shown"), 0.0
    test = edge_significance(V, L, eigenvalues)
    if (
        test is None
        or (weak_beyond_agreement(test) if weak_within_agreement else test["weak"].any())
        or own_noise(basis, W)[1] > RESIDUAL_CONSISTENT
    ):
        return "not shown", 0.0
    found = missing_edges(V, L, eigenvalues, test)
    if found is None:
        return "not shown", 0.0
    if found["count"] > sp.triu(W, 1).nnz:
        # more missing pairs than the cycle has edges: were they edges, the cycle would
        # agree with that graph below F1 2/3, and no member of its family is sought
        return ("many missing", float(test["noise"])) if many_missing else ("not shown", 0.0)
    return ("shown" if found["count"] == 0 else "missing"), float(test["noise"])


def _shown_within_agreement(
    basis, verdicts: list, relaxed: bool = True
) -> Callable[[sp.csr_array], bool]:
    """The test ``noise_scaled_weights`` asks of a member ``W``: whether ``shown_cycle``
    shows it, its weak edges held to ``EDGE_AGREEMENT`` (the weights it fits leave the
    weakest edges where the truth leaves them, next to the heaviest:
    ``RandomRing(400, seed=6)`` perturbed by 1e-3, draw 0, the truth's weakest edge at
    z = 3.31, threshold 3.66), unless not ``relaxed`` (every edge significant, as up to
    ``MEMBER_MAX_N`` nodes); each verdict is appended to ``verdicts``."""

    def shown(W) -> bool:
        verdicts.append(shown_cycle(basis, W, weak_within_agreement=relaxed))
        return verdicts[-1][0] == "shown"

    return shown


def cycle_in_order(
    basis, order, *, many_missing: bool = False
) -> tuple[sp.csr_array, float] | None:
    """``(W, noise)``: the cycle through the nodes in ``order`` fitted
    (``cycle_weights``; when only non-edges fail, ``noise_weighted_refit`` up to
    ``FAMILY_SEARCH_MAX_N`` nodes, then `_member_shown`) when the eigenvectors show it
    (``shown_cycle``); else None. With ``many_missing``, the least-squares member is
    refitted however many non-edges it misses (``shown_cycle``'s option): when it
    misses more than it has edges, by ``noise_scaled_weights`` at every size (a member
    that far from the truth is out of reach of the family's ``MAX_FAMILY`` vectors,
    whose program also costs 4 CPU s at 300 nodes)."""
    W = cycle_weights(basis, order)
    if W is None:
        return None
    # above MEMBER_MAX_N the weak edges are held to EDGE_AGREEMENT (module docstring)
    relaxed = W.shape[0] > MEMBER_MAX_N
    verdict, noise = shown_cycle(basis, W, weak_within_agreement=relaxed, many_missing=many_missing)
    far = verdict == "many missing"
    if verdict in ("missing", "many missing"):
        refit = noise_weighted_refit(basis, W) if W.shape[0] <= FAMILY_SEARCH_MAX_N else None
        if refit is not None:
            verdict, noise = shown_cycle(basis, refit, weak_within_agreement=relaxed)
        if verdict == "shown":
            return refit, noise
        return _member_shown(basis, W, far, order)
    return (W, noise) if verdict == "shown" else None


def _member_shown(basis, W, far: bool, order) -> tuple[sp.csr_array, float] | None:
    """``(W, noise)``: the member of the cycle of weights ``W`` through the nodes in
    ``order`` (whose non-edges the refit leaves missing) that the eigenvectors show, or
    None: up to ``MEMBER_MAX_N`` nodes, unless ``far`` (more missing non-edges than
    edges), the member of least missing entry (``least_missing_member``); then, or above
    it (a program with a row per pair), the weights solved from the eigenvector
    equations (`_equation_member`), and the weights fitted in the units of their
    non-edges' noise (``noise_scaled_weights``) from those when they only miss
    non-edges, else from ``W`` (``RandomRing(300, seed=64)`` perturbed by 1e-3, draw 1,
    the program's member misses 11 non-edges, the fit's none after one step)."""
    if W.shape[0] <= MEMBER_MAX_N and not far:
        member = least_missing_member(basis, W)
        if member is not None:
            verdict, noise = shown_cycle(basis, member)
            if verdict == "shown":
                return member, noise
    relaxed = W.shape[0] > MEMBER_MAX_N
    verdict, solved, noise = _equation_member(basis, W, order, relaxed)
    if verdict == "shown":
        return solved, noise
    verdicts: list[tuple[str, float]] = []
    start = solved if verdict == "missing" else W
    member = noise_scaled_weights(basis, start, _shown_within_agreement(basis, verdicts, relaxed))
    return None if member is None else (member, verdicts[-1][1])


def _equation_member(basis, W, order, relaxed: bool) -> tuple[str, sp.csr_array | None, float]:
    """``(verdict, W, noise)``: the cycle through the nodes in ``order`` whose weights
    solve its eigenvector equations, each over its noise under the rotation model read
    on the weights before (``_cycle_equation_fit.equation_weights``: on ``W``, then on
    the first solution, ``EQUATION_ROUNDS`` solutions), and ``shown_cycle``'s verdict on
    it, its weak edges held to ``EDGE_AGREEMENT`` when ``relaxed``: the first solution
    shown, else the last (``"not shown"`` and None when a weight is not positive).

    The least-squares member fits the entries off the cycle, whose noise the heaviest
    edges dominate: on the cycle of lognormal weights ($\\sigma = 2$) of 350 nodes,
    weight seed 9, perturbed by 1e-3, draw 1, in its true order, it misses 129 non-edges
    and the noise-scaled fit started there settled with 5 missing, where the equations'
    first solution is shown."""
    solved = W
    verdict, noise = "not shown", 0.0
    for _ in range(EQUATION_ROUNDS):
        solved = equation_weights(basis, order, solved)
        if solved is None:
            return "not shown", None, 0.0
        verdict, noise = shown_cycle(basis, solved, weak_within_agreement=relaxed)
        if verdict == "shown":
            break
    return verdict, solved, noise


def weighted_cycle(basis) -> tuple[sp.csr_array, float] | None:
    """``(W, noise)``: the weights of the cycle read from the combinatorial basis
    ``basis`` (``"V"``, ``"V_anchored"``, ``"zero_column"``) that its eigenvectors show
    (module docstring) and the rotation noise level read on it; None when there is
    none.

    Parameters
    ----------
    basis : dict
        The inference's basis, anchored (``_basis_input._anchored_pair_basis``).

    Returns
    -------
    tuple or None
        The symmetric sparse weights and the noise level (0 for exact eigenvectors).
    """
    V = np.asarray(basis["V"])
    n = V.shape[0]
    if not MIN_NODES <= n <= MISSING_MAX_N:
        # above, the missing-edge test is not made, and the winding pair's search
        # (``round_pairs``, $O(n^3)$ element operations) costs seconds on every basis
        return None
    angles = _angle_order(V, *round_pairs(V, basis["zero_column"], 1)[0])
    if band_misfit(basis, angles) > MAX_NOISE:
        # no cycle behind the angles' order, even with swapped neighbours
        return None
    # each order's least-squares member is refitted however many non-edges it misses
    # (the noise-scaled fit when they outnumber its edges; module docstring)
    found = cycle_in_order(basis, angles, many_missing=True)
    order = angles
    # each reading repairs the last: adjacent swaps, then heavy chains scrambled beyond
    # them (their blocks reordered), then chains longer than a block (windows sorted
    # along their columns)
    for reread in (repair_order, reorder_blocks, sort_windows):
        if found is not None:
            break
        following = reread(basis, order)
        if not np.array_equal(following, order):
            found = cycle_in_order(basis, following, many_missing=True)
        order = following
    return found


def early_cycle(B: PairBasis, basis, history) -> list | None:
    """The weighted cycle the eigenvectors show (``_weighted_cycle``), as the searches'
    list of graphs found, for an unordered combinatorial basis without eigenspaces (not
    a twin class's, nor one whose caller keeps only a regular graph); None otherwise.
    Its noise level (``history["noise"]``, also the one estimate) is the one its
    non-edges show read as the rankings read their kept pairs
    (``_fitted_level_fit.non_edge_level``), 0 for exact eigenvectors; a cycle whose
    weights are equal to that level (``_laplacian_fit._equal_within_noise``; exact:
    coefficient of variation below ``EQUAL_WEIGHTS_CV``) is left to the searches, whose
    rules read it and warn of its twins (the path's eigenvectors, exact, are also an
    equal-weight cycle's: the path, sparser, is the searches' answer).
    ``history["weighted_cycle"]`` is set."""
    if (
        B.ordered
        or basis.get("kind") != "combinatorial"
        or basis.get("groups") is not None
        or basis.get("twin_class")
        or basis.get("regular_only")
    ):
        return None
    found = weighted_cycle(basis)
    if found is None:
        return None
    W, noise = found
    level = non_edge_level(B, W) if noise > 0.0 else 0.0
    if equal_at_level(basis, W, level):
        # equal weights: the searches' rules read the cycle and warn of its twins
        return None
    if level > 0.0:
        history["noise"] = level
        history["noise_estimates"].append(level)
    history["weighted_cycle"] = True
    weights = sp.triu(W, 1).data
    return [(int(weights.size), float(weights.std() / weights.mean()), None, W)]
