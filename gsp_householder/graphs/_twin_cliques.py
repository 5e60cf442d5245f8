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
    classes = open_twin_classes(W)
    if not classes:
        return None
    A = sp.csr_array(W + _cliques(classes, _mean_weight(W), W.shape))
    reference = None if noise <= 0.0 else _residuals(basis, W)
    return A if fits_as_well(basis, A, reference, noise) else None


def open_twin_classes(W) -> list[np.ndarray]:
    """The classes of two or more non-adjacent twins of the graph of weights ``W``
    (``twin_classes``: the same neighbours, no edge among them)."""
    W = sp.csr_array(W)
    return [nodes for nodes in twin_classes(W, 2) if W[nodes][:, nodes].nnz == 0]


def twin_clique_members(basis, W, noise: float) -> list[sp.csr_array]:
    """The graphs with equal weights that join some classes of non-adjacent twins of
    ``W`` into cliques and fit the eigenvectors as well as ``W``: the graph with every
    joinable block joined first, then, when there are two blocks or more, the graph with
    every block joined but one and the graph with one block joined, for each block.

    A block is a class whose clique alone fits (``fits_as_well``), or, when the graph
    with every class joined fits, the other classes together. Joining a class $S$ at
    the weight $w$ adds $w |S| P_S$ to the Laplacian ($P_S$ the projector onto the
    vectors on $S$ that sum to zero), so $V^T L V$ changes by $w |S| V^T P_S V$: the
    graph fits exactly when $V^T P_S V$ is diagonal, and by linearity any set of
    blocks that fit one by one fits together. The eigensolver may mix the vectors of
    classes that share an eigenvalue, and then only their union fits (the second kind
    of block). So every graph the blocks make fits: the graph sought may join some
    classes and not others (`relaxed_caveman_graph(5, 8, 0.15, seed=71)`: four classes
    of adjacent twins and one pair of non-adjacent twins), and the graph with every
    class joined is then not it. Each graph listed is tested as ``fits_as_well`` asks
    (at ``noise``, linearity holds to the noise only). ``W`` has equal weights (the
    caller checks).

    Parameters
    ----------
    basis : dict
        The read basis (``V``, ``kind``, ``scale``).
    W : sparse array
        Symmetric weights of the graph found, with equal weights.
    noise : float
        The noise level the graph was found at (0 for exact eigenvectors).

    Returns
    -------
    list of scipy.sparse.csr_array
        Symmetric weights of the graphs that fit, the graph with every block joined
        first; empty when no class can be joined.

    >>> import networkx as nx
    >>> from gsp_householder import fourier_basis
    >>> from gsp_householder.graphs._basis_input import _read_basis
    >>> pair, triple = [1, 2], [4, 5, 6]
    >>> G = nx.empty_graph(8)
    >>> G.add_edges_from([(0, 3), (3, 7), (0, 7)])
    >>> G.add_edges_from((u, v) for u in pair for v in [0, 7])
    >>> G.add_edges_from((u, v) for u in triple for v in [3, 7])
    >>> G.add_edges_from([(1, 2), (4, 5), (4, 6), (5, 6)])
    >>> basis = _read_basis(fourier_basis(G).eigenvectors, None, None, "combinatorial", None)
    >>> H = nx.Graph(G)
    >>> H.remove_edges_from([(1, 2), (4, 5), (4, 6), (5, 6)])
    >>> W = nx.to_scipy_sparse_array(H, nodelist=range(8), dtype=float)
    >>> [int(sp.triu(A, 1).nnz) for A in twin_clique_members(basis, W, 0.0)]
    [17, 16, 14, 14, 16]
    """
    W = sp.csr_array(W, dtype=float)
    classes = open_twin_classes(W)
    if not classes:
        return []
    weight = _mean_weight(W)
    reference = None if noise <= 0.0 else _residuals(basis, W)
    blocks = _joinable_blocks(basis, W, classes, weight, reference, noise)
    if not blocks:
        return []
    joined = [sp.csr_array(_cliques(block, weight, W.shape)) for block in blocks]
    top = sp.csr_array(W + sum(joined))
    graphs = [top]
    if len(blocks) > 1:
        graphs += [sp.csr_array(top - J) for J in joined]
        graphs += [sp.csr_array(W + J) for J in joined]
    return [
        A
        for k, A in enumerate(graphs)
        if (k == 0 and len(blocks) == 1) or fits_as_well(basis, A, reference, noise)
    ]


def _joinable_blocks(
    basis, W, classes, weight: float, reference, noise: float
) -> list[list[np.ndarray]]:
    """The blocks of ``twin_clique_members``: each class whose clique alone fits, then
    the other classes together when the graph with every class joined fits (each block
    a list of classes)."""
    alone = [
        fits_as_well(basis, W + _cliques([nodes], weight, W.shape), reference, noise)
        for nodes in classes
    ]
    blocks = [[nodes] for nodes, fits in zip(classes, alone, strict=True) if fits]
    rest = [nodes for nodes, fits in zip(classes, alone, strict=True) if not fits]
    if rest and fits_as_well(basis, W + _cliques(classes, weight, W.shape), reference, noise):
        blocks.append(rest)
    return blocks


def _mean_weight(W) -> float:
    """The mean weight of the edges of ``W``."""
    return float(sp.triu(W, 1).data.mean())


def _cliques(classes, weight: float, shape) -> sp.coo_array:
    """Symmetric weights of a clique of weight ``weight`` on every class of
    ``classes``."""
    rows = np.concatenate([np.repeat(nodes, len(nodes)) for nodes in classes])
    cols = np.concatenate([np.tile(nodes, len(nodes)) for nodes in classes])
    keep = rows != cols
    return sp.coo_array((np.full(keep.sum(), weight), (rows[keep], cols[keep])), shape=shape)


def fits_as_well(basis, A, reference, noise: float) -> bool:
    """Whether the graph of weights ``A``, made from an equal-weight answer, fits the
    eigenvectors as well as it: to ``FITS_EXACTLY`` at no ``noise`` (exact eigenvectors;
    ``reference`` unused), else as `_equal_graph_fits` asks at ``noise`` against the
    answer's residuals ``reference`` (``_residuals``)."""
    if noise <= 0.0:
        return _residuals(basis, A)[0] <= FITS_EXACTLY
    return _equal_graph_fits(basis, A, reference, noise)
