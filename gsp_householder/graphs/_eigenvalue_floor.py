"""The smallest eigenvalue the noisy prefix searches accept, and a second pass of the
uncapped rankings at the exact searches' floor.

A noisy prefix search (``_support_search.PrefixSearch``) accepts a span when it holds a
valid Laplacian whose eigenvalues (trace $n$: mean 1) are all at least the noise level
of the ranking searched: at that level a graph's weakly joined parts look disconnected
(perturbed ``SwissRoll``). The noise level bounds the error of the entries, though,
not that of the eigenvalues: a basis rotated by an angle $\\epsilon$ moves each
eigenvalue by about $\\epsilon^2$ times the spectrum's spread (1e-6 at the
benchmarks' 1e-3), and sparse graphs of a few hundred nodes have a smallest nonzero
eigenvalue of the order of the noise estimate (random labelled trees of 350 to 500
nodes: 1.1e-4 to 5e-4 of the mean eigenvalue, the uncapped rankings' estimates 2e-4
to 3e-4 at 1e-3). There the max-margin programs of the uncapped rankings fail at the
floor with the truth inside the family (``random_labeled_tree(350, seed=8)``: $\\lambda_2$
2.9e-4 of the mean, estimate 2.3e-4, the family of 47 directions at 9000 pairs holds the
truth to 0.3 % and a valid Laplacian at half the floor, none at the floor).

When the uncapped rankings' noisy ladder finds no graph, it runs again with the floor
of the exact searches (``EXACT_FLOOR``) before the capped ladder decides
(``_ranking_ladder._ladder``, ``history["exact_floor_pass"]``): the graphs found at
the noise floor stay as they were.
"""

from __future__ import annotations

import contextvars

#: The smallest eigenvalue the exact searches accept (trace $n$), and the noisy ones
#: during the second pass of the uncapped rankings.
EXACT_FLOOR = 1e-5

#: Whether the noisy searches' floor is their noise level (True) or ``EXACT_FLOOR``
#: (the second pass of the uncapped rankings); read by ``PrefixSearch`` when made.
noise_floor: contextvars.ContextVar = contextvars.ContextVar("noise_floor", default=True)


def eigenvalue_floor(noise: float, at_noise: bool = True) -> float:
    """The smallest eigenvalue a prefix search at the level ``noise`` accepts: the
    noise level (at least ``EXACT_FLOOR``), or ``EXACT_FLOOR`` without ``at_noise``."""
    return max(EXACT_FLOOR, float(noise)) if at_noise else EXACT_FLOOR
