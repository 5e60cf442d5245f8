"""The Grams of a prefix search's doubling sizes, kept with the basis for the next search
of the same order of pairs.

A prefix search (``_support_search.PrefixSearch._sizes``) evaluates the sizes
$c_0, 2 c_0, 4 c_0, \\dots$ up to its last pair, each on the Gram of the pairs after the
first $c$, downdated from the last size's Gram by the pairs in between
(``PairGram.without``, $O(\\Delta c\\, g^2)$). The Gram of a size is a function of the
order of the pairs and of the sizes before it, nothing else: the same order searched
again from the same start downdates the same rows in the same chunks, the same numbers
bit for bit, and evaluates the same Grams (their eigenpairs too, kept with each
``PairGram``). The noisy ladder searches every ranking at its own noise estimate and,
when none gives a graph, again at the largest estimate (its last resort), where a seed
that gives no graph leaves the order of the first search: PyGSP ``RandomRing(1000,
seed=9)`` perturbed by 1e-3 (draw 0) made 14 such searches on 7 orders, each doubling to
its last pair, and their downdates were most of its CPU time.

The Grams of the last ``kept_orders(n)`` orders are kept (``PairBasis.doubling_grams``):
as many as the ladder has rankings. The ladder searches its rankings in turn, and its
refit levels (``_ranking_ladder._exact_refit``, ``_refit_misfit``) search them all again
in the same turn, once per level: with fewer orders kept than rankings, each order is
dropped just before it is searched again (the last four kept of eight) and every search
downdates its Grams anew. Exact ``random_internet_as_graph(200, seed=62)`` (shuffle 0,
124 twin leaves) made 430 downdates, 29 kept; with eight orders kept, 174 and 285.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import hashlib

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis, PairGram, gram_without
from gsp_householder.graphs._thresholds import LADDER_MAX_N

#: Orders of pairs whose doubling Grams a basis of at most ``LADDER_MAX_N`` nodes keeps,
#: most recently searched last: the ladder's rankings there (``_ranking_ladder.RANKINGS``)
#: are eight. Each Gram is $g \times g$: some 2 MB at $g = 500$, up to nine per order.
MAX_ORDERS = 8
#: Orders kept above ``LADDER_MAX_N`` nodes, where the ladder's rankings
#: (``_ranking_ladder.LARGE_RANKINGS``) are four and each Gram is 8 MB or more.
LARGE_MAX_ORDERS = 4


def kept_orders(n: int) -> int:
    """How many orders of pairs a basis of ``n`` nodes keeps the doubling Grams of: as
    many as the ladder has rankings at that size (``MAX_ORDERS`` up to ``LADDER_MAX_N``
    nodes, else ``LARGE_MAX_ORDERS``)."""
    return MAX_ORDERS if n <= LADDER_MAX_N else LARGE_MAX_ORDERS


def doubling_chain(B: PairBasis, i, j, start: int) -> list:
    """The Grams already downdated for the order ``(i, j)`` of pairs searched from the
    size ``start`` (``PairGram`` per doubling size, first size first), kept with ``B``;
    a new empty list when that order was not searched from that size. The caller
    appends the Grams it downdates further."""
    digest = hashlib.blake2b(digest_size=16)
    for a in (i, j):
        digest.update(np.ascontiguousarray(a, dtype=np.int64).tobytes())
    key = (digest.hexdigest(), len(i), int(start))
    kept = B.doubling_grams
    chain = kept.pop(key, [])
    kept[key] = chain  # most recently searched last
    while len(kept) > kept_orders(B.n):
        del kept[next(iter(kept))]
    return chain


def doubling_gram(chain: list, step: int, base: PairGram, i, j, removed) -> PairGram:
    """The Gram of the ``step``-th doubling size: kept in ``chain``, or ``base`` (the
    last size's Gram) without the pairs ``(i, j)`` in between (``gram_without``, which
    sums the pairs kept instead when they are fewer; ``removed``: the pairs of the size,
    every pair before it in the order), then kept."""
    if step < len(chain):
        return chain[step]
    gram = gram_without(base, i, j, removed)
    chain.append(gram)
    return gram
