"""``largest_above`` keeps the rows a full sort would keep, in its order, and sorts only
the entries above the level (``_largest_indices``)."""

import numpy as np
import pytest

import gsp_householder.graphs._largest_indices as largest
from gsp_householder.graphs._largest_indices import largest_above


def _full_sort_kept(v, k, level):
    chosen = np.argsort(-v)[:k]
    return chosen[v[chosen] > level]


def _excess(kind, n, rng):
    """Violations as the cutting-plane rounds make them: most rows zeroed (added or not
    selectable), the others spread around the level."""
    v = rng.standard_normal(n)
    v[rng.random(n) < 0.8] = 0.0
    if kind == "rounded":  # ties above the level, at the boundary and among the chosen
        v = np.round(v, 1)
    elif kind == "negative zeros":
        v[rng.integers(0, n, 5)] = -0.0
    elif kind == "nan":
        v[rng.integers(0, n)] = np.nan
    return v


@pytest.mark.parametrize("kind", ["distinct", "rounded", "negative zeros", "nan"])
def test_the_rows_kept_by_a_full_sort_in_its_order(kind):
    rng = np.random.default_rng(1)
    for _ in range(50):
        n = int(rng.integers(1, 2000))
        v = _excess(kind, n, rng)
        for k in (0, 1, int(rng.integers(1, n + 1)), n, n + 2):
            for level in (0.0, 1e-9, 0.5, -0.3):
                assert np.array_equal(largest_above(v, k, level), _full_sort_kept(v, k, level))


def test_ties_not_above_the_level_are_not_sorted(monkeypatch):
    """The zeroed rows tie: ``largest_indices`` would sort them all; the rows above the
    level are distinct, so their order is read without the full sort."""
    v = np.zeros(10_000)
    v[[7, 4000, 9999, 12]] = [0.5, 2.0, 1e-3, 1.0]

    def no_full_sort(values, k):
        raise AssertionError("full sort")

    monkeypatch.setattr(largest, "largest_indices", no_full_sort)
    assert largest_above(v, 50, 1e-9).tolist() == [4000, 12, 7, 9999]
    assert largest_above(v, 2, 1e-9).tolist() == [4000, 12]
    assert largest_above(v, 50, 3.0).tolist() == []


def test_a_tie_above_the_level_keeps_the_full_sorts_choice():
    v = np.array([0.0, 1.0, 2.0, 1.0, 1.0, 0.0, 3.0])
    assert largest_above(v, 3, 0.0).tolist() == _full_sort_kept(v, 3, 0.0).tolist()
    assert largest_above(v, 2, 0.0).tolist() == [6, 2]
