"""Reading memory-mapped signals ahead of the computation.

Internal module. A memory-mapped array is read when its pages are first touched:
the thread that sums a block then waits for the disk (cold cache) or for the
kernel to map page after page (warm cache), and cannot compute meanwhile.
`mapped_row_blocks` overlaps the two: a background thread asks the kernel to
populate the page tables of the next blocks (``madvise(MADV_POPULATE_READ)``,
which reads the file if needed, through ``ctypes`` so that the GIL is released;
``MADV_WILLNEED`` where the former is not supported), while the caller sums the
current block. Pages of a block that has been used are dropped from the process
(``MADV_DONTNEED``; the file's page cache keeps them), so the resident memory
stays at a few blocks whatever the size of the file.

Only read-only mappings (``numpy.memmap`` mode ``"r"``, as `numpy.load` with
``mmap_mode="r"`` gives) have their used pages dropped: a private copy-on-write
mapping would lose its modifications. On platforms without ``madvise`` the
blocks are plain views, read on first touch.
"""

from __future__ import annotations

import mmap
import sys
import threading
import time
from collections.abc import Iterator

import numpy as np

__all__ = ["is_mapped", "mapped_row_blocks"]

_MADV_POPULATE_READ = 22  # Linux 5.14+
_state: dict = {}
# set to a dict to accumulate seconds spent populating ("populate_s", background
# thread) and waiting for pages ("wait_s", consumer), and the items ("items"): the
# benchmarks' profile of where a streaming pass spends its time
profile: dict | None = None


def _madvise():
    """``madvise`` from the C library (called without the GIL), or None."""
    if "madvise" not in _state:
        fn = None
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                libc = ctypes.CDLL(None, use_errno=True)
                fn = libc.madvise
                fn.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]
                fn.restype = ctypes.c_int
            except (OSError, AttributeError):  # pragma: no cover - unusual C library
                fn = None
        _state["madvise"] = fn
    return _state["madvise"]


def _mapping_of(arr: np.ndarray):
    """The ``numpy.memmap`` and ``mmap.mmap`` behind ``arr``, or ``(None, None)``."""
    memmap, base = None, arr
    while base is not None:
        if isinstance(base, np.memmap) and memmap is None:
            memmap = base
        if isinstance(base, mmap.mmap):
            return memmap, base
        base = getattr(base, "base", None)
    return None, None


def is_mapped(arr) -> bool:
    """Whether ``arr`` is a view of a memory-mapped file."""
    return isinstance(arr, np.ndarray) and _mapping_of(arr)[1] is not None


class _Populator:
    """Background thread that populates the pages of the next row ranges."""

    def __init__(self, ranges: list[list[tuple[int, int]]], depth: int, release: bool,
                 advice: int = _MADV_POPULATE_READ):
        self._ranges = ranges
        self._ready = [threading.Event() for _ in ranges]
        self._room = threading.Semaphore(depth)
        self._stop = False
        self._release = release
        self._advice = advice
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="gsp_householder-readahead")
        self._thread.start()

    def _run(self) -> None:
        fn = _madvise()
        try:
            for i, item in enumerate(self._ranges):
                self._room.acquire()
                if self._stop:
                    return
                start = time.perf_counter()
                for addr, length in item:
                    if (fn(addr, length, self._advice) != 0
                            and self._advice != mmap.MADV_WILLNEED):
                        self._advice = mmap.MADV_WILLNEED  # older kernels: start the reads
                        fn(addr, length, self._advice)
                if profile is not None:
                    profile["populate_s"] = profile.get("populate_s", 0.0) + (
                        time.perf_counter() - start)
                    profile["items"] = profile.get("items", 0) + 1
                self._ready[i].set()
        finally:
            for event in self._ready:  # never leave the reader waiting
                event.set()

    def wait(self, i: int) -> None:
        if profile is None:
            self._ready[i].wait()
            return
        start = time.perf_counter()
        self._ready[i].wait()
        profile["wait_s"] = profile.get("wait_s", 0.0) + time.perf_counter() - start

    def done(self, i: int) -> None:
        if self._release:
            for addr, length in self._ranges[i]:
                _madvise()(addr, length, mmap.MADV_DONTNEED)
        self._room.release()

    def close(self) -> None:
        self._stop = True
        self._room.release()
        self._thread.join()


def mapped_row_blocks(rows: np.ndarray, block_rows: int, *, depth: int = 2,
                      populate: bool = True) -> Iterator[np.ndarray]:
    """Yield ``rows[k:k + block_rows]`` for a C-ordered memory-mapped ``rows``, read ahead.

    ``rows`` is a C-contiguous view of a memory-mapped file (`is_mapped`);
    ``depth`` blocks are populated ahead of the one being used. A yielded block
    stays valid after the next one is requested (its pages are read again from
    the page cache if touched), but holding on to blocks defeats the purpose.
    ``populate=False`` only starts the reads of the next blocks
    (``MADV_WILLNEED``): their pages are mapped when the caller touches them,
    so that the resident memory is one block, not ``depth + 1``.
    """
    total = rows.shape[0]
    starts = range(0, total, block_rows)
    fn = _madvise()
    if fn is None or not rows.flags.c_contiguous or rows.size == 0:
        for start in starts:
            yield rows[start:start + block_rows]
        return
    memmap, _ = _mapping_of(rows)
    release = memmap is not None and getattr(memmap, "mode", None) == "r"
    page = mmap.PAGESIZE
    addr0 = rows.__array_interface__["data"][0]
    row_bytes = rows.strides[0]
    ranges = []
    for start in starts:
        lo = addr0 + start * row_bytes
        hi = addr0 + min(total, start + block_rows) * row_bytes
        lo -= lo % page
        ranges.append([(lo, hi - lo)])
    populator = _Populator(ranges, depth, release,
                           _MADV_POPULATE_READ if populate else mmap.MADV_WILLNEED)
    try:
        for i, start in enumerate(starts):
            populator.wait(i)
            yield rows[start:start + block_rows]
            populator.done(i)
    finally:
        populator.close()
