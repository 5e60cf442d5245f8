"""The best-fitting direction of a set of pairs, refined against the pairs themselves.

A prefix search reads the eigenvalue vector that fits the pairs after a prefix from
the smallest eigenvector of their centred Gram (``PairGram.null_directions``). That
Gram is the all-pairs Gram less the prefix's rows, centred by subtracting the rows'
mean: entries of order $n^2$ minus entries of the same order, so it carries an absolute
rounding $\\epsilon_G \\approx \\epsilon \\lVert C \\rVert$ that its rows do not.
The smallest eigenvector then leans towards the next ones by about
$\\epsilon_G / \\mu_k$ ($\\mu_k$ their fitting errors): the normal equations square
the conditioning of the fit. Where the basis has nearly localised eigenvectors (a
weighted random recursive tree of 300 nodes: $\\mu_2 = 5 \\cdot 10^{-5}$ for a Gram of
trace $10^7$) the direction read from exact eigenvectors misses its own pairs by
$10^{-10}$ and some pairs of the prefix, which it must also keep off, by $2 \\cdot
10^{-5}$, far above the rounding level ``EXACT_NOISE``, while the eigenvalues
themselves fit every pair to $10^{-15}$.

``refined_direction`` removes that lean by iterative refinement: the fitting error
$C\\delta$ is computed from the pair residuals (the entries of
$\\tilde L(\\lambda)$ on the kept pairs, accurate to the rounding of the eigenvectors),
and the correction solved with the computed Gram, whose error then multiplies the
direction's error by $\\epsilon_G / \\mu_2$ at each step instead of setting it.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from gsp_householder.graphs._pair_geometry import PairBasis, PairGram, centred_gram

#: Refinement steps: each multiplies the direction's error by about $\\epsilon_G / \\mu_2$
#: (below $10^{-3}$ wherever the Gram's rounding is the error: a direction whose
#: $\\mu_2$ is within the rounding is near-null and searched as a family anyway).
REFINEMENT_STEPS = 2


def refined_direction(B: PairBasis, gram: PairGram, delta, i, j) -> np.ndarray:
    """The eigenvalue vector of the centred direction ``delta`` of ``gram`` (its
    smallest eigenvector) refined against the pairs ``(i, j)`` that ``gram`` holds.

    The fitting error of a unit centred direction $\\delta$ is $\\delta^T C \\delta$,
    $C = S + \\ell \\mathbf 1 \\mathbf 1^T$ with $S = \\sum (a_{ij} - \\bar a)(a_{ij} -
    \\bar a)^T$ over the pairs and $\\ell = \\operatorname{tr} S / g$ (``centred_gram``).
    $S\\delta = \\sum r_{ij} (a_{ij} - \\bar a)$ with the residuals $r_{ij} = a_{ij}^T
    \\lambda = \\tilde L(\\lambda)_{ij}$, $\\lambda = \\delta + (\\bar a^T \\delta)
    \\mathbf 1$, and $\\sum r_{ij} a_{ij} = G^T \\tfrac12 \\operatorname{diag}(\\tilde V^T
    R \\tilde V)$ for the symmetric matrix $R$ of the residuals: $O(n^2 q)$ flops. Each
    step solves $(C + \\sigma \\delta\\delta^T) x = C\\delta - (\\delta^T C \\delta)\\delta$
    with the computed Gram ($\\sigma = \\operatorname{tr} C / g$ keeps it definite along
    $\\delta$; one Cholesky factorisation, $g^3 / 3$ flops) and moves $\\delta$ by the
    part of $x$ orthogonal to it.

    Returns $\\lambda$ of the refined unit direction, mapped as ``null_directions`` maps
    its columns.
    """
    g = gram.M.shape[0]
    mean = gram.total / gram.k
    lift = (np.trace(gram.M) - gram.k * float(mean @ mean)) / g
    C = centred_gram(gram.M, mean, gram.k)
    delta = np.asarray(delta, dtype=np.float64) / np.linalg.norm(delta)
    for _ in range(REFINEMENT_STEPS):
        exact_error = _fitting_error(B, delta, mean, lift, i, j)
        rhs = exact_error - float(delta @ exact_error) * delta
        sigma = max(float(np.trace(C)) / g, 1e-300)
        try:
            factor = scipy.linalg.cho_factor(C + sigma * np.outer(delta, delta))
            x = scipy.linalg.cho_solve(factor, rhs)
        except np.linalg.LinAlgError:
            return delta + float(mean @ delta)
        x -= float(delta @ x) * delta
        delta = delta - x
        delta /= np.linalg.norm(delta)
    return delta + float(mean @ delta)


def _fitting_error(B: PairBasis, delta, mean, lift, i, j) -> np.ndarray:
    """$C\\delta$ of ``refined_direction`` from the residuals of the pairs ``(i, j)``."""
    lam = delta + float(mean @ delta)
    L = B.matrix(lam)
    r = L[i, j]
    R = np.zeros((B.n, B.n))
    R[i, j] = r
    R[j, i] = r
    free = 0.5 * np.einsum("ik,ik->k", B.V, R @ B.V)
    pair_sum = free if B.G is None else B.G.T @ free
    return pair_sum - float(r.sum()) * mean + lift * float(delta.sum())
