"""A cycle's node order repaired by adjacent swaps, judged by its support's misfit."""

from __future__ import annotations

import numpy as np
import pytest
from test_cycle_read import _heavy_cycle, _setup
from test_edge_test_descent import _edges

from gsp_householder.graphs._cycle_repair import repair_order, support_misfit

#: Positions of the adjacent swaps made in the cycle's order (none at a heavy edge).
SWAPS = (10, 30, 44)


def _cycle_edges(order) -> set[int]:
    """The cycle through ``order`` as the keys ``i * n + j``, ``i < j``, of `_edges`."""
    n = order.size
    after = np.roll(order, -1)
    return {int(min(a, b) * n + max(a, b)) for a, b in zip(order, after, strict=True)}


@pytest.mark.parametrize(("seed", "draw"), [(1, 0), (2, 1), (3, 2)])
def test_swapped_neighbours_are_put_back(seed, draw):
    """The cycle with three pairs of neighbours swapped in its order (six wrong edges)
    misfits more than the cycle, each swap alone too; the repair from it is the cycle,
    and from the cycle it moves nothing."""
    G = _heavy_cycle(60, seed)
    basis, W, _ = _setup(G, draw)
    cycle = np.arange(60)
    order = cycle.copy()
    for q in SWAPS:
        order[[q, q + 1]] = order[[q + 1, q]]
        one = cycle.copy()
        one[[q, q + 1]] = one[[q + 1, q]]
        assert support_misfit(basis, cycle) < support_misfit(basis, one)
    assert len(_cycle_edges(order) - _edges(W)) == 2 * len(SWAPS)
    assert _cycle_edges(repair_order(basis, order)) == _edges(W)
    assert np.array_equal(repair_order(basis, cycle), cycle)
