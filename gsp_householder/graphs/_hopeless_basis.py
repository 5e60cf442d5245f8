"""Noisy bases whose kept pairs leave most eigenvalues free: no search is made.

Each leverage ranking keeps the pairs it holds least edge-like (about a third of all
pairs) and estimates the noise level from them (``robust_noise``). The near-null family
of those pairs' rows at that level (``PrefixSearch._near_null``, the directions whose
fitting error is within the noise's) holds every graph that has none of them as an
edge. When it spans more than ``HOPELESS_FRACTION`` of the unknown eigenvalues (the
basis's ``g``) for each of the first ``HOPELESS_SEARCHES`` rankings the noisy ladder
would search, and the search of each would start from no graph (``seed_fit`` finds no
valid Laplacian clean on those pairs, or its family no candidate graph) or from a
hopeless member (``hopeless_start``: a weighted graph of that family, which may hold a
member far sparser, or most of whose edges are weak at the noise level), these rows
pin down almost nothing at the noise level (the kept pairs hold edges): a few
directions (eigenvectors localised on few nodes, an eigenvalue of high multiplicity)
carry them, and every graph a search can give is a weighted member of a family of that
size, which the noisy ladder's hopeless-family rule (``_hopeless_family``) stops on
after paying for the searches. The searches are then not made, and the complete
graph (which every basis with this zero-eigenvalue vector diagonalises) is returned
with a warning (``hopeless_basis_warning``).

A random cograph of 64 nodes (``random_cograph(6, seed=62)``'s complement, an
eigenvalue of multiplicity 32) perturbed by 1e-3: the kept pairs of its first two
rankings leave 59 of 63 eigenvalues free; its searches found no graph for 30 CPU s,
then a member of 297 edges (the truth has 1792) in a family of 60. On
``random_cograph(6, seed=65)``'s complement, draw 1, the second ranking's search starts
from a weighted graph of 393 edges (the truth has 1760) in a family of 60 of 63: judged
by the seed alone it was searched, 15 CPU s, for a member of 418 edges.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import contextlib
import copy

import numpy as np

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs import _program_memo as program_memo
from gsp_householder.graphs import _span_memo as span_memo
from gsp_householder.graphs._candidate_search import _candidates
from gsp_householder.graphs._edge_significance import edge_significance
from gsp_householder.graphs._family_doubt import EDGE_AGREEMENT
from gsp_householder.graphs._hopeless_family import (
    HOPELESS_FRACTION,
    HOPELESS_SEARCHES,
    hopeless_member,
)
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _equal_within_noise, _laplacian
from gsp_householder.graphs._pair_geometry import PairBasis, PairGram
from gsp_householder.graphs._support_search import PrefixSearch, seed_fit
from gsp_householder.graphs._thresholds import LADDER_MAX_N
from gsp_householder.graphs._tree_search import DONE_MISFIT, MAX_NODES, SEED, search_tree

#: The seed of the generator with which ``seed_start`` draws a search's start (the
#: candidates' random objectives): its own, so that the verdict does not depend on how
#: far the inference's generator has gone.
START_SEED = 0
#: Random starts of the tree search ``sparse_fit`` makes (seeds ``SEED`` on): one start
#: ends at a local minimum on some trees (``nx.balanced_tree(4, 3)`` perturbed, draw 0:
#: misfit 49 from seed 0, 4e-4 from seeds 1 to 3); a start costs 0.02 to 0.2 CPU s on
#: 40 to 121 nodes, trees or not.
SPARSE_FIT_STARTS = 3


def _fresh(trimmed, B: PairBasis | None = None):
    """``trimmed`` with a copy of its Gram (of the basis ``B``, default its own) that
    shares none of its kept eigenpairs (``PairGram``): the searches made later compute
    theirs as without this module."""
    gram, i, j = trimmed
    return PairGram(gram.B if B is None else B, gram.M, gram.total, gram.k), i, j


def kept_family(B: PairBasis, trimmed, noise: float) -> int:
    """Dimension of the near-null family of the pairs a ranking keeps (``trimmed`` from
    ``leverage_ranking``: their Gram and the trimmed pairs) at the noise level ``noise``:
    the span ``seed_fit`` would search, counted up to the ``g`` unknowns instead of
    ``MAX_FAMILY``."""
    mu, _ = kept_near_null(B, trimmed, noise)
    return int(mu.size)


def kept_near_null(B: PairBasis, trimmed, noise: float) -> tuple[np.ndarray, np.ndarray]:
    """The near-null family of the pairs a ranking keeps (``trimmed``) at the noise level
    ``noise``, counted up to the ``g`` unknowns: its singular values and its directions
    (``(g, k)``), as ``PrefixSearch._near_null`` gives them."""
    gram, i, j = _fresh(trimmed)
    mask = np.ones((B.n, B.n), dtype=bool)
    mask[i, j] = False
    ki, kj = np.nonzero(np.triu(mask, 1))
    search = PrefixSearch(B, (np.concatenate([i, ki]), np.concatenate([j, kj])), 0.0, noise)
    mu, Lam, _, _ = search._near_null(len(i), gram, cap=B.g)
    return mu, Lam


@contextlib.contextmanager
def _isolated():
    """A block whose linear programs neither read nor fill the inference's memos of
    programs and spans (``_program_memo``, ``_span_memo``): what it solves leaves the
    searches made later as without it."""
    tokens = (program_memo._memo.set(None), span_memo._record.set(None))
    try:
        yield
    finally:
        span_memo._record.reset(tokens[1])
        program_memo._memo.reset(tokens[0])


def seed_start(B: PairBasis, trimmed, tol: float, noise: float):
    """The graph the search of a ranking (``trimmed`` from ``leverage_ranking``) at the
    noise level ``noise`` starts from, drawn as ``_search_at_noise`` draws it (with
    another generator, below: its random objectives may pick another vertex): the first
    candidate (``(edges, weight_cv, lam, W)``) of its seed's family (``seed_fit`` at the
    tolerance ``tol``, then ``_candidates``), with the family's dimension; or None when
    the seed finds no valid Laplacian clean on the kept pairs or its family gives no
    candidate graph (the search then starts from no graph).

    Drawn on a deep copy of the basis, outside the memos (``_isolated``), with a
    generator of its own (``START_SEED``) instead of the inference's: the searches made
    later compute as without this call, and the verdict is the basis's alone, the same
    in every search of one inference (an undecided graph is searched again with the
    generator further on, ``laplacian_inference._undecided``: a verdict drawn with it
    differed there, and that search's "no graph" changed which outcome was chosen).
    """
    B2 = copy.deepcopy(B)
    with _isolated():
        fit = seed_fit(B2, _fresh(trimmed, B2), tol, noise)
        if fit is None:
            return None
        family = _candidates(B2, fit, np.random.default_rng(START_SEED), seed=True)
    if not family:
        return None
    return family[0], int(fit.Lam.shape[1])


def hopeless_start(B: PairBasis, trimmed, tol: float, noise: float, basis=None) -> bool:
    """Whether the search of a ranking (``trimmed`` from ``leverage_ranking``) at the
    noise level ``noise`` starts from no graph or from a hopeless member.

    No graph: its seed (``seed_fit`` at the tolerance ``tol``, on a fresh copy of the
    kept pairs' Gram) finds no valid Laplacian clean on the kept pairs. With ``basis``
    (the inference's Laplacian kind and scale), also when the seed's family gives no
    candidate graph, or when its first candidate (``seed_start``), the graph the
    search starts from, is a member of a hopeless family (``hopeless_member``:
    weights not equal to the noise level, ``_equal_within_noise``; the seed's family
    above ``HOPELESS_FRACTION`` of ``g``; and a family that may hold a member far
    sparser, which trees and graphs close to one cannot): every graph the search
    gives is reported with that family at least, and the noisy ladder's hopeless-family
    rule (``_hopeless_family``) judges its graphs by the same test. A weighted start in
    such a family that is too dense for that test (its family cannot drop enough of
    its edges) is hopeless too when most of its edges are weak at the noise level
    (``weak_agreement`` below ``EDGE_AGREEMENT``, the weak-edge warning's test): its
    density is then no evidence that the family holds no far sparser member.
    """
    if basis is None:
        return seed_fit(B, _fresh(trimmed), tol, noise) is None
    start = seed_start(B, trimmed, tol, noise)
    if start is None:
        return True
    (edges, _, _, W), dimension = start
    equal = _equal_within_noise(basis, W, noise)
    if hopeless_member(B.n, int(B.g), int(edges), dimension, equal):
        return True
    return (
        not equal
        and dimension > HOPELESS_FRACTION * B.g
        and weak_agreement(basis, W) < EDGE_AGREEMENT
    )


def weak_agreement(basis, W) -> float:
    """F1 agreement of the graph of weights ``W`` with itself without the edges whose
    weights are not significantly nonzero at the noise level of the eigenvectors
    ``basis["V"]`` (``edge_significance``, eigenvalues read off by ``_diagonal_fit``, as
    ``laplacian_inference._weak_edges`` tests the graph returned): $2(m - k) / (2m - k)$
    for $k$ weak edges of $m$; 1.0 when there is nothing to test (no edge, rounding
    level) and on a twin class's basis, which ``_weak_edges`` does not test either.

    Below ``EDGE_AGREEMENT`` the inference would warn of the graph's weak edges: the
    eigenvectors do not tell most of them from zero, and a much sparser graph fits as
    well. A dense start is thereby no evidence that its family cannot hold a far
    sparser member: ``random_cograph(6, seed=65)``'s complement perturbed by 1e-3, draw
    2, first ranking: 938 edges in a family of 60 of 63 (``family_agreement`` 0.97),
    772 of them weak (agreement 0.30; the largest weight 3e4 times the median).
    """
    if basis.get("twin_class"):
        return 1.0
    L = _laplacian(W, basis)
    eigenvalues, _ = _diagonal_fit(basis["V"], L)
    test = edge_significance(basis["V"], L, eigenvalues)
    if test is None:
        return 1.0
    weak, m = int(test["weak"].sum()), int(test["z"].size)
    return 2.0 * (m - weak) / (2.0 * m - weak)


def sparse_fit(B: PairBasis, basis):
    """The unit weights of a spanning tree that fits the eigenvectors at the noise level
    (a graph with equal weights and the fewest edges a connected graph can have), or
    None: a spanning tree with unit weights
    searched on them (``_tree_search.search_tree`` from ``SPARSE_FIT_STARTS`` random
    starts, seeds ``SEED`` on) whose misfit is below ``DONE_MISFIT`` (the
    tree search's own verdict of a tree found: a wrong edge costs about 1, a tree that
    fits eigenvectors perturbed by 1e-3 leaves some 5e-4). Only for combinatorial
    Laplacians without an eigenvalue order (a twin class's basis neither) on at most
    ``_tree_search.MAX_NODES`` nodes, as for that search; else None.

    Such a basis pins down a sparse graph, however large the kept pairs' family: a
    tree with eigenspaces of high multiplicity (sibling leaves: eigenvectors localised
    on two of them) leaves most eigenvalues free in the kept pairs' rows, and the rule
    does not fire (``nx.balanced_tree(3, 4)`` perturbed, draw 0: families of 96 and
    101 of 120 unknowns; a spanning tree of misfit 5e-4 in 0.04 CPU s); the tree is
    the answer when it fits at the rankings' noise level (``_fitting_tree.early_tree``),
    else the searches are made as before the rule. The cographs the rule answers leave every
    tree searched a misfit of 10 to 110 (``turan_graph(40, 4)``, random cographs of 64
    nodes).
    """
    if (
        basis is None
        or basis["ordered"]
        or basis["kind"] != "combinatorial"
        or basis.get("twin_class")
        or not 2 < B.n <= MAX_NODES
    ):
        return None
    for start in range(SPARSE_FIT_STARTS):
        tree, misfit = search_tree(basis["V"], np.random.default_rng(SEED + start))
        if misfit < DONE_MISFIT:
            return tree
    return None


def hopeless_basis(
    B: PairBasis, keys, ranking, levels, tol: float = 0.0, basis=None, trees=None
) -> tuple[list[int], int] | None:
    """The kept families' dimensions (``kept_family``) of the first
    ``HOPELESS_SEARCHES`` rankings of ``keys`` (in the noisy ladder's order) whose noise
    estimate is in ``levels`` (``(low, high]``) and the ``g`` unknowns, when they all
    exceed ``HOPELESS_FRACTION`` of ``g`` and the search of each would start from no
    graph (``hopeless_start``); else None (also above ``LADDER_MAX_N`` nodes, where the
    rankings are sampled, and on a basis whose columns are grouped into eigenspaces,
    ``B.G``: the searches with eigenvalues tied on groups, ``_eigenspace_search``,
    whose warnings are silenced and whose graphs compete with the ungrouped search's,
    so that no graph there changes the answer without a warning). ``ranking(key)``
    gives ``(scores, trimmed, noise)``; ``tol`` is the searches' tolerance; with
    ``basis`` (the inference's Laplacian kind and scale) a search's start is judged by
    its graph too (``hopeless_start``), without it by the seed alone.

    A kept family whose search starts from a graph that is not a hopeless member
    (``windmill_graph(8, 4)`` perturbed: families of 19 and 20 of 24 unknowns, and the
    star, a tree that shares the windmill's eigenvectors) is searched as before; so is
    a basis that a spanning tree with unit weights fits at the noise level
    (``sparse_fit``: a tree whose sibling leaves give eigenvalues of high multiplicity),
    the tree then appended to the list ``trees`` if given.
    """
    if B.n > LADDER_MAX_N or B.G is not None:
        return None
    low, high = levels
    noisy = [key for key in keys if low < ranking(key)[2] <= high][:HOPELESS_SEARCHES]
    if len(noisy) < HOPELESS_SEARCHES:
        return None
    dims = []
    for key in noisy:
        _, trimmed, noise = ranking(key)
        dims.append(kept_family(B, trimmed, noise))
        if dims[-1] <= HOPELESS_FRACTION * B.g:
            return None
    for key in noisy:
        _, trimmed, noise = ranking(key)
        if not hopeless_start(B, trimmed, tol, noise, basis):
            return None
    tree = sparse_fit(B, basis)
    if tree is not None:
        if trees is not None:
            trees.append(tree)
        return None
    return dims, int(B.g)


def large_family_tree(B: PairBasis, keys, ranking, levels, basis):
    """The unit weights of the spanning tree ``sparse_fit`` finds, asked when one of the
    first ``HOPELESS_SEARCHES`` rankings of ``keys`` (in the noisy ladder's order) whose
    noise estimate is in ``levels`` (``(low, high]``) keeps pairs whose family
    (``kept_family``) spans more than ``HOPELESS_FRACTION`` of the ``g`` unknowns;
    else None (also where ``hopeless_basis`` is not asked: above ``LADDER_MAX_N``
    nodes, on a basis grouped into eigenspaces). ``ranking(key)`` gives ``(scores,
    trimmed, noise)``.

    ``hopeless_basis`` searches the tree only when every one of those families is that
    large and every search would start from a hopeless member; one large family is
    enough to make the searches wander through weighted members of it, and the tree,
    when it fits at the noise level (``_fitting_tree.early_tree``, the caller's test),
    is a sparsest valid graph whatever the other rankings keep:
    ``nx.full_rary_tree(4, 120)`` perturbed by 1e-3, draw 1, keeps families of 89 and
    99 of 119 unknowns (the first just below the fraction), and its searches took 19
    CPU s before the tree replaced their answer. The gate only spares the tree search
    (0.02 to 0.2 CPU s a start) on bases whose rankings pin most eigenvalues down.
    """
    if B.n > LADDER_MAX_N or B.G is not None:
        return None
    low, high = levels
    noisy = [key for key in keys if low < ranking(key)[2] <= high][:HOPELESS_SEARCHES]
    for key in noisy:
        _, trimmed, noise = ranking(key)
        if kept_family(B, trimmed, noise) > HOPELESS_FRACTION * B.g:
            return sparse_fit(B, basis)
    return None


def hopeless_basis_warning(history) -> None:
    """Warn (``ConvergenceWarning``) when no search was made because the rankings' kept
    pairs leave most eigenvalues free (``history["hopeless_basis"]``: the families'
    dimensions and the unknowns)."""
    record = history.get("hopeless_basis")
    if record is None:
        return
    dims, g = record
    warn_at_caller(
        f"the pairs the rankings hold least edge-like leave {min(dims)} to {max(dims)} "
        f"of the {g} unknown eigenvalues free at their noise level: the eigenvectors "
        f"pin down little there (eigenvectors on few nodes, an eigenvalue of high "
        f"multiplicity), any graph a search gives is one member of a family of that "
        f"size, and no search was made; the complete graph is returned (more accurate "
        f"eigenvectors or the eigenvalue order may resolve the graph)",
        ConvergenceWarning,
    )
