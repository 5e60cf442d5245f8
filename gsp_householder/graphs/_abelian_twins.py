"""Cayley graphs of an abelian group read off the eigenvectors: the twins of a Cayley graph.

A Cayley graph of an abelian group $A$ (a circulant, a torus $C_a \\times C_b$, a
circular ladder $C_m \\times K_2$) is diagonalised by the characters of $A$; every other
Cayley graph of $A$ whose eigenvalues are constant on its eigenspaces shares its
eigenvectors (the relabellings by automorphisms of $A$, multipliers of a circulant: a
twin, with as many edges and none of the same). A two-dimensional eigenspace spanned by
a character $\\chi$ of order $m$ and its conjugate has rows of one norm, $\\sqrt{2/n}$,
at angles $2 \\pi \\chi(x)$ that are multiples of $2 \\pi / m$, $n / m$ nodes on each; a
real character (order 2) is a column of entries $\\pm 1 / \\sqrt n$. Whatever basis of
such a plane is given (any rotation, and the conjugate), the angles number the nodes
by $k(x) = m \\chi(x)$ up to sign and an offset: set to 0 at one node, $x \\mapsto k(x)$
is a homomorphism from $A$ to $\\mathbb Z_m$. Planes whose numbers together tell every
node apart give $A$'s addition on the nodes, checked closed (``group_table``).

Each class $\\{s, -s\\}$ of nonzero elements gives the Cayley graph $x \\sim x \\pm s$
(``n`` or ``n / 2`` edges) and the off-diagonal part $O_s$ of $V^T L_s V$; a Cayley graph
with equal weights on the classes $S$ is diagonal in the basis to
$\\|\\sum_{s \\in S} O_s\\|_F$, a quadratic form of the indicator of $S$ in the Gram matrix
of the $O_s$. The connected ones with no more edges than the graph returned that fit
the eigenvectors as well (``_fits_as_well``) are other valid graphs the eigenvectors do
not tell from it (``cayley_twins``); listed beside the graph returned, every one that fits
them at its noise level is (``_fits_at_its_noise``).

Measured before this module (perturbed by 1e-4 and 3e-4, ``run_one`` of
``bench_inference_sweep.py``): ``circulant_graph(30, [1, 4])`` gave a 120-edge member
of its family (F1 0, the 60-edge circulant and its twins not among the candidates) and
``circular_ladder_graph(20)`` an equally sparse twin, with the family flag only.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._character_cliques import largest_compatible_sets
from gsp_householder.graphs._equal_sparsity import _floored_residuals
from gsp_householder.graphs._grid_twins import known_edges
from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _fits_as_well,
    _laplacian,
    _per_free_pair,
)
from gsp_householder.graphs._template_lp import edge_key
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT

#: Largest basis read: the off-diagonal parts $O_s$ of its at most $n / 2 + 1$ classes
#: are kept, $4 n^3$ bytes (108 MB at 300 nodes), and take $n^4 / 2$ flops (0.8 CPU s
#: on the 15 x 20 torus). Below 300 the twins of the tori $C_8 \times C_b$, $b \ge 19$,
#: were not read (the 8 x 20 torus, exact, shuffle 2: a 480-edge graph returned with no
#: warning while 320-edge Cayley graphs fit as well).
MAX_NODES = 300
#: Tolerance on the rows' squared norms of a character plane, relative to $2 / n$, and
#: on the angles, relative to their spacing $2 \\pi / m$.
PLANE_TOL = 0.25
#: Two columns are a plane only when the graph returned gives them eigenvalues within
#: this fraction of its largest (the circular ladder's modes $(k, 0)$ and $(k, 1)$,
#: eigenvalues 2 apart, make rows of one norm too).
EQUAL_EIGENVALUES = 1e-2
#: Subsets of classes tried at most (their residuals: one quadratic form each).
MAX_SUBSETS = 200_000
#: Twins listed at most, or one per node if more (a level's relabellings by the
#: automorphisms $x \mapsto ux$ of $\mathbb Z_n$ are fewer than $n$), sparsest first,
#: each number of edges whole but the last one listed (``_level_twins``):
#: $\mathbb Z_{70}$ has 12 connected Cayley graphs of 70 edges and 24 of 105 that fit
#: alike, the circular ladder $C_{35} \times K_2$ one of them; $\mathbb Z_{82}$ 20 and 40.
MAX_TWINS = 48
#: A subset's residual (relative to its Laplacian's norm) passes to the exact check
#: when within this factor of the graph returned's.
PREFILTER = 4.0


def _plane_numbers(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, int] | None:
    """The numbers $k(x) \\in \\mathbb Z_m$ of the nodes on the plane of columns ``a``,
    ``b`` (0 at node 0) and the order $m$, when the rows have one norm and angles on a
    regular $m$-gon with $n / m$ nodes at each corner; None otherwise."""
    n = a.size
    if np.abs(n * (a * a + b * b) - 2.0).max() > 2.0 * PLANE_TOL:
        return None
    theta = np.mod(np.arctan2(b, a) - np.arctan2(b[0], a[0]), 2.0 * np.pi)
    for m in range(3, n + 1):
        if n % m:
            continue
        scaled = theta * m / (2.0 * np.pi)
        k = np.rint(scaled).astype(np.int64) % m
        off = np.abs(scaled - np.rint(scaled)).max()
        if off <= PLANE_TOL and np.all(np.bincount(k, minlength=m) == n // m):
            return k, m
    return None


def _characters(V: np.ndarray, lam: np.ndarray | None) -> list[tuple[np.ndarray, int]]:
    """Numbers and orders of the nodes on every character plane (pairs of columns with
    eigenvalues ``lam`` within ``EQUAL_EIGENVALUES`` of the largest; any pair when
    ``lam`` is None) and real character (a column of entries $\\pm 1 / \\sqrt n$) of
    ``V``, longest order first, the closest eigenvalues first among equal orders."""
    n = V.shape[0]
    if lam is None:
        lam = np.zeros(n)  # every gap 0: any pair of columns
    close = EQUAL_EIGENVALUES * np.abs(lam).max()
    T = n * V * V
    found = []
    for i in range(n):
        col = T[:, i]
        if np.abs(col - 1.0).max() <= PLANE_TOL and abs(V[:, i].sum()) < 0.5 * np.sqrt(n):
            k = (np.sign(V[:, i]) != np.sign(V[0, i])).astype(np.int64)
            if 2 * k.sum() == n:
                found.append((k, 2, 0.0))
            continue
        if col.max() > 2.0 * (1.0 + PLANE_TOL):
            continue
        dev = np.abs(T[:, i + 1 :] + col[:, None] - 2.0).max(axis=0)
        gap = np.abs(lam[i + 1 :] - lam[i])
        for j in np.flatnonzero((dev <= 2.0 * PLANE_TOL) & (gap <= close)) + i + 1:
            numbered = _plane_numbers(V[:, i], V[:, j])
            if numbered is not None:
                found.append((*numbered, gap[j - i - 1]))
    found.sort(key=lambda c: (-c[1], c[2]))
    return [(k, m) for k, m, _ in found]


def _subgroup(K: np.ndarray, M: np.ndarray) -> bool:
    """Whether the distinct rows of the numbers ``K`` (moduli ``M``) are closed under
    addition and hold equally many nodes each, as the image of a homomorphism is a
    subgroup whose fibres are the cosets of its kernel."""
    rows, counts = np.unique(K, axis=0, return_counts=True)
    if np.ptp(counts) > 0:
        return False
    codes = _codes(rows, M)
    sums = _codes(((rows[:, None, :] + rows[None, :, :]) % M).reshape(-1, M.size), M)
    return bool(np.isin(sums, codes).all())


def _codes(K: np.ndarray, M: np.ndarray) -> np.ndarray:
    """The rows of the numbers ``K`` (moduli ``M``) as single integers (mixed radix),
    or as rows of bytes when the product of the moduli exceeds the integers."""
    if np.sum(np.log2(M.astype(float))) < 62:
        return np.ravel_multi_index(tuple(K.T), tuple(int(m) for m in M))
    return np.array([row.tobytes() for row in np.ascontiguousarray(K, dtype=np.int64)])


def group_table(V: np.ndarray, lam: np.ndarray | None) -> np.ndarray | None:
    r"""The addition of an abelian group on the nodes read off the characters of ``V``:
    ``table[x, y]`` is the node $x + y$ (node 0 the identity), or None when the
    characters found do not tell every node apart. The planes are pairs of columns with
    one eigenvalue of the graph returned, ``lam`` (``_characters``).

    A character joins the ones kept when it tells more nodes apart and the numbers kept
    stay those of a homomorphism (``_subgroup``): two columns of different planes can
    have rows of one norm too (the circular ladder's modes $(k, 0)$ and $(k, 1)$ differ
    by a sign on one side), and give numbers $\pm k(x)$ that no group addition fits.
    With ``lam`` None every pair of columns is tried (``cayley_twins``, when the graph
    returned gives a plane's two columns distinct eigenvalues)."""
    return _table_of(_characters(V, lam), V.shape[0])


def _table_of(characters: list[tuple[np.ndarray, int]], n: int) -> np.ndarray | None:
    """The addition read off ``characters`` (numbers and orders, in the order tried) as
    ``group_table`` reads it, or None when they do not tell the ``n`` nodes apart."""
    chosen, orders = [], []
    distinct = 1
    for k, m in characters:
        trial = np.column_stack([*chosen, k])
        M = np.asarray([*orders, m])
        size = np.unique(trial, axis=0).shape[0]
        if size > distinct and _subgroup(trial, M):
            chosen.append(k)
            orders.append(m)
            distinct = size
        if distinct == n:
            break
    if distinct < n:
        return None
    K = np.column_stack(chosen)
    M = np.asarray(orders)
    codes = _codes(K, M)
    order = np.argsort(codes)
    sums = _codes(((K[:, None, :] + K[None, :, :]) % M).reshape(-1, M.size), M)
    return order[np.searchsorted(codes[order], sums)].reshape(n, n)


def _homomorphism(table: np.ndarray, k: np.ndarray, m: int) -> bool:
    """Whether the numbers ``k`` (modulo ``m``) satisfy $k(x + y) = k(x) + k(y)$ in the
    group ``table``."""
    return bool(np.all(k[table] == (k[:, None] + k[None, :]) % m))


def group_tables(V: np.ndarray, lam: np.ndarray | None) -> list[np.ndarray]:
    """The additions of the abelian groups read off the characters of ``V``: those of
    the largest sets of planes (any pair of columns) that are the characters of one
    group (``largest_compatible_sets``; every plane of a set a homomorphism of the group
    read off it), each group once; failing any, the one ``group_table`` reads (the
    planes with one eigenvalue ``lam`` first, then any pair of columns).

    ``group_table`` reads greedily, and the planes it keeps may belong to several
    groups: on the 8 x 20 torus, exact, shuffle 0, it keeps planes of crossed halves of
    eigenspaces (13 planes are characters of the group it reads), and the Cayley graphs
    of that group hold neither the torus nor a twin of the graph returned (1600 edges,
    F1 0.167, returned with no warning); the torus's group is one of the four groups of
    21 planes each."""
    n = V.shape[0]
    characters = _characters(V, None)
    tables: list[np.ndarray] = []
    for members in largest_compatible_sets(characters):
        chosen = [characters[i] for i in members]
        table = _table_of(chosen, n)
        if table is None or any(np.array_equal(table, t) for t in tables):
            continue
        if all(_homomorphism(table, k, m) for k, m in chosen):
            tables.append(table)
    if tables:
        return tables
    table = group_table(V, lam)
    if table is None:
        table = _table_of(characters, n)  # group_table(V, None), its planes read above
    return [] if table is None else [table]


def _classes(table: np.ndarray) -> list[np.ndarray]:
    """The classes $\\{s, -s\\}$ of nonzero elements, each as the adjacency's pairs
    $(x, x + s)$ and $(x, x - s)$ given as an array of neighbours per row."""
    n = table.shape[0]
    inverse = np.argmax(table == 0, axis=1)
    seen, classes = set(), []
    for s in range(1, n):
        if s in seen:
            continue
        seen.update((s, int(inverse[s])))
        classes.append(np.unique([s, int(inverse[s])]))
    return classes


def _class_weights(table: np.ndarray, members: np.ndarray) -> sp.csr_array:
    """Unit weights of the Cayley graph $x \\sim x + s$, $s$ in ``members``."""
    n = table.shape[0]
    A = np.zeros((n, n))
    A[np.repeat(np.arange(n), members.size), table[:, members].ravel()] = 1.0
    A = np.maximum(A, A.T)
    np.fill_diagonal(A, 0.0)
    return sp.csr_array(A)


def cayley_twins(basis, W, candidates, *, listing: bool = False) -> list[sp.csr_array]:
    """Unit weights of the connected Cayley graphs of the abelian groups read off the
    eigenvectors (``group_tables``) with no more edges than the graph of weights ``W``
    (the graph returned), another edge set than it and than the Laplacians
    ``candidates``, that fit the eigenvectors as well (``_fits_as_well``), or, when
    ``listing``, at the noise level of ``W`` (``_fits_at_its_noise``: the twins that
    may stand beside ``W`` as candidates, not replace it); residuals floored at
    ``ROUNDING_FIT`` and taken per free pair (``_per_free_pair``); at most
    ``MAX_TWINS`` or $n$, sparsest first, each number of edges listed whole but the last
    (``_level_twins``; the levels of all groups read merged). Empty when no group is
    read (non-combinatorial or ordered bases, more than ``MAX_NODES`` nodes).

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph returned.
    candidates : list of scipy.sparse.csr_array
        The Laplacians already among the result's candidates.
    listing : bool, default False
        Keep the twins that fit at the noise level of ``W`` rather than as well as it.

    Returns
    -------
    list of scipy.sparse.csr_array
    """
    V = basis["V"]
    n = V.shape[0]
    if basis["kind"] != "combinatorial" or basis["ordered"] or n > MAX_NODES or n < 5:
        return []
    W = sp.csr_array(W)
    lam = _diagonal_fit(V, _laplacian(W, basis))[0]
    # a dense member of the family need not give a character plane's two columns one
    # eigenvalue (circular_ladder_graph(35) perturbed by 1e-3, draw 1: 1094 edges, one
    # plane of 35 kept): the planes are then read from the basis alone, their numbers
    # still checked to be a homomorphism and every twin to fit as well
    groups = [_class_forms(V, basis, table) for table in group_tables(V, lam)]
    if not groups:
        return []
    edges = sp.triu(W, 1).nnz
    # per free pair (``_per_free_pair``): a dense member fits its weights to the noise
    # on its own pairs (circular_ladder_graph(21) perturbed, draw 3: 423 edges of 861
    # pairs, residual 0.44 times the ladder's, rotation residual 0.98 times)
    reference = _per_free_pair(_floored_residuals(basis, W), edges, n * (n - 1) // 2)
    seen = known_edges(candidates, W)
    cap = max(MAX_TWINS, n)
    pool: dict[int, list[tuple[float, int, np.ndarray]]] = {}
    found: list[tuple[float, sp.csr_array]] = []
    totals = [0] * len(groups)
    done = [False] * len(groups)
    for size in range(1, max(len(g.classes) for g in groups) + 2):
        bound = edges + 1
        for index, group in enumerate(groups):
            # every subset of this group with fewer edges than its bound was scored
            if not done[index]:
                done[index] = size > len(group.classes) or group.sizes.min() * size > edges
            if not done[index]:
                totals[index] += comb(len(group.classes), size)
                done[index] = totals[index] > MAX_SUBSETS
            if not done[index]:
                for rel, level, subset in group.scored(size, n, edges, reference[0]):
                    pool.setdefault(level, []).append((rel, index, subset))
                bound = min(bound, group.sizes.min() * (size + 1))
        for level in sorted(e for e in pool if e < bound):
            room = cap - len(found)
            scored = pool.pop(level)
            fits = _fits_at_its_noise if listing else _fits_as_well
            listed, whole = _level_twins(basis, groups, scored, reference, seen, room, fits)
            found += listed
            if not whole or len(found) >= cap:
                return [A for _, A in found]
        if all(done):
            break
    return [A for _, A in found]


class _ClassForms:
    """The classes $\\{s, -s\\}$ of a group ``table`` (``_classes``), their edges
    (``sizes``), degrees, and the Gram matrix of the off-diagonal parts $O_s$ of
    $V^T L_s V$ (``gram``)."""

    def __init__(self, table, classes, gram):
        self.table = table
        self.classes = classes
        n = table.shape[0]
        self.sizes = np.array([n * c.size // 2 for c in classes])
        self.degrees = np.array([c.size for c in classes])
        self.gram = gram

    def scored(self, size: int, n: int, edges: int, reference: float):
        """``(residual, edges, subset)`` of the subsets of ``size`` classes with at most
        ``edges`` edges whose residual from the quadratic form (relative to their
        Laplacian's norm) is within ``PREFILTER`` of ``reference``."""
        count = len(self.classes)
        subsets = np.array(list(combinations(range(count), size)), dtype=np.int64)
        subsets = subsets[self.sizes[subsets].sum(axis=1) <= edges]
        if not subsets.size:
            return []
        r2 = np.zeros(len(subsets))
        for p in range(size):
            for q in range(size):
                r2 += self.gram[subsets[:, p], subsets[:, q]]
        # ||L_S||_F^2 = sum_x (d^2 + d) for unit weights: the degree adds over the classes
        d = self.degrees[subsets].sum(axis=1)
        rel = np.sqrt(np.maximum(r2, 0.0)) / np.sqrt(n * (d * d + d))
        level = self.sizes[subsets].sum(axis=1)
        keep = np.flatnonzero(rel <= PREFILTER * max(reference, 1e-12))
        return [(float(rel[t]), int(level[t]), subsets[t]) for t in keep]


def _class_forms(V: np.ndarray, basis: dict, table: np.ndarray) -> _ClassForms:
    """The classes of the group ``table`` and the Gram matrix of their $O_s$."""
    classes = _classes(table)
    offs = []
    for c in classes:
        A = _class_weights(table, c)
        L = sp.diags_array(np.asarray(A.sum(axis=1)).ravel()) - A
        M = V.T @ (L @ V)
        np.fill_diagonal(M, 0.0)
        offs.append(M.ravel())
    F = np.asarray(offs)
    return _ClassForms(table, classes, F @ F.T)


def _fits_at_its_noise(residuals, reference) -> bool:
    """Whether a Cayley twin of residuals ``residuals`` (residual and rotation residual,
    ``_laplacian_fit._residuals``) fits the eigenvectors at the noise level that the
    graph returned shows, ``reference``: both within ``RESIDUAL_CONSISTENT`` of its own,
    the factor within which a residual is taken as the noise's.

    When the twin and the graph returned both have these eigenvectors, the rotation by
    which the noise moves the basis leaves each a rotation residual of one expectation,
    $\\sqrt 2 \\sigma$, whatever their eigenvalues, and the ratio of the two is the
    noise's alone: with the same rotation $S$ of i.i.d. entries, the 9-cycle relabelled
    by the multiplier 2 has 1.26 times the 9-cycle's rotation residual at the 90th
    percentile and 1.52 at the 99th (20000 draws of $S$); on the 9-cycle perturbed by
    1e-3 (draw 0) the truth fits 1.47 times worse than its twin at unit weights, 1.57
    times worse than the twin returned with weights fitted to the noise, and
    ``_fits_as_well`` (``RESIDUAL_SLACK``) left it out of the twins: a wrong answer with
    no warning. A twin without these eigenvectors leaves the residual of a rotation of
    order one: the other 48-edge Cayley graphs of the 4 x 6 torus's group fit its
    perturbed basis (draw 3) 300 to 630 times worse than the torus. The slack is for
    listing only: a graph found that fits badly (there a weighted 49-edge member, 500
    times the torus's residual) would let twins as bad replace it
    (``_cayley_sparser`` keeps ``_fits_as_well``)."""
    return (
        residuals[0] <= RESIDUAL_CONSISTENT * reference[0]
        and residuals[1] <= RESIDUAL_CONSISTENT * reference[1]
    )


def _level_twins(
    basis, groups, scored, reference, seen, room: int, fits=_fits_as_well
) -> tuple[list[tuple[float, sp.csr_array]], bool]:
    """The Cayley graphs of one number of edges (``scored``: a residual from the
    quadratic form, a group's index in ``groups`` and a subset of its classes) that are
    connected, new (not in
    ``seen``, which they join) and fit the eigenvectors as well (``fits``, by default
    ``_fits_as_well``),
    best fitting first, at most ``room`` of them, with whether the level was listed
    whole.

    The graphs of a level fit alike (the truth is one of them as often as not), so the
    levels are listed whole, sparsest first, and only the last one listed is cut to the
    room left. At most ``2 * max(room, MAX_TWINS)`` graphs of a level are checked
    exactly for each group read (the best by the quadratic form): the graphs of several
    groups that fit fit alike, and a budget shared by the groups cut the torus's own
    level on the 8 x 23 torus (51 of its 63 twins listed).

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    groups : list of _ClassForms
        The groups read (``group_tables``) and their classes $\\{s, -s\\}$.
    scored : list of tuple
        ``(residual, group index, subset)`` for each subset of classes of this level.
    reference : tuple of float
        Floored residuals of the graph returned, per free pair (``_per_free_pair``).
    seen : set
        Edge keys already listed; the twins listed join it.
    room : int
        Twins that may still be listed.
    fits : callable
        ``fits(residuals, reference)``: whether a twin fits.

    Returns
    -------
    list of tuple
        ``(rotation residual, unit weights)`` of the twins listed.
    bool
        Whether the level was listed whole.
    """
    scored.sort(key=lambda c: c[0])
    listed = []
    checked = 2 * max(room, MAX_TWINS) * len(groups)
    for _, index, subset in scored[:checked]:
        group = groups[index]
        members = np.concatenate([group.classes[c] for c in subset])
        A = _class_weights(group.table, members)
        key = edge_key(sp.triu(A, 1))
        if key in seen or connected_components(A, directed=False)[0] > 1:
            continue
        n = A.shape[0]
        res = _floored_residuals(basis, A)
        res = _per_free_pair(res, sp.triu(A, 1).nnz, n * (n - 1) // 2)
        if fits(res, reference):
            listed.append((res[1], A, key))
    listed.sort(key=lambda f: f[0])
    seen.update(key for _, _, key in listed[:room])
    whole = len(scored) <= checked and len(listed) <= room
    return [(r, A) for r, A, _ in listed[:room]], whole
