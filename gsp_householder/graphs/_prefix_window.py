"""The prefix sizes between a prefix that leaves edges among the pairs after it and one
that leaves a truncated near-null family, searched before the doubling goes on.

``PrefixSearch._run`` doubles the prefix size $c$ from $n - 1$ until the pairs after
the prefix hold a valid Laplacian. Too small a prefix leaves edges among those pairs
(no direction is clean); too large a one leaves so few pairs that more than
``MAX_FAMILY`` directions fit them (a truncated family, rejected unless the search asks
for it), and a larger prefix leaves fewer pairs still. In the uncapped rankings'
searches (``_graph_energy``: their families are held to a graph's noise energy, and
they grow fast with $c$) the window between the two can be narrower than a doubling
step: ``random_labeled_tree(500, seed=5)`` perturbed by 1e-3, uncapped ranking of 16
directions (estimate 2.4e-4): the edges end at the 21981st pair, the family holds the
truth (to 5e-4) and a valid Laplacian at 22000 and 26000 pairs, and is truncated (64
directions) at 31936, the doubling step after 15968. There the window is bisected:
a prefix that leaves a truncated family moves the upper end down, one that fails
otherwise the lower end up, until a prefix holds a valid Laplacian or the window is
as narrow as the search's bisection (``hi // 200``). A failure without a truncated
family may also lie above the valid prefixes (their family no longer holds a valid
Laplacian before it is truncated), where the bisection steps over them: the window's
sizes are then scanned upwards in ``WINDOW_SCAN`` steps (``window_scan``). If none
holds one, the doubling goes on as before.

A prefix found so stands beside prefixes whose near-null families were cut at
``MAX_FAMILY``: its own family is near that size, and its members need not hold the
sparsest graph. On held-out trees the window gave the tree (350 to 500 nodes, seeds 5,
8, 30) but also graphs of 1821 edges for 399 (tree(400, seed 30)) and 2270 for 499
(tree(500, seed 30), where the complete graph was returned, warned, before): a graph
found from such a prefix that is not a tree (no connected graph is sparser) is warned
of (``window_doubt``, ``history["prefix_window_fits"]``). Nor does such a graph end the
noisy ladder (``doubtful_window_graph``): on ``random_labeled_tree(350, seed=9)``
perturbed a window prefix's 850 edges were the second graph consistent with the noise,
the ladder stopped before the ranking whose smaller estimate led to the tree, and
847 edges were returned (warned) for the tree.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder.exceptions import ConvergenceWarning

#: Parts of the window whose sizes are scanned in turn when its bisection finds no valid
#: prefix (``window_fit``).
WINDOW_SCAN = 16


def window_fit(search, lo: int, lo_gram, hi: int):
    """``(fit, c, lo, lo_gram)``: a ``Fit`` of ``search`` (a ``PrefixSearch``) at a
    prefix size ``c`` between ``lo`` (failed, not truncated; ``lo_gram`` the Gram of the
    pairs after it) and ``hi`` (failed with a truncated family), and the largest failed
    size below ``c`` with its Gram; or None when none of the sizes tried holds one.
    ``search.truncated_miss`` tells whether its last evaluation failed on a truncated
    family.

    The window is bisected first; if that finds no valid prefix, its sizes are scanned
    upwards (``window_scan``)."""
    start, start_gram, top = lo, lo_gram, hi
    while hi - lo > max(1, hi // 200):
        mid = (lo + hi) // 2
        gram = lo_gram.without(search.i[lo:mid], search.j[lo:mid])
        fit = search.evaluate(mid, gram)
        if fit is not None:
            return fit, mid, lo, lo_gram
        if search.truncated_miss:
            hi = mid
        else:
            lo, lo_gram = mid, gram
    return window_scan(search, start, start_gram, min(hi, top))


def window_scan(search, lo: int, lo_gram, hi: int):
    """``window_fit``'s answer from the sizes ``lo + k (hi - lo) / WINDOW_SCAN`` below
    ``hi`` in turn (steps no finer than the bisection's resolution, ``hi // 200``), up
    to the first that holds a valid Laplacian or leaves a truncated family (a larger
    prefix leaves fewer pairs and a larger family); None if none holds one.

    A failure that is not truncated does not say on which side of the valid prefixes a
    size lies: below them the pairs after the prefix hold edges, above them (before the
    family is truncated) the family no longer holds a valid Laplacian. The bisection
    takes every such failure for the first and may step over the valid prefixes
    (``random_labeled_tree(500, seed=9)`` perturbed by 1e-3, uncapped ranking of 16
    directions: the edges end at the 24393rd pair, the family holds a valid Laplacian
    from there to about 27000 pairs and none at 27944, the bisection's first size
    between 15968 and 31936, which then moved the window's lower end above the valid
    prefixes).
    """
    step = max(1, hi // 200, (hi - lo) // WINDOW_SCAN)     # no finer than the bisection
    c = lo + step
    while c < hi:
        gram = lo_gram.without(search.i[lo:c], search.j[lo:c])
        fit = search.evaluate(c, gram)
        if fit is not None:
            return fit, c, lo, lo_gram
        if search.truncated_miss:
            return None
        lo, lo_gram, c = c, gram, c + step
    return None


def doubtful_window_graph(history: dict, fits_before: int, edges: int, B) -> bool:
    """Whether a search that took window prefixes (``history["prefix_window_fits"]``
    above ``fits_before``, its count before the search) gave a graph of ``edges`` edges
    that ``window_doubt`` warns of: neither a tree nor the complete graph on the basis
    ``B``'s ``n`` nodes (``n_pairs`` edges), read only when a window prefix was taken."""
    return (history.get("prefix_window_fits", 0) > fits_before
            and B.n - 1 < edges < B.n_pairs)


def window_doubt(history: dict, edges: int, n: int, n_pairs: int) -> None:
    """Warn when the searches took prefixes found in a window
    (``history["prefix_window_fits"]``) and the inferred graph (``edges`` edges on ``n``
    nodes) is neither a tree nor the complete graph (warned of already)."""
    fits = history.get("prefix_window_fits", 0)
    if not fits or edges <= n - 1 or edges >= n_pairs:
        return
    warn_at_caller(f"the inferred graph ({edges} edges) comes from searches whose valid "
                   f"prefixes lay between a prefix that left edges and one that left a "
                   f"truncated family ({fits} such prefix(es)): its family is near the "
                   f"largest searched, and a sparser graph that fits as well may be "
                   f"outside it", ConvergenceWarning)
