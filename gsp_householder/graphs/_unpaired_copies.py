"""A weighted graph with one weight level on a factor's copies and the rest not the other factor.

A box product $G \\square H$ has the Laplacian $L_G \\otimes I + I \\otimes L_H$, and
every valid Laplacian that is a function of the two terms is a member of the family of
graphs its eigenvectors hold (``_box_levels``). When a factor has a family of its own
(a graph $G'$ with $L_G L_{G'} = L_{G'} L_G$: ``random_regular_graph(3, 14, seed=2)``
and that graph less the matching of its edges (3, 4) and (5, 7)), members mix the
factor's members with the other factor: $L_{G'} \\otimes I$ plus terms such as
$(I - P) \\otimes L_{H'} + (P - A_M) \\otimes A_{H'}$ on the matched nodes. A noisy
search can end at such a member with two weights, and nothing in it is wrong by the
fit: its levels fit the eigenvectors alone, so any positive weights on them fit as well.

That graph (``_box`` of ``tests/test_sampled_zeros.py``: that factor boxed with a 5-cycle,
draw 2) was answered by 165 edges (two weights, F1 0.559, no warning): $G'$'s five copies
at one weight and, at 0.26 of it, the pentagram on ten nodes of the factor and the
pentagram's tensor with the matching on the other four. ``heawood_graph()`` boxed with a
6-cycle, draw 4, by 756 edges in three levels (F1 0.261, no warning): the Heawood graph's
six copies, 588 edges between copies two apart, and the matching between copies three
apart. The truth fits as well in both; it was not found.

Rule: a weight level (``_box_levels.weight_levels``) whose graph is $k \\ge 2$ copies of
one graph (components of one size and one degree sequence, not complete graphs:
``_box_levels._informative``) covering every node, fitting the eigenvectors alone as well
as the graph (``_fits_as_well``, unit weights; the rest of the graph, the graph less
that level at its weight, is then a member too), while the rest's components do not each
meet every copy once
(``_box_levels.product_grid``: not a box product), says that the graph is one member of
the family of a product with that factor, whose weights the eigenvectors leave free, and
that it is not the product itself. No new constant: the levels and fits are
``_box_levels``'s, at most ``_box_twins.MAX_NODES`` nodes, combinatorial Laplacians.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._box_levels import (
    _informative,
    _unit_graph,
    product_grid,
    weight_levels,
)
from gsp_householder.graphs._box_twins import MAX_NODES
from gsp_householder.graphs._laplacian_fit import _fits_as_well, _laplacian, _residuals


def equal_copies(S: sp.csr_array) -> tuple[int, int] | None:
    """``(k, m)`` when the graph ``S`` on $n = km$ nodes is $k \\ge 2$ components of
    ``m`` nodes each with one sorted degree sequence (copies of one graph, up to that
    test) that are not complete graphs (``_informative``); else None.

    >>> import networkx as nx
    >>> S = nx.to_scipy_sparse_array(nx.disjoint_union(nx.cycle_graph(4), nx.cycle_graph(4)))
    >>> equal_copies(sp.csr_array(S))
    (2, 4)
    >>> S = nx.to_scipy_sparse_array(nx.disjoint_union(nx.cycle_graph(4), nx.path_graph(4)))
    >>> equal_copies(sp.csr_array(S)) is None
    True
    """
    n = S.shape[0]
    k, label = connected_components(S, directed=False)
    if k < 2 or n % k:
        return None
    m = n // k
    if np.any(np.bincount(label, minlength=k) != m):
        return None
    degrees = np.asarray((S != 0).sum(axis=1)).ravel()
    order = np.lexsort((degrees, label))
    sequences = degrees[order].reshape(k, m)
    if np.any(sequences != sequences[0]):
        return None
    first = np.flatnonzero(label == 0)
    return (k, m) if _informative(sp.csr_array(S[first][:, first])) else None


def unpaired_copies(basis, W, noise: float) -> tuple[int, int, int] | None:
    """``(edges, k, m)`` for the first weight level of the graph of weights ``W`` found
    at the noise level ``noise`` that is $k$ copies of one graph on ``m`` nodes
    (``edges`` edges) fitting the eigenvectors of ``basis`` alone, and no box product
    with the rest (the module docstring); else None (also at
    no noise, above ``MAX_NODES`` nodes, for normalized Laplacians and for weights in
    one level).

    Parameters
    ----------
    basis : dict
        The inference's basis (``"V"``, ``"kind"``, ``"scale"``).
    W : sparse array
        Symmetric non-negative weights of the graph found.
    noise : float
        The noise level the graph was found at (the rankings' standardised pairs).

    Returns
    -------
    tuple of int or None
        The level's edges, its number of copies and their size.
    """
    n = W.shape[0]
    if noise <= 0.0 or n > MAX_NODES or basis["kind"] != "combinatorial":
        return None
    W = sp.csr_array(W)
    levels = weight_levels(_laplacian(W, basis), noise)
    if len(levels) < 2:
        return None
    reference = None
    for rows, cols in levels:
        S = _unit_graph(n, rows, cols)
        copies = equal_copies(S)
        if copies is None:
            continue
        rest = W - W.multiply(S != 0)
        rest.eliminate_zeros()
        if product_grid(S, sp.csr_array(rest != 0)) is not None:
            continue
        reference = _residuals(basis, W) if reference is None else reference
        if _fits_as_well(_residuals(basis, S), reference):
            return int(rows.size), *copies
    return None
