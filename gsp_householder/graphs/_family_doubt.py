"""Noisy graphs whose family may hold a much sparser member than the one returned.

A sparse vertex of a family of valid graphs of dimension $d$ has fewer than $d$ edges
less than the family's other members (see ``laplacian_inference._undecided``): a graph
of $m$ edges returned from a family of dimension $d$ may have beside it a member of
$\\max(n - 1, m - d + 1)$ edges that the linear-program vertices did not reach. With
exact eigenvectors the family dimension is the answer's flag; with noisy ones, a
weighted member of a large family is often all the search has, and nothing else tells
that it may be far from the graph sought. ``balanced_tree(3, 4)`` perturbed by 1e-3
(draw 0, SandyBridge kernels) gave 158 edges for the tree's 120 (F1 0.734), weights
spread 0.28 to 1.65, family dimension 64, no warning: a tree may share those
eigenvectors to their noise level, at F1 $2 \\cdot 120 / (120 + 158) = 0.863$ of it.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

#: Weak edges (``laplacian_inference._weak_edges``) and family members are warned of when
#: they agree with the graph returned below this F1: the accuracy the inference is held
#: to for eigenvectors perturbed by 1e-3 (issue 10's target), which no fewer weak edges
#: can breach.
EDGE_AGREEMENT = 0.95


def sparsest_possible_member(n: int, edges: int, family_dimension: int) -> int:
    """Fewest edges a connected member of a family of dimension ``family_dimension`` may
    have beside a member of ``edges`` edges on ``n`` nodes: $\\max(n - 1, m - d + 1)$."""
    return max(n - 1, edges - family_dimension + 1)


def family_agreement(n: int, edges: int, family_dimension: int) -> float:
    """F1 agreement of a graph of ``edges`` edges with the sparsest member its family may
    hold (``sparsest_possible_member``), were that member's edges a subset of its own:
    $2 s / (s + m)$, the most the two can agree."""
    s = sparsest_possible_member(n, edges, family_dimension)
    return 2.0 * s / (s + edges)
