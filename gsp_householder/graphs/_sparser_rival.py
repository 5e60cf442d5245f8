"""A sparser graph that fits noisy eigenvectors as well as the graph returned.

The noisy ladder searches each ranking at its own noise estimate; when its graph does
not fit the eigenvectors to the smallest estimate, the rankings are searched again at
that level (``_ranking_ladder._sparser_at_level``), and the graph found there replaces
it only when it is sparser and fits better on both residuals. A sparser graph that fits
as well (``_fits_as_well``) but not better is kept here as a rival: the eigenvectors do
not tell the two apart, and when their edge sets agree below the accuracy the
inference is held to, the result warns (``laplacian_inference._result``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import _fits_as_well
from gsp_householder.graphs._template_lp import edge_codes, edge_key


def record_sparser_rival(history, found, rival, found_fit, rival_fit) -> None:
    """Record ``rival`` (a candidate item ``(n_edges, cv, lam, W)``) in
    ``history["sparser_rival"]`` as ``(edge key of found, W of rival)`` when it has fewer
    edges than ``found`` and its residuals ``rival_fit`` (``_residuals``) fit the
    eigenvectors as well as ``found``'s ``found_fit``."""
    if rival[0] < found[0] and _fits_as_well(rival_fit, found_fit):
        history["sparser_rival"] = (edge_key(found[3]), rival[3])


def edge_agreement(W, A) -> float:
    """F1 of the edge set of the graph of weights ``A`` against that of ``W`` (each
    edge once): $2 |E_W \\cap E_A| / (|E_W| + |E_A|)$, 1 for two empty graphs."""
    codes = []
    for M in (W, A):
        M = sp.csr_array(M, copy=True)
        M.eliminate_zeros()
        codes.append(edge_codes(M))
    total = codes[0].size + codes[1].size
    if total == 0:
        return 1.0
    return 2.0 * np.intersect1d(codes[0], codes[1], assume_unique=True).size / total
