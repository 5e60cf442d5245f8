"""``largest_indices`` is ``numpy.argsort(-values)[:k]``, ties and all
(``_largest_indices``)."""

import numpy as np
import pytest

from gsp_householder.graphs._largest_indices import largest_indices


def _values(kind, n, rng):
    v = rng.standard_normal(n)
    if kind == "rounded":  # many ties, at the boundary and among the chosen
        v = np.round(v, 1)
    elif kind == "zeros":  # +0 and -0 compare equal
        v[rng.integers(0, n, n // 3)] = 0.0
        v[rng.integers(0, n, 5)] = -0.0
    elif kind == "nan":
        v[rng.integers(0, n)] = np.nan
    return v


@pytest.mark.parametrize("kind", ["distinct", "rounded", "zeros", "nan"])
def test_the_same_indices_in_the_same_order_as_a_full_sort(kind):
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 2000))
        v = _values(kind, n, rng)
        for k in (0, 1, int(rng.integers(1, n + 1)), n, n + 2):
            assert np.array_equal(largest_indices(v, k), np.argsort(-v)[:k])


def test_a_tie_at_the_boundary_keeps_the_full_sorts_choice():
    v = np.array([3.0, 1.0, 2.0, 1.0, 1.0, 0.5])
    assert largest_indices(v, 3).tolist() == np.argsort(-v)[:3].tolist()
    assert largest_indices(v, 2).tolist() == [0, 2]
