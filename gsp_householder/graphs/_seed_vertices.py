"""Which vertices of a large noisy seed family are projected (``polish``).

A search's seed is the family of the pairs its ranking keeps (the top ``16 n`` of them);
its candidates re-rank the pairs (the sparsest, ``family[0]`` in ``_search_at_noise``)
and are reported after the graphs the search finds. Above ``LADDER_MAX_N`` nodes a
noisy seed family of several directions mixes the graph with its powers (Minnesota:
its local columns and $L, L^2, L^3$), so its linear-program vertices are dense graphs
(8062 to 20832 edges on Minnesota perturbed by 1e-3), and each projection on the null
space of the pairs a vertex leaves at zero (``polish``) costs a Gram of all the other
pairs and a $g \\times g$ reduction (about 4 CPU s at $g = 2641$).

Only the vertices with at most ``SEED_EDGE_SLACK`` times the edges of the sparsest
vertex (counted before the projection) are projected, in their order, and reported; the
number left out is added to ``history["unpolished_vertices"]``. This is a cost rule,
not a bound: a projection keeps most vertices' edges (9394 to 9388 on a 1500-node ball
of Minnesota) but can drop half of them (6561 to 3279 on the same ball), so a vertex left
out could have become the sparsest candidate. On the graphs logged (that ball and
RGG(1000, 0.06)) the sparsest candidate of each seed family was the same with and
without the rule (docs/measurements/speed-and-scale.md, "Minnesota perturbed: the seed
family's dense vertices").
Exact families are not concerned (their sparsest member is found directly,
``_sparsest_member``), nor families on at most ``LADDER_MAX_N`` nodes or those of the
searches' own prefixes.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from gsp_householder.graphs._template_lp import edge_pairs

#: Vertices of a noisy seed family with more than this many times the edges of its
#: sparsest vertex are not projected.
SEED_EDGE_SLACK = 1.25


def vertices_to_polish(B, vertices, fit, history=None) -> list:
    """The ``vertices`` (eigenvalue vectors of the family of ``fit``) with at most
    ``SEED_EDGE_SLACK`` times the edges (``edge_pairs`` at ``fit.tol``) of the sparsest
    one, in their order; the number left out is added to
    ``history["unpolished_vertices"]``."""
    if len(vertices) < 2:
        return list(vertices)
    counts = [len(edge_pairs(B, lam, fit.tol)[0]) for lam in vertices]
    bound = SEED_EDGE_SLACK * min(counts)
    kept = [lam for lam, count in zip(vertices, counts, strict=True) if count <= bound]
    if history is not None:
        history["unpolished_vertices"] = (history.get("unpolished_vertices", 0)
                                          + len(vertices) - len(kept))
    return kept
