"""Groupings of exact eigenvector columns refined by the eigenvalues of other graphs.

Every graph diagonalised by an exact basis ``V`` is $V \\operatorname{diag}(l) V^T$, and
the grouped search looks for one whose eigenvalue vector $l$ is constant on groups of
columns (the eigenspaces of a graph found). With repeated eigenvalues a graph found
need not be a function of the true Laplacian: two columns of different true
eigenspaces can share its eigenvalue (``balanced_tree(3, 4)``: the columns of
eigenvalues 1.197 and 6.803, and of 2.930 and 5.070, equal in four of the six graphs
of the first search), and no member of the grouped family is then the truth. Columns
of one true eigenspace share the eigenvalue of every graph that is a function of the
truth; a column pair that another graph diagonalised by ``V`` separates is split
here. Refining by every graph found at once splits the true eigenspaces into pieces
of a rotated basis, whose pair rows no longer single out the edges (74 groups, 1313
edges for the tree's 120): the refinements are taken one graph at a time.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def group_labels(groups: Sequence[Sequence[int]], n: int) -> np.ndarray:
    """The index of the group of each of the ``n`` columns."""
    labels = np.full(n, -1, dtype=np.intp)
    for k, g in enumerate(groups):
        labels[np.asarray(g, dtype=np.intp)] = k
    return labels


def common_refinement(first, other, n: int) -> list[list[int]]:
    """Groups of the columns that share a group in both groupings, ordered by their
    smallest column."""
    pairs = np.stack([group_labels(first, n), group_labels(other, n)], axis=1)
    _, inverse = np.unique(pairs, axis=0, return_inverse=True)
    inverse = inverse.ravel()
    groups = [np.flatnonzero(inverse == u).tolist() for u in range(int(inverse.max()) + 1)]
    return sorted(groups, key=lambda g: g[0])


def refined_groupings(first, others, n: int) -> list[list[list[int]]]:
    """The common refinements of ``first`` with each grouping of ``others`` (None
    entries skipped) that differ from ``first`` and from each other and leave some
    group of two or more columns, coarsest (fewest groups) first."""
    out, seen = [], {frozenset(map(tuple, common_refinement(first, first, n)))}
    for other in others:
        if other is None:
            continue
        groups = common_refinement(first, other, n)
        key = frozenset(map(tuple, groups))
        if key in seen or len(groups) >= n:
            continue
        seen.add(key)
        out.append(groups)
    out.sort(key=len)
    return out
