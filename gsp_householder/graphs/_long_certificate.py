"""Longer chains of small relaxations for programs whose pair rows are costly to build.

Before a max-margin program of ``_template_lp.valid_in_span`` builds the pair rows of its
span (every pair of its ``hint`` times every direction), a chain of small relaxations
(``_template_lp._certified``) may prove its margin below the floor: each relaxation's
margin bounds the program's from above, so a relaxation below the floor is a proof and
any other ending leaves the program to its cutting-plane rounds, as before. The chain
holds ``1 + CERTIFY_ROUNDS`` relaxations.

At $n = 1000$ the last evaluation of a prefix search that finds nothing asks for the
pair rows of all but $2n$ pairs (496502 rows on 140 to 178 directions: 4 to 5 CPU s of
products before a single cutting-plane round). There, the chain goes on past
``CERTIFY_ROUNDS`` while it still converges: while every relaxation's margin is at most
``PROGRESS`` times the margin ``CERTIFY_ROUNDS`` relaxations before it, for at most
``LONG_ROUNDS`` more relaxations. On exact ``random_geometric_graph(1000, 0.055,
seed=31)`` the first of its three such programs falls below the floor at the twelfth
relaxation (600 pair rows, about 1 CPU s instead of 6); the other two stop at their
ninth and tenth (margins 0.065 and 0.045, no longer halving) and are answered by their
rounds as before. The held-out exact ``random_geometric_graph(1000, 0.05, seed=35)`` has
one program proved so (36 CPU s before, 22 now, the same edges). Exact searches of more
than 500 nodes no longer evaluate the whole ranking (``_whole_ranking``): these three
programs and that one are no longer posed; the chain still serves the programs of
searches at a noise level over as many pairs.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Fewest pairs of a program's ``hint`` for the chain to go on past ``CERTIFY_ROUNDS``:
#: more than the 124750 pairs of 500 nodes (a program over fewer pair rows is certified
#: as before).
LONG_PAIRS = 1 << 17
#: Most relaxations added to the chain past ``CERTIFY_ROUNDS``.
LONG_ROUNDS = 24
#: A relaxation's margin must be at most this fraction of the margin ``span`` relaxations
#: before it for the chain to go on.
PROGRESS = 0.5


def rounds_allowed(n_pairs: int, chained: bool, certify_rounds: int) -> int:
    """Relaxations of the chain after its first: ``certify_rounds``, and ``LONG_ROUNDS``
    more over at least ``LONG_PAIRS`` pairs.

    Parameters
    ----------
    n_pairs : int
        Pairs of the program's ``hint`` (its pair rows, were they built).
    chained : bool
        Whether the chain runs at all past its first relaxation.
    certify_rounds : int
        ``_template_lp.CERTIFY_ROUNDS``.

    Returns
    -------
    int
        The largest index of a relaxation of the chain (0: the first one only).
    """
    if not chained:
        return 0
    return certify_rounds + (LONG_ROUNDS if n_pairs >= LONG_PAIRS else 0)


def converging(margins: Sequence[float], span: int) -> bool:
    """Whether a chain whose relaxations had these ``margins`` (in order) goes on past
    ``span`` relaxations: the last margin is at most ``PROGRESS`` times the one ``span``
    relaxations before it.

    Parameters
    ----------
    margins : sequence of float
        The margins of the relaxations solved so far, first to last.
    span : int
        ``_template_lp.CERTIFY_ROUNDS``.

    Returns
    -------
    bool
        False when fewer than ``span + 1`` margins are known.

    Examples
    --------
    >>> converging([0.13, 0.07, 0.03, 0.03, 0.027, 0.023, 0.017], 6)
    True
    >>> converging([0.10, 0.09, 0.09, 0.07, 0.068, 0.067, 0.065], 6)
    False
    """
    if len(margins) <= span:
        return False
    return margins[-1] <= PROGRESS * margins[-1 - span]
