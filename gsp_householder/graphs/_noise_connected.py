"""Whether a graph found at a noise level is connected by more than edges at that level.

A valid Laplacian is connected: its zero eigenvalue is simple. A graph with two
components $A$ and $B$ has a second zero eigenvalue, on the vector that is constant on
each, and a basis that holds that vector (any basis of a box product $G \\square H$ with
$G$ bipartite: the colour classes' vector, the eigenvector of $G$'s largest eigenvalue
$2k$ for a $k$-regular $G$, times $\\mathbf 1$) is fitted as well by the components alone
as by the components joined by edges of any small weight: the weight only sets that
vector's eigenvalue. A noisy search that must return a connected graph can end there,
joining the components by a few edges as light as the noise allows.

``heawood_graph()`` boxed with a 5-cycle, perturbed by 1e-3 (``tests/_basis_inputs.py``:
``perturbed`` draw 5, ``shuffled`` seed 12), was answered by 422 edges (F1 0.0) with the
family flag only: two copies of $K_7 \\otimes C_5$ (the Heawood graph's pairs at
distance 2 are its colour classes, each a $K_7$; 420 edges of equal weight), joined by
two edges of weight $2.7 \\cdot 10^{-4}$, 1/300 of the others. The two copies alone fit
the eigenvectors better than the answer (rotation residual 0.66 times). The edge test
(``_edge_significance``) does not see it: it takes the answer's eigenvalues as the
truth's, and the light edges are 7 of their standard errors from zero there, while
the eigenvalue they set is the one the eigenvectors leave free.

Rule: an edge whose weight is within one noise unit of zero in the standardisation of
the rankings' noise level (weight at most ``noise`` times $s_i + s_j$, $s_i^2 =
(L^2)_{ii}$: ``_laplacian_fit._equal_within_noise``, ``_box_levels.weight_levels``) is
not told from a non-edge by the pairs; when the graph without such edges falls apart,
the eigenvectors do not show the graph connected. No new constant.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._laplacian_fit import entry_scales


def noise_level_edges(L, noise: float) -> np.ndarray:
    """The mask of the edges of the Laplacian ``L`` (upper triangle, in
    ``sp.triu(L, 1).tocoo()`` order, negative entries) whose weight is at most
    ``noise`` times $s_i + s_j$, $s_i^2 = (L^2)_{ii}$: within one noise unit of zero.

    >>> L = sp.csr_array(np.array([[1.001, -1.0, -0.001], [-1.0, 1.0, 0.0],
    ...                            [-0.001, 0.0, 0.001]]))
    >>> noise_level_edges(L, 1e-3).tolist()
    [False, True]
    """
    L = sp.csr_array(L)
    U = sp.triu(L, 1).tocoo()
    s = entry_scales(L)
    return (U.data < 0) & (-U.data <= noise * (s[U.row] + s[U.col]))


def split_at_noise(L, noise: float) -> tuple[int, int] | None:
    """``(edges, components)`` when the connected graph of the Laplacian ``L`` found at
    the noise level ``noise`` falls into ``components`` parts once its ``edges`` edges
    within one noise unit of zero (``noise_level_edges``) are dropped; None when it
    stays connected, has no such edge, or ``noise`` is 0.

    Parameters
    ----------
    L : sparse array
        Laplacian of a connected graph (the inference's kind and scale).
    noise : float
        The rankings' noise level the graph was found at (standardised pairs).

    Returns
    -------
    tuple of int or None
        The number of edges at the noise level and of the components left.

    Examples
    --------
    >>> L = sp.csr_array(np.array([[1.001, -1.0, -0.001], [-1.0, 1.0, 0.0],
    ...                            [-0.001, 0.0, 0.001]]))
    >>> split_at_noise(L, 1e-3)
    (1, 2)
    >>> split_at_noise(L, 1e-4) is None
    True
    """
    if noise <= 0.0:
        return None
    L = sp.csr_array(L)
    weak = noise_level_edges(L, noise)
    if not weak.any():
        return None
    U = sp.triu(L, 1).tocoo()
    keep = (U.data < 0) & ~weak
    n = L.shape[0]
    A = sp.coo_array((np.ones(int(keep.sum())), (U.row[keep], U.col[keep])), shape=(n, n))
    parts = connected_components(A, directed=False)[0]
    return (int(weak.sum()), int(parts)) if parts > 1 else None
