"""A sparser graph that fits noisy eigenvectors as well as the graph returned.

The noisy ladder searches each ranking at its own noise estimate; when its graph does
not fit the eigenvectors to the smallest estimate, the rankings are searched again at
that level (``_ranking_ladder._sparser_at_level``), and the graph found there replaces
it only when it is sparser and fits better on both residuals. A sparser graph that fits
as well (``_fits_as_well``, per free pair) but not better is kept here as a rival: the
eigenvectors do not tell the two apart, and when their edge sets agree below the accuracy the
inference is held to, the result warns (``laplacian_inference._result``). A rival
with equal weights to the noise level, beside a graph returned without, is returned
instead (``equal_weight_rival``), as the noisy rankings order their own candidates.
A sparser graph with equal weights that fits the eigenvectors (rotation residual within
``RESIDUAL_CONSISTENT`` times, as a search's candidates are held to) but not as well is
kept as a fitting rival (``record_fitting_rival``), which the result warns of on the
same terms: a denser graph fits the noise on its extra pairs.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import (
    _equal_graph_fits,
    _equal_within_noise,
    _fits_as_well,
    _per_free_pair,
    _residuals,
    equal_weights,
)
from gsp_householder.graphs._template_lp import edge_codes, edge_key
from gsp_householder.graphs._thresholds import RESIDUAL_CONSISTENT


def record_sparser_rival(history, found, rival, found_fit, rival_fit, n_pairs: int) -> None:
    """Record ``rival`` (a candidate item ``(n_edges, cv, lam, W)``) in
    ``history["sparser_rival"]`` as ``(edge key of found, W of rival)`` when it has fewer
    edges than ``found`` and its residuals ``rival_fit`` (``_residuals``) fit the
    eigenvectors as well as ``found``'s ``found_fit``, both per pair they leave free
    (``_per_free_pair`` over the ``n_pairs`` pairs), as the grouped search's graph is
    compared with the graph found (``_eigenspace_search``).

    A graph fits the noise on its own pairs: on few nodes a denser one leaves less
    residual for that alone. ``circular_ladder_graph(23)`` perturbed by 1e-4 (draw 1)
    gave a weighted graph of 511 edges of its 1035 pairs (F1 0.14 against the 69
    edges), and at the smallest estimate the rankings a 46-edge cycle with equal weights
    (it shares the eigenvectors: $C_{46}$ relabelled) at the same rotation residual
    (1.01 times) and 2.30 times its residual: per free pair 0.74 and 1.67 times, within
    the slacks. Counted raw, it was no rival and the graph was returned with the family
    flag only.
    """
    if rival[0] < found[0] and _fits_as_well(_per_free_pair(rival_fit, rival[0], n_pairs),
                                             _per_free_pair(found_fit, found[0], n_pairs)):
        history["sparser_rival"] = (edge_key(found[3]), rival[3])


def record_fitting_rival(history, found, rival, found_fit, rival_fit, n_pairs: int) -> None:
    """Record ``rival`` (a candidate item ``(n_edges, cv, lam, W)``) in
    ``history["fitting_rival"]`` as ``(edge key of found, W of rival, ratio)`` when it
    has fewer edges than ``found`` and, per pair each leaves free (``_per_free_pair``
    over the ``n_pairs`` pairs), does not fit the eigenvectors as well as ``found``
    (``_fits_as_well``: that is ``record_sparser_rival``'s rival) but fits them: its
    rotation residual within ``RESIDUAL_CONSISTENT`` times ``found``'s, the level at
    which a search's candidates fit (``_ranking_ladder._fitting_mask``); ``ratio`` is
    that rotation residuals' ratio. ``found_fit`` and ``rival_fit`` are their
    ``_residuals``.

    A denser graph fits the noise on its extra pairs, and a graph of a simple spectrum
    has the eigenvectors of its quadratic $aL + bL^2$, valid for small $b < 0$, whose
    extra edges are the pairs at distance 2. PyGSP ``Sensor(1000, seed=5)`` perturbed by
    1e-3 (draw 0 of ``bench_inference.py``): the noisy ladder chose such a quadratic of
    the truth (9375 edges for 3550, F1 0.549; its column eigenvalues a quadratic of the
    truth's to 1.1 %), silently, beside a graph with equal weights to the noise level of
    3545 edges, all of them the truth's (F1 0.9993), whose rotation residual, 2.26 times
    the quadratic's, the five heavy edges it misses raise.
    """
    if rival[0] >= found[0]:
        return
    rival_free = _per_free_pair(rival_fit, rival[0], n_pairs)
    found_free = _per_free_pair(found_fit, found[0], n_pairs)
    if _fits_as_well(rival_free, found_free):
        return
    ratio = rival_free[1] / found_free[1] if found_free[1] > 0 else np.inf
    if ratio <= RESIDUAL_CONSISTENT:
        history["fitting_rival"] = (edge_key(found[3]), rival[3], float(ratio))


def equal_weight_rival(history, basis, W, noise: float) -> sp.csr_array | None:
    """The weights of the sparser rival recorded at the smallest noise estimate
    (``history["sparser_rival"]``, popped) when it is connected, has fewer edges than the
    graph of weights ``W`` returned, equal weights to ``noise`` while ``W`` has not
    (``_equal_within_noise``) and fits the eigenvectors of ``basis`` as well as ``W``
    (``_fits_as_well``); else None, the record left in place.

    The rival is recorded against the graph the noisy ladder gave, which a later search
    may replace (``found_eigenspaces``); it is compared here with the graph returned.
    Unweighted ``balanced_tree(3, 4)`` perturbed by 1e-3 (draw 0 of
    ``tests/_basis_inputs``): the ladder gave 139 edges, the smallest estimate the tree
    (120 edges, weights equal to 2e-4 in coefficient of variation, rotation residual
    1.002 times, residual 1.04 times the 139 edges'), the eigenspace search then 130
    edges (two sibling subtrees swapped, F1 0.912) that fit as well, returned silently.

    A rival whose own weights are not equal to ``noise`` is judged by its edges with
    equal weights (``equal_weights``), returned when that graph fits as well: the
    rankings at the smallest estimate read a vertex of a family of valid graphs, and
    a regular graph's constant-diagonal family spreads its weights. ``frucht_graph()``
    boxed with a 5-cycle perturbed by 1e-3 (``tests/_basis_inputs.py``: ``perturbed``
    draw 9, ``shuffled`` seed 16): the ladder gave 315 edges, the smallest estimate the
    graph's own 150 edges with weights spread to a coefficient of variation of 0.29,
    the eigenspace search then a weighted graph of 300 edges (F1 0.27), returned with
    no warning; the 150 edges with equal weights fit as well (residuals 1.18 and 0.97
    times the 300 edges').
    """
    rival = history.get("sparser_rival")
    if noise <= 0.0 or rival is None or basis["kind"] != "combinatorial":
        return None
    A = sp.csr_array(rival[1])
    if sp.triu(A, 1).nnz >= sp.triu(W, 1).nnz or _equal_within_noise(basis, W, noise):
        return None
    reference = _residuals(basis, W)
    if not _equal_graph_fits(basis, A, reference, noise):
        # its edges with equal weights (the docstring)
        A = equal_weights(A)
        if not _equal_graph_fits(basis, A, reference, noise):
            return None
    del history["sparser_rival"]
    return A


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
