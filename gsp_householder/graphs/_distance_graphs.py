"""Distance graphs of a regular graph: twins that share its eigenvectors.

The distance-$k$ graph $A_k$ of a graph joins the nodes at distance exactly $k$. For a
distance-regular graph every $A_k$ is a polynomial in the adjacency matrix, so it is
diagonalised by every basis of the graph's eigenvectors; when it is connected and has
as few edges, no inference from eigenvectors tells the two apart. The dodecahedron's
distance-4 graph is a dodecahedron on the same nodes that shares no edge with it; a
cycle's distance-$k$ graph is a cycle for every $k$ prime to its length.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def regular_distance_graphs(W) -> list[sp.csr_array]:
    """The connected distance-$k$ graphs ($k \\ge 2$) of the graph of weights ``W``
    (symmetric, sparse) that are regular with at most its degree, with unit weights;
    empty if ``W``'s graph is not connected and regular.

    Only a regular graph's distance graphs are asked for (distance-regular graphs are
    regular): the breadth-first distances cost $O(n (n + m))$ and an $n \\times n$
    table of small integers, computed once per result."""
    A = sp.csr_array(W, dtype=bool).astype(np.int8)
    degree = np.diff(A.indptr)
    n = A.shape[0]
    if n < 3 or degree.min() != degree.max():
        return []
    D = sp.csgraph.shortest_path(A, directed=False, unweighted=True)
    if not np.isfinite(D).all():
        return []
    out = []
    for k in range(2, int(D.max()) + 1):
        mask = D == k
        counts = mask.sum(axis=1)
        if counts.min() != counts.max() or counts[0] > degree[0]:
            continue
        Ak = sp.csr_array(mask.astype(float))
        if sp.csgraph.connected_components(Ak, directed=False)[0] == 1:
            out.append(Ak)
    return out
