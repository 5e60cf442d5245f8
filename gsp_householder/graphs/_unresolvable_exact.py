"""Leverage rankings that agree on an unresolvable noise level.

The leverage rankings of a dense graph with near-uniform degrees or dense blocks can be
unclean and agree on a standardised noise level above
``_ranking_ladder.UNRESOLVABLE_NOISE``; when their exact searches find nothing, the
ladder records that level (``history["unresolvable"]``) and nothing else is searched:
the complete graph is returned with the warning that the eigenvectors are too noisy to
tell edges from non-edges, although that level is the rankings' own, not the
eigenvectors' (``dense_gnm_random_graph(60, 400, seed=307)``: exact, level 0.036;
perturbed by 1e-3, level 0.037; PyGSP ``StochasticBlockModel(150, k=3, p=0.8, q=0.05,
seed=1)`` perturbed by 1e-3: 0.041). The fitted rankings (one fitted vector ranks the
pairs, ``_fitted_ranking``), which such graphs get when the level stays below it, find
them, and their kept pairs show the eigenvectors' noise (1.6e-4 and 8.5e-5 on the two
perturbed inputs).

``fitted_when_unresolvable`` searches the fitted rankings on copies of the history and
the generator, and keeps their graph only if it fits the eigenvectors to rounding
(``ROUNDING_FIT``) or to the noise their kept pairs show (within
``RESIDUAL_CONSISTENT`` times the smallest of their estimates, the test of
``_basis_search._fitted_before_leverage``); otherwise the answer, warning and generator
are left as they were.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import copy

from gsp_householder.graphs._laplacian_fit import _residual
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._ranking_ladder import _ladder
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    MAX_NOISE,
    RESIDUAL_CONSISTENT,
    ROUNDING_FIT,
)


def fits_fitted_levels(basis: dict, ranked: list, estimates: list) -> bool:
    """Whether the first graph of ``ranked`` fits the eigenvectors to rounding
    (``ROUNDING_FIT``) or within ``RESIDUAL_CONSISTENT`` times the smallest of the fitted
    rankings' noise ``estimates`` in (``EXACT_LEVEL``, ``MAX_NOISE``]."""
    residual = _residual(basis, ranked[0][3])
    levels = [e for e in estimates if EXACT_LEVEL < e <= MAX_NOISE]
    return residual <= ROUNDING_FIT or bool(
        levels and residual <= RESIDUAL_CONSISTENT * min(levels)
    )


def fitted_when_unresolvable(
    B: PairBasis, basis: dict, tol: float, rng, history: dict, order
) -> tuple[list, int, dict] | None:
    """The fitted rankings' graph when it fits the eigenvectors (``fits_fitted_levels``).

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
        ``"leverage_noise_estimates"``, their level under ``"unresolvable_exact"``, no
        ``"unresolvable"``), or None when no graph fits.
    """
    trial, own = copy.deepcopy(history), copy.deepcopy(rng)
    trial["leverage_noise_estimates"] = trial.pop("noise_estimates")
    trial["noise_estimates"] = []
    level = trial.pop("unresolvable")
    ranked, dim = _ladder(B, basis, tol, own, trial, order=order, last_resort=False)
    if not ranked or not fits_fitted_levels(basis, ranked, trial["noise_estimates"]):
        return None
    trial["unresolvable_exact"] = level
    return ranked, dim, trial
