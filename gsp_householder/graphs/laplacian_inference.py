"""Sparse Laplacians with prescribed eigenvectors, with or without the eigenvalue order.

Given an orthonormal basis $\\hat V$ (for example a learned dictionary), find the
sparsest valid Laplacian $L = \\hat V \\operatorname{diag}(\\lambda) \\hat V^T$:
symmetric, off-diagonal entries $\\le 0$, one zero eigenvalue (connected).

The method needs no eigenvalue order. One column is the zero-eigenvalue vector (the
constant vector for a combinatorial Laplacian; $D^{1/2}\\mathbf 1$, up to scale, for a
normalized one); it is rotated exactly onto that vector. For the other columns every
off-diagonal entry is linear in the eigenvalues, $L_{ij} \\propto a_{ij}^T\\lambda$ with
$a_{ij} = V_i \\circ V_j$ (module ``_pair_geometry``), so the non-edges are the pairs
whose rows lie on the hyperplane orthogonal to $\\lambda$. The pairs are ranked by their
leverage in the smallest directions of the Gram matrix of the kept pairs (trimming the
most edge-like ones), and the largest set of least edge-like pairs whose near-null
space holds a valid Laplacian is searched (modules ``_support_search`` and
``_template_lp``: max-margin linear programs with HiGHS; above 500 nodes the trimming runs
on a random sample of pairs, module ``_sampled_ranking``). When that space has dimension
above 1, several valid graphs share the eigenvectors (repeated eigenvalues, twin nodes):
its sparse vertices are the candidates, the sparsest (then the one with the most equal
weights) is returned and the others are reported; the pairs all candidates share and
the candidates with their weakest edges forced to zero (module ``_sparsest_member``)
are searched too. When no leverage ranking gives a graph (dense graphs with
near-uniform degrees), the pairs are ranked by one eigenvalue vector fitted by least
trimmed squares (module ``_fitted_ranking``), and the Laplacians with a constant diagonal
(regular graphs, module ``_regular_family``) are searched as a family; that family is
also searched, at the noise level its own near-null space shows, when noisy
eigenvectors give no graph or one that does not fit them, and when the graph found is
regular with unequal weights (a triangle-free regular graph's distance-2 graph shares
its eigenvectors).

Exact eigenvectors of a Cayley graph of an abelian group (cycles, circulants, tori) have
large eigenspaces and constant-diagonal families too large to search column by column
(125 directions on the 10 x 20 torus). Their eigenspaces are read off the columns'
triple products (module ``_character_groups``) and the search runs with one eigenvalue
per eigenspace; every graph it finds is regular, and the constant-diagonal family's
dimension is reported (twin tori and circulants lie in it). A symmetry that moves every
node of a graph with a simple spectrum also groups the columns (even and odd ones), into
groups that give only the complete graph without the pairs it swaps; such a grouping is
dropped (``_symmetry_complement``). Noisy eigenvectors that give the complete graph or
an irregular graph are compared with the sparser regular graphs that fit them to the
noise level of their constant-diagonal family.

A ``FourierBasis`` carries its eigenspaces and the eigenvalue order: the columns of an
eigenspace then share one unknown and the order $\\lambda_k \\le \\lambda_{k+1}$ is imposed.
The same search runs with fewer unknowns, so it is never slower than without the order.

Above 500 nodes, for exact eigenvectors, a family's sparsest member is sought before its
vertices: the plane holding the most pair rows (module ``_family_member``); when valid,
it replaces the vertex search.
"""

from __future__ import annotations

import copy
import warnings

import numpy as np
import scipy.sparse as sp

from gsp_householder._validation import check_real_array, check_rng, check_scalar
from gsp_householder.exceptions import AmbiguousGraphWarning, ConvergenceWarning
from gsp_householder.graphs._character_groups import character_groups
from gsp_householder.graphs._components import NodeBlock, node_blocks, small_block_laplacian
from gsp_householder.graphs._distance_graphs import regular_walk_classes
from gsp_householder.graphs._family_member import sparsest_direction
from gsp_householder.graphs._fitted_ranking import fitted_ranking
from gsp_householder.graphs._local_columns import explains, local_groups, sparsify_local
from gsp_householder.graphs._pair_geometry import PairBasis, complement_gram, pair_basis
from gsp_householder.graphs._refined_groups import refined_groupings
from gsp_householder.graphs._regular_family import MAX_DIMENSION as MAX_CONSTANT_DIAGONAL
from gsp_householder.graphs._regular_family import (
    constant_diagonal_dimension,
    constant_diagonal_fit,
    constant_diagonal_noise,
)
from gsp_householder.graphs._sampled_ranking import sampled_leverage_ranking
from gsp_householder.graphs._small_search import MAX_NODES as SMALL_NODES
from gsp_householder.graphs._small_search import sparsest_small
from gsp_householder.graphs._sparsest_member import zero_weakest_edges
from gsp_householder.graphs._support_search import (
    CLEAN_FACTOR,
    COARSE_ROUNDING,
    EXACT_NOISE,
    PrefixSearch,
    evaluation_hook,
    leverage_ranking,
    robust_noise,
    seed_fit,
    top_pairs,
    trimming_sizes,
)
from gsp_householder.graphs._template_lp import (
    LP_ACCURACY,
    candidate_order,
    check_member,
    edge_pairs,
    polish,
    rank_candidates,
    sparse_vertices,
    weight_cv,
)
from gsp_householder.graphs._twin_superset import (
    component_graph,
    generic_edges,
    twin_basis,
    twin_classes,
)
from gsp_householder.graphs.fourier import FourierBasis
from gsp_householder.graphs.inferred import InferredLaplacian
from gsp_householder.householder import HouseholderProduct
from gsp_householder.learning._progress import progress_bar

__all__ = ["infer_laplacian"]

_KINDS = ("combinatorial", "normalized")
#: Seed of the candidate search when no ``rng`` is given (deterministic results).
DEFAULT_SEED = 0
#: Smallest |cos| between the zero-eigenvalue column and its target vector.
MIN_COS = 0.98
#: Noise level (standardised residual of the pairs a ranking keeps) below which the
#: eigenvectors are taken as exact (rounding level).
EXACT_LEVEL = 1e-9
#: Two rankings' noise estimates within this factor of each other are taken as the
#: noise level of the eigenvectors.
NOISE_AGREEMENT = 3.0
#: A noisy graph is accepted when its residual is within this factor of the noise
#: level; otherwise the remaining rankings are searched as exact first, then at the
#: largest noise estimate.
RESIDUAL_CONSISTENT = 5.0
#: Largest noise level (standardised residual of the least edge-like pairs) searched at:
#: above it those pairs are not non-edges, and no graph is claimed.
MAX_NOISE = 0.05
#: Rankings tried in turn: (smallest directions used, fraction of pairs kept per
#: trimming round) of the leverage ranking.
RANKINGS = tuple((r, keep) for keep in (0.7, 0.6) for r in (8, 16, 24, 32))
#: Noise level above which no edge can be told from a non-edge: a standardised entry
#: $|L_{ij}| / (s_i + s_j)$ is at most 1/2 ($s_i \ge d_i \ge w_{ij}$), and a pair within
#: ``CLEAN_FACTOR`` times the noise is taken as a non-edge.
UNRESOLVABLE_NOISE = 0.5 / CLEAN_FACTOR
#: Exact graphs of families up to this dimension that are not settled (``_settled``) are
#: searched on the next ranking too (larger families make slow linear programs).
NEXT_RANKING_FAMILY = 24
#: Above this many nodes a grouped search (``character_groups``) that gives a graph is
#: not followed by the ungrouped one; below, both run and their graphs are compared.
GROUPED_ONLY_MIN_N = 64
#: Smallest basis for which ``progress=None`` shows a bar on a terminal.
PROGRESS_MIN_N = 500
#: Above this many nodes the extra family searches of unsettled graphs (next ranking,
#: consensus, weakest edges) are skipped: on RGG(1000, 0.06) they doubled the time (46 to
#: 91 CPU s) and changed no edge; sensor, WS and BA at n = 1000 are the same without them.
FAMILY_SEARCH_MAX_N = 500
#: Rankings tried when none of ``RANKINGS`` gives a graph: (directions spanned, fraction
#: of pairs kept) of the trimmed fit of one eigenvalue vector (``fitted_ranking``).
FITTED_RANKINGS = ((16, 0.5, "fitted"), (32, 0.5, "fitted"), (16, 0.7, "fitted"))
#: Above this many nodes the rankings trim a random sample of pairs
#: (``sampled_leverage_ranking``) and are those of ``LARGE_RANKINGS``.
LADDER_MAX_N = 500
#: Rankings tried in turn above ``LADDER_MAX_N`` nodes: (smallest directions used,
#: fraction of the sampled pairs kept per round, trimming rounds). Three rounds clear
#: exact eigenvectors; with noise, later rounds find directions that fit the kept
#: pairs below the noise (functions of the Laplacian concentrated on the trimmed
#: pairs), and one round with more directions ranks the edges first.
LARGE_RANKINGS = ((8, 0.7, 3), (32, 0.7, 1), (16, 0.7, 1), (32, 0.7, 2))
#: A graph found whose weighted degrees agree within this fraction of their mean is
#: regular: the constant-diagonal family is searched for a sparser member too.
REGULAR_SPREAD = 1e-2
#: A graph fits exact eigenvectors when its residual (``_diagonal_fit``) is below this;
#: above, the eigenvectors are noisy (or the graph is wrong).
FITS_EXACTLY = 1e-6
#: Dimensions of the noisy constant-diagonal family (its smallest directions) searched
#: for a graph sparser than a regular graph found when the family's gap shows none
#: (``_forced_sparser_regular``).
FORCED_REGULAR_DIMENSIONS = (2, 3, 4)
#: Off-diagonal part of $V^T L V$, relative to $\\|L V\\|_F$, below which it is computed
#: from the product $V^T L V$ rather than as a difference of squared norms
#: (``_rotated_parts``): the difference is accurate to about $10^{-14}$ of
#: $\\|L V\\|_F^2$ (the orthogonality of ``V``), i.e. to $10^{-6}$ relative here.
DIRECT_OFF_DIAGONAL = 1e-4
#: Largest $\\|V^T V - I\\|_F$ of an input basis made orthogonal by one Newton-Schulz
#: step instead of an SVD (``_orthonormal``): the step's error, $\\tfrac38$ of its
#: square, is below double-precision rounding.
POLAR_STEP_GAP = 1e-8
#: Smallest basis size at which ``_orthonormal`` takes that step. Below, the SVD's
#: rounding is kept (at most 0.3 s there): the exact search of dense graphs depends on
#: the last digits of the basis (``gnp_random_graph(60, 0.35, seed=1)``, shuffled: F1
#: 1.0 from the SVD's polar factor, 0.514 from the step's, which is as orthogonal and
#: as close to the input).
POLAR_STEP_MIN_N = 501
#: Graphs of the noisy rankings whose rotation residual (``_residuals``) is within this
#: factor of the smallest one found are compared by sparsity.
RESIDUAL_SLACK = 1.25
#: ... provided their residual (``_residual``) is also within this factor of that
#: graph's (``_fits_as_well``).
PLAIN_SLACK = 2.0
#: Eigenvalues of a graph found (diagonal of $V^T L V$) closer than this many times the
#: root mean square off-diagonal entry of $V^T L V$ are one eigenspace
#: (``_eigenspace_groups``): with a perturbed basis the columns of one eigenspace get
#: diagonal entries that differ by about its off-diagonal entries.
EIGENSPACE_FACTOR = 5.0
#: Such groups are trusted only when every other gap between consecutive eigenvalues
#: is at least this many times wider (``_eigenspace_groups``).
EIGENSPACE_SEPARATION = 10.0
#: Above this many nodes the first search with the eigenvalue order stops at the first
#: valid size it reaches instead of bisecting: each prefix then costs a Gram update and
#: an eigensolve of order g (0.1-0.6 s at n = 1000, eight of them in a bisection), and
#: the graph found re-ranks the pairs anyway. Below, the bisection is cheaper than the
#: candidate search of the larger family found at the first valid size (unweighted
#: karate: dimension 4 instead of 3, 0.093 against 0.079 CPU s).
UNBISECTED_MIN_N = 500


# an equal-weight graph whose connected complement has at most this many times its
# edges is reported (AmbiguousGraphWarning, the complement among the candidates): the
# two share their eigenvectors and only the prior "sparser" tells them apart
COMPLEMENT_RATIO = 2.0
#: Two nodes whose rows of $|\tilde V|$ agree to this relative level are swapped by a
#: symmetry of the eigenvectors (``_symmetry_complement``; exact input only).
MIRROR_LEVEL = 1e-8

# searches at most when the noisy rankings leave the graph undecided (``_undecided``).
UNDECIDED_SEARCHES = 3
#: Eigenvalues of a graph found closer than this, relative to the largest, are one
#: repeated eigenvalue (``_undetermined_support``: exact eigenvectors, rounding level).
SIMPLE_SPECTRUM_GAP = 1e-8
#: A graph fits exact eigenvectors to rounding when its residual is below this
#: (``_refit_misfit``, ``_exact_misfit``): the graphs that share them fit to 1e-12 and
#: less, while a 717-edge member of a 60-node path's family fitted to 2.3e-7.
ROUNDING_FIT = 1e-9
#: Largest median noise estimate of the rankings of eigenvectors taken as exact by
#: ``_refit_misfit`` (weighted cycles and paths: 3e-10 to 2e-9; eigenvectors perturbed
#: by 1e-3 show estimates near that level).
EXACT_MEDIAN_LEVEL = 1e-7
#: Fewest pairs per unknown of a basis whose rankings clean to rounding show exact
#: eigenvectors (``_refit_misfit``; below, the Petersen graph and twin classes).
EXACT_PAIRS_PER_UNKNOWN = 8
#: Noise levels at which the rankings are searched when exact eigenvectors give a graph
#: that does not fit them (``_refit_misfit``).
MISFIT_LEVELS = (1e-6, 1e-4, 1e-3)

#: A non-edge of a graph found whose leverage in the other non-edges' Gram is within
#: this of 1 is freed from it (``_freed_member``).
FREED_LEVERAGE = 1e-6

#: Most nodes of a basis searched so (the leverages cost $O(n^4)$ flops).
FREED_MAX_N = 300

#: Rounds of ``_freed_member``.
FREED_ROUNDS = 3


def infer_laplacian(V_hat, *, eigenspaces=None, ordered: bool | None = None,
                    laplacian: str | None = None, tol: float = 0.0,
                    scale: float | None = None, rng=None,
                    progress: bool | None = None) -> InferredLaplacian:
    """Sparsest valid Laplacian with the given eigenvectors, in any column order.

    Parameters
    ----------
    V_hat : array_like of shape (n, n), HouseholderProduct or FourierBasis
        An orthonormal basis (projected on the orthogonal matrices first), columns in
        any order and with any signs. A ``FourierBasis`` also supplies its eigenspaces,
        the eigenvalue order, its Laplacian type, node labels and scale.
    eigenspaces : sequence of sequences of int, optional
        Groups of columns known to share one eigenvalue. Default: a ``FourierBasis``'s
        eigenspaces, else every column on its own.
    ordered : bool, optional
        The groups are sorted by ascending eigenvalue: impose
        $\\lambda_k \\le \\lambda_{k+1}$. Default: True for a ``FourierBasis``, else False.
    laplacian : {"combinatorial", "normalized"}, optional
        The kind of Laplacian ``V_hat`` diagonalises. Default: a ``FourierBasis``'s
        type, else ``"combinatorial"``.
    tol : float, default 0.0
        Smallest slack of the inequalities $L_{ij} \\le$ ``tol``, relative to the mean
        degree; the noise level of ``V_hat`` is estimated and used when larger.
    scale : float, optional
        Mean degree (trace / n) of the returned combinatorial Laplacian. Default: that
        of a ``FourierBasis``'s Laplacian, else 1 (trace n). Eigenvectors fix a
        Laplacian only up to this factor.
    rng : None, int or numpy.random.Generator
        Randomness of the candidate search inside a family of valid graphs (random
        objectives of the linear programs; the candidates are then ranked by sparsity
        and equal weights) and, above 500 nodes, of the pairs sampled by the ranking.
        When the noisy rankings leave the graph undecided (``_undecided``), the search
        runs again with the generator further on, up to ``UNDECIDED_SEARCHES`` times.
        Default None: a fixed seed, so that the result is deterministic.
    progress : bool, optional
        Show a tqdm bar of the prefixes evaluated (each a null space and, often, a
        linear program). Default: on a terminal, for bases of at least
        ``PROGRESS_MIN_N`` columns (tens of seconds and more).

    Returns
    -------
    InferredLaplacian
        With ``family_dimension`` and ``candidates`` reporting the other valid graphs.

    Raises
    ------
    ValueError
        If ``V_hat`` is not square and near-orthogonal, has no column close to the
        zero-eigenvalue vector of the requested Laplacian (for a combinatorial one, to
        the constant vector), is the ``FourierBasis`` of a disconnected graph whose
        components share an eigenvalue (or comes with ``eigenspaces`` or
        ``ordered``), or if ``eigenspaces``, ``laplacian``, ``tol`` or ``scale`` is
        invalid.
    TypeError
        If ``V_hat`` is not an array, a HouseholderProduct or a FourierBasis.

    Warns
    -----
    ConvergenceWarning
        If no sparse valid Laplacian fits; the complete graph (always valid) is returned.
        Also if, with noisy eigenvectors, the graph returned leaves a residual above 5
        times the noise the pairs show (``history["noise_ratio"]``): the eigenvectors
        are then too inaccurate for this graph to be trusted. And, with the complete
        graph returned at once, if the least edge-like pairs show a standardised noise
        level above 1/60 (``history["unresolvable"]``): no edge can be told from a
        non-edge. With the fitted rankings (dense graphs with near-uniform degrees),
        the noise is the median of the leverage rankings' estimates. Also if the only
        equal-weight graph found is the complete graph
        (``history["complete_graph_found"]``), valid for every basis: the graph
        sought was not found. And if the leverage rankings gave neither a graph nor a
        noise level and the graph returned does not fit the eigenvectors exactly, or
        (a constant-diagonal graph) not to the noise level its family shows
        (``history["unranked_residual"]``): dense graphs with exact eigenvectors.
    AmbiguousGraphWarning
        If the graph returned has equal weights and its complement, connected and at
        most ``COMPLEMENT_RATIO`` times as dense, has the same eigenvectors (the
        complement is then the last of the candidates). Also if, with noisy
        eigenvectors, a sparser graph with the eigenspaces of the graph returned fits
        them to their noise level, with a rotation residual per free pair within 5
        times (not within 1.25 times) that graph's (``history["rival_edges"]``, the
        last of the candidates). Also if, with noisy eigenvectors, the rankings gave
        graphs that fit as well, lie further apart than their families' dimensions and
        have no equal weights in each of ``UNDECIDED_SEARCHES`` searches with other
        random objectives (``history["undecided"]``). And if twin nodes of the graph
        returned share an eigenspace whose columns are the eigenvectors of a sparse
        graph on them that has no twins itself: the graph plus that one is valid too
        (``history["superset_edges"]``, the last of the candidates; the star returned
        for a wheel).

    Notes
    -----
    Disconnected graphs: when the columns split the nodes into blocks, each spanned by
    the columns supported on it (as ``fourier_basis`` gives them: one zero-eigenvalue
    vector per component; an isolated node shows as a unit column), no edge can join
    two blocks, and every block is inferred as a component on its own, at the mean
    degree ``scale``. The components' relative scale is not identifiable:
    ``family_dimension`` counts it, and ``history["components"]`` gives their sizes.
    Zero-eigenvalue columns that mix the components also fit connected graphs; such
    a basis is not split. A perturbed or learned basis has no exact zeros: its blocks
    are read at the first support level (1e-9 to 3e-2 of each column's largest entry)
    at which they appear, each with as many columns as nodes.

    Examples
    --------
    >>> import numpy as np
    >>> import networkx as nx
    >>> from gsp_householder.graphs.fourier import fourier_basis
    >>> B = fourier_basis(nx.karate_club_graph())
    >>> shuffled = B.eigenvectors[:, np.random.default_rng(0).permutation(B.n)]
    >>> res = infer_laplacian(shuffled)
    >>> res.n_edges, res.family_dimension
    (78, 1)
    >>> G = nx.relabel_nodes(nx.path_graph(4), dict(enumerate("abcd")))
    >>> sorted(infer_laplacian(fourier_basis(G)).to_networkx().edges())
    [('a', 'b'), ('b', 'c'), ('c', 'd')]
    """
    basis = _read_basis(V_hat, eigenspaces, ordered, laplacian, scale)
    tol = check_scalar(tol, "tol", low=0.0, low_inclusive=True)
    rng = check_rng(DEFAULT_SEED if rng is None else rng)
    bar = progress_bar(progress, basis["V"].shape[0], "infer_laplacian", unit="prefix",
                       long_run=PROGRESS_MIN_N)
    if bar is None:
        return _infer(basis, tol, rng)

    def tick(excluded):
        bar.update(1)
        bar.set_postfix(excluded_pairs=excluded, refresh=False)
    token = evaluation_hook.set(tick)
    try:
        return _infer(basis, tol, rng)
    finally:
        evaluation_hook.reset(token)
        bar.close()


def _infer(basis, tol, rng) -> InferredLaplacian:
    """`infer_laplacian` on a validated basis and options."""
    if basis["groups"] is None and not basis["ordered"]:
        blocks = node_blocks(basis["V"])
        if blocks is not None:
            return _components_result(basis, blocks, tol, rng)
        if "components" in basis:
            raise ValueError(f"V_hat is the basis of a graph with {basis['components']} "
                             "connected components whose eigenvectors mix them (a shared "
                             "eigenvalue): its components cannot be told apart")
    B = _anchored_pair_basis(basis)
    outcomes = [_search(basis, B, tol, rng)]
    while len(outcomes) < UNDECIDED_SEARCHES and _undecided(B, outcomes[-1][3]):
        outcomes.append(_search(basis, B, tol, rng))
    finish, ranked, family_dimension, history = _undecided_choice(basis, outcomes)
    return finish(basis, B, ranked, family_dimension, history)


def _search(basis, B, tol, rng):
    """The searches of `_infer` on the pair basis ``B``: ``(finish, ranked, family
    dimension, history)``, ``finish`` the function that makes the result of them
    (``_result`` or ``_grouped_result``, which issue the warnings)."""
    grouped = None
    if basis["groups"] is None and not basis["ordered"]:
        grouped = _character_search(basis, tol, rng)
        if grouped is not None and B.n > GROUPED_ONLY_MIN_N:
            if not _symmetry_complement(B, grouped[0][0][3]):
                return (_grouped_result, *grouped)
            # the groups are a symmetry's, not a Cayley graph's eigenspaces: the graph
            # they give holds no information, and the ungrouped search runs alone
            grouped = None
    ranked, family_dimension, history = _sparsest_graphs(B, basis, tol, rng)
    if grouped is None and basis["groups"] is None and not basis["ordered"]:
        ranked, family_dimension = _found_eigenspaces(basis, B, ranked, family_dimension,
                                                      history, tol, rng)
    if grouped is not None:
        # small bases: the groups may join eigenspaces (the 5-cube's of eigenvalues 4 and
        # 8), the search without them is cheap and its graphs are compared too
        g_ranked, g_dim, g_history = grouped
        return (_grouped_result, _merge(ranked, g_ranked), max(family_dimension, g_dim),
                {**history, **g_history})
    return _result, ranked, family_dimension, history


def _undecided(B, history) -> bool:
    """Whether the noisy rankings left the graph undecided: of their graphs
    (``history["noisy_graphs"]``), none with equal weights to the noise level, two of
    those whose rotation residual is within ``RESIDUAL_SLACK`` of the smallest (the
    ones ``_noisy_choice`` compares) differ in size by more than the sum of their
    family dimensions; up to ``FAMILY_SEARCH_MAX_N`` nodes.

    A sparse vertex of a family of dimension $d$ has fewer than $d$ edges less than the
    family's other members, so two graphs further apart than $d_1 + d_2$ are vertices
    of families that share no graph, both fitting as well, reached by the random
    objectives (``rng``): on a Minnesota ball of 60 nodes perturbed by 1e-3 (tests'
    draw 2) two rankings gave weighted graphs of 160 and 284 edges (family dimensions 8
    and 7, rotation residuals 1.368e-4 and 1.370e-4), and the same searches with other
    objectives the truth (66 edges, equal weights, 1.309e-4). Les Misérables (weighted)
    gives graphs of 244 to 265 edges in families of dimension 8 to 17: not so.
    """
    noisy = history.get("noisy_graphs", [])
    if B.n > FAMILY_SEARCH_MAX_N or not noisy or any(g["equal_weights"] for g in noisy):
        return False
    best = min(g["rotation"] for g in noisy)
    kept = [g for g in noisy if g["rotation"] <= RESIDUAL_SLACK * best]
    return any(abs(g["edges"] - h["edges"]) > g["family_dimension"] + h["family_dimension"]
               for g in kept for h in kept)


def _undecided_choice(basis, outcomes):
    """Of the outcomes of `_search` (each after the one before it was `_undecided`,
    with the generator further on: other objectives), the one whose graph fits the
    eigenvectors as well as the others' (rotation residual within ``RESIDUAL_SLACK``
    of the smallest, residual within ``PLAIN_SLACK`` of the smallest among those:
    ``_noisy_choice``'s rule), with equal weights to the noise level first, then by
    ``candidate_order``, the earliest on a tie; with more than one,
    ``history["undecided_searches"]`` gives every graph's edges and the one chosen."""
    found = [o for o in outcomes if o[1]]
    if len(found) < 2:
        return found[0] if found else outcomes[0]
    fits = [_residuals(basis, o[1][0][3]) for o in found]
    best = min(f[1] for f in fits)
    kept = [k for k, f in enumerate(fits) if f[1] <= RESIDUAL_SLACK * best]
    best = min(fits[k][0] for k in kept)
    kept = [k for k in kept if fits[k][0] <= PLAIN_SLACK * best]
    chosen = min(kept, key=lambda k: (
        not _equal_within_noise(basis, found[k][1][0][3], found[k][3]["noise"]),
        candidate_order(found[k][1][0]), k))
    found[chosen][3]["undecided_searches"] = {
        "edges": [int(o[1][0][0]) for o in found], "chosen": chosen}
    return found[chosen]


def _still_undecided(B, history) -> bool:
    """Whether the graph returned comes from searches that all left it undecided
    (``_undecided``): ``UNDECIDED_SEARCHES`` of them, its own among them."""
    searches = history.get("undecided_searches")
    return (searches is not None and len(searches["edges"]) >= UNDECIDED_SEARCHES
            and _undecided(B, history))


def _found_eigenspaces(basis, B, ranked, family_dimension, history, tol, rng):
    """The search again with the eigenvalues constant on the eigenspaces of the graph
    found, when it is not settled and has repeated eigenvalues; ``(ranked, family
    dimension)``, the grouped search's graphs merged in when they win.

    A graph that shares the eigenvectors of the true one without being it is a function
    of it, $f(L)$ (two graphs diagonalised by one basis commute): its eigenspaces are
    unions of the true ones. When a repeated eigenspace is rotated (a learned basis
    gives any basis of it), its columns spread over all nodes and the pair rows of
    the truth's edges no longer stand out: the rankings can miss the truth and find
    such an $f(L)$ (connected caveman(4, 5), rotated: a regular graph of 48 edges, none
    of them the truth's 40). The eigenvalues of the graph found (the diagonal of
    $V^T L V$) group the columns into its eigenspaces (values within
    ``EIGENSPACE_FACTOR`` times the root mean square off-diagonal entry, or to
    rounding); with one unknown per group, the pair rows are sums over each group,
    the same for every basis of it (projector entries): the rotation no longer
    matters. Exact eigenvectors are searched so only when no leverage ranking gave a
    graph (the rotated caveman graph's came from the fitted rankings): otherwise the
    family searches have run on the leverage rankings, and the grouped search, as
    costly, found a sparser member of a weighted graph's family (Les Misérables: 245
    edges for 247, F1 0.986 to 0.982, 0.4 to 4.2 CPU s) and nothing on RGG(200, 0.13)
    (1.8 to 4.0 CPU s). The grouped search's graph replaces the one found when it has fewer
    edges or equal weights where that one has not (``candidate_order``, without its
    last key: an equal number of edges with weights spread less is no evidence) and
    fits the eigenvectors:
    exactly (``FITS_EXACTLY``) for exact eigenvectors, as well as the graph found
    (``_fits_as_well``, per free pair: ``_per_free_pair``) with noise. The complete
    graph (the only graph of one group of all nonzero eigenvalues) is never taken, nor a
    graph within fewer pairs of it than a spanning tree has (``_not_near_complete``: a
    grouping that mixes the true eigenspaces gave Comet(60, 10), exact, the complete
    graph minus one pair with equal weights). With repeated eigenvalues the graph
    found need not be a function of the truth, and its eigenspaces need not be unions
    of the true ones: on exact input the groupings refined by the other graphs found
    are searched too (`_refined_searches`), and a graph from them that is not settled
    is returned with a ``ConvergenceWarning``. With
    noise, a sparser graph whose rotation residual per free pair is within
    ``RESIDUAL_CONSISTENT`` times that of the graph found, but not within the slacks,
    is a rival (``_add_rival``): reported, not returned (caveman(4, 5) rotated,
    benchmark draw 5: the truth at 1.26 times a regular graph of 48 edges that shares
    its eigenvectors).
    """
    if not ranked or _settled(B, ranked) or B.n > FAMILY_SEARCH_MAX_N:
        return ranked, family_dimension
    reference = _residuals(basis, ranked[0][3])
    exact = reference[0] <= FITS_EXACTLY
    if exact and "leverage_noise_estimates" not in history:
        return ranked, family_dimension
    groups = _eigenspace_groups(basis, ranked[0][3])
    if groups is None:
        return ranked, family_dimension
    g_ranked, g_dim = _grouped_search(basis, groups, tol, rng)
    history["found_eigenspaces"] = {"groups": len(groups),
                                    "edges": [int(x[0]) for x in g_ranked[:1]]}
    # the complete graph shares every basis's eigenvectors: no evidence (one group of all
    # nonzero eigenvalues gives it alone, with equal weights)
    g_ranked = _not_near_complete(B, g_ranked)
    if exact:
        g_ranked, g_dim = _refined_searches(basis, B, ranked, groups, g_ranked, g_dim,
                                            history, tol, rng)
    if not g_ranked or candidate_order(g_ranked[0])[:2] >= candidate_order(ranked[0])[:2]:
        return ranked, family_dimension
    fit = _residuals(basis, g_ranked[0][3])
    if exact:
        if fit[0] > FITS_EXACTLY:
            return ranked, family_dimension
    else:
        mine = _per_free_pair(fit, g_ranked[0][0], B.n_pairs)
        theirs = _per_free_pair(reference, ranked[0][0], B.n_pairs)
        history["found_eigenspaces"]["fit_ratios"] = (float(mine[0] / theirs[0]),
                                                      float(mine[1] / theirs[1]))
        if not _fits_as_well(mine, theirs):
            if mine[1] <= RESIDUAL_CONSISTENT * theirs[1]:
                # not as well, but to the noise level (``_fitting_mask``): a rival
                _add_rival(history, ranked[0], g_ranked[0])
            return ranked, family_dimension
    history["found_eigenspaces"]["chosen"] = True
    if exact and (not _settled(B, g_ranked) or (
            "refined" in history["found_eigenspaces"] and not _sparsest_possible(B, g_ranked))):
        # the first grouping's graph was not settled and no refinement gave a tree: every
        # grouping searched may join true eigenspaces (balanced_tree(4, 3), draw 3: an
        # equal-weight graph of 122 edges for the tree's 84)
        warnings.warn(f"the graph ({int(g_ranked[0][0])} edges) comes from searches with "
                      "eigenvalues tied on groups of columns that may join different "
                      "eigenspaces; a sparser graph may have these eigenvectors (family "
                      f"dimension {max(family_dimension, g_dim)})",
                      ConvergenceWarning, stacklevel=5)
    return _merge(g_ranked, ranked), max(family_dimension, g_dim)


def _grouped_search(basis, groups, tol, rng):
    """``(ranked, family dimension)`` of the search with the eigenvalues constant on
    ``groups`` of columns, its convergence warnings silenced."""
    grouped = dict(basis, groups=groups)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConvergenceWarning)
        ranked, dim, _ = _sparsest_graphs(_anchored_pair_basis(grouped), grouped, tol, rng)
    return ranked, dim


def _refined_searches(basis, B, ranked, groups, g_ranked, g_dim, history, tol, rng):
    """The grouped search's graphs ``g_ranked`` (family dimension ``g_dim``) with those of
    the searches on the common refinements of ``groups`` with the eigenspaces of each
    other graph of ``ranked`` (``refined_groupings``, coarsest first), exact eigenvectors:
    ``(ranked, family dimension)``, candidates sorted by ``candidate_order``, until the
    first is `_settled`.

    The eigenspaces of the first graph found join true eigenspaces when it is not a
    function of the truth (``balanced_tree(3, 4)``, shuffled draw 0: two groups of two
    columns with true eigenvalues 1.197 and 6.803, 2.930 and 5.070; the grouped search
    gives 240 edges for 120); a refinement by a graph that separates them gives the
    tree. Every graph of a grouped search is diagonalised by the exact basis: a sparser
    one is a sparser graph with these eigenvectors, whatever the grouping.
    """
    n = basis["V"].shape[1]
    others = [_eigenspace_groups(basis, item[3]) for item in ranked[1:]]
    queue = [(g, True) for g in refined_groupings(groups, others, n)]
    tried, seen = [], set()
    while queue and not _settled(B, g_ranked):
        refined = queue.pop(0)
        key = frozenset(map(tuple, refined[0]))
        if key in seen:
            continue
        seen.add(key)
        r_ranked, r_dim = _grouped_search(basis, refined[0], tol, rng)
        r_ranked = _not_near_complete(B, r_ranked)
        tried.append((len(refined[0]), [int(x[0]) for x in r_ranked[:1]]))
        if r_ranked and refined[1]:
            # the graph found separates what its grouping separates, and may join what
            # the refinement split inside a true eigenspace: refine by it next
            queue[:0] = [(g, False) for g in refined_groupings(
                groups, [_eigenspace_groups(basis, r_ranked[0][3])], n)]
        if r_ranked and (not g_ranked or candidate_order(r_ranked[0]) < candidate_order(
                g_ranked[0])) and _residuals(basis, r_ranked[0][3])[0] <= FITS_EXACTLY:
            g_ranked, g_dim = _merge(r_ranked, g_ranked), max(g_dim, r_dim)
    if tried:
        history["found_eigenspaces"]["refined"] = tried
    return g_ranked, g_dim


def _per_free_pair(residuals, edges, n_pairs):
    """``residuals`` (``_residuals``) of a graph of ``edges`` edges per pair it leaves
    free: divided by $\\sqrt{1 - e / N}$ over the $N$ pairs.

    A graph fits its weights to the noise on its own pairs, so its residual comes from
    the other $N - e$: a denser graph leaves less. On few nodes this is no detail:
    connected caveman(3, 6) (153 pairs) rotated and perturbed gave a graph of 102
    edges whose rotation residual was 0.70 times the true graph's (45 edges), as
    $\\sqrt{51 / 108} = 0.69$ predicts.
    """
    factor = np.sqrt(max(1.0 - edges / n_pairs, 1.0 / n_pairs))
    return residuals[0] / factor, residuals[1] / factor


def _eigenspace_groups(basis, W):
    """The columns grouped by the eigenvalues of the Laplacian of weights ``W`` (the
    diagonal of $V^T L V$; the zero-eigenvalue column alone), values closer than
    ``EIGENSPACE_FACTOR`` times the root mean square off-diagonal entry (or 1e-8 of
    the largest) joined; None when every group is one column, or when two consecutive
    values are neither that close nor ``EIGENSPACE_SEPARATION`` times as far apart (a
    spectrum with no clear gaps: Les Misérables perturbed by 1e-3 shows consecutive
    differences of 0.02 to 7 times that entry, and a grouping of it mixes
    eigenspaces), unless the steps split in two at a ratio of at least
    ``EIGENSPACE_SEPARATION`` (``_separating_step``)."""
    V = basis["V_anchored"]
    n = V.shape[1]
    lam, off = _rotated_parts(V, _laplacian(W, basis))
    gap = max(EIGENSPACE_FACTOR * off / np.sqrt(n * (n - 1)), 1e-8 * float(np.abs(lam).max()))
    z = basis["zero_column"]
    order = np.argsort(lam)
    order = order[order != z]
    steps = np.diff(lam[order])
    if np.any((steps > gap) & (steps < EIGENSPACE_SEPARATION * gap)):
        gap = _separating_step(steps, gap)
        if gap is None:
            return None     # values neither equal nor apart: no grouping is trusted
    cuts = np.flatnonzero(steps > gap) + 1
    groups = [[int(z)]] + [g.tolist() for g in np.split(order, cuts)]
    return groups if len(groups) < n else None


def _separating_step(steps, gap):
    """The largest of the consecutive eigenvalue ``steps`` that joins two values into one
    eigenspace when the steps split in two: every larger step at least
    ``EIGENSPACE_SEPARATION`` times as wide, and ``EIGENSPACE_SEPARATION`` times the
    noise ``gap`` (the steps that separate eigenspaces stand out of the noise as in
    ``_eigenspace_groups``); None if they do not split so.

    Inside a large eigenspace the values spread beyond ``gap``: a graph found for
    rotated caveman(3, 6) that shares the truth's eigenspaces (F1 0.082) has the values
    of its eigenspace of multiplicity 9 up to 8.1 times the root mean square
    off-diagonal entry apart (``gap`` is 5 times it), its eigenspaces at least 3966
    times.
    """
    s = np.sort(steps)
    ratio = s[1:] / np.maximum(s[:-1], np.finfo(float).tiny)
    ratio[s[1:] < EIGENSPACE_SEPARATION * gap] = 0.0
    k = int(np.argmax(ratio))
    return float(s[k]) if ratio[k] >= EIGENSPACE_SEPARATION else None


def _character_search(basis, tol, rng):
    """The search with the eigenvalues constant on the eigenspaces that the columns'
    triple products show (``character_groups``: exact eigenvectors of a Cayley graph of
    an abelian group): ``(ranked, family dimension, history)`` if it gives a graph with
    equal weights, else None."""
    groups = character_groups(basis["V_anchored"], basis["zero_column"])
    if groups is None:
        return None
    grouped = dict(basis, groups=groups)
    ranked, family_dimension, history = _sparsest_graphs(_anchored_pair_basis(grouped),
                                                         grouped, tol, rng)
    if not ranked or ranked[0][1] > 1e-6:
        return None
    history["eigenspace_groups"] = len(groups)
    return ranked, family_dimension, history


def _symmetry_complement(B: PairBasis, W) -> bool:
    """Whether the graph of weights ``W`` is the complete graph without some pairs, each
    joining two nodes with equal rows of $|\\tilde V|$ (to ``MIRROR_LEVEL``).

    A symmetry of a graph with a simple spectrum (an automorphism $\\sigma$, $P_\\sigma
    V = V S$ with $S$ diagonal, $\\pm 1$) makes the rows of $|V|$ of $i$ and
    $\\sigma(i)$ equal, and $P_\\sigma$ is diagonal in the basis: the complete graph
    without the pairs $(i, \\sigma(i))$ has the eigenvectors of every graph with that
    symmetry. When $\\sigma$ moves every node, the columns split by their sign under it
    into groups whose projectors $(I \\pm P_\\sigma) / 2$ have a constant diagonal,
    which ``character_groups`` reads as the eigenspaces of a Cayley graph (hexagonal
    lattices, grids with diagonals); those groups give such graphs only.
    """
    upper = sp.triu(W, 1)
    if not B.n_pairs // 2 < upper.nnz < B.n_pairs:
        return False
    i, j = np.nonzero(np.triu(upper.toarray() == 0, 1))
    R = np.abs(B.V)
    gap = np.linalg.norm(R[i] - R[j], axis=1)
    return bool(np.all(gap <= MIRROR_LEVEL * np.linalg.norm(R[i], axis=1)))


def _grouped_result(basis, B, ranked, family_dimension, history):
    """The result with a grouped search's graphs. The groups' projectors have a constant
    diagonal, so every graph that search finds is regular and a member of the
    constant-diagonal family of the ungrouped basis ``B``; that family's dimension (the
    twins of tori and circulants are in it) is reported when larger."""
    dim = constant_diagonal_dimension(B)
    history["constant_diagonal_dimension"] = dim
    return _result(basis, B, ranked, max(family_dimension, dim), history)


def _read_basis(V_hat, eigenspaces, ordered, laplacian, scale) -> dict:
    """Validated dense basis and options (the defaults a ``FourierBasis`` supplies)."""
    info = {"nodelist": None, "scale": None, "kind": laplacian}
    if isinstance(V_hat, FourierBasis):
        if not V_hat.connected:
            if eigenspaces is not None or ordered:
                raise ValueError(f"V_hat is the basis of a graph with {V_hat.n_components} "
                                 "connected components: its components are inferred "
                                 "without eigenspaces or order, pass neither")
            info["components"] = V_hat.n_components
        else:
            eigenspaces = V_hat.eigenspaces if eigenspaces is None else eigenspaces
            ordered = True if ordered is None else ordered
        info["kind"] = V_hat.laplacian_type if laplacian is None else laplacian
        info["nodelist"] = list(V_hat.nodelist)
        if V_hat.laplacian is not None:
            info["scale"] = float(V_hat.laplacian.diagonal().sum()) / V_hat.n
        V = np.asarray(V_hat.eigenvectors, dtype=np.float64)
    elif isinstance(V_hat, HouseholderProduct):
        V = V_hat.to_dense()
    elif isinstance(V_hat, np.ndarray | list | tuple) or hasattr(V_hat, "__array__"):
        V = check_real_array(V_hat, "V_hat", ndim=2, allow_float32=False)
    else:
        raise TypeError("V_hat must be an array, a HouseholderProduct or a FourierBasis, "
                        f"got {type(V_hat).__name__}")
    info["kind"] = "combinatorial" if info["kind"] is None else info["kind"]
    if info["kind"] not in _KINDS:
        raise ValueError(f"laplacian must be one of {_KINDS}, got {info['kind']!r}")
    if scale is not None:
        if info["kind"] == "normalized":
            raise ValueError("scale applies to combinatorial Laplacians only; a normalized "
                             "Laplacian has unit diagonal")
        info["scale"] = check_scalar(scale, "scale", low=0.0)
    info["V"] = _orthonormal(V)
    info["groups"] = _check_groups(eigenspaces, V.shape[0])
    info["ordered"] = bool(ordered)
    return info


def _orthonormal(V):
    """The orthogonal matrix nearest ``V``, refused unless ``V`` is near-orthogonal.

    Near-orthogonal: $\\|V^T V - I\\|_F / \\sqrt n \\le 0.5$ and every entry of
    $V^T V - I$ at most 0.5 in absolute value. The entrywise bound does not weaken
    as $n$ grows: a repeated or zero column (a singular $V$, whose nearest
    orthogonal matrix is not unique) is refused at every size.

    The nearest orthogonal matrix is the polar factor $V (V^T V)^{-1/2}$. When
    $n \\ge$ ``POLAR_STEP_MIN_N`` and $G = V^T V - I$ has $\\|G\\|_F \\le$
    ``POLAR_STEP_GAP`` (a basis orthonormal up to rounding, as eigensolvers return), one
    Newton-Schulz step $V - V G / 2$ gives it to within $\\tfrac38 \\|G\\|_F^2$ plus
    rounding (one product, $2 n^3$ flops); otherwise it is $U W^T$ from the SVD
    $V = U \\Sigma W^T$ ($\\approx 22 n^3$ flops).
    """
    n = V.shape[0]
    if V.shape != (n, n) or n < 3:
        raise ValueError(f"V_hat must be square with n >= 3, got shape {V.shape}")
    gap = V.T @ V - np.eye(n)
    size = float(np.linalg.norm(gap))
    defect = size / np.sqrt(n)
    if defect > 0.5:
        raise ValueError("V_hat must be close to orthogonal, got ||V^T V - I||_F / sqrt(n) = "
                         f"{defect:.3g}")
    k, l = np.unravel_index(int(np.argmax(np.abs(gap))), gap.shape)
    if abs(gap[k, l]) > 0.5:
        what = (f"column {k} has squared norm {gap[k, k] + 1:.3g}" if k == l else
                f"columns {k} and {l} have inner product {gap[k, l]:.3g}")
        raise ValueError(f"V_hat must be close to orthogonal (every entry of V^T V - I at "
                         f"most 0.5), but its {what}")
    if n >= POLAR_STEP_MIN_N and size <= POLAR_STEP_GAP:
        # one Newton-Schulz step: V (I + G)^{-1/2} = V (I - G/2) + O(||G||^2)
        return V - V @ (0.5 * gap)
    U, _, Wt = np.linalg.svd(V)
    return U @ Wt


def _check_groups(eigenspaces, n):
    if eigenspaces is None:
        return None
    groups = [np.asarray(g, dtype=np.intp).ravel() for g in eigenspaces]
    flat = np.concatenate(groups) if groups else np.array([], dtype=np.intp)
    if flat.size != n or not np.array_equal(np.sort(flat), np.arange(n)):
        raise ValueError(f"eigenspaces must partition the columns 0..{n - 1}")
    return groups


def _zero_column(V, kind):
    """Index of the zero-eigenvalue column and the vector it is rotated onto."""
    n = V.shape[0]
    cos = np.abs(V.sum(axis=0)) / np.sqrt(n)
    one_sign = np.abs(V.sum(axis=0)) / np.abs(V).sum(axis=0)
    one_sign[np.abs(V).min(axis=0) <= 1e-12 * np.abs(V).max(axis=0)] = 0.0   # zero entries
    if kind == "combinatorial":
        c = int(np.argmax(cos))
        if cos[c] >= MIN_COS:
            return c, np.full(n, 1.0 / np.sqrt(n))
        k = int(np.argmax(one_sign))
        hint = (f"; its column {k} has entries of one sign, as the basis of a normalized "
                "Laplacian has: pass laplacian='normalized'" if one_sign[k] >= MIN_COS else "")
        raise ValueError("V_hat has no column close to the constant vector, the "
                         "zero-eigenvalue eigenvector of a combinatorial Laplacian (largest "
                         f"|cos| {cos[c]:.3g} < {MIN_COS}){hint}")
    c = int(np.argmax(one_sign))
    u = np.abs(V[:, c])
    if one_sign[c] < MIN_COS:
        raise ValueError("V_hat has no column with entries of one sign, the zero-eigenvalue "
                         "eigenvector D^(1/2) 1 of a normalized Laplacian (best "
                         f"|sum| / sum |.| {one_sign[c]:.3g} < {MIN_COS})")
    return c, u / np.linalg.norm(u)


def _anchored_pair_basis(basis) -> PairBasis:
    """Rotate the zero-eigenvalue column exactly onto its vector, build the pair rows."""
    V = basis["V"]
    c, u = _zero_column(V, basis["kind"])
    groups, ordered = basis["groups"], basis["ordered"]
    if ordered:
        first = 0 if groups is None else next(k for k, g in enumerate(groups) if c in g)
        if first != 0 or (groups is None and c != 0):
            raise ValueError("ordered=True needs the zero-eigenvalue column first, found it "
                             f"at column {c}")
    v = V[:, c] * np.sign(V[:, c] @ u)
    V = V - 2.0 * np.outer(v, v @ V)                 # v -> -v
    b = (v + u) / np.linalg.norm(v + u)
    V = V - 2.0 * np.outer(b, b @ V)                 # -v -> u
    V[:, c] = u
    basis["V_anchored"], basis["zero_column"] = V, c
    B = pair_basis(V, c, u, groups, ordered)
    if V.shape[0] > LADDER_MAX_N:       # below, the family searches are fast enough
        B.local_groups = local_groups(B)
        # n^3 products: half the flops. Below, the general product's rounding is kept:
        # exact trees whose families hold heavy twin graphs settle on a vertex that
        # depends on it (random_labeled_tree(80, seed=2): F1 1.0 with the general product,
        # 0.969 with the symmetric one)
        B.symmetric = True
    return B


def _candidates(B, fit, rng, history=None):
    """Candidate graphs of a fit's family, ranked (``rank_candidates``).

    Above ``LADDER_MAX_N`` nodes, the basis's columns supported on a few nodes (twins)
    are known (``PairBasis.local_groups``), and a family that is one member plus such
    columns is not searched (linear programs over it are slow): those columns'
    eigenvalues are set to the sparsest entries (``sparsify_local``), and the
    max-margin member is the other candidate. Otherwise its sparse vertices are, each
    also with its local columns sparsified. A family of more than one direction whose
    vertices are searched is counted in ``history["vertex_searches"]`` (their accuracy
    depends on the rounding level, see ``_ladder``).
    """
    groups = B.local_groups
    if explains(groups, fit.Lam):
        lam = sparsify_local(B, fit.lam, groups, fit.tol, fit.floor)
        return rank_candidates(B, [polish(B, lam, fit), polish(B, fit.lam, fit)], fit)
    member = _sparsest_member(B, fit, rng)
    if member is not None:
        return rank_candidates(B, [member, fit.lam], fit)
    if history is not None and fit.Lam.shape[1] > 1:
        history["vertex_searches"] += 1
    cands = [polish(B, lam, fit) for lam in sparse_vertices(B, fit, rng)]
    if groups and fit.Lam.shape[1] > 1:
        cands += [sparsify_local(B, lam, groups, fit.tol, fit.floor) for lam in cands]
    return rank_candidates(B, cands, fit)


def _sparsest_member(B, fit, rng):
    """The sparsest member of an exact family (``sparsest_direction``), its local columns
    sparsified and polished, if valid; else None (noisy fits, one direction, large
    families). Above ``LADDER_MAX_N`` nodes only: below, the linear-program vertices of
    the family are fast, and on the twin grids (15 x 15) the two searches return
    different members of equal sparsity."""
    if (B.n <= LADDER_MAX_N or fit.Lam.shape[1] < 2
            or float(fit.mu[0]) > B.cluster(0.0)):
        return None
    lam = sparsest_direction(B, fit.Lam, fit.hint, rng, fit.tol, fit.floor)
    if lam is None:
        return None
    if B.local_groups:
        lam = sparsify_local(B, lam, B.local_groups, fit.tol, fit.floor)
    lam = polish(B, lam, fit)
    ok = check_member(B, lam, fit.tol, fit.floor, fit.hint)
    return lam if ok else None


def _sparsest_graphs(B: PairBasis, basis, tol, rng):
    """Candidate graphs (sparsest first), the family dimension and a history.

    With the eigenvalue order, the pairs are first ranked by the proxy
    $\\sum_k k P_k$ (eigenvalue replaced by its rank), which usually puts the edges
    first and skips the trimming; above ``UNBISECTED_MIN_N`` nodes that search stops at
    the first valid size, and the graph found re-ranks the pairs. Otherwise, or if that
    finds nothing, the rankings of ``RANKINGS`` are tried in turn (``_ladder``).
    """
    history = {"noise": 0.0, "complement_sizes": [], "n_evaluations": 0, "noise_estimates": [],
               "vertex_searches": 0}
    if B.n <= SMALL_NODES:
        ranked, family_dimension = sparsest_small(B)
        return ranked, family_dimension, history
    if B.ordered:
        proxy = B.matrix(np.arange(1.0, B.g + 1.0)) ** 2
        ranked, family_dimension = _search_loop(B, proxy, tol, 0.0, rng, history,
                                                bisect_first=B.n <= UNBISECTED_MIN_N)
        if ranked:
            return ranked, family_dimension, history
    ranked, family_dimension = _ladder(B, basis, tol, rng, history)
    if not ranked and "unresolvable" not in history:
        # dense graphs with near-uniform degrees: one fitted vector ranks the pairs
        history["leverage_noise_estimates"] = history["noise_estimates"]
        history["noise_estimates"] = []
        ranked, family_dimension = _ladder(B, basis, tol, rng, history,
                                           order=FITTED_RANKINGS)
        exact = min(history["leverage_noise_estimates"], default=0.0) <= EXACT_LEVEL
        family, dim = _regular_family(B, rng, noisy=not exact)
        if not exact:
            family = _not_near_complete(B, family)
        if not family and exact and B.n <= FAMILY_SEARCH_MAX_N:
            # few pairs (Petersen: 45 for 9 unknowns): the rankings' kept pairs fit a
            # noisy basis to rounding level, and only its constant-diagonal family's
            # near-null space shows the noise
            family, dim = _consistent_regular(B, basis, B.n_pairs, rng)
        if family:
            ranked = _merge(ranked, family)
            family_dimension = max(family_dimension, dim)
            if _edge_key(ranked[0][3]) in {_edge_key(x[3]) for x in family}:
                history["constant_diagonal_graph"] = True
    elif not ranked:
        # too noisy for the leverage rankings, whose noise estimates are not clean for a
        # regular graph: its constant-diagonal family shows its own noise level, and a
        # member with equal weights to that level is kept (the family of an irregular
        # graph holds the complete graph with a few pairs dropped, weights unequal)
        family, dim = _equal_weight_regular(B, basis, rng)
        if family:
            ranked, family_dimension = family, dim
            history["regular_family"] = True
            history["leverage_unresolvable"] = history.pop("unresolvable")
    elif ranked and _doubtful(basis, ranked, history):
        # the graph does not fit the eigenvectors to their noise level: the
        # constant-diagonal family (one SVD) may hold a sparser one that fits better (a
        # regular graph, whose eigenvalue vector the leverage rankings do not see);
        # a denser graph fits the noise better and is no evidence
        family, dim = _regular_family(B, rng, noisy=True)
        if family and family[0][0] <= ranked[0][0] and (
                RESIDUAL_SLACK * _residual(basis, family[0][3])
                < _residual(basis, ranked[0][3])):
            ranked, family_dimension = family, dim
            history["regular_family"] = "refit"
    elif ranked and ranked[0][0] > B.n - 1 and _constant_degree(ranked[0][3]):
        # a regular graph found: the constant-diagonal family may hold a sparser one (a
        # 3-regular graph of girth 5 shares its eigenvectors with its distance-2 graph,
        # 6-regular with equal weights)
        sparser = _sparser_regular(B, basis, ranked[0], history["noise"] > EXACT_NOISE,
                                   rng)
        if sparser:
            ranked = _merge(ranked, sparser)
            family_dimension = max(family_dimension, 2)
    if (ranked and B.n <= FAMILY_SEARCH_MAX_N and "regular_family" not in history
            and ranked[0][0] > B.n - 1
            and (ranked[0][0] == B.n_pairs or not _constant_degree(ranked[0][3]))
            and (_noisy_input(history) or _residual(basis, ranked[0][3]) > FITS_EXACTLY)):
        # noisy eigenvectors gave the complete graph or an irregular graph: a sparser
        # regular graph that fits them to the noise its family shows is preferred (a
        # denser graph fits noise better, and is no evidence against it); up to
        # FAMILY_SEARCH_MAX_N nodes (an SVD of order n)
        sparser, dim = _consistent_regular(B, basis, ranked[0][0], rng)
        if sparser:
            keys = {_edge_key(x[3]) for x in sparser}
            ranked = sparser + [x for x in ranked if _edge_key(x[3]) not in keys]
            family_dimension = max(family_dimension, dim)
            history["regular_family"] = "sparser"
    if (ranked and history["noise"] <= EXACT_NOISE and ranked[0][0] > B.n - 1
            and _constant_degree(ranked[0][3])):
        # a constant-diagonal family too large to search (tori: 43 to 125 directions):
        # other regular graphs with as many edges may share the eigenvectors (twin
        # tori and circulants); its dimension is reported
        dim = constant_diagonal_dimension(B)
        if dim > MAX_CONSTANT_DIAGONAL:
            history["constant_diagonal_dimension"] = dim
            family_dimension = max(family_dimension, dim)
    return ranked, family_dimension, history


def _regular_family(B: PairBasis, rng, noisy):
    """Candidates of the constant-diagonal family (``constant_diagonal_fit``) other than
    the complete graph, and the family's dimension; ``([], 1)`` if it is empty.

    The complete graph (equal eigenvalues) is in every family: with noise its equal
    weights would rank it above the sparse members, whose weights vary at the noise.
    """
    regular = constant_diagonal_fit(B, noisy=noisy)
    if regular is None:
        return [], 1
    family = [c for c in _candidates(B, regular, rng) if c[0] < B.n_pairs]
    return family, regular.Lam.shape[1]


def _noisy_regular(B: PairBasis, rng, keep):
    """Candidates of the noisy constant-diagonal family that ``keep(candidate, level)``
    accepts, ``level`` the noise that family shows (``constant_diagonal_noise``), and
    the family's dimension; ``([], 1)`` if it shows none."""
    level = constant_diagonal_noise(B)
    if level is None:
        return [], 1
    family, dim = _regular_family(B, rng, noisy=True)
    return [c for c in family if keep(c, level)], dim


def _equal_weight_regular(B: PairBasis, basis, rng):
    """Candidates of the noisy constant-diagonal family whose weights are equal to that
    family's noise level (``_equal_within_noise``), and the family's dimension;
    ``([], 1)`` if none."""
    return _noisy_regular(B, rng, lambda c, level: _equal_within_noise(basis, c[3], level))


def _not_near_complete(B: PairBasis, family) -> list:
    """The candidates (``rank_candidates`` items) whose complement has at least $n - 1$
    edges (enough to be connected): of a noisy constant-diagonal family, and of the
    grouped search (``_found_eigenspaces``).

    The complete graph is a member of every family, and with noise the family also
    holds it with a few pairs dropped and weights unequal: members that differ from it
    by fewer pairs than a spanning tree has say nothing about the eigenvectors (an
    irregular graph's family, relaxed caveman of 80 nodes perturbed by 1e-3: 3154 to
    3158 edges of 3160 pairs for 360, returned with no warning).
    """
    return [c for c in family if c[0] <= B.n_pairs - (B.n - 1)]


def _noisy_input(history) -> bool:
    """No leverage ranking's kept pairs are clean to rounding level (``EXACT_LEVEL``)."""
    levels = history.get("leverage_noise_estimates", history["noise_estimates"])
    return bool(levels) and min(levels) > EXACT_LEVEL


def _consistent_regular(B: PairBasis, basis, edges, rng):
    """Candidates of the noisy constant-diagonal family with fewer than ``edges`` edges
    whose residual is within ``RESIDUAL_CONSISTENT`` times that family's noise level
    (``constant_diagonal_noise``), sparsest first, and the family's dimension; ``([], 1)``
    if none."""
    fits, dim = _noisy_regular(B, rng, lambda c, level: c[0] < edges and (
        _residual(basis, c[3]) <= RESIDUAL_CONSISTENT * level))
    return sorted(fits, key=lambda c: (c[0], c[1])), dim


def _doubtful(basis, ranked, history) -> bool:
    """A graph found at a noise level (not exact) whose residual is above
    ``RESIDUAL_CONSISTENT`` times the smallest noise estimate."""
    levels = [e for e in history["noise_estimates"] if EXACT_LEVEL < e <= MAX_NOISE]
    if history["noise"] <= EXACT_NOISE or not levels:
        return False
    return _residual(basis, ranked[0][3]) > RESIDUAL_CONSISTENT * min(levels)


def _sparser_regular(B: PairBasis, basis, found, noisy, rng):
    """Members of the constant-diagonal family with fewer edges than the graph ``found``
    (a ``rank_candidates`` item), or with as many and equal weights (a twin: another
    graph of the same size shares the eigenvectors), or []: its sparse vertices
    (``sparse_vertices``), polished only when not denser than ``found``.

    With noise, if none is found, the family's smallest ``FORCED_REGULAR_DIMENSIONS``
    directions are searched in turn (``_forced_sparser_regular``).
    """
    regular = constant_diagonal_fit(B, noisy=noisy)
    out = []
    if regular is not None:
        cands = _sparse_members(B, regular, rng, found[0])
        key = _edge_key(found[3])
        out = [c for c in cands if c[0] < found[0] or (
            c[0] == found[0] and c[1] <= 1e-6 and _edge_key(c[3]) != key)]
    if out or not noisy:
        return out
    return _forced_sparser_regular(B, basis, found, rng)


def _forced_sparser_regular(B: PairBasis, basis, found, rng):
    """Sparser graphs than the regular graph ``found`` in the noisy constant-diagonal
    family taken as its smallest ``d`` directions, ``d`` in
    ``FORCED_REGULAR_DIMENSIONS`` (the first that gives one), each with the weights
    that fit the eigenvectors best on its edges (``_support_fit``) and kept only if it
    fits them as well as ``found`` does on its own edges (rotation residual within
    ``RESIDUAL_SLACK``); [] if none, and above ``FAMILY_SEARCH_MAX_N`` nodes.

    A regular graph's family holds at least its eigenvalue vector and its square's
    (the distance-2 graph's), but at a noise level the widest gap among the smallest
    singular values need not separate them from the rest (random 3-regular graphs of
    60 nodes learned from signals at 30 dB: gaps of 1.6 to 8 against ``NOISY_GAP``
    10), and the distance-2 graph, which the rankings find, was returned. Its
    least-squares members are noisy (their rotation residual three times the
    truth's), hence the refit on their edges: a wrong support leaves entries above the
    noise, and a denser graph fits the noise better, which is no evidence for it.
    """
    if B.n > FAMILY_SEARCH_MAX_N:
        return []
    limit = None
    for d in FORCED_REGULAR_DIMENSIONS:
        regular = constant_diagonal_fit(B, noisy=True, dimension=d)
        if regular is None:
            continue
        out = []
        for c in _sparse_members(B, regular, rng, found[0] - 1):
            refit = _support_fit(basis, c[3]) if c[0] < found[0] else None
            if refit is not None and limit is None:
                reference = _support_fit(basis, found[3])
                limit = RESIDUAL_SLACK * (reference[0] if reference
                                          else _residuals(basis, found[3])[1])
            if refit is not None and refit[0] <= limit:
                out.append((c[0], weight_cv(sp.triu(refit[1], 1).data), c[2], refit[1]))
        if out:
            return sorted(out, key=candidate_order)
    return []


def _sparse_members(B: PairBasis, fit, rng, max_edges):
    """The family's sparse vertices (``sparse_vertices``) with at most ``max_edges``
    edges, polished and ranked (``rank_candidates``): only those are polished."""
    lams = [lam for lam in sparse_vertices(B, fit, rng)
            if len(edge_pairs(B, lam, fit.tol)[0]) <= max_edges]
    return rank_candidates(B, [polish(B, lam, fit) for lam in lams], fit)


def _support_fit(basis, W):
    """``(rotation residual, weights)`` of the weights on the edges of ``W`` that
    minimise the off-diagonal part of $V^T L V$ at the same total weight, or None if
    one of them is not positive.

    Edge $e = (i, j)$ adds $d_e d_e^T$ to $V^T L V$, $d_e = V_i - V_j$ (rows of $V$),
    so the squared off-diagonal norm is $w^T G w$ with
    $G_{ef} = (d_e^T d_f)^2 - \\sum_k d_{ek}^2 d_{fk}^2$; its minimum at fixed
    $\\mathbf 1^T w$ is at $w \\propto G^{-1} \\mathbf 1$. Combinatorial Laplacians only
    (the constant-diagonal family's kind).
    """
    upper = sp.triu(W, 1).tocoo()
    V = basis["V"]
    D = V[upper.row] - V[upper.col]
    D2 = D * D
    G = (D @ D.T) ** 2 - D2 @ D2.T
    try:
        w = np.linalg.solve(G, np.ones(upper.nnz))
    except np.linalg.LinAlgError:
        return None
    w *= upper.data.sum() / w.sum()
    if not np.all(w > 0):
        return None
    U = sp.csr_array((w, (upper.row, upper.col)), shape=W.shape)
    W = sp.csr_array(U + U.T)
    return _residuals(basis, W)[1], W


def _constant_degree(W) -> bool:
    """The weighted degrees of ``W`` agree within ``REGULAR_SPREAD``."""
    d = np.asarray(W.sum(axis=1)).ravel()
    return bool(np.ptp(d) <= REGULAR_SPREAD * d.mean())


def _ladder(B: PairBasis, basis, tol, rng, history, order=None):
    """The search on the rankings of ``RANKINGS``, exact or at the estimated noise level.

    Near-null directions (twin and pendant nodes, nodes left with few pairs by the
    trimming) crowd the smallest directions of the trimmed Gram, so a ranking may leave
    edges among the kept pairs. Each ranking's kept pairs give a noise estimate
    (``robust_noise``). At rounding level (below ``EXACT_LEVEL``) the eigenvectors are
    exact; above ``MAX_NOISE`` the kept pairs are not clean. In both cases the exact
    search runs (a smaller prefix of the ranking may be clean) and the first graph found
    is returned; if it belongs to a family (dimension above 1) whose linear-program
    vertices were searched, the search also runs at the coarser rounding level
    ``COARSE_ROUNDING`` and the sparsest candidate of both is returned (linear programs
    are accurate to about 1e-7, so which members of a family pass depends on that
    level). Families whose candidates need no vertex (one direction plus the local
    columns, or a sparsest member found by ``_sparsest_member``) are not searched again.
    Estimates in between are noise or an unclean ranking of exact
    eigenvectors: the input is taken as noisy once two such estimates agree within a
    factor ``NOISE_AGREEMENT`` before any ranking reached rounding level. Noisy
    rankings are then searched at their noise level (those within
    ``RESIDUAL_CONSISTENT`` times the smallest estimate first, then those at most
    ``UNRESOLVABLE_NOISE``) until two consecutive ones give the
    same graph; of the graphs found, those whose rotation residual (off-diagonal part of
    $V^T L V$ relative to the spread of its diagonal, ``_residuals``) is within
    ``RESIDUAL_SLACK`` of the smallest are kept and the sparsest of them is returned,
    graphs with equal weights to the noise level first (``_equal_within_noise``): a
    wrong support leaves entries well above the noise in the residual
    (``_noisy_ladder``). If that residual exceeds ``RESIDUAL_CONSISTENT`` times
    the smallest noise estimate, the remaining rankings are searched as exact first,
    then all noisy rankings again at the largest estimate, and the graph with the
    smaller residual is returned. Exact eigenvectors whose rankings all fail are
    searched again at the rounding noise level. When the rankings' agreeing noise level
    is above ``UNRESOLVABLE_NOISE``, nothing is searched (no graph); for the leverage
    rankings this is reported as noise (``history["unresolvable"]``).
    """
    leverage = order is None      # the fitted rankings' noise estimates are not the noise
    if order is None:
        order = RANKINGS if B.n <= LADDER_MAX_N else LARGE_RANKINGS
    order, cache, same = list(order), {}, {}

    def ranking(key):
        if key not in cache:
            if key[2:] == ("fitted",):
                scores, trimmed = fitted_ranking(B, keep=key[1], r=key[0])
            elif B.n <= LADDER_MAX_N:
                # rankings that trim as many pairs at every round are one ranking
                sizes = (key[0], trimming_sizes(B, keep=key[1]))
                if sizes not in same:
                    same[sizes] = leverage_ranking(B, keep=key[1], r=key[0])
                scores, trimmed = same[sizes]
            else:
                scores, trimmed = sampled_leverage_ranking(B, rng, rounds=key[2], keep=key[1],
                                                           r=key[0])
            cache[key] = (scores, trimmed, robust_noise(B, trimmed))
            history["noise_estimates"].append(cache[key][2])
        return cache[key]

    if leverage and B.n > LADDER_MAX_N and ranking(order[0])[2] > EXACT_LEVEL:
        order.sort(key=lambda k: ranking(k)[2])    # not exact: the cleanest rankings first
    deferred, exact_level, noisy = [], [], len(order) == 1
    rest = list(order)
    while rest:
        key = rest.pop(0)
        scores, trimmed, noise = ranking(key)
        if noise <= EXACT_LEVEL or noise > MAX_NOISE:
            vertex_searches = history["vertex_searches"]
            ranked, dim = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history)
            if ranked and dim > 1 and history["vertex_searches"] > vertex_searches:
                coarse, dim2 = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history,
                                                rounding=COARSE_ROUNDING, sparsify=True,
                                                found=ranked)
                ranked, dim = _merge(ranked, coarse), max(dim, dim2)
                if rest and _unsettled(B, ranked) and dim <= NEXT_RANKING_FAMILY:
                    # the family's span may hold the sparsest graph too inaccurately to
                    # pass: the next ranking's span is searched as well
                    ranked, dim = _next_exact(B, ranking(rest[0]), tol, rng, history,
                                              ranked, dim)
            if ranked and noise <= EXACT_LEVEL:
                ranked, dim = _refit_misfit(B, basis, tol, rng, history, order, ranking,
                                            ranked, dim)
            if ranked:
                return ranked, dim
            if noise <= EXACT_LEVEL:
                exact_level.append(key)
            continue
        deferred.append(key)
        levels = np.sort([cache[k][2] for k in deferred])
        if not exact_level and np.any(levels[1:] <= NOISE_AGREEMENT * levels[:-1]):
            noisy = True
        if noisy:
            break
    if noisy and not exact_level:
        level = min(e for e in history["noise_estimates"] if EXACT_LEVEL < e <= MAX_NOISE)
        if level > UNRESOLVABLE_NOISE:
            # unclean rankings of exact eigenvectors can agree on such a level too: the
            # exact search (no linear program unless a prefix fits to rounding) first
            exact = _first_exact(B, deferred, ranking, tol, rng, history)
            if exact:
                return exact
            if leverage:
                history["unresolvable"] = level
            return [], 1
    if (noisy or deferred) and not exact_level:
        # a later prefix clean to rounding level: the eigenvectors are exact after all
        # (unclean rankings agreed on a level by chance), and their exact graph wins
        exact = _first_exact(B, [k for k in rest if ranking(k)[2] <= EXACT_LEVEL], ranking,
                             tol, rng, history, refit=(basis, order))
        if exact:
            return exact
        ranked, dim, residual = _noisy_ladder(B, basis, tol, rng, history, order, ranking)
        level = min(e for e in history["noise_estimates"] if EXACT_LEVEL < e <= MAX_NOISE)
        if ranked and residual <= RESIDUAL_CONSISTENT * level:
            return ranked, dim
        for key in rest + ([] if noisy else deferred):   # inconsistent: exact after all?
            scores, trimmed, noise = ranking(key)
            if noise <= EXACT_LEVEL or noise > MAX_NOISE or not noisy:
                exact, dim2 = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history)
                if exact:
                    history["noise"] = 0.0
                    return exact, dim2
        # still inconsistent: all rankings at the largest estimate (looser tolerances)
        noise, largest = history["noise"], max(ranking(k)[2] for k in order
                                               if EXACT_LEVEL < ranking(k)[2] <= MAX_NOISE)
        wide, dim2, residual2 = _noisy_ladder(B, basis, tol, rng, history, order, ranking,
                                              fixed_noise=largest)
        if wide and residual2 < residual:
            return wide, dim2
        history["noise"] = noise
        return ranked, dim
    for key in deferred + exact_level:
        scores, trimmed, noise = ranking(key)
        history["noise"] = EXACT_NOISE if key in exact_level else 0.0
        ranked, dim = _search_at_noise(B, scores, trimmed, tol, history["noise"], rng,
                                       history)
        if ranked and exact_level:
            ranked, dim = _refit_misfit(B, basis, tol, rng, history, order, ranking,
                                        ranked, dim)
        if ranked:
            return ranked, dim
    return [], 1


def _refit_misfit(B, basis, tol, rng, history, order, ranking, ranked, dim):
    """The graph of exact eigenvectors ``ranked`` (with its family dimension), or, when it
    does not fit them to rounding (residual above ``ROUNDING_FIT``), the graph the rankings give at
    the noise levels ``MISFIT_LEVELS`` in turn (``_noisy_ladder``, every ranking) that
    fits them exactly, or else fits them better with at most as many edges
    (``history["noise"]`` is then that level); the levels tried and their graphs'
    sizes and residuals are in ``history["misfit_refits"]``. A graph that fits them
    but whose zero pattern leaves a family although its spectrum is simple
    (``_undetermined_support``) is searched so too, and replaced by a sparser graph
    that fits them exactly (a cycle of 60 nodes with weights uniform in [1, 10]: 297
    edges for 60).

    Eigenvectors localised on a few nodes (edge weights spanning a wide range) leave,
    after the search's prefix, pairs that fit tens of directions to rounding (their
    singular values decay from 1e-3 to 1e-13 with no gap): the exact search's family
    is then large and its linear-program vertices are dense graphs that do not fit
    the eigenvectors (a cycle of 80 nodes with weights uniform in [1, 10]: 1126
    edges, residual 2.6e-4). At a noise level those directions are not near-null,
    and the same rankings give the cycle (residual 5e-15).
    """
    if (B.n > FAMILY_SEARCH_MAX_N or basis.get("twin_class")
            or B.n_pairs < EXACT_PAIRS_PER_UNKNOWN * B.g):
        # few pairs per unknown fit noisy eigenvectors to rounding too (a twin class of
        # perturbed karate, 5 nodes: every ranking at 9.8e-16)
        return ranked, dim
    L = _laplacian(ranked[0][3], basis)
    eigenvalues, residual = _diagonal_fit(basis["V"], L)
    fits = residual <= ROUNDING_FIT
    if fits and not _undetermined_support(basis, B, ranked[0][3], eigenvalues, residual, {}):
        return _freed_member(B, basis, tol, rng, history, ranked), dim
    if float(np.median([ranking(key)[2] for key in order])) > EXACT_MEDIAN_LEVEL:
        # one ranking clean to rounding, most not: noisy eigenvectors whose few pairs per
        # unknown let a ranking's kept pairs fit them (perturbed karate: 9.8e-16)
        return ranked, dim
    original = saved = history["noise"]
    best, tried = (ranked, dim, residual), []
    # the noisy searches' records (``_undecided`` reads them) are those of noisy input
    records = {k: history.pop(k) for k in ("noisy_graphs", "residuals") if k in history}
    for level in MISFIT_LEVELS:
        wide, dim2, residual2 = _noisy_ladder(B, basis, tol, rng, history, order, ranking,
                                              fixed_noise=level, every=True)
        tried.append((level, int(wide[0][0]) if wide else None, float(residual2)))
        if wide and (wide[0][0] < ranked[0][0] if fits else (
                residual2 < best[2] and wide[0][0] <= ranked[0][0])) and (
                residual2 <= ROUNDING_FIT or not fits):
            best = (wide, dim2, residual2)
            if residual2 <= ROUNDING_FIT:
                saved = original    # exact after all: the eigenvectors' noise level
                break
            saved = history["noise"]
    for k in ("noisy_graphs", "residuals"):
        history.pop(k, None)
    history.update(records)
    history["misfit_refits"] = tried
    history["noise"] = saved
    return best[:2]


def _freed_member(B, basis, tol, rng, history, ranked):
    """``ranked``, or a sparser graph that fits the exact eigenvectors to rounding
    (``ROUNDING_FIT``) and holds non-edges of the first graph whose rows the other
    non-edges do not span, first.

    A graph that fits exact eigenvectors and whose zero pattern leaves one direction
    may still not be the sparsest: with a simple spectrum every polynomial of the
    true Laplacian shares its eigenvectors, and a cubic one whose coefficients cancel
    a few weak entries is such a graph (a cycle of 60 nodes with lognormal weights,
    $\\sigma$ = 1: 178 edges at a residual of 6e-13, the cycle's pairs at distance 1
    to 3 but for 2, one of them a cycle edge). A true edge that it zeroes is a
    non-edge whose row the other non-edges' rows do not span: its leverage in their
    Gram, the graph's own direction left out, is 1 (to 1e-15; the next non-edges' at
    most 1 - 0.025 on the cases measured, the truth's own non-edges' at most
    1 - 0.0028). Those pairs (leverage within ``FREED_LEVERAGE`` of 1, over all
    directions: the one a missed edge frees need not be among the smallest) join the
    graph's pairs; the family the others leave holds the sparser graph, and its
    candidates (``_candidates``, on a copy of ``rng``) that fit to rounding with fewer
    edges replace the graph. At most ``FREED_ROUNDS`` times; the freed pair counts are
    in ``history["freed_pairs"]``.
    Settled graphs (trees, equal weights) are not searched, nor bases of more than
    ``FREED_MAX_N`` nodes.
    """
    best, rng = ranked, copy.deepcopy(rng)
    if B.n > FREED_MAX_N:
        return best
    i, j = B.upper()
    codes = i * B.n + j
    for _ in range(FREED_ROUNDS):
        if _settled(B, best) or best[0][0] >= B.n_pairs - B.g:
            break
        upper = sp.triu(best[0][3], 1).tocoo()
        edge = np.isin(codes, upper.row.astype(np.int64) * B.n + upper.col)
        gram = complement_gram(B, i[edge], j[edge])
        mu, Lam = gram.null_directions(B.g)
        keep = mu > B.cluster(mu[0])
        if keep.sum() < mu.size - 1:
            break
        values = B.products(i[~edge], j[~edge], Lam[:, keep])
        # the centred rows' leverage plus the mean's share 1/k: that of the rows
        leverage = (values ** 2 / mu[keep]).sum(axis=1) + 1.0 / gram.k
        free = np.flatnonzero(~edge)[leverage >= 1.0 - FREED_LEVERAGE]
        history.setdefault("freed_pairs", []).append(int(free.size))
        if free.size == 0:
            break
        first = np.concatenate([np.flatnonzero(edge), free])
        rest = np.setdiff1d(np.arange(codes.size), first)
        order = (np.concatenate([i[first], i[rest]]), np.concatenate([j[first], j[rest]]))
        for rounding in (None, COARSE_ROUNDING):
            search = PrefixSearch(B, order, tol, 0.0, rounding)
            fit = search.evaluate(first.size, complement_gram(B, i[first], j[first]))
            history["n_evaluations"] += search.n_evaluations
            if fit is not None:
                break
        if fit is None:
            break
        sparser = [item for item in _candidates(B, fit, rng, history)
                   if item[0] < best[0][0] and _residual(basis, item[3]) <= ROUNDING_FIT]
        if not sparser:
            break
        best = _merge(sparser, best)
    return best


def _first_exact(B, keys, ranking, tol, rng, history, refit=None):
    """``(ranked, dim)`` of the exact search on the first of the rankings ``keys`` that
    gives a graph, or None. With ``refit = (basis, order)``, the rankings ``keys``
    clean to rounding, a graph that does not fit the eigenvectors is searched again
    at noise levels (``_refit_misfit``)."""
    for key in keys:
        scores, trimmed, _ = ranking(key)
        ranked, dim = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history)
        if ranked and refit is not None:
            ranked, dim = _refit_misfit(B, refit[0], tol, rng, history, refit[1], ranking,
                                        ranked, dim)
        if ranked:
            return ranked, dim
    return None


def _next_exact(B, key_ranking, tol, rng, history, ranked, dim):
    """The exact search (fine then coarse rounding) on another ranking, merged."""
    scores, trimmed, _ = key_ranking
    for rounding in (None, COARSE_ROUNDING):
        more, dim2 = _search_at_noise(B, scores, trimmed, tol, 0.0, rng, history,
                                      rounding=rounding, sparsify=rounding is not None,
                                      found=ranked)
        ranked, dim = _merge(ranked, more), max(dim, dim2)
    return ranked, dim


def _noisy_ladder(B, basis, tol, rng, history, order, ranking, fixed_noise=None,
                  every=False):
    """The noisy rankings in turn, the cleanest first unless ``fixed_noise``
    (``_consistent_first``); the sparsest of the graphs whose rotation residual
    (``_residuals``) is within
    ``RESIDUAL_SLACK`` of the smallest, its family dimension and its residual
    (``_residual``). Each ranking's candidates are ordered by
    ``_noisy_order``, and a graph with equal weights to the noise level is preferred to
    sparser ones without (as ``candidate_order`` prefers equal weights to rounding).

    With ``every`` (and a ``fixed_noise``), the rankings clean to rounding are searched
    too. If no ranking gives a graph, they are searched again in turn at the largest noise
    estimate, with the truncated near-null families (``PrefixSearch``) searched too,
    until one gives a graph. The
    rankings stop when two consecutive ones give the same graph, when a graph
    consistent with the noise (residual at most ``RESIDUAL_CONSISTENT`` times the
    smallest noise estimate) is determined by the eigenvectors (family dimension 1) or
    is a tree (``_settled_at_noise``: no connected graph is sparser), or when two
    consistent graphs have been found, or when a graph consistent with the noise is
    among the candidates of the previous ranking (two rankings hold it).
    """
    found, previous, consistent, held = [], None, 0, set()
    for key in order if fixed_noise is not None else _consistent_first(order, ranking):
        scores, trimmed, noise = ranking(key)
        if noise > MAX_NOISE or (noise <= EXACT_LEVEL and not every):
            continue
        noise = noise if fixed_noise is None else fixed_noise
        history["noise"] = noise
        entry = _noisy_entry(basis, *_search_at_noise(B, scores, trimmed, tol, noise, rng,
                                                      history), noise)
        ranked = entry[1] if entry else []
        edges = _edge_key(ranked[0][3]) if ranked else None
        if entry:
            found.append(entry)
            residual, dim = entry[0], entry[2]
            level = min((e for e in history["noise_estimates"] if EXACT_LEVEL < e <= MAX_NOISE),
                        default=noise)
            if residual <= RESIDUAL_CONSISTENT * level:
                consistent += 1
                if (dim == 1 or consistent >= 2 or _settled_at_noise(B, ranked)
                        or edges in held):
                    break
        if edges is not None and edges == previous:
            break
        previous, held = edges, {_edge_key(item[3]) for item in ranked}
    noisy = [k for k in order if EXACT_LEVEL < ranking(k)[2] <= MAX_NOISE]
    for key in noisy if not found else []:
        scores, trimmed, _ = ranking(key)
        history["noise"] = max(ranking(k)[2] for k in noisy)
        entry = _noisy_entry(basis, *_search_at_noise(B, scores, trimmed, tol,
                                                      history["noise"], rng, history,
                                                      search_truncated=True),
                             history["noise"])
        if entry:
            found.append(entry)
            break
    if not found:
        return [], 1, np.inf
    history["residuals"] = [x[0] for x in found]
    history["noisy_graphs"] = [{"edges": x[1][0][0], "residual": x[0], "rotation": x[3],
                                "equal_weights": x[5], "family_dimension": x[2]}
                               for x in found]
    residual, ranked, dim = _noisy_choice(found)[:3]
    return ranked, dim, residual


def _consistent_first(order, ranking) -> list:
    """The rankings of ``order`` in the order the noisy ladder searches them: those whose
    noise estimate is at most ``UNRESOLVABLE_NOISE`` and within ``RESIDUAL_CONSISTENT``
    times the smallest (the level the ladder's graphs are held to), then the other
    ones at most ``UNRESOLVABLE_NOISE``, then the others, each part in its order.

    A ranking's estimate is the spread of the pairs it keeps as non-edges, which the
    edges among them raise. A graph consistent with the noise has a residual within
    ``RESIDUAL_CONSISTENT`` times the smallest estimate; a ranking whose estimate is
    further above it keeps edges, and its search, at that level, admits the wider
    families of graphs that do not fit (PyGSP ``Sphere(200)`` perturbed by 1e-3:
    estimates 2.3e-3 to 7.3e-3 beside 1.7e-4, three families of 32 to 37 directions
    and graphs of residual 0.08 to 0.37, 5 CPU s, before the graph). Above
    ``UNRESOLVABLE_NOISE`` every pair is within its noise band, so a search at such a
    ranking's own estimate cannot tell its edges at all. The estimates of ``order`` are
    all known when the noisy ladder starts (``_ladder`` has looked for one at rounding
    level).
    """
    levels = {key: ranking(key)[2] for key in order}
    noisy = [e for e in levels.values() if EXACT_LEVEL < e <= MAX_NOISE]
    bound = RESIDUAL_CONSISTENT * min(noisy) if noisy else np.inf
    return sorted(order, key=lambda k: (levels[k] > UNRESOLVABLE_NOISE, levels[k] > bound))


def _noisy_choice(found):
    """The entry (``_noisy_entry``) of ``found`` that ``_noisy_ladder`` returns.

    Kept: the entries whose rotation residual is within ``RESIDUAL_SLACK`` of the
    smallest, and of those, the ones whose residual is within ``PLAIN_SLACK`` of the
    smallest among them (``_fits_as_well``: members of a family with one dominating
    eigenvalue, whose rotation residual says little); among them, equal weights to the
    noise level first, then ``candidate_order``.
    """
    best = min(x[3] for x in found)
    kept = [x for x in found if x[3] <= RESIDUAL_SLACK * best]
    best = min(x[0] for x in kept)
    kept = [x for x in kept if x[0] <= PLAIN_SLACK * best]
    chosen = min(kept, key=lambda x: (not x[5], candidate_order(x[1][0])))
    if chosen[4]:
        # its candidates were reordered (sparser ones do not fit): the same graph found
        # by a ranking whose candidates were not, if any, reports a family without them
        key = _edge_key(chosen[1][0][3])
        chosen = next((x for x in kept if not x[4] and _edge_key(x[1][0][3]) == key), chosen)
    return chosen


def _add_rival(history, found, rival):
    """Record ``rival`` (a ``rank_candidates`` item) as a graph that fits the noisy
    eigenvectors about as well as ``found`` (the graph returned, if it stays so): the
    result then warns (``AmbiguousGraphWarning``) and lists it last among the
    candidates."""
    history["rivals"] = [(_edge_key(found[3]), rival[3])]


def _noisy_entry(basis, ranked, dim, noise):
    """One noisy search's graphs for ``_noisy_ladder``: ``(residual, ranked, dim,
    rotation residual, reordered, equal)`` for ``ranked`` in the order of
    ``_noisy_order``, the residuals those of its first graph, ``reordered`` whether that
    graph was not the search's first and ``equal`` whether it has equal weights to the
    noise level; None when the search found no graph. The residuals of every candidate
    are computed once (``_residuals``), for the order and for the entry."""
    if not ranked:
        return None
    pairs = [_residuals(basis, item[3]) for item in ranked]
    order, equal = _noisy_order(basis, ranked, noise, [rotation for _, rotation in pairs])
    residual, rotation = pairs[order[0]]
    return (residual, [ranked[k] for k in order], dim, rotation, order[0] != 0,
            equal[order[0]])


def _noisy_order(basis, ranked, noise, rotations) -> tuple[list[int], list[bool]]:
    """The order of the candidates ``ranked`` (rotation residuals ``rotations``) in a
    noisy ranking, and which have equal weights to the noise level
    (``_equal_within_noise``).

    The candidates that fit the eigenvectors come first (``_fitting_mask``); among them,
    and among the others, those with equal weights to the noise level, then the
    ``candidate_order``. ``candidate_order`` puts graphs with equal weights first only
    when they are equal to rounding, which no graph found at a noise level is: a family
    of valid graphs (repeated eigenvalues) then holds members sparser than the truth
    that fit the eigenvectors as well, whose weights spread far beyond the noise
    (unweighted karate perturbed by 1e-3: a heavy graph on twin nodes beside a copy of
    the rest scaled down to the noise, 70 edges for 78).
    """
    fits = _fitting_mask(rotations)
    equal = [_equal_within_noise(basis, item[3], noise) for item in ranked]
    order = sorted(range(len(ranked)), key=lambda k: (not fits[k], not equal[k]))
    return order, equal


def _equal_within_noise(basis, W, noise) -> bool:
    """Whether the Laplacian of weights ``W`` is that of equal weights on its edges to
    the noise level: every off-diagonal entry within ``CLEAN_FACTOR`` times ``noise``
    of the equal-weight Laplacian's (at the same trace), standardised by $s_i + s_j$,
    $s_i^2 = (L^2)_{ii}$, as the pairs after a clean prefix are
    (``PrefixSearch._residual_noise``)."""
    L = _laplacian(W, basis)
    A = sp.csr_array(W, copy=True)
    A.data[:] = 1.0
    D = sp.triu(L - _laplacian(A, basis), 1).tocoo()
    s = np.sqrt(np.asarray(L.multiply(L).sum(axis=1)).ravel())
    z = np.abs(D.data) / (s[D.row] + s[D.col] + 1e-300)
    return bool(z.max(initial=0.0) <= CLEAN_FACTOR * noise)


def _fitting_mask(rotations) -> list[bool]:
    """Which candidates fit the eigenvectors: those whose rotation residual
    (``_residuals``) is within ``RESIDUAL_CONSISTENT`` times the smallest.

    At a noise level a family's sparse vertices need not share the eigenvectors: a
    sparser vertex can leave entries far above the noise (caveman graphs whose
    repeated eigenspaces are rotated) while a member that fits is ranked below it.
    """
    rotations = np.asarray(rotations, dtype=float)
    return (rotations <= RESIDUAL_CONSISTENT * rotations.min()).tolist()


def _fits_as_well(residuals, reference) -> bool:
    """Whether a graph of residuals ``(residual, rotation residual)`` (``_residuals``)
    fits the eigenvectors as well as the graph of residuals ``reference``: its rotation
    residual within ``RESIDUAL_SLACK`` of that graph's and its residual within
    ``PLAIN_SLACK`` of that graph's.

    The rotation residual is the same, in expectation, for every graph that shares the
    eigenvectors, but a member of a family with one dominating eigenvalue (a heavy edge
    between adjacent twins, whose difference is an eigenvector with a free eigenvalue,
    the rest of the graph scaled down to the noise and its weakest edges lost) takes it
    from the rotation of one column only: 0.88 to 1.31 times the graph's with one to
    three edges dropped (unweighted sensor graphs of 60 nodes, three draws), while its
    residual relative to $\\|L\\|_F$ is 2.3 to 3.4 times the graph's. The unweighted
    PyGSP ``Sensor(200, seed=16)`` perturbed by 1e-3 (draw 12) gave such a member (one
    weight 3900 times the median, 632 edges for 705, F1 0.930): rotation residual 1.21
    times a 674-edge graph's, residual 2.97 times. That residual is biased the other
    way along a polynomial family $L + cL^2$ (Minnesota: 1.34 for the truth against a
    denser member, at equal rotation residuals), by far less.
    """
    return (residuals[1] <= RESIDUAL_SLACK * reference[1]
            and residuals[0] <= PLAIN_SLACK * reference[0])


def _residual(basis, W):
    """`_diagonal_fit`'s residual for the Laplacian of weights ``W``."""
    return _diagonal_fit(basis["V"], _laplacian(W, basis))[1]


def _residuals(basis, W) -> tuple[float, float]:
    """`_residual` and the rotation residual of the Laplacian of weights ``W``.

    A basis $V = V_0 e^{S}$ rotated by a small antisymmetric $S$ from the eigenvectors
    $V_0$ of $L$ leaves $\\mathrm{off}(V^T L V) \\approx [\\Lambda, S]$, of entries
    $(\\lambda_j - \\lambda_i) S_{ij}$. Relative to $\\|L\\|_F$ (``_residual``) it
    depends on the spread of the spectrum: on Minnesota perturbed by 1e-3, $L + cL^2$
    (valid and denser for small $c < 0$) has a residual 8 % below the truth's at
    $c = -0.05$ for the same $S$. Relative to $\\sqrt{n \\sum_k (\\lambda_k -
    \\bar\\lambda)^2}$ (the rotation residual) it estimates
    the size of $S$, the same for every Laplacian with the eigenvectors $V_0$ (to 1e-4
    along that family), and a denser graph gains only the entries it fits: for $S$ of
    i.i.d. entries of variance $\\sigma^2$, $E \\|\\mathrm{off}\\|_F^2 = \\sigma^2
    \\sum_{i \\ne j} (\\lambda_i - \\lambda_j)^2 = 2 \\sigma^2 n \\sum_k (\\lambda_k -
    \\bar\\lambda)^2$ over all eigenvalues, the zero one included.
    """
    L = _laplacian(W, basis)
    lam, off = _rotated_parts(basis["V"], L)
    nl = sp.linalg.norm(L)
    spread = float(np.sqrt(lam.size * np.sum((lam - lam.mean()) ** 2)))
    return (off / nl if nl > 0 else 0.0), (off / spread if spread > 0 else np.inf)


def _diagonal_fit(V, L) -> tuple[np.ndarray, float]:
    """The diagonal of $V^T L V$ (the eigenvalue of every column) and
    $\\|\\mathrm{off}(V^T L V)\\|_F / \\|L\\|_F$ (0 for a zero ``L``)."""
    lam, off = _rotated_parts(V, L)
    nl = sp.linalg.norm(L)
    return lam, float(off / nl) if nl > 0 else 0.0


def _rotated_parts(V, L) -> tuple[np.ndarray, float]:
    """The diagonal of $V^T L V$ and the Frobenius norm of its off-diagonal part.

    ``V`` is orthogonal, so $\\|V^T L V\\|_F = \\|L V\\|_F$ and the off-diagonal part's
    squared norm is $\\|L V\\|_F^2$ minus that of the diagonal: $O(\\mathrm{nnz}(L)\\, n)$
    for a sparse ``L`` instead of a product of two $n \\times n$ matrices. Below
    ``DIRECT_OFF_DIAGONAL`` times $\\|L V\\|_F$ that difference has lost the digits it
    needs (exact eigenvectors: rounding level), and the product is formed.
    """
    LV = np.asarray(L @ V)
    lam = np.einsum("ij,ij->j", V, LV)
    whole = float(np.einsum("ij,ij->", LV, LV))
    off2 = whole - float(lam @ lam)
    if off2 > DIRECT_OFF_DIAGONAL ** 2 * whole:
        return lam, float(np.sqrt(off2))
    M = V.T @ LV
    lam = np.diag(M).copy()
    return lam, float(np.linalg.norm(M - np.diag(lam)))


def _search_at_noise(B, scores, trimmed, tol, noise, rng, history, rounding=None,
                     search_truncated=False, sparsify=False, found=()):
    """Seed from the trimmed pairs, then the searches; candidates of all.

    When the seed gives a graph, the pairs are ranked by its entries and the search
    starts at its number of edges. When the seed is a family and the eigenvectors are
    exact, the pairs that all its candidates hold are searched too
    (``_consensus_scores``), and with ``sparsify``,
    if the sparsest graph found has more than $n - 1$ edges, the weakest edges of the
    family's best candidate are zeroed (``zero_weakest_edges``). Neither runs when the
    best graph found so far, by this search or by the earlier ones (``found``, a
    ``_merge`` list), is a tree with equal weights (``_sparsest_possible``).
    """
    seed = seed_fit(B, trimmed, tol, noise, rounding, search_truncated,
                    refit=B.n > LADDER_MAX_N)
    family, family_dimension, start, ranking = [], 1, None, scores
    if seed is not None:
        family = _candidates(B, seed, rng, history)
        family_dimension = seed.Lam.shape[1]
        if family:
            scores = B.matrix(family[0][2]) ** 2
            start = family[0][0]
    best, dim = _search_loop(B, scores, tol, noise, rng, history, start=start,
                             source=_edge_key(family[0][3]) if family else None,
                             rounding=rounding, search_truncated=search_truncated)
    if len(family) > 1 and not noise and _unsettled(B, best) and not _sparsest_possible(
            B, _merge(found, best)):
        # members of a family mix the sparsest graph with heavy graphs on the twin nodes
        # (a different one in each member): the pairs all of them hold come first,
        # unless they are too few to connect the nodes (members that share no graph)
        common = _consensus_scores(B, family)
        i, j = B.upper()
        start = min(int(np.count_nonzero(common[i, j] > LP_ACCURACY ** 2)), family[0][0])
        if start >= B.n - 1:
            more, dim2 = _search_loop(B, common, tol, noise, rng, history, start=start,
                                      rounding=rounding, search_truncated=search_truncated)
            best, dim = _merge(best, more), max(dim, dim2)
    best = _merge(best, family)
    if best and best[0][0] == B.n_pairs:
        # the complete graph is valid for every basis: no answer. The ranking holds the
        # pairs upside down when the edges' rows are few directions repeated (complete
        # multipartite graphs: rank 1 for bipartite) and the non-edges' spread: the
        # edges fit the smallest directions and the non-edges look edge-like
        more, dim2 = _search_loop(B, -ranking, tol, noise, rng, history, rounding=rounding,
                                  search_truncated=search_truncated)
        best, family_dimension = _merge(best, more), max(family_dimension, dim2)
    if (sparsify and family and family_dimension > 1 and _unsettled(B, best)
            and not _sparsest_possible(B, _merge(found, best))):
        # the vertices reached sit on the eigenvalue floor: zero the weakest edges
        sparser = zero_weakest_edges(B, seed, family[0][2])
        best = _merge(best, rank_candidates(B, sparser, seed))
    return best, max(family_dimension, dim)


def _settled(B, ranked):
    """A tree ($n - 1$ edges: no connected graph is sparser) or a graph with equal weights
    (which the vertices of a family rarely have unless they are its sparsest member)."""
    return bool(ranked) and (ranked[0][0] <= B.n - 1 or ranked[0][1] <= 1e-6)


def _sparsest_possible(B, ranked) -> bool:
    """The first graph of ``ranked`` is a tree with equal weights: no connected graph is
    sparser, and ``candidate_order`` puts no graph with more edges before it."""
    return bool(ranked) and ranked[0][0] <= B.n - 1 and ranked[0][1] <= 1e-6


def _settled_at_noise(B, ranked):
    """A graph found at a noise level that no connected graph can be sparser than (a
    tree), unless another candidate is a tree too."""
    return (bool(ranked) and ranked[0][0] <= B.n - 1
            and not any(item[0] <= B.n - 1 for item in ranked[1:]))


def _unsettled(B, ranked):
    """Worth the extra family searches: not `_settled`, on at most `FAMILY_SEARCH_MAX_N`
    nodes."""
    return B.n <= FAMILY_SEARCH_MAX_N and not _settled(B, ranked)


def _consensus_scores(B, family):
    """Smallest squared entry over the members of a family, each relative to its largest."""
    common = None
    for item in family:
        P = B.matrix(item[2]) ** 2
        P /= max(float(P.max()), 1e-300)
        common = P if common is None else np.minimum(common, P)
    return common


def _search_loop(B, scores, tol, noise, rng, history, max_searches=4, start=None,
                 source=None, rounding=None, search_truncated=False, bisect_first=True):
    """Search, re-rank by the graph found, search again while it gets sparser.

    ``source`` is the edge set of the graph that ``scores`` come from (if any) and
    ``start`` its number of edges: the search starts there, and stops when it returns
    the graph it was ranked by. Without ``bisect_first`` the first search stops at the
    first valid size it reaches (the graph found re-ranks the pairs anyway). With the
    eigenvalue order, a search whose family has the span of the previous one (whose
    candidates it holds) ends the loop without searching that family again.
    """
    best, family_dimension, previous = [], 1, None
    c_max = B.n_pairs - max(B.g, 2 * B.n) - 1
    for k in range(max_searches):
        search = PrefixSearch(B, top_pairs(B, scores, c_max), tol, noise, rounding,
                              search_truncated, refit=B.n > LADDER_MAX_N)
        fit = search.run(start, bisect=bisect_first or bool(best))
        history["n_evaluations"] += search.n_evaluations
        if k == 1 and not bisect_first and fit is not None:
            # the family at the graph found, not at the first valid size reached
            family_dimension = fit.Lam.shape[1]
        if B.ordered and fit is not None and previous is not None and _same_span(
                previous.Lam, fit.Lam):
            break
        previous = fit
        ranked = _candidates(B, fit, rng, history) if fit is not None else []
        if not ranked or (best and candidate_order(ranked[0]) >= candidate_order(best[0])):
            break
        best = ranked
        history["complement_sizes"].append(fit.c)
        family_dimension = max(family_dimension, fit.Lam.shape[1])
        key = _edge_key(best[0][3])
        if key == source:
            break
        scores, start, source = B.matrix(best[0][2]) ** 2, best[0][0], key
    return best, family_dimension


def _same_span(A, C, rtol=1e-8) -> bool:
    """Whether the columns of ``A`` and ``C`` span the same space."""
    if A.shape[1] != C.shape[1]:
        return False
    Q = np.linalg.qr(A)[0]
    return bool(np.linalg.norm(C - Q @ (Q.T @ C)) <= rtol * np.linalg.norm(C))


def _merge(best, family):
    """The search's candidates then the seed family's, distinct edge sets only."""
    out, seen = [], set()
    for item in (best or []) + family:
        key = _edge_key(item[3])
        if key not in seen:
            seen.add(key)
            out.append(item)
    out.sort(key=candidate_order)
    return out


def _edge_key(W):
    upper = sp.triu(W, 1).tocoo()
    return frozenset(zip(upper.row.tolist(), upper.col.tolist(), strict=True))


def _result(basis, B, ranked, family_dimension, history) -> InferredLaplacian:
    n = B.n
    if not ranked:
        if "unresolvable" in history:
            warnings.warn(f"the eigenvectors are too noisy to tell edges from non-edges: "
                          f"the least edge-like pairs show a standardised noise level "
                          f"{history['unresolvable']:.3g}, above {UNRESOLVABLE_NOISE:.3g}, "
                          f"where no edge leaves the noise band; returning the complete "
                          f"graph", ConvergenceWarning, stacklevel=4)
        else:
            warnings.warn("no sparse valid Laplacian has these eigenvectors; returning the "
                          "complete graph, which every basis with this zero-eigenvalue "
                          "vector diagonalises", ConvergenceWarning, stacklevel=4)
        W = sp.csr_array(np.outer(B.u ** 2, B.u ** 2) * (1.0 - np.eye(n)))
        ranked = [(n * (n - 1) // 2, 0.0, None, W)]
    elif ranked[0][0] == B.n_pairs:
        history["complete_graph_found"] = True
        warnings.warn("the only equal-weight graph found is the complete graph, which every "
                      "basis with this zero-eigenvalue vector diagonalises: it says nothing "
                      "about these eigenvectors, and the graph sought was not found (the "
                      "result's candidates are the other graphs found)",
                      ConvergenceWarning, stacklevel=4)
    laps = [_laplacian(W, basis) for *_, W in ranked]
    L = laps[0]
    eigenvalues, residual = _diagonal_fit(basis["V"], L)
    history["candidate_edges"] = [int(x[0]) for x in ranked]
    levels = [e for e in history.get("noise_estimates", []) if EXACT_LEVEL < e <= MAX_NOISE]
    leverage = [e for e in history.get("leverage_noise_estimates", [])
                if EXACT_LEVEL < e <= MAX_NOISE]
    if leverage:
        # the fitted rankings gave the graph: their estimates are the residuals of one
        # fitted vector, not the noise (rotated caveman(3, 6): 0.045 to 0.05, the
        # leverage rankings' 4e-4, graphs with residuals near 0.2); the leverage
        # rankings' median (one of them may keep pairs cleaner than the noise: 1e-4
        # beside 3e-4 to 5e-4 on rotated caveman(4, 4), whose truth leaves 6e-4)
        levels.append(float(np.median(leverage)))
    if (history.get("noise", 0.0) > EXACT_NOISE and levels and L.count_nonzero()
            and "unresolvable" not in history):
        # residual in units of the noise: above RESIDUAL_CONSISTENT the graph does not
        # fit the eigenvectors to their noise level
        history["noise_ratio"] = residual / min(levels)
        if history["noise_ratio"] > RESIDUAL_CONSISTENT:
            warnings.warn(f"the inferred graph does not fit the eigenvectors to their noise "
                          f"level (residual {history['noise_ratio']:.1f} times the noise the "
                          f"pairs show, above {RESIDUAL_CONSISTENT:g}): the eigenvectors are "
                          f"probably too far from any sparse graph's, and the graph is "
                          f"doubtful; more accurate eigenvectors (a basis learned from more "
                          f"signals) or, if known, the eigenvalue order (eigenspaces=..., "
                          f"ordered=True) may resolve it; the result's candidates are the "
                          f"other graphs found",
                          ConvergenceWarning, stacklevel=4)
    complement = _close_complement(basis, ranked[0], _fitted_noise(history))
    if complement is not None and (sparser := sp.triu(complement, 1).nnz) < ranked[0][0]:
        # noisy rankings can reach the denser of a graph and its complement first (the
        # two fit alike): the sparser is returned, the graph found is its complement
        ranked, complement = [(sparser, 0.0, None, complement), *ranked[1:]], ranked[0][3]
        laps[0] = L = _laplacian(ranked[0][3], basis)
        eigenvalues, residual = _diagonal_fit(basis["V"], L)
        history["candidate_edges"][0] = ranked[0][0]
    if complement is not None:
        _report_candidate(laps, history, "complement_edges", complement, basis, lambda e: (
            f"the inferred graph has {ranked[0][0]} edges of equal weight and its "
            f"complement, a connected graph with {e} edges, has the same eigenvectors: "
            f"no inference from eigenvectors tells a graph from its complement, and the "
            f"sparser is returned (the complement is the last of the candidates)"))
    twins = _distance_twins(basis, ranked, _fitted_noise(history))
    if twins:
        # as many or fewer edges, the same eigenvectors: listed (the result's
        # ``ambiguous``), as the constant-diagonal family's twins are
        laps += [_laplacian(A, basis) for A in twins]
        history["distance_twin_edges"] = [sp.triu(A, 1).nnz for A in twins]
        history["candidate_edges"] += history["distance_twin_edges"]
    rivals = history.pop("rivals", [])
    key = _edge_key(ranked[0][3])
    for found, W in rivals:
        if found != key:
            continue
        _report_candidate(laps, history, "rival_edges", W, basis, lambda e: (
            f"a sparser graph with the eigenspaces of the graph inferred ({e} edges "
            f"against {ranked[0][0]}) fits the eigenvectors to their noise level, not "
            f"quite as well: the eigenvectors do not tell them apart at this noise level "
            f"(it is the last of the candidates)"))
    if _still_undecided(B, history):
        history["undecided"] = True
        warnings.warn(f"in each of {UNDECIDED_SEARCHES} searches with other random "
                      f"objectives, the noisy rankings gave graphs that fit the "
                      f"eigenvectors as well but differ in size by more than their "
                      f"families' dimensions, none with equal weights "
                      f"({history['undecided_searches']['edges']} edges): the graph "
                      f"returned is one of several that these eigenvectors do not tell "
                      f"apart", AmbiguousGraphWarning, stacklevel=4)
    superset = _twin_superset(basis, ranked[0][3])
    if superset is not None:
        _report_candidate(laps, history, "superset_edges", superset, basis, lambda e: (
            f"the inferred graph's twin nodes share an eigenspace whose eigenvectors are "
            f"those of a sparse graph on them: the graph inferred plus that graph ({e} "
            f"edges against {ranked[0][0]}) has the same eigenvectors too, and the "
            f"sparser is returned (the other is the last of the candidates)"))
    if _unranked_doubt(B, history, residual):
        warnings.warn(f"no ranking of the pairs by leverage gave a graph or a noise level, "
                      f"and the inferred graph does not fit the eigenvectors exactly "
                      f"(residual {residual:.2g}): it is doubtful; the eigenvalue order, if "
                      f"known (eigenspaces=..., ordered=True), may resolve it; the result's "
                      f"candidates are the other graphs found",
                      ConvergenceWarning, stacklevel=4)
    if (ranked[0][0] < B.n_pairs and history.get("noise_ratio", 0.0) <= RESIDUAL_CONSISTENT
            and _exact_misfit(history, residual)):
        warnings.warn(f"the eigenvectors are exact (a ranking's pairs fit them to "
                      f"rounding), but the inferred graph does not fit them (residual "
                      f"{residual:.2g}, above {ROUNDING_FIT:g}): it is not the graph "
                      f"sought; eigenvectors localised on a few nodes (edge weights "
                      f"spanning a wide range) leave the search families of valid-looking "
                      f"graphs whose linear-program vertices are denser; the result's "
                      f"candidates are the other graphs found",
                      ConvergenceWarning, stacklevel=4)
    own = _undetermined_support(basis, B, ranked[0][3], eigenvalues, residual, history)
    if own:
        warnings.warn(f"the inferred graph ({ranked[0][0]} edges) has a simple spectrum, "
                      f"yet the pairs it leaves at zero hold a family of {own} independent "
                      f"Laplacians with these eigenvectors (to rounding): its edges are "
                      f"those of one member of a family of valid graphs, and the graph "
                      f"sought, a sparser member, may not have been found",
                      AmbiguousGraphWarning, stacklevel=4)
    return InferredLaplacian(
        laplacian=L, eigenvalues=eigenvalues, n_edges=int(ranked[0][0]), residual=residual,
        laplacian_type=basis["kind"], nodelist=basis["nodelist"],
        family_dimension=int(family_dimension), candidates=laps, history=history)


def _twin_superset(basis, W) -> sp.csr_array | None:
    """The weights of a valid graph that holds the graph of weights ``W``: ``W`` plus, on
    each of its twin classes (``twin_classes``) whose eigenspace's columns
    (``twin_basis``) are the eigenvectors of a graph found on them with fewer edges
    than a generic basis allows (``generic_edges``), no warning (``_doubtful_part``)
    and no twins of its own (3 or more), that graph at ``W``'s mean weight; None if
    there is none or if the sum does not fit the eigenvectors as well as ``W`` (``_fits_as_well``).
    Combinatorial Laplacians, up to ``FAMILY_SEARCH_MAX_N`` nodes.

    A class whose basis shows a disconnected graph on it (``component_graph``: some
    columns constant on each of its components) takes that graph instead of the search,
    which assumes a connected one; the sum is then kept if both its residuals are
    within ``RESIDUAL_CONSISTENT`` of ``W``'s (or at rounding). The windmill's
    eigenvectors give the star of its centre, whose leaves' columns are those of the
    disjoint cliques on them; ``W`` is fitted among the noisy rankings and its big
    eigenspace absorbs the noise of its twins' columns: windmill(5, 4) perturbed by
    1e-3 fits with a rotation residual 1.38 times the star's, friendship(5) 1.78 times.

    The wheel's eigenvectors give the star (sparser, valid): its leaves are twins, and
    their columns are the eigenvectors of the rim's cycle. An eigensolver's basis of a
    repeated eigenvalue is no such evidence: ``numpy.linalg.eigh`` returns, for twin
    leaves, the eigenvectors of a star on them (itself with twins); without the last
    condition the check fired on right answers from exact eigenvectors (BA(100, 1),
    random trees, stars, K(5, 20), unweighted karate).
    """
    if (basis["kind"] != "combinatorial" or W.shape[0] > FAMILY_SEARCH_MAX_N
            or basis.get("twin_class")):
        return None
    classes = [(nodes, Q) for nodes in twin_classes(W)
               if (Q := twin_basis(basis["V"], nodes, MIN_COS)) is not None]
    if not classes:
        return None
    theirs = _residuals(basis, W)
    total, found, split = sp.csr_array(W), False, []
    mean = float(sp.triu(W, 1).data.mean())
    for nodes, Q in classes:
        part = component_graph(Q)
        if part is not None:
            split.append(nodes)
        if part is None:
            sub, caught = _twin_class_graph(Q)
            part = sp.triu(-sub.laplacian, 1).tocoo()
            if (sub.n_edges >= generic_edges(len(nodes)) or _doubtful_part(sub, caught)
                    or twin_classes(part + part.T, 3)):
                continue
        part = sp.coo_array((part.data * (mean / part.data.mean()),
                             (nodes[part.row], nodes[part.col])), shape=W.shape)
        total = sp.csr_array(total + part + part.T)
        found = True
    if not found or sp.triu(total, 1).nnz <= sp.triu(W, 1).nnz:
        return None
    if split:
        # twins with equal weights: W's own weights on the split classes, polished on
        # the noisy columns, are averaged over each class for the comparison
        equal = _averaged_twins(W, split)
        theirs = _residuals(basis, equal)
        fit = _residuals(basis, sp.csr_array(equal + total - W))
        ratio = max(a / max(b, ROUNDING_FIT) for a, b in zip(fit, theirs, strict=True))
        return total if ratio <= RESIDUAL_CONSISTENT else None
    return total if _fits_as_well(_residuals(basis, total), theirs) else None


def _averaged_twins(W, classes) -> sp.csr_array:
    """The weights ``W`` with those of every node of each class of ``classes`` (twins)
    replaced by the class's mean: to each node outside it, and among its nodes if they
    are adjacent."""
    A = sp.lil_array(W)
    n = W.shape[0]
    for nodes in classes:
        rows = sp.csr_array(W)[nodes].toarray()
        outside = np.setdiff1d(np.arange(n), nodes)
        block = np.tile(rows[:, outside].mean(axis=0), (nodes.size, 1))
        A[np.ix_(nodes, outside)] = block
        A[np.ix_(outside, nodes)] = block.T
        inner = rows[:, nodes].sum() / (nodes.size * (nodes.size - 1))
        A[np.ix_(nodes, nodes)] = inner * (1.0 - np.eye(nodes.size))
    A = sp.csr_array(A)
    A.eliminate_zeros()
    return A


def _doubtful_part(sub, caught) -> bool:
    """Whether the graph ``sub`` found on a twin class, with the warnings ``caught``,
    is no evidence: a `ConvergenceWarning` other than the one that its residual is
    above ``RESIDUAL_CONSISTENT`` times the noise the pairs show. That one is left to
    the fit of the sum (``_fits_as_well``), which compares whole graphs on all the
    eigenvectors: a twin class's basis is a few columns, whose noise estimates are
    the smallest of a few rankings (the wheel's rim from noisy signals, 40 dB, seed 1:
    the 59-cycle at 5.5 times the noise, the sum at 1.06 times the star's rotation
    residual)."""
    warned = sum(issubclass(w.category, ConvergenceWarning) for w in caught)
    return warned > int(sub.history.get("noise_ratio", 0.0) > RESIDUAL_CONSISTENT)


def _twin_class_graph(Q):
    """The graph ``infer_laplacian(Q)`` infers from a twin class's basis ``Q`` and the
    warnings it issued; the twin classes of that graph are not searched in turn, and
    the caller's progress bar is not advanced."""
    basis = {**_read_basis(Q, None, None, None, None), "twin_class": True}
    token = evaluation_hook.set(None)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            return _infer(basis, 0.0, check_rng(DEFAULT_SEED)), caught
    finally:
        evaluation_hook.reset(token)


def _report_candidate(laps, history, key, W, basis, message) -> None:
    """Append the graph of weights ``W`` to the candidates ``laps`` (last), its edge
    count to ``history["candidate_edges"]`` and to ``history[key]``, then warn
    (`AmbiguousGraphWarning`, at the caller of ``infer_laplacian``) with
    ``message(edges)``."""
    laps.append(_laplacian(W, basis))
    history[key] = sp.triu(W, 1).nnz
    history["candidate_edges"].append(history[key])
    warnings.warn(message(history[key]), AmbiguousGraphWarning, stacklevel=5)


def _exact_misfit(history, residual) -> bool:
    """Whether a ranking's kept pairs fit the eigenvectors to rounding (a noise estimate
    at most ``EXACT_LEVEL``: exact eigenvectors, or noisy ones with few pairs per
    unknown) while the graph returned does not fit them (residual above
    ``ROUNDING_FIT``) and the searches at noise levels (``_refit_misfit``,
    ``history["misfit_refits"]``) found none that does; then
    ``history["exact_misfit"]`` holds the residual. Not asked for the complete graph
    (warned of on its own), nor true for a graph already doubted (``_unranked_doubt``).

    Every graph that shares exact eigenvectors fits them to rounding. A cycle of 100
    nodes with lognormal weights ($\\sigma$ = 1.5, weights 0.04 to 31) gave a graph
    of 304 edges at a residual of 1.2e-3 with no warning: its eigenvectors are
    localised, and the pairs left after the search's prefix fit 41 directions to
    rounding (their singular values decay from 1e-3 to 1e-13 with no gap), so the
    graph returned is an inaccurate member of that family. Without the condition on
    the refit this fired on the perturbed Petersen graph (45 pairs for 9 unknowns: its
    rankings' kept pairs fit the noisy basis to rounding).
    """
    levels = history.get("noise_estimates", []) + history.get("leverage_noise_estimates", [])
    if (not levels or min(levels) > EXACT_LEVEL or residual <= ROUNDING_FIT
            or "misfit_refits" not in history
            or "complete_graph_found" in history or "unranked_residual" in history):
        return False
    history["exact_misfit"] = float(residual)
    return True


def _undetermined_support(basis, B: PairBasis, W, eigenvalues, residual, history) -> int:
    """The dimension of the family of Laplacians that vanish on the pairs the graph of
    weights ``W`` leaves at zero, when that graph fits exact eigenvectors
    (``ROUNDING_FIT``), has a simple spectrum (no two eigenvalues within
    ``SIMPLE_SPECTRUM_GAP`` of the largest) and that family has more than one
    direction (``history["own_family_dimension"]``); else 0. Ungrouped, unordered
    bases of more than ``SMALL_NODES`` and at most ``FAMILY_SEARCH_MAX_N`` nodes, not
    the complete graph.

    The Laplacians diagonal in the basis of a graph with a simple spectrum are the
    polynomials of its Laplacian, and generically none but its own multiples vanishes
    on its non-edges: its zero pattern determines it (one direction). A graph whose
    zero pattern leaves several directions is a member of a family chosen by the
    search, not determined by the eigenvectors. Eigenvectors localised on a few nodes
    (edge weights spanning a wide range) give such families when the search's prefix
    holds the pairs near those nodes, and some of their members fit the eigenvectors
    exactly: a cycle of 60 nodes with weights uniform in [1, 10] gave 297 edges at a
    residual of 3e-12, whose zero pattern leaves 2 directions; the truth's leaves one.
    Not checked on 3 nodes or fewer: a 3-node path's zero pattern (one pair) leaves two.
    """
    n_edges = sp.triu(W, 1).nnz
    if (B.G is not None or B.ordered or not SMALL_NODES < B.n <= FAMILY_SEARCH_MAX_N
            or residual > ROUNDING_FIT or n_edges >= B.n_pairs):
        return 0
    lam = np.sort(np.delete(eigenvalues, basis["zero_column"]))
    if np.any(np.diff(lam) <= SIMPLE_SPECTRUM_GAP * float(np.abs(lam).max())):
        return 0
    upper = sp.triu(W, 1).tocoo()
    gram = complement_gram(B, upper.row, upper.col)
    mu, _ = gram.null_directions(2)
    if mu[1] > B.cluster(mu[0]):
        return 0
    mu, _ = gram.null_directions(cluster=B.cluster(mu[0]))
    history["own_family_dimension"] = int(np.count_nonzero(mu <= B.cluster(mu[0])))
    return history["own_family_dimension"]


def _unranked_doubt(B, history, residual) -> bool:
    """Whether a graph that the leverage rankings did not give is doubtful; its residual
    (``_diagonal_fit``) is then kept in ``history["unranked_residual"]``.

    When the leverage rankings give no graph and no noise level (their kept pairs clean
    to rounding, exact eigenvectors, or not clean at all), the fitted rankings'
    estimates measure their own misfit, not the noise. A graph they give is doubtful if
    it does not fit the eigenvectors exactly (``FITS_EXACTLY``: exact eigenvectors of
    Mycielski(6) gave 252 edges at a residual of 4.9e-2). A graph of the
    constant-diagonal family is doubtful if its residual is above
    ``RESIDUAL_CONSISTENT`` times the noise level that family shows
    (``constant_diagonal_noise``), or above ``FITS_EXACTLY`` if it shows none: the
    family's least-squares members fit a graph outside it too (exact eigenvectors of
    weighted ER(100, 0.5): 4914 edges at 2.6e-3, ten times that level). Graphs of that
    family already checked against its level (``_consistent_regular``) and the complete
    graph (warned of on its own) are not doubted here, nor a graph that fits to a noise
    level below ``UNRESOLVABLE_NOISE`` (``_fitted_noise``; exact Mycielski(6) gave
    0.034, where no edge leaves the noise band).
    """
    leverage = history.get("leverage_noise_estimates")
    if (not leverage or any(EXACT_LEVEL < e <= MAX_NOISE for e in leverage)
            or residual <= FITS_EXACTLY or history.get("regular_family") == "sparser"
            or history.get("noise_ratio", 0.0) > RESIDUAL_CONSISTENT
            or "complete_graph_found" in history):
        return False
    level = constant_diagonal_noise(B) if history.get("constant_diagonal_graph") else None
    if level is not None and residual <= RESIDUAL_CONSISTENT * level:
        return False
    if level is None and _fitted_noise(history):
        # a noise level at which edges leave the noise band, and the graph fits to it:
        # perturbed eigenvectors of a dense graph (ER(200, 0.3) at 1e-3: level 7e-5,
        # residual 2.2 times it)
        return False
    history["unranked_residual"] = residual
    return True


def _fitted_noise(history) -> float:
    """The noise level the graph was found at, if edges can leave its noise band (at
    most ``UNRESOLVABLE_NOISE``) and the graph fits the eigenvectors to it
    (``noise_ratio`` within ``RESIDUAL_CONSISTENT``); else 0."""
    noise = history.get("noise", 0.0)
    fits = history.get("noise_ratio", np.inf) <= RESIDUAL_CONSISTENT
    return noise if EXACT_NOISE < noise <= UNRESOLVABLE_NOISE and fits else 0.0


def _distance_twins(basis, ranked, noise: float = 0.0) -> list[sp.csr_array]:
    """The walk classes of the graph ``ranked[0]`` (``regular_walk_classes``: classes
    of pairs with equal walk counts that are connected regular graphs with at most as
    many edges) that fit the eigenvectors as well (``_fits_as_well``, residuals floored
    at ``ROUNDING_FIT``) and are not among the candidates ``ranked``; for a
    combinatorial Laplacian with equal weights (to the noise level ``noise``, as
    `_close_complement`), no eigenvalue order, up to ``FAMILY_SEARCH_MAX_N`` nodes.

    The dodecahedron perturbed by 1e-3 (draws 2, 4, 5 of ``tests/_basis_inputs``,
    shuffled with seed draw + 7) came back as its distance-4 graph, an isomorphic cubic
    graph on the same nodes with no common edge and the same eigenvectors, with the
    truth in no candidate; the Moebius-Kantor graph (draw 2) as a twin whose truth is
    one walk class of it.
    """
    n_edges, cv, _, W = ranked[0][:4]
    if (basis["kind"] != "combinatorial" or basis["ordered"] or basis.get("twin_class")
            or W.shape[0] > FAMILY_SEARCH_MAX_N or n_edges >= W.shape[0] * (W.shape[0] - 1) // 2):
        return []
    if cv > 1e-6 and not (noise > EXACT_NOISE and _equal_within_noise(basis, W, noise)):
        return []
    graphs = regular_walk_classes(W)
    if not graphs:
        return []
    reference = [max(r, ROUNDING_FIT) for r in _residuals(basis, W)]
    seen = {_edge_key(item[3]) for item in ranked}
    return [A for A in graphs if _edge_key(A) not in seen
            and _fits_as_well(_residuals(basis, A), reference)]


def _close_complement(basis, best, noise: float = 0.0) -> sp.csr_array | None:
    """The complement of the graph ``best`` when it shares its eigenvectors and is close.

    For a combinatorial Laplacian $L$ with equal weights $c$, $c(nI - J) - L$ is the
    Laplacian of the complement with the same weight, diagonal in every basis that
    diagonalises $L$ and has the constant vector. Returned only when that complement
    is connected and has at most ``COMPLEMENT_RATIO`` times the edges of ``best``
    (then the graph is at least a third of all pairs, so a dense matrix costs no
    more than the graph itself); otherwise ``None``. With the eigenvalue order known
    (``ordered``) the complement, whose eigenvalues $cn - \\lambda$ run the other way,
    is not valid and is not returned. With noisy eigenvectors (``noise``, the level the
    graph was found at, ``_fitted_noise``), equal weights are equal to that level
    (``_equal_within_noise``).
    """
    n_edges, cv, _, W = best[:4]
    n = W.shape[0]
    pairs = n * (n - 1) // 2
    if (basis["kind"] != "combinatorial" or basis["ordered"] or n_edges >= pairs
            or pairs - n_edges > COMPLEMENT_RATIO * n_edges):
        return None
    if cv > 1e-6 and not (noise > EXACT_NOISE and _equal_within_noise(basis, W, noise)):
        return None
    # unit weights: `_laplacian` sets the scale
    C = sp.csr_array(1.0 - np.eye(n) - W.astype(bool).toarray())
    if sp.csgraph.connected_components(C, directed=False)[0] > 1:
        return None
    return C


def _laplacian(W, basis) -> sp.csr_array:
    """The Laplacian of the requested kind and scale from symmetric weights ``W``."""
    n = W.shape[0]
    d = np.asarray(W.sum(axis=1)).ravel()
    if basis["kind"] == "normalized":
        s = 1.0 / np.sqrt(d)
        S = sp.diags_array(s)
        return sp.csr_array(sp.eye_array(n) - S @ W @ S)
    mean_degree = 1.0 if basis["scale"] is None else basis["scale"]
    return sp.csr_array((sp.diags_array(d) - W) * (n * mean_degree / d.sum()))


def _components_result(basis, blocks: list[NodeBlock], tol, rng) -> InferredLaplacian:
    """One graph per block of a disconnected graph's basis, assembled.

    Each component is returned at the mean degree asked for (default 1); their
    relative scale is not identifiable, so ``family_dimension`` is the sum of those of
    the components with edges (isolated nodes have no scale).
    """
    V = basis["V"]
    n = V.shape[0]
    scale = basis["scale"] if basis["kind"] == "combinatorial" else None
    rows, cols, vals = [], [], []
    n_edges, family_dimension, histories = 0, 0, []
    for block in blocks:
        if block.nodes.size < 3:             # an isolated node or one edge: determined
            sub = sp.coo_array(small_block_laplacian(block.nodes.size, basis["kind"],
                                                     1.0 if scale is None else scale))
            edges, family, history = block.nodes.size - 1, 1, {}
        else:
            part = infer_laplacian(block.basis, laplacian=basis["kind"], tol=tol,
                                   scale=scale, rng=rng, progress=False)
            sub = part.laplacian.tocoo()
            edges, family, history = part.n_edges, part.family_dimension, part.history
        rows.append(block.nodes[sub.row])
        cols.append(block.nodes[sub.col])
        vals.append(sub.data)
        n_edges += edges
        family_dimension += family if edges else 0
        histories.append(history)
    L = sp.csr_array((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                     shape=(n, n))
    L.eliminate_zeros()
    eigenvalues, residual = _diagonal_fit(V, L)
    return InferredLaplacian(
        laplacian=L, eigenvalues=eigenvalues, n_edges=n_edges, residual=residual,
        laplacian_type=basis["kind"], nodelist=basis["nodelist"],
        family_dimension=family_dimension or 1, candidates=[L],
        history={"components": [int(block.nodes.size) for block in blocks],
                 "component_histories": histories})
