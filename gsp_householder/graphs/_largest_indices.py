"""The indices of the largest entries of a vector, largest first, without sorting it all.

The cutting-plane rounds and certificate chains of the linear programs
(``_template_lp``) and the band rounds of the prefix searches
(``_support_search.PrefixSearch._band_lp``) add, at each round, the few pair rows (50 to
1000) most violated among every pair of a prefix: up to 497 499 pairs at $n = 1000$,
which a full ``numpy.argsort`` sorts in about 40 ms, the time of several small linear
programs. Selecting them (``numpy.argpartition``) and sorting only those gives the same
indices in the same order whenever no two of them, nor the largest entry left out, are
equal: the order of distinct values is unique. Otherwise the full sort is made, so the
answer is always that of ``numpy.argsort(-values)[:k]``, ties broken as it breaks them.

The rounds keep only the rows chosen whose entry is above a level (``largest_above``).
Most entries of a round are not above it (the rows already added are set to zero), so
that a tie among them, which sent ``largest_indices`` to the full sort on most rounds
(PyGSP ``Sensor(1000, seed=5)`` perturbed by 1e-3: 583 calls, about 8 CPU s of sorts),
cannot change which rows are kept nor their order: only the entries above the level are
selected and sorted.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np


def largest_indices(values: np.ndarray, k: int) -> np.ndarray:
    """``numpy.argsort(-values)[:k]``, the same indices in the same order.

    Parameters
    ----------
    values : numpy.ndarray
        One-dimensional array of floats.
    k : int
        Number of indices wanted.

    Returns
    -------
    numpy.ndarray
        The indices of the ``k`` largest entries (all of them if fewer), largest first.
    """
    values = np.asarray(values)
    k = int(k)
    if k <= 0 or k >= values.size or np.isnan(values).any():
        return np.argsort(-values)[: max(k, 0)]
    top = np.argpartition(-values, k - 1)[:k]
    chosen = values[top]
    if np.count_nonzero(values >= chosen.min()) != k or np.unique(chosen).size != k:
        # a tie among the chosen entries or with the largest one left out: the order
        # (or the choice) is the full sort's
        return np.argsort(-values)[:k]
    return top[np.argsort(-chosen)]


def largest_above(values: np.ndarray, k: int, level: float) -> np.ndarray:
    """The indices of ``largest_indices(values, k)`` whose value is above ``level``, in
    the same order.

    A full sort orders every entry above ``level`` before every other (and NaN last), so
    the first ``k`` indices of ``numpy.argsort(-values)`` kept when above ``level`` are
    the first ``k`` of the entries above it, in their order: only those entries are
    selected and sorted. That order is unique unless two of the chosen entries tie, or
    one ties with the largest entry above ``level`` left out; then (as in
    ``largest_indices``) the answer is the full sort's.

    Parameters
    ----------
    values : numpy.ndarray
        One-dimensional array of floats.
    k : int
        Number of indices looked at.
    level : float
        The value the entries kept must exceed.

    Returns
    -------
    numpy.ndarray
        The indices of at most ``k`` entries above ``level``, largest first.

    Examples
    --------
    >>> largest_above(np.array([0.0, 3.0, 0.0, 2.0, 0.0]), 4, 0.0).tolist()
    [1, 3]
    """
    values = np.asarray(values)
    k = int(k)
    above = np.flatnonzero(values > level)
    if k <= 0 or above.size == 0:
        return above[:0]
    candidates = values[above]
    top = np.argpartition(-candidates, k - 1)[:k] if above.size > k else np.arange(above.size)
    chosen = candidates[top]
    if np.unique(chosen).size != chosen.size or (
        above.size > k and np.count_nonzero(candidates >= chosen.min()) != k
    ):
        full = largest_indices(values, k)
        return full[values[full] > level]
    return above[top[np.argsort(-chosen)]]
