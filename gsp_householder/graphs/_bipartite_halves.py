"""The complete bipartite graph between the halves of a $\\pm 1$ column: no information.

A regular bipartite graph on $n$ nodes (a periodic hexagonal lattice) has the sign
vector $s$ of its bipartition, $\\pm 1$ on its two halves of $n/2$ nodes, as an
eigenvector. The complete bipartite graph $K_{n/2, n/2}$ between those halves has the
eigenvalues 0 on $\\mathbf 1$, $n$ on $s$ and $n/2$ on every vector orthogonal to both:
every basis with the columns $\\mathbf 1/\\sqrt n$ and $s/\\sqrt n$ diagonalises it, as
every basis with the column $\\mathbf 1/\\sqrt n$ diagonalises the complete graph. The
grouped search finds it on such lattices (their eigenspaces split by the sign of a
symmetry, as in ``_symmetry_complement``): the periodic ``hexagonal_lattice_graph(6, 8)``,
exact, returned $K_{48, 48}$ (2304 edges for 144) with no warning; the result now warns
(the ungrouped search alone, tried, gives no graph on it: the complete graph, warned, in
9 to 13 CPU s instead of 1).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

#: A column is the normalised sign vector of the halves when its inner product with it
#: is within this of 1 (a column off by $\epsilon$ in norm is $\epsilon^2 / 2$ off:
#: 5e-7 for the error 1e-3 of eigenvectors perturbed by 1e-3).
SIGN_COLUMN_LEVEL = 1e-4
#: The weights of the graph are equal when they are within this of the largest, relative
#: (a weighted complete bipartite graph is diagonalised by fewer bases).
EQUAL_WEIGHT_LEVEL = 1e-2


def column_halves_graph(V, W) -> bool:
    """Whether the graph of weights ``W`` (sparse, symmetric or upper) is the complete
    bipartite graph with equal weights (to ``EQUAL_WEIGHT_LEVEL``) between two halves of
    the nodes whose $\\pm 1$ vector, normalised, is a column of ``V`` (to
    ``SIGN_COLUMN_LEVEL``).

    Parameters
    ----------
    V : ndarray of shape (n, n)
        The eigenvectors (columns).
    W : sparse array of shape (n, n)
        The graph's weights.

    Returns
    -------
    bool
    """
    n = V.shape[0]
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    if n % 2 or upper.nnz != (n // 2) ** 2:
        return False
    w = np.abs(upper.data)
    if np.ptp(w) > EQUAL_WEIGHT_LEVEL * w.max():
        return False
    side = np.zeros(n, dtype=bool)
    side[upper.row[0]] = True
    first = upper.row == upper.row[0]
    side[upper.col[first]] = False
    others = np.setdiff1d(np.arange(n), upper.col[first])
    if others.size != n // 2:
        return False
    side[others] = True
    if np.any(side[upper.row] == side[upper.col]):
        return False
    s = np.where(side, 1.0, -1.0) / np.sqrt(n)
    return bool(np.max(np.abs(s @ V)) >= 1.0 - SIGN_COLUMN_LEVEL)
