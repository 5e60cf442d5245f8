"""Edges inside classes of adjacent twins: a sparser member with equal weights.

Nodes $S$ with the same weights to every node outside $S$ (twins) make every vector
supported on $S$ that sums to zero an eigenvector of the Laplacian $L_0$ of the graph
without the edges inside $S$ (eigenvalue: their common degree), and a graph on $S$ only
moves the eigenvalues of those vectors. So $L_0$ plus any graph on $S$ has the
eigenvectors of $L_0$: noisy eigenvectors of a graph with twins are fitted as well by
the graph with cliques added on its twin classes, and a noisy ranking can return such
a member. Unweighted `balanced_tree(3, 4)` perturbed by 1e-3 gave the tree (120 edges,
weight 0.424) plus triangles of weight 0.536 on six of its 27 classes of three sibling
leaves (138 edges, F1 0.930), fitting the eigenvectors as well as the tree (rotation
residual 9.13e-5 against 9.18e-5). The search ranks graphs with equal weights to the
noise level first (``_noisy_order``), but the tree was not among its candidates.

``without_twin_cliques`` drops the edges inside the graph's classes of adjacent twins
(equal closed neighbourhoods) and keeps the result when it is connected, has equal
weights to the noise level while the graph found has not (``_equal_within_noise``),
and fits the eigenvectors as well (``_fits_as_well``). A graph whose twins are joined
by edges of the weight of the others (unweighted karate, caveman graphs) is left as
found, unless the graph left is a spanning tree (the sparsest connected graph):
unweighted ``balanced_tree(4, 3)`` perturbed by 1e-3 (draw 1) gave the tree plus
complete graphs on two classes of four sibling leaves, every weight equal to the
noise level (96 edges for 84, F1 0.933), fitting as well as the tree (rotation
residual 1.08e-4 against 1.06e-4).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import _equal_graph_fits, _equal_within_noise, _residuals
from gsp_householder.graphs._thresholds import FITS_EXACTLY
from gsp_householder.graphs._twin_superset import twin_classes


def adjacent_twin_labels(W) -> np.ndarray:
    """A class label for every node of the graph of weights ``W`` (symmetric, sparse):
    nodes with the same closed neighbourhood (``twin_classes``) share one, a node with
    no adjacent twin gets -1."""
    labels = np.full(W.shape[0], -1, dtype=np.intp)
    for k, nodes in enumerate(twin_classes(W, 2, adjacent_only=True)):
        labels[nodes] = k
    return labels


def without_twin_cliques(basis, W, noise: float) -> sp.csr_array | None:
    """The weights ``W`` without the edges inside its classes of adjacent twins
    (``adjacent_twin_labels``), or None.

    Kept only when ``noise`` is positive (a noisy search's level), the graph left is
    connected, has equal weights to ``noise`` while ``W`` has not
    (``_equal_within_noise``) or is a spanning tree, and fits the eigenvectors of
    ``basis`` as well as ``W`` (``_fits_as_well``).

    Parameters
    ----------
    basis : dict
        The read basis (``V``, ``kind``, ``scale``).
    W : sparse array
        Symmetric weights of the graph found.
    noise : float
        The noise level the graph was found at (0 for exact eigenvectors).

    Returns
    -------
    scipy.sparse.csr_array or None
        Symmetric weights of the sparser graph.
    """
    if noise <= 0.0 or basis["kind"] != "combinatorial":
        return None
    W = sp.csr_array(W)
    labels = adjacent_twin_labels(W)
    C = sp.triu(W, 1).tocoo()
    inside = (labels[C.row] >= 0) & (labels[C.row] == labels[C.col])
    if not inside.any():
        return None
    keep = ~inside
    U = sp.coo_array((C.data[keep], (C.row[keep], C.col[keep])), shape=W.shape)
    A = sp.csr_array(U + U.T)
    if U.nnz != W.shape[0] - 1 and _equal_within_noise(basis, W, noise):
        return None  # not a spanning tree, beside a graph with equal weights
    return A if _equal_graph_fits(basis, A, _residuals(basis, W), noise) else None


def with_twin_cliques(basis, W, noise: float) -> sp.csr_array | None:
    """The weights ``W`` with every class of non-adjacent twins joined into a clique at
    the graph's mean weight, or None.

    A class is two or more nodes with the same neighbours and no edge among them
    (``twin_classes``): the leaves of one node of a tree, or the nodes a clique hanging
    off one node leaves once it is read as a star (`lollipop_graph`, `barbell_graph`).
    Joining them only moves the eigenvalue of the vectors supported on the class that
    sum to zero, as the module's docstring says, so the graph made has the same
    eigenvectors when those vectors are columns of the basis. It is kept when it fits the
    eigenvectors as well as ``W``: to ``FITS_EXACTLY`` at no ``noise`` (exact
    eigenvectors), else as `_equal_graph_fits` asks at ``noise``. ``W`` has equal weights
    (the caller checks).

    >>> import networkx as nx
    >>> from gsp_householder import fourier_basis
    >>> from gsp_householder.graphs._basis_input import _read_basis
    >>> G = nx.lollipop_graph(4, 2)
    >>> star = nx.Graph([(3, 0), (3, 1), (3, 2), (3, 4), (4, 5)])
    >>> basis = _read_basis(fourier_basis(G).eigenvectors, None, None, "combinatorial", None)
    >>> W = nx.to_scipy_sparse_array(star, nodelist=range(6), dtype=float)
    >>> int(sp.triu(with_twin_cliques(basis, W, 0.0), 1).nnz) == G.number_of_edges()
    True
    """
    W = sp.csr_array(W, dtype=float)
    classes = [nodes for nodes in twin_classes(W, 2) if W[nodes][:, nodes].nnz == 0]
    if not classes:
        return None
    weight = float(sp.triu(W, 1).data.mean())
    rows = np.concatenate([np.repeat(nodes, len(nodes)) for nodes in classes])
    cols = np.concatenate([np.tile(nodes, len(nodes)) for nodes in classes])
    keep = rows != cols
    joined = sp.coo_array((np.full(keep.sum(), weight), (rows[keep], cols[keep])), shape=W.shape)
    A = sp.csr_array(W + joined)
    reference = None if noise <= 0.0 else _residuals(basis, W)
    return A if fits_as_well(basis, A, reference, noise) else None


def fits_as_well(basis, A, reference, noise: float) -> bool:
    """Whether the graph of weights ``A``, made from an equal-weight answer, fits the
    eigenvectors as well as it: to ``FITS_EXACTLY`` at no ``noise`` (exact eigenvectors;
    ``reference`` unused), else as `_equal_graph_fits` asks at ``noise`` against the
    answer's residuals ``reference`` (``_residuals``)."""
    if noise <= 0.0:
        return _residuals(basis, A)[0] <= FITS_EXACTLY
    return _equal_graph_fits(basis, A, reference, noise)
