"""Columns of a local group whose supports lie inside one column's support.

``local_groups`` joins local columns whose supports share a node into one group, so a
group can hold many columns on many nodes: the leaves of a full $r$-ary tree share an
eigenvalue, the eigenvectors returned for it mix the sibling leaves of several parents,
and ``full_rary_tree(3, 120)`` perturbed by 1e-3 gives groups of 36 columns on 39
nodes. A rewiring of two sibling subtrees (a parent's children swapping their leaves)
moves only the columns supported on those subtrees' nodes; inside the whole group its
few columns are lost among the others, and the subsets of pairs drawn for the group
rarely determine them. Each column's support, with the columns inside it and the pairs
among its nodes, is a smaller system of the same kind (``nested_systems``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

#: Smallest entry of a column, relative to its largest, of a node in its support
#: (a noisy column's entries outside its support are about the noise level, $10^{-3}$
#: of its entries at a relative noise of 1e-3).
IN_SUPPORT = 1e-2


def column_supports(V_nodes) -> np.ndarray:
    """Boolean ``(k, nodes)`` supports of the ``k`` columns of ``V_nodes`` (the rows of a
    group's nodes): the entries of at least ``IN_SUPPORT`` times the column's largest."""
    A = np.abs(V_nodes)
    return (A >= IN_SUPPORT * A.max(axis=0, initial=0.0)).T


def nested_systems(supports, pair_i, pair_j) -> list[tuple[np.ndarray, np.ndarray]]:
    """The supports of a group's columns, largest first, each as ``(columns, pairs)``
    (one per set of columns): the positions of the columns whose
    supports lie inside it and of the pairs (``pair_i``, ``pair_j``: positions of the
    group's nodes) with both nodes in it.

    Parameters
    ----------
    supports : ndarray of bool, shape (k, nodes)
        The columns' supports on the group's nodes (``column_supports``).
    pair_i, pair_j : ndarray of int
        The group's pairs, as positions in its nodes.

    Returns
    -------
    list of (ndarray, ndarray)
    """
    sizes = supports.sum(axis=1)
    seen, systems = set(), set()
    out = []
    for c in np.argsort(-sizes, kind="stable"):
        s = supports[c]
        key = s.tobytes()
        if sizes[c] < 2 or key in seen:
            continue
        seen.add(key)
        columns = np.flatnonzero(~(supports & ~s).any(axis=1))
        if columns.tobytes() in systems:
            continue
        systems.add(columns.tobytes())
        out.append((columns, np.flatnonzero(s[pair_i] & s[pair_j])))
    return out
