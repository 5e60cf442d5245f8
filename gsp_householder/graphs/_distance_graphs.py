"""Walk classes of a regular graph: twins that share its eigenvectors.

Every polynomial in a graph's adjacency matrix $A$ is diagonalised by every basis of
the graph's eigenvectors, and a 0/1 matrix in the algebra of $A$ is constant on each
class of pairs $(i, j)$ with the same walk counts $((A^k)_{ij})_{k \\ge 1}$. For a
distance-regular graph these classes are the distance-$k$ graphs $A_k$ (polynomials in
$A$); when one is connected and has as few edges, no inference from eigenvectors tells
the two apart. The dodecahedron's distance-4 graph is a dodecahedron on the same nodes
that shares no edge with it; a cycle's distance-$k$ graph is a cycle for every $k$ prime
to its length; the Moebius-Kantor graph's twin is one class of its pairs at distance 3.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

#: Modulus of the walk counts (a prime below $2^{31}$: products stay in int64).
_PRIME = 2_147_483_629


def regular_walk_classes(W) -> list[sp.csr_array]:
    """The classes of node pairs with equal walk counts in the graph of weights ``W``
    (symmetric, sparse) that are connected regular graphs on all nodes with at most its
    degree and are not ``W``'s own edges, with unit weights; empty if ``W``'s graph is
    not connected and regular.

    The counts are refined one power at a time (modulo a prime) until the number of
    classes stops growing, or no class other than the edges has the $n - 1$ pairs a
    connected graph needs (refining only splits classes): at most $n$ sparse products
    of $O(\\mathrm{nnz}\\, n)$ and an $n \\times n$ table of class labels, asked for
    only for a regular graph found with equal weights."""
    A = sp.csr_array(W, dtype=bool).astype(np.int64)
    degree = np.diff(A.indptr)
    n = A.shape[0]
    if n < 3 or degree.min() != degree.max():
        return []
    if sp.csgraph.connected_components(A, directed=False)[0] > 1:
        return []
    X = A.toarray()
    iu = np.triu_indices(n, 1)
    own = X[iu] > 0
    label = np.unique(X, return_inverse=True)[1].reshape(n, n)
    count = label.max() + 1
    for _ in range(n):
        # refining only splits classes: stop when none is large enough to connect
        # the nodes (n - 1 pairs)
        if np.bincount(label[iu][~own]).max(initial=0) < n - 1:
            return []
        X = (A @ X) % _PRIME
        label = np.unique(label * _PRIME + X, return_inverse=True)[1].reshape(n, n)
        if label.max() + 1 == count:
            break
        count = label.max() + 1
    pair_label = label[iu]
    out = []
    for c in np.unique(pair_label[~own]):
        sel = pair_label == c
        if sel.sum() * 2 > degree.sum() or (sel & own).any():
            continue
        C = sp.coo_array((np.ones(sel.sum()), (iu[0][sel], iu[1][sel])), shape=(n, n))
        C = sp.csr_array(C + C.T)
        d = np.diff(C.indptr)
        if d.min() == d.max() and sp.csgraph.connected_components(C, directed=False)[0] == 1:
            out.append(C)
    return out
