"""Leverage scores of the pairs from the upper triangles of the direction matrices only.

``_support_search.leverage_scores`` adds $\\tilde L(\\lambda_k)_{ij}^2 / \\mu_k$ over the
directions $k$; the rankings read the scores of the pairs $i < j$ only (``top_pairs``).
The general product $\\tilde V \\operatorname{diag}(\\lambda_k) \\tilde V^T$ forms both
triangles ($2 n^2 q$ flops per direction). Here each block of ``UPPER_BLOCK_ROWS`` rows
is multiplied by the columns from its first row on (rows $s..e$ times columns $s..n$):
$2 n^2 q (1 + b / n) / 2$ flops, the entries of each block formed, squared, divided and
added while it is in cache.

The entries are the ones of the general product: each is the same dot product over the
free columns in the same order, and the blocks start at multiples of ``UPPER_BLOCK_ROWS``
rows, a multiple of the row tiles of OpenBLAS's double-precision kernels, so that every
row is formed by the kernel that forms it in the whole product (checked bit for bit with
the Haswell, Zen, SandyBridge and Nehalem kernels at n = 37 to 500; blocks of 25 or 50
rows start inside a tile and differ in the last bits). The terms are added over the
directions in the same order. Where another kernel rounds a block otherwise, the scores
differ from the whole product's to rounding, as any two kernels' products do.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

#: Rows per block (a multiple of the row tiles of the BLAS kernels, see above).
UPPER_BLOCK_ROWS = 64


def upper_leverage_scores(V, W, mu) -> np.ndarray:
    """$S_{ij} = \\sum_k \\big((\\tilde V \\operatorname{diag}(w_k) \\tilde V^T)_{ij}\\big)^2
    / \\max(\\mu_k, 10^{-12})$ for $i \\le j$, mirrored to $i > j$.

    Parameters
    ----------
    V : ndarray of shape (n, q)
        The scaled free columns $\\tilde V$ (C-ordered).
    W : ndarray of shape (q, r)
        The eigenvalue of every free column, one direction per column.
    mu : ndarray of shape (r,)
        The fitting error of each direction.

    Returns
    -------
    ndarray of shape (n, n)
        The symmetric scores.
    """
    n = V.shape[0]
    S = np.zeros((n, n))
    block = np.empty((min(UPPER_BLOCK_ROWS, n), n))
    for k in range(W.shape[1]):
        d = max(float(mu[k]), 1e-12)
        scaled = V * W[:, k]
        for s in range(0, n, UPPER_BLOCK_ROWS):
            e = min(n, s + UPPER_BLOCK_ROWS)
            t = np.matmul(scaled[s:e], V[s:].T, out=block[:e - s, :n - s])
            np.multiply(t, t, out=t)
            np.divide(t, d, out=t)
            S[s:e, s:] += t
    lower = np.tril_indices(n, -1)
    S[lower] = S.T[lower]
    return S
