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

The order-free search is spread over private modules, bottom up: ``_thresholds`` (noise
levels, fit tolerances and size limits that several modules share), ``_basis_input`` (the
basis read and validated, its zero-eigenvalue column anchored, the pair basis),
``_laplacian_fit`` (Laplacians from weights and how well they fit the eigenvectors
(residuals)), ``_candidate_search`` (the search of one ranking: seed, prefix searches, a
family's candidates), ``_result_checks`` (checks of the graph returned that the result warns
of), ``_regular_candidates`` (regular graphs of the constant-diagonal family: sparser or
better-fitting ones), ``_ranking_ladder`` (the rankings in turn, exact or at the noise level
they show (the ladder)), ``_basis_search`` (the search on one pair basis: ordered proxy,
ladder, constant-diagonal family), ``_eigenspace_search`` (searches with one eigenvalue per
eigenspace (found or character groups)), ``_edge_significance`` (whether the edges of the
graph returned are significantly nonzero at the noise level of the eigenvectors).
``laplacian_inference`` itself holds
`infer_laplacian`, the driver (``_infer``, ``_search``, the searches repeated while noisy
rankings leave the graph undecided), the result with its warnings (``_result``), the
twin-class superset (which infers the graph of a twin class, recursively) and the assembly
of a disconnected graph's components.
"""

from __future__ import annotations

import contextlib
import warnings

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._validation import check_rng, check_scalar
from gsp_householder.exceptions import AmbiguousGraphWarning, ConvergenceWarning
from gsp_householder.graphs._abelian_twins import cayley_twins
from gsp_householder.graphs._basis_grid import basis_grid_members
from gsp_householder.graphs._basis_input import MIN_COS, _anchored_pair_basis, _read_basis
from gsp_householder.graphs._basis_search import _sparsest_graphs
from gsp_householder.graphs._bipartite_halves import column_halves_graph
from gsp_householder.graphs._box_levels import box_from_levels, box_from_partitions
from gsp_householder.graphs._box_twins import box_twins
from gsp_householder.graphs._candidate_search import _edge_key, _merge
from gsp_householder.graphs._cayley_sparser import sparser_cayley_twins
from gsp_householder.graphs._components import (
    NodeBlock,
    assembled_laplacian,
    combined_choices,
    node_blocks,
    small_block_laplacian,
)
from gsp_householder.graphs._conjugate_twins import conjugate_twins
from gsp_householder.graphs._cycle_read import read_cycle
from gsp_householder.graphs._cycle_unfolding import exact_unfolded_path, path_at_own_noise
from gsp_householder.graphs._disjoint_member import disjoint_member
from gsp_householder.graphs._distance_graphs import regular_walk_classes
from gsp_householder.graphs._distance_two_root import distance_two_graph, distance_two_roots
from gsp_householder.graphs._edge_significance import (
    EDGE_LEVEL,
    edge_significance,
    weak_beyond_agreement,
)
from gsp_householder.graphs._edge_test_descent import connected, edge_test_descent, settled
from gsp_householder.graphs._eigenspace_search import (
    _character_search,
    _found_eigenspaces,
    _symmetry_complement,
)
from gsp_householder.graphs._eigenvalue_extremes import (
    CONFIRMING_PROGRAMS,
    EXTREMES_MAX_N,
    extreme_scan,
    scan_question,
)
from gsp_householder.graphs._equal_sparsity import (
    _floored_residuals,
    _weights,
    equally_sparse,
    tied_candidates,
)
from gsp_householder.graphs._equal_weight_member import sparser_equal_weight_members
from gsp_householder.graphs._exact_search_misfit import exact_search_misfit, exact_search_noise
from gsp_householder.graphs._family_doubt import (
    EDGE_AGREEMENT,
    family_agreement,
    sparsest_possible_member,
)
from gsp_householder.graphs._fitted_level_fit import non_edge_level, ratio_at_own_noise
from gsp_householder.graphs._fitting_tree import (
    exact_tree,
    tree_at_own_noise,
    tree_for_exact,
    tree_for_halves,
    tree_for_regular,
    tree_in_place,
)
from gsp_householder.graphs._grid_twins import grid_coordinates, grid_twins, known_edges
from gsp_householder.graphs._hidden_edge import hidden_edge_first
from gsp_householder.graphs._hopeless_basis import hopeless_basis_warning
from gsp_householder.graphs._hopeless_family import hopeless_warning
from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _equal_graph_fits,
    _equal_within_noise,
    _fits_as_well,
    _laplacian,
    _per_free_pair,
    _residuals,
    equal_weights,
    held_graph,
)
from gsp_householder.graphs._local_equal_weights import equal_weight_on_local_columns
from gsp_householder.graphs._local_rewiring import sparser_on_local_columns
from gsp_householder.graphs._misfit_doubt import replaced_misfit_warning
from gsp_householder.graphs._missing_edge_refit import refitted_first
from gsp_householder.graphs._missing_edges import MAX_NODES as MISSING_MAX_N
from gsp_householder.graphs._missing_edges import MISSING_LEVEL, missing_edges
from gsp_householder.graphs._near_complete import near_complete
from gsp_householder.graphs._noise_connected import split_at_noise
from gsp_householder.graphs._noisy_unit_diagonal import (
    noisy_unit_diagonal_member,
    sampled_regular_member,
)
from gsp_householder.graphs._noisy_unit_settled import settled_noisy_member
from gsp_householder.graphs._normalized_grid import normalized_grids
from gsp_householder.graphs._own_noise import own_noise
from gsp_householder.graphs._pair_noise_level import pair_noise_level
from gsp_householder.graphs._pendant_cycles import opened_pendant_cycles, pendant_cycles
from gsp_householder.graphs._prefix_window import window_doubt
from gsp_householder.graphs._program_memo import remembered_programs
from gsp_householder.graphs._quadratic_doubt import quadratic_signature
from gsp_householder.graphs._quadratic_root import quadratic_root
from gsp_householder.graphs._regular_alternatives import regular_superset, regular_ties
from gsp_householder.graphs._regular_candidates import regular_equal_weight_warning
from gsp_householder.graphs._regular_family import (
    constant_diagonal_dimension,
    constant_diagonal_noise,
)
from gsp_householder.graphs._regular_member import sparser_regular_members
from gsp_householder.graphs._regular_reading import regular_reading
from gsp_householder.graphs._regular_twins import regular_twins
from gsp_householder.graphs._result_checks import (
    EQUAL_WEIGHT_CV,
    _close_complement,
    _complement_twin,
    _exact_misfit,
    _fitted_noise,
    _fitting_complement,
    _undetermined_support,
    _unranked_doubt,
)
from gsp_householder.graphs._sibling_twins import sibling_twins
from gsp_householder.graphs._span_memo import remembered_spans
from gsp_householder.graphs._spanning_tree import tree_behind
from gsp_householder.graphs._sparser_rival import edge_agreement, equal_weight_rival
from gsp_householder.graphs._star_twin import fits_better_than_star, star_alternative
from gsp_householder.graphs._support_search import EXACT_NOISE, evaluation_hook
from gsp_householder.graphs._swap_doubt import doubtful_swap
from gsp_householder.graphs._template_lp import (
    EQUAL_WEIGHTS_CV,
    candidate_order,
    edge_key,
    laplacian_edge_key,
    weight_cv,
)
from gsp_householder.graphs._tested_candidates import accepted_first
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    FAMILY_SEARCH_MAX_N,
    FITS_EXACTLY,
    GROUPED_ONLY_MIN_N,
    MAX_NOISE,
    PLAIN_SLACK,
    RESIDUAL_CONSISTENT,
    RESIDUAL_SLACK,
    ROUNDING_FIT,
    UNRESOLVABLE_NOISE,
)
from gsp_householder.graphs._torus_twins import torus_twins
from gsp_householder.graphs._tree_search import MAX_NODES as TREE_SEARCH_MAX_N
from gsp_householder.graphs._tree_search import SEED as TREE_SEARCH_SEED
from gsp_householder.graphs._tree_search import remembered_searches, search_tree
from gsp_householder.graphs._twin_cliques import (
    twin_clique_members,
    with_twin_cliques,
    without_twin_cliques,
)
from gsp_householder.graphs._twin_split import twin_split
from gsp_householder.graphs._twin_superset import (
    component_graph,
    generic_edges,
    star_rotation,
    twin_basis,
    twin_classes,
)
from gsp_householder.graphs._unit_diagonal import (
    unit_diagonal_member,
    unit_diagonal_misfit,
    unit_diagonal_pattern_dimension,
    unit_diagonal_system,
)
from gsp_householder.graphs._unit_equal_weight import MAX_NODES as EQUAL_WEIGHT_MAX_NODES
from gsp_householder.graphs._unit_equal_weight import equal_weight_unit_members, integer_degrees
from gsp_householder.graphs._unit_family_doubt import (
    NOISY_DEGREE_ROUNDING,
    noisy_family_doubt,
    unsearched_family_doubt,
)
from gsp_householder.graphs._unit_vertex_draws import (
    equally_sparse_unit_member,
    sparser_unit_member,
)
from gsp_householder.graphs._unpaired_copies import unpaired_copies
from gsp_householder.graphs.inferred import InferredLaplacian
from gsp_householder.learning._progress import progress_bar

__all__ = ["infer_laplacian"]

#: Seed of the candidate search when no ``rng`` is given (deterministic results).
DEFAULT_SEED = 0
#: Smallest basis for which ``progress=None`` shows a bar on a terminal.
PROGRESS_MIN_N = 500
#: The history key (removed before the result) under which ``_extreme_first`` leaves
#: the graph found and the equal-weight graphs that fit as well behind it.
EQUAL_WEIGHT_FITS = "_equal_weight_fits"



# searches at most when the noisy rankings leave the graph undecided (``_undecided``).
UNDECIDED_SEARCHES = 3


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
        With ``family_dimension`` and ``candidates`` reporting the other valid graphs,
        and ``complement_twin`` whether the graph's complement, connected, has the same
        eigenvectors (an equal-weight graph: ``complement()`` builds it).

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
        If no sparse valid Laplacian is found; the complete graph (always valid) is returned.
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
        And if the graph returned for a basis that is not split into components falls
        apart once the edges whose weights exact eigenvectors do not tell from zero are
        left out (``history["disconnected_answer"]``, the number of parts).
        And if, with noisy eigenvectors, some edge of the graph returned is not
        significantly nonzero: its weight over its first-order standard error under a
        random rotation of the eigenvectors (at the noise level the non-edges show) is
        below the one-sided Bonferroni quantile over the edges at family-wise level
        0.05 (``history["weak_edges"]``, module ``_edge_significance``), and these
        edges are enough that the graph without them would agree with it below 0.95 in
        F1 (``EDGE_AGREEMENT``): weights at the noise level are not determined by the
        eigenvectors (members of K(a, b)'s noisy family). And if, with noisy
        eigenvectors (rotation noise above 1e-8, at most 1000 nodes,
        ``_missing_edges.MAX_NODES``), $k$ pairs the graph returned does not join have
        significantly negative
        entries of $V \\hat\\Lambda V^T$ (above twice the one-sided Bonferroni
        quantile over the non-edges at family-wise level 0.05;
        ``history["missing_edges"]``, module ``_missing_edges``), with $2m / (2m + k)$
        below 0.95 for its $m$ edges: the eigenvectors show edges that the graph lacks,
        and a graph that fits them better was missed. (A candidate of the searches that fits
        them as well and that neither this test nor the weak-edges test rejects is
        returned in place of such a graph: ``history["tested_candidate"]``, module
        ``_tested_candidates``; when it is denser, the answer denser than the graph it
        replaced, and it does not fit clearly better, that graph fitting the
        eigenvectors' noise: ``history["doubtful_swap"]``, module ``_swap_doubt``, an
        `AmbiguousGraphWarning`.) Neither is asked when the graph
        is already said not to fit them. And if, with noisy eigenvectors, the graph
        returned ($m$ edges, weights not equal to the noise level) comes from a family
        of dimension $d$ that may hold a connected member of $s = \\max(n - 1, m - d +
        1)$ edges agreeing with it below 0.95 in F1, $2s / (s + m)$
        (``history["family_doubt"]``, module ``_family_doubt``): the graph sought may be
        that sparser member. And if the graph returned was found by searches that took
        the eigenvectors as exact but does not fit them (residual above 1e-6) while most
        rankings' kept pairs do not fit them to rounding
        (``history["exact_search_misfit"]``, module ``_exact_search_misfit``: exact
        eigenvectors of normalized Laplacians). And if, for a normalized Laplacian, the
        eigenvectors satisfy its unit diagonal to rounding (exact eigenvectors of one,
        module ``_unit_diagonal``) but the graph returned does not fit them (residual
        above 1e-6; ``history["unit_diagonal_misfit"]``). Also if, with noisy eigenvectors, the
        graph returned has weights that are integer multiples of its smallest, $c$, and a
        largest eigenvalue $c\\,T^2/4$ for an integer $T$, those of a quadratic
        $c(TL - L^2)$ of a sparser graph with equal weights (``history["quadratic_doubt"]``, module
        ``_quadratic_doubt``): the graph sought may be that sparser graph. (When that
        graph is a tree read from the roots of the quadratic's eigenvalues that fits the
        eigenvectors as well, it is returned instead, quiet: ``history
        ["quadratic_root"]``, module ``_quadratic_root``.)
    AmbiguousGraphWarning
        If exact eigenvectors of an irregular graph returned with equal weights fit as
        exactly a regular graph with equal weights that holds it
        (``history["regular_superset_edges"]``; it and its Cayley twins are among the
        candidates). Also if the graph returned has equal weights and its complement,
        connected and at most ``COMPLEMENT_RATIO`` times as dense, has the same eigenvectors (the
        complement is then the last of the candidates; a denser complement is flagged
        only, by ``complement_twin``). Also if, with noisy
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
        for a wheel). And if, with noisy eigenvectors, the rankings searched again at
        the smallest noise estimate give a sparser graph that fits them as well, whose
        edges agree with the graph returned below ``EDGE_AGREEMENT`` in F1
        (``history["sparser_rival_edges"]``, the last of the candidates). And if
        another valid graph with no more edges than the graph returned, connected,
        fits the eigenvectors as well, exact or at the noise level the graph was found
        at (with equal weights to it): a candidate, or the graph returned relabelled by
        $p \\mapsto k p \\bmod n$ along a cyclic order of its nodes (a cycle's or a
        circulant's twin, then the last of the candidates); up to
        ``FAMILY_SEARCH_MAX_N`` nodes, no eigenvalue order (``history
        ["equally_sparse_edges"]``, module ``_equal_sparsity``); a grid or path
        returned is compared with its DCT twins, relabellings of its factors that share
        its eigenvectors (every multiplier: the truth among them), at any number of
        nodes (``history["grid_twins"]``, module ``_grid_twins``), and a torus with its
        relabellings by multipliers of its sides (module ``_torus_twins``), and a
        normalized graph with isomorphic sibling branches (trees hung on one node)
        with its twins that swap their nodes of odd depth (module
        ``_sibling_twins``). And if the
        eigenvectors are those of a grid read from the basis (columns constant on its
        lines) with fewer edges than the graph returned, which fits them as well: that
        grid and its DCT twins are the last of the candidates
        (``history["basis_grid"]``, module ``_basis_grid``). And if noisy eigenvectors
        searched as exact gave a regular graph of their constant-diagonal family whose
        sparsest member fitting at that family's noise level has unequal weights: the
        member with equal weights to that level returned in its place (or, none found,
        the weighted member) fits as well as the others
        (``history["regular_equal_weight"]``, module ``_regular_candidates``).

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
    at which they appear, each with as many columns as nodes. The candidates are the
    components' answers, then each other candidate of one component with the others'
    answers, then for each rank that two components reach their candidates of that rank
    together (``history["candidate_choices"]``); the components' warnings are given once
    each, naming the components that raised them.

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
    # each cold linear program of one inference is solved once (``remembered_programs``),
    # and so is each max-margin call on a span's cache in one state (``remembered_spans``)
    # and each tree search (``remembered_searches``)
    if bar is None:
        with remembered_programs(), remembered_spans(), remembered_searches():
            return _infer(basis, tol, rng)

    def tick(excluded):
        bar.update(1)
        bar.set_postfix(excluded_pairs=excluded, refresh=False)
    token = evaluation_hook.set(tick)
    try:
        with remembered_programs(), remembered_spans(), remembered_searches():
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
    result = _connected_infer(basis, tol, rng)
    _disconnected_answer_warning(result)
    return result


def _disconnected_answer_warning(result: InferredLaplacian) -> None:
    """Warn (`ConvergenceWarning`) when the graph inferred from a basis that is not
    split into blocks is disconnected, once the edges whose weight exact eigenvectors
    do not tell from zero are left out (``_laplacian_fit.rounding_edges``): the basis's
    zero-eigenvalue column joins every node, connected graphs with its eigenvectors
    exist (the complete graph always does), and the graph sought, connected, was not
    found. ``history["disconnected_answer"]`` is the number of components."""
    parts = connected_components(held_graph(result.laplacian), directed=False)[0]
    if parts == 1:
        return
    result.history["disconnected_answer"] = int(parts)
    warn_at_caller(f"the inferred graph ({result.n_edges} edges) falls into {parts} "
                   f"connected components once the edges whose weights exact eigenvectors "
                   f"do not tell from zero are left out, while these eigenvectors are a "
                   f"connected graph's (their zero-eigenvalue column joins every node; the "
                   f"complete graph always fits them): the graph sought was not found",
                   ConvergenceWarning)


def _connected_infer(basis, tol, rng) -> InferredLaplacian:
    """`_infer` on a basis that is not split into blocks."""
    B = _anchored_pair_basis(basis)
    if basis["kind"] == "normalized" and not basis.get("twin_class"):
        direct = _unit_diagonal_result(basis, B)
        if direct is not None:
            return direct
        settled = _unit_diagonal_settled(basis, B) or _noisy_unit_settled(basis, B)
        if settled is not None:
            return _result(basis, B, *settled)
    # the scans of extreme members of this inference (``_extreme_first``), by question
    scans = {}
    outcomes = [_search(basis, B, tol, rng, scans)]
    while len(outcomes) < UNDECIDED_SEARCHES and _undecided(B, outcomes[-1][3]):
        outcomes.append(_search(basis, B, tol, rng, scans))
    finish, ranked, family_dimension, history = _undecided_choice(basis, outcomes)
    ranked, family_dimension = _with_unit_diagonal_member(basis, ranked, family_dimension,
                                                          history)
    ranked = _with_equal_weight_members(basis, ranked, history)
    ranked, family_dimension = _with_noisy_unit_diagonal_member(basis, B, ranked,
                                                                family_dimension, history)
    ranked, family_dimension = _with_sampled_regular_member(basis, B, ranked,
                                                            family_dimension, history)
    if "sampled_regular_member" in history:
        # the regular graph read is a graph found as the searches' graphs are, and the
        # scan of extreme members asks behind it, at the level it was read at, for a
        # sparser graph that the regular family cannot hold
        ranked = _extreme_first(
            basis,
            B,
            ranked,
            family_dimension,
            history,
            scans,
            noise=_pair_level(history),
        )
    ranked = _with_sparser_cayley_twin(basis, B, ranked, history)
    ranked = _with_regular_reading(basis, B, ranked, history, tol, rng)
    ranked = _with_opened_pendant_cycles(basis, ranked, history)
    return finish(basis, B, ranked, family_dimension, history)


def _with_opened_pendant_cycles(basis, ranked, history):
    """``ranked`` with, when its first graph has equal weights and cycles of $2m + 1 \\ge
    5$ nodes hanging off one node, the graph with those cycles opened into two pendant
    paths each first, when it fits the eigenvectors as well (``_pendant_cycles``:
    the two graphs' Laplacians commute, and the opened one has an edge less per cycle;
    the closed form is then listed next by ``_list_local_twins``).
    ``history["opened_pendant_cycles"]`` gives the number of cycles opened.

    The searches may end at the closed form of a tree's two pendant paths, a vertex of
    the family as sparse as their linear programs reach (`random_labeled_tree(160,
    seed=65)`, exact, draw 1: 160 edges, its pendant paths 119-27 and 85-74 on one node
    closed into a 5-cycle). Exact eigenvectors are judged to rounding (equal weights
    within ``EQUAL_WEIGHT_CV``), noisy ones at the rankings' level when edges can leave
    its noise band (``_equal_within_noise``); a combinatorial Laplacian with no
    eigenvalue order, up to ``FAMILY_SEARCH_MAX_N`` nodes, as for the listing."""
    if (not ranked or basis["kind"] != "combinatorial" or basis["ordered"]
            or ranked[0][3].shape[0] > FAMILY_SEARCH_MAX_N):
        return ranked
    W = ranked[0][3]
    noise = history.get("noise", 0.0)
    exact = noise <= EXACT_NOISE
    if noise > UNRESOLVABLE_NOISE or not _equal_weights_at(basis, W, exact, noise):
        return ranked
    opened = opened_pendant_cycles(basis, W, 0.0 if exact else noise)
    if opened is None:
        return ranked
    history["opened_pendant_cycles"] = opened[1]
    return _ahead([_ranked_entry(opened[0])], ranked)


def _with_regular_reading(basis, B, ranked, history, tol, rng):
    """``ranked`` with, for a normalized basis without eigenspaces or order whose
    searches gave a graph with unequal weights (coefficient of variation above
    ``EQUAL_WEIGHT_CV``, and not equal to the noise level it was found at), the sparser
    regular graph of the combinatorial inference of the same eigenvectors first when
    it fits them as well (module ``_regular_reading``: the basis's zero vector is
    constant), with the warnings that inference raised; ``history["regular_reading"]``
    gives the edges of the graph found and of the regular graph. Up to
    ``FAMILY_SEARCH_MAX_N`` nodes."""
    noise = history.get("noise", 0.0)
    if (basis["kind"] != "normalized" or basis["groups"] is not None or basis["ordered"]
            or basis.get("twin_class") or not ranked or ranked[0][0] >= B.n_pairs
            or B.n > FAMILY_SEARCH_MAX_N or ranked[0][1] <= EQUAL_WEIGHT_CV
            or (noise > EXACT_NOISE and _equal_within_noise(basis, ranked[0][3], noise))):
        return ranked
    reading = regular_reading(basis, ranked[0][3], lambda b: _infer(b, tol, rng))
    if reading is None:
        return ranked
    A, caught = reading
    item = _ranked_entry(A)
    history["regular_reading"] = (int(ranked[0][0]), item[0])
    for w in caught:
        # that inference's doubts about the regular graph (an equally sparse twin of the
        # dodecahedron, held out, draw 0) hold for it as a normalized answer
        warn_at_caller(str(w.message), w.category)
    return _ahead([item], ranked)


def _unit_diagonal_result(basis, B) -> InferredLaplacian | None:
    """The result for exact eigenvectors of a normalized Laplacian that determine its
    eigenvalues by the unit diagonal alone (module ``_unit_diagonal``): the only
    normalized Laplacian with them, when it is valid, connected and fits them to
    ``FITS_EXACTLY``; None otherwise (the searches run). Sets
    ``basis["unit_diagonal"]``, the system, which ``_result`` asks again
    (``unit_diagonal_misfit``), and, when the family is larger, ``basis
    ["unit_diagonal_member"]``, its member of least $\\ell_1$ norm if it fits, which
    ``_with_unit_diagonal_member`` compares with the searches' graph (bases without
    eigenspaces or order). ``history["unit_diagonal_graph"]`` gives the edges."""
    system = unit_diagonal_system(basis["V_anchored"], basis["zero_column"])
    basis["unit_diagonal"] = system
    W = None if system is None else unit_diagonal_member(
        basis["V_anchored"], basis["zero_column"], system, B.u)
    if W is None or _residuals(basis, W)[0] > FITS_EXACTLY:
        return None
    item = _ranked_entry(W)
    if system.family_dimension > 1:
        # a member of the family need not give the columns of one eigenspace one
        # eigenvalue, nor keep their order: kept for bases without either
        if basis["groups"] is None and not basis["ordered"]:
            basis["unit_diagonal_member"] = item
        return None
    history = {"noise": 0.0, "unit_diagonal_graph": item[0]}
    return _result(basis, B, [item], 1, history)


def _unit_diagonal_settled(basis, B):
    """``(ranked, family_dimension, history)`` for `_result` without the searches, when
    exact eigenvectors of a normalized Laplacian leave a family of them (module
    ``_unit_diagonal``) whose member of least $\\ell_1$ norm fits them
    (``basis["unit_diagonal_member"]``, set by `_unit_diagonal_result`) with unequal
    weights, and no graph of the family can have equal weights: the degrees $u_i^2$ are
    no multiples of one weight (``integer_degrees``, module ``_unit_equal_weight``; Les
    Misérables, whose searches gave a graph that the member replaced, 14-39 CPU s),
    and no valid member sparser than it is drawn (``sparser_unit_member``: trees and
    grids with unequal weights, whose member of least $\\ell_1$ norm is dense; a member
    drawn, connected and fitting, then takes its place in
    ``basis["unit_diagonal_member"]``); the member is then the graph. A member with
    equal weights is the graph too when no other valid member with no more edges is
    drawn (``equally_sparse_unit_member``: the RGG, whose searches took over 150 CPU s
    at 599 nodes; ``history["unit_equal_weight_settled"]``). None otherwise: the
    searches run (members with equal weights and a drawn twin: the searches find the
    twins of paths and cycles), and when the family holds
    connected graphs with equal weights that fit the eigenvectors
    (``equal_weight_unit_members``: the grid beside a sparser weighted member) they are
    kept in ``basis["unit_equal_weight"]`` for `_with_equal_weight_members` (also when
    the member of least $\\ell_1$ norm was not found: ``ladder_graph(12)``, shuffles 1
    and 2; bases without eigenspaces or order only).
    ``history["unit_diagonal_member"]`` gives the member's edges."""
    system = basis.get("unit_diagonal")
    if (system is None or not system.exact or system.family_dimension < 2
            or basis["groups"] is not None or basis["ordered"]):
        return None
    item = basis.get("unit_diagonal_member")
    if item is not None and item[1] <= EQUAL_WEIGHTS_CV:
        if equally_sparse_unit_member(basis["V_anchored"], basis["zero_column"], system,
                                      item[3]):
            return None
        history = {"noise": 0.0, "unit_diagonal_member": (item[0], None),
                   "unit_equal_weight_settled": True}
        return [item], system.family_dimension, history
    if integer_degrees(B.u) is None:
        if item is None:
            return None
        drawn = sparser_unit_member(basis["V_anchored"], basis["zero_column"], system, B.u,
                                    item[0])
        if drawn is not None:
            # a sparser valid member of the family (members zero on random sets of pairs,
            # module ``_unit_vertex_draws``): the member is not the sparsest graph, and
            # the searches look for it (a tree with weights uniform on [1, 10]: 202 edges
            # for 29); the member drawn, connected and fitting, is compared with their
            # graph in its place (the weighted 4 x 7 grid: 183 edges for 45)
            W = drawn[1]
            if W is not None and _residuals(basis, W)[0] <= FITS_EXACTLY:
                basis["unit_diagonal_member"] = _ranked_entry(W)
            return None
        history = {"noise": 0.0, "unit_diagonal_member": (item[0], None)}
        return [item], system.family_dimension, history
    members = [
        (int(sp.triu(W, 1).nnz), 0.0, None, W)
        for W in equal_weight_unit_members(basis["V_anchored"], basis["zero_column"], system, B.u)
        if _residuals(basis, W)[0] <= FITS_EXACTLY
    ]
    if not members and B.n > EQUAL_WEIGHT_MAX_NODES:
        # the members are not listed above that size: the grid read from the degrees
        # and its spectrum (the 4 x 12 grid, answered by a weighted member of 50 edges)
        members = [
            (int(sp.triu(grid, 1).nnz), 0.0, None, grid)
            for grid in normalized_grids(basis["V_anchored"], integer_degrees(B.u))
            if _residuals(basis, grid)[0] <= FITS_EXACTLY
        ]
        basis["normalized_grid"] = bool(members)
    if members:
        basis["unit_equal_weight"] = members
    return None


def _noisy_unit_settled(basis, B):
    """``(ranked, family_dimension, history)`` for `_result` without the searches, for
    noisy eigenvectors of a normalized Laplacian (no eigenspaces or order) above
    ``NOISY_MAX_N`` nodes whose near-null unit-diagonal family reads a graph with the
    integer degrees of the zero-eigenvalue vector (``settled_noisy_member``, module
    ``_noisy_unit_settled``; the normalized RGG(600, 0.08) perturbed: its searches were
    stopped at 300 CPU s); None otherwise. ``history["noisy_unit_settled"]`` gives its
    edges, the family's dimension and its gap; ``history["noise"]`` is the residual
    that the noise its non-edges show predicts (``_own_noise.own_noise``, in the units
    of ``_diagonal_fit``'s residual, as the rankings' levels are) and
    ``history["noise_ratio"]`` its residual in units of it (at most
    ``RESIDUAL_CONSISTENT``: ``settled_noisy_member`` reads no graph that leaves more),
    the level at which `_result` judges its twins."""
    system = basis.get("unit_diagonal")
    if (system is None or system.exact or basis["groups"] is not None or basis["ordered"]):
        return None
    member = settled_noisy_member(basis["V_anchored"], basis["zero_column"], B.u)
    if member is None:
        return None
    item = _ranked_entry(member.W)
    _, ratio = own_noise(basis, member.W)
    residual = _residuals(basis, member.W)[0]
    history = {"noise": residual / ratio if ratio > 0.0 else 0.0, "noise_ratio": ratio,
               "noisy_unit_settled": (item[0], member.dimension, member.gap)}
    return [item], member.dimension, history


def _with_equal_weight_members(basis, ranked, history):
    """``ranked`` with the equal-weight graphs of the unit-diagonal family
    (``basis["unit_equal_weight"]``, `_unit_diagonal_settled`) ahead of it
    (``candidate_order``: equal weights first); the sparser graphs of the searches stay
    among the candidates, and ``_equally_sparse_warning`` warns of them and of the
    equal-weight graphs behind the first (twins of a grid). The grid read from the
    degrees and spectrum above ``EQUAL_WEIGHT_MAX_NODES`` (``normalized_grids``,
    ``history["normalized_grid"]``) goes second when the searches' graph is a grid: it
    may be a twin of the right answer. ``history["unit_equal_weight"]`` gives their
    edges."""
    members = basis.get("unit_equal_weight")
    if not members:
        return ranked
    history["unit_equal_weight"] = [int(m[0]) for m in members]
    if basis.get("normalized_grid"):
        history["normalized_grid"] = True
        if ranked and grid_coordinates(ranked[0][3]) is not None:
            # the searches returned a grid (the grid or a twin of it, which the grid read
            # from the degrees may be too): it stays first, its twins listed after it
            first = _edge_key(ranked[0][3])
            return [ranked[0], *_ahead([m for m in members if _edge_key(m[3]) != first],
                                       ranked[1:])]
    return _ahead(members, ranked)


def _with_unit_diagonal_member(basis, ranked, family_dimension, history):
    """``ranked`` and ``family_dimension`` with the unit-diagonal family's member of least
    $\\ell_1$ norm (``basis["unit_diagonal_member"]``, exact eigenvectors of a normalized
    Laplacian) put first when the searches' graph does not fit the eigenvectors to
    ``FITS_EXACTLY`` (it is then not a Laplacian with them) or is denser
    (``candidate_order``); the family's dimension is reported when larger.
    ``history["unit_diagonal_member"]`` gives the edges of the member and of the graph
    it replaced."""
    item = basis.get("unit_diagonal_member")
    if item is None:
        return ranked, family_dimension
    family_dimension = max(family_dimension, basis["unit_diagonal"].family_dimension)
    if (ranked and _residuals(basis, ranked[0][3])[0] <= FITS_EXACTLY
            and candidate_order(ranked[0]) <= candidate_order(item)):
        return ranked, family_dimension
    history["unit_diagonal_member"] = (item[0], int(ranked[0][0]) if ranked else None)
    return _ahead([item], ranked), family_dimension


#: Factor by which the searches' graph's residual (``_residuals``) exceeds that of the
#: noisy unit-diagonal family's graph when the latter replaces it: the wrong graphs
#: of perturbed normalized eigenvectors measured fit 5.9 to 400 times worse, the
#: 5 x 6 grid's (a sparser valid graph, the family's own denser and wrong) 1.7 times.
NOISY_MEMBER_MISFIT = 3.0


def _with_noisy_unit_diagonal_member(basis, B, ranked, family_dimension, history):
    """``ranked`` and ``family_dimension`` with the graph of the near-null unit-diagonal
    family of noisy eigenvectors of a normalized Laplacian (module
    ``_noisy_unit_diagonal``) first, when the searches' graph fits them more than
    ``NOISY_MEMBER_MISFIT`` times worse in both residuals (bases without eigenspaces
    or order whose unit diagonal does not hold to rounding; a graph read off the
    family's sampled members, ``NoisyMember.sampled``, must also fit them to the noise
    level of their pairs, ``_fits_pair_noise``, and is not read after a hopeless
    basis, ``_hopeless_basis``); the family's dimension is then reported when larger,
    as for exact eigenvectors.
    ``history["noisy_unit_diagonal_member"]`` gives the edges of that graph and of the
    graph it replaced, the family's dimension and its gap. The other graphs read off
    the family's sampled members (``NoisyMember.others``) that fit as well as it
    (``_fits_as_well``) follow it, with an `AmbiguousGraphWarning`
    (``history["noisy_unit_diagonal_twins"]``: their edges)."""
    system = basis.get("unit_diagonal")
    if (basis["kind"] != "normalized" or system is None or system.exact
            or basis["groups"] is not None or basis["ordered"]):
        return ranked, family_dimension
    member = noisy_unit_diagonal_member(basis["V_anchored"], basis["zero_column"], B.u)
    if member is None:
        return ranked, family_dimension
    fit = _residuals(basis, member.W)
    if member.sampled and ("hopeless_basis" in history or not _fits_pair_noise(fit, history)):
        # a graph read off random draws must fit the eigenvectors to their noise level
        # (Davis southern women at 3e-3: 116 edges for 89, residual 0.14, the truth's
        # 1.2e-3), and is not read where the kept pairs leave most eigenvalues free
        # (``_hopeless_basis``: any graph found is one member of a family that large)
        return ranked, family_dimension
    if ranked:
        searched = _residuals(basis, ranked[0][3])
        if (searched[0] <= NOISY_MEMBER_MISFIT * fit[0]
                or searched[1] <= NOISY_MEMBER_MISFIT * fit[1]):
            return ranked, family_dimension
    return _member_first(basis, member, fit, ranked, family_dimension, history,
                         "noisy_unit_diagonal", "the normalized Laplacians")


def _with_sampled_regular_member(basis, B, ranked, family_dimension, history):
    """``ranked`` and ``family_dimension`` with the regular graph read off the sampled
    members of the near-null constant-diagonal family of noisy eigenvectors of a
    combinatorial Laplacian (``sampled_regular_member``) first, when the searches'
    graph is the complete one (which every such basis diagonalises) or does not fit
    them (to rounding, nor to the noise level of their pairs: ``_fits_pair_noise``),
    the graph read fits them to that level and the searches' graph, if not complete,
    fits them more than ``NOISY_MEMBER_MISFIT`` times worse in both residuals (bases
    without eigenspaces, order or twin class, whose kept pairs were not found to leave
    most eigenvalues free, ``_hopeless_basis``); the family's dimension is then
    reported when larger, and the other graphs read that fit as well follow it, with
    an `AmbiguousGraphWarning`; so is a graph read with weights that are not equal, put
    first in place of a graph that does not fit (``_warn_unequal_regular_member``).
    ``history["sampled_regular_member"]`` gives the edges of that graph and of the graph
    it replaced, the family's dimension and its gap.

    The searches lose a regular graph whose constant-diagonal family is larger than
    the ``NOISY_TAIL`` directions they examine: ``frucht_graph()`` boxed with a
    4-cycle (48 nodes, 5-regular, 120 edges) perturbed by 1e-3 gave 245 to 1128 edges
    (F1 0.12 to 0.19), fitting 400 to 500 times worse than the graph (residual 0.15
    to 0.22 against 4e-4), whose family has 27 dimensions."""
    if (basis["kind"] != "combinatorial" or basis["ordered"] or basis["groups"] is not None
            or basis.get("twin_class") or "hopeless_basis" in history):
        # not where the kept pairs leave most eigenvalues free (``_hopeless_basis``): the
        # complement of ``random_cograph(6, seed=62)`` perturbed (56-regular, 1792 edges)
        # reads a 652-edge graph that fits to the pairs' noise level (F1 0.42)
        return ranked, family_dimension
    noise = history.get("noise", 0.0)
    fitting = False
    if ranked and ranked[0][0] < B.n_pairs:
        found = _residuals(basis, ranked[0][3])
        fitting = found[0] <= FITS_EXACTLY or _fits_pair_noise(found, history)
        equal = noise <= EXACT_NOISE or _equal_within_noise(basis, ranked[0][3], noise)
        if fitting and equal and (noise <= EXACT_NOISE or "extreme_members" not in history):
            # a graph that fits the eigenvectors (to rounding, or to their noise) with
            # equal weights to their noise stays, unless the noisy scan of extreme
            # members put it first: a sparser regular graph that fits as well then wins
            # (``frucht_graph()`` boxed with a 5-cycle, draw 2: the scan's 180 edges,
            # F1 0.0, behind the weighted graph of 300; the regular reading's 150)
            return ranked, family_dimension
    member = sampled_regular_member(basis["V_anchored"], basis["zero_column"])
    if member is None:
        return ranked, family_dimension
    fit = _residuals(basis, member.W)
    if not _fits_pair_noise(fit, history):
        return ranked, family_dimension
    if fitting:
        # a weighted graph that fits: a sparser regular graph that fits as well wins
        if sp.triu(member.W, 1).nnz >= ranked[0][0] or not _fits_as_well(fit, found):
            return ranked, family_dimension
        history["sampled_regular_sparser"] = True
        weights = "equal weights, put first by the scan of extreme members" if equal else (
            "unequal weights")
        warn_at_caller(f"the graph found ({ranked[0][0]} edges, {weights}) fits the "
                       f"eigenvectors to their noise level, and so does a sparser regular "
                       f"graph ({sp.triu(member.W, 1).nnz} edges) read off the "
                       f"{member.dimension}-dimensional family of regular graphs with these "
                       f"eigenvectors, which is returned; other members of that family as "
                       f"sparse may fit as well (the graph found is among the candidates)",
                       AmbiguousGraphWarning)
    elif ranked and ranked[0][0] < B.n_pairs:
        # the complete graph fits every basis with a constant column: no comparison
        if (found[0] <= NOISY_MEMBER_MISFIT * fit[0]
                or found[1] <= NOISY_MEMBER_MISFIT * fit[1]):
            return ranked, family_dimension
    if not fitting:
        _warn_unequal_regular_member(basis, member, fit, history)
    return _member_first(basis, member, fit, ranked, family_dimension, history,
                         "sampled_regular", "the regular graphs")


def _warn_unequal_regular_member(basis, member, fit, history) -> None:
    """An `AmbiguousGraphWarning` when the regular graph read off the sampled members
    (``member``, residuals ``fit``) has weights that are not equal: its graph with equal
    weights does not fit the eigenvectors as well (``_fits_as_well``).
    ``history["sampled_regular_unequal"]``: its edges and the equal-weight graph's
    residual in units of its own.

    The family read holds only graphs of constant weighted degree. A graph that is not
    regular is not in it, while its eigenvectors still diagonalise regular graphs, with
    unequal weights: the Kautz graph $K(3, 3)$ made simple (108 nodes, degrees 5 and 6,
    318 edges), exact or perturbed by 1e-3, gave a 1146-edge member with weights in the
    ratio 1 to 3 (residual 2e-15 exact, its equal-weight graph's 0.09), returned with no
    warning although the truth is sparser and fits as well. The graphs this reading was
    made for, regular with equal weights (``frucht_graph()`` boxed with a 4-cycle), give a
    member whose equal-weight graph fits as well."""
    equal = _residuals(basis, equal_weights(member.W))
    if _fits_as_well(equal, fit):
        return
    edges = sp.triu(member.W, 1).nnz
    ratio = equal[0] / max(fit[0], np.finfo(float).tiny)
    history["sampled_regular_unequal"] = (int(edges), float(ratio))
    warn_at_caller(f"the graph inferred ({edges} edges) is a regular graph read off the "
                   f"{member.dimension}-dimensional family of regular graphs with these "
                   f"eigenvectors, and its weights are not equal (with equal weights it "
                   f"fits {ratio:.3g} times worse): a graph that is not regular has "
                   f"eigenvectors that such weighted regular graphs share, so the graph "
                   f"sought may be another, sparser graph",
                   AmbiguousGraphWarning)


def _member_first(basis, member, fit, ranked, family_dimension, history, key, graphs):
    """``ranked`` with the graph of the near-null family's ``member``
    (``NoisyMember``, residuals ``fit``) first and the other graphs read off its
    sampled members that fit as well (``_fits_as_well``) next, with an
    `AmbiguousGraphWarning` naming the family of ``graphs``; and the family's
    dimension when larger than ``family_dimension``. ``history[key + "_member"]``:
    the edges of that graph and of the graph it replaced, the family's dimension and
    its gap; ``history[key + "_twins"]``: the twins' edges."""
    item = _ranked_entry(member.W)
    history[f"{key}_member"] = (item[0], int(ranked[0][0]) if ranked else None,
                                member.dimension, member.gap)
    # graphs read off the family's sampled members that fit as well (the normalized
    # triangular lattice and its equally sparse twin) follow it among the candidates
    twins = [_ranked_entry(W) for W in member.others
             if _fits_as_well(_residuals(basis, W), fit)]
    if twins:
        history[f"{key}_twins"] = [t[0] for t in twins]
        warn_at_caller(f"{len(twins)} other valid graph(s) with no more edges than the graph "
                       f"inferred ({item[0]}) fit the eigenvectors as well "
                       f"({[t[0] for t in twins]} edges), all read off the near-null family "
                       f"of {graphs} with these eigenvectors: the eigenvectors do not tell "
                       f"them apart, and the graph returned may not be the graph sought "
                       f"(they are among the candidates)",
                       AmbiguousGraphWarning)
    return _ahead([item], _ahead(twins, ranked)), max(family_dimension, member.dimension)


def _fits_pair_noise(residuals, history) -> bool:
    """Whether a graph of ``residuals`` (``_residuals``) fits noisy eigenvectors to the
    noise level their pairs show (``_pair_level``, the level `_result` judges the graph
    returned by): its residual at most ``RESIDUAL_CONSISTENT`` times that level; False
    without such a level."""
    level = _pair_level(history)
    return level is not None and residuals[0] <= RESIDUAL_CONSISTENT * level


def _pair_level(history) -> float | None:
    """The noise level the rankings' kept pairs show: the least of their noise
    estimates within ``(EXACT_LEVEL, MAX_NOISE]`` and the leverage rankings' median
    there; None without such an estimate.

    The fitted rankings' estimates are the residuals of one fitted vector, not the
    noise (rotated caveman(3, 6): 0.045 to 0.05, the leverage rankings' 4e-4, graphs
    with residuals near 0.2), hence the leverage rankings' median (one of them may keep
    pairs cleaner than the noise: 1e-4 beside 3e-4 to 5e-4 on rotated caveman(4, 4),
    whose truth leaves 6e-4)."""
    levels = [e for e in history.get("noise_estimates", []) if EXACT_LEVEL < e <= MAX_NOISE]
    leverage = [e for e in history.get("leverage_noise_estimates", [])
                if EXACT_LEVEL < e <= MAX_NOISE]
    if leverage:
        levels.append(float(np.median(leverage)))
    return min(levels) if levels else None


def _with_sparser_cayley_twin(basis, B, ranked, history):
    """``ranked`` with, from noisy eigenvectors whose graph found is weighted (not equal
    weights to the noise level), the connected Cayley graphs of the abelian group read
    off them with fewer edges that fit them as well (``sparser_cayley_twins``) first,
    the sparsest and best fitting of them returned, with an `AmbiguousGraphWarning`;
    ``history["sparser_cayley_twin"]`` gives the edges of the graph found, of the graph
    returned and the number of such Cayley graphs (``circulant_graph(70, [1, 5])``
    perturbed by 1e-3, draws 0-2: weighted members of 219 to 1165 edges)."""
    noise = history.get("noise", 0.0)
    if (not ranked or noise <= EXACT_NOISE or basis["ordered"] or basis.get("twin_class")
            or basis["groups"] is not None or ranked[0][0] >= B.n_pairs):
        return ranked
    twins = sparser_cayley_twins(basis, ranked[0][3], noise)
    if not twins:
        return ranked
    members = [_ranked_entry(A) for A in twins]
    history["sparser_cayley_twin"] = (int(ranked[0][0]), members[0][0], len(members))
    warn_at_caller(f"the graph found ({ranked[0][0]} edges) is a weighted member of a family "
                   f"of valid graphs, and the eigenvectors are the characters of an abelian "
                   f"group on the nodes: {len(members)} connected Cayley graph(s) of that "
                   f"group with fewer edges ({members[0][0]} to {members[-1][0]}) fit them "
                   f"as well; the sparsest that fits best is returned, but the eigenvectors "
                   f"do not tell these graphs apart (they and the graph found are among the "
                   f"candidates)", AmbiguousGraphWarning)
    return _ahead(members, ranked)


def _search(basis, B, tol, rng, scans):
    """The searches of `_infer` on the pair basis ``B``: ``(finish, ranked, family
    dimension, history)``, ``finish`` the function that makes the result of them
    (``_result`` or ``_grouped_result``, which issue the warnings); ``scans`` the
    inference's scans of extreme members (``_extreme_first``)."""
    grouped = None
    if basis["groups"] is None and not basis["ordered"]:
        grouped = _character_search(basis, tol, rng)
        if grouped is not None and B.n > GROUPED_ONLY_MIN_N:
            if not _symmetry_complement(B, grouped[0][0][3]):
                return (_grouped_result, _regular_first(
                    basis, B, _equalised_first(basis, grouped[0], grouped[2]), grouped[2],
                    rng), *grouped[1:])
            # the groups are a symmetry's, not a Cayley graph's eigenspaces: the graph
            # they give holds no information, and the ungrouped search runs alone
            grouped = None
    # the grouped search found the eigenspaces as a group's characters: the ungrouped
    # search is told (``basis["characters"]``), and skips the early refit of localised
    # eigenvectors (``_rounding_refit``)
    ungrouped = basis if grouped is None else {**basis, "characters": True}
    ranked, family_dimension, history = _sparsest_graphs(B, ungrouped, tol, rng)
    if (history["noise"] > EXACT_NOISE and B.n <= FAMILY_SEARCH_MAX_N
            and not basis.get("twin_class")):
        # a noisy family's sparsest member can lack edges that the eigenvectors show
        # (one dominating weight, the weakest edges dropped): a candidate that the edge
        # tests accept and that fits as well goes first (module ``_tested_candidates``)
        ranked = accepted_first(basis, ranked, history, EDGE_AGREEMENT)
        # a graph taken as fitting can still lack weak edges that the eigenvectors show:
        # refitted with them when that fits better (module ``_missing_edge_refit``)
        ranked = refitted_first(B, basis, ranked, history)
        if basis["kind"] == "combinatorial" and not basis["ordered"]:
            # ... or hold, in place of an edge, edges around it that take its weight,
            # which the edge tests pass: the pair whose addition lowers the fit most
            # is added and the edge tests descend from there (module ``_hidden_edge``)
            ranked = hidden_edge_first(basis, ranked, history)
    if grouped is None and basis["groups"] is None and not basis["ordered"]:
        ranked, family_dimension = _found_eigenspaces(basis, B, ranked, family_dimension,
                                                      history, tol, rng)
    member = disjoint_member(B, basis, ranked[0], history["noise"] > EXACT_NOISE) if (
        ranked) else None
    if member is not None:
        # a sparser valid graph with none of the edges of the graph found (a cubic
        # graph beside its distance-2 graph): the sparser is the graph sought, the
        # graph found stays among the candidates
        history["disjoint_member_edges"] = (member[0], int(ranked[0][0]))
        ranked = [member, *ranked]
        family_dimension = max(family_dimension, 2)
    if grouped is not None:
        # small bases: the groups may join eigenspaces (the 5-cube's of eigenvalues 4 and
        # 8), the search without them is cheap and its graphs are compared too
        g_ranked, g_dim, g_history = grouped
        history = {**history, **g_history}
        family_dimension = max(family_dimension, g_dim)
        ranked = _equalised_first(basis, _merge(ranked, g_ranked), history)
        ranked = _extreme_first(basis, B, ranked, family_dimension, history, scans)
        return (_grouped_result, _regular_first(basis, B, ranked, history, rng),
                family_dimension, history)
    ranked = _extreme_first(basis, B, _equalised_first(basis, ranked, history),
                            family_dimension, history, scans)
    return _result, _regular_first(basis, B, ranked, history, rng), family_dimension, history


def _equalised_first(basis, ranked, history):
    """``ranked`` with, from exact eigenvectors, its weighted graphs sparser than the
    first whose edges with equal weights fit the eigenvectors exactly
    (``sparser_equal_weight_members``: the 3 x 4 x 5 torus's twins behind a 240-edge
    member, the 3 x 3 x 5 torus behind a 360-edge one) made equal-weight graphs and put
    first; ``history["equalised_sparser"]`` gives the edges of the graph that was first
    and of the sparsest of them."""
    if not ranked or history["noise"] > EXACT_NOISE:
        return ranked
    members = sparser_equal_weight_members(basis, ranked)
    if not members:
        return ranked
    history["equalised_sparser"] = (int(ranked[0][0]), int(min(m[0] for m in members)))
    return _ahead(members, ranked)


def _extreme_first(
    basis, B, ranked, family_dimension, history, scans=None, noise=None
):
    """``ranked`` with, from exact eigenvectors whose graph found is one member of a
    family (``family_dimension`` above 1), fitting them or not, the sparser connected
    equal-weight graphs that they diagonalise found at the valid cone's vertices of one
    minimised eigenvalue (``sparser_extreme_members``: ``margulis_gabber_galil(6)``, 108
    edges behind a weighted member of 250), put first (sparsest first), with a
    ``ConvergenceWarning`` when the sparsest was the vertex of one program only and is
    not a spanning tree (``history["extreme_members_unconfirmed"]``);
    ``history["extreme_members"]`` gives the edges of the graph that was first and of
    the sparsest of them. Up to
    ``EXTREMES_MAX_N`` nodes (the grouped-only search runs above it). From noisy
    eigenvectors too, each vertex read above the noise (``noisy_vertex_graph``: the
    perturbed cycle of 40 nodes with a chord, 41 edges behind 57).

    ``scans`` (a dict, or None) keeps the scans of one inference by ``scan_question``:
    a later search of the same inference (``_undecided``) that ends at the same graph
    found, with the same weights, asks the same question of the same pair basis and
    eigenvectors (the scan reads nothing else and draws nothing), and takes the first
    scan's answer (the held-out cycle(44) with a chord and lognormal weights perturbed,
    draw 1: two searches, one scan). The warning is issued by each search as before.

    ``noise`` (None: ``history["noise"]``, the level the searches' graph was found at)
    is the level the vertices are read at; for a caller other than ``_search``, behind
    the regular graph read off the constant-diagonal family
    (``_with_sampled_regular_member``), the level it was read at (``_pair_level``); the
    searches' level can be far above it when their graph did not fit
    (``LCF_graph(48, [7, -7, 13, -13], 12)`` perturbed, draw 4: 0.019 against 2.3e-4,
    and no vertex keeps an edge)."""
    if (not ranked or family_dimension < 2 or B.n > EXTREMES_MAX_N
            or ranked[0][0] >= B.n_pairs or _no_regular_member(basis, B, ranked[0])):
        # the graph found need not fit the exact eigenvectors itself: the members do
        # (Mycielski(6), shuffles 2 and 4: 629-630 edges that do not fit, the truth,
        # 236 edges, a vertex of two programs)
        return ranked
    if noise is None:
        noise = history["noise"]
    noise = noise if noise > EXACT_NOISE else 0.0
    question = (scan_question(ranked[0], noise, family_dimension)
                if scans is not None else None)
    if question is not None and question in scans:
        scan = scans[question]
    else:
        scan = extreme_scan(B, basis, ranked[0], noise, family_dimension)
        if question is not None:
            scans[question] = scan
    members, reached = scan.members, scan.reached
    if not members:
        if scan.equal_weight_fits:
            # behind a graph found with unequal weights, denser equal-weight graphs that
            # fit as well: warned of if that graph is returned (``_equal_weight_fits_warning``)
            history[EQUAL_WEIGHT_FITS] = (ranked[0][3], scan.equal_weight_fits)
        return ranked
    fewest = int(min(m[0] for m in members))
    history["extreme_members"] = (int(ranked[0][0]), fewest)
    if reached < CONFIRMING_PROGRAMS and fewest > B.n - 1:
        # (members are connected: one of n - 1 edges is a spanning tree, and no
        # connected graph is sparser)
        history["extreme_members_unconfirmed"] = True
        warn_at_caller(f"the searches ended at a valid graph of {ranked[0][0]} edges, but "
                       f"the linear programs minimising or maximising one eigenvalue over "
                       f"the valid graphs reached sparser ones with equal weights; the "
                       f"sparsest of them ({fewest} edges, returned) was reached by "
                       f"{reached} program only: a still sparser graph may have these "
                       f"eigenvectors (the others are among the candidates)",
                       ConvergenceWarning)
    return _ahead(members, ranked)


def _no_regular_member(basis, B, found) -> bool:
    """Whether the members that ``sparser_extreme_members`` could put before the graph
    ``found`` are no answer for a caller that keeps only a regular graph
    (``basis["regular_only"]``, the combinatorial reading of a normalized basis,
    ``_regular_reading``): they are connected and sparser than ``found``, and with at
    most $n$ edges there that leaves spanning trees only, which on more than two nodes
    are not regular (a connected regular graph has at least $n$ edges). The scan then
    reads nothing that the reading keeps: the reading of the perturbed normalized
    ``cycle_graph(60)``, draw 3, found the 60-edge cycle with equal weights and spent
    6.9 of its 14.2 CPU s in that scan, which put no member first."""
    return bool(basis.get("regular_only")) and B.n > 2 and found[0] <= B.n


def _regular_first(basis, B, ranked, history, rng):
    """``ranked`` with, when its first graph fits the eigenvectors exactly, the sparser
    connected equal-weight graphs of the constant-diagonal family that they diagonalise
    (``sparser_regular_members``: the 4 x 4 x 5 torus, 240 edges behind a member of 320
    sharing none of them) put first (sparsest first), with an `AmbiguousGraphWarning`:
    they are planes of random draws, and as sparse twins of a lattice share its
    eigenvectors; ``history["regular_members"]`` gives the edges of the graph that was
    first and of the sparsest of them."""
    if not ranked or B.ordered or _residuals(basis, ranked[0][3])[0] > FITS_EXACTLY:
        # the complete graph found is searched too (the exact 4 x 4 x 6 torus, draws 2, 3)
        return ranked
    members = sparser_regular_members(B, basis, ranked[0], rng)
    if not members:
        return ranked
    fewest = int(min(m[0] for m in members))
    history["regular_members"] = (int(ranked[0][0]), fewest)
    warn_at_caller(f"the searches ended at a valid graph of {ranked[0][0]} edges, but a "
                   f"sparser regular graph with these eigenvectors was found ({fewest} "
                   f"edges, returned) on a random plane of the constant-diagonal family: "
                   f"other graphs as sparse (twins of a lattice) may have them too (the "
                   f"others found are among the candidates)", AmbiguousGraphWarning)
    return _ahead(members, ranked)


def _ahead(members, ranked):
    """``members`` (``rank_candidates`` items), in ``candidate_order``, ahead of
    ``ranked``, whose items with the edges of one of them are dropped; ``ranked`` itself
    if there is none."""
    if not members:
        return ranked
    members = sorted(members, key=candidate_order)
    keys = {_edge_key(item[3]) for item in members}
    return members + [item for item in ranked if _edge_key(item[3]) not in keys]


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


def _grouped_result(basis, B, ranked, family_dimension, history):
    """The result with a grouped search's graphs. The groups' projectors have a constant
    diagonal, so every graph that search finds is regular and a member of the
    constant-diagonal family of the ungrouped basis ``B``; that family's dimension (the
    twins of tori and circulants are in it) is reported when larger."""
    dim = constant_diagonal_dimension(B)
    history["constant_diagonal_dimension"] = dim
    return _result(basis, B, ranked, max(family_dimension, dim), history)


def _result(basis, B, ranked, family_dimension, history) -> InferredLaplacian:
    n = B.n
    swap = history.pop("tested_swap", None)
    behind = history.pop(EQUAL_WEIGHT_FITS, None)
    # the searches' doubts about the graph they found are given once the graph returned
    # is known: a grid read behind it (``_grid_behind``) keeps them in its history only
    searches = [] if _grid_may_replace(basis) else None
    if (not ranked or ranked[0][0] == B.n_pairs) and "hopeless_basis" not in history:
        # the searches ended at the complete graph, which gives the tree behind a dense
        # graph (``_tree_behind``) no start: a tree searched on the eigenvectors alone
        # that fits them as well is returned (the complete graph, if found, next)
        # (the complete graph fits every basis: the noise level is the rankings', and
        # the tree must fit as well in rotation residual, which estimates the rotation
        # of the eigenvectors for every graph that has them; relative to $\|L\|_F$ the
        # complete graph's equal eigenvalues leave a residual some 7 times a tree's)
        noise = history.get("noise", 0.0)
        noise = noise if EXACT_NOISE < noise <= UNRESOLVABLE_NOISE else 0.0
        K = _complete_weights(B, ranked)
        reference = (np.inf, _residuals(basis, K)[1]) if noise > 0.0 else None
        tree = _searched_tree(basis, B, K, noise, history, reference)
        if (tree is None and history.get("noise", 0.0) <= EXACT_NOISE
                and "exact_tree" not in history):
            # exact eigenvectors: a tree searched on them that fits them to rounding
            # (``_fitting_tree.exact_tree``; not again after ``early_exact_tree``)
            tree = exact_tree(basis, n)
            if tree is not None:
                history["exact_tree"] = True
        if tree is not None:
            ranked = [(n - 1, 0.0, None, tree), *ranked]
            history["searched_tree"] = True
    if not ranked:
        if "hopeless_basis" in history:
            # no search was made: the kept pairs leave most eigenvalues free
            hopeless_basis_warning(history)
        elif "unresolvable" in history:
            _searches_warning(searches, f"the eigenvectors are too noisy to tell edges "
                              f"from non-edges: the least edge-like pairs show a "
                              f"standardised noise level {history['unresolvable']:.3g}, "
                              f"above {UNRESOLVABLE_NOISE:.3g}, where no edge leaves the "
                              f"noise band; returning the complete graph")
        else:
            _searches_warning(searches, "no sparse valid Laplacian was found for these "
                              "eigenvectors (which does not prove that none exists); "
                              "returning the complete graph, which every basis with this "
                              "zero-eigenvalue vector diagonalises")
        ranked = [(n * (n - 1) // 2, 0.0, None, _complete_weights(B, ranked))]
    elif ranked[0][0] == B.n_pairs:
        history["complete_graph_found"] = True
        _searches_warning(searches, "the only equal-weight graph found is the complete "
                          "graph, which every basis with this zero-eigenvalue vector "
                          "diagonalises: it says nothing about these eigenvectors, and the "
                          "graph sought was not found (the result's candidates are the "
                          "other graphs found)")
    elif column_halves_graph(basis["V"], ranked[0][3]) and (
            tree := tree_for_halves(basis, n, history)) is not None:
        # exact eigenvectors: a tree that fits them to rounding is returned in place
        # of the halves' complete bipartite graph (``_fitting_tree``), which is next
        ranked = [(n - 1, 0.0, None, tree), *ranked]
        history["searched_tree"] = True
    elif column_halves_graph(basis["V"], ranked[0][3]):
        history["column_halves_graph"] = True
        _searches_warning(searches, "the graph found is the complete bipartite graph "
                          "between the two halves of a +-1 eigenvector, which every basis "
                          "with that vector and the zero-eigenvalue one diagonalises: it "
                          "says nothing about the other eigenvectors, and unless the graph "
                          "sought is that graph, it was not found (the result's candidates "
                          "are the other graphs found)")
    laps = [_laplacian(W, basis) for *_, W in ranked]
    L = laps[0]
    eigenvalues, residual = _diagonal_fit(basis["V"], L)
    history["candidate_edges"] = [int(x[0]) for x in ranked]
    unfolded = _unfolded_path(basis, B, ranked[0], history)
    if unfolded is not None:
        # a cycle with equal weights found at a noise level is the quadratic 4L - L^2 of
        # the paths it unfolds to (``_cycle_unfolding``): one that fits the eigenvectors
        # at the noise its own non-edges show, as the cycle does (to rounding on exact
        # eigenvectors), is returned; the cycle is among the candidates (the last, but
        # for twins listed after it), and both fit: warned
        cycle_edges = int(ranked[0][0])
        fit = ("at the noise level they show" if history.get("noise", 0.0) > EXACT_NOISE
               else "to rounding")
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          unfolded, "unfolded_path_edges")
        warn_at_caller(
            f"a cycle with equal weights ({cycle_edges} edges) and a path ({ranked[0][0]} "
            f"edges, whose Laplacian L gives 4L - L^2 that cycle's) both fit these "
            f"eigenvectors {fit}: the eigenvectors do not tell them apart, and the "
            f"sparser is returned (the cycle is among the candidates)",
            AmbiguousGraphWarning)
    level = _pair_level(history)
    if (history.get("noise", 0.0) > EXACT_NOISE and level is not None and L.count_nonzero()
            and "unresolvable" not in history):
        # residual in units of the noise: above RESIDUAL_CONSISTENT the graph does not
        # fit the eigenvectors to their noise level
        history["noise_ratio"] = residual / level
        tree = tree_at_own_noise(basis, B, ranked[0], history["noise"], history["noise_ratio"])
        if tree is not None:
            # a basis with a large eigenspace (a star) lets the rankings fit their pairs
            # far below the eigenvectors' noise: a spanning tree that fits the noise its
            # own non-edges show, no larger than the graph found's, is returned in its
            # place (``_fitting_tree``); its residual in units of the one that noise
            # predicts replaces the ratio, the graph found is the last of the candidates
            ranked, L, eigenvalues, residual = _sparser_first(
                basis, ranked, laps, history, tree[0], "own_noise_tree_edges")
            history["searches_noise_ratio"] = history["noise_ratio"]
            history["noise_ratio"] = tree[1]
        elif history["noise_ratio"] > RESIDUAL_CONSISTENT and (
                own := ratio_at_own_noise(basis, B, ranked[0][3], history, level)) is not None:
            # the level is the fitted rankings' alone, below the eigenvectors' noise with
            # large eigenspaces (perturbed Petersen graph): the graph is judged at the
            # noise its own non-edges show (``_fitted_level_fit``)
            history["searches_noise_ratio"] = history["noise_ratio"]
            history["noise_ratio"] = own
        if history["noise_ratio"] > RESIDUAL_CONSISTENT:
            _searches_warning(searches, _noise_level_message(history["noise_ratio"]))
    # a graph searched as exact on noisy eigenvectors is checked for graphs that fit as
    # well at the level the rankings show (``exact_search_noise``: the icosahedron at 1e-4)
    checked = _fitted_noise(history) or exact_search_noise(history, residual)
    complement = _close_complement(basis, ranked[0], checked)
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
    if complement is None:
        _complement_twin_warning(basis, B, ranked, laps, history)
    lean = without_twin_cliques(basis, ranked[0][3], _fitted_noise(history))
    if lean is not None:
        # a noisy search can return the graph plus cliques on its adjacent twins (the
        # same eigenvectors): the sparser graph with equal weights is returned, the
        # graph found is the last of the candidates
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          lean, "twin_clique_edges")
    rival = equal_weight_rival(history, basis, ranked[0][3], _fitted_noise(history))
    if rival is not None:
        # the smallest noise estimate gave a sparser graph with equal weights that fits
        # as well: returned, the graph found is the last of the candidates
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          rival, "equal_weight_rival_edges")
    box = _box_read(basis, ranked[0][3], _fitted_noise(history))
    if box is not None:
        # a noisy search can return a member of a box product's family with one factor
        # at one weight and the other weighted (``_box_levels``): the box product of that
        # level and the other factor inferred on its own, with equal weights and fitting
        # as well, is returned; the graph found is the last of the candidates
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          box, "box_level_edges")
    rewired = sparser_on_local_columns(basis, B, ranked[0][3], _fitted_noise(history))
    if rewired is not None:
        # a rewiring can leave cliques on adjacent twins (sibling leaves whose columns
        # were solved beside the others' old eigenvalues): dropped as above
        lean = without_twin_cliques(basis, rewired, _fitted_noise(history))
        rewired = rewired if lean is None else lean
        # a noisy search can return a denser graph that differs from a sparser one only
        # among the nodes of columns supported on a few nodes (a tree's two pendant
        # paths on one node): the sparser is returned, the graph found is a candidate
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          rewired, "local_rewiring_edges")
    root = _quadratic_root(basis, B, ranked[0], L, eigenvalues, history)
    if root is not None:
        # a noisy search can return a quadratic c(TL - L^2) of the graph sought (a
        # tree's pairs at distance 2 beside its edges): its root, a tree with equal
        # weights that fits as well, is returned; the graph found is the last of the
        # candidates
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          root, "quadratic_root_edges")
    regular = _distance_two_root(basis, B, ranked[0], L, eigenvalues, history)
    if regular is not None and regular[1]:
        # a noisy search can return the pairs at distance 2 of a regular graph of girth
        # at least 5 (2kL - L^2, the same eigenvectors, equal weights): that graph,
        # read from the graph found and fitting as well, is returned; the graph found
        # is the last of the candidates (and warned of: ``_distance_two_warning``)
        ranked, L, eigenvalues, residual = _sparser_first(
            basis, ranked, laps, history, regular[0], "distance_two_root_edges")
    for twin in [] if regular is None else regular[2]:
        _report_candidate(laps, history, "distance_two_twin_edges", twin, basis, lambda e: (
            f"another regular graph of girth at least 5 ({e} edges) has the same pairs "
            f"at distance 2 and fits these eigenvectors as well as the inferred graph: "
            f"the eigenvectors do not tell them apart (it is the last of the candidates)"))
    if regular is not None and not regular[1]:
        _report_candidate(laps, history, "distance_two_root_edges", regular[0], basis,
                          lambda e: (
            f"the inferred graph ({ranked[0][0]} edges of equal weight) is the graph of "
            f"the pairs at distance 2 of a regular graph of girth at least 5 with {e} "
            f"edges, whose Laplacian L has these eigenvectors (the graph found is 2kL - "
            f"L^2) but does not fit them as well: the graph sought may be that sparser "
            f"graph (the last of the candidates)"))
    tree = _tree_behind(basis, B, ranked, history)
    lacks_edges = history.pop("lacks_edges", False)
    own = None if tree is not None or not lacks_edges else tree_at_own_noise(
        basis, B, ranked[0], history.get("noise", 0.0), history.get("noise_ratio", 0.0),
        lacks_edges=True)
    if tree is not None:
        # a noisy search can return a valid graph that holds a tree among many more
        # edges (a window prefix's family): its maximum spanning tree with equal
        # weights, when it fits as well, is returned; the graph found is the last of
        # the candidates
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          tree, "spanning_tree_edges")
    elif own is not None:
        # the graph found fits at the rankings' level but lacks edges the eigenvectors
        # show, and the tree searched for it fits the noise its own non-edges show, no
        # larger than the graph found's (a star, whose eigenspace lets the rankings fit
        # below the eigenvectors' noise): the tree is returned, the graph found is the
        # last of the candidates (``_fitting_tree.tree_at_own_noise``)
        ranked, L, eigenvalues, residual = _sparser_first(
            basis, ranked, laps, history, own[0], "own_noise_tree_edges")
        history["searches_noise_ratio"] = history.get("noise_ratio")
        history["noise_ratio"] = own[1]
    else:
        tree = tree_in_place(basis, B, ranked[0], family_dimension, _fitted_noise(history),
                             level or 0.0)
        if tree is not None:
            # a noisy search can return a weighted member of a family that may hold a
            # much sparser member (a tree whose sibling leaves give eigenvalues of high
            # multiplicity): a spanning tree searched on the eigenvectors that fits them
            # at their noise level and as well is returned (``_fitting_tree``); the
            # graph found is the last of the candidates
            ranked, L, eigenvalues, residual = _sparser_first(
                basis, ranked, laps, history, tree, "fitting_tree_edges")
        else:
            tree = tree_for_exact(basis, B, ranked[0], family_dimension,
                                  history.get("noise", 0.0))
            if tree is not None:
                # an exact search can return a denser member of a family of valid
                # graphs (a tree whose sibling leaves give eigenvalues of high
                # multiplicity): a spanning tree searched on the eigenvectors that fits
                # them to rounding is a sparsest connected valid graph and is returned
                # (``_fitting_tree``); the graph found is the last of the candidates
                ranked, L, eigenvalues, residual = _sparser_first(
                    basis, ranked, laps, history, tree, "exact_tree_edges")
            else:
                tree = tree_for_regular(basis, B, ranked[0], history)
                if tree is not None:
                    # rankings clean to rounding on a noisy basis (a perturbed path of
                    # 6 to 9 nodes) and a regular member of the constant-diagonal
                    # family that fits at that family's noise level (the cycle of n
                    # equal weights): a spanning tree searched on the eigenvectors that
                    # fits them by the same test at that level is returned
                    # (``_fitting_tree.tree_for_regular``); the graph found is the
                    # last of the candidates, and both fit: warned
                    regular_edges = int(ranked[0][0])
                    ranked, L, eigenvalues, residual = _sparser_first(
                        basis, ranked, laps, history, tree[0], "regular_tree_edges")
                    history["regular_tree_level"] = tree[1]
                    warn_at_caller(
                        f"a regular graph with equal weights ({regular_edges} edges) and a "
                        f"spanning tree ({ranked[0][0]} edges) both fit these "
                        f"eigenvectors at the noise level they show ({tree[1]:.2g}): the "
                        f"eigenvectors do not tell them apart, and the sparser is "
                        f"returned (the regular graph is the last of the candidates)",
                        AmbiguousGraphWarning)
    grid = _grid_behind(basis, B, ranked, residual, family_dimension)
    if grid is not None:
        # a noisy search can return a denser graph (the complete graph, when the searches
        # found none) that a grid read from the degrees and spectrum fits better: the
        # grid is returned, as the noisy ladder's sparser graph of a smaller estimate is
        # (``_ranking_ladder._sparser_at_level``); the graph found joins the candidates,
        # the grid's twins after it
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          grid, "normalized_grid_edges")
        _grid_behind_twins(basis, B, ranked, laps, residual, history, searches or [],
                           level)
    else:
        for message in searches or []:
            warn_at_caller(message, ConvergenceWarning)
    descended, tested = _edge_test_descended(basis, B, ranked, history)
    if descended is not None:
        # a noisy search can return a graph that misses edges of the graph sought and
        # holds others in their place (a weighted cycle whose nearly equal eigenvalues
        # the noise mixes): the edge set the edge tests end at, sparser and fitting
        # better, is returned; the graph found is the last of the candidates
        ranked, L, eigenvalues, residual = _sparser_first(basis, ranked, laps, history,
                                                          descended, "edge_test_edges")
        tested = None
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
    sparser_rival = _sparser_rival(history, ranked[0], key)
    if sparser_rival is not None:
        _report_candidate(laps, history, "sparser_rival_edges", sparser_rival, basis, lambda e: (
            f"at the smallest noise level the pairs show, the rankings give a sparser "
            f"graph ({e} edges against {ranked[0][0]}) that fits the eigenvectors as well "
            f"as the graph inferred, and the two agree at F1 "
            f"{history['sparser_rival_agreement']:.3f} only (below {EDGE_AGREEMENT:g}): the "
            f"eigenvectors do not determine the graph to that accuracy at this noise "
            f"level (the sparser one is the last of the candidates)"))
    fitting_rival = None if sparser_rival is not None else _fitting_rival(history, ranked[0],
                                                                           key)
    if fitting_rival is not None:
        _report_candidate(laps, history, "fitting_rival_edges", fitting_rival, basis, lambda e: (
            f"the noisy rankings also gave a sparser graph with equal weights to the noise "
            f"level ({e} edges against {ranked[0][0]}) that fits the eigenvectors (rotation "
            f"residual {history['fitting_rival_ratio']:.2f} times the graph inferred's, "
            f"within {RESIDUAL_CONSISTENT:g}) though not as well, and the two agree at F1 "
            f"{history['fitting_rival_agreement']:.3f} only (below {EDGE_AGREEMENT:g}): a "
            f"denser graph fits the noise on its extra pairs (a quadratic of a graph has "
            f"its eigenvectors), and these eigenvectors do not determine the graph to that "
            f"accuracy at this noise level (the sparser one is the last of the candidates)"))
    if _still_undecided(B, history) and "spanning_tree_edges" not in history:
        # (a tree read behind the graph found, with equal weights and fitting as well,
        # decides as an equal-weight graph of the rankings would: ``_undecided``)
        history["undecided"] = True
        warn_at_caller(f"in each of {UNDECIDED_SEARCHES} searches with other random "
                       f"objectives, the noisy rankings gave graphs that fit the "
                       f"eigenvectors as well but differ in size by more than their "
                       f"families' dimensions, none with equal weights "
                       f"({history['undecided_searches']['edges']} edges): the graph "
                       f"returned is one of several that these eigenvectors do not tell "
                       f"apart", AmbiguousGraphWarning)
    if doubtful_swap(basis, ranked[0], swap, level):
        # the tested-candidate swap put a denser graph first that fits no better than
        # the graph it replaced (``_swap_doubt``): the sparser graph found is returned,
        # warned of, the denser answer next among the candidates; its edge tests are
        # made again (``tested``)
        ranked, L, eigenvalues, residual = _swapped_back(basis, ranked, laps, history,
                                                         swap[1])
        tested = None
    alternative = star_alternative(basis, ranked[0][3], [item[3] for item in ranked[1:]],
                                   history.get("noise", 0.0))
    if alternative is not None and alternative[1] is not None and fits_better_than_star(
            basis, alternative[1], ranked[0][3]):
        # a weighted star and the star on its lightest leaf have the same eigenvectors
        # (``_star_twin``); a graph that holds the twin with a few edges more and fits
        # the eigenvectors clearly better than the star (a near-star answered by the
        # twin of its star part) is returned, the star and its twin next
        ranked, L, eigenvalues, residual = _star_twin_holder_first(
            basis, ranked, laps, history, *alternative)
        tested = None
    elif alternative is not None:
        # the twin, or a graph that holds it, fits as well: the eigenvectors do not tell
        # them apart; the twin is the last of the candidates
        _star_twin_warning(basis, ranked, laps, history, *alternative)
    superset = _twin_superset(basis, ranked[0][3])
    if superset is not None:
        _report_candidate(laps, history, "superset_edges", superset, basis, lambda e: (
            f"the inferred graph's twin nodes share an eigenspace whose eigenvectors are "
            f"those of a sparse graph on them: the graph inferred plus that graph ({e} "
            f"edges against {ranked[0][0]}) has the same eigenvectors too, and the "
            f"sparser is returned (the other is the last of the candidates)"))
    exact = history.get("noise", 0.0) <= EXACT_NOISE and residual <= FITS_EXACTLY
    if exact:
        _regular_superset_warning(basis, B, ranked, laps, history)
    checked = (_fitted_noise(history) or exact_search_noise(history, residual)
               or history.get("regular_tree_level", 0.0))
    if (not exact and not checked and basis["kind"] == "normalized"
            and grid_coordinates(ranked[0][3]) is not None):
        # a normalized grid returned by a search that ended above UNRESOLVABLE_NOISE
        # but fitting to the pairs' noise (the 3 x 15 grid perturbed, shuffle 1: its
        # checkerboard twin): its twins are judged at that noise
        checked = pair_noise_level(history, residual)
    ties = checked or _regular_member_level(basis, B, ranked[0][3], history, exact)
    if ((exact or ties > 0.0) and ranked[0][0] < B.n_pairs
            and not basis["ordered"] and not basis.get("twin_class")
            and (B.n <= FAMILY_SEARCH_MAX_N or grid_coordinates(ranked[0][3]) is not None
                 or "noisy_unit_settled" in history)):
        # a grid or path has DCT twins at any size (the 25 x 40 grid, exact: a twin
        # returned, F1 0), and so has a graph with isomorphic sibling branches read by its
        # degrees before the searches (``_noisy_unit_settled``: the twin has them too);
        # the circulant relabelling stays within FAMILY_SEARCH_MAX_N
        _equally_sparse_warning(basis, ranked, laps, history, 0.0 if exact else ties,
                                circulants=B.n <= FAMILY_SEARCH_MAX_N,
                                B=B if exact and basis["kind"] == "combinatorial" else None)
    if (ranked[0][0] < B.n_pairs and not basis.get("twin_class")
            and "equally_sparse_edges" not in history):
        _cayley_twin_warning(basis, ranked, laps, history)
    if (not exact and ties > 0.0 and ranked[0][0] < B.n_pairs and not basis["ordered"]
            and not basis.get("twin_class")):
        _regular_twin_warning(basis, B, ranked, laps, history, ties, warned=bool(
            {"equally_sparse_edges", "cayley_twin_edges"} & history.keys()))
    if ((exact or _fitted_noise(history) > 0.0) and ranked[0][0] < B.n_pairs
            and not basis["ordered"] and not basis.get("twin_class")):
        _denser_than_grid(basis, ranked, laps, history,
                          0.0 if exact else _fitted_noise(history))
    if (not basis["ordered"] and not basis.get("twin_class") and basis["kind"] == "combinatorial"
            and (exact or checked > 0.0 or history.get("noise", 0.0) <= EXACT_NOISE)):
        _distance_two_warning(basis, ranked, laps, history, exact, checked)
    if _unranked_doubt(B, history, residual):
        warn_at_caller(f"no ranking of the pairs by leverage gave a graph or a noise level, "
                       f"and the inferred graph does not fit the eigenvectors exactly "
                       f"(residual {residual:.2g}): it is doubtful; the eigenvalue order, if "
                       f"known (eigenspaces=..., ordered=True), may resolve it; the result's "
                       f"candidates are the other graphs found",
                       ConvergenceWarning)
    if (ranked[0][0] < B.n_pairs and history.get("noise_ratio", 0.0) <= RESIDUAL_CONSISTENT
            and _exact_misfit(history, residual)):
        warn_at_caller(f"the eigenvectors are exact (a ranking's pairs fit them to "
                       f"rounding), but the inferred graph does not fit them (residual "
                       f"{residual:.2g}, above {ROUNDING_FIT:g}): it is not the graph "
                       f"sought; eigenvectors localised on a few nodes (edge weights "
                       f"spanning a wide range) leave the search families of valid-looking "
                       f"graphs whose linear-program vertices are denser; the result's "
                       f"candidates are the other graphs found",
                       ConvergenceWarning)
    if not basis.get("twin_class") and exact_search_misfit(history, residual,
                                                           int(ranked[0][0]), B.n_pairs):
        warn_at_caller(f"the inferred graph ({ranked[0][0]} edges) was found by searches "
                       f"that took the eigenvectors as exact, but it does not fit them "
                       f"(residual {residual:.2g}, above {FITS_EXACTLY:g}) and most rankings' "
                       f"pairs do not fit them to rounding: if they are exact it is not the graph "
                       f"sought, if noisy no search ran at their noise level; the result's "
                       f"candidates are the other graphs found", ConvergenceWarning)
    if unit_diagonal_misfit(basis.get("unit_diagonal"), residual, int(ranked[0][0]),
                            B.n_pairs, history, FITS_EXACTLY):
        warn_at_caller(f"the eigenvectors are those of a normalized Laplacian to rounding "
                       f"(its unit diagonal holds to {basis['unit_diagonal'].misfit:.1g}), "
                       f"but the inferred graph ({ranked[0][0]} edges) does not fit them "
                       f"(residual {residual:.2g}, above {FITS_EXACTLY:g}): it is not the "
                       f"graph sought; the result's candidates are the other graphs found",
                       ConvergenceWarning)
    _unsearched_family_warning(basis, B, ranked, residual, history)
    _noisy_family_warning(basis, B, ranked, laps, residual, family_dimension, history)
    own = _undetermined_support(basis, B, ranked[0][3], eigenvalues, residual, history)
    if own and basis["kind"] == "normalized":
        # of that family, only the members with a unit diagonal are normalized Laplacians
        pattern = unit_diagonal_pattern_dimension(basis["V_anchored"], basis["zero_column"],
                                                  basis.get("unit_diagonal"), ranked[0][3])
        if pattern is not None:
            history["own_family_dimension"] = pattern
            own = pattern if pattern > 1 else 0
    if own:
        warn_at_caller(f"the inferred graph ({ranked[0][0]} edges) has a simple spectrum, "
                       f"yet the pairs it leaves at zero hold a family of {own} independent "
                       f"Laplacians with these eigenvectors (to rounding): its edges are "
                       f"those of one member of a family of valid graphs, and the graph "
                       f"sought, a sparser member, may not have been found",
                       AmbiguousGraphWarning)
    noisy = history.get("noise", 0.0) > EXACT_NOISE or residual > FITS_EXACTLY
    regular = history.get("constant_diagonal_graph") or "regular_family" in history
    if noisy and regular and near_complete(n, int(ranked[0][0])):
        # a near-complete member of the noisy constant-diagonal family (the graph's
        # residual tells noisy eigenvectors too: on 45 pairs the rankings' kept pairs
        # can fit them to rounding, the kite with the Nehalem kernels); a weighted
        # graph found by the rankings may be near complete (the Davis women's
        # projection: 139 edges of 153 pairs)
        history["near_complete"] = True
        warn_at_caller(f"the inferred graph holds {ranked[0][0]} of the {B.n_pairs} pairs: "
                       f"it misses fewer than the {n - 1} edges a connected graph has, and "
                       f"noisy eigenvectors are fitted as well by the complete graph, which "
                       f"every basis with this zero-eigenvalue vector diagonalises, with a "
                       f"few pairs dropped: it says little about these eigenvectors, and "
                       f"the graph sought, probably sparser, was not found",
                       ConvergenceWarning)
    _family_doubt(basis, B, ranked[0], family_dimension, history)
    replaced_misfit_warning(int(ranked[0][0]), history)
    regular_equal_weight_warning(ranked[0], history)
    _noise_connected_warning(basis, ranked[0], L, history)
    _unpaired_copies_warning(basis, ranked[0], history)
    hopeless_warning(history)
    _quadratic_doubt(basis, B, ranked[0], L, eigenvalues, history)
    window_doubt(history, int(ranked[0][0]), n, B.n_pairs)
    _weak_edges(basis, L, eigenvalues, history, tested)
    # last, as its candidates are read by no other check
    _equal_weight_fits_warning(basis, B, ranked, laps, history, family_dimension, behind,
                               exact, _fitted_noise(history))
    _list_local_twins(basis, ranked[0], laps, history, family_dimension, exact,
                      _fitted_noise(history))
    # the complement of an equal-weight graph shares its eigenvectors however dense: a
    # flag, not a warning (every sparse unweighted answer has it); equal weights judged
    # at the level the complement check above took (``exact_search_noise`` kept it)
    twin = _complement_twin(basis, ranked[0],
                            _fitted_noise(history) or history.get("exact_search_noise", 0.0),
                            by_fit=True)
    return InferredLaplacian(
        laplacian=L, eigenvalues=eigenvalues, n_edges=int(ranked[0][0]), residual=residual,
        laplacian_type=basis["kind"], nodelist=basis["nodelist"],
        family_dimension=int(family_dimension), candidates=laps, history=history,
        complement_twin=twin)


def _box_read(basis, W, noise: float) -> sp.csr_array | None:
    """A sparser box product read off the graph of weights ``W`` found at the noise
    level ``noise`` (``_box_levels``): off its weight levels when its weights are not
    equal to ``noise``, off its own eigenspaces when they are; None at no noise, and
    for a spanning tree: a box product of connected factors of $a, b \\ge 2$ nodes has
    $(a - 1)(b - 1)$ edges more than a tree (the perturbed paths of 12 to 30 nodes
    judged at their own noise spent 1 to 10 CPU s reading factors for nothing)."""
    if noise <= 0.0 or sp.triu(W, 1).nnz <= W.shape[0] - 1:
        return None
    if _equal_within_noise(basis, W, noise):
        return box_from_partitions(basis, W, noise, _factor_weights)
    return box_from_levels(basis, W, noise, _factor_weights)


def _factor_weights(Q: np.ndarray) -> sp.csr_array | None:
    """The weights of the graph inferred from the orthonormal basis ``Q`` of a box
    product's factor (``_box_levels``), its warnings dropped (the product read is
    judged by its own fit) and the caller's progress bar not advanced; None when ``Q``
    is read as a disconnected graph's basis whose components cannot be told apart
    (``infer_laplacian`` raises)."""
    with warnings.catch_warnings(), _progress_paused():
        warnings.simplefilter("ignore")
        try:
            result = infer_laplacian(Q, progress=False)
        except ValueError:
            return None
    return _weights(result.laplacian)


def _sparser_first(basis, ranked, laps, history, W, key):
    """``ranked`` with the graph of weights ``W`` first in place of the graph found,
    which becomes the last of the candidates ``laps`` (``laps[0]`` is replaced);
    ``history["candidate_edges"]`` follows, and ``history[key]`` is the number of edges
    fewer. Returns the new ``ranked``, the Laplacian, its eigenvalues and residual."""
    found = ranked[0]
    ranked = [_ranked_entry(W), *ranked[1:]]
    laps[0] = L = _laplacian(W, basis)
    eigenvalues, residual = _diagonal_fit(basis["V"], L)
    laps.append(_laplacian(found[3], basis))
    history["candidate_edges"][0] = ranked[0][0]
    history["candidate_edges"].append(int(found[0]))
    history[key] = int(found[0]) - ranked[0][0]
    return ranked, L, eigenvalues, residual


def _family_doubt(basis, B, found, family_dimension, history) -> None:
    """Warn when the graph ``found`` (a ``rank_candidates`` item), found at a noise level
    with weights not equal to it, comes from a family of valid graphs large enough to
    hold a member that would agree with it below ``EDGE_AGREEMENT`` in F1
    (``_family_doubt.family_agreement``); then ``history["family_doubt"]`` is the
    fewest edges such a member may have and that agreement.

    Not asked for a twin class's basis (its warnings decide whether its graph is
    evidence), for a graph already said not to fit the eigenvectors (``_fitted_noise``
    is then 0), nor for the complete graph (warned of already). With exact
    eigenvectors the family dimension is the flag, and graphs with equal weights (to
    the noise level) are what the families' sparse members look like.
    """
    noise = _fitted_noise(history)
    edges = int(found[0])
    if (basis.get("twin_class") or noise <= EXACT_NOISE or family_dimension < 2
            or edges >= B.n_pairs):
        return
    agreement = family_agreement(B.n, edges, int(family_dimension))
    if agreement >= EDGE_AGREEMENT or _equal_within_noise(basis, found[3], noise):
        return
    fewest = sparsest_possible_member(B.n, edges, int(family_dimension))
    history["family_doubt"] = (fewest, agreement)
    warn_at_caller(f"the inferred graph ({edges} edges, weights not equal to the noise "
                   f"level) is one member of a family of {family_dimension} dimensions of "
                   f"graphs that fit these noisy eigenvectors, which may hold a member of "
                   f"as few as {fewest} edges, agreeing with it at F1 {agreement:.3f} at "
                   f"most (below {EDGE_AGREEMENT:g}): the graph sought may be that sparser "
                   f"member, which the search did not reach", ConvergenceWarning)


def _noise_connected_warning(basis, found, L, history) -> None:
    """Warn when the graph returned (``found``, a ``rank_candidates`` item, Laplacian
    ``L``), found at a noise level it fits, is held together only by edges within one
    noise unit of zero (``_noise_connected.split_at_noise``): the eigenvectors do not
    show it connected, and it is one member of a family whose components fit them as
    well; then ``history["noise_connected"]`` is the number of those edges and of the
    components they join. Not asked for a twin class's basis (its warnings decide
    whether its graph is evidence), nor at no noise level (``_fitted_noise`` 0)."""
    if basis.get("twin_class"):
        return
    split = split_at_noise(L, _fitted_noise(history))
    if split is None:
        return
    history["noise_connected"] = split
    warn_at_caller(f"the inferred graph ({found[0]} edges) is held together only by "
                   f"{split[0]} edge(s) whose weights are within one noise unit of zero "
                   f"(the rankings' level {_fitted_noise(history):.3g}): without them it "
                   f"falls into {split[1]} components, and the eigenvectors do not show it "
                   f"connected; it is one member of a family of valid graphs that fit "
                   f"them, probably not the graph sought, which was not found",
                   AmbiguousGraphWarning)


def _unpaired_copies_warning(basis, found, history) -> None:
    """Warn when the graph returned (``found``, a ``rank_candidates`` item), found at a
    noise level it fits with weights in several levels, has a level that is copies of
    one graph fitting the eigenvectors alone while the rest of it is not the other
    factor of a box product (``_unpaired_copies``): it is one member of a product's
    family, whose weights the eigenvectors leave free, not the product; then
    ``history["unpaired_copies"]`` is the level's edges, copies and their size. Not
    asked for a twin class's basis, nor where the graph was said to be held together
    at the noise level (``_noise_connected_warning``)."""
    if basis.get("twin_class") or "noise_connected" in history:
        return
    copies = unpaired_copies(basis, found[3], _fitted_noise(history))
    if copies is None:
        return
    history["unpaired_copies"] = copies
    edges, k, m = copies
    warn_at_caller(f"the inferred graph ({found[0]} edges) has {edges} edges of one weight "
                   f"on {k} copies of one graph on {m} nodes, which alone fit the "
                   f"eigenvectors as well as the graph: the eigenvectors are those of a "
                   f"product with that graph as a factor, whose family holds every positive "
                   f"weighting of these levels, and the rest of the graph is not the other "
                   f"factor on those copies (not a box product); it is one member of that "
                   f"family, probably not the graph sought, which was not found",
                   AmbiguousGraphWarning)


def _quadratic_doubt(basis, B, found, L, eigenvalues, history) -> None:
    """Warn when the graph ``found`` (a ``rank_candidates`` item, Laplacian ``L`` with
    ``eigenvalues`` on the basis), found at a noise level, has the weights and the
    largest eigenvalue of a quadratic $c(TL_0 - L_0^2)$ of a sparser graph $L_0$ with
    equal weights (``_quadratic_doubt.quadratic_signature``), which has the same
    eigenvectors; then ``history["quadratic_doubt"]`` is $(c, T)$.

    Not asked for exact eigenvectors (the polynomials of the truth are searched there,
    ``_freed_member``), a twin class's basis, an ordered basis (a quadratic's eigenvalues
    run out of order), a graph already said not to fit the eigenvectors
    (``_fitted_noise`` is then 0), a tree or the complete graph.
    """
    signature = _quadratic_signature(basis, B, found, L, eigenvalues, history)
    if signature is None:
        return
    edges = int(found[0])
    history["quadratic_doubt"] = signature
    unit, T = signature
    warn_at_caller(f"the inferred graph ({edges} edges) has weights that are integer "
                   f"multiples of its smallest ({unit:.3g}) to the noise level, and its "
                   f"largest eigenvalue is that weight times {T}^2/4: the weights and "
                   f"spectrum of a quadratic c({T} L - L^2) of a sparser graph L with equal "
                   f"weights, which has the same eigenvectors (the pairs at distance 2 "
                   f"of a tree); the graph sought may be that sparser graph, which the "
                   f"search did not reach", ConvergenceWarning)


def _quadratic_signature(basis, B, found, L, eigenvalues, history):
    """`quadratic_signature` of the graph ``found`` (a ``rank_candidates`` item,
    Laplacian ``L`` with ``eigenvalues`` on the basis) when it is asked
    (``_quadratic_doubt``); else None."""
    noise = _fitted_noise(history)
    edges = int(found[0])
    if (noise <= EXACT_NOISE or basis.get("twin_class") or basis["ordered"]
            or basis["kind"] != "combinatorial" or edges <= B.n - 1 or edges >= B.n_pairs):
        return None
    return quadratic_signature(L, eigenvalues, noise, basis["V"])


def _quadratic_root(basis, B, found, L, eigenvalues, history) -> sp.csr_array | None:
    """The tree with equal weights whose quadratic $c(TL_0 - L_0^2)$ the graph ``found``
    is, when ``_quadratic_doubt`` would warn of it and that tree is found and fits as
    well (``_quadratic_root.quadratic_root``); then ``history["quadratic_root"]`` is
    $(c, T)$. Up to ``FAMILY_SEARCH_MAX_N`` nodes (the search reads dense $n \\times
    n$ matrices)."""
    if B.n > FAMILY_SEARCH_MAX_N:
        return None
    signature = _quadratic_signature(basis, B, found, L, eigenvalues, history)
    if signature is None:
        return None
    root = quadratic_root(basis, found[3], eigenvalues, signature, _fitted_noise(history))
    if root is not None:
        history["quadratic_root"] = signature
    return root


def _unfolded_path(basis, B, found, history) -> sp.csr_array | None:
    """A path whose quadratic $4L - L^2$ is the graph ``found`` (a ``rank_candidates``
    item), when it is a cycle through every node with equal weights, and that path fits
    the eigenvectors as the cycle does; else None. Combinatorial Laplacians without an
    eigenvalue order (a twin class's basis neither).

    - Found at a noise level (``history["noise"]``, between ``EXACT_NOISE`` and
      ``UNRESOLVABLE_NOISE``): weights equal to that level, whether the cycle fits at
      the rankings' level or not (that level is biased low on few nodes,
      ``_fitted_level_fit``); the path fits at its own noise as the cycle does
      (``_cycle_unfolding.path_at_own_noise``).
    - Exact eigenvectors: weights equal within ``EQUAL_WEIGHT_CV``, the cycle and the
      path fit to ``FITS_EXACTLY`` (``_cycle_unfolding.exact_unfolded_path``)."""
    noise = history.get("noise", 0.0)
    if (noise > UNRESOLVABLE_NOISE or basis["ordered"] or basis["kind"] != "combinatorial"
            or basis.get("twin_class") or int(found[0]) != B.n):
        return None
    if noise <= EXACT_NOISE:
        if found[1] > EQUAL_WEIGHT_CV or _residuals(basis, found[3])[0] > FITS_EXACTLY:
            return None
        return exact_unfolded_path(basis, found[3])
    if not _equal_within_noise(basis, found[3], noise):
        return None
    return path_at_own_noise(basis, found[3])


def _distance_two_root(basis, B, found, L, eigenvalues, history):
    """The regular graph of girth at least 5 whose pairs at distance 2 are the graph
    ``found`` (a ``rank_candidates`` item, Laplacian ``L`` with ``eigenvalues`` on the
    basis), found at a noise level with equal weights
    (``_distance_two_root.distance_two_roots``), and whether it fits the eigenvectors as
    well (``_equal_graph_fits``): the first distinct root read that fits (else the
    first read), whether it fits, and the other distinct roots that fit, which the
    eigenvectors do not tell from it (the Robertson graph's twin); None when none is
    read. Combinatorial Laplacians without an eigenvalue order (a twin class's basis
    neither), up to ``FAMILY_SEARCH_MAX_N`` nodes (the reading takes dense $n \\times
    n$ products); then ``history["distance_two_root"]`` is whether it fits."""
    noise = _fitted_noise(history)
    if (noise <= EXACT_NOISE or B.n > FAMILY_SEARCH_MAX_N or basis["ordered"]
            or basis["kind"] != "combinatorial" or basis.get("twin_class")
            or not B.n < found[0] < B.n_pairs
            or not _equal_within_noise(basis, found[3], noise)):
        return None
    reference = _residuals(basis, found[3])
    read, fitting = {}, {}
    for root in distance_two_roots(basis, L, eigenvalues):
        key = _edge_key(root)
        if key not in read:
            read[key] = root
            if _equal_graph_fits(basis, root, reference, noise):
                fitting[key] = root
    if not read:
        return None
    history["distance_two_root"] = bool(fitting)
    roots = list((fitting or read).values())
    return roots[0], bool(fitting), roots[1:] if fitting else []


def _tree_behind(basis, B, ranked, history) -> sp.csr_array | None:
    """A tree with equal weights read from a graph of ``ranked`` (the graph found first,
    then the other candidates, each with more than $n - 1$ edges and fewer than all
    pairs) and refitted, when the graph found was found at a noise level
    (``_fitted_noise``) and the tree fits as well as it
    (``_spanning_tree.tree_behind``); else None. Combinatorial Laplacians without an
    eigenvalue order only (a twin class's basis neither), as for ``_local_rewiring``.
    The other candidates are read too, and the sparser graph of the smallest noise
    estimate (``history["sparser_rival"]``): on ``random_labeled_tree(500, seed=30)``
    perturbed by 1e-3 the graph found (2270 edges) holds 481 of the 499 edges and no
    tree read from it fits, that sparser graph (1236 edges) 498, and its refit reads
    the tree."""
    noise = _fitted_noise(history)
    if (noise <= 0.0 or not B.n - 1 < ranked[0][0] < B.n_pairs or basis["ordered"]
            or basis["kind"] != "combinatorial" or basis.get("twin_class")):
        return None
    reference = _residuals(basis, ranked[0][3])
    graphs = [item[3] for item in ranked if B.n - 1 < item[0] < B.n_pairs]
    rival = history.get("sparser_rival")
    if rival is not None and rival[0] == _edge_key(ranked[0][3]):
        # the sparser graph the rankings gave at the smallest noise estimate
        # (``_sparser_rival``), a candidate once the result is formed
        graphs.append(rival[1])
    for W in graphs:
        if B.n - 1 < sp.triu(W, 1).nnz < B.n_pairs:
            tree = tree_behind(basis, B, W, noise, reference)
            if tree is not None:
                return tree
    if B.n > TREE_SEARCH_MAX_N or not _lacks_edges(basis, ranked[0][3]):
        # (the missing-edges test, O(n^3), only where a tree can be searched)
        return None
    # no read tree fits, and the eigenvectors show edges that the graph found lacks:
    # a tree searched on the eigenvectors alone (random labelled tree(550, seed 56)
    # perturbed: 3729 edges found, holding 548 of the 549, their maximum spanning tree
    # 249); the result asks that tree's fit at its own noise next (``lacks_edges``)
    history["lacks_edges"] = True
    return _searched_tree(basis, B, ranked[0][3], noise, history, reference)


def _noisy_grids(basis, B) -> list:
    """The grids read from noisy normalized eigenvectors' degrees and spectrum
    (``normalized_grids`` with the noisy tolerances), read once per basis."""
    if "noisy_grids" not in basis:
        basis["noisy_grids"] = normalized_grids(
            basis["V"], integer_degrees(B.u, NOISY_DEGREE_ROUNDING), noisy=True)
    return basis["noisy_grids"]


def _grid_may_replace(basis) -> bool:
    """Whether `_grid_behind` may replace the graph the searches found: normalized
    eigenvectors, no eigenspaces or order given, no twin class."""
    return (basis["kind"] == "normalized" and basis["groups"] is None
            and not basis["ordered"] and not basis.get("twin_class"))


def _searches_warning(searches, message: str) -> None:
    """Warn (`ConvergenceWarning`, at the caller of ``infer_laplacian``) with
    ``message``, a doubt about the graph the searches found, or keep it in the list
    ``searches`` when a grid may replace that graph (`_result` gives it then)."""
    if searches is None:
        warn_at_caller(message, ConvergenceWarning)
    else:
        searches.append(message)


def _noise_level_message(ratio: float) -> str:
    """The warning that the graph returned does not fit the eigenvectors to their
    noise level: its residual ``ratio`` times the noise the pairs show."""
    return (f"the inferred graph does not fit the eigenvectors to their noise level "
            f"(residual {ratio:.1f} times the noise the pairs show, above "
            f"{RESIDUAL_CONSISTENT:g}): the eigenvectors are probably too far from any "
            f"sparse graph's, and the graph is doubtful; more accurate eigenvectors (a basis "
            f"learned from more signals) or, if known, the eigenvalue order "
            f"(eigenspaces=..., ordered=True) may resolve it; the result's candidates are "
            f"the other graphs found")


def _grid_behind(basis, B, ranked, residual, family_dimension) -> sp.csr_array | None:
    """The grid read from noisy normalized eigenvectors (`_noisy_grids`) with no more
    edges than the graph found and both residuals (``_residuals``) below that graph's,
    the one of least residual; else None. The rule by which the noisy ladder replaces
    a graph by a sparser one (``_ranking_ladder._sparser_at_level``): the perturbed
    7 x 7 grid, draw 1, answered by the complete graph (1176 edges, residual 3.7e-3),
    whose grid fits to 4.9e-4. A grid with as many edges, or one in place of a grid
    found, must fit better beyond the slacks (the graph found does not fit as well,
    ``_fits_as_well``: a twin of the grid fits as well): the perturbed 11 x 11 grid,
    draw 2, answered by a relabelled grid of residual 6.9e-2 whose grid fits to
    4.6e-4. A sparser grid that fits as well (``_fits_as_well``) as a graph found that
    is no grid, one member of a family of valid graphs (``family_dimension`` above 1)
    other than the complete graph, is the family's sparsest member that fits, and is
    returned too: the perturbed 6 x 6 grid, draw 0, answered by a member of 196 edges
    (residuals 3.0e-4 and 1.6e-4) whose grid fits to 5.1e-4 and 1.8e-4 (denser members
    fit the noise on more pairs). No eigenspaces or order given, no twin class."""
    if not _grid_may_replace(basis) or residual <= FITS_EXACTLY:
        return None
    found = _residuals(basis, ranked[0][3])
    shaped = grid_coordinates(ranked[0][3]) is not None
    best = None
    for grid in _noisy_grids(basis, B):
        edges = sp.triu(grid, 1).nnz
        if edges > ranked[0][0]:
            continue
        fit = _residuals(basis, grid)
        member = (not shaped and edges < ranked[0][0] < B.n_pairs and family_dimension > 1
                  and _fits_as_well(fit, found))
        if not (fit[0] < found[0] and fit[1] < found[1]) and not member:
            continue
        if (shaped or edges == ranked[0][0]) and _fits_as_well(found, fit):
            continue
        if best is None or fit < best[0]:
            best = (fit, grid)
    return None if best is None else best[1]


def _grid_behind_twins(basis, B, ranked, laps, residual, history,
                       searches: list[str], level: float | None) -> None:
    """List the twins of the grid `_grid_behind` returned (the other grids read that fit
    as well, ``_fits_as_well``, and ``grid_twins``) among the candidates ``laps``, their
    number in ``history["normalized_grid"]``, and warn (`AmbiguousGraphWarning`): the
    eigenvectors do not tell a grid from its twins.

    The searches' warnings about the graph they found (``searches``: the complete
    graph, or a graph that does not fit to the noise level), which is not returned, are
    kept in ``history["searches_warnings"]``, not given; the grid's own residual in
    units of the noise ``level`` (``_pair_level``) replaces ``history["noise_ratio"]`` (the graph
    found's in ``history["searches_noise_ratio"]``), and is warned of as theirs is when
    the grid does not fit to the noise level either."""
    grid = ranked[0][3]
    fit = _residuals(basis, grid)
    known = {_edge_key(grid)}
    grids = []
    for W in _noisy_grids(basis, B):
        if _edge_key(W) not in known and _fits_as_well(_residuals(basis, W), fit):
            known.add(_edge_key(W))
            grids.append(_laplacian(W, basis))
    noise = pair_noise_level(history, residual) or history.get("noise", 0.0)
    grids += [T for T in grid_twins(basis, grid, [*laps, *grids], noise)
              if laplacian_edge_key(T) not in {laplacian_edge_key(G) for G in grids}]
    laps += grids
    history["normalized_grid"] = len(grids)
    history["candidate_edges"] += [int(ranked[0][0])] * len(grids)
    kept = ""
    if searches:
        history["searches_warnings"] = list(searches)
        kept = (f"; the searches' {len(searches)} warning(s) about that graph, not "
                f"returned, are in the result's history['searches_warnings']")
    warn_at_caller(f"the eigenvectors are noisy eigenvectors of a normalized Laplacian whose "
                   f"degrees are those of a grid to the noise, and that grid, read from them, "
                   f"fits them as well as the graph the searches found or better "
                   f"({history['normalized_grid_edges'] + ranked[0][0]} edges, among the "
                   f"candidates) with no more edges: it is returned, but grids relabelled "
                   f"so as to keep the eigenvectors ({len(grids)} listed) fit them as well, "
                   f"and the eigenvectors do not tell them apart{kept}",
                   AmbiguousGraphWarning)
    if "noise_ratio" in history and level is not None:
        history["searches_noise_ratio"] = history["noise_ratio"]
        history["noise_ratio"] = residual / level
        if history["noise_ratio"] > RESIDUAL_CONSISTENT:
            warn_at_caller(_noise_level_message(history["noise_ratio"]), ConvergenceWarning)


def _edge_test_descended(basis, B, ranked, history):
    """``(W, tested)``: the weights ``W`` of the graph the edge tests descend to from the
    graph found (``_edge_test_descent``), or None, and ``tested``, the edge test and the
    missing-edges test made on the graph found ``(test, found)`` (for ``_weak_edges``,
    which makes them on the graph returned), or None when they were not made.

    The descent is made when the graph found was found at a noise level at most
    ``UNRESOLVABLE_NOISE`` and the missing-edges test shows enough non-edges to warn
    (agreement below ``EDGE_AGREEMENT``, as ``_missing_edges`` warns); its graph is
    returned when it is connected, has fewer edges, fits the eigenvectors better on
    both residuals (``_residuals``) and has a rotation residual at most that of every
    graph the noisy rankings gave (``history["noisy_graphs"]``). Combinatorial
    Laplacians without an eigenvalue order (a twin class's basis neither), as for
    ``_tree_behind``, up to ``FAMILY_SEARCH_MAX_N`` nodes.

    When the missing-edges test shows some such non-edges but too few to warn, the
    graph split at its heavy edges read as twins (``_twin_split``) takes the
    descent's place, under the same conditions (``history["twin_split"]`` is True
    when the split gave a graph, returned or not). When the descent gives no graph
    that is returned (it circles, or ends at a graph that fits worse), the split is
    made from the graph found instead, and its graph is returned under the same
    conditions when the edge tests move nothing on it (``_edge_test_descent.settled``),
    with a ``ConvergenceWarning`` (``history["edge_test_split"]``): the heavy edges that
    a dense graph found reads as twins are what keeps the descent from the graph sought,
    but the split reads only those that carry a column of their own.

    Before the descent, a weighted cycle read from the eigenvectors (``_cycle_read``:
    the nodes in the order of their angle in the plane of the two columns of least
    eigenvalue of the graph found, the heavy groups ordered by the fit) is returned
    under the same conditions (``history["cycle_read"]``): perturbed PyGSP
    ``RandomRing(200, seeds 1-3)``, whose descents circle round graphs of 225 to 344
    edges (F1 0.65 to 0.94), give their rings so (rotation residuals 7.02e-5 to 7.24e-5
    against 7.46e-5 to 9.65e-5 for the graphs found).

    Perturbed PyGSP ``RandomRing(180, seed=2)``: 254 edges found (F1 0.811), 110 such
    non-edges; the ring read, rotation residual 7.62e-5 against 1.05e-4. Perturbed
    ``RandomRing(160, seed=6)``: 174 edges found (F1 0.928), 10 such non-edges; the
    split returns 162 (F1 0.994), rotation residual 7.80e-5 against 9.61e-5. Perturbed
    ``RandomRing(180, seed=1)``, draw 1: 299 edges found (F1 0.706), 123 such
    non-edges, a descent that circles; the split returns the ring, rotation residual
    7.61e-5 against 1.10e-4."""
    noise = history.get("noise", 0.0)
    if (not EXACT_NOISE < noise <= UNRESOLVABLE_NOISE or basis["ordered"]
            or basis["kind"] != "combinatorial" or basis.get("twin_class")
            or B.n > FAMILY_SEARCH_MAX_N or not B.n - 1 <= ranked[0][0] < B.n_pairs):
        return None, None
    W = ranked[0][3]
    L = _laplacian(W, basis)
    eigenvalues, _ = _diagonal_fit(basis["V"], L)
    test = edge_significance(basis["V"], L, eigenvalues)
    found = None if test is None else missing_edges(basis["V"], L, eigenvalues, test)
    tested = (test, found)
    m = int(ranked[0][0])
    if found is None or found["count"] == 0:
        return None, tested
    if m <= B.n - 1:
        return _split_of_tree(basis, W, history), tested
    # a weighted cycle read from the eigenvectors (``_cycle_read``) first: the sparsest
    # the descents could give but a tree, and it reaches rings whose graph found the
    # descents circle round (heavy edges read as twins, pairs around them kept)
    C = read_cycle(basis, eigenvalues, W)
    if _descended_fits(basis, W, m, C, history):
        history["cycle_read"] = True
        return C, tested
    if 2.0 * m / (2.0 * m + found["count"]) >= EDGE_AGREEMENT:
        # too few missing edges to descend from: heavy edges read as twins, if any, are
        # split first (``_twin_split``), then the descent
        A = twin_split(basis, W)
        if A is not None:
            history["twin_split"] = True
        return (A if _descended_fits(basis, W, m, A, history) else None), tested
    A = edge_test_descent(basis, W)
    if _descended_fits(basis, W, m, A, history):
        return A, tested
    # the descent circles or ends at a graph that fits worse: the heavy edges the graph
    # found reads as twins are split first (``_twin_split``), then the descent; the
    # graph is taken where the edge tests move nothing (the split's own graph, when the
    # descent from it does not end, can miss edges without a warning)
    A = twin_split(basis, W)
    if A is not None:
        history["twin_split"] = True
    if not (_descended_fits(basis, W, m, A, history) and settled(basis, A)):
        return None, tested
    history["edge_test_split"] = True
    # a graph read so need not be the graph sought: the split reads only the heavy
    # edges that carry a column of their own (perturbed path of 80 nodes, lognormal
    # weights: 86 edges for 79 returned, F1 0.93, from 91 found, F1 0.86)
    warn_at_caller(f"the graph found ({m} edges) lacks edges that the eigenvectors show, "
                   f"and the descent of the edge tests from it ended at no better fit; the graph "
                   f"returned ({sp.triu(A, 1).nnz} edges) was read from it by joining the "
                   f"pairs that a column of the eigenvectors reads as one heavy edge, then "
                   f"that descent: it fits better and the edge tests move nothing on it, "
                   f"but the graph sought may differ (the graph found is the last of the "
                   f"candidates)", ConvergenceWarning)
    return A, tested


def _split_of_tree(basis, W, history) -> None:
    """``_edge_test_descended`` past its tests when the graph found, of weights ``W``, is
    a spanning tree: None, the graph it returns otherwise.

    A graph is returned only when it is connected and has fewer edges than the graph
    found (``_descended_fits``), and no connected graph on $n$ nodes has fewer than
    $n - 1$: the cycle read, the descent and the split cannot give one, and they are
    not made (the cycle read and the descent took 2.0 of 16 CPU s on the perturbed
    ``random_labeled_tree(200, seed=1)`` with lognormal weights). Every path of the
    descent makes the split (``_twin_split``), whose record
    (``history["twin_split"]``) is kept: the split alone is made for it."""
    if twin_split(basis, W) is not None:
        history["twin_split"] = True
    return None


def _descended_fits(basis, W, m, A, history) -> bool:
    """Whether the graph of weights ``A`` (from the graph found, of weights ``W``, by
    ``_edge_test_descended``) is returned: it is connected, has fewer edges, fits the
    eigenvectors better on both residuals (``_residuals``) and has a rotation residual
    at most that of every graph the noisy rankings gave (``history["noisy_graphs"]``;
    the descent can end at a wrong graph that fits worse than the graph sought:
    ``_edge_test_descent``). False for None."""
    if A is None or sp.triu(A, 1).nnz >= m or not connected(A):
        return False
    before, after = _residuals(basis, W), _residuals(basis, A)
    best = min((g["rotation"] for g in history.get("noisy_graphs", [])), default=before[1])
    return after[0] < before[0] and after[1] < before[1] and after[1] <= best


def _ranked_entry(W) -> tuple:
    """The entry of the graph of weights ``W`` in a list of graphs found (``ranked``):
    its number of edges, its weights' coefficient of variation, no direction, ``W``."""
    weights = sp.triu(W, 1).data
    return (int(weights.size), float(weights.std() / weights.mean()), None, W)


def _complete_weights(B, ranked) -> sp.csr_array:
    """The complete graph's weights the result returns when the searches found no graph
    (``ranked`` empty) or ``ranked``'s first graph."""
    if ranked:
        return ranked[0][3]
    return sp.csr_array(np.outer(B.u ** 2, B.u ** 2) * (1.0 - np.eye(B.n)))


def _lacks_edges(basis, W) -> bool:
    """Whether the eigenvectors show, at their noise level, an edge that the graph of
    weights ``W`` does not have (``_missing_edges.missing_edges``, one such non-edge or
    more)."""
    L = _laplacian(W, basis)
    eigenvalues, _ = _diagonal_fit(basis["V"], L)
    test = edge_significance(basis["V"], L, eigenvalues)
    found = None if test is None else missing_edges(basis["V"], L, eigenvalues, test)
    return found is not None and found["count"] > 0


def _searched_tree(basis, B, W, noise, history, reference=None) -> sp.csr_array | None:
    """A tree with unit weights searched on the eigenvectors (``_tree_search``) that
    fits them as well as the graph of weights ``W`` (or of residuals ``reference``) and
    has equal weights to ``noise`` (``_equal_graph_fits``), or None. Only for a graph
    found at a noise level (``noise`` positive), combinatorial Laplacians without an
    eigenvalue order (a twin class's basis neither), as for ``_tree_behind``, on at most
    ``_tree_search.MAX_NODES`` nodes; ``history["tree_search_misfit"]`` is the misfit of
    the tree searched."""
    if (noise <= 0.0 or basis["ordered"] or basis["kind"] != "combinatorial"
            or basis.get("twin_class") or not 2 < B.n <= TREE_SEARCH_MAX_N):
        return None
    reference = _residuals(basis, W) if reference is None else reference
    tree, value = search_tree(basis["V"], np.random.default_rng(TREE_SEARCH_SEED))
    history["tree_search_misfit"] = value
    return tree if _equal_graph_fits(basis, tree, reference, noise) else None


def _regular_member_level(basis, B, W, history, exact: bool) -> float:
    """The noise level at which a graph read off the noisy constant-diagonal family
    (``history["constant_diagonal_graph"]``, a reading that gives no level) is compared
    with the graphs as sparse that fit as well: the level its non-edges show
    (``non_edge_level``), when it is within (``EXACT_NOISE``, ``UNRESOLVABLE_NOISE``] and
    the graph's residual is the one that level predicts (``own_noise``, a ratio within
    ``RESIDUAL_CONSISTENT``), up to ``FAMILY_SEARCH_MAX_N`` nodes; else 0.

    The perturbed ``circulant_graph(13, [1, 5])`` (eigenspaces of dimension 4, no group
    read) is answered off that family by its relabelling by a multiplier of the group,
    which fits as well: without a level, the truth it lists was not compared."""
    if exact or not history.get("constant_diagonal_graph") or B.n > FAMILY_SEARCH_MAX_N:
        return 0.0
    level = non_edge_level(B, W)
    if not EXACT_NOISE < level <= UNRESOLVABLE_NOISE:
        return 0.0
    return level if own_noise(basis, W)[1] <= RESIDUAL_CONSISTENT else 0.0


def _equally_sparse_warning(basis, ranked, laps, history, noise: float,
                            circulants: bool = True, B=None) -> None:
    """Warn (`AmbiguousGraphWarning`) when another valid graph with no more edges than
    the graph returned fits the eigenvectors as well, exact (``noise`` 0) or at the
    noise level ``noise`` it was found at (``equally_sparse``: a candidate, or the graph
    returned relabelled along a cyclic order of its nodes, a circulant's twin, then
    appended to the candidates ``laps``; without ``circulants`` the candidates only);
    ``history["equally_sparse_edges"]`` lists their edges. A grid or path returned is
    relabelled first (``grid_twins``: its DCT twins that fit as well join the
    candidates, ``history["grid_twins"]`` their number), and so is a torus
    (``torus_twins``: relabelled by multipliers of its sides), a box product with a
    cycle or path (``box_twins``: relabelled along that factor, and along the other
    when it is a cycle or path too, ``history["box_twins"]`` their number), a graph
    whose eigenvalues conjugated in a quadratic field give another graph
    (``conjugate_twins``, ``history["conjugate_twins"]``), and a normalized graph with
    isomorphic sibling branches (``sibling_twins``: their nodes of odd depth
    swapped, ``history["sibling_twins"]`` their number, with those already among the
    candidates), and, with the pair basis ``B`` of exact eigenvectors, a regular graph
    with equal weights (``regular_ties``: other sparsest members of the constant-diagonal
    family with as many edges, ``history["regular_ties"]`` their number)."""
    twins = (grid_twins(basis, ranked[0][3], laps, noise)
             or torus_twins(basis, ranked[0][3], laps, noise))
    twin_key, listed = "grid_twins", []
    if not twins:
        (twins, listed), twin_key = box_twins(basis, ranked[0][3], laps, noise), "box_twins"
    if not twins and not listed:
        (twins, listed), twin_key = (conjugate_twins(basis, ranked[0][3], laps, noise),
                                     "conjugate_twins")
    if not twins and not listed:
        (twins, listed), twin_key = sibling_twins(basis, ranked[0][3], laps, noise), "sibling_twins"
    if not twins and not listed and B is not None and noise == 0.0:
        twins = [_laplacian(A, basis) for A in regular_ties(B, basis, ranked[0][3],
                                                             known_edges(laps, ranked[0][3]))]
        twin_key = "regular_ties"
    added, tied = (equally_sparse(basis, ranked[0][3], laps, noise) if circulants
                   else (None, tied_candidates(basis, laps, noise)))
    if added is not None:
        key = edge_key(sp.triu(added, 1))
        twins = [T for T in twins if edge_key(sp.triu(T, 1)) != key]
        laps.append(added)
        history["relabelled_circulant"] = True
        history["candidate_edges"].append(int(ranked[0][0]))
    if twins:
        # equally sparse, connected, equal weights and fitting as well by construction
        # (the fit read at O(nnz n) per twin: the 25 x 40 grid has 159)
        tied = [*tied, *range(len(laps), len(laps) + len(twins))]
        laps += twins
        history[twin_key] = len(twins)
        history["candidate_edges"] += [int(ranked[0][0])] * len(twins)
    if listed:
        # twins the searches listed already (a candidate) without a warning
        tied = [*tied, *(k for k in listed if k not in tied)]
        history[twin_key] = history.get(twin_key, 0) + len(listed)
    if not tied:
        return
    history["equally_sparse_edges"] = [int(sp.triu(laps[k], 1).count_nonzero()) for k in tied]
    warn_at_caller(f"{len(tied)} other valid graph(s) with no more edges than the graph "
                   f"inferred ({ranked[0][0]}) fit the eigenvectors as well "
                   f"({history['equally_sparse_edges']} edges): the eigenvectors do not "
                   f"tell them apart, and the graph returned may not be the graph sought "
                   f"(they are among the candidates)", AmbiguousGraphWarning)


#: Fewest nodes whose constant-diagonal family's noise level judges equal weights in
#: ``_complement_twin_warning`` (its singular values need a gap: a triangle has none).
MIN_COMPLEMENT_NODES = 5


def _complement_twin_warning(basis, B, ranked, laps, history) -> None:
    """Warn (`AmbiguousGraphWarning`) when the complement of the graph returned has no
    more edges and fits the eigenvectors as well, or the graph has equal weights to the
    noise level of the constant-diagonal family of ``B`` (``_fitting_complement``: the
    check of the complement for a graph found with no noise level to judge equal weights
    at); it joins the candidates ``laps`` unless among them,
    ``history["complement_twin_edges"]`` its edges."""
    W = ranked[0][3]
    n = W.shape[0]
    if (not n * (n - 1) // 4 <= ranked[0][0] < n * (n - 1) // 2
            or history.get("noise_ratio", 0.0) > RESIDUAL_CONSISTENT):
        # (a graph that does not fit the eigenvectors is warned of already, and its
        # complement fits them no better)
        return
    C = _fitting_complement(basis, W)
    if C is None and n >= MIN_COMPLEMENT_NODES:
        C = _fitting_complement(basis, W, constant_diagonal_noise(B) or 0.0)
    if C is None:
        return
    _report_candidate(laps, history, "complement_twin_edges", C, basis, lambda e: (
        f"the complement of the inferred graph ({ranked[0][0]} edges), a connected graph "
        f"with {e} edges, has the same eigenvectors and fits them as well: no inference "
        f"from eigenvectors tells a graph from its complement, and the graph returned may "
        f"not be the graph sought (the complement is among the candidates)"))


def _cayley_twin_warning(basis, ranked, laps, history) -> None:
    """Warn (`AmbiguousGraphWarning`) when the eigenvectors are characters of an abelian
    group and connected Cayley graphs of it with no more edges than the graph returned
    fit them as well (``cayley_twins``: a circulant's, a torus's or a circular ladder's
    relabellings, or a sparser Cayley graph behind a denser member of its family, exact
    or noisy, at the noise level of the graph returned: ``listing``); those not listed
    yet join the candidates ``laps``,
    ``history["cayley_twin_edges"]`` the edges of all. A twin the searches already
    listed is warned of as well: listed without a warning it left the answer silent
    (the perturbed 7-cycle, draw 2: a relabelled 7-cycle returned, the truth second
    among the candidates)."""
    W = ranked[0][3]
    twins = cayley_twins(basis, W, [], listing=True)
    if not twins:
        return
    history["cayley_twin_edges"] = [int(sp.triu(A, 1).nnz) for A in twins]
    listed = known_edges(laps, W)
    new = [A for A in twins if edge_key(sp.triu(A, 1)) not in listed]
    laps += [_laplacian(A, basis) for A in new]
    history["candidate_edges"] += [int(sp.triu(A, 1).nnz) for A in new]
    warn_at_caller(f"the eigenvectors are the characters of an abelian group on the nodes, "
                   f"and {len(twins)} connected Cayley graph(s) of that group with no more "
                   f"edges than the graph inferred ({ranked[0][0]}) fit them as well "
                   f"({history['cayley_twin_edges']} edges): the eigenvectors do not tell "
                   f"them apart, and the graph returned may not be the graph sought (they "
                   f"are among the candidates)", AmbiguousGraphWarning)


def _regular_twin_warning(basis, B, ranked, laps, history, noise: float,
                          warned: bool = False) -> None:
    """Warn (`AmbiguousGraphWarning`) when the graph returned, a regular graph with equal
    weights found on noisy eigenvectors at the level ``noise``, has twins that fit them
    as well: regular graphs with as many edges and equal weights among the members of
    the noisy constant-diagonal family (``regular_twins``); those not listed yet join the
    candidates ``laps``, ``history["regular_twin_edges"]`` the edges of all. The
    perturbed Pappus graph (draw 0) was answered by a twin alone, with no warning. When
    another check has warned of graphs as sparse already (``warned``:
    ``_equally_sparse_warning``, ``_cayley_twin_warning``) the twins are listed without a
    second warning (draws 1 and 4: another twin listed and warned of, not the truth)."""
    W = ranked[0][3]
    twins = regular_twins(basis, B, W, noise)
    if not twins:
        return
    history["regular_twin_edges"] = [int(sp.triu(A, 1).nnz) for A in twins]
    for A in twins:
        _list_candidate(laps, history, A, basis)
    if warned:
        return
    warn_at_caller(f"{len(twins)} other regular graph(s) with equal weights and as many "
                   f"edges as the graph inferred ({ranked[0][0]}) fit these noisy "
                   f"eigenvectors as well (members of the family of regular graphs with "
                   f"them, at the noise level it shows): the eigenvectors do not tell them "
                   f"apart, and the graph returned may not be the graph sought (they are "
                   f"among the candidates)", AmbiguousGraphWarning)


def _unsearched_family_warning(basis, B, ranked, residual, history) -> None:
    """Warn (`AmbiguousGraphWarning`) when exact eigenvectors of a normalized Laplacian
    (no eigenspaces or order given) leave a family whose equal-weight members were not
    listed (more than ``_unit_equal_weight.MAX_NODES`` nodes) and the graph returned,
    which fits them, is doubtful: weighted, or a grid (``unsearched_family_doubt``,
    module ``_unit_family_doubt``); ``history["unit_family_doubt"]`` gives the reason."""
    if (basis["kind"] != "normalized" or basis["groups"] is not None or basis["ordered"]
            or basis.get("twin_class") or residual > FITS_EXACTLY):
        return
    system = basis.get("unit_diagonal")
    reason = unsearched_family_doubt(system, B.u, ranked[0][3])
    if reason is None or (reason == "grid" and ("grid_twins" in history
                                                or "equally_sparse_edges" in history)):
        # a grid whose twins joined the candidates, or tied with one, is warned of
        return
    history["unit_family_doubt"] = reason
    what = ("has unequal weights, though the degrees are multiples of one weight: "
            "the family's graphs with equal weights (a grid's) are sparser in weights "
            "and probably the graph sought" if reason == "unequal weights" else
            "is a grid, and the grids whose families were listed hold an isomorphic "
            "twin with the same eigenvectors: the graph sought may be that twin")
    warn_at_caller(f"the eigenvectors are those of a family of normalized Laplacians of "
                   f"dimension {system.family_dimension} whose valid graphs of other "
                   f"supports fit them as well, and whose members with equal weights "
                   f"were not listed ({B.n} nodes, above {EQUAL_WEIGHT_MAX_NODES}); the "
                   f"graph inferred ({ranked[0][0]} edges) {what}; the eigenvectors may "
                   f"not tell them apart", AmbiguousGraphWarning)


def _noisy_family_warning(basis, B, ranked, laps, residual, family_dimension,
                          history) -> None:
    """Warn (`AmbiguousGraphWarning`) when noisy eigenvectors of a normalized Laplacian
    (no eigenspaces or order given) have degrees that are integers to the noise, and
    the graph returned, from a family of valid graphs, has weights unequal to the noise
    level it was found at (``noisy_family_doubt``, module ``_unit_family_doubt``; the
    level is the pairs' when the search's is above ``UNRESOLVABLE_NOISE`` and the graph
    fits to theirs, ``pair_noise_level``); ``history["unit_family_doubt"]`` gives the
    reason. Also when the graph returned is no grid and a grid read from the degrees and
    spectrum (``normalized_grids``) fits the eigenvectors as well: that grid joins
    the candidates ``laps`` with its twins (``grid_twins``), their number in
    ``history["normalized_grid"]`` (the answer is not changed)."""
    noise = (_fitted_noise(history) or pair_noise_level(history, residual)
             or history.get("noise", 0.0))
    if (basis["kind"] != "normalized" or basis["groups"] is not None or basis["ordered"]
            or basis.get("twin_class") or residual <= FITS_EXACTLY or noise <= EXACT_NOISE):
        return
    reason = noisy_family_doubt(basis, B.u, ranked[0][3], noise, int(family_dimension))
    grids, read = [], []
    if family_dimension > 1 and grid_coordinates(ranked[0][3]) is None:
        read = [grid for grid in _noisy_grids(basis, B)
                if _grid_fits(basis, grid, ranked, residual, history)]
    if read:
        grid = read[0]
        grids = [_laplacian(W, basis) for W in read]
        known = {laplacian_edge_key(L) for L in grids}
        grids += [T for T in grid_twins(basis, grid, [*laps, *grids], noise)
                  if laplacian_edge_key(T) not in known]
        laps += grids
        history["normalized_grid"] = len(grids)
        history["candidate_edges"] += [int(sp.triu(grid, 1).nnz)] * len(grids)
    if reason is None and not grids:
        return
    listed = (f"a grid with equal weights and {len(grids) - 1} relabelling(s) of it fit "
              f"them as well ({int(sp.triu(grid, 1).nnz)} edges: the last of the "
              f"candidates)" if grids else "")
    if reason is None:
        warn_at_caller(f"the eigenvectors are noisy eigenvectors of a normalized Laplacian "
                       f"whose degrees are those of a grid to the noise, and the graph "
                       f"inferred ({ranked[0][0]} edges), a member of a family of "
                       f"{family_dimension} dimensions, is no grid: {listed}; the "
                       f"eigenvectors do not tell them apart", AmbiguousGraphWarning)
        return
    history["unit_family_doubt"] = reason
    warn_at_caller(f"the eigenvectors are noisy eigenvectors of a normalized Laplacian "
                   f"whose degrees are those of an unweighted graph to the noise, and the "
                   f"graph inferred ({ranked[0][0]} edges) has unequal weights: it is one "
                   f"member of a family of {family_dimension} dimensions of graphs that fit "
                   f"them, and the graph sought, probably one with equal weights, may be "
                   f"another{'; ' + listed if listed else ''}", AmbiguousGraphWarning)


def _grid_fits(basis, grid, ranked, residual, history) -> bool:
    """Whether the grid of weights ``grid`` fits noisy eigenvectors as well as the graph
    returned (``_fits_as_well``), or, when sparser, to their noise level as that graph
    is asked to (its residual within ``RESIDUAL_CONSISTENT`` times the level of
    ``history["noise_ratio"]``): a denser graph fits the noise on more pairs (the 3 x 15
    grid perturbed, draw 2: 506 edges at a residual of 1.2e-4, the grid 4e-4)."""
    if _fits_as_well(_residuals(basis, grid), _residuals(basis, ranked[0][3])):
        return True
    ratio = history.get("noise_ratio", 0.0)
    if ratio <= 0.0 or sp.triu(grid, 1).nnz >= ranked[0][0]:
        return False
    fit = _diagonal_fit(basis["V"], _laplacian(grid, basis))[1]
    return bool(fit <= RESIDUAL_CONSISTENT * residual / ratio)


def _denser_than_grid(basis, ranked, laps, history, noise: float) -> None:
    """Warn (`AmbiguousGraphWarning`) when the eigenvectors are those of a grid
    (``_basis_grid.basis_grid_members``: its lines read from the basis) with fewer
    edges than the graph returned, which fits them as well: that grid and its DCT
    twins, the truth among them, join the candidates ``laps``;
    ``history["basis_grid"]`` is the grid's sides and the number added."""
    (a, b), grids = basis_grid_members(basis, ranked[0][3], laps, noise)
    if not grids:
        return
    edges = 2 * a * b - a - b
    laps += grids
    history["basis_grid"] = (a, b, len(grids))
    history["candidate_edges"] += [edges] * len(grids)
    warn_at_caller(f"the eigenvectors are those of the {a} x {b} grid (columns constant "
                   f"on its lines): that grid and its relabellings by DCT multipliers "
                   f"({len(grids)} graphs of {edges} edges against {ranked[0][0]}) fit "
                   f"them as well, and the graph inferred is a denser member of their "
                   f"family; the graph sought is probably one of those grids, which the "
                   f"eigenvectors do not tell apart (they are the last of the "
                   f"candidates)", AmbiguousGraphWarning)


def _distance_two_warning(basis, ranked, laps, history, exact: bool, noise: float) -> None:
    """Warn (`AmbiguousGraphWarning`) when the graph returned is $k$-regular of girth at
    least 5 with equal weights and the graph of its pairs at distance 2
    (``_distance_two_root.distance_two_graph``: $2kL - L^2$, the same eigenvectors) fits
    the eigenvectors as well (``_fits_as_well``, residuals floored at ``ROUNDING_FIT``,
    as a complement with no more edges is judged, ``_fitting_complement``): the
    eigenvectors do not tell the two apart, and the sparser is returned. Equal weights
    are those of ``EQUAL_WEIGHT_CV`` on ``exact`` eigenvectors, of
    ``_equal_within_noise`` at the level ``noise`` the graph was found at, and, for
    noisy eigenvectors searched as exact (no level: neither given), those of a graph
    whose unit-weight graph fits as well as it per pair it leaves free, the reference
    the graph of pairs at distance 2 is then held to (as the complement is in
    ``_complement_fits``). The denser joins the candidates ``laps`` unless among them
    (the graph found, when the sparser was read from it: ``_distance_two_root``),
    ``history["distance_two_edges"]`` its edges; not asked when it is the complement (a
    graph of diameter 2), which the complement's report covers (a warning within
    ``COMPLEMENT_RATIO`` at a known level, else the ``complement_twin`` flag).

    The complement of the Petersen graph, the pairs at distance 2 of ``GP(9, 2)`` and
    of a random 4-regular graph of girth 5 on 60 nodes, exact or perturbed by 1e-3,
    came back as the sparser graph with no warning (F1 0), the last with a family of
    dimension 1: the pairs at distance 2 are not zero on the sparser graph's non-edges,
    so no member of its family."""
    W = ranked[0][3]
    H = distance_two_graph(W)
    if H is None or not connected(H):
        return
    n = W.shape[0]
    reference = _floored_residuals(basis, W)
    if exact:
        equal = ranked[0][1] <= EQUAL_WEIGHT_CV
    elif noise > EXACT_NOISE:
        equal = _equal_within_noise(basis, W, noise)
    else:
        reference = _per_free_pair(reference, int(ranked[0][0]), n * (n - 1) // 2)
        equal = _fits_as_well(_floored_residuals(basis, equal_weights(W)), reference)
    if not equal or not _fits_as_well(_floored_residuals(basis, H), reference):
        return
    edges = int(sp.triu(H, 1).nnz)
    if edges + ranked[0][0] == n * (n - 1) // 2:
        # diameter 2 (the Petersen graph): the pairs at distance 2 are the complement,
        # which the complement's own report (warning, or the ``complement_twin`` flag)
        # covers
        return
    _report_candidate(laps, history, "distance_two_edges", H, basis, lambda e: (
        f"the inferred graph ({ranked[0][0]} edges of equal weight) is regular of girth at "
        f"least 5, and the graph of its pairs at distance 2, a connected graph with {e} "
        f"edges, has the same eigenvectors (2kL - L^2 is its Laplacian) and fits them as "
        f"well: no inference from eigenvectors tells the two apart, and the sparser is "
        f"returned (the graph of the pairs at distance 2 is among the candidates)"))


def _equal_weight_fits_warning(basis, B, ranked, laps, history, family_dimension, behind,
                               exact: bool, noise: float) -> None:
    """Warn (`AmbiguousGraphWarning`) when the graph returned has unequal weights and
    connected graphs with equal weights and no fewer edges, other than it and not
    complete, fit the eigenvectors as well: the eigenvectors do not tell them apart,
    and the graph returned is only the sparsest. They join the candidates,
    ``history["equal_weight_fits_edges"]`` their edge counts. Three sources, the first
    two members the library reads anyway elsewhere:

    - ``behind``, ``(W, items)`` or None: the weights of the graph the scan of extreme
      members ran behind (``_extreme_first``) and the candidate items of the vertices
      it reached whose equal-weight graphs fit as a member must (``extreme_scan``); read
      when that graph is the graph returned;
    - the regular graph read off the constant-diagonal family
      (``sampled_regular_member``, as ``_with_sampled_regular_member`` reads it), asked
      up to ``EXTREMES_MAX_N`` nodes, as the scan is, when the graph returned is one
      member of a family (``family_dimension`` above 1) and fits: on ``exact``
      eigenvectors (weights unequal beyond ``EQUAL_WEIGHT_CV``, the member's
      equal-weight graph fitting to ``FITS_EXACTLY``), or at the level ``noise`` it was
      found at (``_fitted_noise``; weights unequal to that level,
      ``_equal_within_noise``, the member's equal-weight graph fitting as well,
      ``_equal_graph_fits``);
    - on exact eigenvectors, where the regular graph is read, the equal-weight graph
      that the one-column local groups give from the graph returned, and it with its
      twin classes joined (``_local_equal_weight_fits``).

    Either way the graph returned must fit better than its own edges with equal
    weights (``_unequal_weights_fit``): the perturbed 5 x 6 torus, draw 3, is answered
    by the truth's edges with weights unequal to the noise level, and denser
    equal-weight graphs fit as well as it.

    The pairs at distance 2 of ``GP(15, 4)`` (90 edges with equal weights) came back as
    a graph of 75 edges with weights 1 and 2 that fits them as exactly, with no warning;
    the truth is the vertex of a program of the scan on some shuffles and the regular
    graph read on every one. The exact 5 x 6 torus, shuffle 5, came back as a weighted
    graph of 49 edges with equal-weight graphs of 60 and 90 edges fitting exactly at
    vertices of the scan."""
    W = ranked[0][3]
    fits = [] if behind is None or W is not behind[0] else [item[3] for item in behind[1]]
    if not (fits or _fits_unequal(basis, ranked[0], family_dimension, exact, noise)):
        return
    if not _unequal_weights_fit(basis, W, exact):
        # the graph's edges with equal weights fit as well: weights unequal to the noise
        # level only (the perturbed 5 x 6 torus, draw 3: the truth's edges)
        return
    regular = _regular_equal_weight_fit(basis, B, ranked[0], family_dimension, history,
                                        exact, noise)
    if regular is not None:
        fits.append(regular)
    fits += _local_equal_weight_fits(basis, B, ranked[0], family_dimension, exact)
    if not fits:
        return
    edges = sorted({_list_candidate(laps, history, A, basis) for A in fits})
    history["equal_weight_fits_edges"] = edges
    listed = ", ".join(str(e) for e in edges)
    warn_at_caller(
        f"the inferred graph ({ranked[0][0]} edges) has unequal weights, and other "
        f"graphs with equal weights and no fewer edges ({listed} edges), read off the "
        f"valid graphs with these eigenvectors, fit them as well: the eigenvectors do not "
        f"tell them apart, and the sparsest is returned (the others are among the "
        f"candidates)",
        AmbiguousGraphWarning)


def _local_equal_weight_fits(basis, B, found, family_dimension, exact: bool) -> list:
    """The equal-weight graph read off the graph ``found`` (a ``ranked`` entry, the
    graph returned) by its one-column local groups (``_local_equal_weights``) and that
    graph with its classes of non-adjacent twins joined (``with_twin_cliques``), each
    when it fits the exact eigenvectors (to ``FITS_EXACTLY``) and has no fewer edges;
    asked where ``_equal_weight_fits_warning`` reads the regular graph on ``exact``
    eigenvectors (``_fits_unequal``), up to ``FAMILY_SEARCH_MAX_N`` nodes, with no
    eigenvalue order. `relaxed_caveman_graph(5, 8, 0.15, seed=2)`, draw 0, came back as
    a graph of 114 edges with one edge of twice the others' weight in place of four,
    quietly, the truth (140 edges) not among the candidates."""
    W = found[3]
    if (not exact or basis["ordered"] or W.shape[0] > FAMILY_SEARCH_MAX_N
            or not _fits_unequal(basis, found, family_dimension, exact, 0.0)):
        return []
    A = equal_weight_on_local_columns(basis, B, W)
    if A is None or sp.triu(A, 1).nnz < found[0] or edge_key(A) == edge_key(W):
        return []
    joined = with_twin_cliques(basis, A, 0.0)
    return [A] if joined is None else [A, joined]


def _list_local_twins(basis, found, laps, history, family_dimension, exact: bool,
                      noise: float) -> None:
    """List among the candidates ``laps`` the denser graphs with equal weights that the
    graph returned (``found``, a ``ranked`` entry) has local twins in, when they fit the
    eigenvectors as well:

    - closed pendant paths (``_pendant_cycles.pendant_cycles``): two pendant paths of one
      length on one node replaced by a cycle through it, one edge more,
      ``history["pendant_cycle_edges"]`` their edge counts;
    - completed twins (``_twin_cliques.twin_clique_members``): every joinable class of
      non-adjacent twins joined into a clique, ``history["completed_twin_edges"]`` its
      edge count; when the classes make two blocks or more that fit one by one, also
      the graphs with every block joined but one and with one block joined,
      ``history["twin_clique_member_edges"]`` their edge counts.

    No warning: the eigenvectors do not tell these graphs from the graph returned, and
    the sparser is the graph sought on most graphs with such paths or twins (a random
    tree with sibling leaves, or two pendant paths of two nodes on one node), while the
    denser is on others (a tadpole, returned as a spider; a lollipop, returned as a
    tree). They come right after the graph returned (``_list_next``), so that a
    caller who knows which to expect finds them.

    Asked for a member of a family (``family_dimension`` above 1) of a combinatorial
    Laplacian with no eigenvalue order, on at most ``FAMILY_SEARCH_MAX_N`` nodes, with
    equal weights: within ``EQUAL_WEIGHT_CV`` on ``exact`` eigenvectors, to the level
    ``noise`` it was found at otherwise (``_equal_within_noise``)."""
    W = found[3]
    if (family_dimension < 2 or basis["kind"] != "combinatorial" or basis["ordered"]
            or W.shape[0] > FAMILY_SEARCH_MAX_N or not _equal_weights_at(basis, W, exact, noise)):
        return
    level = 0.0 if exact else noise
    cycles = pendant_cycles(basis, W, level)
    cliques = twin_clique_members(basis, W, level)
    edges = _list_next(laps, history, [*cycles, *cliques], basis)
    if cycles:
        history["pendant_cycle_edges"] = edges[:len(cycles)]
    if cliques:
        history["completed_twin_edges"] = edges[len(cycles)]
    if len(cliques) > 1:
        history["twin_clique_member_edges"] = edges[len(cycles) + 1:]


def _equal_weights_at(basis, W, exact: bool, noise: float) -> bool:
    """Whether the graph of weights ``W`` has equal weights at the level it was found
    at: within ``EQUAL_WEIGHT_CV`` on ``exact`` eigenvectors, else to ``noise``
    (``_equal_within_noise``) when that is a noise level (above ``EXACT_NOISE``)."""
    if exact:
        return weight_cv(sp.triu(W, 1).data) <= EQUAL_WEIGHT_CV
    return noise > EXACT_NOISE and _equal_within_noise(basis, W, noise)


def _list_next(laps, history, graphs, basis) -> list[int]:
    """Put the graphs of weights ``graphs`` among the candidates ``laps`` right after the
    graph returned, in their order (``history["candidate_edges"]`` follows), each unless
    a candidate has its edges already; the last candidate stays last, as the warnings
    that name it say. Returns their edge counts."""
    if not graphs:
        return []
    position = 1
    counts = []
    seen = {laplacian_edge_key(L) for L in laps}
    for W in graphs:
        upper = sp.triu(W, 1)
        counts.append(int(upper.nnz))
        key = edge_key(upper)
        if key in seen:
            continue
        seen.add(key)
        laps.insert(position, _laplacian(W, basis))
        history["candidate_edges"].insert(position, int(upper.nnz))
        position += 1
    return counts


def _fits_unequal(basis, found, family_dimension, exact: bool, noise: float) -> bool:
    """Whether the graph ``found`` (a ``ranked`` entry) is where the regular graph is
    read for ``_equal_weight_fits_warning``: one member of a family
    (``family_dimension`` above 1), of a combinatorial Laplacian, fitting the exact
    eigenvectors or found at a level ``noise``, with weights unequal beyond
    ``EQUAL_WEIGHT_CV`` (exact) or to that level (``_equal_within_noise``)."""
    if family_dimension < 2 or basis["kind"] != "combinatorial":
        return False
    if exact:
        return weight_cv(sp.triu(found[3], 1).data) > EQUAL_WEIGHT_CV
    return noise > EXACT_NOISE and not _equal_within_noise(basis, found[3], noise)


def _unequal_weights_fit(basis, W, exact: bool) -> bool:
    """Whether the graph of weights ``W`` fits the eigenvectors better than its edges with
    equal weights: to ``FITS_EXACTLY`` when those do not (``exact``), else as well
    (``_fits_as_well``) when those do not."""
    fit = _residuals(basis, equal_weights(W))
    if exact:
        return fit[0] > FITS_EXACTLY
    return not _fits_as_well(fit, _residuals(basis, W))


def _regular_equal_weight_fit(basis, B, found, family_dimension, history, exact: bool,
                              noise: float) -> sp.csr_array | None:
    """The equal-weight graph of the regular graph read off the constant-diagonal family
    (``sampled_regular_member``) when the graph ``found`` (a ``ranked`` entry, the graph
    returned) is where it is read (``_fits_unequal``) and that graph is connected,
    neither complete, sparser nor ``found``'s edges, and fits as well; else None (see
    ``_equal_weight_fits_warning``)."""
    W = found[3]
    if (found[0] >= B.n_pairs or basis["ordered"] or basis["groups"] is not None
            or basis.get("twin_class") or "hopeless_basis" in history
            or not _fits_unequal(basis, found, family_dimension, exact, noise)):
        return None
    if B.n > EXTREMES_MAX_N or (exact and constant_diagonal_dimension(B) < 2):
        # read where the scan of extreme members runs (the sampling costs 0.4-0.5 CPU s
        # behind the weighted Les Miserables, 77 nodes, exact), and not where the exact
        # constant-diagonal family holds the complete graph only
        return None
    member = sampled_regular_member(basis["V_anchored"], basis["zero_column"])
    if member is None:
        return None
    A = equal_weights(member.W)
    edges = sp.triu(A, 1).nnz
    if edges >= B.n_pairs or edges < found[0] or edge_key(A) == edge_key(W):
        return None
    if exact:
        fitting = connected(A) and _residuals(basis, A)[0] <= FITS_EXACTLY
    else:
        fitting = _equal_graph_fits(basis, A, _residuals(basis, W), noise)
    return A if fitting else None


def _weak_edges(basis, L, eigenvalues, history, tested=None) -> None:
    """Warn when some edge of the graph returned ``L`` is not significantly nonzero at
    the noise level of the eigenvectors (``edge_significance``); then
    ``history["weak_edges"]`` is their number, ``history["edge_z"]`` the smallest
    z-score and the test's threshold, and ``history["rotation_noise"]`` the noise.
    The warning is issued when the weak edges are enough to take the graph outside
    the accuracy the inference is held to: the graph without them agrees with it below
    ``EDGE_AGREEMENT`` in F1, $2(m - k) / (2m - k)$ for $k$ weak edges of $m$. Fewer
    weak edges, whatever the truth of them, leave the graph within that accuracy of
    itself: Les Misérables perturbed by 1e-3 (``bench_inference.py --rotated``, draw
    12) returns two edges that the truth does not have at z-scores 1.5 (threshold
    3.5) among 253, F1 0.967.
    Not asked for a twin class's basis (its warnings decide whether its graph is
    evidence, ``_doubtful_part``), nor for a graph already said not to fit the
    eigenvectors (``noise_ratio`` above ``RESIDUAL_CONSISTENT``, ``unranked_residual``,
    ``exact_misfit``): the standard errors assume that it does.

    A perturbed basis fits members of a family with a dominating eigenvalue whose
    weakest weights are at the noise level, at a rotation residual no larger than the
    graph sought's (K(5, 20) perturbed by 1e-3: weights spanning 3e-5 to 1 of the
    largest, rotation residual 1.0e-4 against 2.1e-4): nothing but the size of those
    weights against their standard errors tells that such a graph is not determined.
    """
    if (basis.get("twin_class") or history.get("noise_ratio", 0.0) > RESIDUAL_CONSISTENT
            or "unranked_residual" in history or "exact_misfit" in history):
        return
    # ``tested``: the edge test and missing-edges test made on this graph before
    # (``_edge_test_descended``), if any
    test = edge_significance(basis["V"], L, eigenvalues) if tested is None else tested[0]
    if test is None:
        return
    _missing_edges(basis, L, eigenvalues, history, test,
                   None if tested is None else tested[1:])
    if not test["weak"].any():
        return
    weak, m = int(test["weak"].sum()), test["z"].size
    history["weak_edges"] = weak
    history["edge_z"] = (float(test["z"].min()), test["threshold"])
    history["rotation_noise"] = test["noise"]
    if not weak_beyond_agreement(test):
        return
    warn_at_caller(f"{weak} of the inferred graph's {m} edges are not significantly "
                   f"nonzero: their weights are below {test['threshold']:.2f} standard "
                   f"errors (smallest z-score {test['z'].min():.2g}; one-sided, "
                   f"family-wise level {EDGE_LEVEL:g} over the edges) at the rotation noise "
                   f"level {test['noise']:.2g} that the non-edges show; the eigenvectors "
                   f"do not determine these edges, too many for the graph to be within "
                   f"{EDGE_AGREEMENT:g} in F1 of the graph without them; a graph with "
                   f"such weights may be a member of a family of graphs that fit them as "
                   f"well, not the graph sought", ConvergenceWarning)


def _missing_edges(basis, L, eigenvalues, history, test, found=None) -> None:
    """Warn when the eigenvectors show, at their noise level, enough edges that the graph
    returned ``L`` lacks to take it outside the accuracy the inference is held to
    (module ``_missing_edges``, on bases of at most ``_missing_edges.MAX_NODES`` nodes,
    with the noise level and standard errors of ``edge_significance``'s ``test``).

    ``history["missing_edges"]`` is the number $k$ of non-edges whose entry of
    $V \\hat\\Lambda V^T$ is significantly negative (one-sided Bonferroni over the
    non-edges, family-wise level ``MISSING_LEVEL``, times ``SE_FACTOR``) and
    ``history["missing_z"]`` the largest z-score and the threshold. Were they edges of
    the graph sought, the graph returned, all of whose $m$ edges right, would agree
    with it at F1 $2m / (2m + k)$; below ``EDGE_AGREEMENT`` a ``ConvergenceWarning`` is
    issued. A path of 80 nodes with lognormal weights ($\\sigma$ = 1.5, weights seed
    12) perturbed by 1e-3 gave 115 edges for 79 (F1 0.69) with 61 such non-edges (z
    up to 131; the truth has none); graphs returned right (F1 1) showed 0 to 5.
    """
    if basis["V"].shape[0] > MISSING_MAX_N:
        return
    # ``found``: a one-tuple of the test made on this graph before, if any
    found = missing_edges(basis["V"], L, eigenvalues, test) if found is None else found[0]
    if found is None or found["count"] == 0:
        return
    k, m = found["count"], test["z"].size
    history["missing_edges"] = k
    history["missing_z"] = (found["z"], found["threshold"])
    if 2.0 * m / (2.0 * m + k) >= EDGE_AGREEMENT:
        return
    warn_at_caller(f"{k} pairs that the inferred graph ({m} edges) does not join have "
                   f"significantly negative entries (edge weights) at the rotation noise "
                   f"level {test['noise']:.2g} that its non-edges show (largest z-score "
                   f"{found['z']:.3g}, threshold {found['threshold']:.2f}: twice the "
                   f"one-sided quantile at family-wise level {MISSING_LEVEL:g} over the "
                   f"non-edges): the graph does "
                   f"not fit the eigenvectors to their noise level, a graph that fits them "
                   f"better was missed, and were these pairs edges of it the graph returned "
                   f"would agree with it below {EDGE_AGREEMENT:g} in F1",
                   ConvergenceWarning)


def _sparser_rival(history, best, key) -> sp.csr_array | None:
    """The weights of the sparser graph that the rankings gave at the smallest noise
    estimate, fitting the eigenvectors as well as the graph returned ``best`` (edge key
    ``key``) but not better (``history["sparser_rival"]``,
    ``_sparser_rival.record_sparser_rival``), when their edge sets agree below
    ``EDGE_AGREEMENT`` in F1 (``history["sparser_rival_agreement"]``); else None. The
    eigenvectors then leave the graph undetermined beyond the accuracy the inference is
    held to, and the result warns.

    A path of 80 nodes with lognormal weights ($\\sigma$ = 1.5) perturbed by 1e-3 gave
    91 edges for 79 (F1 0.86, rotation residual 1.85e-4, the truth's 1.21e-4) with no
    warning; at the smallest estimate the rankings gave 87 edges (rotation residual
    1.70e-4, residual 1.34e-3 against 1.32e-3), which agree with it at F1 0.865.
    """
    rival = _disagreeing_rival(history, "sparser_rival", best, key)
    return None if rival is None else rival[1]


def _disagreeing_rival(history, name: str, best, key) -> tuple | None:
    """The rival recorded in ``history[name]`` (popped) for the graph returned ``best``
    (edge key ``key``) when their edge sets agree below ``EDGE_AGREEMENT`` in F1,
    ``history[name + "_agreement"]`` then set; else None."""
    rival = history.pop(name, None)
    if rival is None or rival[0] != key:
        return None
    agreement = edge_agreement(best[3], rival[1])
    if agreement >= EDGE_AGREEMENT:
        return None
    history[f"{name}_agreement"] = agreement
    return rival


def _fitting_rival(history, best, key) -> sp.csr_array | None:
    """The weights of the sparser graph with equal weights to the noise level that the
    noisy rankings gave beside the graph returned ``best`` (edge key ``key``), fitting
    the eigenvectors but not as well (``history["fitting_rival"]``,
    ``_sparser_rival.record_fitting_rival``), when their edge sets agree below
    ``EDGE_AGREEMENT`` in F1 (``history["fitting_rival_agreement"]``, and
    ``history["fitting_rival_ratio"]`` the ratio of their rotation residuals per free
    pair); else None. The result then warns, as of a sparser rival (``_sparser_rival``).

    PyGSP ``Sensor(1000, seed=5)`` perturbed by 1e-3 (draw 0 of ``bench_inference.py``)
    returned a quadratic of the truth (9375 edges for 3550, F1 0.549) silently; the
    rival, 3545 of the true edges with equal weights to the noise level at 2.26 times
    its rotation residual, agrees with it at F1 0.549.
    """
    rival = _disagreeing_rival(history, "fitting_rival", best, key)
    if rival is None:
        return None
    history["fitting_rival_ratio"] = rival[2]
    return rival[1]


def _twin_superset(basis, W) -> sp.csr_array | None:
    """The weights of a valid graph that holds the graph of weights ``W``: ``W`` plus, on
    each of its twin classes (``twin_classes``) whose eigenspace's columns
    (``twin_basis``) are the eigenvectors of a graph found on them with fewer edges
    than a generic basis allows (``generic_edges``), no warning (``_doubtful_part``)
    and no twins of its own (3 or more), that graph at ``W``'s mean weight; None if
    there is none or if the sum does not fit the eigenvectors as well as ``W``
    (``_fits_as_well``), both with ``W``'s weights averaged over those classes
    (``_averaged_twins``).
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

    Nor is a class whose columns hold the eigenvectors of a star on it, to within
    ``RESIDUAL_CONSISTENT`` times ``W``'s rotation residual (``star_rotation``; floored
    at ``ROUNDING_FIT``): the star is a sparsest connected graph on the class and its
    leaves (three or more) are twins, the graph the search finds there. Such a class is
    not searched (``_twin_class_graph``). `fourier_basis` gives a repeated eigenvalue's
    columns by Gram-Schmidt on pivoted rows: on twin leaves, nested vectors, a star's
    eigenvectors. ``random_internet_as_graph(200, seed=62)`` (286 edges, 18 classes of
    4 to 15 leaves on its hubs, all stars' to 0.4 to 1.5 times ``W``'s rotation residual
    when perturbed by 1e-3) searched every class and joined none: 2.8 of its 7.8 CPU s
    perturbed, 1.2 of 9.6 exact.
    """
    if (basis["kind"] != "combinatorial" or W.shape[0] > FAMILY_SEARCH_MAX_N
            or basis.get("twin_class")):
        return None
    classes = [(nodes, Q) for nodes in twin_classes(W)
               if (Q := twin_basis(basis["V"], nodes, MIN_COS)) is not None]
    if not classes or all(_clique(W, nodes) for nodes, _ in classes):
        # a graph found on a class holds no pair that W lacks when W joins all its
        # nodes: the sum has W's edges, and is not kept (the complete graph, returned
        # when no graph was found, is one class of every node)
        return None
    total, found, split, joined = sp.csr_array(W), False, [], []
    mean = float(sp.triu(W, 1).data.mean())
    star_level = RESIDUAL_CONSISTENT * max(_residuals(basis, W)[1], ROUNDING_FIT)
    for nodes, Q in classes:
        part = component_graph(Q)
        if part is not None:
            split.append(nodes)
        if part is None:
            if star_rotation(Q) <= star_level:
                # the class's columns are a star's eigenvectors (an eigensolver's basis
                # of the repeated eigenvalue): the star, a sparsest connected graph on
                # it, has twins, and no search is made
                continue
            sub, caught = _twin_class_graph(Q)
            part = sp.triu(-sub.laplacian, 1).tocoo()
            if (sub.n_edges >= generic_edges(len(nodes)) or _doubtful_part(sub, caught)
                    or twin_classes(part + part.T, 3)):
                continue
            joined.append(nodes)
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
    # W's weights on the classes, polished on the noisy columns, are averaged over each
    # class for the comparison: the twins' columns lie in one eigenspace of W, whose
    # unequal weights fit their noise (wheel(20) perturbed by 1e-3, draw 1: W's
    # rotation residual 0.64 times its averaged one, and the sum 1.34 times W's, above
    # `RESIDUAL_SLACK` on 4 of 16 draws; 0.95 to 1.11 times the averaged one). Residuals
    # floored at rounding: on exact eigenvectors both fit to rounding, and rounding's
    # spread is no misfit (the wheel of 60 nodes, shuffle 3: 6.2e-16 against 3.0e-16)
    equal = _averaged_twins(W, joined)
    fit = _fits_as_well(_floored_residuals(basis, sp.csr_array(equal + total - W)),
                        _floored_residuals(basis, equal))
    return total if fit else None


def _clique(W, nodes) -> bool:
    """Whether the graph of weights ``W`` (its stored entries) joins every two of
    ``nodes``."""
    s = len(nodes)
    return sp.triu(sp.csr_array(W)[nodes][:, nodes], 1).nnz == s * (s - 1) // 2


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
    with warnings.catch_warnings(record=True) as caught, _progress_paused():
        warnings.simplefilter("always")
        return _infer(basis, 0.0, check_rng(DEFAULT_SEED)), caught


@contextlib.contextmanager
def _progress_paused():
    """Within it, the linear-program evaluations of a nested inference do not advance
    the caller's progress bar (``evaluation_hook`` unset)."""
    token = evaluation_hook.set(None)
    try:
        yield
    finally:
        evaluation_hook.reset(token)


def _put_first(basis, ranked, laps, history, W):
    """Put the graph of weights ``W`` first in ``ranked`` (and in the candidates ``laps``
    and ``history["candidate_edges"]``, in place): moved from the candidates if it is
    one, else added. Returns its candidate item and Laplacian."""
    key = _edge_key(W)
    at = next((k for k, item in enumerate(ranked) if _edge_key(item[3]) == key), None)
    if at is None:
        item, lap, edges = _ranked_entry(W), _laplacian(W, basis), None
    else:
        item, lap = ranked.pop(at), laps.pop(at)
        edges = history["candidate_edges"].pop(at)
    ranked.insert(0, item)
    laps.insert(0, lap)
    history["candidate_edges"].insert(0, int(item[0]) if edges is None else edges)
    return item, lap


def _swapped_back(basis, ranked, laps, history, found):
    """``ranked`` (and the candidates ``laps``, ``history["candidate_edges"]``, in
    place) with the graph of weights ``found``, which the tested-candidate swap replaced
    by a denser one that does not fit clearly better (``_swap_doubt.doubtful_swap``),
    first again and the graph that was first second, with an `AmbiguousGraphWarning`;
    ``history["doubtful_swap"]`` gives the edges of the denser graph and of the graph
    found. Returns the new ``ranked``, the Laplacian, its eigenvalues and residual."""
    denser = int(ranked[0][0])
    item, lap = _put_first(basis, ranked, laps, history, found)
    history["doubtful_swap"] = (denser, int(item[0]))
    missing = history.get("tested_candidate", (0, 0, 0))[2]
    warn_at_caller(
        f"the graph found ({item[0]} edges) fits the eigenvectors to the noise its "
        f"non-edges show, but {missing} of its non-edges show weights (missing-edges "
        f"test); a denser candidate that the edge tests accept ({denser} edges) does not "
        f"fit them clearly better (module _swap_doubt): the sparser is returned, and the "
        f"eigenvectors do not tell the two apart (the denser is the next candidate)",
        AmbiguousGraphWarning,
    )
    eigenvalues, residual = _diagonal_fit(basis["V"], lap)
    return ranked, lap, eigenvalues, residual


def _star_twin_holder_first(basis, ranked, laps, history, twin, holder):
    """``ranked`` (and the candidates ``laps``, ``history["candidate_edges"]``, in
    place) with the graph of weights ``holder``, which holds the twin of the star
    ``ranked[0]`` (``_star_twin``) and fits the eigenvectors clearly better, first (moved
    from the candidates if it is one), the star second and its twin ``twin`` last
    (unless a candidate has its edges); ``history["star_twin_holder"]`` gives the edges
    of the holder and of the star.
    Returns the new ``ranked``, the Laplacian, its eigenvalues and residual."""
    star = int(ranked[0][0])
    item, lap = _put_first(basis, ranked, laps, history, holder)
    history["star_twin_holder"] = (int(item[0]), star)
    history["star_twin_edges"] = _list_candidate(laps, history, twin, basis)
    eigenvalues, residual = _diagonal_fit(basis["V"], lap)
    return ranked, lap, eigenvalues, residual


def _star_twin_warning(basis, ranked, laps, history, twin, holder) -> None:
    """Warn that the star ``ranked[0]`` has a twin that the eigenvectors do not tell
    from it (``_star_twin.star_alternative``): ``twin`` (weights) fits them as well,
    or the candidate ``holder`` (weights), which holds the twin's edges, does; the twin
    is appended to the candidates, ``history["star_twin_edges"]`` its edges and
    ``history["star_twin_holder_edges"]`` the holder's, if any."""
    if holder is None:
        how = "fits them as well"
    else:
        history["star_twin_holder_edges"] = int(sp.triu(holder, 1).nnz)
        how = (f"and a candidate that holds its edges and {history['star_twin_holder_edges']} "
               f"edges in all fits them as well")
    _report_candidate(laps, history, "star_twin_edges", twin, basis, lambda e: (
        f"the inferred graph is a weighted star, and the star on its lightest leaf ({e} "
        f"edges) has the same eigenvectors (with mu the lightest weight, (L - mu I)^-1 "
        f"+ I / mu is its Laplacian, which reverses the order of the nonzero "
        f"eigenvalues) {how}: without the eigenvalue order the eigenvectors do "
        f"not tell them apart (the twin star is the last of the candidates)"))


def _regular_superset_warning(basis, B, ranked, laps, history) -> None:
    """Warn (`AmbiguousGraphWarning`) when the exact eigenvectors that the irregular
    equal-weight graph ``ranked[0]`` fits also fit a regular graph with equal weights
    that holds it (``regular_superset``: the 3 x 4 torus behind its cylinder
    $P_3 \\square C_4$, the path having the triangle's eigenvectors); that graph and,
    when the eigenvectors are characters of an abelian group, its Cayley twins that fit
    them as well (``cayley_twins``: relabellings as sparse) join the candidates;
    ``history["regular_superset_edges"]`` gives the edges of each. Combinatorial
    Laplacians without eigenvalue order or twin class."""
    if (basis["kind"] != "combinatorial" or basis["ordered"] or basis.get("twin_class")
            or ranked[0][0] >= B.n_pairs):
        return
    superset = regular_superset(B, basis, ranked[0][3])
    if superset is None:
        return
    graphs = [superset, *cayley_twins(basis, superset, laps, listing=True)]
    history["regular_superset_edges"] = [_list_candidate(laps, history, A, basis)
                                         for A in graphs]
    warn_at_caller(f"the eigenvectors fit the inferred graph ({ranked[0][0]} edges, equal "
                   f"weights, not regular) and, as exactly, a regular graph with equal "
                   f"weights that holds it ({history['regular_superset_edges'][0]} edges), "
                   f"and {len(graphs) - 1} relabelling(s) of it as a Cayley graph: they do "
                   f"not tell these graphs apart, and the sparsest is returned (the others "
                   f"are among the candidates)", AmbiguousGraphWarning)


def _report_candidate(laps, history, key, W, basis, message) -> None:
    """List the graph of weights ``W`` among the candidates (``_list_candidate``), set
    ``history[key]`` to its edge count, then warn (`AmbiguousGraphWarning`, at the
    caller of `infer_laplacian`) with ``message(edges)``."""
    history[key] = edges = _list_candidate(laps, history, W, basis)
    warn_at_caller(message(edges), AmbiguousGraphWarning)


def _list_candidate(laps, history, W, basis) -> int:
    """Append the graph of weights ``W`` to the candidates ``laps`` (last) and its edge
    count to ``history["candidate_edges"]``, unless a candidate has its edges already;
    return its edge count."""
    upper = sp.triu(W, 1)
    key = edge_key(upper)
    if all(laplacian_edge_key(L) != key for L in laps):
        laps.append(_laplacian(W, basis))
        history["candidate_edges"].append(int(upper.nnz))
    return int(upper.nnz)


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


def _components_result(basis, blocks: list[NodeBlock], tol, rng) -> InferredLaplacian:
    """One graph per block of a disconnected graph's basis, assembled.

    Each component is returned at the mean degree asked for (default 1); their
    relative scale is not identifiable, so ``family_dimension`` is the sum of those of
    the components with edges (isolated nodes have no scale). The components'
    candidates are combined into whole-graph candidates (``combined_choices``:
    ``history["candidate_choices"]`` gives each one's candidate of every component), and
    their warnings are given once, naming the components (``_component_warnings``).
    The complement of the whole graph never shares its eigenvectors (the basis holds
    each component's constant vector, which the complete graph's Laplacian mixes):
    ``complement_twin`` is false, and ``history["component_complement_twins"]`` lists
    the components whose own complement does.
    """
    V = basis["V"]
    n = V.shape[0]
    scale = basis["scale"] if basis["kind"] == "combinatorial" else None
    lists, n_edges, family_dimension, histories, twins = [], 0, 0, [], []
    caught = []
    for b, block in enumerate(blocks):
        if block.nodes.size < 3:             # an isolated node or one edge: determined
            sub = sp.csr_array(small_block_laplacian(block.nodes.size, basis["kind"],
                                                     1.0 if scale is None else scale))
            lists.append([sub])
            edges, family, history = block.nodes.size - 1, 1, {}
        else:
            with warnings.catch_warnings(record=True) as said:
                warnings.simplefilter("always")
                part = infer_laplacian(block.basis, laplacian=basis["kind"], tol=tol,
                                       scale=scale, rng=rng, progress=False)
            caught += [(b, w) for w in said]
            lists.append(part.candidates or [part.laplacian])
            edges, family, history = part.n_edges, part.family_dimension, part.history
            if part.complement_twin:
                twins.append(b)
        n_edges += edges
        family_dimension += family if edges else 0
        histories.append(history)
    _component_warnings(basis, blocks, caught)
    choices = combined_choices([len(options) for options in lists])
    candidates = [assembled_laplacian(n, blocks, [options[k] for options, k in
                                                  zip(lists, choice, strict=True)])
                  for choice in choices]
    L = candidates[0]
    eigenvalues, residual = _diagonal_fit(V, L)
    return InferredLaplacian(
        laplacian=L, eigenvalues=eigenvalues, n_edges=n_edges, residual=residual,
        laplacian_type=basis["kind"], nodelist=basis["nodelist"],
        family_dimension=family_dimension or 1, candidates=candidates,
        history={"components": [int(block.nodes.size) for block in blocks],
                 "component_histories": histories,
                 "component_candidates": [len(options) for options in lists],
                 "component_complement_twins": twins,
                 "candidate_choices": choices,
                 "candidate_edges": [int(sp.triu(C, 1).nnz) for C in candidates]})


def _component_warnings(basis, blocks: list[NodeBlock], caught) -> None:
    """The warnings ``caught`` (pairs of a block's index and a warning raised by its
    inference) given again at the caller, each distinct one once, naming the
    components that raised it by their size and first node."""
    labels = basis["nodelist"]
    named: dict[tuple, list[int]] = {}
    for b, w in caught:
        named.setdefault((w.category, str(w.message)), [])
        if b not in named[w.category, str(w.message)]:
            named[w.category, str(w.message)].append(b)
    for (category, message), which in named.items():
        parts = [f"{blocks[b].nodes.size} nodes from node "
                 f"{blocks[b].nodes[0] if labels is None else labels[blocks[b].nodes[0]]}"
                 for b in which]
        warn_at_caller(f"in {'components' if len(which) > 1 else 'component'} "
                       f"{', '.join(map(str, (b + 1 for b in which)))} of the {len(blocks)} "
                       f"the eigenvectors split into ({'; '.join(parts)}): {message} "
                       f"(the result's candidates hold each component's candidates with "
                       f"the other components' answers)", category)
