"""A cycle's order repaired by sorting its windows along the columns localised there.

Weights spread over several decades leave chains of six to sixteen heavy edges between
weak ones, whose nodes sit at nearly the same angle in the plane of the winding pair;
the noise scrambles them beyond the adjacent swaps of ``_cycle_repair.repair_order``
and the block windows of ``_cycle_blocks.reorder_blocks`` (at most ``MAX_BLOCK``
places, every order of them), and no move of a few nodes lowers the support misfit
from there (cycles of lognormal weights, $\\sigma = 2$, perturbed by 1e-3: 350 nodes,
weight seed 9, draw 1, 337 of the 350 edges after the blocks, 4.3071e-7 against
4.0674e-7 for the truth; 450 nodes, seed 5, draw 1, 443 of 450, the chain 438-444 of
weights 1.6 to 56 read 443 438 444 441 440 442 439; 500 nodes, seed 3, draw 2, 469 of
500). Reversing up to six places or moving a node up to six places gains no more than
0.01 % of that gap.

Such a chain has columns of its own, as a heavy edge has (``_cycle_read``): a column
localised on a stretch of the cycle varies along it as an eigenvector of a weighted
path, and its entries are monotone between the stretch's extremes, with steps that
are not small against the noise however heavy the edges are (the 450-node chain:
-0.608, -0.416, -0.404, -0.346, -0.338, 0.012, 0.201, 0.242 on 445 down to 438, its
column's largest entry 1). So each column whose fewest nodes holding ``MIN_COS``
squared of its squared norm (``_cycle_read.column_block``) lie within ``MAX_SPAN``
consecutive places of the order proposes, for every run of at least two of those
places, their nodes sorted by its entries, either way round (`sorted_windows`), and
`sort_windows` descends on these moves as ``reorder_blocks`` does on its windows
(``_cycle_blocks.descend``: each move scored by its exact support misfit without an
eigensolve). It reaches the truth on the three cycles above in one or two rounds
(2 to 7 CPU s); with ``MAX_SPAN`` = 15 the 350- and 500-node cycles end short of it
(their scrambled stretches span 17 places).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._cycle_blocks import MAX_BLOCK, _block_places, descend
from gsp_householder.graphs._cycle_read import column_block

#: Most consecutive places a column's nodes may span to have their windows sorted (a
#: cost cap: a span of $m$ places proposes $m (m - 1)$ orders, the square of the
#: ``MAX_BLOCK`` places of a block window).
MAX_SPAN = MAX_BLOCK**2


def sorting_columns(V, zero_column: int) -> list[tuple[np.ndarray, np.ndarray]]:
    """``(block, column)`` for each column of ``V`` but ``zero_column`` whose fewest
    nodes holding ``MIN_COS`` squared of its squared norm number two to ``MAX_SPAN``
    (``_cycle_read.column_block``)."""
    V = np.asarray(V)
    found = []
    for k in range(V.shape[1]):
        block = None if k == zero_column else column_block(V[:, k], MAX_SPAN)
        if block is not None:
            found.append((block, V[:, k]))
    return found


def sorted_windows(order: np.ndarray, columns) -> list[tuple[int, tuple[int, ...]]]:
    """The moves ``(start, nodes)`` of the module docstring: for each ``(block,
    column)`` of ``columns`` whose nodes lie within ``MAX_SPAN`` consecutive places of
    ``order``, every run of at least two of those places with its nodes sorted by the
    column's entries, ascending and descending (the runs already so left out)."""
    n = order.size
    position = np.empty(n, dtype=int)
    position[order] = np.arange(n)
    moves = set()
    for block, column in columns:
        start, length = _block_places(position, block, n)
        if length > MAX_SPAN or length + 2 > n:
            continue
        places = (start + np.arange(length)) % n
        for first in range(length - 1):
            for last in range(first + 2, length + 1):
                nodes = order[places[first:last]]
                ranked = nodes[np.argsort(column[nodes], kind="stable")]
                for sorted_nodes in (ranked, ranked[::-1]):
                    if not np.array_equal(sorted_nodes, nodes):
                        moves.add((int(places[first]), tuple(int(a) for a in sorted_nodes)))
    return sorted(moves)


def sort_windows(basis, order) -> np.ndarray:
    """The order the descent of the module docstring ends at from the nodes in
    ``order`` on the anchored basis ``basis`` (``"V"``, ``"V_anchored"``,
    ``"zero_column"``); ``order`` itself when no sorted window lowers its misfit."""
    columns = sorting_columns(basis["V"], basis["zero_column"])
    return descend(basis, order, lambda current: sorted_windows(current, columns))
