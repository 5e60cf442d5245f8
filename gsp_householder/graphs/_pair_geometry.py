"""Pair rows of an eigenbasis: every off-diagonal Laplacian entry is linear in the eigenvalues.

For an orthonormal basis whose column $u$ has eigenvalue 0 (the constant vector for a
combinatorial Laplacian, $D^{1/2}\\mathbf 1$ normalised for a normalized one) and whose
other columns $V$ carry unknown eigenvalues $\\lambda$, the scaled entry
$\\tilde L_{ij} = L_{ij} / (u_i u_j)$ is $a_{ij}^T \\lambda$ with the pair row
$a_{ij} = \\tilde V_i \\circ \\tilde V_j$, $\\tilde V = \\operatorname{diag}(1/u) V$.
Non-edges put their rows on the hyperplane orthogonal to $\\lambda$. The scaling makes
$a_{ij}^T \\mathbf 1 = -1$ for every pair, so the direction $\\mathbf 1$ (the complete
graph) can be removed by centring: the non-edge rows of a set $S$ satisfy
$(a_{ij} - \\bar a_S)^T \\delta = 0$ for the centred part $\\delta$ of $\\lambda$.

The Gram matrix of all pairs has the closed form
$M = \\tfrac12\\big((\\tilde V^T \\tilde V)^{\\circ 2} - \\tilde Z^T \\tilde Z\\big)$,
$\\tilde Z = \\tilde V \\circ \\tilde V$, so the Gram of "all pairs except a set $C$"
costs $O(|C| g^2)$. Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg
from scipy.linalg import lapack
from scipy.linalg.blas import dsyrk

#: Largest number of pair-row entries built at once (128 MB).
MAX_ROW_ENTRIES = 1 << 24
#: Entries of the blocks in which ``PairBasis.free_rows`` gathers and multiplies rows
#: (256 KB: the two gathered blocks stay in cache while they are multiplied).
PRODUCT_BLOCK_ENTRIES = 1 << 15
#: Grams of complements kept per basis by ``complement_gram`` (each $g^2$ floats).
GRAM_CACHE = 3
#: Matrices $\\tilde L(\\lambda)$ kept per basis by ``PairBasis.matrix`` (each $n^2$ floats).
MATRIX_CACHE = 4
#: Tridiagonal reductions kept per basis by ``SmallestEigenpairs`` (each $g^2$ floats).
REDUCTION_CACHE = 2
#: From this many nodes ``complement_gram`` updates a kept Gram of a nearby set
#: (``nearby_gram``) instead of downdating the Gram of all pairs (the searches of
#: ``_thresholds.LADDER_MAX_N`` nodes and fewer keep their Grams bit for bit).
NEARBY_GRAM_MIN_N = 501


@dataclass
class PairBasis:
    """The scaled free columns of a basis, grouped into eigenvalue unknowns.

    Attributes
    ----------
    V : ndarray of shape (n, q)
        $\\tilde V$: the columns other than the zero-eigenvalue one, rows scaled by $1/u_i$.
    G : ndarray of shape (q, g) or None
        Column-to-unknown indicator (columns sharing an eigenvalue); None for one
        unknown per column.
    mult : ndarray of shape (g,)
        Columns per unknown.
    ordered : bool
        Unknowns are in ascending order of eigenvalue.
    u : ndarray of shape (n,)
        The zero-eigenvalue vector (positive entries).
    M : ndarray of shape (g, g)
        Gram matrix of all pair rows.
    total : ndarray of shape (g,)
        Sum of all pair rows.
    local_groups : list
        Groups of columns supported on a few nodes (``_local_columns.LocalGroup``), set
        by the caller; empty by default.
    grams : list
        ``(pair codes, PairGram)`` of the last complements ``complement_gram`` built,
        most recently asked first.
    matrices : list
        ``(lambda bytes, matrix)`` of the last ``MATRIX_CACHE`` results of ``matrix``.
    reductions : list
        Weak references to the last ``REDUCTION_CACHE`` ``SmallestEigenpairs`` that
        reduced their matrix, most recent last: older ones drop their reduction.
    local_free : tuple or None
        ``(pair codes, PairGram)`` of ``local_free_gram``: the Gram of all pairs but
        those among the nodes of the local columns, with its reductions.
    diagonal : tuple or None
        The singular value decomposition of the centred diagonal map, once computed
        (``_regular_family._diagonal_svd``).
    work : dict
        The memory of ``row_buffer``, ``column_buffer``, ``square_buffer`` and
        ``gram_sum_buffer`` (one flat array each).
    rankings : dict
        The leverage rankings of ``_ranking_ladder._ladder`` (deterministic up to
        ``LADDER_MAX_N`` nodes) by their trimming, and the first rounds they share by
        their number of directions, and its fitted rankings by their key: kept between
        the ladders of one basis (the capped ladder after the uncapped one, the refit
        levels, the fitted rankings searched before and after the leverage ladder),
        which ask for the same ones.
    failed_searches : dict
        The prefix searches of this basis that found nothing, by what their outcome
        depends on (``_failed_searches``): replayed, not made again.
    doubling_grams : dict
        The Grams of the doubling sizes of the last prefix searches, by their order of
        pairs and start (``_doubling_grams``): the same order searched again downdates
        nothing.
    upper_pairs : tuple or None
        ``upper()`` once formed (read-only index arrays).
    inverses : _local_rewiring.KeptInverses or None
        The subsets of pairs and their pseudo-inverses that ``sparser_on_local_columns``
        solved on this basis (``_local_rewiring.kept_with_basis``), kept for its later
        calls.
    span_rows : list
        ``(digest, products)`` of the last large pair rows of a span
        (``_span_rows.span_pair_rows``), most recently asked first.
    symmetric : bool
        ``matrix`` forms $\\tilde L(\\lambda)$ by ``symmetric_product`` (half the flops,
        exactly symmetric) instead of a general product, whose rounding differs; set by
        the caller.
    starts : ndarray of int or None
        With ``G``: the first column of every unknown, when the columns of each unknown
        are consecutive in ``V`` (as ``pair_basis`` orders them) and none is empty; the
        pair rows are then column sums over these runs (``numpy.add.reduceat``, $O(q)$
        per pair) instead of a product with ``G`` ($O(q g)$ per pair).
    """

    V: np.ndarray
    G: np.ndarray | None
    mult: np.ndarray
    ordered: bool
    u: np.ndarray
    M: np.ndarray
    total: np.ndarray
    local_groups: list = field(default_factory=list)
    symmetric: bool = False
    starts: np.ndarray | None = None
    grams: list = field(default_factory=list, repr=False, compare=False)
    matrices: list = field(default_factory=list, repr=False, compare=False)
    reductions: list = field(default_factory=list, repr=False, compare=False)
    local_free: tuple | None = field(default=None, repr=False, compare=False)
    diagonal: tuple | None = field(default=None, repr=False, compare=False)
    work: dict = field(default_factory=dict, repr=False, compare=False)
    rankings: dict = field(default_factory=dict, repr=False, compare=False)
    failed_searches: dict = field(default_factory=dict, repr=False, compare=False)
    doubling_grams: dict = field(default_factory=dict, repr=False, compare=False)
    upper_pairs: tuple | None = field(default=None, repr=False, compare=False)
    inverses: Any = field(default=None, repr=False, compare=False)
    span_rows: list = field(default_factory=list, repr=False, compare=False)

    @property
    def n(self) -> int:
        return self.V.shape[0]

    @property
    def g(self) -> int:
        return self.mult.size

    @property
    def n_local(self) -> int:
        """Number of local columns (``local_groups``): exact null directions of every
        set of pairs that leaves out the pairs among their nodes."""
        return sum(len(grp.cols) for grp in self.local_groups)

    @property
    def n_pairs(self) -> int:
        return self.n * (self.n - 1) // 2

    @property
    def null_floor(self) -> float:
        """Rounding level of the Gram's eigenvalues: below it a direction fits exactly."""
        return 1e-11 * float(np.trace(self.M)) / self.g

    def cluster(self, mu0) -> float:
        """Directions fitting within 10x the best one (or to rounding) are near-null."""
        return 10.0 * float(mu0) + self.null_floor

    def columns(self, lam):
        """Eigenvalue of every free column from the unknowns."""
        return lam if self.G is None else self.G @ lam

    def equal_eigenvalues(self) -> np.ndarray:
        """The unknowns of equal eigenvalues at the trace ``n``."""
        return np.full(self.g, self.n / self.mult.sum())

    def node_scale(self, lam) -> np.ndarray:
        """$s_i = \\sqrt{(\\tilde L(\\lambda)^2)_{ii}}$: the size of the error a perturbed
        basis puts on the entries of row $i$ of $\\tilde L(\\lambda)$."""
        return np.sqrt(np.abs((self.V * self.V) @ self.columns(lam ** 2)))

    def matrix(self, lam, out=None):
        """$\\tilde L(\\lambda) = \\tilde V \\operatorname{diag}(\\lambda) \\tilde V^T$ (dense,
        read-only: the last ``MATRIX_CACHE`` are kept and returned again for the same
        ``lam``, which the candidate searches ask for several times).

        ``out``: an ``(n, n)`` buffer, Fortran-ordered with ``symmetric`` and C-ordered
        otherwise, in which a matrix used once is formed (the same numbers, bit for bit);
        the cache is then neither read nor filled.
        """
        lam = np.ascontiguousarray(lam, dtype=np.float64)
        if out is not None:
            w = self.columns(lam)
            if self.symmetric:
                return symmetric_product(self.V, w, out=out, work=self.column_buffer())
            return np.matmul(self.V * w, self.V.T, out=out)
        key = lam.tobytes()
        for k, (known, L) in enumerate(self.matrices):
            if known == key:
                self.matrices.insert(0, self.matrices.pop(k))
                return L
        if self.symmetric:
            L = symmetric_product(self.V, self.columns(lam), work=self.column_buffer())
        else:
            L = (self.V * self.columns(lam)) @ self.V.T
        L.setflags(write=False)
        self.matrices.insert(0, (key, L))
        del self.matrices[MATRIX_CACHE:]
        return L

    def row_buffer(self, rows: int) -> np.ndarray:
        """A C-ordered ``(rows, q)`` buffer for pair rows, kept with the basis (grown when
        more rows are asked for): chunks of many pair rows reuse memory that is already
        mapped instead of allocating, faulting in and zeroing it again on every call.
        One user at a time: the contents are valid until the next call."""
        q = self.V.shape[1]
        return self._flat("rows", rows * q)[:rows * q].reshape(rows, q)

    def column_buffer(self) -> np.ndarray:
        """A flat buffer of ``V.size`` floats kept with the basis, in which
        ``symmetric_product`` scales the columns of $\\tilde V$ (an $n \\times q$ array
        per product otherwise: above 32 MB, glibc maps fresh memory for each, which the
        kernel faults in and zeroes). One user at a time, as ``row_buffer``."""
        return self._flat("columns", self.V.size)

    def square_buffer(self, m: int) -> np.ndarray:
        """A C-ordered ``(m, m)`` buffer kept with the basis (grown when needed), for the
        Gram of one chunk of pair rows before it is added to a sum. One user at a time."""
        return self._flat("square", m * m)[:m * m].reshape(m, m)

    def gram_sum_buffer(self, m: int) -> np.ndarray:
        """A second kept ``(m, m)`` buffer, for a sum of chunk Grams
        (``_sampled_ranking.sample_gram``) while ``square_buffer`` holds each chunk's."""
        return self._flat("sum", m * m)[:m * m].reshape(m, m)

    def _flat(self, name: str, size: int) -> np.ndarray:
        buffer = self.work.get(name)
        if buffer is None or buffer.size < size:
            self.work[name] = None
            buffer = self.work[name] = np.empty(size, dtype=self.V.dtype)
        return buffer

    def free_rows(self, i, j, out=None) -> np.ndarray:
        """The products ``V[i] * V[j]`` of the free columns, the same numbers built
        block by block: each block of rows is gathered from ``V`` and multiplied while it
        is in cache, so that neither gathered copy is formed whole (two arrays as large
        as the result, which large bases would allocate, fault in and stream from memory
        on every call).

        ``out``: a C-ordered buffer of at least ``len(i)`` rows; its first ``len(i)``
        rows are filled and returned (a fresh array when None). The indices are node
        indices (in range): they are gathered with ``mode="wrap"``, the same rows, since
        ``take`` with ``out`` and its default ``mode="raise"`` gathers into a temporary
        buffer and copies it (twice the time of the gather).
        """
        V = self.V
        m, q = len(i), V.shape[1]
        R = np.empty((m, q), dtype=V.dtype) if out is None else out[:m]
        step = max(1, PRODUCT_BLOCK_ENTRIES // max(q, 1))
        other = np.empty((min(step, m), q), dtype=V.dtype)
        for s in range(0, m, step):
            e = min(m, s + step)
            np.take(V, i[s:e], axis=0, out=R[s:e], mode="wrap")
            np.take(V, j[s:e], axis=0, out=other[:e - s], mode="wrap")
            np.multiply(R[s:e], other[:e - s], out=R[s:e])
        return R

    def rows(self, i, j, out=None):
        """Pair rows $a_{ij}$ for index arrays ``i``, ``j``.

        ``out``: a buffer for the products of the free columns (see ``free_rows``);
        with grouped unknowns the returned group sums are a fresh array, unless every
        unknown has one column (an ordered basis of a simple spectrum): its sums are the
        products themselves, returned as they are (``numpy.add.reduceat`` over runs of
        one column copies each entry, 30 times the time of the product at 199 columns).
        """
        R = self.free_rows(i, j, out)
        if self.G is None or (self.starts is not None and self.starts.size == R.shape[1]):
            return R
        if self.starts is not None:
            return np.add.reduceat(R, self.starts, axis=1) if len(R) else R @ self.G
        return R @ self.G

    def row_chunks(self, i, j):
        """``rows(i, j)`` in consecutive chunks of at most ``MAX_ROW_ENTRIES`` entries,
        built in one buffer: a chunk is valid until the next one is asked for."""
        step = max(1, MAX_ROW_ENTRIES // max(self.V.shape[1], 1))
        buffer = self.row_buffer(min(step, len(i)))
        for s in range(0, len(i), step):
            yield self.rows(i[s:s + step], j[s:s + step], out=buffer)

    def products(self, i, j, Lam):
        """$a_{ij}^T \\Lambda$ for index arrays ``i``, ``j`` (rows of ``rows(i, j) @ Lam``).

        More than ``MAX_ROW_ENTRIES`` row entries: if the pairs outnumber ``8 n`` per
        column, each column is read off the dense matrix $\\tilde L(\\lambda)$
        ($O(n^2 g)$ each, BLAS-3; formed in one buffer as ``matrix`` forms it, but not
        kept in its cache, which these directions would fill); otherwise the rows are
        built in chunks. Grouped unknowns: the products of the column rows with
        ``columns(Lam)`` (no group sums). The rows are built in ``row_buffer`` (at most
        ``MAX_ROW_ENTRIES`` entries, as the chunks): the pair rows of a span or of all
        pairs (32 MB at n = 200) are formed again and again, and a fresh array of that
        size is memory the kernel maps and zeroes on every call.
        """
        q = self.V.shape[1]
        if len(i) * q > MAX_ROW_ENTRIES and len(i) > 8 * self.n * Lam.shape[1]:
            out = np.empty((len(i), Lam.shape[1]))
            buffer = np.empty((self.n, self.n), order="F" if self.symmetric else "C")
            for k in range(Lam.shape[1]):
                out[:, k] = self.matrix(Lam[:, k], out=buffer)[i, j]
            return out
        W = self.columns(Lam)
        step = max(1, MAX_ROW_ENTRIES // max(q, 1))
        if len(i) <= step:
            buffer = self.row_buffer(len(i))
            if len(i) == self.n_pairs and self._all_pairs(i, j):
                return self._upper_rows(out=buffer) @ W
            return self.free_rows(i, j, out=buffer) @ W
        out = np.empty((len(i), W.shape[1]))
        buffer = self.row_buffer(step)
        for s in range(0, len(i), step):
            e = min(len(i), s + step)
            # written in place: the same product, without a fresh chunk (24 MB at n = 1000
            # and 178 directions, faulted in and copied 30 times per span)
            np.matmul(self.free_rows(i[s:e], j[s:e], out=buffer), W, out=out[s:e])
        return out

    def upper(self):
        """Row and column indices of all pairs $i < j$ (``numpy.triu_indices(n, 1)``),
        formed once per basis and returned read-only: the searches, rankings and
        candidate checks ask for them hundreds of times per inference (0.2-0.5 ms each
        at n = 200)."""
        if self.upper_pairs is None:
            i, j = np.triu_indices(self.n, 1)
            i.setflags(write=False)
            j.setflags(write=False)
            self.upper_pairs = (i, j)
        return self.upper_pairs

    def _all_pairs(self, i, j) -> bool:
        """Whether ``(i, j)`` are all pairs in the order of ``upper``."""
        ui, uj = self.upper()
        return np.array_equal(i, ui) and np.array_equal(j, uj)

    def _upper_rows(self, out=None) -> np.ndarray:
        """The rows of the free columns of all pairs in the order of ``upper``, node by
        node (row $a$ of $\\tilde V$ times the rows after it): ``V[i] * V[j]``, the same
        products, without gathering two copies of $\\tilde V$'s rows. ``out``: a
        C-ordered buffer of at least ``n_pairs`` rows (see ``free_rows``)."""
        V, n = self.V, self.n
        R = np.empty((self.n_pairs, V.shape[1])) if out is None else out[:self.n_pairs]
        s = 0
        for a in range(n - 1):
            np.multiply(V[a], V[a + 1:], out=R[s:s + n - 1 - a])
            s += n - 1 - a
        return R


def symmetric_product(V, w, out=None, work=None) -> np.ndarray:
    """$V \\operatorname{diag}(w) V^T$, exactly symmetric, in half the flops of a general
    product: the columns of positive and of negative ``w`` are two symmetric rank-k
    updates (BLAS ``syrk``) of the upper triangle, which is then copied to the lower one
    in place (``mirror_upper``).

    ``out``: a Fortran-ordered ``(n, n)`` array to write into (its contents are
    overwritten), for a caller that needs one product at a time. Returns the product as
    a C-contiguous array (the transpose of the Fortran-ordered result, equal to it).
    """
    n = V.shape[0]
    if out is None:
        C = np.zeros((n, n), order="F")
    else:
        C = out
        C.fill(0.0)
    for sign, part in ((1.0, w > 0), (-1.0, w < 0)):
        if part.any():
            scale = np.sqrt(sign * w[part])
            if work is None:
                A = V[:, part] * scale
            else:
                A = work[:n * scale.size].reshape(n, scale.size)
                np.compress(part, V, axis=1, out=A)
                np.multiply(A, scale, out=A)
            C = dsyrk(sign, A.T, beta=1.0, c=C, trans=1, lower=0, overwrite_c=1)
    return mirror_upper(C).T


#: Columns per block of ``mirror_upper``.
MIRROR_BLOCK = 256


def mirror_upper(C) -> np.ndarray:
    """Copy the upper triangle of the square Fortran-ordered ``C`` to its lower triangle,
    in place, by blocks of ``MIRROR_BLOCK`` columns; returns ``C``.

    The values are those of ``C + C.T`` with the diagonal halved when the lower triangle
    of ``C`` holds zeros (as ``syrk`` of the upper triangle leaves it), bit for bit:
    $x + 0 = x$ for every $x$ that is not $-0$ (a sum started at $+0$ never is), and
    $(x + x) / 2 = x$; without the temporary $n \\times n$ sum and its transposed read.
    """
    n = C.shape[0]
    for s in range(0, n, MIRROR_BLOCK):
        e = min(s + MIRROR_BLOCK, n)
        C[s:e, :s] = C[:s, s:e].T
        block = C[s:e, s:e]
        lower = np.tril_indices(e - s, -1)
        block[lower] = block.T[lower]
    return C


def centred_gram(M, mean, k, work=None) -> np.ndarray:
    """$M - k\\,\\bar a \\bar a^T$ plus its mean diagonal times $\\mathbf 1 \\mathbf 1^T$,
    symmetrised: ``C = M - k * np.outer(mean, mean)``, ``C += (trace(C) / g) * ones``,
    ``0.5 * (C + C.T)``, bit for bit, in two $g \\times g$ arrays instead of six (adding
    ``x * 1.0`` is adding ``x``). ``work``: a ``(g, g)`` buffer for ``C`` (then only the
    result is a fresh array). The result is exactly symmetric ($x + y = y + x$)."""
    g = M.shape[0]
    C = np.outer(mean, mean, out=work)
    C *= k
    np.subtract(M, C, out=C)
    C += max(np.trace(C), 1e-300) / g                           # lift 1
    out = np.add(C, C.T)
    out *= 0.5
    return out


def tridiagonal(C) -> tuple:
    """LAPACK ``dsytrd`` of the lower triangle of the symmetric ``C``: the reduced
    matrix (reflectors below the subdiagonal), diagonal, subdiagonal and reflector
    scalars. The workspace is the one ``dsyevr`` passes to it (its own less $5g$), which
    sets the block size and so the rounding: the reduction that
    ``scipy.linalg.eigh(C, driver="evr")`` starts with."""
    g = C.shape[0]
    lwork = int(lapack.dsyevr_lwork(g, lower=1)[0]) - 5 * g
    c, d, e, tau, info = lapack.dsytrd(C, lower=1, lwork=lwork)
    if info != 0:
        raise np.linalg.LinAlgError(f"dsytrd failed (info {info})")
    return c, d, e, tau


def smallest_eigenpairs(reduced, r) -> tuple[np.ndarray, np.ndarray]:
    """The ``r`` smallest eigenpairs of ``C`` from ``tridiagonal(C)``, ``r`` below its
    order: ``dsyevr``'s steps after the reduction (bisection ``dstebz``, inverse
    iteration ``dstein``, back-transformation by the reflectors with ``dsyevr``'s
    workspace, its selection sort), so the same numbers, bit for bit, as
    ``scipy.linalg.eigh(C, subset_by_index=[0, r - 1], driver="evr")`` (with OpenBLAS's
    Haswell, Zen and Nehalem kernels; its SandyBridge kernels can round the reduction
    otherwise, which gives the same eigenpairs to rounding), and asking for more pairs of
    one matrix does not reduce it again ($4 g^3 / 3$ flops, most of the cost)."""
    c, d, e, tau = reduced
    g = d.size
    m, w, iblock, isplit, info = lapack.dstebz(d, e, 2, 0.0, 0.0, 1, r, 0.0, b"B")
    if info != 0:
        raise np.linalg.LinAlgError(f"dstebz failed (info {info})")
    w = w[:m].copy()
    z, info = lapack.dstein(d, e, w, iblock, isplit)
    if info != 0:
        raise np.linalg.LinAlgError(f"dstein failed (info {info})")
    Z = np.asfortranarray(z[:, :m])
    lwork = int(lapack.dsyevr_lwork(g, lower=1)[0]) - 2 * g
    Z[1:], _, info = lapack.dormqr(b"L", b"N", c[1:, :g - 1], tau, Z[1:], lwork)
    if info != 0:
        raise np.linalg.LinAlgError(f"dormqr failed (info {info})")
    for k in range(m - 1):          # dsyevr's selection sort (columns swapped)
        low = k + int(np.argmin(w[k:]))
        if w[low] < w[k]:
            w[[k, low]] = w[[low, k]]
            Z[:, [k, low]] = Z[:, [low, k]]
    return w, Z


class SmallestEigenpairs:
    """The smallest eigenpairs of a symmetric matrix, any number of them from one
    reduction (``tridiagonal``): ``scipy.linalg.eigh(C, subset_by_index=[0, r - 1],
    driver="evr")`` bit for bit, for every ``r``.

    ``make()`` builds ``C`` (only when needed: the reduction holds what the smaller
    subsets need, and the whole spectrum is solved from ``C`` directly, as ``dsyevr``
    does). The last ``REDUCTION_CACHE`` reductions of a basis are kept
    (``PairBasis.reductions``); a ``pinned`` one is kept as long as the object and
    does not count among them.
    """

    def __init__(self, B: PairBasis, make, pinned=False):
        self.B, self.make, self.pinned = B, make, bool(pinned)
        self._reduced = None

    def __call__(self, r) -> tuple[np.ndarray, np.ndarray]:
        if self._reduced is None:
            C = self.make()
            if r >= C.shape[0]:
                return scipy.linalg.eigh(C, subset_by_index=[0, r - 1], driver="evr")
            self._reduced = tridiagonal(C)
            del C
            if self.pinned:
                return smallest_eigenpairs(self._reduced, r)
            kept = self.B.reductions
            kept.append(weakref.ref(self))
            while len(kept) > REDUCTION_CACHE:
                old = kept.pop(0)()
                if old is not None:
                    old._reduced = None
        elif r >= self._reduced[1].size:
            return scipy.linalg.eigh(self.make(), subset_by_index=[0, r - 1], driver="evr")
        return smallest_eigenpairs(self._reduced, r)


def pair_basis(V, c, u, groups=None, ordered=False) -> PairBasis:
    """Build the pair geometry of the orthonormal ``V`` whose column ``c`` is ``u``.

    ``groups`` is a partition of the columns into eigenspaces (None: one per column).
    The free columns are then reordered so that those of each unknown are consecutive.
    """
    n = V.shape[0]
    free = np.delete(np.arange(n), c)
    G = starts = None
    if groups is not None:
        G = _group_matrix(groups, free, c, n)
        unknown = np.argmax(G, axis=1)
        order = np.argsort(unknown, kind="stable")
        free, G, unknown = free[order], G[order], unknown[order]
        if np.all(G.sum(axis=0) > 0):
            starts = np.flatnonzero(np.r_[True, np.diff(unknown) != 0])
    Vs = np.ascontiguousarray(V[:, free] / u[:, None])
    T = Vs.T @ Vs
    Z = Vs * Vs
    M = 0.5 * (T * T - Z.T @ Z)
    total = 0.5 * (Vs.sum(axis=0) ** 2 - Z.sum(axis=0))
    if G is not None:
        M = G.T @ M @ G
        total = total @ G
        mult = G.sum(axis=0)
    else:
        mult = np.ones(n - 1)
    return PairBasis(Vs, G, mult, bool(ordered), u, 0.5 * (M + M.T), total, starts=starts)


def _group_matrix(groups, free, c, n):
    gid = np.empty(n, dtype=np.intp)
    for k, grp in enumerate(groups):
        gid[np.asarray(grp, dtype=np.intp)] = k
    keep = [k for k in range(len(groups)) if k != gid[c]]
    pos = {k: i for i, k in enumerate(keep)}
    G = np.zeros((n - 1, len(keep)))
    G[np.arange(n - 1), [pos[int(k)] for k in gid[free]]] = 1.0
    return G


class PairGram:
    """Gram matrix and sum of the pair rows of "all pairs except a complement set"."""

    def __init__(self, B: PairBasis, M=None, total=None, k=None):
        self.B = B
        self.M = B.M if M is None else M
        self.total = B.total if total is None else total
        self.k = B.n_pairs if k is None else k
        self._eigh = {}              # number of eigenpairs -> (w, D), see null_directions
        self._smallest = SmallestEigenpairs(B, self._centred)
        self.others = {}             # see _support_search.other_null_directions
        self.pinned = False          # reductions kept with the Gram (``local_free_gram``)

    def _centred(self) -> np.ndarray:
        """The centred Gram, the direction $\\mathbf 1$ lifted by its mean diagonal."""
        return centred_gram(self.M, self.total / self.k, self.k,
                            work=self.B.square_buffer(self.M.shape[0]))

    def without(self, i, j) -> PairGram:
        """The Gram of the current pairs minus the pairs ``(i, j)`` (rows built in chunks
        of at most ``MAX_ROW_ENTRIES`` entries)."""
        M, total = self.M.copy(), self.total.copy()
        part = self.B.square_buffer(M.shape[0])
        for A in self.B.row_chunks(i, j):
            M -= np.matmul(A.T, A, out=part)    # the chunk's Gram in kept memory
            total -= A.sum(axis=0)
        return PairGram(self.B, M, total, self.k - len(i))

    def changed(self, left, entered, chunk=8192) -> PairGram:
        """The Gram of the current pairs less the pairs ``left`` plus the pairs
        ``entered`` (each a pair ``(i, j)`` of index arrays; ``left`` among the current
        pairs, ``entered`` not), by a downdate and an update with their rows alone: the
        Gram of the new set to rounding, at the cost of the rows that changed instead of
        all rows of the new set. Rows are built in chunks of ``chunk`` pairs in the
        basis's kept buffers; the sum of the Grams is formed in ``gram_sum_buffer`` and
        only the symmetrised result is a fresh array."""
        B = self.B
        M = B.gram_sum_buffer(self.M.shape[0])
        np.copyto(M, self.M)
        total = self.total.copy()
        buffer = B.row_buffer(min(chunk, max(len(left[0]), len(entered[0]), 1)))
        part = B.square_buffer(M.shape[0])
        for (i, j), sign in ((left, -1.0), (entered, 1.0)):
            for s in range(0, len(i), chunk):
                R = B.rows(i[s:s + chunk], j[s:s + chunk], out=buffer)
                np.matmul(R.T, R, out=part)         # the chunk's Gram in kept memory
                if sign > 0:
                    M += part
                    total += R.sum(axis=0)
                else:
                    M -= part
                    total -= R.sum(axis=0)
        out = np.add(M, M.T)
        out *= 0.5
        return PairGram(B, out, total, self.k - len(left[0]) + len(entered[0]))

    def null_directions(self, r=8, cluster=None):
        """Smallest eigenpairs of the centred Gram, mapped back to eigenvalue vectors.

        Returns ``mu`` (ascending, the fitting error of each direction: the
        squared centred residual of a unit centred vector) and ``Lam`` whose
        columns are $\\lambda = \\delta + (\\bar a^T \\delta)\\mathbf 1$, i.e. vectors
        with $a_{ij}^T\\lambda = (a_{ij} - \\bar a)^T \\delta$. When ``cluster`` is
        given, more pairs are computed until one exceeds ``cluster``. The eigenpairs
        are kept per count: a Gram asked again (``complement_gram``) is not solved again,
        and its reduction (``SmallestEigenpairs``) serves other counts.
        """
        g = self.B.g
        mean = self.total / self.k
        while True:
            rr = min(r, g)
            if rr not in self._eigh:
                self._eigh[rr] = self._smallest(rr)
            w, D = self._eigh[rr]
            if cluster is None or w[-1] > cluster or rr == g:
                break
            r *= 2
        Lam = D + np.outer(np.ones(g), mean @ D)
        return np.maximum(w, 0.0), Lam

    def centred_directions(self, r=8) -> tuple[np.ndarray, np.ndarray]:
        """The eigenpairs of the centred Gram behind ``null_directions(r)`` (unclipped
        eigenvalues, unit eigenvectors $\\delta$ before they are mapped to $\\lambda$)."""
        self.null_directions(r)
        return self._eigh[min(r, self.B.g)]


def gram_without(gram: PairGram, i, j, removed) -> PairGram:
    """``gram.without(i, j)``, or, when the pairs the result keeps are fewer than the
    pairs ``(i, j)`` it would downdate, on bases of at least ``NEARBY_GRAM_MIN_N`` nodes
    (up to ``_thresholds.LADDER_MAX_N`` nodes the searches keep their Grams bit for
    bit), the Gram of the kept pairs summed from their own rows (``pairs_gram``): the
    same Gram to rounding, at the cost of the rows kept.

    ``removed``: every pair the result leaves out (``(i, j)`` and the pairs ``gram``
    leaves out), distinct, as index arrays. A prefix search of $n = 1000$ nodes that
    doubles to its last size downdates half the pairs to keep the last 2001
    (``_support_search.PrefixSearch._sizes``).
    """
    B = gram.B
    kept = B.n_pairs - len(removed[0])
    if B.n < NEARBY_GRAM_MIN_N or kept >= len(i):
        return gram.without(i, j)
    return pairs_gram(B, *other_pairs(B, *removed))


def upper_index(n: int, i, j) -> np.ndarray:
    """The positions of the pairs ``(i, j)``, $i < j$, among the pairs of $n$ nodes in
    ``numpy.triu_indices(n, 1)``'s (row-major) order.

    >>> upper_index(4, [0, 1, 2], [1, 3, 3]).tolist()
    [0, 4, 5]
    """
    i = np.asarray(i, dtype=np.int64)
    j = np.asarray(j, dtype=np.int64)
    return i * n - i * (i + 1) // 2 + j - i - 1


def other_pairs(B: PairBasis, i, j) -> tuple[np.ndarray, np.ndarray]:
    """The pairs of ``B.upper()`` other than the distinct pairs ``(i, j)``, in that
    order."""
    keep = np.ones(B.n_pairs, dtype=bool)
    keep[upper_index(B.n, np.minimum(i, j), np.maximum(i, j))] = False
    ui, uj = B.upper()
    return ui[keep], uj[keep]


def pairs_gram(B: PairBasis, i, j) -> PairGram:
    """The ``PairGram`` of the pairs ``(i, j)`` alone, summed from their rows in chunks
    (``row_chunks``)."""
    g = B.M.shape[0]
    M, total = np.zeros((g, g)), np.zeros(g)
    part = B.square_buffer(g)
    for A in B.row_chunks(i, j):
        M += np.matmul(A.T, A, out=part)
        total += A.sum(axis=0)
    return PairGram(B, M, total, len(i))


def local_free_gram(B: PairBasis, i, j) -> PairGram:
    """``PairGram(B).without(i, j)`` for the pairs ``(i, j)`` among the nodes of the
    local columns, kept with its reductions (``pinned``) in ``B.local_free``: every
    sampled ranking of a basis starts from it (one $g \\times g$ reduction, 56 MB at
    $g = 2641$, instead of one per ranking)."""
    key = np.concatenate([np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)])
    if B.local_free is not None and np.array_equal(B.local_free[0], key):
        return B.local_free[1]
    gram = PairGram(B).without(i, j)
    gram.pinned = True
    B.local_free = (key, gram)
    return gram


def complement_gram(B: PairBasis, i, j) -> PairGram:
    """``PairGram(B).without(i, j)`` for distinct pairs, kept: the same set asked again
    returns the same ``PairGram`` (with its eigenpairs, see ``null_directions``).

    The last ``GRAM_CACHE`` sets are kept in ``B.grams``. The candidates of a family
    mostly share one edge set, whose Gram (``O(|C| g^2)``) and eigenpairs the
    projections (``_template_lp.polish``) then compute once.
    """
    i, j = np.asarray(i, dtype=np.int64), np.asarray(j, dtype=np.int64)
    code = np.unique(np.minimum(i, j) * B.n + np.maximum(i, j))
    for k, (key, gram) in enumerate(B.grams):
        if key.size == code.size and np.array_equal(key, code):
            B.grams.insert(0, B.grams.pop(k))
            return gram
    gram = nearby_gram(B, code) if B.n >= NEARBY_GRAM_MIN_N else None
    if gram is None:
        gram = PairGram(B).without(code // B.n, code % B.n)
    B.grams.insert(0, (code, gram))
    del B.grams[GRAM_CACHE:]
    return gram


def nearby_gram(B: PairBasis, code) -> PairGram | None:
    """The Gram of all pairs but the sorted distinct pair codes ``code`` (``i * n + j``)
    updated from the kept complement (``B.grams``) whose set differs from ``code`` in the
    fewest pairs (``PairGram.changed``: the pairs of ``code`` not in the kept set leave
    its Gram, the kept set's pairs not in ``code`` enter it), when they are fewer than
    the pairs of ``code`` (the rows a downdate of the Gram of all pairs builds); None
    otherwise. The vertices of a family that a search polishes one after the other
    mostly share their edges. The same Gram to rounding."""
    best = None
    for key, gram in B.grams:
        left = np.setdiff1d(code, key, assume_unique=True)
        entered = np.setdiff1d(key, code, assume_unique=True)
        cost = left.size + entered.size
        if cost < code.size and (best is None or cost < best[0]):
            best = (cost, gram, left, entered)
    if best is None:
        return None
    _, gram, left, entered = best
    chunk = max(1, MAX_ROW_ENTRIES // max(B.V.shape[1], 1))
    return gram.changed((left // B.n, left % B.n), (entered // B.n, entered % B.n),
                        chunk=chunk)
