"""Noisy bases whose kept pairs leave most eigenvalues free: no search is made.

Each leverage ranking keeps the pairs it holds least edge-like (about a third of all
pairs) and estimates the noise level from them (``robust_noise``). The near-null family
of those pairs' rows at that level (``PrefixSearch._near_null``, the directions whose
fitting error is within the noise's) holds every graph that has none of them as an
edge. When it spans more than ``HOPELESS_FRACTION`` of the unknown eigenvalues (the
basis's ``g``) for each of the first ``HOPELESS_SEARCHES`` rankings the noisy ladder
would search, and the search of each would start from no graph (``seed_fit`` finds no
valid Laplacian clean on those pairs), these rows pin down almost nothing at the noise
level (the kept pairs hold edges): a few directions (eigenvectors localised on few
nodes, an eigenvalue of high multiplicity) carry them, and every graph a search can
give is a weighted member of a family of that size, which the noisy ladder's
hopeless-family rule
(``_hopeless_family``) stops on after paying for the searches. The searches are then
not made, and the complete graph (which every basis with this zero-eigenvalue vector
diagonalises) is returned with a warning (``hopeless_basis_warning``).

A random cograph of 64 nodes (``random_cograph(6, seed=62)``'s complement, an
eigenvalue of multiplicity 32) perturbed by 1e-3: the kept pairs of its first two
rankings leave 59 of 63 eigenvalues free; its searches found no graph for 30 CPU s,
then a member of 297 edges (the truth has 1792) in a family of 60.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import warnings

import numpy as np

from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs._hopeless_family import HOPELESS_FRACTION, HOPELESS_SEARCHES
from gsp_householder.graphs._pair_geometry import PairBasis, PairGram
from gsp_householder.graphs._support_search import PrefixSearch, seed_fit
from gsp_householder.graphs._thresholds import LADDER_MAX_N


def _fresh(trimmed, B: PairBasis | None = None):
    """``trimmed`` with a copy of its Gram (of the basis ``B``, default its own) that
    shares none of its kept eigenpairs (``PairGram``): the searches made later compute
    theirs as without this module."""
    gram, i, j = trimmed
    return PairGram(gram.B if B is None else B, gram.M, gram.total, gram.k), i, j


def kept_family(B: PairBasis, trimmed, noise: float) -> int:
    """Dimension of the near-null family of the pairs a ranking keeps (``trimmed`` from
    ``leverage_ranking``: their Gram and the trimmed pairs) at the noise level ``noise``:
    the span ``seed_fit`` would search, counted up to the ``g`` unknowns instead of
    ``MAX_FAMILY``."""
    gram, i, j = _fresh(trimmed)
    mask = np.ones((B.n, B.n), dtype=bool)
    mask[i, j] = False
    ki, kj = np.nonzero(np.triu(mask, 1))
    search = PrefixSearch(B, (np.concatenate([i, ki]), np.concatenate([j, kj])), 0.0, noise)
    mu, _, _, _ = search._near_null(len(i), gram, cap=B.g)
    return int(mu.size)


def hopeless_start(B: PairBasis, trimmed, tol: float, noise: float) -> bool:
    """Whether the search of a ranking (``trimmed`` from ``leverage_ranking``) at the
    noise level ``noise`` would start from no graph: its seed (``seed_fit`` at the
    tolerance ``tol``, on a fresh copy of the kept pairs' Gram) finds no valid Laplacian
    clean on the kept pairs."""
    return seed_fit(B, _fresh(trimmed), tol, noise) is None


def hopeless_basis(
    B: PairBasis, keys, ranking, levels, tol: float = 0.0
) -> tuple[list[int], int] | None:
    """The kept families' dimensions (``kept_family``) of the first
    ``HOPELESS_SEARCHES`` rankings of ``keys`` (in the noisy ladder's order) whose noise
    estimate is in ``levels`` (``(low, high]``) and the ``g`` unknowns, when they all
    exceed ``HOPELESS_FRACTION`` of ``g`` and the search of each would start from no
    graph (``hopeless_start``); else None (also above ``LADDER_MAX_N`` nodes, where the
    rankings are sampled, and on a basis whose columns are grouped into eigenspaces,
    ``B.G``: the searches with eigenvalues tied on groups, ``_eigenspace_search``,
    whose warnings are silenced and whose graphs compete with the ungrouped search's,
    so that no graph there changes the answer without a warning). ``ranking(key)``
    gives ``(scores, trimmed, noise)``; ``tol`` is the searches' tolerance.

    A kept family whose search starts from a graph (``windmill_graph(8, 4)`` perturbed:
    families of 19 and 20 of 24 unknowns, and the star, which shares the windmill's
    eigenvectors) is searched as before.
    """
    if B.n > LADDER_MAX_N or B.G is not None:
        return None
    low, high = levels
    noisy = [key for key in keys if low < ranking(key)[2] <= high][:HOPELESS_SEARCHES]
    if len(noisy) < HOPELESS_SEARCHES:
        return None
    dims = []
    for key in noisy:
        _, trimmed, noise = ranking(key)
        dims.append(kept_family(B, trimmed, noise))
        if dims[-1] <= HOPELESS_FRACTION * B.g:
            return None
    for key in noisy:
        _, trimmed, noise = ranking(key)
        if not hopeless_start(B, trimmed, tol, noise):
            return None
    return dims, int(B.g)


def hopeless_basis_warning(history) -> None:
    """Warn (``ConvergenceWarning``) when no search was made because the rankings' kept
    pairs leave most eigenvalues free (``history["hopeless_basis"]``: the families'
    dimensions and the unknowns)."""
    record = history.get("hopeless_basis")
    if record is None:
        return
    dims, g = record
    warnings.warn(
        f"the pairs the rankings hold least edge-like leave {min(dims)} to {max(dims)} "
        f"of the {g} unknown eigenvalues free at their noise level: the eigenvectors "
        f"pin down little there (eigenvectors on few nodes, an eigenvalue of high "
        f"multiplicity), any graph a search gives is one member of a family of that "
        f"size, and no search was made; the complete graph is returned (more accurate "
        f"eigenvectors or the eigenvalue order may resolve the graph)",
        ConvergenceWarning,
        stacklevel=5,
    )
