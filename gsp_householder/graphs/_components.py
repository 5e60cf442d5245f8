"""Bases of disconnected graphs: node blocks that no column joins.

A graph with components $C_1, \\dots, C_c$ has a Fourier basis made of $n - c$
eigenvectors each supported on one component and $c$ zero-eigenvalue vectors; when
these are chosen one per component (as `gsp_householder.graphs.fourier.fourier_basis`
does, and so the signals built on it and the bases learned from them), every column
lies in one block. `node_blocks` finds that structure in a basis given in any column
order.

Such a block is a component for certain: its columns span all of its coordinates, so
its zero vector is a combination of eigenvectors supported on the block, and
$L\\mathbf 1_B$ vanishes outside the block only if no edge leaves it (an isolated node
shows as a unit column). A basis whose zero-eigenvalue columns mix the components is
not split: the same columns then also diagonalise connected graphs (a complete
bipartite graph's two parts look alike), and the sparsest connected one is inferred.

A perturbed or learned basis has no exact zeros: its columns leak into the other blocks
at the noise level. The support is then read at coarser levels in turn
(``SUPPORT_LEVELS``), and the first level at which the blocks appear, each with as many
columns as nodes and near-orthonormal, splits the basis. A connected graph never splits at
any level below its zero-eigenvalue vector's smallest relative entry (1 for the constant
vector of a combinatorial Laplacian): that column joins every node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp
from scipy.sparse import csgraph

#: An entry is part of a column's support above this fraction of the column's largest.
SUPPORT_TOL = 1e-9
#: Largest defect ||Q^T Q - I||_max of a block's basis.
ORTHONORMAL_TOL = 1e-8
#: Support levels tried in turn: rounding (exact bases), then the levels at which
#: perturbed bases show their blocks (an entry left out of a block is below the level
#: times its column's largest entry).
SUPPORT_LEVELS = (SUPPORT_TOL, 1e-6, 1e-4, 1e-3, 1e-2, 3e-2)


@dataclass
class NodeBlock:
    """One component: its nodes, its columns, and its basis ``V[nodes][:, columns]``."""

    nodes: np.ndarray
    columns: np.ndarray
    basis: np.ndarray


def node_blocks(V: np.ndarray) -> list[NodeBlock] | None:
    """The components of the graph whose eigenvectors are ``V``, or None if none show.

    ``V`` is a validated orthonormal (n, n) array. Returns None unless the nodes split
    into at least two blocks, each with as many columns supported on it alone as it
    has nodes, at one of the ``SUPPORT_LEVELS`` (the first that splits). The entries
    left out of the blocks bound the defect of a block's basis by $n\tau^2$ at level
    $\tau$; a block's basis is then not exactly orthonormal (the caller projects it).
    """
    for level in SUPPORT_LEVELS:
        blocks = _blocks_at(V, level)
        if blocks is not None:
            return blocks
    return None


def _blocks_at(V: np.ndarray, level: float) -> list[NodeBlock] | None:
    """`node_blocks` at one support level, or None."""
    n = V.shape[0]
    size = np.abs(V)
    support = size > level * size.max(axis=0)
    rows, cols = np.nonzero(support)
    links = sp.coo_array((np.ones(rows.size), (rows, n + cols)), shape=(2 * n, 2 * n))
    n_blocks, label = csgraph.connected_components(links, directed=False)
    if n_blocks < 2:
        return None
    blocks = []
    for b in range(n_blocks):
        nodes = np.flatnonzero(label[:n] == b)
        columns = np.flatnonzero(label[n:] == b)
        if nodes.size != columns.size:
            return None
        Q = V[np.ix_(nodes, columns)]
        if np.abs(Q.T @ Q - np.eye(nodes.size)).max() > max(ORTHONORMAL_TOL,
                                                             n * level * level):
            return None
        blocks.append(NodeBlock(nodes=nodes, columns=columns, basis=Q))
    return blocks


def small_block_laplacian(size: int, kind: str, mean_degree: float) -> np.ndarray:
    """The Laplacian of a component of 1 or 2 nodes: an isolated node or one edge.

    Both are determined by their size; an isolated node has a zero row in either
    kind of Laplacian.
    """
    if size == 1:
        return np.zeros((1, 1))
    weight = 1.0 if kind == "normalized" else mean_degree
    return weight * np.array([[1.0, -1.0], [-1.0, 1.0]])


def combined_choices(counts: list[int]) -> list[tuple[int, ...]]:
    """Which candidate of every block each whole-graph candidate takes, as indices into
    the blocks' lists of ``counts`` candidates (index 0: the block's answer).

    First the blocks' answers; then every other candidate of one block with the other
    blocks' answers; then, for each rank $k \\ge 1$ that at least two blocks reach, the
    $k$-th candidate of every block that has one (the others' answers): isomorphic
    components list their twins at the same rank, so a truth that differs from the
    answer on all of them is listed. At most $1 + \\sum_b (c_b - 1) + \\max_b c_b - 1$
    candidates, where the product of the lists would be $\\prod_b c_b$.

    >>> combined_choices([3, 1, 2])
    [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 0, 1), (1, 0, 1)]
    """
    answers = (0,) * len(counts)
    choices = [answers]
    for b, count in enumerate(counts):
        choices += [(*answers[:b], k, *answers[b + 1 :]) for k in range(1, count)]
    for k in range(1, max(counts, default=1)):
        if sum(count > k for count in counts) >= 2:
            choices.append(tuple(k if count > k else 0 for count in counts))
    return choices


def assembled_laplacian(n: int, blocks: list[NodeBlock], parts: list) -> sp.csr_array:
    """The $n \\times n$ Laplacian with the block Laplacians ``parts`` (one per block,
    in the block's node order) on the blocks' nodes."""
    rows, cols, vals = [], [], []
    for block, part in zip(blocks, parts, strict=True):
        sub = sp.coo_array(part)
        rows.append(block.nodes[sub.row])
        cols.append(block.nodes[sub.col])
        vals.append(sub.data)
    L = sp.csr_array((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                     shape=(n, n))
    L.eliminate_zeros()
    return L
