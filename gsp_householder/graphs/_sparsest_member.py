"""A sparser member of a family of valid graphs: zero a candidate's weakest edges in blocks.

The vertices that random and reweighted objectives reach in a family (``sparse_vertices``)
sit on the eigenvalue floor: members that add heavy graphs on twin nodes to a scaled-down
sparsest graph (a tree plus cliques among leaves, say). From the best candidate, its
edges are forced to zero, weakest first, in blocks: all of them, then halves of a block
whose linear program is infeasible (no valid member of the family has those zeros), and
so on, within a budget of linear programs. Every feasible step is a candidate (polished
by the caller). A connected graph has at least $n - 1$ edges: a step reaching that
count ends the search.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._template_lp import Fit, edge_pairs, polish, valid_in_span

#: Linear programs spent on one family.
MAX_PROGRAMS = 16


def zero_weakest_edges(B: PairBasis, fit: Fit, lam, max_programs=MAX_PROGRAMS):
    """Members of the family ``span(fit.Lam)`` with more zeros than ``lam``, polished."""
    I, J = edge_pairs(B, lam, fit.tol)
    order = np.argsort(-B.matrix(lam)[I, J])                # weakest edge first
    zi, zj = np.zeros(0, np.intp), np.zeros(0, np.intp)
    queue, out, spent = [order], [], 0
    while queue and spent < max_programs:
        block = queue.pop(0)
        bi, bj = np.concatenate([zi, I[block]]), np.concatenate([zj, J[block]])
        ok, lam2, _ = valid_in_span(B, fit.Lam, fit.tol, fit.floor, fit.hint,
                                    band=(bi, bj, fit.tol[bi] + fit.tol[bj]),
                                    cache=fit.programs, settle=True)
        spent += 1
        if ok:
            zi, zj = bi, bj
            out.append(polish(B, lam2, fit))
            if len(edge_pairs(B, out[-1], fit.tol)[0]) <= B.n - 1:
                break
        elif len(block) > 1:
            half = len(block) // 2
            queue = [block[:half], block[half:], *queue]
    return out
