"""Refits of edge sets near a base edge set: its pair Gram formed once, then updated.

``_edge_test_descent.support_fit`` fits the eigenvalues on an edge set $E$ from the
Gram of the other pairs, $G_E = G - \\sum_{e \\in E} a_e a_e^T$ ($G$ the Gram of all
pairs, $a_{ij} = V_i \\circ V_j$): forming it costs $O(|E| n^2)$, two to three times
its smallest eigenpair on the sensor networks of 500 nodes. The twin split
(``_twin_split``) refits up to $3^4$ edge sets that differ from the graph it starts from
by the pair it joins and the few edges it takes out. Here $G_E$ is formed once, and the
Gram of an edge set $E + P - Q$ is $G_E - \\sum_{P} a a^T + \\sum_{Q} a a^T$ (rank
$|P| + |Q|$); so are the pairs of non-positive weight the fit leaves out.

The fit is that of ``support_fit`` to rounding. Where rounding could decide (a weight
within ``WEIGHT_MARGIN`` of zero, relative to the largest, whose sign decides whether the
pair stays) the fit is not made here (None), and the caller makes it as before.

Perturbed PyGSP ``DavidSensorNet(500, seed=0)``: the split fits 81 choices of one pair
(2050 edges); it took 4.3 CPU s, 2.3 s from the Gram updated (1.2 s of it the descent
after the split), the same graph.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from gsp_householder.graphs._edge_test_descent import anchored_pair_gram

#: Weights within this share of the largest are too close to zero for an updated Gram
#: to decide their sign (the fit is then left to ``support_fit``): its weights differ
#: from ``support_fit``'s by up to 5e-9 of the largest on the rings measured.
WEIGHT_MARGIN = 1e-6


class EdgeSetFits:
    """`support_fit` on the anchored basis (``basis["V_anchored"]``,
    ``basis["zero_column"]``, its pair Gram kept in ``basis["anchored_pair_gram"]`` as
    ``_edge_test_descent.anchored_fit`` keeps it) of edge sets near the base edge set
    ``edges`` (pairs $(i, j)$, $i < j$): the base's pair rows and the Gram of its
    other pairs are formed once."""

    def __init__(self, basis: dict, edges) -> None:
        V = np.asarray(basis["V_anchored"])
        self.V = V
        self.pairs = np.array(sorted(edges), dtype=np.int64).reshape(-1, 2)
        self.index = {pair: t for t, pair in enumerate(map(tuple, self.pairs.tolist()))}
        self.rows = V[self.pairs[:, 0]] * V[self.pairs[:, 1]]
        self.gram = anchored_pair_gram(basis) - self.rows.T @ self.rows
        self.free = np.flatnonzero(np.arange(V.shape[0]) != basis["zero_column"])

    def fit(self, added, removed) -> sp.csr_array | None:
        """The weights ``support_fit`` gives the base edge set with the pairs ``added``
        (not in it) and without the pairs ``removed`` (in it), to rounding; None when a
        weight within ``WEIGHT_MARGIN`` of the largest from zero decides a pair."""
        V, n = self.V, self.V.shape[0]
        keep = np.ones(len(self.pairs), dtype=bool)
        keep[[self.index[pair] for pair in removed]] = False
        added = np.array(added, dtype=np.int64).reshape(-1, 2)
        P = V[added[:, 0]] * V[added[:, 1]]
        gram = self.gram - P.T @ P
        Q = self.rows[~keep]
        gram += Q.T @ Q
        pairs = np.concatenate([self.pairs[keep], added])
        # each pair's row: base rows by index (>= 0), added rows by -1 - index
        which = np.concatenate([np.flatnonzero(keep), -1 - np.arange(len(added))])
        while True:
            lam = np.zeros(n)
            lam[self.free] = scipy.linalg.eigh(
                gram[np.ix_(self.free, self.free)], subset_by_index=[0, 0]
            )[1][:, 0]
            base = which >= 0
            weights = np.empty(len(which))
            weights[base] = -(self.rows @ lam)[which[base]]
            weights[~base] = -(P @ lam)[-1 - which[~base]]
            if weights.sum() < 0.0:
                weights = -weights
            if np.any(np.abs(weights) <= WEIGHT_MARGIN * np.abs(weights).max()):
                return None
            positive = weights > 0.0
            if positive.all() or not positive.any():
                break
            out = which[~positive]
            dropped = np.concatenate([self.rows[out[out >= 0]], P[-1 - out[out < 0]]])
            gram += dropped.T @ dropped
            pairs, which = pairs[positive], which[positive]
        W = sp.csr_array((np.maximum(weights, 0.0), (pairs[:, 0], pairs[:, 1])), shape=(n, n))
        W.eliminate_zeros()
        return sp.csr_array(W + W.T)
