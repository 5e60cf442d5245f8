"""Noisy ladders whose graphs all leave most eigenvalues free: the searches stop early.

The noisy ladder (``_ranking_ladder._noisy_ladder``) searches its rankings in turn until
two agree or a graph consistent with the noise is settled. When every graph it finds
is a weighted member (weights not equal to the noise level) of a family of valid graphs
whose dimension exceeds ``HOPELESS_FRACTION`` of the unknown eigenvalues, and that family
may hold a member far sparser than it (``family_agreement`` below the ``EDGE_AGREEMENT``
the inference is held to), the eigenvectors pin down almost nothing at their noise
level: whichever ranking is searched next, its graph is one more member of such a
family, and the answer is warned of (``_family_doubt``). After ``HOPELESS_SEARCHES``
such graphs the ladder stops (or at its end, when one ranking only gave a graph and it is
such a member), and the searches that would follow it (the ladder at the smallest
estimate, ``_sparser_at_level``, the exact searches and the ladder at the largest
estimate) are not made; the result is warned of (``hopeless_warning``).

A random cograph of 64 nodes (``random_cograph(6, seed=61)``'s complement, an eigenvalue
of multiplicity 32) perturbed by 1e-3: every ranking gave no graph or one of 472 to 521
edges (the truth has 1824) in a family of 56 to 59 dimensions of 63, weights unequal,
after 18 prefix searches and 53 to 149 CPU s.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs._family_doubt import EDGE_AGREEMENT, family_agreement

#: A family of valid graphs of more than this fraction of the unknown eigenvalues (the
#: basis's ``g``) leaves most of them free: the eigenvectors pin down little at the noise
#: level searched. Trees and sparse graphs are not held to it (``family_agreement``:
#: their families cannot hold a member much sparser), nor equal-weight graphs.
HOPELESS_FRACTION = 0.75
#: Noisy rankings whose graphs must all be such members before the ladder stops: one
#: ranking's estimate may keep edges and admit a wider family; a second confirms it.
HOPELESS_SEARCHES = 2


def hopeless_member(n: int, g: int, edges: int, family_dimension: int, equal: bool) -> bool:
    """Whether a graph of ``edges`` edges on ``n`` nodes found at a noise level, with
    weights equal to it (``equal``) or not, from a family of ``family_dimension``
    dimensions of the ``g`` unknown eigenvalues, is a member of a hopeless family:
    weighted, the family above ``HOPELESS_FRACTION`` of ``g``, and its sparsest possible
    member agreeing with it below ``EDGE_AGREEMENT`` in F1."""
    return (
        not equal
        and family_dimension > HOPELESS_FRACTION * g
        and family_agreement(n, edges, family_dimension) < EDGE_AGREEMENT
    )


def hopeless_ladder(n: int, g: int, found, least: int = HOPELESS_SEARCHES) -> bool:
    """Whether the noisy ladder's entries ``found`` (``_noisy_entry`` tuples: residual,
    ranked, family dimension, rotation residual, reordered, equal) are at least ``least``
    graphs (``HOPELESS_SEARCHES`` while rankings remain, 1 when every ranking was
    searched), all members of hopeless families (``hopeless_member``)."""
    return len(found) >= least and all(
        hopeless_member(n, g, int(x[1][0][0]), int(x[2]), bool(x[5])) for x in found
    )


def hopeless_record(found, g: int) -> tuple[list[int], list[int], int]:
    """What ``history["hopeless_family"]`` keeps of the noisy ladder's entries ``found``
    (as for `hopeless_ladder`) for `hopeless_warning`: the graphs' edges, their families'
    dimensions and the ``g`` unknown eigenvalues."""
    return [int(x[1][0][0]) for x in found], [int(x[2]) for x in found], int(g)


def hopeless_warning(history) -> None:
    """Warn (``ConvergenceWarning``) when the noisy ladder stopped early on hopeless
    families (``history["hopeless_family"]``: the graphs' edges and family
    dimensions, and the unknowns)."""
    record = history.get("hopeless_family")
    if record is None:
        return
    edges, dims, g = record
    warn_at_caller(
        f"the graphs the noisy rankings gave ({len(edges)}: {min(edges)} to "
        f"{max(edges)} edges) are weighted members of families of {min(dims)} to "
        f"{max(dims)} dimensions of the {g} unknown eigenvalues: the eigenvectors pin "
        f"down little at their noise level, the remaining searches were not made, "
        f"and the graph returned is one member of such a family; the graph "
        f"sought may be another (more accurate eigenvectors or the eigenvalue "
        f"order may resolve it)",
        ConvergenceWarning,
    )
