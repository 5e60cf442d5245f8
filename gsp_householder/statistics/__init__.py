"""Sufficient statistics of signals: row sums, row sums of squares and a count.

The paper's estimators read the signals $Y$ only through these, so every kind of
data (in-memory arrays, streams of column blocks, memory-mapped files, dask
arrays) is reduced here, in one pass, to a `SignalStatistics`.
"""

from gsp_householder.statistics._kernels import block_sums
from gsp_householder.statistics.dask_arrays import statistics_from_dask
from gsp_householder.statistics.dispatch import as_statistics
from gsp_householder.statistics.signal_statistics import SignalStatistics
from gsp_householder.statistics.streaming import (
    iter_column_blocks,
    statistics_from_blocks,
    statistics_from_npy,
)

__all__ = [
    "SignalStatistics",
    "as_statistics",
    "block_sums",
    "iter_column_blocks",
    "statistics_from_blocks",
    "statistics_from_dask",
    "statistics_from_npy",
]
