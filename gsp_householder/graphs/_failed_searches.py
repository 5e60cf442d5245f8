"""Prefix searches that found nothing, kept with the basis and replayed.

A prefix search (``_support_search.PrefixSearch.run``) draws nothing from a generator:
its outcome is a function of the basis, the order of the pairs, the start, whether it
bisects, and its tolerance, noise and rounding levels. Searched again with all of
these the same, a search that found nothing finds nothing again, after the same
evaluations. On exact trees the ladders of one basis make such searches more than
once (the leverage rankings at the refit levels 1e-6, 1e-4 and 1e-3, first before the
fitted rankings (``_rounding_refit``), then again in the refits of a graph that does
not fit (``_refit_misfit``): ``random_lobster_graph(40, 0.6, 0.4, seed=0)`` exact, 20
of 53 searches, 3.7 of 22 CPU s). The failures are kept with the basis
(``PairBasis.failed_searches``) and replayed: the evaluations they counted are counted
again and the progress hook is called with the same sizes, so that the history and
the progress bar are those of the searches made.

Bases of up to ``MAX_N`` nodes only (the ladders' ``_thresholds.LADDER_MAX_N``: above, a
search's order of pairs is tens of megabytes, and the searches are not repeated so).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import numpy as np

#: Most nodes of a basis whose failed searches are kept: ``_thresholds.LADDER_MAX_N``
#: (not imported: ``_thresholds`` imports ``_support_search``, which imports this module).
MAX_N = 500


def search_key(search, start, bisect) -> tuple:
    """What the outcome of ``search.run(start, bisect)`` depends on besides the basis: a
    digest of the order of the pairs, the start, the bisection, the levels, the
    near-null limit (``graph_energy``), and the local columns of the basis (which come
    first in the order searched)."""
    digest = hashlib.blake2b(digest_size=16)
    for a in (search.i, search.j):
        digest.update(np.ascontiguousarray(a, dtype=np.int64).tobytes())
    local = tuple(np.asarray(g.cols).tobytes() for g in search.B.local_groups)
    return (digest.hexdigest(), len(search.i), None if start is None else int(start),
            bool(bisect), search.tol, search.noise, search.rounding,
            search.search_truncated, search.refit, search.graph_energy, local)


def remembered_run(search, start, bisect, run: Callable, hook_var):
    """``run(start, bisect)`` (the search itself), or None when the same search of this
    basis found nothing before: its evaluations are then counted in
    ``search.n_evaluations`` and the progress hook (the value of the context variable
    ``hook_var``) called with the sizes it was called with."""
    B = search.B
    if B.n > MAX_N:
        return run(start, bisect)
    key = search_key(search, start, bisect)
    hook = hook_var.get()
    if key in B.failed_searches:
        count, sizes = B.failed_searches[key]
        search.n_evaluations += count
        if hook is not None:
            for c in sizes:
                hook(c)
        return None
    sizes = []

    def record(c):
        sizes.append(c)
        if hook is not None:
            hook(c)

    before = search.n_evaluations
    token = hook_var.set(record)
    try:
        fit = run(start, bisect)
    finally:
        hook_var.reset(token)
    if fit is None:
        B.failed_searches[key] = (search.n_evaluations - before, sizes)
    return fit
