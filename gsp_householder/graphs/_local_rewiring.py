"""A sparser graph at a noise level by the eigenvalues of the columns supported on a few nodes.

Columns supported on a few nodes (``_local_columns``: pendant paths hanging on one node,
twins) have eigenvalues that enter only the entries among those nodes, so the graph
returned by a noisy search can be rewired there without changing how it fits the other
columns. Two pendant paths of two nodes $h - a_1 - a_2$ and $h - b_1 - b_2$ on one node
$h$ give two columns supported on $\\{a_1, a_2, b_1, b_2\\}$ (the antisymmetric
vectors); the tree with eigenvalues $0.382$ and $2.618$ on them and the equal-weight
graph with $1.382$ and $3.618$, whose edges there are $a_1 b_2$, $a_2 b_1$, $a_2 b_2$
instead of $a_1 a_2$, $b_1 b_2$ (one cycle, one edge more), share every eigenvector.
``random_labeled_tree(100, seed=0)`` perturbed by 1e-3 gave that graph (100 edges for
99, F1 0.975, no warning; rotation residual 1.019e-4 against the tree's 1.030e-4): the
noisy families of the rankings hold the tree, their linear-program vertices do not
reach it, and below ``LADDER_MAX_N`` nodes the local columns are not searched apart
(the exact families' ``sparser_member`` does not run on noisy ones).

``sparser_on_local_columns`` sets those eigenvalues to the sparsest entries among each
group's nodes (``sparsest_entries``) at a few tolerances in units of the noise level
(``TOLERANCE_FACTORS``: the entries' spread is not known to better than a few times),
changes only the entries among the groups' nodes, and keeps the sparsest graph that is
connected, has fewer edges than the graph found, fits the eigenvectors as well
(``_fits_as_well``) and has equal weights to the noise level, as the graph found must
have: with weights free, a sparser rewiring among a few nodes is always at hand and
says nothing about the graph (Les Miserables perturbed, draws 10 and 12: the edges
Listolier-Zephine, Fameuil-Zephine and Blacheville-Dahlia of a clique of twins,
weight 3 each, replaced by Blacheville-Zephine of twice their weight; F1 0.986 ->
0.982).
A group of many columns (the sibling leaves of several parents mixed by the eigensolver:
``full_rary_tree(3, 120)`` perturbed, groups of 36 columns on 39 nodes) is solved by the
smaller systems of its columns' supports (``_nested_supports``), in turn, each kept only
when it leaves fewer edges among the group's pairs (``_fewer_edges``), and the subsets of
pairs drawn hold a pair for every column (``transversal_subsets``).
No $n \\times n$ matrix is formed: only the pairs among the groups' nodes are computed.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import hashlib
from itertools import combinations
from math import comb

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _equal_graph_fits,
    _equal_within_noise,
    _laplacian,
    _residuals,
)
from gsp_householder.graphs._local_columns import local_groups
from gsp_householder.graphs._nested_supports import column_supports, nested_systems
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._thresholds import FAMILY_SEARCH_MAX_N

#: Per-node tolerances of the groups' entries, in units of the noise level times the
#: node's scale $s_i = \\sqrt{(\\tilde L^2)_{ii}}$ (``PairBasis.node_scale``); the
#: sparsest graph that fits is kept. With the groups' linear program (``sparsify_local``)
#: instead of ``sparsest_entries``, a factor 10 (or the search's ``CLEAN_FACTOR`` = 30)
#: left one extra edge among a group's nodes on the perturbed random trees of 150 and
#: 300 nodes (seeds 6 and 2), 3 none, 1 too many edges (noise entries read as edges).
TOLERANCE_FACTORS = (1.0, 3.0, 10.0)
#: Subsets of pairs solved per group (all of them up to this many, else this many drawn).
MAX_SUBSETS = 4096
#: Smallest entry of a column's pair rows, relative to its largest, of a pair the column
#: moves (``transversal_subsets``): the products of a noisy column's entries outside its
#: support are about the noise times its entries, $10^{-3}$ of them at a noise of 1e-3.
TOUCHES = 1e-2
#: Subsets drawn per system nested in a group (``_sparser_systems``): each is drawn
#: with a pair for every column, and a system has a few columns.
NESTED_SUBSETS = 512
#: Passes over the systems nested in a group (``_sparser_systems``).
NESTED_PASSES = 2
#: Subsets solved at once.
SUBSET_BLOCK = 256
#: Entries of the subsets' pseudo-inverses kept during one ``sparser_on_local_columns``
#: (``subset_inverses``): 8 million, 64 MB.
KEPT_INVERSE_ENTRIES = 8_000_000


def sparser_on_local_columns(basis, B: PairBasis, W, noise: float) -> sp.csr_array | None:
    """The weights of the sparsest graph that differs from ``W`` only among the nodes of
    the local columns' groups (``local_groups``) and fits the eigenvectors as well, or
    None (module docstring).

    Parameters
    ----------
    basis : dict
        The read basis (``V``, ``V_anchored``, ``zero_column``, ``kind``, ``scale``).
    B : PairBasis
        Its pair basis (one unknown per column, no eigenvalue order).
    W : sparse array
        Symmetric weights of the graph found.
    noise : float
        The noise level the graph was found at; 0 (exact eigenvectors, or a graph that
        does not fit them to it) returns None.

    Returns
    -------
    scipy.sparse.csr_array or None
        Symmetric weights of the sparser graph.
    """
    if (noise <= 0.0 or basis["kind"] != "combinatorial" or B.G is not None or B.ordered
            or B.n > FAMILY_SEARCH_MAX_N or basis.get("twin_class")):
        return None
    W = sp.csr_array(W)
    m = sp.triu(W, 1).nnz
    if m <= B.n - 1 or m >= B.n_pairs:
        # a tree is the sparsest; the complete graph is no answer to rewire
        return None
    if not _equal_within_noise(basis, W, noise):
        # with weights free, a sparser rewiring among a few nodes is always at hand and
        # tells nothing (Les Miserables perturbed: three edges of a clique of twins
        # replaced by one of twice their weight, two true edges lost)
        return None
    groups = _local_only(B)
    if not groups:
        return None
    L = _laplacian(W, basis)
    free = np.delete(np.arange(B.n), basis["zero_column"])
    lam = _diagonal_fit(basis["V_anchored"], L)[0][free]
    lam = lam * (B.n / (B.mult @ lam))                  # trace n, as the searches'
    I = np.concatenate([grp.i for grp in groups])
    J = np.concatenate([grp.j for grp in groups])
    # L_ij is the entry of B.matrix (trace n) times u_i u_j and the trace of L over n
    uu = B.u[I] * B.u[J] * (L.diagonal().sum() / B.n)
    scale = B.node_scale(lam)
    rows = [B.rows(grp.i, grp.j) for grp in groups]
    reference = _residuals(basis, W)
    unit = _unit(L, W)
    tols = [factor * noise * scale for factor in TOLERANCE_FACTORS]
    # each group's subsets solved once for every tolerance (the solutions do not
    # depend on it, only which of them is sparsest)
    nested = [_nested(B, grp) for grp in groups]
    # a group too large for every subset is solved by the systems of its columns'
    # supports (the whole group's among them if a column spans it)
    chosen = [[None] * len(tols) if inner and comb(grp.i.size, grp.cols.size) > MAX_SUBSETS
              else sparsest_entries(R[:, grp.cols], R @ lam - R[:, grp.cols] @ lam[grp.cols],
                                    [tol[grp.i] + tol[grp.j] for tol in tols],
                                    max(1e-5, noise))
              for grp, R, inner in zip(groups, rows, nested, strict=True)]
    best = None
    # the nested systems' subsets, solved once for every pass and every call on ``B``
    kept = KeptInverses(parent=kept_with_basis(B))
    for level, tol in enumerate(tols):
        lam2 = lam.copy()
        for grp, R, xs, inner in zip(groups, rows, chosen, nested, strict=True):
            limit = -2.0 * (tol[grp.i] + tol[grp.j])
            if xs[level] is not None and _fewer_edges(R, lam2, grp.cols, xs[level], limit):
                lam2[grp.cols] = xs[level]
            _sparser_systems(grp, R, inner, lam2, tol, limit, max(1e-5, noise), kept)
        entries = np.concatenate([R @ lam2 for R in rows]) * uu
        edge = -entries > 2.0 * (tol[I] + tol[J]) * uu
        A = _rewired(W, I, J, np.where(edge, -entries, 0.0) / unit)
        edges = sp.triu(A, 1).nnz
        if (edges >= (m if best is None else best[0])
                or not _equal_graph_fits(basis, A, reference, noise)):
            continue
        best = (edges, A)
    return None if best is None else best[1]


def _fewer_edges(R, lam, cols, x, limit) -> bool:
    """Whether setting the eigenvalues of the columns ``cols`` to ``x`` leaves fewer
    edges among a group's pairs (rows ``R``) than the eigenvalues ``lam``: entries
    below ``limit`` (minus twice the pair's tolerance, as ``sparser_on_local_columns``
    reads them).

    The groups have no node in common, so each group's eigenvalues are kept or not on
    its own, and a system that does not reach sparser entries is not kept beside one
    that does: ``full_rary_tree(3, 120)`` perturbed, draw 0, has groups of 36 columns
    on 39 nodes whose subsets left 45 to 151 edges among their pairs.
    """
    new = lam.copy()
    new[cols] = x
    return int(np.count_nonzero(R @ new < limit)) < int(np.count_nonzero(R @ lam < limit))


def _nested(B, grp) -> list:
    """The systems nested in the group ``grp`` (``nested_systems``: each column's
    support, the columns inside it and the pairs among its nodes) as ``(columns,
    positions of the group's pairs)``."""
    position = np.searchsorted(grp.nodes, np.stack([grp.i, grp.j]))
    supports = column_supports(B.V[np.ix_(grp.nodes, grp.cols)])
    return [(grp.cols[inner], pairs)
            for inner, pairs in nested_systems(supports, position[0], position[1])]


def _sparser_systems(grp, R, systems, lam, tol, limit, floor,
                     kept: KeptInverses | None = None) -> None:
    """Set, in place in ``lam``, the eigenvalues of each system nested in the group
    ``grp`` (``_nested``, largest first) to its sparsest entries at the tolerance
    ``tol`` (``sparsest_entries``, the group's other eigenvalues at ``lam``) when they
    leave fewer edges among the group's pairs (rows ``R``; ``limit``, ``_fewer_edges``).
    A second pass follows a change: a system solved beside another's old eigenvalues
    may need the new ones (the sibling leaves of two swapped subtrees beside the
    subtrees' own columns). ``kept``: the systems' subsets and pseudo-inverses kept
    between the passes and the tolerances (``subset_inverses``).

    While the group's pairs hold no edge at ``lam`` (no entry below ``limit``), no
    system is solved: no eigenvalues leave fewer edges than none, so ``_fewer_edges``
    would keep none of the solutions, and ``lam`` would not change. A hub's leaves
    (twins with no edge among them) give such groups: on the perturbed
    ``random_internet_as_graph(150, seed=25)``, draw 0, 2 237 of the 3 605 systems
    solved.
    """
    if not _holds_edges(R, lam, limit):
        return
    for _ in range(NESTED_PASSES):
        changed = False
        for cols, pairs in systems:
            Rp = R[pairs]
            base = Rp @ lam - Rp[:, cols] @ lam[cols]
            slack = tol[grp.i[pairs]] + tol[grp.j[pairs]]
            x = sparsest_entries(Rp[:, cols], base, [slack], floor, NESTED_SUBSETS, kept)[0]
            if x is not None and _fewer_edges(R, lam, cols, x, limit):
                lam[cols] = x
                changed = True
                if not _holds_edges(R, lam, limit):
                    return
        if not changed:
            return


def _holds_edges(R, lam, limit) -> bool:
    """Whether a group's pairs (rows ``R``) hold an edge at the eigenvalues ``lam``: an
    entry below ``limit``, as ``_fewer_edges`` counts them (the same product)."""
    return bool(np.any(R @ lam < limit))


def _local_only(B: PairBasis) -> list:
    """The groups of local columns of ``B`` (``local_groups``) that leave out some node.

    A group whose columns span every node is not local: its subsets of pairs are drawn
    from all of them, and a sparser graph is not hit so (the 25 columns of
    ``margulis_gabber_galil(6)`` perturbed, on its 36 nodes: 0.5 CPU s for nothing).
    """
    return [grp for grp in (B.local_groups or local_groups(B))
            if np.union1d(grp.i, grp.j).size < B.n]


def _unit(L, W) -> float:
    """The factor $c$ with $L_{ij} = -c W_{ij}$ off the diagonal (``_laplacian``)."""
    C = sp.triu(W, 1).tocoo()
    return float(-np.asarray(L[C.row, C.col]).ravel() @ C.data / (C.data @ C.data))


def _rewired(W, I, J, weights) -> sp.csr_array:
    """``W`` with the weights of the pairs ``(I, J)`` (``I < J``) replaced by ``weights``
    (zeros drop the pair)."""
    C = sp.triu(W, 1).tocoo()
    n = W.shape[0]
    touched = np.isin(C.row.astype(np.int64) * n + C.col, I.astype(np.int64) * n + J)
    keep = weights > 0
    rows = np.concatenate([C.row[~touched], I[keep]])
    cols = np.concatenate([C.col[~touched], J[keep]])
    data = np.concatenate([C.data[~touched], weights[keep]])
    U = sp.coo_array((data, (rows, cols)), shape=W.shape)
    return sp.csr_array(U + U.T)


def sparsest_entries(A, base, slacks, floor, draws: int = MAX_SUBSETS,
                     kept: KeptInverses | None = None) -> list[np.ndarray | None]:
    """For each of ``slacks``, the eigenvalues ``x`` (at least ``floor``) of a group's
    columns that leave the most entries ``base + A x`` within that slack of zero, all of
    them at most the slack; then the smallest $\\ell_1$ norm of the entries. None where
    no subset tried is feasible.

    Each subset of $k$ pairs (``A`` has $k$ columns) is solved for zero entries there,
    once for every slack: every subset when there are at most ``MAX_SUBSETS``, else
    ``draws`` of them, each with a pair for every column (``transversal_subsets``). The
    entries found within a slack are then solved to zero together (least squares), kept
    if still feasible. A linear program ($\\ell_1$, ``sparsify_local``) ends at a vertex
    that depends on the last bits of its input: on the perturbed tree of 150 nodes
    (seed 6) at one edge more or not.

    ``kept``: the subsets of ``A`` and their pseudo-inverses (``subset_inverses``) kept
    between calls with the same ``A`` and ``draws`` (only ``base`` and the slacks
    change); the same arrays, so the same answers as without it.
    """
    p, k = A.shape
    if p < k:
        return [None] * len(slacks)
    best = [-np.inf] * len(slacks)
    found: list[np.ndarray | None] = [None] * len(slacks)
    for block, inverse in subset_inverses(A, draws, kept):
        X = np.einsum("sij,sj->si", inverse, -base[block])
        E = base + X @ A.T
        size = np.abs(E).sum(axis=1)
        tie = size / (2.0 * size.max() + 1e-300)
        above = (X >= floor).all(axis=1)
        for level, slack in enumerate(slacks):
            score = (np.abs(E) <= slack).sum(axis=1) - tie
            score[~(above & (E <= slack).all(axis=1))] = -np.inf
            s = int(np.argmax(score))
            if score[s] > best[level]:
                best[level], found[level] = float(score[s]), X[s]
    return [None if x is None else _zeroed(A, base, x, slack, floor)
            for x, slack in zip(found, slacks, strict=True)]


class KeptInverses:
    """The blocks of ``subset_inverses`` kept by a digest of ``A`` and ``draws``, up to
    ``max_entries`` pseudo-inverse entries in all (``KEPT_INVERSE_ENTRIES``: 64 MB).

    ``parent``: a larger store consulted first and filled first while it has room (the
    one kept with the basis, ``kept_with_basis``); this one then holds what it cannot.
    """

    def __init__(self, max_entries: int | None = None, parent: KeptInverses | None = None):
        self.blocks: dict = {}
        self.entries = 0
        self.max_entries = KEPT_INVERSE_ENTRIES if max_entries is None else int(max_entries)
        self.parent = parent

    @staticmethod
    def key(A, draws) -> tuple:
        """The key of ``A`` and ``draws``: shape, draws and a digest of the bytes."""
        digest = hashlib.blake2b(np.ascontiguousarray(A).tobytes(), digest_size=32).digest()
        return A.shape, int(draws), digest

    def get(self, key) -> list | None:
        """The blocks kept under ``key`` (here or in the parent), or None."""
        if self.parent is not None and key in self.parent.blocks:
            return self.parent.blocks[key]
        return self.blocks.get(key)

    def room(self, entries: int) -> bool:
        """Whether ``entries`` more pseudo-inverse entries can be kept (here or in the
        parent)."""
        if self.parent is not None and self.parent.room(entries):
            return True
        return self.entries + entries <= self.max_entries

    def keep(self, key, blocks: list) -> None:
        """Keep ``blocks`` under ``key``: in the parent if it has room, else here."""
        entries = sum(inverse.size for _, inverse in blocks)
        if self.parent is not None and self.parent.room(entries):
            self.parent.keep(key, blocks)
            return
        self.blocks[key] = blocks
        self.entries += entries


def kept_with_basis(B: PairBasis) -> KeptInverses:
    """The ``KeptInverses`` of the basis ``B`` (``PairBasis.inverses``), made on first
    use: the subsets and pseudo-inverses of ``subset_inverses`` depend on ``A`` alone,
    and the calls of ``sparser_on_local_columns`` on one basis (the graph found, each
    tree of ``_spanning_tree.tree_behind``) solve the same groups' systems again
    (perturbed ``random_internet_as_graph(150, seed=25)``, draw 0: 10 calls that reach
    the systems, 36 332 subsets each)."""
    if B.inverses is None:
        B.inverses = KeptInverses()
    return B.inverses


def subset_inverses(A, draws: int, kept: KeptInverses | None = None):
    """The blocks of subsets of pairs that ``sparsest_entries`` solves on ``A`` ($p
    \\times k$) and the pseudo-inverses of their rows, as ``(subsets, pinv)`` pairs:
    every subset of $k$ rows when there are at most ``MAX_SUBSETS``, else ``draws``
    ``transversal_subsets``, ``SUBSET_BLOCK`` subsets a block. Without ``kept`` the
    blocks are computed one at a time as they are read (a bound on the entries held at
    once).

    With ``kept``, the blocks of an ``A`` and ``draws`` seen before are taken from it
    (``KeptInverses``), and new ones are kept there while it has room (else computed
    one at a time). The subsets and the pseudo-inverses depend on ``A`` alone, and
    ``_sparser_systems`` solves each system of a group once per tolerance and pass with
    the same ``A`` (on the perturbed ``random_internet_as_graph(150, seed=25)``: 445
    solves of 108 systems, 9.3 of 21 CPU s): the same arrays, computed once.
    """
    key = None if kept is None else KeptInverses.key(A, draws)
    found = None if key is None else kept.get(key)
    if found is not None:
        return found
    p, k = A.shape
    if comb(p, k) <= MAX_SUBSETS:
        S = np.array(list(combinations(range(p), k)), dtype=np.intp)
    else:
        S = transversal_subsets(A, draws)
    blocks = ((S[start:start + SUBSET_BLOCK], np.linalg.pinv(A[S[start:start + SUBSET_BLOCK]]))
              for start in range(0, len(S), SUBSET_BLOCK))
    if key is None or not kept.room(len(S) * k * k):
        return blocks
    blocks = list(blocks)
    kept.keep(key, blocks)
    return blocks


def transversal_subsets(A, count: int) -> np.ndarray:
    """``count`` subsets of $k$ of the ``p`` pairs (rows of ``A``, $p \\times k$), each
    holding for every column a distinct pair that the column moves (an entry of at least
    ``TOUCHES`` times the column's largest), drawn with a fixed seed.

    A subset determines the $k$ eigenvalues only if every column moves one of its
    entries: a column supported on two nodes moves one pair alone, and uniform subsets
    of a group of many such columns miss most of them. The columns pick their pairs in
    the order of their number of pairs, the fewest first; a column left without an
    unused pair of its own takes any unused pair.
    """
    p, k = A.shape
    rng = np.random.default_rng(0)
    moves = np.abs(A) >= TOUCHES * np.abs(A).max(axis=0, initial=0.0)
    S = np.empty((count, k), dtype=np.intp)
    used = np.zeros((count, p), dtype=bool)
    rows = np.arange(count)
    for c in np.argsort(moves.sum(axis=0), kind="stable"):
        own = np.flatnonzero(moves[:, c])
        pick = own[np.argmax(rng.random((count, own.size)) - 2.0 * used[:, own], axis=1)]
        taken = np.flatnonzero(used[rows, pick])
        if taken.size:
            other = rng.random((taken.size, p)) - 2.0 * used[taken]
            pick[taken] = np.argmax(other, axis=1)
        S[:, c] = pick
        used[rows, pick] = True
    return S


def _zeroed(A, base, x, slack, floor) -> np.ndarray:
    """``x`` with the entries ``base + A x`` within ``slack`` of zero solved to zero
    together (least squares), if the result is still at least ``floor`` and leaves every
    entry at most ``slack``; else ``x``."""
    e = base + A @ x
    zero = np.abs(e) <= slack
    exact = x + np.linalg.lstsq(A[zero], -e[zero], rcond=None)[0]
    if exact.min() >= floor and np.all(base + A @ exact <= slack):
        return exact
    return x
