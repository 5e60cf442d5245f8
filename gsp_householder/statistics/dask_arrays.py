"""Sufficient statistics of a dask array in one parallel pass (needs the ``dask`` extra).

The row sums and row sums of squares of $Y$ are two reductions over the same
chunks; dask computes them together, so every chunk is read once, on whichever
worker holds it, and only two length-$n$ vectors per chunk travel back; they are
added in place, in a tree. Chunks that are windows of a memory-mapped file are
read ahead while they are summed (see `gsp_householder.statistics.streaming`).
For data on disk, build the dask array with one task per window of the file
(``dask.array.map_blocks`` of a function that returns ``numpy.memmap`` windows,
as ``benchmarks/bench_streaming.py`` does), stored one signal per row. Every
estimator of `gsp_householder.learning.paper` accepts a dask array through
`gsp_householder.statistics.dispatch.as_statistics`, which calls
`statistics_from_dask`.
"""

from __future__ import annotations

import functools

import numpy as np

from gsp_householder.statistics._kernels import _sums_and_total, check_sums
from gsp_householder.statistics._readahead import is_mapped, mapped_row_blocks
from gsp_householder.statistics.signal_statistics import SignalStatistics

__all__ = ["statistics_from_dask"]

# bytes of one part (a block of rows) of a memory-mapped chunk, summed while the next
# part is read: large enough that adding each part's sums into the chunk's float64
# sums costs little beside reading the part (16 bytes per node and part), small
# enough that a worker maps two parts at a time
_PART_BYTES = 1 << 27


def statistics_from_dask(Y, *, name: str = "Y") -> SignalStatistics:
    """Row sums, row sums of squares and count of a dask array ``Y`` (n, p).

    Parameters
    ----------
    Y : dask.array.Array of shape (n, p)
        Signals as columns, real dtype, any chunking (known chunk sizes).
    name : str, default "Y"
        Name of the argument in error messages.

    Returns
    -------
    SignalStatistics
        Accumulated in float64; equal to
        ``SignalStatistics.from_array(Y.compute())`` up to the order of the
        floating-point additions (about $10^{-16}$ relative).

    Raises
    ------
    TypeError
        If ``Y`` is not a dask array or its dtype is not real.
    ValueError
        If ``Y`` is not 2-D, has fewer than 2 rows, no columns, unknown chunk
        sizes, or non-finite entries.

    Examples
    --------
    >>> import numpy as np
    >>> import dask.array as da
    >>> from gsp_householder.statistics.dask_arrays import statistics_from_dask
    >>> Y = np.arange(12.0).reshape(3, 4)
    >>> stats = statistics_from_dask(da.from_array(Y, chunks=(3, 2)))
    >>> stats.count, stats.row_sums.tolist()
    (4, [6.0, 22.0, 38.0])
    """
    try:
        import dask
        import dask.array as da
    except ImportError as exc:  # pragma: no cover - exercised without dask only
        raise ImportError("dask arrays need the 'dask' extra: pip install "
                          "'gsp_householder[dask]'") from exc
    if not isinstance(Y, da.Array):
        raise TypeError(f"{name} must be a dask array, got {type(Y).__name__}")
    dtype = np.dtype(Y.dtype)
    if dtype.kind == "c":
        raise TypeError(f"{name} must be real, got complex dtype {dtype}")
    if dtype.kind not in "fiu":
        raise TypeError(f"{name} must hold real numbers, got dtype {dtype}")
    if Y.ndim != 2:
        raise ValueError(f"{name} must be 2-D, got an array of shape {Y.shape}")
    n, p = Y.shape
    if np.isnan(n) or np.isnan(p):
        raise ValueError(f"{name} has unknown chunk sizes (shape {Y.shape}); call "
                         f"{name}.compute_chunk_sizes() first")
    if n < 2:
        raise ValueError(f"{name} must have at least 2 rows (nodes), got shape {Y.shape}")
    if p < 1:
        raise ValueError(f"{name} must not be empty, got shape {Y.shape}")
    # each chunk -> its row sums and row sums of squares, (2, n_chunk, 1), in one
    # cache-blocked pass without float64 temporaries; then a sum over the column chunks
    n_col_chunks = len(Y.chunks[1])
    parts = Y.map_blocks(functools.partial(_chunk_sums, name=name), new_axis=0,
                         chunks=((2,), Y.chunks[0], (1,) * n_col_chunks), dtype=np.float64)
    # a tree of in-place additions: no new n-vector per step (fresh memory is slow)
    total = da.reduction(parts, _chunk_identity, _add_in_place, combine=_add_in_place, axis=2,
                         dtype=np.float64, concatenate=False, meta=np.empty((0, 0)))
    (sums,) = dask.compute(total)
    row_sums, row_sq_sums = sums
    if not (np.isfinite(row_sums).all() and np.isfinite(row_sq_sums).all()):
        raise ValueError(f"{name}: the accumulated sums overflow float64; rescale the signals")
    return SignalStatistics.from_sums(row_sums, row_sq_sums, int(p))


def _chunk_sums(block: np.ndarray, name: str) -> np.ndarray:
    """Row sums and row sums of squares of one chunk of ``Y``, shape (2, n_chunk, 1).

    The kernel writes straight into the one array returned. A chunk that is a
    view of a memory-mapped file (signals stored one per row) is summed in parts
    of about `_PART_BYTES` while a background thread reads the next part
    (`gsp_householder.statistics._readahead`), so that the worker computes while
    the file is read.
    """
    rows = np.asarray(block).T
    out = np.empty((2, rows.shape[1], 1))
    sums, sq_sums = out[0, :, 0], out[1, :, 0]
    if rows.flags.c_contiguous and rows.nbytes > 2 * _PART_BYTES and is_mapped(rows):
        parts = mapped_row_blocks(rows, max(1, _PART_BYTES // rows.strides[0]), depth=1)
    else:
        parts = [rows]
    total = None
    for i, part in enumerate(parts):
        # dask runs chunks in parallel: one thread per chunk; the last part's total (the
        # compiled kernel's, of the running sums) spares the check its own passes
        total = _sums_and_total(part, 0, n_threads=1, out=(sums, sq_sums),
                                accumulate=i > 0)[2]
    check_sums(rows, sums, sq_sums, name, total)
    return out


def _flatten(parts) -> list:
    return [a for p in parts for a in _flatten(p)] if isinstance(parts, list) else [parts]


def _add_in_place(parts, axis=None, keepdims=True, **_):
    """Sum of the chunk results, added into the first (each is used by this task only)."""
    arrays = _flatten(parts)
    total = arrays[0]
    if not total.flags.writeable:
        total = total.copy()
    with np.errstate(over="ignore", invalid="ignore"):  # checked once, on the total
        for a in arrays[1:]:
            np.add(total, a, out=total)
    return total if keepdims else total[..., 0]


def _chunk_identity(x, axis=None, keepdims=True, **_):
    return x if keepdims else x[..., 0]
