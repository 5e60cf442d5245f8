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
