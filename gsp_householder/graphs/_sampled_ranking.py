"""Leverage ranking of the pairs of a large basis, trimmed on a random sample of pairs.

``leverage_ranking`` trims the most edge-like pairs and recomputes the Gram of the
kept ones. The trimming must remove every edge, so it removes a large fraction of the
pairs (30 %, 51 %, then 66 % for ``keep = 0.7``): with fewer (a fixed number of
pairs, as ``leverage_ranking`` does above ``max(6000, 16 n)``), the smallest
directions of the Gram of n = 1000 nodes are not the eigenvalues but functions of
them concentrated near the diagonal, and most edges stay among the kept pairs. The
Gram of a fraction of all $N = n(n-1)/2$ pairs costs $O(N g^2) = O(n^4)$.

Here the trimming runs on a uniform sample of ``sample * g`` pairs: at each round the
kept pairs of the sample are those whose leverage is below the ``keep ** t``
quantile of the sample, and their Gram costs $O(g^3)$. Only the final scores are
computed for all pairs ($r$ products of $n \\times n$ matrices), and the Gram of all
pairs but the ``c`` highest-scoring ones is exact ($O(c g^2)$), so that the noise
level and the seed of the search are measured on all pairs. Rows are built in chunks:
memory $O(g^2 + n^2)$.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import (
    PairBasis,
    PairGram,
    complement_gram,
    local_free_gram,
)
from gsp_householder.graphs._support_search import (
    leverage_scores,
    other_null_directions,
    top_pairs,
)

#: Pairs sampled per eigenvalue unknown.
SAMPLE_PER_UNKNOWN = 40
#: Rows of pair products built at once.
CHUNK = 8192


def sampled_leverage_ranking(B: PairBasis, rng, rounds=3, keep=0.7, r=8,
                             sample=SAMPLE_PER_UNKNOWN):
    """Scores after trimming the ``1 - keep ** t`` most edge-like pairs of a sample.

    Same returns as ``leverage_ranking``: the scores of all pairs (an ``(n, n)``
    array) and ``(gram, i, j)``, the ``c = max(6000, 16 n)`` highest-scoring pairs and
    the exact Gram of the others.
    """
    n, N = B.n, B.n_pairs
    iu, ju = B.upper()
    k = min(N, int(sample * B.g))
    idx = np.sort(rng.choice(N, size=k, replace=False))
    si, sj = iu[idx], ju[idx]
    del iu, ju
    local = None
    if B.local_groups:
        # twins' columns: exact null directions that say nothing about the other pairs
        local = np.concatenate([grp.cols for grp in B.local_groups])
        li = np.concatenate([grp.i for grp in B.local_groups])
        lj = np.concatenate([grp.j for grp in B.local_groups])
        outside = ~np.isin(si.astype(np.int64) * n + sj, li.astype(np.int64) * n + lj)
        si, sj = si[outside], sj[outside]
        mu, Lam = other_null_directions(local_free_gram(B, li, lj), local, r)
    else:
        mu, Lam = PairGram(B).null_directions(r)
    gram = last = None
    for t in range(rounds):
        s = sample_scores(B, si, sj, mu, Lam)
        kept = s <= np.quantile(s, keep ** (t + 1))
        gram = next_sample_gram(B, si, sj, kept, gram, last)
        last = kept
        mu, Lam = (gram.null_directions(r) if local is None
                   else other_null_directions(gram, local, r))
    S = leverage_scores(B, mu, Lam)
    i, j = top_pairs(B, S, min(N - 1, max(6000, 16 * n)))
    # the top pairs of the rankings of one basis mostly agree: above
    # ``NEARBY_GRAM_MIN_N`` nodes the Gram of the others is updated from the last one
    return S, (complement_gram(B, i, j), i, j)


def sample_scores(B: PairBasis, i, j, mu, Lam):
    """Leverage $\\sum_k (a_{ij}^T \\lambda_k)^2 / \\mu_k$ of the pairs ``(i, j)``."""
    P = B.products(i, j, Lam)
    return (P * P) @ (1.0 / np.maximum(mu, 1e-12))


def next_sample_gram(B: PairBasis, i, j, kept, gram=None, last=None) -> PairGram:
    """Gram of the sample pairs ``(i[kept], j[kept])``. From the second round on, it is
    updated from ``gram``, the Gram of the ``last`` kept pairs, when the pairs that
    left and entered are fewer than the pairs kept (``PairGram.changed``: their rows
    only; the rounds keep 70 %, 49 % then 34 % of the sample, mostly pairs kept in the
    round before: on Watts-Strogatz graphs of 300 and 600 nodes the rows that changed
    were 60 % of the kept rows in the second round and 45 % in the third), else it is
    formed afresh (``sample_gram``). Both are the same Gram to rounding."""
    if gram is not None:
        left, entered = last & ~kept, kept & ~last
        if np.count_nonzero(left) + np.count_nonzero(entered) < np.count_nonzero(kept):
            return gram.changed((i[left], j[left]), (i[entered], j[entered]), chunk=CHUNK)
    return sample_gram(B, i[kept], j[kept])


def sample_gram(B: PairBasis, i, j) -> PairGram:
    """Gram and sum of the pair rows ``(i, j)`` alone. The sum of the chunks' Grams is
    formed in memory kept with the basis; only the symmetrised result is a fresh array
    (the same numbers as ``0.5 * (M + M.T)``)."""
    M = B.gram_sum_buffer(B.g)
    M.fill(0.0)
    total = np.zeros(B.g)
    buffer = B.row_buffer(min(CHUNK, len(i)))
    part = B.square_buffer(B.g)
    for s in range(0, len(i), CHUNK):
        R = B.rows(i[s:s + CHUNK], j[s:s + CHUNK], out=buffer)
        M += np.matmul(R.T, R, out=part)        # the chunk's Gram in kept memory
        total += R.sum(axis=0)
    gram = np.add(M, M.T)
    gram *= 0.5
    return PairGram(B, gram, total, len(i))
