"""Members of a small affine family that vanish on random sets of pairs.

A family of matrices $N_0 + \\sum_j x_j Y_j$ with $d$ free coefficients (the
near-null unit-diagonal family of noisy normalized eigenvectors, module
``_noisy_unit_diagonal``) holds the graph sought when its off-diagonal entries vanish,
to the noise, on the non-edges. When the family is larger than one graph, the member
of least $\\ell_1$ norm can be dense: the normalized
``triangular_lattice_graph(4, 6)`` perturbed by 1e-3 leaves a family of dimension 8
whose charged members (every charge) have no gap between edges and non-edges, while
the lattice (43 edges of 190 pairs) is one of its members. The non-edges are most of
the pairs, so $d$ pairs drawn at random are all non-edges with probability at least
$(1 - s)^d$ for an edge share $s$; the member vanishing on them (one $d \\times d$
solve) is then the graph's to the noise. ``sampled_zero_members`` draws ``SAMPLES``
such sets (at most ``MAX_FREE`` coefficients: $(2/3)^{12} \\approx 0.8 \\%$ of draws
all non-edges at the largest edge share the caller reads) and yields each member's
entries; the caller reads a graph off each and judges it by its fit.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

__all__ = [
    "CONCENTRATION_STEPS",
    "KEPT_SHARE",
    "MAX_FREE",
    "MAX_ROWS",
    "SAMPLES",
    "SAMPLES_SEED",
    "sampled_zero_members",
]

#: Sets of pairs drawn per family.
SAMPLES = 300
#: Largest number of free coefficients sampled: ``frucht_graph()`` boxed with a 4-cycle
#: (edge share 11 %) has 26, drawn free of edges in 4 % of the draws.
MAX_FREE = 32
#: Refits of each drawn member on the pairs where it is smallest...
CONCENTRATION_STEPS = 5
#: ... this share of them (the caller reads no graph of more than a third of the pairs).
KEPT_SHARE = 0.5
#: Largest number of pairs the draws and refits use (a random subset beyond; the
#: members' entries are then computed on every pair).
MAX_ROWS = 2000
#: Seed of the draws: the members do not depend on the inference's generator.
SAMPLES_SEED = 0


def sampled_zero_members(N0: np.ndarray, Y: np.ndarray) -> Iterator[np.ndarray]:
    """The entries of the members of the family ``N0 + Y @ x`` that vanish on
    ``SAMPLES`` random sets of ``Y.shape[1]`` pairs (the sets whose system is
    singular skipped), each refitted ``CONCENTRATION_STEPS`` times in least squares
    on the ``KEPT_SHARE`` of the pairs where it is smallest (concentration steps, as
    for least trimmed squares: a draw with an edge or an ill-conditioned system, 1e4
    to 2e5 for the box product's, still reaches the graph); nothing for more than
    ``MAX_FREE`` coefficients or fewer pairs than twice that many.

    Parameters
    ----------
    N0 : ndarray of shape (p,)
        Entries of the family's base member on its ``p`` pairs.
    Y : ndarray of shape (p, d)
        Entries of its ``d`` free directions.

    Yields
    ------
    ndarray of shape (p,)
        A member's entries.

    Examples
    --------
    >>> import numpy as np
    >>> rng = np.random.default_rng(1)
    >>> Y = rng.standard_normal((40, 2))
    >>> N0 = -Y @ np.array([0.5, -2.0])
    >>> N0[:5] += 1.0  # five "edges"; the other 35 pairs vanish at x = (0.5, -2)
    >>> members = list(sampled_zero_members(N0, Y))
    >>> max(int(np.sum(np.abs(m) < 1e-9)) for m in members)
    35
    """
    p, d = Y.shape
    if d == 0 or d > MAX_FREE or p < 2 * d:
        return
    rng = np.random.default_rng(SAMPLES_SEED)
    rows = np.arange(p) if p <= MAX_ROWS else np.sort(rng.choice(p, MAX_ROWS, replace=False))
    Ys, Ns = Y[rows], N0[rows]
    kept = max(d, int(KEPT_SHARE * rows.size))
    for _ in range(SAMPLES):
        chosen = rng.choice(rows.size, d, replace=False)
        try:
            x = np.linalg.solve(Ys[chosen], -Ns[chosen])
        except np.linalg.LinAlgError:
            continue
        for _ in range(CONCENTRATION_STEPS):
            small = np.argpartition(np.abs(Ns + Ys @ x), kept - 1)[:kept]
            x = np.linalg.lstsq(Ys[small], -Ns[small], rcond=None)[0]
        yield N0 + Y @ x
