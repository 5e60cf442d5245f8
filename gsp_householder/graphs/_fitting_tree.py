"""A spanning tree that fits noisy eigenvectors at their noise level: the graph sought.

A tree whose sibling leaves give eigenvalues of high multiplicity (eigenvectors
localised on two leaves) leaves most eigenvalues free in the rows of the pairs the
rankings keep: ``balanced_tree(3, 4)`` perturbed by 1e-3, families of 96 to 101 of its
120 unknowns. The noisy searches then end at weighted members of a family of 64
dimensions, denser than the tree and warned (``balanced_tree(3, 4)`` draw 2: 136 edges
for 120; ``full_rary_tree(4, 120)`` draw 1: 164 for 119) or not fitting the
eigenvectors at all (``balanced_tree(4, 3)`` draws 0 and 1: 412 and 647 edges for 84,
25 to 32 CPU s), while a spanning tree with unit weights searched on the eigenvectors
alone (``_tree_search.search_tree``) is the truth and fits them at their noise level.

No connected graph has fewer edges than a tree, and a tree with unit weights has no
weight to fit: one that leaves the eigenvectors a residual (relative to
$\\|L\\|_F$, ``_diagonal_fit``) within ``RESIDUAL_CONSISTENT`` times the smallest noise
level the rankings show (the test by which a result is said to fit the eigenvectors
to their noise level, ``history["noise_ratio"]``) is a sparsest valid graph at that
level. Perturbed trees leave 2.6 to 4.6 times that level; a spanning tree searched on
a graph with cycles leaves a misfit of 10 or more (the cographs of the hopeless-basis
rule, grids, rings, sensor graphs: 10 to 10000), some 700 times the level or more. A
wrong edge costs a misfit of about 1, a residual over 100 times the level on 85 to 120
nodes.

Two uses: ``early_tree``, when the rankings' kept pairs leave most eigenvalues free
and the tree of ``_hopeless_basis.sparse_fit`` fits at the noise level (the tree is
the answer, no search is made); ``tree_in_place``, when the searches' answer is a
weighted member of a family that may hold a much sparser member (the warning of
``laplacian_inference._family_doubt``) and a tree searched fits at the noise level
and as well as that answer (the tree goes first, the answer among the candidates).

A perturbed star leaves a residual some 1400 times the rankings' smallest estimate:
its eigenspace of dimension $n - 2$ lets the rankings fit their kept pairs far below the
eigenvectors' noise, and the unit-weight star cannot absorb the noise on its centre's
row. ``tree_at_own_noise`` returns a tree searched in place of a weighted graph that
does not fit at the rankings' level when the tree fits the noise its own non-edges show
(``_own_noise``) and that noise is no larger than the graph found's; and in place of one
that fits at that level but lacks edges the eigenvectors show (the tree
``laplacian_inference._tree_behind`` searched for it, which does not fit as well as the
weighted graph: ``star_graph(150)`` draw 1, 445 edges for 150, quiet before).

Exact eigenvectors of such trees were answered by a denser member of a family
(``full_rary_tree(6, 100)``: 135 edges with equal weights for 99) or by the complete
graph (``balanced_tree(2, 7)``), while the tree searched fits them to 2e-15; a tree
searched on a graph with cycles leaves 0.1 to 0.5. A tree that fits to rounding
(``fits_to_rounding``: ``ROUNDING_FIT``) is the answer: ``early_exact_tree`` where the
exact searches gave no graph, before the others; ``exact_tree`` where the searches
ended at the complete graph; ``tree_for_exact`` in place of a denser member of a family
found exact that may hold a member far from it (``family_agreement``);
``tree_for_halves`` in place of the complete bipartite graph between the halves of a
$\\pm 1$ column, which every basis with that column has.

Combinatorial Laplacians without an eigenvalue order only (a twin class's basis
neither), on at most ``_tree_search.MAX_NODES`` nodes, as for the tree search.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._cycle_unfolding import unfolded_paths
from gsp_householder.graphs._family_doubt import EDGE_AGREEMENT, family_agreement
from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _equal_within_noise,
    _fits_as_well,
    _laplacian,
    _residuals,
)
from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._pair_geometry import PairBasis, PairGram
from gsp_householder.graphs._regular_family import constant_diagonal_noise
from gsp_householder.graphs._support_search import EXACT_NOISE, PrefixSearch
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    MAX_NOISE,
    RESIDUAL_CONSISTENT,
    ROUNDING_FIT,
    UNRESOLVABLE_NOISE,
)
from gsp_householder.graphs._tree_search import DONE_MISFIT, MAX_NODES, SEED, search_tree

#: Random starts of the tree search ``tree_in_place`` makes (seeds ``SEED`` on), as
#: ``_hopeless_basis.SPARSE_FIT_STARTS``: one start stalls on some trees.
TREE_STARTS = 3


def searchable(basis, n: int) -> bool:
    """Whether a tree with unit weights is searched on the basis ``basis`` of ``n``
    nodes: a combinatorial Laplacian without an eigenvalue order (a twin class's basis
    neither) on 3 to ``_tree_search.MAX_NODES`` nodes."""
    return (
        basis is not None
        and not basis["ordered"]
        and basis["kind"] == "combinatorial"
        and not basis.get("twin_class")
        and 2 < n <= MAX_NODES
    )


def noise_level(history) -> float:
    """The smallest noise estimate of the rankings between ``EXACT_LEVEL`` and
    ``MAX_NOISE`` (``history["noise_estimates"]``), or 0 when none is."""
    levels = [e for e in history.get("noise_estimates", []) if EXACT_LEVEL < e <= MAX_NOISE]
    return min(levels, default=0.0)


def fits_at_noise(basis, T, level: float) -> bool:
    """Whether the graph of weights ``T`` is connected and leaves the eigenvectors a
    residual (``_diagonal_fit``) within ``RESIDUAL_CONSISTENT`` times ``level``
    (positive)."""
    if level <= 0.0 or connected_components(T, directed=False)[0] != 1:
        return False
    return _diagonal_fit(basis["V"], _laplacian(T, basis))[1] <= RESIDUAL_CONSISTENT * level


def tree_family(B: PairBasis, T, noise: float) -> int:
    """Dimension of the family of the tree ``T`` at the noise level ``noise``: the
    near-null directions of the rows of the pairs that are not its edges
    (``PrefixSearch._near_null``, at most ``MAX_FAMILY`` plus the local columns, as the
    searches report a graph's family)."""
    upper = sp.triu(sp.csr_array(T), 1).tocoo()
    mask = np.ones((B.n, B.n), dtype=bool)
    mask[upper.row, upper.col] = False
    i, j = np.nonzero(np.triu(mask, 1))
    gram = PairGram(B).without(upper.row, upper.col)
    order = (np.concatenate([i, upper.row]), np.concatenate([j, upper.col]))
    mu, _, _, _ = PrefixSearch(B, order, 0.0, noise)._near_null(len(i), gram)
    return max(int(mu.size), 1)


def early_tree(B: PairBasis, basis, trees, history):
    """``(ranked, family dimension)`` with the first tree of ``trees`` (from
    ``_hopeless_basis.sparse_fit``) when it fits the eigenvectors at the rankings'
    smallest noise level (``fits_at_noise``); else None. ``history["noise"]`` is then
    that level and ``history["fitting_tree"]`` the tree's residual in its units."""
    level = noise_level(history)
    if not trees or not searchable(basis, B.n) or not fits_at_noise(basis, trees[0], level):
        return None
    T = sp.csr_array(trees[0], dtype=float)
    history["noise"] = level
    history["fitting_tree"] = _diagonal_fit(basis["V"], _laplacian(T, basis))[1] / level
    return [(B.n - 1, 0.0, None, T)], tree_family(B, T, level)


def fits_to_rounding(basis, T) -> bool:
    """Whether the graph of weights ``T`` is connected and leaves the eigenvectors a
    residual (``_diagonal_fit``) within ``ROUNDING_FIT``: it fits exact eigenvectors."""
    if connected_components(T, directed=False)[0] != 1:
        return False
    return _diagonal_fit(basis["V"], _laplacian(T, basis))[1] <= ROUNDING_FIT


def _searched(basis, starts: int = TREE_STARTS):
    """The tree ``search_tree`` finds from ``starts`` starts (the first below
    ``DONE_MISFIT``), or None."""
    for start in range(starts):
        T, misfit = search_tree(basis["V"], np.random.default_rng(SEED + start))
        if misfit < DONE_MISFIT:
            return T
    return None


def exact_tree(basis, n: int):
    """A spanning tree with unit weights searched on exact eigenvectors
    (``search_tree`` from ``TREE_STARTS`` starts) that fits them to rounding
    (``fits_to_rounding``), on a basis ``searchable`` on ``n`` nodes; else None."""
    if not searchable(basis, n):
        return None
    T = _searched(basis)
    return T if T is not None and fits_to_rounding(basis, T) else None


def early_exact_tree(B: PairBasis, basis, history):
    """``(ranked, family dimension)`` with a spanning tree that fits exact eigenvectors
    to rounding (``exact_tree``), asked where a ranking is clean to rounding and the
    exact searches gave no graph; else None. ``history["exact_tree"]`` is then True and
    ``history["noise"]`` 0; False when no tree fits (not searched again at the result)."""
    T = exact_tree(basis, B.n)
    if T is None:
        history["exact_tree"] = False
        return None
    history["noise"] = 0.0
    history["exact_tree"] = True
    return [(B.n - 1, 0.0, None, sp.csr_array(T, dtype=float))], tree_family(B, T, 0.0)


def tree_for_exact(basis, B: PairBasis, found, family_dimension: int, noise: float):
    """A spanning tree with unit weights to return in place of the graph ``found`` (a
    ``ranked`` entry found at a rounding level, ``noise`` at most ``EXACT_NOISE``) when
    ``found`` is denser than a tree, not the complete graph (``laplacian_inference``
    asks ``exact_tree`` for it), and a member of a family that may hold a member
    agreeing with it below ``EDGE_AGREEMENT`` (``family_agreement``, the test of
    ``laplacian_inference._family_doubt``), and a tree searched on the eigenvectors
    fits them to rounding (``exact_tree``); else None."""
    edges = int(found[0])
    if (
        noise > EXACT_NOISE
        or not B.n - 1 < edges < B.n_pairs
        or family_dimension < 2
        or family_agreement(B.n, edges, int(family_dimension)) >= EDGE_AGREEMENT
    ):
        return None
    return exact_tree(basis, B.n)


def tree_for_halves(basis, n: int, history):
    """A spanning tree with unit weights to return in place of the complete bipartite
    graph between the halves of a $\\pm 1$ column of exact eigenvectors
    (``_bipartite_halves.column_halves_graph``: valid for every basis with that column,
    it says nothing about the others, as the complete graph says nothing about any):
    a tree that fits them to rounding (``exact_tree``), searched when the graph was
    found exact (``history["noise"]`` at most ``EXACT_NOISE``) and no tree was searched
    before the searches (``history["exact_tree"]`` unset); else None.
    ``history["exact_tree"]`` is then True."""
    if history.get("noise", 0.0) > EXACT_NOISE or "exact_tree" in history:
        return None
    T = exact_tree(basis, n)
    if T is not None:
        history["exact_tree"] = True
    return T


def _doubted(basis, B, found, family_dimension: int, noise: float) -> bool:
    """Whether the graph ``found`` (a ``ranked`` entry), found at the noise level
    ``noise``, is what ``laplacian_inference._family_doubt`` warns of: weights not equal
    to the noise level, from a family that may hold a member agreeing with it below
    ``EDGE_AGREEMENT``."""
    edges = int(found[0])
    return (
        family_dimension >= 2
        and B.n - 1 < edges < B.n_pairs
        and family_agreement(B.n, edges, int(family_dimension)) < EDGE_AGREEMENT
        and not _equal_within_noise(basis, found[3], noise)
    )


def tree_in_place(basis, B: PairBasis, found, family_dimension: int, noise: float, level: float):
    """A spanning tree with unit weights to return in place of the graph ``found`` (a
    ``ranked`` entry found at the noise level ``noise``, between ``EXACT_NOISE`` and
    ``UNRESOLVABLE_NOISE``, which fits the eigenvectors to it) when ``found`` is a
    weighted member of a family that may hold a much sparser member (``_doubted``) and
    a tree searched on the eigenvectors (``search_tree`` from ``TREE_STARTS`` starts,
    stopping at the first below ``DONE_MISFIT``) fits them at the level ``level``
    (``fits_at_noise``) and as well as ``found`` (``_fits_as_well``); else None."""
    if (
        not searchable(basis, B.n)
        or not EXACT_NOISE < noise <= UNRESOLVABLE_NOISE
        or not _doubted(basis, B, found, family_dimension, noise)
    ):
        return None
    T = _searched(basis)
    if (
        T is not None
        and fits_at_noise(basis, T, level)
        and _fits_as_well(_residuals(basis, T), _residuals(basis, found[3]))
    ):
        return T
    return None


def tree_at_own_noise(
    basis, B: PairBasis, found, noise: float, ratio: float, lacks_edges: bool = False
):
    """``(tree, ratio)``: a spanning tree with unit weights to return in place of the
    graph ``found`` (a ``ranked`` entry found at the noise level ``noise``, between
    ``EXACT_NOISE`` and ``UNRESOLVABLE_NOISE``, denser than a tree and not complete,
    with weights not equal to that level: ``_equal_within_noise``) that does not fit
    the eigenvectors at the rankings' smallest level (``ratio``, its residual in units
    of that level, above ``RESIDUAL_CONSISTENT``) or, with ``lacks_edges``, fits at that
    level but lacks edges the eigenvectors show (``laplacian_inference._tree_behind``'s
    missing-edges test, which searched a tree from one start), and the tree's rotation
    residual in units of the one its non-edges' noise predicts
    (``_own_noise.own_noise``); else None.

    The tree is searched (``search_tree`` from ``TREE_STARTS`` starts, the first below
    ``DONE_MISFIT``; with ``lacks_edges`` the one start already made, no search added)
    and returned when it fits the noise its own non-edges show (that ratio within
    ``RESIDUAL_CONSISTENT``) and that noise is within ``RESIDUAL_CONSISTENT`` times the
    noise the non-edges of ``found`` show: a basis with an eigenspace of dimension
    $n - 2$ (a star) lets the rankings fit their kept pairs far below the noise of the
    eigenvectors (``_own_noise``), and a tree, with no weight to fit, leaves more than a
    denser weighted graph; a wrong tree leaves more than its non-edges predict, or shows
    on them a noise far above the graph found's. Both graphs then fit the noise of the
    eigenvectors, and the tree is the sparser.
    """
    if (
        not searchable(basis, B.n)
        or not EXACT_NOISE < noise <= UNRESOLVABLE_NOISE
        or (ratio <= RESIDUAL_CONSISTENT and not lacks_edges)
        or not B.n - 1 < int(found[0]) < B.n_pairs
        or _equal_within_noise(basis, found[3], noise)
    ):
        return None
    T = _searched(basis, 1 if lacks_edges else TREE_STARTS)
    if T is None:
        return None
    sigma, tree_ratio = own_noise(basis, T)
    if tree_ratio > RESIDUAL_CONSISTENT:
        return None
    if sigma > RESIDUAL_CONSISTENT * own_noise(basis, found[3])[0]:
        return None
    return T, tree_ratio


def tree_for_regular(basis, B: PairBasis, found, history):
    """A spanning tree with unit weights to return in place of the graph ``found`` (a
    ``ranked`` entry) taken from the constant-diagonal family because it fits the
    eigenvectors at the noise level that family shows (``history["regular_family"]``
    is ``"sparser"``: ``_regular_candidates._consistent_regular``) when the rankings
    showed no noise (``history["noise"]`` at most ``EXACT_NOISE``), and a tree searched
    on the eigenvectors (``search_tree`` from ``TREE_STARTS`` starts) fits them by the
    same test at that same level (``fits_at_noise`` with ``constant_diagonal_noise``):
    ``(tree, level)``; else None. The level is the noise at which the tree's twins are
    then judged (``_equally_sparse_warning``).

    A perturbed path of 6 to 9 nodes leaves the rankings' kept pairs clean to rounding
    (few pairs, each fitted), and its constant-diagonal family (of dimension $n - 1$)
    holds the cycle of $n$ equal weights, one edge more, fitting the eigenvectors to
    their noise as the path does: no connected graph is sparser than a tree.

    When no tree searched fits and ``found`` is one cycle through every node, the
    paths it unfolds to (``_cycle_unfolding.unfolded_paths``: the paths whose
    $4L - L^2$ is that cycle, $n$ of them) are judged by the same test, the first that
    passes returned.
    """
    if (
        history.get("regular_family") != "sparser"
        or history.get("noise", 0.0) > EXACT_NOISE
        or not searchable(basis, B.n)
        or not B.n - 1 < int(found[0]) < B.n_pairs
    ):
        return None
    level = constant_diagonal_noise(B)
    if level is None:
        return None
    T = _searched(basis)
    if T is not None and fits_at_noise(basis, T, level):
        return T, level
    # the search can stall (misfits 6.5 to 9.7 from every start on the paths of 8
    # nodes, draw 6, and 9, draw 10): a cycle found is the quadratic $4L - L^2$ of the
    # paths it unfolds to (``_cycle_unfolding``), which the same test judges
    for path in unfolded_paths(found[3]):
        if fits_at_noise(basis, path, level):
            return path, level
    return None
