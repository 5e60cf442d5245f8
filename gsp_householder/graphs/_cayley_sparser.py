"""A sparser Cayley graph behind a weighted member of a noisy family.

Noisy eigenvectors of a Cayley graph of an abelian group (a circulant, a circular ladder,
a torus) leave a family of valid graphs whose searches can end at a weighted member of
hundreds of edges (``circulant_graph(70, [1, 5])`` perturbed by 1e-3, draws 0-2: 1130,
1165 and 219 edges for 140; ``circular_ladder_graph(35)``, draws 1-3: 1092-1127 for
105), while connected Cayley graphs of the group read off the eigenvectors
(``cayley_twins``) with far fewer edges fit them as well. The inference seeks the
sparsest valid graph: when the graph found has unequal weights at the noise level (a
member of the family, not a graph with equal weights), the sparsest of those Cayley
graphs, the best fitting of the fewest edges, goes first (``sparser_cayley_twins``).
The rule is about the basis's group: it reads no particular graph, and an answer with
equal weights to the noise level (a Cayley graph of the group itself, or any unweighted
graph found) is never replaced.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._abelian_twins import cayley_twins
from gsp_householder.graphs._laplacian_fit import _equal_within_noise

#: Weights' coefficient of variation above which a graph is weighted (as the searches'
#: equal-weight graphs are told apart).
WEIGHTED_CV = 1e-6


def sparser_cayley_twins(basis: dict, W: sp.csr_array, noise: float) -> list[sp.csr_array]:
    """The connected Cayley graphs of the abelian group read off the noisy eigenvectors
    with fewer edges than the weighted graph of weights ``W`` that fit them as well
    (``cayley_twins``), sparsest first, the best fitting first among equally many edges;
    empty when ``W`` has equal weights to the noise level ``noise``
    (``_equal_within_noise``) or no group is read.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric weights of the graph found.
    noise : float
        The noise level the graph was found at (above the exact level).

    Returns
    -------
    list of scipy.sparse.csr_array
        Unit weights of the Cayley graphs.
    """
    W = sp.csr_array(W)
    weights = sp.triu(W, 1).data
    if weights.size == 0 or weights.std() <= WEIGHTED_CV * weights.mean():
        return []
    if _equal_within_noise(basis, W, noise):
        return []
    edges = weights.size
    twins = cayley_twins(basis, W, [])
    sizes = np.array([sp.triu(A, 1).nnz for A in twins], dtype=np.int64)
    return [A for A, e in zip(twins, sizes, strict=True) if e < edges]
