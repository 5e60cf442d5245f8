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


def rounding_level_fit(
    ladder: Callable, rng, history: dict, edges: int, misfit: float = 0.0, n_pairs: int = 0
):
    """``(ranked, dim)`` of the rankings searched at the noise level ``EXACT_LEVEL``
    when their graph fits the exact eigenvectors to rounding (residual at most
    ``ROUNDING_FIT``) with at most ``edges`` edges (the exact searches' graph's), or
    with more when that graph does not fit them (``fit_replaces_misfit``), with
    ``history`` and ``rng`` then as those searches left them (``history["noise"]`` 0,
    the level, the graph's size and residual in ``history["misfit_refits"]``, the graph
    replaced in ``history["misfit_replaced"]`` when it did not fit); else None, and both
    as they were.

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
        Edges of the graph of the exact searches.
    misfit : float
        That graph's residual (``_diagonal_fit``): above ``ROUNDING_FIT`` it does not
        fit the eigenvectors; 0 (the default) when it fits them.
    n_pairs : int
        Pairs of nodes.

    Returns
    -------
    tuple or None
    """
    trial, own = copy.deepcopy(history), copy.deepcopy(rng)
    for key in RECORDS:
        trial.pop(key, None)
    ranked, dim, residual = ladder(own, trial, EXACT_LEVEL)
    if (
        not ranked
        or residual > ROUNDING_FIT
        or (ranked[0][0] > edges and not fit_replaces_misfit(misfit, ranked[0][0], n_pairs))
    ):
        return None
    for key in RECORDS:
        trial.pop(key, None)
        if key in history:
            trial[key] = history[key]
    history.clear()
    history.update(trial)
    history["misfit_refits"] = [(EXACT_LEVEL, int(ranked[0][0]), float(residual))]
    history["noise"] = 0.0
    record_replaced_misfit(history, edges, misfit)
    if rng is not None:
        rng.bit_generator.state = own.bit_generator.state
    return ranked, dim


def fit_replaces_misfit(misfit: float, edges: int, n_pairs: int) -> bool:
    """Whether a graph of ``edges`` edges that fits exact eigenvectors to rounding
    (``ROUNDING_FIT``) replaces, whatever their sizes, the exact searches' graph of
    residual ``misfit``: when that graph does not fit them (``misfit`` above
    ``ROUNDING_FIT``) and the one found holds at most half the ``n_pairs`` pairs.

    Every graph that shares exact eigenvectors fits them to rounding, so a graph that
    does not is not one of them, however sparse: the one that fits is the answer. The
    exact searches' linear-program vertices can zero entries of a graph's family that
    are not zero, and the graph they give is then sparser than the family's graphs
    and off by more than rounding: ``random_geometric_graph(300, 0.1, seed=62)``
    (largest component; an eigenvalue of multiplicity 6) gave 1268 edges for 1310 at a
    residual of 1.4e-6 while the rankings at the levels ``EXACT_LEVEL`` to 1e-3 gave
    1276, fitting to 3e-14. Above half the pairs the graph found is not taken: the
    complete graph fits every basis, and the complement of an equal-weight graph shares
    its eigenvectors with fewer edges.

    Parameters
    ----------
    misfit : float
        Residual (``_diagonal_fit``) of the exact searches' graph.
    edges : int
        Edges of the graph that fits to rounding.
    n_pairs : int
        Pairs of nodes.

    Returns
    -------
    bool
    """
    return misfit > ROUNDING_FIT and 2 * edges <= n_pairs


def record_replaced_misfit(history: dict, edges: int, misfit: float) -> None:
    """Record in ``history["misfit_replaced"]`` the size ``edges`` and the residual
    ``misfit`` of the exact searches' graph when it did not fit the eigenvectors to
    rounding (``ROUNDING_FIT``) and a graph that fits them replaced it.

    Parameters
    ----------
    history : dict
        The searches' history.
    edges : int
        Edges of the graph replaced.
    misfit : float
        Its residual (``_diagonal_fit``).
    """
    if misfit > ROUNDING_FIT:
        history["misfit_replaced"] = (int(edges), float(misfit))
