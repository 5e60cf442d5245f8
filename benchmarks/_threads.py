"""The benchmarks' ``--threads`` option: limit BLAS threads through threadpoolctl."""

from __future__ import annotations

import sys


def limit_blas_threads(threads: int | None) -> None:
    """Limit BLAS to ``threads`` threads; ``None`` keeps the library's setting.

    threadpoolctl is optional (it comes with scikit-learn): without it the limit is
    ignored with a message on stderr, and ``OPENBLAS_NUM_THREADS`` does the same job.
    """
    if threads is None:
        return
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        print("threadpoolctl is not installed: --threads ignored", file=sys.stderr)
        return
    threadpool_limits(threads)
