"""A sparser member of a family of valid graphs: zero a candidate's weakest edges in blocks.

The vertices that random and reweighted objectives reach in a family (``sparse_vertices``)
sit on the eigenvalue floor: members that add heavy graphs on twin nodes to a scaled-down
sparsest graph (a tree plus cliques among leaves, say). From the best candidate, its
edges are forced to zero, weakest first, in blocks: all of them, then halves of a block
whose linear program is infeasible (no valid member of the family has those zeros), and
so on, within a budget of linear programs. Every feasible step is a candidate (polished
by the caller). A connected graph has at least $n - 1$ edges: a step reaching that
count ends the search.

Zeros are only ever added, so a step can ask for a set of zeros that holds a set found
infeasible before: after an infeasible block whose first half is feasible, the second
half asks again for the whole block's zeros. Such a program has the earlier one's rows
and more (the band rows of the zeros are the same for the same pairs), so its margin is
no larger: refused too (a refusal of HiGHS's that is no proof, status *unknown*, is
taken so as well). It is not solved, and counts against the budget as if it were, so
that the steps taken, and the candidates, are those of solving it. On the exact weighted
cycle of 100 nodes (weights uniform in [1, 10], seed 6) three of the 16 programs were
such repeats, 4.5 of its 17 CPU s.

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
    infeasible = InfeasibleZeros(B.n)
    while queue and spent < max_programs:
        block = queue.pop(0)
        bi, bj = np.concatenate([zi, I[block]]), np.concatenate([zj, J[block]])
        spent += 1
        if infeasible.implied(bi, bj):
            ok = False
        else:
            ok, lam2, _ = valid_in_span(B, fit.Lam, fit.tol, fit.floor, fit.hint,
                                        band=(bi, bj, fit.tol[bi] + fit.tol[bj]),
                                        cache=fit.programs, settle=True)
            if not ok:
                infeasible.add(bi, bj)
        if ok:
            zi, zj = bi, bj
            out.append(polish(B, lam2, fit))
            if len(edge_pairs(B, out[-1], fit.tol)[0]) <= B.n - 1:
                break
        elif len(block) > 1:
            half = len(block) // 2
            queue = [block[:half], block[half:], *queue]
    return out


class InfeasibleZeros:
    """Sets of pairs that no member of a family holds at zero (their band programs were
    refused): a set holding one of them is refused too."""

    def __init__(self, n: int):
        self.n = n
        self.sets: list[frozenset] = []

    def _keys(self, I, J) -> frozenset:
        I, J = np.asarray(I, np.intp), np.asarray(J, np.intp)
        return frozenset((np.minimum(I, J) * self.n + np.maximum(I, J)).tolist())

    def add(self, I, J) -> None:
        """Record that the pairs ``(I[k], J[k])`` cannot all be zero."""
        self.sets.append(self._keys(I, J))

    def implied(self, I, J) -> bool:
        """Whether the pairs ``(I[k], J[k])`` hold a set recorded by ``add``."""
        keys = self._keys(I, J)
        return any(known <= keys for known in self.sets)
