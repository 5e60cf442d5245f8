"""One entry point for every kind of signal data: arrays, dask arrays, or statistics.

`as_statistics` sits above the kinds it dispatches to (`SignalStatistics` for
in-memory arrays, `statistics_from_dask` for dask arrays), so that no lower
module has to know about the others.
"""

from __future__ import annotations

from gsp_householder.statistics.signal_statistics import SignalStatistics

__all__ = ["as_statistics"]


def as_statistics(Y) -> SignalStatistics:
    """Return ``Y`` if it is a SignalStatistics, else the statistics of the array ``Y``.

    Dask arrays are reduced in one parallel pass (needs the ``dask`` extra).

    Parameters
    ----------
    Y : array_like of shape (n, p), dask array, or SignalStatistics
        Signals as columns, or their statistics.

    Returns
    -------
    SignalStatistics

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.statistics.dispatch import as_statistics
    >>> as_statistics(np.ones((3, 2))).count
    2
    """
    if isinstance(Y, SignalStatistics):
        if Y.count == 0:
            raise ValueError("Y is a SignalStatistics with no columns (count = 0): update it "
                             "with at least one column")
        return Y
    if type(Y).__module__.startswith("dask"):
        from gsp_householder.statistics.dask_arrays import statistics_from_dask

        return statistics_from_dask(Y)
    return SignalStatistics.from_array(Y)
