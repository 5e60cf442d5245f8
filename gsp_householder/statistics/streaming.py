"""Sufficient statistics of signals too large for memory, read block by block.

The paper's estimators read $Y$ (shape ``(n, p)``, signals as columns) only
through its row sums and row sums of squares
(`gsp_householder.statistics.signal_statistics.SignalStatistics`), so $p$ can be as large
as the disk allows: the statistics of a stream of signal blocks take $O(n)$
memory.

**Layout on disk.** A block of signals is a block of columns of $Y$. In a
C-ordered ``(n, p)`` array a column block is strided: every block touches every
row, and a memory map reads (and keeps resident) almost the whole file for each
block. Store large data as ``Y.T``, a C-ordered ``(p, n)`` array with one signal
per row (the scikit-learn orientation, ``(n_samples, n_features)``), and read it
with ``signal_axis=0``: a block of signals is then one contiguous range of
bytes. `iter_column_blocks` reads either layout and always yields blocks
in the paper's orientation ``(n, p_block)``.

**Reading ahead, and memory.** For a ``numpy.memmap`` (or
``numpy.load(..., mmap_mode="r")``) stored with ``signal_axis=0``,
`iter_column_blocks` has a background thread read the next two blocks
while the current one is summed, so that reading the file and computing overlap.
Pages of a memory-mapped file that have been read count towards the resident
memory of the process; the pages of a block are released once the next block is
requested (for read-only maps), so the resident memory stays at about three
blocks.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator

import numpy as np

from gsp_householder._validation import check_scalar
from gsp_householder.statistics._kernels import _sums_and_total, block_sums
from gsp_householder.statistics._readahead import is_mapped, mapped_row_blocks
from gsp_householder.statistics.signal_statistics import SignalStatistics

__all__ = ["iter_column_blocks", "statistics_from_blocks", "statistics_from_npy"]

def _check_block(block, n_nodes: int | None, signal_axis: int) -> np.ndarray:
    """Validate one block and return it as signals-as-rows ``(b, n)``."""
    if hasattr(block, "toarray") and not isinstance(block, np.ndarray):
        raise TypeError(f"Y_block must be a dense array, got a sparse {type(block).__name__}")
    arr = np.asarray(block)
    if arr.dtype.kind == "c":
        raise TypeError(f"Y_block must be real, got complex dtype {arr.dtype}")
    if arr.dtype.kind not in "fiu":
        raise TypeError(f"Y_block must hold real numbers, got dtype {arr.dtype}")
    if arr.ndim != 2:
        raise ValueError(f"Y_block must be 2-D, got an array of shape {arr.shape}")
    rows = arr if signal_axis == 0 else arr.T
    if rows.shape[0] == 0:
        raise ValueError(f"Y_block must hold at least one signal, got shape {arr.shape}")
    if rows.shape[1] < 2:
        raise ValueError(f"Y_block must have at least 2 nodes, got shape {arr.shape}")
    if n_nodes is not None and rows.shape[1] != n_nodes:
        raise ValueError(f"Y_block has {rows.shape[1]} nodes, expected {n_nodes} as in the "
                         f"earlier blocks (shape {arr.shape}, signal_axis={signal_axis})")
    return rows


def _check_signal_axis(signal_axis) -> int:
    if isinstance(signal_axis, bool) or signal_axis not in (0, 1):
        raise ValueError(f"signal_axis must be 0 (signals as rows) or 1 (signals as columns), "
                         f"got {signal_axis!r}")
    return int(signal_axis)


def _progress(iterable, progress: bool, total: int | None, desc: str):
    if not progress:
        return iterable
    from tqdm.auto import tqdm

    return tqdm(iterable, total=total, desc=desc, unit="block",
                disable=not sys.stderr.isatty() if progress == "auto" else False)


def statistics_from_blocks(blocks: Iterable, *, signal_axis: int = 1, progress=False,
                           total: int | None = None) -> SignalStatistics:
    """Accumulate `SignalStatistics` over an iterable of signal blocks.

    Parameters
    ----------
    blocks : iterable of array_like
        Blocks of signals. With ``signal_axis=1`` (default, the paper's
        orientation) each block has shape ``(n, p_block)``; with
        ``signal_axis=0`` each block has shape ``(p_block, n)`` (scikit-learn's
        orientation, as read from a row-major file of signals).
    signal_axis : {1, 0}, default 1
        Axis of a block along which the signals are laid out.
    progress : bool or "auto", default False
        Show a tqdm bar (``"auto"``: only when stderr is a terminal).
    total : int, optional
        Number of blocks, for the progress bar.

    Returns
    -------
    SignalStatistics
        Row sums, row sums of squares and count of the concatenated signals,
        accumulated in float64 with $O(n)$ memory.

    Raises
    ------
    ValueError
        If there are no blocks, a block is empty or not finite, or the blocks
        disagree on $n$.
    TypeError
        If a block is not a real dense array.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import SignalStatistics
    >>> from gsp_householder.statistics.streaming import iter_column_blocks, statistics_from_blocks
    >>> Y = np.random.default_rng(0).random((5, 12))
    >>> stats = statistics_from_blocks(iter_column_blocks(Y, 5))
    >>> stats.count, bool(np.allclose(stats.row_sums, Y.sum(axis=1), rtol=1e-14))
    (12, True)
    """
    signal_axis = _check_signal_axis(signal_axis)
    sums = None  # (2, n): the running row sums and row sums of squares
    count = 0
    for block in _progress(blocks, progress, total, "statistics"):
        rows = _check_block(block, None if sums is None else sums.shape[1], signal_axis)
        if sums is None:
            sums = np.empty((2, rows.shape[1]))
        # added to the running sums in place: no per-block vectors to allocate and add
        _, _, block_total = _sums_and_total(rows, 0, out=(sums[0], sums[1]),
                                            accumulate=count > 0)
        with np.errstate(over="ignore", invalid="ignore"):
            if block_total is None:
                block_total = np.add.reduce(sums, axis=None)
            if not np.isfinite(block_total) and not np.isfinite(sums).all():
                block_sums(rows)  # raises if the block itself is not finite or overflows
                raise ValueError("blocks: the accumulated sums overflow float64; rescale "
                                 "the signals")
        count += rows.shape[0]
    if sums is None:
        raise ValueError("blocks must hold at least one block of signals, got none")
    return SignalStatistics.from_sums(sums[0], sums[1], count)


def _is_mapped_rows(arr) -> bool:
    """A C-ordered view of a memory-mapped file."""
    return isinstance(arr, np.ndarray) and arr.flags.c_contiguous and is_mapped(arr)


def iter_column_blocks(Y, block_size: int, *, signal_axis: int = 1) -> Iterator[np.ndarray]:
    """Yield consecutive blocks of signals of ``Y`` in the paper's orientation.

    Parameters
    ----------
    Y : array_like or numpy.memmap
        The signals: shape ``(n, p)`` with ``signal_axis=1`` (signals as columns),
        or ``(p, n)`` with ``signal_axis=0`` (signals as rows, the layout to use
        on disk; see the module notes).
    block_size : int
        Number of signals per block (the last block may be smaller).
    signal_axis : {1, 0}, default 1
        Axis of ``Y`` that indexes the signals.

    Yields
    ------
    ndarray of shape (n, b)
        A block of ``b <= block_size`` signals as columns (a view when possible;
        with ``signal_axis=0`` the transpose of a row block). For a file-backed
        ``numpy.memmap`` with ``signal_axis=0`` the next blocks are read ahead
        and a block's pages are released once the next block is requested: do
        not keep references to blocks beyond one iteration if memory matters.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.statistics.streaming import iter_column_blocks
    >>> Y = np.arange(12.0).reshape(2, 6)
    >>> [b.shape for b in iter_column_blocks(Y, 4)]
    [(2, 4), (2, 2)]
    >>> [b.shape for b in iter_column_blocks(Y.T, 4, signal_axis=0)]
    [(2, 4), (2, 2)]
    """
    signal_axis = _check_signal_axis(signal_axis)
    block_size = check_scalar(block_size, "block_size", low=1, low_inclusive=True, integer=True)
    if not hasattr(Y, "shape") or not hasattr(Y, "__getitem__"):
        Y = np.asarray(Y)
    if len(Y.shape) != 2:
        raise ValueError(f"Y must be 2-D, got an array of shape {tuple(Y.shape)}")
    p = Y.shape[signal_axis]
    if signal_axis == 0 and _is_mapped_rows(Y):
        yield from _iter_memmap_rows(Y, block_size)
        return
    for start in range(0, p, block_size):
        if signal_axis == 1:
            yield Y[:, start:start + block_size]
        else:
            yield Y[start:start + block_size].T


def _iter_memmap_rows(Y: np.memmap, block_size: int) -> Iterator[np.ndarray]:
    """Row blocks of a file memmap, read ahead in the background and released after use."""
    for rows in mapped_row_blocks(Y, block_size):
        yield rows.T


def statistics_from_npy(path: str | os.PathLike, block_size: int = 64, *,
                        signal_axis: int = 0, progress=False) -> SignalStatistics:
    """Statistics of a ``.npy`` file of signals, streamed through a memory map.

    Parameters
    ----------
    path : str or path-like
        A ``.npy`` file holding a 2-D real array.
    block_size : int, default 64
        Number of signals read at a time.
    signal_axis : {0, 1}, default 0
        0: the file holds ``Y.T``, shape ``(p, n)``, one signal per row (the
        layout to use; reads are contiguous). 1: the file holds ``Y``, shape
        ``(n, p)`` (strided reads).
    progress : bool or "auto", default False
        Show a tqdm progress bar.

    Returns
    -------
    SignalStatistics

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from gsp_householder.statistics.streaming import statistics_from_npy
    >>> Y = np.random.default_rng(0).random((4, 10))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     path = os.path.join(tmp, "signals.npy")
    ...     np.save(path, Y.T)
    ...     stats = statistics_from_npy(path, block_size=3)
    >>> stats.count, bool(np.allclose(stats.mean, Y.mean(axis=1), rtol=1e-14))
    (10, True)
    """
    signal_axis = _check_signal_axis(signal_axis)
    Y = np.load(os.fspath(path), mmap_mode="r")
    if Y.ndim != 2:
        raise ValueError(f"path must hold a 2-D array, got shape {Y.shape}")
    block_size = check_scalar(block_size, "block_size", low=1, low_inclusive=True, integer=True)
    total = -(-Y.shape[signal_axis] // block_size)
    blocks = (b.T for b in iter_column_blocks(Y, block_size, signal_axis=signal_axis))
    try:
        return statistics_from_blocks(blocks, signal_axis=0, progress=progress, total=total)
    finally:
        del Y
