"""The pairs' noise level behind a search estimate that overstates it (normalized input).

A search's noise level (``history["noise"]``) is the residual noise of the pairs its
prefix kept. Above ``UNRESOLVABLE_NOISE`` no edge is taken to leave that band, and the
graph's fit is not taken as checked (``_result_checks._fitted_noise`` is 0), so the
checks that judge equal weights or twins at a noise level do not run. On perturbed
normalized grids the searches can end so although the graph they return fits the
eigenvectors to the pairs' own noise: the 3 x 15 grid perturbed by 1e-3 ended at
0.021 and 0.026 (shuffles 0 and 1) with graphs whose residuals are 4.5e-4 and 4.8e-4,
1.2 and 1.4 times the leverage rankings' median estimate (3.4e-4 to 3.8e-4), and was
answered by a weighted member (98 edges for 72) and by an isomorphic twin of the grid
with the family dimension as the only flag.

``pair_noise_level`` gives that median as the level the graph was found at, when the
graph fits to it (within ``RESIDUAL_CONSISTENT``), for the checks of noisy normalized
answers (``laplacian_inference._noisy_family_warning`` and the grid's twins).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._support_search import EXACT_NOISE
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    RESIDUAL_CONSISTENT,
    UNRESOLVABLE_NOISE,
)


def pair_noise_level(history: dict, residual: float) -> float:
    """The leverage rankings' median noise estimate, when the search's noise level
    ``history["noise"]`` is above ``UNRESOLVABLE_NOISE``, that median is within
    (``EXACT_LEVEL``, ``UNRESOLVABLE_NOISE``] and the graph's ``residual`` is at most
    ``RESIDUAL_CONSISTENT`` times it; else 0 (module docstring).

    Parameters
    ----------
    history : dict
        The inference's history (``"noise"``, ``"leverage_noise_estimates"``).
    residual : float
        The residual of the graph returned (``_diagonal_fit``).

    Returns
    -------
    float
        The level, or 0.

    Examples
    --------
    >>> history = {"noise": 0.021, "leverage_noise_estimates": [3e-4, 4e-4, 3.5e-4]}
    >>> float(pair_noise_level(history, 4.5e-4))
    0.00035
    >>> float(pair_noise_level({"noise": 3e-4, "leverage_noise_estimates": [3e-4]}, 4e-4))
    0.0
    """
    noise = history.get("noise", 0.0)
    if noise <= UNRESOLVABLE_NOISE or noise <= EXACT_NOISE:
        return 0.0
    levels = [e for e in history.get("leverage_noise_estimates", []) if e > EXACT_LEVEL]
    if not levels:
        return 0.0
    level = float(np.median(levels))
    if level > UNRESOLVABLE_NOISE or residual > RESIDUAL_CONSISTENT * level:
        return 0.0
    return level
