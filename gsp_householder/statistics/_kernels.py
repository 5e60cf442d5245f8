"""The one pass over the data: sums and sums of squares along one axis, in float64.

Every statistics path (in-memory arrays, streams, memory maps, dask chunks, the
estimator's ``partial_fit``) reduces its data here: `block_sums` for blocks
of signals stored one per row, `row_sums_and_squares` for $Y$ itself.
Each entry is read once and accumulated in float64, whatever the input dtype.

Two implementations give the same numbers up to the order of the floating-point
additions (relative differences of order $10^{-16}$):

- ``"numba"``, used when the optional ``numba`` package is installed (the ``fast``
  extra): one compiled loop computes both sums, converting float32 to float64 in
  registers;
- ``"numpy"``, always available: cache-sized blocks (converted to float64 when
  needed, in turn into the two halves of a reused buffer), reduced twice while they
  sit in cache; along rows,
  by one BLAS dot product per row for the squares and one BLAS matrix-vector
  product against ones per block for the sums.

The estimators' work after the statistics is $O(n)$ and has its own two helpers,
compiled with numba when it is active: `sums_moments` (what the blind scale and
the noise level read from the row sums, in one pass) and `affine_moments` (an
affine map of an n-vector with its sum and sum of squares, in one pass).

`use_backend` selects one inside a ``with`` block; `active_backend` names the one
in use. The numpy kernel splits large inputs between threads (numpy releases
the GIL); the compiled loop reads memory about as fast as one core can and runs
on one thread unless asked for more. Each output entry is computed by one
thread in a fixed order (the numpy row kernel's threads take its blocks, whose
size depends only on the row length, one at a time from a shared counter), so
the result does not depend on the number of threads.
"""

from __future__ import annotations

import functools
import itertools
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import numpy as np

from gsp_householder._validation import raise_not_finite

__all__ = ["active_backend", "affine_moments", "block_sums", "row_sums_and_squares", "sums_moments",
           "use_backend", "vector_dot"]

# float64 entries of one cache block of the numpy implementation (1 MiB)
_CHUNK = 1 << 17
# float64 entries of one block of rows of the numpy row-sum kernel (1 MiB): the block is
# reduced a second time from the shared L3 (32 MiB here; a 512 KiB block with its
# float32 source and outputs does not stay in a 512 KiB L2 either), and a larger block
# halves the numpy calls, whose interpreter work holds the GIL, per entry
_LAST_CHUNK = 1 << 17
# slots of the numpy row kernel's float32 (or integer) -> float64 conversion buffer, used
# in turn: converting a block of rows streamed from memory into the buffer the previous
# block was just converted into costs up to twice as much (0.31-0.45 ns per entry here for
# blocks of 256 KiB-1 MiB) as converting it into memory the previous blocks have pushed out
# of the core's caches (about 0.2); two 1 MiB slots cut the float32 pass from 1.5 to 1.2
# of one read on one core (benchmarks/profile_row_sums.py)
_CONVERT_SLOTS = 2
# the numpy row kernel's blocks hold a multiple of this many rows (BLAS ``gemv``
# kernels sum rows in groups; aligned blocks give every row the same grouping)
_ROW_ALIGN = 8
# longest row summed by BLAS dot products (OpenBLAS threads dot above 10000 entries)
_DOT_MAX = 4096
# entries below which one thread does all the work
_PARALLEL_MIN = 1 << 22
# columns of one block of the first-axis compiled kernel (two float64 accumulators in L1)
_COLUMN_BLOCK = 4096

_vecdot = getattr(np, "vecdot", None)
_state = {"backend": None}  # None: "numba" if importable, else "numpy"
_lock = threading.Lock()
_pool: ThreadPoolExecutor | None = None
_compiled: dict = {}


def _numba_available() -> bool:
    try:
        import numba  # noqa: F401
    except ImportError:
        return False
    return True


def active_backend() -> str:
    """Name of the implementation in use: ``"numba"`` or ``"numpy"``.

    Examples
    --------
    >>> from gsp_householder.statistics._kernels import active_backend
    >>> active_backend() in ("numba", "numpy")
    True
    """
    if _state["backend"] is None:
        _state["backend"] = "numba" if _numba_available() else "numpy"
    return _state["backend"]


@contextmanager
def use_backend(name: str) -> Iterator[None]:
    """Use the ``"numba"`` or ``"numpy"`` implementation inside a ``with`` block.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.statistics._kernels import block_sums, use_backend
    >>> with use_backend("numpy"):
    ...     block_sums(np.ones((2, 3)))[0].tolist()
    [2.0, 2.0, 2.0]
    """
    if name not in ("numba", "numpy"):
        raise ValueError(f"name must be 'numba' or 'numpy', got {name!r}")
    if name == "numba" and not _numba_available():
        raise ImportError("the numba backend needs the optional 'numba' package")
    previous = _state["backend"]
    _state["backend"] = name
    try:
        yield
    finally:
        _state["backend"] = previous


def _get_pool() -> ThreadPoolExecutor:
    global _pool
    with _lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(min(os.cpu_count() or 1, 4),
                                       thread_name_prefix="gsp_householder-sums")
        return _pool


def _default_threads(size: int, compiled: bool) -> int:
    # the compiled loop reads memory about as fast as one core can: more threads
    # only compete for the memory bus (and for the cores of a shared machine)
    if compiled or size < _PARALLEL_MIN:
        return 1
    return min(os.cpu_count() or 1, 4)


def _run_split(work: Callable[[int, int], object], length: int, n_threads: int,
               align: int = 1) -> list:
    """Call ``work(lo, hi)`` on ``n_threads`` consecutive slices of ``range(length)``
    and return the results, in the order of the slices.

    Every slice but the last starts and ends at a multiple of ``align``.
    """
    n_threads = max(1, min(n_threads, -(-length // align)))
    if n_threads == 1:
        return [work(0, length)]
    units = -(-length // align)
    edges = np.minimum(np.linspace(0, units, n_threads + 1).astype(int) * align, length)
    futures = [_get_pool().submit(work, int(edges[i]), int(edges[i + 1]))
               for i in range(1, n_threads)]
    first = work(int(edges[0]), int(edges[1]))
    return [first] + [f.result() for f in futures]


# ------------------------------------------------------------------ compiled
def _numba_kernels():
    if not _compiled:
        import numba

        @numba.njit(nogil=True, cache=True, fastmath={"reassoc"})
        def last_axis(X, sums, sq_sums, lo, hi, accumulate):  # pragma: no cover - compiled
            # returns the total of the sums and sums of squares written: finite if and
            # only if they all are, so the caller need not read them again to check
            p = X.shape[1]
            total = 0.0
            for i in range(lo, hi):
                s = 0.0
                q = 0.0
                for j in range(p):
                    x = np.float64(X[i, j])
                    s += x
                    q += x * x
                if accumulate:
                    s += sums[i]
                    q += sq_sums[i]
                sums[i] = s
                sq_sums[i] = q
                total += s + q
            return total

        @numba.njit(nogil=True, cache=True, fastmath={"contract"})
        def first_axis(X, sums, sq_sums, lo, hi, width, accumulate):  # pragma: no cover
            # four rows per sweep over a block of columns: the float64 accumulators
            # of the block stay in L1 and are loaded and stored once per four rows;
            # returns the total of the sums written, as `last_axis`
            b = X.shape[0]
            s = np.empty(width)
            q = np.empty(width)
            total = 0.0
            for j0 in range(lo, hi, width):
                w = min(hi, j0 + width) - j0
                if accumulate:
                    s[:w] = sums[j0:j0 + w]
                    q[:w] = sq_sums[j0:j0 + w]
                else:
                    s[:w] = 0.0
                    q[:w] = 0.0
                k = 0
                while k + 4 <= b:
                    r0 = X[k, j0:j0 + w]
                    r1 = X[k + 1, j0:j0 + w]
                    r2 = X[k + 2, j0:j0 + w]
                    r3 = X[k + 3, j0:j0 + w]
                    for j in range(w):
                        x0 = np.float64(r0[j])
                        x1 = np.float64(r1[j])
                        x2 = np.float64(r2[j])
                        x3 = np.float64(r3[j])
                        s[j] += (x0 + x1) + (x2 + x3)
                        q[j] += (x0 * x0 + x1 * x1) + (x2 * x2 + x3 * x3)
                    k += 4
                while k < b:
                    r0 = X[k, j0:j0 + w]
                    for j in range(w):
                        x0 = np.float64(r0[j])
                        s[j] += x0
                        q[j] += x0 * x0
                    k += 1
                sums[j0:j0 + w] = s[:w]
                sq_sums[j0:j0 + w] = q[:w]
                for j in range(w):
                    total += s[j] + q[j]
            return total

        @numba.njit(nogil=True, cache=True, fastmath={"reassoc"})
        def moments(sums, sq_sums, inv_count):  # pragma: no cover - compiled
            s2 = 0.0
            v1 = 0.0
            v2 = 0.0
            for i in range(sums.shape[0]):
                s = sums[i]
                v = max(sq_sums[i] - s * s * inv_count, 0.0)
                s2 += s * s
                v1 += v
                v2 += v * v
            return s2, v1, v2

        @numba.njit(nogil=True, cache=True, fastmath={"reassoc"})
        def affine(x, a, b, out):  # pragma: no cover - compiled
            t1 = 0.0
            t2 = 0.0
            for i in range(x.shape[0]):
                y = x[i] * a + b
                out[i] = y
                t1 += y
                t2 += y * y
            return t1, t2

        _compiled["last"] = last_axis
        _compiled["first"] = first_axis
        _compiled["moments"] = moments
        _compiled["affine"] = affine
    return _compiled


# --------------------------------------------------------------------- numpy
def vector_dot(x: np.ndarray, y: np.ndarray) -> float:
    """``x . y`` for float64 vectors of equal length, on the calling thread.

    One BLAS ``dot`` per block of ``_DOT_MAX`` entries (each below the length from
    which BLAS wakes its threads), through `numpy.vecdot` on a 2-D view: about three
    times faster than ``einsum`` on long vectors, and no BLAS thread is woken.
    An overflow gives ``inf`` without a warning, as ``einsum`` does.
    Internal: ``x`` and ``y`` are 1-D float64 arrays of the same length.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.statistics._kernels import vector_dot
    >>> vector_dot(np.arange(10000.0), np.ones(10000))
    49995000.0
    """
    n = x.shape[0]
    with np.errstate(over="ignore", invalid="ignore"):  # inf or NaN: the caller checks
        if n <= _DOT_MAX:
            return float(np.dot(x, y))
        if _vecdot is None or not (x.flags.c_contiguous and y.flags.c_contiguous):
            return float(np.einsum("i,i->", x, y))
        k = n - n % _DOT_MAX
        parts = _vecdot(x[:k].reshape(-1, _DOT_MAX), y[:k].reshape(-1, _DOT_MAX))
        return float(np.add.reduce(parts)) + float(np.dot(x[k:], y[k:]))


def _last_rows(p: int) -> int:
    """Rows of one block of the numpy row kernel for rows of ``p`` entries."""
    rows = max(1, _LAST_CHUNK // max(p, 1))
    return rows - rows % _ROW_ALIGN if rows >= 2 * _ROW_ALIGN else rows


def _row_squares(p: int) -> Callable[..., object]:
    """``f(a, b, out=out)``: ``out[i] = a[i] . b[i]`` in float64 for C-ordered (r, p) blocks.

    `numpy.vecdot` (numpy >= 2) calls BLAS ``dot`` once per row: single-threaded for
    rows of up to ``_DOT_MAX`` entries. Longer rows use ``einsum``, which needs no BLAS
    threads (BLAS threads its ``dot`` on long vectors, and waking them once per row
    costs more than the row). Chosen once per call of the kernel, not per block.
    """
    if _vecdot is not None and p <= _DOT_MAX:
        return _vecdot
    return functools.partial(np.einsum, "ij,ij->i")


def _numpy_last(X, sums, sq_sums, claim, accumulate):
    # per block of rows: the squares by one dot product per row (BLAS ``dot``, which
    # streams the block in from memory), then the sums by one matrix-vector product
    # with ones (BLAS ``gemv``, faster per entry than a ``dot`` per row) while the
    # block is still in cache. The blocks are fixed by the row length alone, and
    # every thread takes the next unclaimed one (``claim``: a shared counter of
    # blocks) until none is left, so each row is summed by the same calls whatever
    # the number of threads and whichever thread sums it; a thread that starts late
    # (a core waking up, or taken by another job) leaves its share to the others.
    # The loop does no more interpreter work per block than its numpy calls need
    # (the reductions and the buffers are chosen once, slices clip at ``n``): that
    # work holds the GIL, which the other thread then waits for
    n, p = X.shape
    rows = _last_rows(p)
    squares, matmul, copyto = _row_squares(p), np.matmul, np.copyto
    ones = np.ones(p)
    # conversion buffers (not float64): ``_CONVERT_SLOTS`` blocks used in turn. A thread's
    # first block starts at row 0 of the buffer, its later blocks (from row ``rows`` of X
    # on, so at most ``n - rows`` rows) further on: ``min(slots * rows, n)`` rows suffice
    buf = (None if X.dtype == np.float64
           else np.empty((min(_CONVERT_SLOTS * rows, n), p)))
    slot, last_slot = 0, (_CONVERT_SLOTS - 1) * rows
    part = np.empty((2, min(rows, n))) if accumulate else None
    with np.errstate(over="ignore", invalid="ignore"):  # non-finite sums are checked later
        for k in claim:
            i = k * rows
            if i >= n:
                return
            block = X[i:i + rows]
            if buf is not None:
                source, block = block, buf[slot:slot + block.shape[0]]
                copyto(block, source, casting="unsafe")
                slot = slot + rows if slot < last_slot else 0
            if part is None:
                squares(block, block, out=sq_sums[i:i + rows])
                matmul(block, ones, out=sums[i:i + rows])
            else:
                r = block.shape[0]
                squares(block, block, out=part[1, :r])
                matmul(block, ones, out=part[0, :r])
                sums[i:i + r] += part[0, :r]
                sq_sums[i:i + r] += part[1, :r]


def _run_claimed(work: Callable[[Iterator[int]], None], n_blocks: int, n_threads: int) -> None:
    """Call ``work(claim)`` on ``n_threads`` threads (this one included) sharing one
    counter of blocks, ``claim`` (`itertools.count`, whose ``next`` is atomic)."""
    claim = itertools.count()
    n_threads = max(1, min(n_threads, n_blocks))
    futures = [_get_pool().submit(work, claim) for _ in range(n_threads - 1)]
    work(claim)
    for f in futures:
        f.result()


def _first_step(b: int) -> int:
    """Columns of one block of the numpy first-axis kernel for ``b`` rows."""
    return max(1, _CHUNK // max(b, 1))


def _numpy_first(X, sums, sq_sums, lo, hi, accumulate):
    # ``lo`` is a multiple of the block width (`_first_step`), so the blocks, and with
    # them the bits, do not depend on the number of threads (numpy's ``add.reduce`` and
    # ``einsum`` sum a block of one column in another order than a wider block's)
    b = X.shape[0]
    step = _first_step(b)
    buf = np.empty((b, max(0, min(step, hi - lo))))
    part = np.empty((2, max(0, min(step, hi - lo))))
    with np.errstate(over="ignore", invalid="ignore"):  # non-finite sums are checked later
        for j in range(lo, hi, step):
            w = min(step, hi - j)
            c = buf[:, :w]
            np.copyto(c, X[:, j:j + w], casting="unsafe")
            if accumulate:
                np.add.reduce(c, axis=0, out=part[0, :w])
                np.einsum("ij,ij->j", c, c, out=part[1, :w])
                sums[j:j + w] += part[0, :w]
                sq_sums[j:j + w] += part[1, :w]
            else:
                np.add.reduce(c, axis=0, out=sums[j:j + w])
                np.einsum("ij,ij->j", c, c, out=sq_sums[j:j + w])


# ------------------------------------------------- summaries of the statistics
def sums_moments(sums: np.ndarray, sq_sums: np.ndarray, count: int
                 ) -> tuple[float, float, float] | None:
    """$\\sum_i S_i^2$, $\\sum_i v_i$ and $\\sum_i v_i^2$ in one compiled pass over row
    sums $S$ and row sums of squares $Q$ of ``count`` columns, with
    $v_i = \\max(Q_i - S_i^2 / \\mathrm{count}, 0)$ ($(p - 1)$ times the row variance).

    ``None`` when the numpy backend is active or when a result is not finite (an
    overflow): the caller then takes its numpy passes, which handle overflow.
    Internal: ``sums`` and ``sq_sums`` are finite float64 vectors of equal length.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.statistics._kernels import sums_moments, use_backend
    >>> with use_backend("numpy"):
    ...     sums_moments(np.array([2.0, 4.0]), np.array([4.0, 10.0]), 2) is None
    True
    """
    if active_backend() != "numba":
        return None
    with np.errstate(over="ignore", invalid="ignore"):
        s2, v1, v2 = _numba_kernels()["moments"](sums, sq_sums, 1.0 / count)
    if not np.isfinite(s2 + v1 + v2):
        return None
    return float(s2), float(v1), float(v2)


def affine_moments(x: np.ndarray, a: float, b: float, out: np.ndarray
                   ) -> tuple[float, float]:
    """``out = x * a + b`` elementwise, and the sum and the sum of squares of ``out``.

    One compiled pass with the numba backend; with numpy, the same entries (the
    product, then the sum, each rounded once; ``a = 1`` skips the product) and
    two more passes for the sums. ``out`` may be ``x``. Internal: float64 vectors
    of equal length, results small enough that their squares do not overflow.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.statistics._kernels import affine_moments
    >>> out = np.empty(3)
    >>> affine_moments(np.array([1.0, 2.0, 3.0]), 2.0, -1.0, out), out.tolist()
    ((9.0, 35.0), [1.0, 3.0, 5.0])
    """
    if active_backend() == "numba":
        t1, t2 = _numba_kernels()["affine"](x, float(a), float(b), out)
        return float(t1), float(t2)
    if a != 1.0:
        np.multiply(x, a, out=out)
        x = out
    if b != 0.0 or x is not out:
        np.add(x, b, out=out)
    return float(np.add.reduce(out)), vector_dot(out, out)


# ------------------------------------------------------------------- public
def block_sums(rows, name: str = "Y_block", *, n_threads: int | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """Column sums and column sums of squares of ``rows`` (b, n), in float64.

    ``rows`` holds one signal per row (the transpose of a column block of $Y$).
    Float32 input costs one read of the data and no float64 copy of it.

    Parameters
    ----------
    rows : ndarray of shape (b, n)
        Real floating or integer array, ``b >= 1`` signals of length ``n``.
    name : str, default "Y_block"
        Name of the argument in error messages.
    n_threads : int, optional
        Threads to use; default: 1 for the compiled loop, up to 4 (the number of
        CPUs) for the numpy kernel on blocks of more than $2^{22}$ entries. The
        result does not depend on it.

    Returns
    -------
    sums, sq_sums : ndarray of shape (n,)
        $\\sum_k R_{kj}$ and $\\sum_k R_{kj}^2$ in float64.

    Raises
    ------
    ValueError
        If ``rows`` is not finite, or if its squares overflow float64.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.statistics._kernels import block_sums
    >>> s, q = block_sums(np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32))
    >>> s.tolist(), q.tolist()
    ([4.0, 6.0], [10.0, 20.0])
    """
    sums, sq_sums = sums_along_axis(rows, 0, n_threads=n_threads)
    check_sums(rows, sums, sq_sums, name)
    return sums, sq_sums


def row_sums_and_squares(Y, name: str = "Y", *, n_threads: int | None = None
                         ) -> tuple[np.ndarray, np.ndarray]:
    """Row sums and row sums of squares of signals ``Y`` (n, p), in float64.

    ``Y`` is already validated (2-D, real, ``p >= 1``); its finiteness is checked
    here on the sums, so the data are read once.

    Parameters
    ----------
    Y : ndarray of shape (n, p)
        Signals as columns, any memory layout.
    name : str, default "Y"
        Name of the argument in error messages.
    n_threads : int, optional
        As in `block_sums`.

    Returns
    -------
    sums, sq_sums : ndarray of shape (n,)

    Raises
    ------
    ValueError
        If ``Y`` is not finite, or if its squares overflow float64.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.statistics._kernels import row_sums_and_squares
    >>> s, q = row_sums_and_squares(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> s.tolist(), q.tolist()
    ([3.0, 7.0], [5.0, 25.0])
    """
    sums, sq_sums, total = _sums_and_total(Y, 1, n_threads=n_threads)
    check_sums(Y, sums, sq_sums, name, total)
    return sums, sq_sums


def check_sums(X, sums, sq_sums, name: str, total: float | None = None) -> None:
    """Raise if the sums of ``X`` are not finite: a NaN or inf entry, or squares that overflow.

    Internal: ``X`` is the validated array the sums were computed from; ``total``, if
    given, is the sum of all entries of ``sums`` and ``sq_sums`` (in any order).
    """
    with np.errstate(over="ignore", invalid="ignore"):
        if total is None:
            total = np.add.reduce(sums) + np.add.reduce(sq_sums)  # NaN and inf propagate
    if np.isfinite(total) or (np.isfinite(sums).all() and np.isfinite(sq_sums).all()):
        return
    if not np.isfinite(X).all():
        raise_not_finite(X, name)
    raise ValueError(f"{name} has entries whose squares overflow float64 "
                     f"(max |entry| = {np.max(np.abs(X)):.3g}); rescale the signals")


def sums_along_axis(X: np.ndarray, axis: int, *, n_threads: int | None = None,
                    out: tuple[np.ndarray, np.ndarray] | None = None,
                    accumulate: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Sums and sums of squares of a validated 2-D real array along ``axis``, in float64.

    ``X`` is already checked by the caller (2-D, real, non-empty along ``axis``);
    finiteness is the caller's business too (a NaN or inf entry makes the sums of
    its line non-finite).

    Parameters
    ----------
    X : ndarray of shape (a, b)
        Real floating or integer array, any memory layout.
    axis : {0, 1}
        Axis summed over.
    n_threads : int, optional
        Threads; default: 1 for the compiled loop (memory-bound on one core),
        up to 4 (the number of CPUs) for the numpy kernel on more than $2^{22}$
        entries.
    out : tuple of two float64 ndarrays, optional
        Where to write the sums and the sums of squares (1-D, writeable): no
        allocation, which matters on machines where fresh memory is slow to fault in.
    accumulate : bool, default False
        Add to ``out`` instead of overwriting it.

    Returns
    -------
    sums, sq_sums : ndarray
        Float64 vectors of length ``X.shape[1 - axis]`` (``out`` when given).
    """
    return _sums_and_total(X, axis, n_threads=n_threads, out=out, accumulate=accumulate)[:2]


def _sums_and_total(X: np.ndarray, axis: int, *, n_threads: int | None = None,
                    out: tuple[np.ndarray, np.ndarray] | None = None,
                    accumulate: bool = False) -> tuple[np.ndarray, np.ndarray, float | None]:
    """`sums_along_axis`, and the total of both results when the kernel gives it for free
    (the compiled kernels; else ``None``), for `check_sums`."""
    if not X.flags.c_contiguous and X.flags.f_contiguous:
        X, axis = X.T, 1 - axis  # sum along the contiguous axis of the transpose
    length = X.shape[1 - axis]
    if out is None:
        # one allocation for both vectors: the allocator hands a freed block of this size
        # back on the next call instead of faulting fresh pages in twice
        sums, sq_sums = np.zeros((2, length)) if accumulate else np.empty((2, length))
    else:
        sums, sq_sums = out
    if length == 0:
        return sums, sq_sums, None
    compiled = active_backend() == "numba" and X.dtype in (np.float32, np.float64)
    if n_threads is None:
        n_threads = _default_threads(X.size, compiled)
    if compiled:
        kernels = _numba_kernels()
        if axis == 1:
            def work(lo, hi):
                return kernels["last"](X, sums, sq_sums, lo, hi, accumulate)

            with np.errstate(over="ignore", invalid="ignore"):  # non-finite: checked later
                return sums, sq_sums, float(np.sum(_run_split(work, length, n_threads)))

        def work(lo, hi):
            return kernels["first"](X, sums, sq_sums, lo, hi, _COLUMN_BLOCK, accumulate)

        with np.errstate(over="ignore", invalid="ignore"):  # non-finite: checked later
            return sums, sq_sums, float(np.sum(_run_split(work, length, n_threads)))
    elif axis == 1:
        def work(claim):
            _numpy_last(X, sums, sq_sums, claim, accumulate)
        _run_claimed(work, -(-length // _last_rows(X.shape[1])), n_threads)
        return sums, sq_sums, None
    else:
        def work(lo, hi):
            _numpy_first(X, sums, sq_sums, lo, hi, accumulate)
    _run_split(work, length, n_threads, align=_first_step(X.shape[0]))
    return sums, sq_sums, None
