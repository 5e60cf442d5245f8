"""A cycle's weights solved from the eigenvector equations, each in the units of its noise.

Given the cyclic order $p_0, \\dots, p_{n-1}$ of its nodes, a cycle's Laplacian has $n$
unknown weights $w_i$ (the edge $p_i p_{i+1}$), and its eigenvector equations
$L(w) V = V \\Lambda$ are linear in the weights and the eigenvalues together: the
entry of node $p_i$ and column $k$ reads

$$w_{i-1} (V_{p_i k} - V_{p_{i-1} k}) + w_i (V_{p_i k} - V_{p_{i+1} k})
- \\lambda_k V_{p_i k} = 0,$$

$n (n - 1)$ equations (the zero column holds them with $\\lambda = 0$) in $2 n - 1$
unknowns, each with three of them. Exact eigenvectors solve them exactly. A basis
$V = V_0 e^{S}$ rotated by a small antisymmetric $S$ (i.i.d. entries of variance
$\\sigma^2$, as ``_own_noise`` models it) leaves the true weights the residual
$V_0 (\\Lambda S - S \\Lambda)$, whose entry $(p_i, k)$ has the variance

$$\\sigma^2 \\sum_l V_{0, p_i l}^2 (\\lambda_l - \\lambda_k)^2
= \\sigma^2 ((L - \\lambda_k)^2)_{p_i p_i}
= \\sigma^2 \\left((d_i - \\lambda_k)^2 + w_{i-1}^2 + w_i^2\\right),$$

$d_i = w_{i-1} + w_i$ the degree of $p_i$: positive for positive weights, and largest at
the heaviest edges and the highest eigenvalues. ``equation_weights`` solves the
equations in the least squares, each over that standard deviation read on given
weights (``_weighted_cycle`` reads it on the least-squares member, then on the first
solution, as its ``noise_weighted_refit`` reads its variances twice); the entries are
correlated, which the weighting leaves out, as ``_own_noise`` does for the non-edges.

The least-squares member of ``_weighted_cycle.cycle_weights`` fits the Laplacian's
entries off the cycle instead, $(V \\Lambda V^T)_{ij}$, whose noise the heaviest edges
dominate. On cycles of lognormal weights ($\\sigma = 2$, weights over $e^{\\pm 6}$)
perturbed by 1e-3, in their true order, it misses non-edges (129 on 350 nodes, weight
seed 9, draw 1), and the noise-scaled fit started there (``_cycle_noise_fit``) settled
with 5 missing. The equations' first solution is shown on that cycle and on the
300-node cycle of seed 11, draw 0, their second on the 500-node cycle of seed 3, draw
2; on the 450-node cycle of seed 5, draw 1, it misses non-edges, and the noise-scaled
fit started there shows the cycle at its first step.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp


def equation_weights(basis, order, W: sp.csr_array | None = None) -> sp.csr_array | None:
    """The weights of the cycle through the nodes in ``order`` that solve its eigenvector
    equations in the least squares, each equation over its standard deviation under the
    rotation model read on the weights ``W`` (unit variances when None; module
    docstring).

    Parameters
    ----------
    basis : dict
        The inference's basis, anchored (``"V_anchored"``, ``"zero_column"``).
    order : numpy.ndarray
        The cycle's nodes in their cyclic order.
    W : scipy.sparse.csr_array or None
        Positive weights of the same cycle that the variances are read on.

    Returns
    -------
    scipy.sparse.csr_array or None
        The symmetric weights, their eigenvalues $\\operatorname{diag}(V^T L V)$ of unit
        norm (as ``_edge_test_descent.support_fit`` scales its fit); None when a weight
        is not positive.
    """
    V = np.asarray(basis["V_anchored"])
    n = V.shape[0]
    order = np.asarray(order)
    following, preceding = np.roll(order, -1), np.roll(order, 1)
    columns = np.delete(V, basis["zero_column"], axis=1)
    differences = columns[order] - columns[following]  # edge i = (p_i, p_{i+1})
    inverse_variance = 1.0 / _equation_variances(differences, order, following, W)
    weights = _least_squares_weights(
        columns[order], columns[order] - columns[preceding], differences, inverse_variance
    )
    eigenvalues = np.square(differences).T @ weights
    weights = weights / np.linalg.norm(eigenvalues)
    if weights.sum() < 0.0:
        weights = -weights
    if np.any(weights <= 0.0):
        return None
    rows, cols = np.minimum(order, following), np.maximum(order, following)
    return sp.csr_array(
        (np.r_[weights, weights], (np.r_[rows, cols], np.r_[cols, rows])), shape=(n, n)
    )


def _equation_variances(differences, order, following, W) -> np.ndarray:
    """The variances, over $\\sigma^2$, of the equations' entries (node $p_i$, column
    $k$) for the weights ``W`` of the cycle: $(d_i - \\lambda_k)^2 + w_{i-1}^2 + w_i^2$,
    $\\lambda_k$ the diagonal of $V^T L V$ (``differences`` the columns' differences
    along each edge); all 1 when ``W`` is None."""
    if W is None:
        return np.ones(differences.shape)
    weights = np.asarray(W[order, following]).ravel()
    before = np.roll(weights, 1)
    degrees = before + weights
    eigenvalues = np.square(differences).T @ weights
    return (
        np.square(degrees[:, None] - eigenvalues[None, :])
        + (np.square(before) + np.square(weights))[:, None]
    )


def _least_squares_weights(values, to_preceding, to_following, inverse_variance) -> np.ndarray:
    """The weights $w$ (up to scale) minimising the weighted squared residuals
    $\\sum_{i,k} c_{ik} (w_{i-1} P_{ik} + w_i Q_{ik} - \\lambda_k X_{ik})^2$ over the
    weights and eigenvalues $x = (w, \\lambda)$ of unit norm once the rows and columns
    of the normal matrix $N$ are scaled to a unit diagonal (each unknown in its own
    units, as a weight over $e^{\\pm 6}$ and the eigenvalues it sets are): the smallest
    eigenvector of that matrix. $X$ holds the ``values`` of the nodes in order, $P$ and
    $Q$ their differences to the preceding and the following node, $c$ the
    ``inverse_variance``. Eliminating $\\lambda$ first (the Schur complement, weights of
    unit norm) left non-edges missing on the 350- and 500-node cycles of the module
    docstring, whose member the whole system shows."""
    n = values.shape[0]
    P, Q, X, c = to_preceding, to_following, values, inverse_variance
    # entry (i, k) holds w_{i-1} (coefficient P), w_i (Q) and lambda_k (-X)
    own = (c * Q * Q).sum(axis=1) + np.roll((c * P * P).sum(axis=1), -1)
    pair = (c * P * Q).sum(axis=1)  # w_{i-1} with w_i
    weights = np.diag(own)
    index = np.arange(n)
    np.add.at(weights, ((index - 1) % n, index), pair)
    np.add.at(weights, (index, (index - 1) % n), pair)
    # w_i with lambda_k, from the entries of node p_i (Q) and of p_{i+1} (P)
    mixed = -(c * Q * X) - np.roll(c * P * X, -1, axis=0)
    normal = np.block([[weights, mixed], [mixed.T, np.diag((c * X * X).sum(axis=0))]])
    scale = 1.0 / np.sqrt(np.diag(normal))
    vector = scipy.linalg.eigh(scale[:, None] * normal * scale, subset_by_index=[0, 0])[1][:, 0]
    return (scale * vector)[:n]
