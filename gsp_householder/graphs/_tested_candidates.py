"""A candidate that the edge tests accept, first in place of a graph they reject.

With noise, the family of valid graphs that a search finds holds members with one
dominating eigenvalue: a few weights thousands of times the median, the rest of the
graph scaled down, the weakest edges dropped. Its rotation residual (``_residuals``)
is within the slacks of the graph sought's, so the searches keep the sparsest such
member, and its edges are then tested only when the result is made: its non-edges
show significantly negative entries of $\\tilde V \\hat\\Lambda \\tilde V^T$ (module
``_missing_edges``) and some of its edges are not significantly nonzero (module
``_edge_significance``). ``RGG(190, 0.13, seed 41)`` perturbed by 1e-3
(``bench_inference.py``'s input, draw 0): the ladder gave 807 edges for 868 (F1 0.943,
one weight 3658 times the median, 422 missing pairs at z-scores up to 272, 78 weak
edges), while its candidates held an 852-edge member (F1 0.9895, the exact input's
graph, weights within a factor 2, no missing pair, no weak edge, residual 0.41 times
the graph's).

``accepted_first`` tests the graph found first, and only when the missing-edges test
rejects it (the result would warn: ``_missing_edges``) the candidates in their order
(sparsest first); the first that fits the eigenvectors as well (``_fits_as_well``)
and that neither test rejects (the result would not warn) is put first. Graphs the
tests accept are left as they are.
"""

from __future__ import annotations

from gsp_householder.graphs._edge_significance import edge_significance
from gsp_householder.graphs._laplacian_fit import (
    _diagonal_fit,
    _fits_as_well,
    _laplacian,
    _residuals,
)
from gsp_householder.graphs._missing_edges import missing_edges


def edge_tests(basis, W) -> tuple[int, int, int] | None:
    """``(edges, missing, weak)`` of the graph of weights ``W`` on the eigenvectors of
    ``basis``: its number of edges $m$, the number $k$ of its non-edges with
    significantly negative entries (``missing_edges``) and the number $w$ of its edges
    not significantly nonzero (``edge_significance``); None when the noise level is at
    rounding (nothing is tested)."""
    L = _laplacian(W, basis)
    eigenvalues = _diagonal_fit(basis["V"], L)[0]
    test = edge_significance(basis["V"], L, eigenvalues)
    if test is None:
        return None
    found = missing_edges(basis["V"], L, eigenvalues, test)
    missing = 0 if found is None else int(found["count"])
    return int(test["z"].size), missing, int(test["weak"].sum())


def missing_rejects(tests, agreement: float) -> bool:
    """Whether ``tests`` (``edge_tests``) reject the graph for the edges it lacks: were
    its $k$ missing pairs edges of the graph sought, its $m$ edges would agree with it
    at F1 $2m / (2m + k)$, below ``agreement``."""
    m, k, _ = tests
    return 2.0 * m / (2.0 * m + k) < agreement


def weak_rejects(tests, agreement: float) -> bool:
    """Whether ``tests`` (``edge_tests``) reject the graph for its weak edges: without
    its $w$ weak edges it would agree with itself at F1 $2(m - w) / (2m - w)$, below
    ``agreement``."""
    m, _, w = tests
    return 2.0 * (m - w) / (2.0 * m - w) < agreement


def accepted_first(basis, ranked, history, agreement: float) -> list:
    """``ranked`` (candidate items ``(n_edges, cv, lam, W)``, the graph found first)
    with the first candidate that the edge tests accept put first, when they reject
    the graph found for its missing edges (``missing_rejects``) and that candidate
    fits the eigenvectors as well as it (``_fits_as_well``); else ``ranked`` as it is.

    ``agreement`` is the F1 the inference is held to (``EDGE_AGREEMENT``). A candidate
    is accepted when neither ``missing_rejects`` nor ``weak_rejects`` holds for it.
    ``history["tested_candidate"]`` records ``(edges of the graph put first, edges of
    the graph found, missing pairs of the graph found)``, ``history["tested_swap"]``
    their weights ``(put first, found)`` (which ``_swap_doubt.doubtful_swap`` reads).
    """
    if len(ranked) < 2:
        return ranked
    first = edge_tests(basis, ranked[0][3])
    if first is None or not missing_rejects(first, agreement):
        return ranked
    reference = _residuals(basis, ranked[0][3])
    for k, item in enumerate(ranked[1:], start=1):
        if not _fits_as_well(_residuals(basis, item[3]), reference):
            continue
        tests = edge_tests(basis, item[3])
        if tests is None or missing_rejects(tests, agreement) or weak_rejects(tests, agreement):
            continue
        history["tested_candidate"] = (int(item[0]), int(ranked[0][0]), first[1])
        history["tested_swap"] = (item[3], ranked[0][3])
        return [item, *ranked[:k], *ranked[k + 1 :]]
    return ranked
