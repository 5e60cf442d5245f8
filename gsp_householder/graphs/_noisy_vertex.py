"""The equal-weight graph of a valid cone's vertex on noisy eigenvectors.

On exact eigenvectors a vertex of the programs that minimise one eigenvalue
(``_eigenvalue_extremes``) is a graph: its non-edges are zeros to rounding. On
eigenvectors perturbed by noise no pair row is exactly zero on the truth's eigenvalues,
so a vertex makes only $g - 1$ of them zero and leaves the others at the noise: a
dense graph whose heavy entries are the edges. Those are read as the edges of the
noisy rankings' clean prefixes are: an entry is an edge when it stands above
``CLEAN_FACTOR`` times the noise, standardised by $s_i + s_j$, $s_i^2 = (L^2)_{ii}$
(``_laplacian_fit._equal_within_noise``).

A vertex whose graph is split is known by its split of the nodes (``node_split``).

On the unit cycle of 40 nodes with a chord (0, 13) perturbed by 1e-3 (draw 0, noise
3.3e-4) four of the 39 programs end at a vertex read as the 41 true edges, and read the
same for any cut from 1 % to 20 % of the largest entry; this reading cuts near 10 %.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import _laplacian, entry_scales, equal_weights
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._support_search import CLEAN_FACTOR
from gsp_householder.graphs._template_lp import adjacency


def noisy_vertex_graph(B: PairBasis, basis, lam: np.ndarray, noise: float) -> sp.csr_array:
    """The equal-weight graph of the entries of the vertex ``lam`` above the noise.

    Parameters
    ----------
    B : PairBasis
        The pair basis of the noisy eigenvectors (one unknown per column).
    basis : dict
        The validated basis (``_read_basis``).
    lam : numpy.ndarray
        The vertex's eigenvalues, one per unknown.
    noise : float
        The eigenvectors' noise level (the inference's ``history["noise"]``).

    Returns
    -------
    scipy.sparse.csr_array
        Unit weights on the pairs whose entry $-L_{ij}$ exceeds ``CLEAN_FACTOR`` times
        ``noise`` times $s_i + s_j$, $s_i^2 = (L^2)_{ii}$, in the vertex's Laplacian $L$
        (``_laplacian``: scaled as the fits are).
    """
    W = adjacency(B, lam, np.zeros(B.n))
    L = _laplacian(W, basis)
    s = entry_scales(L)
    off = sp.triu(-L, 1).tocoo()
    keep = off.data > CLEAN_FACTOR * noise * (s[off.row] + s[off.col])
    upper = sp.coo_array((off.data[keep], (off.row[keep], off.col[keep])), shape=L.shape)
    return equal_weights(sp.csr_array(upper + upper.T))


def node_split(labels: np.ndarray) -> bytes:
    """The split of the nodes into the components ``labels`` (``connected_components``)
    as a key that does not depend on the components' numbering.

    On noisy eigenvectors the vertices that leave the graph split differ in their edges
    from one program to the next but not in the split: on the ball of 60 nodes of
    Minnesota perturbed by 1e-3 (draw 0) 36 of the 59 programs end at vertices of 136 to
    207 edges that split the nodes the same way, into five parts.
    """
    _, first = np.unique(labels, return_index=True)
    return np.argsort(np.argsort(first))[labels].astype(np.int64).tobytes()
