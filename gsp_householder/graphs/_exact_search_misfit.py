"""A graph searched as for exact eigenvectors that does not fit them.

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

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._support_search import EXACT_NOISE
from gsp_householder.graphs._thresholds import EXACT_LEVEL, FITS_EXACTLY

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
