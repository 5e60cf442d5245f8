"""Graphs too close to the complete graph to say anything about noisy eigenvectors.

The complete graph (equal eigenvalues) is valid for every basis, and noisy eigenvectors
are fitted as well by it with a few pairs dropped and the weights moved at the noise
level: a graph whose missing pairs are fewer than a spanning tree's $n - 1$ edges (its
complement cannot be connected) differs from the complete graph by less than any
connected graph has. The Krackhardt kite (10 nodes, 18 edges) perturbed by 1e-3 came
back with 42 of its 45 pairs (F1 0.53, draws 0 and 1 of ``bench_audit.py``) and no
warning: a member of the noisy constant-diagonal family, whose candidates are filtered
the same way in one branch of the search (``_regular_candidates._not_near_complete``).
The warning is issued for such members only: a weighted graph may be near complete
(the projection of Davis southern women on the women: 139 edges of 153 pairs).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations


def near_complete(n: int, n_edges: int) -> bool:
    """Whether a graph of ``n_edges`` edges on ``n`` nodes misses fewer than $n - 1$ of
    the pairs, and not none (the complete graph has its own warning).

    >>> near_complete(10, 42), near_complete(10, 36), near_complete(10, 45)
    (True, False, False)
    """
    missing = n * (n - 1) // 2 - n_edges
    return 0 < missing < n - 1
