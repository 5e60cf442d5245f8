"""The result of an iterative dictionary-learning method."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from gsp_householder.householder import HouseholderProduct

__all__ = ["DictionaryResult"]


@dataclass
class DictionaryResult:
    """What an iterative method returns: the dictionary, the codes and the history.

    Attributes
    ----------
    dictionary : HouseholderProduct or ndarray of shape (n, n)
        The estimated orthogonal dictionary; a HouseholderProduct where the
        method has that structure, else a dense orthogonal array.
    codes : ndarray of shape (n, p)
        The sparse codes $\\hat X$ at the last iterate.
    history : dict of str to list of float
        Per-iteration diagnostics (for example ``"objective"``, ``"change"``).
    n_iter : int
        Number of iterations run.
    converged : bool
        Whether the method met its convergence test before ``n_iter`` ran out.
    """

    dictionary: HouseholderProduct | np.ndarray
    codes: np.ndarray
    history: dict[str, list[float]] = field(default_factory=dict)
    n_iter: int = 0
    converged: bool = False

    def __iter__(self):
        """Unpack as ``dictionary, codes = result`` (history stays an attribute)."""
        return iter((self.dictionary, self.codes))
