"""A broom read from a spanning tree whose star part is right: the handle as a path.

A broom is a path (the handle) whose last node, the hub, carries leaves. With weights
that differ, the leaves of equal weight give eigenspaces of high multiplicity, and the
reweighted $\\ell_1$ programs of ``_weighted_tree`` read the star part (the hub and its
leaves) but can end at trees whose handle skips nodes, edges $(i, i + 2)$ in place of
$(i, i + 1)$: on the perturbed (1e-3) brooms (30, 50) and (20, 45) with integer weights
3 to 14 of the handle's edges are wrong, and the trees leave 20 to 75 times the
rankings' smallest noise estimate.

The order of the handle is what those trees miss, and one column of the eigenvectors
gives it: the Fiedler vector of a tree is monotone along every path from its
characteristic vertex (Fiedler, 1975), and a path through that vertex has the vector's
values of one sign increasing on one side and of the other sign decreasing on the other,
so that sorting the handle's nodes by it orders the whole path, the hub at an end.
Without the eigenvalue order the Fiedler vector is not known; ``broom_orders`` sorts the
handle by each column in turn and keeps the orders that end at the hub, and
``_weighted_tree`` keeps the broom whose fitted weights (``fitted_weights``) leave the
least residual (``_laplacian_fit._diagonal_fit``), judged as every tree read from the
programs is (``_weighted_tree.accepted``). It reads those two brooms on each of their
draws 0 to 3, where the programs alone read none.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np


def star_part(rows: np.ndarray, cols: np.ndarray, n: int) -> tuple[int, np.ndarray]:
    """``(hub, leaves)`` of the tree of edges ``(rows, cols)`` on ``n`` nodes: the node of
    largest degree and its neighbours of degree 1.

    Examples
    --------
    >>> import numpy as np
    >>> hub, leaves = star_part(np.array([0, 1, 2, 2]), np.array([1, 2, 3, 4]), 5)
    >>> hub, leaves.tolist()
    (2, [3, 4])
    """
    degree = np.bincount(np.concatenate([rows, cols]), minlength=n)
    hub = int(np.argmax(degree))
    neighbours = np.concatenate([cols[rows == hub], rows[cols == hub]])
    return hub, np.sort(neighbours[degree[neighbours] == 1])


def broom_edges(order: np.ndarray, leaves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The edges ``(rows, cols)`` of the path through the nodes ``order``, whose last node
    carries the ``leaves``."""
    hub = int(order[-1])
    rows = np.concatenate([order[:-1], np.full(leaves.size, hub)])
    cols = np.concatenate([order[1:], leaves])
    return rows.astype(np.intp), cols.astype(np.intp)


def broom_orders(V: np.ndarray, rows: np.ndarray, cols: np.ndarray) -> list:
    """The brooms with the star part of the tree of edges ``(rows, cols)``
    (``star_part``) whose handle, the tree's other nodes and the hub, is a path in the
    order of one column of ``V`` that ends at the hub (module docstring): their edges
    ``(rows, cols)``, one per order; none when the handle has fewer than three nodes
    (the tree is its own broom).

    Parameters
    ----------
    V : numpy.ndarray
        Orthogonal basis, shape ``(n, n)``.
    rows, cols : numpy.ndarray
        The edges of a spanning tree.

    Returns
    -------
    list of tuple of numpy.ndarray

    Examples
    --------
    >>> import networkx as nx
    >>> import numpy as np
    >>> G = nx.path_graph(4)
    >>> G.add_edges_from([(3, 4), (3, 5), (3, 6)])
    >>> V = np.linalg.eigh(nx.laplacian_matrix(G).toarray().astype(float))[1]
    >>> wrong = (np.array([0, 1, 1, 3, 3, 3]), np.array([2, 2, 3, 4, 5, 6]))
    >>> path = [0, 1, 2, 3]
    >>> any(r[:3].tolist() in (path[:3], path[::-1][1:]) for r, _ in broom_orders(V, *wrong))
    True
    """
    n = V.shape[0]
    hub, leaves = star_part(rows, cols, n)
    outside = np.ones(n, dtype=bool)
    outside[leaves] = False
    handle = np.flatnonzero(outside)
    if handle.size < 3:
        return []
    seen, brooms = set(), []
    for column in V.T:
        order = handle[np.argsort(column[handle], kind="stable")]
        order = order if order[-1] == hub else order[::-1]
        if order[-1] == hub and (key := order.tobytes()) not in seen:
            seen.add(key)
            brooms.append(broom_edges(order, leaves))
    return brooms
