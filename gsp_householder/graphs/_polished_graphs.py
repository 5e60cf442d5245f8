"""The vertices of a family projected, each graph read while its matrix is at hand.

``polish`` reads the entries of $\\tilde L(\\lambda)$ of the vertex it projects
(``edge_pairs``: one dense $n \\times n$ product, kept by ``PairBasis.matrix``), and
returns the vertex itself when the projection is not a valid Laplacian (an exact family
whose directions fit a few pairs exactly). ``rank_candidates`` then reads each
candidate's graph off the same matrix (``adjacency``). When a family has more vertices
than ``MATRIX_CACHE``, the matrices of the first are no longer kept when
``rank_candidates`` reaches them, and each is formed again: on Minnesota's exact seed
family (20 candidates, 9 of the 10 vertices kept as they were) one product of 0.5 CPU s
per vertex, twice per search.

``polished_with_graphs`` reads each polished vertex's graph right after its projection
instead, and ``rank_candidates`` takes those graphs (``graphs``, keyed by the vertex's
bytes): the same ``adjacency`` of the same vector, so the same graphs, bit for bit.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import scipy.sparse as sp

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._template_lp import Fit, adjacency, polish


def polished_with_graphs(B: PairBasis, vertices,
                         fit: Fit) -> tuple[list, dict[bytes, sp.csr_array]]:
    """``[polish(B, lam, fit) for lam in vertices]`` and the graph (``adjacency`` at
    ``fit.tol``) of each of them, keyed by the polished vector's bytes, for
    ``rank_candidates(..., graphs=)``."""
    cands, graphs = [], {}
    for lam in vertices:
        lam = polish(B, lam, fit)
        key = lam.tobytes()
        if key not in graphs:
            graphs[key] = adjacency(B, lam, fit.tol)
        cands.append(lam)
    return cands, graphs
