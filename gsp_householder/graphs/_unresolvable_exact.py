"""Exact eigenvectors whose leverage rankings agree on an unresolvable noise level.

The leverage rankings of exact eigenvectors of a dense graph with near-uniform degrees
can be unclean and agree, by chance, on a standardised noise level above
``_ranking_ladder.UNRESOLVABLE_NOISE``; when their exact searches find nothing, the
ladder records that level (``history["unresolvable"]``) and nothing else is searched:
the complete graph is returned with the warning that the eigenvectors are too noisy to
tell edges from non-edges, although they are exact (``dense_gnm_random_graph(60, 400,
seed=307)``: noise 0, level 0.036). The fitted rankings (one fitted vector ranks the
pairs, ``_fitted_ranking``), which such graphs get when the level stays below it, find
it.

``fitted_exact`` searches the fitted rankings on copies of the history and the
generator, and keeps their graph only if it fits the eigenvectors to rounding
(``ROUNDING_FIT``): noisy eigenvectors give no such graph, so their answer, warning and
generator are left as they were.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import copy

from gsp_householder.graphs._laplacian_fit import _residual
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._ranking_ladder import _ladder
from gsp_householder.graphs._thresholds import ROUNDING_FIT


def fitted_exact(
    B: PairBasis, basis: dict, tol: float, rng, history: dict, order
) -> tuple[list, int, dict] | None:
    """The fitted rankings' graph when it fits the exact eigenvectors to rounding.

    Parameters
    ----------
    B : PairBasis
        The anchored pair basis.
    basis : dict
        The input basis (``_read_basis``).
    tol : float
        Slack of the off-diagonal inequalities.
    rng : numpy.random.Generator or None
        The inference's generator; a copy is searched with, ``rng`` is not advanced.
    history : dict
        The search record so far, with ``"unresolvable"``; not changed.
    order : sequence
        The fitted rankings' keys (``_basis_search.FITTED_RANKINGS``).

    Returns
    -------
    (ranked, dim, trial) or None
        The ranked graphs, the family's dimension and the search record to take in place
        of ``history`` (the leverage rankings' estimates under
        ``"leverage_noise_estimates"``, no ``"unresolvable"``), or None when no graph
        fits to rounding.
    """
    trial, own = copy.deepcopy(history), copy.deepcopy(rng)
    trial["leverage_noise_estimates"] = trial.pop("noise_estimates")
    trial["noise_estimates"] = []
    level = trial.pop("unresolvable")
    ranked, dim = _ladder(B, basis, tol, own, trial, order=order, last_resort=False)
    if not ranked or _residual(basis, ranked[0][3]) > ROUNDING_FIT:
        return None
    trial["unresolvable_exact"] = level
    return ranked, dim, trial
