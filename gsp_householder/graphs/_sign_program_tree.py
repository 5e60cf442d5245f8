"""A weighted spanning tree read from the sign-constrained program over the whole basis.

A tree whose weights spread over orders of magnitude (a weighted spanning tree of a
sensor network: ``random_labeled_tree(n)`` with lognormal(0, 1) weights) perturbed by
1e-3 is not reached by the noisy searches from 250 nodes: their kept pairs leave weak
edges (weights near 0.05) no larger than the noise on the non-edges, and they end with
no graph that fits at the noise level (the complete graph, 8 to 24 CPU s). The truth
with its fitted weights (``_weighted_tree.fitted_weights``) fits the eigenvectors at
3.6 times the rankings' smallest noise estimate; the tree rules of ``_weighted_tree``
read the cone of valid eigenvalue vectors on at most 120 nodes only.

``sign_program_tree`` reads that cone on the whole basis by a linear program with row
generation. The unknowns are the eigenvalues $\\lambda$ of the columns other than the
constant one, each in $[0, \\operatorname{tr}]$ (a Laplacian's eigenvalues are
non-negative), with the trace $\\sum_k \\lambda_k = n - 1$; the rows are the pairs'
entries $a_{ij} \\lambda \\le 0$ ($a_{ij} = V_i \\circ V_j$: no positive off-diagonal
entry). The objective is the weight outside a support, $-\\sum_{ij \\notin S} a_{ij}
\\lambda$, which is linear and costs one vector: the sum of all pairs' rows is
$((V^T 1)^2 - 1) / 2$. The first support is the ``LEVERAGE_PAIRS`` $n$ pairs of
largest leverage $a_{ij}^T G^{-1} a_{ij}$ ($G$ the Gram matrix of all the pairs'
rows, which a tree's edges dominate), estimated by ``LEVERAGE_PROBES`` random
projections; each later support is the last answer's spanning tree (a new objective
only: the last optimal basis stays feasible and the primal simplex restarts from it).
The program starts with the first support's rows. When the tree read repeats, the pairs
whose entry is positive are added (row generation: at most ``ADDED_ROWS`` $n$ of them,
the largest first) and the program is solved again: from its last basis, or cold where
more rows were violated than are added (``_sign_program``: from the last basis, the dual
simplex then took up to four times the iterations); the read stops
when those rows leave the tree as it was, or none is violated. The first support
depends on the projections (on the perturbed lognormal tree(250, 2), seed 0 reads 245 of
249 edges, seeds 1 and 2 the truth), so up to ``_fitting_tree.TREE_STARTS`` draws are
read, as the tree search's starts.

After each solve the maximum spanning tree of $-V \\operatorname{diag}(\\lambda) V^T$
is read with fitted weights and returned when the eigenvectors show it
(``_weighted_tree.accepted``: every weight above the noise its entry carries, its
rotation residual and its residual within ``RESIDUAL_CONSISTENT`` times the levels,
``fits_at_noise``). No connected graph is sparser than a tree, so a tree accepted is a
sparsest valid graph at that level. No tolerance is new.

Between row generations the reads descend: the tree read at $\\lambda_k$ is the maximum
spanning tree of $-M$, so the weight outside it at $\\lambda_k$ is at most that outside
the last tree, which $\\lambda_k$ minimised, and the next solve lowers it again. Rows
added are meant to correct the tree they were added for; a draw ends when the next new
tree fits the eigenvectors no better than that one (``_diagonal_fit``), as it ends
when they leave the tree as it was. The trees' residuals between row generations are
not a guide (perturbed ``balanced_tree(2, 7)``: 0.149, 0.151, 0.156, then the truth at
6.5e-4), and no draw is ended there. On unweighted random trees every tree read fits
within 1.5 times the truth and is refused (weights within their noise), and after rows
were added the draws went on for dozens of solves: 201 of 239 CPU s on
``random_labeled_tree(300, 1)`` perturbed, whose answer comes from the later searches.

The program's path (its supports, rows and trees) does not depend on the level; only
the verdict on each tree does, and of ``accepted`` only the residual's comparison with
the level. The trees read, each with the rest of the verdict and its residual, are kept
in the basis record (``ProgramTrees``, ``basis[RECORD]``): where the capped ladder asks
again on the same eigenvectors, the answer is the first kept tree its level accepts,
and the program is read on past the last one only if none is (a read refused at one
level is refused at any smaller one from the record alone). On the perturbed lognormal
tree(250, 2) with two extra edges the second of its two refused reads cost 35 CPU s;
from the record, none.

Asked only where the noisy searches end with no graph that fits at the rankings'
smallest noise level (``_ranking_ladder``): a right answer is never replaced. The level
is that of the ladder asking; the capped ladder (``capped_fallback``) has its own,
larger estimate, at which a tree with one to three wrong edges can pass (the perturbed
lognormal tree(300, 2): 296 of 299 edges), and the result's own check
(``laplacian_inference``, residual above ``RESIDUAL_CONSISTENT`` times the noise the
pairs show) then warns.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._dense_lp import OPTIMAL, WarmProgram
from gsp_householder.graphs._fitting_tree import TREE_STARTS, tree_family
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._template_lp import CERTIFY_MARGIN
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT
from gsp_householder.graphs._tree_search import MAX_STEPS, SEED, _spanning
from gsp_householder.graphs._weighted_tree import _symmetric, fitted_weights, shown_at_own_noise

#: Largest basis read: each program has ``LEVERAGE_PAIRS`` $n$ rows or more and
#: $n - 1$ columns (dense); its first solve takes some 0.5 CPU s at 200 nodes, 2.3 at
#: 250 and 4 at 300 (a read that fails costs up to 70 CPU s at 300 nodes).
MAX_NODES = 320
#: The first support: this many times $n$ pairs of largest leverage (on the perturbed
#: lognormal trees of 200 to 300 nodes they hold all edges but 1 to 4).
LEVERAGE_PAIRS = 10
#: Random projections of the leverage estimate (a relative error near
#: $\\sqrt{2 / 32} = 0.25$, which only orders the pairs).
LEVERAGE_PROBES = 32
#: At most this many times $n$ violated pairs added after a solve.
ADDED_ROWS = 2
#: The read ends when the first program's optimum puts more than this fraction of the
#: total weight $(n - 1) / 2$ outside its support (``_programs``): the weight is not
#: on few pairs, and no spanning tree holds it (perturbed lognormal trees of 60 to 250
#: nodes, with or without extra edges: 0.004 to 0.017; PyGSP
#: ``StochasticBlockModel(200, k=4)``, perturbed: 0.87).
OUTSIDE_FRACTION = 0.5
#: The key of the basis record that keeps the trees read (``ProgramTrees``).
RECORD = "sign_program_trees"


def _free_columns(V: np.ndarray) -> np.ndarray:
    """The columns of ``V`` other than the one nearest the constant vector."""
    constant = int(np.argmax(np.abs(V.sum(axis=0))))
    return np.delete(V, constant, axis=1)


def pair_leverage(U: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Estimate of every pair's leverage $a_{ij}^T G^{-1} a_{ij}$, $a_{ij} = U_i \\circ
    U_j$ and $G = \\sum_{i < j} a_{ij} a_{ij}^T = (I - (U \\circ U)^T (U \\circ U)) / 2$,
    from ``LEVERAGE_PROBES`` projections $z = R \\xi$ ($R R^T = G^{-1}$, $\\xi$
    standard normal): the mean of $(U \\operatorname{diag}(z) U^T)_{ij}^2$.

    Parameters
    ----------
    U : numpy.ndarray
        The basis's columns other than the constant one, shape ``(n, n - 1)``.
    rng : numpy.random.Generator
        Source of the projections.

    Returns
    -------
    numpy.ndarray
        Shape ``(n, n)``, symmetric.

    Examples
    --------
    >>> import numpy as np
    >>> L = np.array([[1.0, -1, 0], [-1, 2, -1], [0, -1, 1]])
    >>> U = np.linalg.eigh(L)[1][:, 1:]
    >>> lev = pair_leverage(U, np.random.default_rng(0))
    >>> lev.shape
    (3, 3)
    """
    squares = U * U
    gram = (np.eye(U.shape[1]) - squares.T @ squares) / 2
    R = np.linalg.cholesky(np.linalg.inv(gram))
    total = np.zeros((U.shape[0], U.shape[0]))
    for _ in range(LEVERAGE_PROBES):
        P = (U * (R @ rng.standard_normal(U.shape[1]))) @ U.T
        total += P * P
    return total / LEVERAGE_PROBES


def sign_program_tree(V: np.ndarray, basis, level: float):
    """The weights (sparse, symmetric) of a spanning tree read from the sign-constrained
    program over the whole basis (module docstring) that the eigenvectors show
    (``_weighted_tree.accepted`` at the noise level ``level``); else None. The first
    support depends on the leverage's projections: up to ``_fitting_tree.TREE_STARTS``
    draws (seeds ``_tree_search.SEED`` on) are read, as the tree search's starts.

    The trees read are kept in ``basis[RECORD]`` (``ProgramTrees``): a later call on the
    same eigenvectors at another level takes its answer from them and reads on only
    past the last one (the capped ladder asks again where the first ladder's read was
    refused).

    Parameters
    ----------
    V : numpy.ndarray
        The eigenvectors, shape ``(n, n)``.
    basis : dict
        The inference's basis record (``_laplacian``'s kind and scale).
    level : float
        The rankings' smallest noise estimate (positive).

    Returns
    -------
    scipy.sparse.csr_array or None
    """
    record = basis.get(RECORD)
    if record is None or not record.reads(V, basis):
        record = basis[RECORD] = ProgramTrees(V, basis)
    return record.first_accepted(level)


class ProgramTrees:
    """The trees the sign-constrained program reads on one basis, in its order, each
    with the part of ``_weighted_tree.accepted`` that does not depend on the level
    (connected, ``shown_at_own_noise``) and its residual (``_diagonal_fit``).

    The program's path does not depend on the level (only the verdict on each tree
    does), so the first tree of the sequence accepted at a level is the answer of a
    read at that level; trees past the last one kept are read when a level asks for
    them. A read refused at one level costs the next level only the comparison of the
    kept residuals with it.

    Parameters
    ----------
    V : numpy.ndarray
        The eigenvectors, shape ``(n, n)``.
    basis : dict
        The inference's basis record (its kind and scale are kept).
    """

    def __init__(self, V: np.ndarray, basis):
        self._basis = {"V": V, "kind": basis.get("kind"), "scale": basis.get("scale")}
        self._trees: list[tuple[sp.csr_array, bool, float]] = []
        self._source = _program_trees(V, self._basis)

    def reads(self, V: np.ndarray, basis) -> bool:
        """Whether the record is of the eigenvectors ``V`` (the same array) and the
        kind and scale of ``basis``."""
        kept = self._basis
        return (
            V is kept["V"]
            and basis.get("kind") == kept["kind"]
            and basis.get("scale") == kept["scale"]
        )

    def first_accepted(self, level: float):
        """The weights of the first tree of the sequence accepted at the noise level
        ``level`` (``_weighted_tree.accepted``: shown at its own noise, connected and a
        residual within ``RESIDUAL_CONSISTENT`` times ``level``); None when the
        sequence ends with none, or ``level`` is not positive."""
        if level <= 0.0:
            return None
        k = 0
        while True:
            if k == len(self._trees):
                tree = None if self._source is None else next(self._source, None)
                if tree is None:
                    self._source = None
                    return None
                self._trees.append(tree)
            W, shown, residual = self._trees[k]
            if shown and residual <= RESIDUAL_CONSISTENT * level:
                return W.copy()  # the kept weights stay as they were read
            k += 1


def _program_trees(V: np.ndarray, basis) -> Iterator[tuple[sp.csr_array, bool, float]]:
    """The trees of the programs from ``TREE_STARTS`` leverage draws in turn
    (``_programs``)."""
    U = _free_columns(V)
    for start in range(TREE_STARTS):
        leverage = pair_leverage(U, np.random.default_rng(SEED + start))
        if not (yield from _programs(V, U, leverage, basis)):
            # most of the weight outside the pairs of largest leverage: another draw
            # orders the same pairs up to its estimate's error, and no tree is read
            return


def _verdict(V: np.ndarray, rows, cols, basis) -> tuple[sp.csr_array, bool, float]:
    """``(W, shown, residual)`` for the tree of edges ``(rows, cols)`` with fitted
    weights: its symmetric weights, whether it is connected and shown at its own noise
    (``shown_at_own_noise``), and its residual (``_diagonal_fit``), which ``_programs``
    compares from tree to tree whether shown or not."""
    n = V.shape[0]
    w = fitted_weights(V, rows, cols)
    W = _symmetric(rows, cols, w, n)
    shown = (
        shown_at_own_noise(V, rows, cols, w, W, basis)
        and connected_components(W, directed=False)[0] == 1
    )
    residual = _diagonal_fit(basis["V"], _laplacian(W, basis))[1]
    return W, shown, residual


def _programs(
    V: np.ndarray, U: np.ndarray, leverage: np.ndarray, basis
) -> Generator[tuple[sp.csr_array, bool, float], None, bool]:
    """The trees (``_verdict``) read after each solve from the support of the pairs of
    largest ``leverage``; the caller stops at the first it accepts. Returns False, with
    no tree read, when the first optimum puts more than ``OUTSIDE_FRACTION`` of the
    total weight $(n - 1) / 2$ outside the support (the objective is that weight): the
    pairs that could hold a tree hold little of it (a dense graph's eigenvectors, where
    every tree read is refused and the reads took over 150 CPU s at 200 nodes); a
    relaxation of that program to fewer rows may show it first (``_outside_proven``).
    Returns True, reading no further, when the rows added for a tree leave it as it was
    or lead to a new tree that fits the eigenvectors no better (module docstring)."""
    n = V.shape[0]
    g = U.shape[1]
    i, j = np.triu_indices(n, 1)
    support = np.argsort(-leverage[i, j], kind="stable")[: LEVERAGE_PAIRS * n]
    total = (U.sum(axis=0) ** 2 - 1.0) / 2.0
    blocks = [U[i[support]] * U[j[support]]]
    cost = blocks[0].sum(axis=0) - total
    if _outside_proven(blocks[0], cost, n):
        return False
    program = _sign_program(blocks, n)
    rows = np.zeros(i.size, dtype=bool)
    rows[support] = True
    last, added, fit = None, False, np.inf
    for step in range(MAX_STEPS):
        status, lam = program.solve(cost)
        if status != OPTIMAL:
            return True
        if step == 0 and float(cost @ lam) > OUTSIDE_FRACTION * g / 2.0:
            return False
        M = (U * lam) @ U.T
        T = sp.triu(_spanning(-M), 1).tocoo()
        tree = _verdict(V, T.row, T.col, basis)
        yield tree
        edges = frozenset(zip(T.row.tolist(), T.col.tolist(), strict=True))
        if edges != last:
            if added and tree[2] >= fit:
                # the rows added for the last tree led to a tree that fits the
                # eigenvectors no better than it: they did not correct it (as where
                # they leave it as it was, below); the next draw starts anew
                return True
            # a new tree: the weight outside it is the next objective (the last optimal
            # basis stays feasible: a few primal simplex pivots)
            last, added, fit = edges, False, tree[2]
            cost = (U[T.row] * U[T.col]).sum(axis=0) - total
            continue
        entries = M[i, j]
        # a positive entry beyond the rounding of its product
        rounding = np.finfo(float).eps * g * float(np.abs(lam).max())
        violated = np.flatnonzero((entries > rounding) & ~rows)
        if added or not violated.size:
            # the rows added last left the tree as it was, or none is violated
            return True
        capped = violated.size > ADDED_ROWS * n
        violated = violated[np.argsort(-entries[violated], kind="stable")][: ADDED_ROWS * n]
        rows[violated] = True
        blocks.append(U[i[violated]] * U[j[violated]])
        if capped:
            # more rows violated than are added: solved cold (``_sign_program``)
            program = _sign_program(blocks, n)
        else:
            program.add_rows(blocks[-1], np.zeros(violated.size))
        added = True
    return True


def _outside_proven(rows: np.ndarray, cost: np.ndarray, n: int) -> bool:
    """Whether the program of the first ``ADDED_ROWS`` $n$ of the support's pair rows
    ``rows`` (most leverage first) puts more than ``OUTSIDE_FRACTION`` of the total weight
    outside the support at its optimum (``cost``: that weight), by more than
    ``_template_lp.CERTIFY_MARGIN`` of the bound: a relaxation of the first program (fewer
    rows), whose optimum is at most the program's, so that ``_programs`` would end at its
    first solve with no tree read.

    On perturbed PyGSP ``StochasticBlockModel(200, k=4)`` (seeds 0, 1 and 5) the
    relaxation's optimum is 1.10 to 1.32 times the bound, in 0.09 CPU s, where the first
    program of $10 n$ rows took 1.1 s to reach 1.66 to 1.73 times it; on the perturbed
    lognormal trees it is negative (the program's optimum there is below 0.03 of the
    bound) and the program is solved as before.
    """
    k = ADDED_ROWS * n
    if len(rows) <= k:
        return False
    status, lam = _sign_program([rows[:k]], n).solve(cost)
    bound = OUTSIDE_FRACTION * cost.size / 2.0
    return status == OPTIMAL and float(cost @ lam) > (1.0 + CERTIFY_MARGIN) * bound


def _sign_program(blocks: list[np.ndarray], n: int) -> WarmProgram:
    """The program of the pair rows ``blocks`` (stacked in order, each row $a_{ij}
    \\lambda \\le 0$), the trace $n - 1$ and the bounds $[0, n - 1]$, unsolved.

    Where more rows were violated than ``ADDED_ROWS`` $n$ (the most violated of them
    added), the program is built anew with all its rows and solved cold (presolved dual
    simplex) rather than from the last optimal basis, which violates every row added:
    on the perturbed lognormal trees of 230 to 300 nodes the dual simplex from that
    basis took 3.1 to 4.3 times the iterations of a cold solve where the rows added
    reached that bound (tree(250, 2) with two extra edges: 3854 against 1241), and left
    a basis from which the next objective's primal simplex took up to 26 times as many
    (3561 against 135). Fewer rows are added to the program kept (the warm solve took
    a ninth of a cold one's iterations for 12 rows). Both reach the optimum, the same
    vertex where it is unique.
    """
    g = blocks[0].shape[1]
    rows = np.vstack(blocks)
    return WarmProgram(
        rows, np.zeros(len(rows)), np.ones((1, g)), [n - 1.0], np.zeros(g), np.full(g, n - 1.0)
    )


def searchable(basis, n: int) -> bool:
    """Whether ``sign_program_tree`` is asked on the basis ``basis`` of ``n`` nodes: a
    combinatorial Laplacian without an eigenvalue order (a twin class's basis neither,
    nor one whose caller keeps only regular graphs) on 3 to ``MAX_NODES`` nodes; not an
    empty or missing record."""
    return (
        bool(basis)
        and not basis.get("ordered")
        and basis.get("kind") == "combinatorial"
        and not basis.get("twin_class")
        and not basis.get("regular_only")
        and 2 < n <= MAX_NODES
    )


def failed_search_tree(B: PairBasis, basis, history, level: float):
    """``(ranked, family dimension)`` with the tree of ``sign_program_tree`` at the noise
    level ``level``, asked where the noisy searches ended with no graph that fits at it;
    else None. ``history["noise"]`` is then that level and ``history["weighted_tree"]``
    the tree's residual in its units."""
    if level <= 0.0 or not searchable(basis, B.n):
        return None
    W = sign_program_tree(basis["V"], basis, level)
    if W is None:
        return None
    history["noise"] = level
    history["weighted_tree"] = _diagonal_fit(basis["V"], _laplacian(W, basis))[1] / level
    return [(B.n - 1, 0.0, None, W)], tree_family(B, W, level)
