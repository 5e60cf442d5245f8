"""The rounding level of the signals as they were given: float32 or float64.

Signals given in float32 (or float64 values that are all float32 numbers, as when a
float32 file is read into float64) carry a rounding error of up to $2^{-24}$ of each
entry. It is not white noise: it follows the entries' magnitudes, so the zero
cluster of $V^T Y$ at the truth is not alike in every row, and the zero-cluster tests
of `gsp_householder.learning.whole_basis` refuse the truth there (Les Miserables from
$p = 5n$ at $\\theta = 0.1$ in float32: spread 2.1 for a bound of 1.6, basis exact to
$6.5 \\cdot 10^{-8}$). A start whose off-support part is at that rounding level fits
the signals as well as their format allows, and is accepted on that ground.
"""

from __future__ import annotations

import numpy as np


def input_rounding(Y: np.ndarray) -> float:
    """The relative rounding of the entries of ``Y``: float32's or float64's epsilon.

    ``Y`` is float32, or float64 whose every entry is a float32 number, for the
    first (``np.finfo(np.float32).eps``, twice the unit roundoff $2^{-24}$);
    otherwise float64's.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning._input_precision import input_rounding
    >>> Y = np.random.default_rng(0).standard_normal((3, 4))
    >>> input_rounding(Y) == float(np.finfo(np.float64).eps)
    True
    >>> input_rounding(Y.astype(np.float32)) == float(np.finfo(np.float32).eps)
    True
    >>> input_rounding(Y.astype(np.float32).astype(np.float64)) == float(np.finfo(np.float32).eps)
    True
    """
    if Y.dtype == np.float32:
        return float(np.finfo(np.float32).eps)
    with np.errstate(over="ignore"):
        # the first row decides most float64 inputs without a float32 copy of them all
        single = (np.array_equal(Y[:1].astype(np.float32), Y[:1])
                  and np.array_equal(Y.astype(np.float32), Y))
    return float(np.finfo(np.float32 if single else np.float64).eps)
