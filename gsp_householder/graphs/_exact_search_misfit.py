"""A graph searched as for exact eigenvectors that does not fit them, or fits noisy ones.

The searches take the eigenvectors as exact (``history["noise"]`` at most
``EXACT_NOISE``: every ranking's graph is sought without a noise band) unless a
ranking's kept pairs show a noise level at which a graph is then accepted. Every graph
that shares exact eigenvectors fits them to rounding, so a graph found by exact searches
whose residual (``_diagonal_fit``) is above ``FITS_EXACTLY`` is not one of them: either
the eigenvectors are exact and the graph is not the graph sought, or they are noisy and
no search ran at their noise level. Neither result may be returned silently.

``_result_checks._exact_misfit`` asks this when some ranking's kept pairs fit the
eigenvectors to rounding and the searches at noise levels (``_refit_misfit``) ran; this
module asks it when most rankings do not fit them to rounding, where those searches do
not run. Exact eigenvectors of a
normalized Laplacian (scaled rows $V_i / u_i$, with $u = D^{1/2}\\mathbf 1$ small on
nodes of low degree) can leave every ranking above rounding:
``random_geometric_graph(100, 0.2, seed=21)`` (largest component), shuffle seed 2, gave
1131 edges for 454 (F1 0.554, family dimension 31) at a residual of 0.061 with rankings
showing noise levels 0.014 to 0.09 and no warning; the same basis learned from its
signals ($\theta = 0.1$, $p = 5n$, exact to 1e-12) likewise, one ranking at 1.4e-12 and
the median at 0.02; seeds 0, 3 and 4 gave 440 edges (F1 0.984) at a residual of 0.066,
the truth fitting to 1.7e-15.

A graph of the constant-diagonal family (or another graph held to its own level,
``ALREADY_CHECKED``) found by such searches on noisy eigenvectors is not warned of here,
but no check of the graph returned that takes a noise level ran on it either: its
residual is above ``FITS_EXACTLY``, so it is not checked as exact, and it was found at
no noise level (``_fitted_noise`` is 0). ``exact_search_noise`` gives the level the
leverage rankings show, at which those checks (a complement, equally sparse graphs)
are made: the icosahedron perturbed by 1e-4 gave an isomorphic copy (F1 0.0) from its
constant-diagonal family with no warning, while exact and at 1e-3 the same copy, or
the truth, is returned with its complement and another graph of 30 edges that fit as
well (``AmbiguousGraphWarning``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._support_search import EXACT_NOISE
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    FITS_EXACTLY,
    MAX_NOISE,
    RESIDUAL_CONSISTENT,
    UNRESOLVABLE_NOISE,
)

#: Entries of the history set by the checks that already say that the graph returned
#: does not fit the eigenvectors or is not the graph sought (each with its warning), or
#: that mark a graph held to another noise level: the fitted rankings' graphs
#: (``leverage_noise_estimates``, checked by ``_unranked_doubt``) and the
#: constant-diagonal family's (checked against the level that family shows:
#: ``random_regular_graph(16, 200, seed=3)`` perturbed by 1e-3 is found there, right,
#: at a residual of 2.4e-4 with ``history["noise"]`` 0).
ALREADY_CHECKED = ("complete_graph_found", "column_halves_graph", "unranked_residual",
                   "exact_misfit", "unresolvable", "leverage_noise_estimates",
                   "constant_diagonal_graph", "regular_family")


def exact_search_misfit(history: dict, residual: float, edges: int, n_pairs: int) -> bool:
    """Whether the graph returned (``edges`` edges of ``n_pairs`` pairs, residual
    ``residual``) was found by searches that took the eigenvectors as exact but does not
    fit them (residual above ``FITS_EXACTLY``), while most rankings' kept pairs do not
    fit them to rounding (the median noise estimate above ``EXACT_LEVEL``) and no other
    check has said that the graph does not fit or holds it to another level
    (``ALREADY_CHECKED``; ``_exact_misfit`` when a ranking fits them to rounding and the
    refits found nothing better); then
    ``history["exact_search_misfit"]`` holds the residual.

    With few pairs per unknown every ranking can fit noisy eigenvectors to rounding
    (the Petersen graph perturbed by 1e-3: 45 pairs for 9 unknowns, estimates 2e-15,
    the graph right at a residual of 4e-4): the median keeps those out. With many,
    one ranking can (perturbed karate, 9.8e-16) while the others show the noise, and
    the graph is then found at that noise level, not as exact.

    Parameters
    ----------
    history : dict
        The searches' history.
    residual : float
        The graph's residual (``_diagonal_fit``).
    edges, n_pairs : int
        Edges of the graph and pairs of nodes.

    Returns
    -------
    bool
    """
    levels = history.get("noise_estimates", [])
    if (history.get("noise", 0.0) > EXACT_NOISE or residual <= FITS_EXACTLY
            or edges >= n_pairs or not levels or float(np.median(levels)) <= EXACT_LEVEL
            or any(key in history for key in ALREADY_CHECKED)):
        return False
    history["exact_search_misfit"] = float(residual)
    return True


def exact_search_noise(history: dict, residual: float) -> float:
    """The noise level at which a graph found by searches that took the eigenvectors as
    exact (``history["noise"]`` at most ``EXACT_NOISE``) is checked, when the
    eigenvectors are noisy: the graph does not fit them exactly (``residual`` above
    ``FITS_EXACTLY``), most leverage rankings' kept pairs do not fit them to rounding
    (median estimate above ``EXACT_LEVEL``), the median of their estimates up to
    ``MAX_NOISE`` is at most ``UNRESOLVABLE_NOISE`` and the graph fits to it (within
    ``RESIDUAL_CONSISTENT`` times); then ``history["exact_search_noise"]`` holds that
    level. Else 0: exact eigenvectors, a graph found at a noise level (``_fitted_noise``)
    or one that does not fit (the other checks' concern).

    The leverage rankings' estimates are those of ``history["leverage_noise_estimates"]``
    when the fitted rankings ran after them (whose own estimates are the residuals of
    one fitted vector, not the noise), else of ``history["noise_estimates"]``. The
    icosahedron perturbed by 1e-4 (draw 0): estimates 2.6e-6 to 1.7e-5, median 1.1e-5,
    the graph's residual 4.9e-5 (4.5 times it; the truth's 5.0e-5); at 3e-4 the graph
    is found at a noise level, 5.1e-5.

    Parameters
    ----------
    history : dict
        The searches' history.
    residual : float
        The graph's residual (``_diagonal_fit``).

    Returns
    -------
    float
    """
    estimates = history.get("leverage_noise_estimates") or history.get("noise_estimates", [])
    noisy = [e for e in estimates if EXACT_LEVEL < e <= MAX_NOISE]
    if (history.get("noise", 0.0) > EXACT_NOISE or residual <= FITS_EXACTLY or not noisy
            or float(np.median(estimates)) <= EXACT_LEVEL):
        return 0.0
    level = float(np.median(noisy))
    if level > UNRESOLVABLE_NOISE or residual > RESIDUAL_CONSISTENT * level:
        return 0.0
    history["exact_search_noise"] = level
    return level
