"""Sparser equal-weight graphs at the valid cone's vertices of extreme eigenvalues.

With repeated eigenvalues the exact eigenvectors of a symmetric graph are shared by a
family of valid graphs, and the rankings of the pairs can settle on a denser member:
``margulis_gabber_galil(6)`` (36 nodes, 108 edges) gave a weighted graph of 250 edges
whose eigenspaces join true ones (the grouped search on them cannot represent the
truth), sharing 68 edges with it; ``LCF_graph(48, [7, -7, 13, -13], 12)`` (84 edges)
an equal-weight graph of 192 edges with none of its edges, whose edge rows leave 17
exact null directions (``_disjoint_member`` takes one). Neither truth lies in the
family of the graph found, and the reweighted and random objectives of that family
(``sparse_vertices``) never leave it.

The valid eigenvalue vectors form a polyhedral cone (one inequality $a_{ij}^T \\lambda
\\le 0$ per pair). Minimising one eigenvalue $\\lambda_k$ over its slice
$\\{\\mathrm{mult}^T \\lambda = n, \\lambda \\ge \\text{floor}\\}$ reaches a vertex
where that eigenvector's eigenvalue is as small as the other eigenvalues allow, which on
these graphs is often the sparse graph itself: the true Laplacian was the vertex of 6 of
the 35 such programs of the first graph above and of 10 of the 47 of the second (the
columns whose true eigenvalue is among the smallest). ``sparser_extreme_members`` solves
these programs in turn on one HiGHS model (``WarmProgram``: only the objective changes,
each solve starts from the last optimal basis) and returns the vertices whose edges with
equal weights form a connected graph with fewer edges than the graph found that fits the
eigenvectors exactly (``FITS_EXACTLY``); the caller puts the sparsest first. Vertices at
the floor carry edges of weights down to 1e-8 beside heavy ones (a 98-edge "graph" on
the Margulis basis): the equal-weight fit rejects them, so only unweighted graphs are
found this way.

Some truths are the vertex of no minimised eigenvalue but of a maximised one, that of
their largest eigenvalue: ``LCF_graph(56, [9, -9, 15, -15], 14)`` (98 edges behind an
equal-weight graph of 112 sharing none of them) and Mycielski(6) (236 edges behind a
weighted function of the truth with as many). On exact eigenvectors, when the minimised
eigenvalues give no member reached by ``CONFIRMING_PROGRAMS`` programs, the programs
maximising one eigenvalue are solved too, the graph found's largest eigenvalue first;
on noisy ones when the minimised eigenvalues give no member, as many as the noisy scan
solves.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._dense_lp import OPTIMAL, RowGeneratedProgram, WarmProgram
from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _equal_graph_fits,
    _equal_within_noise,
    _laplacian,
    _residual,
    _residuals,
    equal_weights,
)
from gsp_householder.graphs._noisy_vertex import node_split, noisy_vertex_graph
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._regular_family import DEFAULT_FLOOR
from gsp_householder.graphs._template_lp import EQUAL_WEIGHTS_CV, adjacency, edge_key
from gsp_householder.graphs._thresholds import FITS_EXACTLY

#: Largest basis searched: the programs hold every pair row ($n(n-1)/2$ rows of $n - 1$
#: unknowns; 2016 x 63 at 64 nodes).
EXTREMES_MAX_N = 64
#: A sparsest member reached by fewer programs than this is returned with a warning.
CONFIRMING_PROGRAMS = 2
#: Until a sparser graph is found the programs stop at the graph found reached a
#: second time, at this many returns to a vertex reached before that is not sparser
#: (the graph found, or another graph with equal weights that the eigenvectors
#: diagonalise, none sparser than it), or at this many
#: vertices in a row whose edges above ``LP_ACCURACY`` of the largest leave the graph
#: split, each reached before.
MAX_STRIKES = 3


def scan_question(found, noise: float = 0.0, family_dimension: int = 0) -> tuple:
    """What ``sparser_extreme_members`` reads of the graph found and the noise, as a
    key: within one inference (one pair basis and validated basis) two scans with the
    same key solve the same programs and read the same vertices, so the caller may
    keep the first one's answer (``laplacian_inference._extreme_first``).

    The programs depend on the pair basis only; of ``found`` the scan reads its edge
    count, whether its weights are unequal (``EQUAL_WEIGHTS_CV``), its edges and, on
    noisy eigenvectors, the residuals of its weights (``_residuals``) and its family's
    dimension (the noisy scan's number of programs): the key holds the edge count, that
    flag, the weights' every entry, ``noise`` and ``family_dimension``.

    Parameters
    ----------
    found : tuple
        The graph found, ``(n_edges, weight_cv, lam, W)``.
    noise : float, default 0.0
        The eigenvectors' noise level passed to the scan.
    family_dimension : int, default 0
        The dimension of the family of the graph found passed to the scan.

    Returns
    -------
    tuple
        A hashable key; equal keys are equal questions.
    """
    W = sp.csr_array(found[3], copy=True)
    W.sum_duplicates()
    W.sort_indices()
    return (
        int(found[0]),
        bool(found[1] > EQUAL_WEIGHTS_CV),
        W.shape,
        W.indptr.tobytes(),
        W.indices.tobytes(),
        W.data.tobytes(),
        float(noise),
        int(family_dimension),
    )


def largest_first(basis, W) -> np.ndarray:
    """The eigenvalue unknowns (the columns but the zero-eigenvalue one) in descending
    order of their eigenvalue in the graph of weights ``W`` (the diagonal of $V^T L V$)."""
    lam = _diagonal_fit(basis["V"], _laplacian(W, basis))[0]
    return np.argsort(-np.delete(lam, basis["zero_column"]), kind="stable")


class ExtremeScan(NamedTuple):
    """What one scan of extreme members read behind a graph found.

    Attributes
    ----------
    members : list
        The sparser equal-weight graphs as candidate items (``sparser_extreme_members``).
    reached : int
        The number of programs whose vertex was the sparsest member (0 without one).
    equal_weight_fits : list
        Behind a graph found with unequal weights (``EQUAL_WEIGHTS_CV`` on exact
        eigenvectors, ``_equal_within_noise`` at the scan's level on noisy ones), the
        other vertices reached whose edges with equal weights form a connected graph,
        not sparser, that fits the eigenvectors as a member must (``FITS_EXACTLY``, or
        ``_equal_graph_fits`` against the graph found's residuals), as candidate items
        in the order reached; empty behind an equal-weight graph found.
    """

    members: list
    reached: int
    equal_weight_fits: list


def sparser_extreme_members(
    B: PairBasis, basis, found, noise: float = 0.0, family_dimension: int = 0
) -> tuple[list, int]:
    """``(members, reached)`` of ``extreme_scan``: the sparser connected equal-weight
    graphs at the valid cone's vertices of extreme eigenvalues and the number of
    programs that reached the sparsest (see ``extreme_scan``)."""
    scan = extreme_scan(B, basis, found, noise, family_dimension)
    return scan.members, scan.reached


def extreme_scan(
    B: PairBasis, basis, found, noise: float = 0.0, family_dimension: int = 0
) -> ExtremeScan:
    """Candidate items ``(n_edges, 0.0, lam, A)`` of the connected graphs with equal
    weights ``A`` and fewer edges than ``found`` (a candidate item; as many when
    ``found`` has unequal weights) that the exact
    eigenvectors diagonalise (residual at most ``FITS_EXACTLY``), at the vertices of the
    programs minimising one eigenvalue each over the valid cone, each edge set once, and
    the number of programs whose vertex is the sparsest of them; ``([], 0)`` for other
    than combinatorial Laplacians, with the eigenvalue order or grouped unknowns, and
    above ``EXTREMES_MAX_N`` nodes.

    Until a member is found, the programs stop as ``MAX_STRIKES`` says; once the graph
    found is beaten, every column's program is solved. On exact eigenvectors, unless the
    sparsest member was so reached by ``CONFIRMING_PROGRAMS`` programs, the programs
    maximising one eigenvalue follow, in descending order of the graph found's
    eigenvalues (``largest_first``), with the same stops but split vertices (on
    Mycielski(6) 28 split vertices come before the truth), and the counts of both
    kinds of program are added. A graph found with unequal weights is beaten by an
    equal-weight one with as many edges too.

    From eigenvectors with ``noise`` above zero, a vertex's graph is its entries above
    the noise (``noisy_vertex_graph``) and a member is a graph with fewer edges than
    ``found`` that is connected and fits the eigenvectors as well as ``found``
    (``_equal_graph_fits``: residuals within the slacks of ``found``'s): the unit
    cycle of 40 nodes with a chord perturbed by 1e-3, draws 0 and 2, where the noisy
    searches end at an equal-weight graph of 57 edges and the truth (41 edges, rotation
    residual 1.001 and 0.96 times the 57 edges') is the vertex of 4 of the 39
    programs on each. The scan ends at the first member reached a second time.

    Behind a graph found with equal weights to the noise (``_equal_within_noise``) on
    noisy eigenvectors, the programs run in descending order of the graph found's
    eigenvalues (``largest_first``) and, until a member is found, at most
    ``max(family_dimension, MAX_STRIKES)`` of them, with no other stop: where the
    graph found is the truth no program's vertex is a member and every program was
    solved (the Minnesota ball of 60 nodes, 59 programs); where it is a denser graph
    with the truth's eigenvectors, the truth was the vertex of the programs of its
    largest eigenvalues (the audit cycle(40) with a chord: its 4 largest of 39).
    When those minimised programs find no member, as many programs maximising one
    eigenvalue follow, largest first (behind a graph found with unequal weights too):
    the perturbed ``LCF_graph(56, [9, -9, 15, -15], 14)``, where the truth, 98 edges,
    fits as well as an equal-weight graph of 112 or a weighted one of 210 and is the
    vertex of the first or second of them.

    Parameters
    ----------
    B : PairBasis
        The pair basis of the eigenvectors (one unknown per column).
    basis : dict
        The validated basis (``_read_basis``).
    found : tuple
        The graph found, ``(n_edges, weight_cv, lam, W)``.
    noise : float, default 0.0
        The eigenvectors' noise level (``history["noise"]``), 0 for exact ones.
    family_dimension : int, default 0
        The dimension of the family of the graph found (the noisy scan's number of
        programs until a member, behind an equal-weight graph found).

    Behind a graph found with unequal weights, the vertices reached that are no
    members but whose equal-weight graphs fit as a member must are kept too
    (``ExtremeScan.equal_weight_fits``): the pairs at distance 2 of ``GP(15, 4)``, 90
    edges with equal weights, the vertex of the first program behind a graph of 75
    edges with weights 1 and 2 that fits them as exactly; the scan's stops are not
    changed for them.

    Returns
    -------
    ExtremeScan
        The sparser graphs as candidate items (``lam`` the vertex's eigenvalues), in
        the order of the programs, the number of programs that reached the sparsest,
        and the equal-weight graphs that fit as well behind a weighted graph found.
    """
    if (
        basis["kind"] != "combinatorial"
        or basis["ordered"]
        or B.G is not None
        or B.n > EXTREMES_MAX_N
        or found[0] <= B.n - 1
    ):
        return ExtremeScan([], 0, [])
    # a graph found with unequal weights yields to an equal-weight one as sparse, as
    # the rankings' candidates do (``candidate_order``): Mycielski(6), 236 edges each;
    # on noisy eigenvectors only to a sparser one (no graph has equal weights exactly)
    weighted = found[1] > EQUAL_WEIGHTS_CV and noise <= 0.0
    reference = _residuals(basis, found[3]) if noise > 0.0 else None
    members, reached = {}, {}
    unit = np.eye(B.g)  # program k minimises eigenvalue k
    # behind an equal-weight graph found on noisy eigenvectors, its largest eigenvalues
    # first and a number of programs until a member (``largest_first``)
    top = noise > 0.0 and _equal_within_noise(basis, found[3], noise)
    order = largest_first(basis, found[3]) if top else np.arange(B.g)
    programs = max(int(family_dimension), MAX_STRIKES)
    unequal = found[1] > EQUAL_WEIGHTS_CV if noise <= 0.0 else not top
    scan = _Scan(B, basis, found, noise, reference, weighted, unequal)
    scan.run(unit[order], programs if top else None, members, reached)
    if not _confirmed(members, reached) and (noise <= 0.0 or not members):
        # the truth can be the vertex of a program maximising one eigenvalue only, of
        # its largest eigenvalue, the graph found's largest or second largest
        # (``LCF_graph(56, [9, -9, 15, -15], 14)``, shuffles 0-3: 98 edges behind an
        # equal-weight graph of 112, the vertex of no minimised eigenvalue;
        # Mycielski(6): the truth behind a weighted graph of as many edges): those
        # programs are solved too, largest first (``largest_first``), on exact
        # eigenvectors with the same stops but split vertices; on noisy ones when the
        # minimised programs found no member, at most as many as the noisy scan's
        # (the perturbed LCF(56), draws 1 and 2: the truth the vertex of the first or
        # second maximised program behind an equal-weight graph of 112 edges and a
        # weighted one of 210)
        limit = programs if noise > 0.0 else None
        scan.run(-unit[largest_first(basis, found[3])], limit, members, reached, False)
    fits = list(scan.equal_weight_fits.values())
    if not members:
        return ExtremeScan([], 0, fits)
    sparsest = min(members, key=lambda key: members[key][0])
    return ExtremeScan(list(members.values()), reached[sparsest], fits)


def _confirmed(members: dict, reached: dict) -> bool:
    """Whether the sparsest of ``members`` was the vertex of ``CONFIRMING_PROGRAMS``
    programs or more (False when there is none)."""
    if not members:
        return False
    sparsest = min(members, key=lambda key: members[key][0])
    return reached[sparsest] >= CONFIRMING_PROGRAMS


def pair_program(B: PairBasis) -> tuple:
    """The scan's linear program over the eigenvalues of ``B``'s groups: every pair row
    non-positive (``A_ub``, ``b_ub``), the eigenvalues summing to ``n`` with their
    multiplicities (``A_eq``, ``b_eq``), and each at least ``DEFAULT_FLOOR`` (bounds)."""
    i, j = B.upper()
    return (
        B.rows(i, j),
        np.zeros(i.size),
        B.mult[None, :],
        np.array([float(B.n)]),
        np.full(B.g, DEFAULT_FLOOR),
        np.full(B.g, np.inf),
    )


class _Scan:
    """The programs of one scan of ``sparser_extreme_members`` over one HiGHS model and
    what their vertices are read as: ``run`` solves a list of objectives with the scan's
    stops and records the members and the vertices reached."""

    def __init__(
        self,
        B: PairBasis,
        basis,
        found,
        noise: float,
        reference,
        weighted: bool,
        unequal: bool = False,
    ):
        program = pair_program(B)
        if noise > 0.0:
            # no pair row is zero at a vertex of noisy eigenvectors: each program is a
            # dense solve, made over the rows it needs (``RowGeneratedProgram``), from the
            # point of equal eigenvalues
            self.program = RowGeneratedProgram(*program, np.full(B.g, B.n / B.mult.sum()))
        else:
            self.program = WarmProgram(*program)
        self.B, self.basis, self.found, self.noise = B, basis, found, noise
        self.reference, self.weighted = reference, weighted
        self.tol = np.full(B.n, 1e-9 * B.n)
        self.own = edge_key(found[3])
        # behind a graph found with unequal weights: the equal-weight graphs that fit as
        # a member must but are no sparser, by edge key
        self.unequal = unequal
        self.equal_weight_fits: dict = {}

    def run(
        self,
        objectives: np.ndarray,
        limit: int | None,
        members: dict,
        reached: dict,
        split_stops: bool = True,
    ) -> None:
        """Solve the programs of ``objectives`` (rows) in turn, adding to ``members`` (edge
        key to candidate item) and ``reached`` (edge key to the number of programs whose
        vertex it was) in place; until a member is found, stop after ``limit`` programs
        (if not None) or as ``MAX_STRIKES`` says, counted within this run (split
        vertices only if ``split_stops``)."""
        B, basis, noise = self.B, self.basis, self.noise
        strikes, split, seen = 0, 0, set()
        split_seen = set()  # the split vertices reached in this run
        for count, objective in enumerate(objectives):
            if not members and (
                count == limit
                if limit is not None
                else strikes == MAX_STRIKES or (split_stops and split == MAX_STRIKES)
            ):
                break
            status, lam = self.program.solve(objective)
            if status != OPTIMAL:
                continue
            if noise > 0.0:
                A = noisy_vertex_graph(B, basis, lam, noise)
            else:
                A = equal_weights(adjacency(B, lam, self.tol))
            key = edge_key(A)
            if key in reached:
                # a vertex that is not sparser counts from its second time in a run, as
                # a split one does: the graph found and denser exact graphs come before
                # the truth in some orders of the columns (the exact cycle(30) with a
                # chord (0, 11), shuffles 1 and 2: three denser graphs, or the graph
                # found, first); the graph found reached again is taken as the sparsest
                reached[key] += 1
                if key not in seen:
                    seen.add(key)
                    continue
                if key == self.own and not members:
                    break
                strikes += key not in members
                if noise > 0.0 and key in members:
                    # on noisy eigenvectors every program costs a dense solve (no pair
                    # row is zero at the start): a member confirmed ends the scan (the
                    # cycle(60) with a chord perturbed, draw 0: the truth the vertex of
                    # the 8th and 9th programs of 60, 0.4 CPU s to 6 with every program)
                    break
                continue
            edges = sp.triu(A, 1).nnz
            parts, labels = connected_components(A, directed=False)
            if parts > 1:
                # the trace goes to a column on a few nodes (adjacent twins), the others
                # stay at the floor, and every program ends at that vertex: a split
                # vertex counts from its second time (the exact cycle(40) with a chord,
                # shuffle 1: three different split vertices first, the truth the sixth
                # program's); on noisy eigenvectors no two vertices have the same edges,
                # and a vertex is known by the split of the nodes it leaves
                # (``node_split``)
                split_key = key if noise <= 0.0 else node_split(labels)
                split += split_key in split_seen
                split_seen.add(split_key)
                continue
            split = 0
            seen.add(key)
            if key == self.own:
                # the graph found is a vertex too: not the sparsest for that (the exact
                # cycle(30) with a chord, shuffle 2: the truth the vertex of later
                # programs)
                reached[key] = 1
                continue
            if noise > 0.0:
                if not _equal_graph_fits(basis, A, self.reference, noise):
                    continue
            elif _residual(basis, A) > FITS_EXACTLY:
                continue
            reached[key] = 1
            if edges < self.found[0] or (self.weighted and edges == self.found[0]):
                members[key] = (edges, 0.0, lam, A)
            elif self.unequal:
                self.equal_weight_fits[key] = (edges, 0.0, lam, A)
