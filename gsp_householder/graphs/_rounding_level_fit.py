"""Exact eigenvectors whose eigenvalue fit is inexact beyond the exact searches' rounding.

A ranking whose kept pairs fit the eigenvectors to ``EXACT_LEVEL`` (1e-9) makes them
exact, but the exact searches hold the pairs after a prefix to the rounding
``_support_search.EXACT_NOISE`` (1e-11), a hundred times less. Close small eigenvalues
(a long path with lognormal weights) leave the eigenvalue vector fitted to a prefix
inexact by more than that, and the exact searches then find a family whose vertices do
not fit the eigenvectors: ``lollipop_graph(8, 40)`` with lognormal weights ($\\sigma$ =
0.5; eigenvalues from 0.0035 to 12.7, the rankings' estimates 2.6e-11 to 5e-10; the truth
fits them to 7e-16 with its own eigenvalues) gave the graph from one shuffle of its
exact eigenvectors and, from two others, 237-238 edges for 68 (residuals 8.5e-7 and
3.2e-6, warned) at the refit levels ``_ranking_ladder.MISFIT_LEVELS``, whose smallest,
1e-6, is too wide for it. At ``EXACT_LEVEL`` the rankings give the graph, fitting to
1e-13.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from gsp_householder.graphs._thresholds import EXACT_LEVEL, ROUNDING_FIT

#: The noisy ladders' records, which the caller's own searches keep.
RECORDS = ("noisy_graphs", "residuals")


def rounding_level_fit(ladder: Callable, rng, history: dict, edges: int):
    """``(ranked, dim)`` of the rankings searched at the noise level ``EXACT_LEVEL``
    when their graph fits the exact eigenvectors to rounding (residual at most
    ``ROUNDING_FIT``) with at most ``edges`` edges (the exact searches' graph's), with
    ``history`` and ``rng`` then as those searches left them (``history["noise"]`` 0,
    the level, the graph's size and residual in ``history["misfit_refits"]``); else
    None, and both as they were.

    Parameters
    ----------
    ladder : callable
        ``ladder(rng, history, level) -> (ranked, dim, residual)``: every ranking
        searched at the fixed noise ``level`` (``_ranking_ladder._noisy_ladder``).
    rng : numpy.random.Generator or None
        The searches' generator; a copy is drawn from.
    history : dict
        The searches' history; a copy is written to.
    edges : int
        Edges of the graph of the exact searches, which does not fit the eigenvectors
        to rounding.

    Returns
    -------
    tuple or None
    """
    trial, own = copy.deepcopy(history), copy.deepcopy(rng)
    for key in RECORDS:
        trial.pop(key, None)
    ranked, dim, residual = ladder(own, trial, EXACT_LEVEL)
    if not ranked or residual > ROUNDING_FIT or ranked[0][0] > edges:
        return None
    for key in RECORDS:
        trial.pop(key, None)
        if key in history:
            trial[key] = history[key]
    history.clear()
    history.update(trial)
    history["misfit_refits"] = [(EXACT_LEVEL, int(ranked[0][0]), float(residual))]
    history["noise"] = 0.0
    if rng is not None:
        rng.bit_generator.state = own.bit_generator.state
    return ranked, dim
