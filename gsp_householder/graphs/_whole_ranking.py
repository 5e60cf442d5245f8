"""Exact prefix searches of large bases stop before the whole ranking.

A prefix search (``_support_search.PrefixSearch``) doubles the number $c$ of pairs let
be edges until the pairs after the first $c$ hold a valid Laplacian in their near-null
space. Its last rung is the whole ranking: all pairs but the last
$\\max(g, 2n) + 1$, whose Gram is the Gram of all pairs downdated by every other pair
(496502 of 498501 rows at $n = 1000$). Such a Gram keeps about $4 / n$ of the full
Gram's trace; its near-null directions below the rounding level
(``PairBasis.null_floor``) are 140 to 178 on exact ``random_geometric_graph(1000,
0.055, seed=31)``, and their span is decided by the rounding of the downdate: it holds
the graph to a relative distance of 1.9e-6 while the pair bounds of an exact program
are about 1e-9, so its max-margin program fails, after the downdate (4.1 CPU s: a
``syrk`` of 216182 rows at BLAS's peak) and 1 to 23 CPU s of pair rows and
cutting-plane rounds. The same Gram formed from the pairs left (the same matrix to
rounding) finds a family there instead, whose candidates' programs take minutes.

So above ``MIN_N`` nodes (the ladders' ``_thresholds.LADDER_MAX_N``, not imported:
``_thresholds`` imports ``_support_search``, which imports this module) an exact search
(no noise level) that finds no valid prefix on its doubling does not go on to the whole
ranking: it finds nothing, as the evaluation there did on every row measured (24 exact
inputs of about 1000 nodes: 8 such evaluations on 6 of them, none found a graph; the
RGG above 84 CPU s before, 34 now, the same edges). This is a decision on rounding,
not a proof: in exact arithmetic the RGG's three whole rankings hold the graph (the
1999 pairs each holds at zero have no edge). Searches at a
noise level, or of at most ``MIN_N`` nodes, evaluate it as before.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

#: Most nodes of a basis whose exact searches evaluate the whole ranking
#: (``_thresholds.LADDER_MAX_N``).
MIN_N = 500


def stops_before_whole(n: int, noise, c: int, c_max: int) -> bool:
    """Whether a prefix search's doubling stops (finding nothing) instead of evaluating
    the next size ``c``.

    Parameters
    ----------
    n : int
        Nodes of the basis.
    noise : float or None
        The search's noise level (None or 0: exact eigenvectors).
    c : int
        The size the doubling reaches next (before it is capped at ``c_max``).
    c_max : int
        The whole ranking: the number of pairs of the search's order.

    Returns
    -------
    bool
        True for an exact search of more than ``MIN_N`` nodes whose next size is the
        whole ranking.

    Examples
    --------
    >>> stops_before_whole(1000, 0.0, 560640, 496502)
    True
    >>> stops_before_whole(1000, 1e-3, 560640, 496502)
    False
    >>> stops_before_whole(400, 0.0, 160000, 78999)
    False
    """
    return n > MIN_N and not noise and c >= c_max
