"""The one pass over the data: row sums and row sums of squares, in float64.

Every statistics path (in-memory arrays, streams, memory maps, dask chunks, the
estimator's ``partial_fit``) reduces its blocks with `block_sums`.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from gsp_householder._validation import raise_not_finite

__all__ = ["block_sums"]

# float64 entries per cache-sized chunk of the row-sum kernel (2 MiB)
_CHUNK = 1 << 18


def block_sums(rows, name: str = "Y_block", *, n_threads: int | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """Column sums and column sums of squares of ``rows`` (b, n), in float64.

    ``rows`` holds one signal per row (the transpose of a column block of $Y$).
    The work is done in cache-sized chunks, converting to float64 on the fly,
    so float32 input costs one read of the data and no float64 copy of it.
    Large blocks are split by columns between threads (numpy releases the GIL);
    each column is summed by one thread in a fixed order, so the result does not
    depend on the number of threads.

    Parameters
    ----------
    rows : ndarray of shape (b, n)
        Real floating or integer array, ``b >= 1`` signals of length ``n``.
    name : str, default "Y_block"
        Name of the argument in error messages.
    n_threads : int, optional
        Threads to use; default: up to 4 (the number of CPUs) for blocks of more
        than $2^{22}$ entries, else 1.

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
    b, n = rows.shape
    sums = np.empty(n)
    sq_sums = np.empty(n)
    if n_threads is None:
        n_threads = min(os.cpu_count() or 1, 4) if b * n > (1 << 22) else 1
    n_threads = max(1, min(int(n_threads), n))
    if n_threads == 1:
        _sum_columns(rows, sums, sq_sums, 0, n)
    else:
        edges = np.linspace(0, n, n_threads + 1).astype(int)
        with ThreadPoolExecutor(n_threads) as pool:
            list(pool.map(lambda i: _sum_columns(rows, sums, sq_sums, edges[i], edges[i + 1]),
                          range(n_threads)))
    # For float32 (or integer) input the float64 sums of squares cannot overflow,
    # so finite sums mean finite data; float64 input may overflow when squared.
    if not (np.isfinite(sums).all() and np.isfinite(sq_sums).all()):
        if not np.isfinite(rows).all():
            raise_not_finite(rows, name)
        raise ValueError(f"{name} has entries whose squares overflow float64 "
                         f"(max |entry| = {np.max(np.abs(rows)):.3g}); rescale the signals")
    return sums, sq_sums


def _sum_columns(rows, sums, sq_sums, lo: int, hi: int) -> None:
    """Fill ``sums[lo:hi]`` and ``sq_sums[lo:hi]`` from ``rows[:, lo:hi]``, chunk by chunk."""
    b = rows.shape[0]
    step = max(1, _CHUNK // max(b, 1))
    buf = np.empty((b, max(0, min(step, hi - lo))))
    with np.errstate(over="ignore", invalid="ignore"):  # non-finite sums are checked later
        for j in range(lo, hi, step):
            w = min(step, hi - j)
            c = buf[:, :w]
            c[...] = rows[:, j:j + w]
            np.add.reduce(c, axis=0, out=sums[j:j + w])
            np.einsum("ij,ij->j", c, c, out=sq_sums[j:j + w])
