"""The noise energy that a near-null direction's fitting error is compared with.

``PrefixSearch._near_null`` takes a direction as near-null when its fitting error on
the pairs after the prefix is within ``NULL_FACTOR`` times the error the noise level
would give it, $\\sigma^2 \\sum (s_i + s_j)^2$ over those pairs (``_energy``), with
$s$ the direction's own node scale. The graph sought is a combination of directions,
and its error is set by its own scale, not by theirs: a direction whose fitting error
is below what the noise puts on a graph of its norm cannot be told from a part of the
graph, whatever its own energy.

Directions concentrated on eigenvectors with small entries on the pairs kept (after
an uncapped trimming keeps a third of the pairs, ``_deep_trimming``) have 20 to 40
times less energy than a graph: on PyGSP ``DavidSensorNet(500, seed=0)`` perturbed
by 1e-3 (the uncapped ranking of 16 directions, estimate 4.0e-4) their fitting errors
are 20 to 1300 times their own noise energy but within the limit for a graph's, and
the family without them (35 directions) leaves the truth 1 % outside its span, up to
9 times the tolerance on 127 trimmed pairs: no graph, then the complete graph
(warned). With them (46 directions) the truth is 0.2 % outside and the graph is found.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis


def graph_energy(B: PairBasis, energy, Lam) -> np.ndarray:
    """Noise energy of each column of ``Lam``: the larger of its own (``energy(Lam)``,
    ``PrefixSearch._energy`` on the pairs after the prefix) and that of the graph of
    equal eigenvalues with the column's norm.

    Equal eigenvalues stand for the graph sought: the families' tolerances are in their
    scale already (``PrefixSearch.evaluate``). At least the direction's own energy, so
    the family holds every direction it held before.
    """
    own = energy(Lam)
    equal = B.equal_eigenvalues()
    unit = energy((equal / np.linalg.norm(equal))[:, None])[0]
    return np.maximum(own, unit * np.einsum("ij,ij->j", Lam, Lam))
