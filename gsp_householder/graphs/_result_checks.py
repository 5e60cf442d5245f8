"""Checks of the graph that the inference returns, each behind one of its warnings.

A graph that does not fit exact eigenvectors (``_exact_misfit``), a zero pattern that
leaves a family although the spectrum is simple (``_undetermined_support``), a graph of
the fitted rankings that does not fit (``_unranked_doubt``), the noise level a graph fits
to (``_fitted_noise``), and an equal-weight graph's connected complement that shares its
eigenvectors (``_close_complement``) or, whatever the weights and the noise, a complement
with no more edges that fits them as well (``_fitting_complement``). Every equal-weight
graph whose complement is connected shares its eigenvectors with that complement
(``_complement_twin``, the result's ``complement_twin`` flag), however dense, and so
does, to the noise, a graph with unequal weights whose unit-weight graph and its
complement fit the eigenvectors as well (``_complement_fits``).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._complement_graph import complement_connected, complement_residuals
from gsp_householder.graphs._equal_sparsity import _floored_residuals
from gsp_householder.graphs._laplacian_fit import (
    _equal_within_noise,
    _fits_as_well,
    _per_free_pair,
    equal_weights,
)
from gsp_householder.graphs._pair_geometry import PairBasis, complement_gram
from gsp_householder.graphs._regular_family import constant_diagonal_noise
from gsp_householder.graphs._small_search import MAX_NODES as SMALL_NODES
from gsp_householder.graphs._support_search import EXACT_NOISE
from gsp_householder.graphs._thresholds import (
    EXACT_LEVEL,
    FAMILY_SEARCH_MAX_N,
    FITS_EXACTLY,
    MAX_NOISE,
    RESIDUAL_CONSISTENT,
    ROUNDING_FIT,
    UNRESOLVABLE_NOISE,
)

#: An equal-weight graph whose connected complement has at most this many times its
#: edges is warned of (AmbiguousGraphWarning, the complement among the candidates): the
#: two share their eigenvectors and only the prior "sparser" tells them apart, by
#: little. Beyond it the complement is flagged only (``_complement_twin``: the result's
#: ``complement_twin``, the complement built on demand), as every sparse unweighted
#: answer's is.
COMPLEMENT_RATIO = 2.0
#: Coefficient of variation of the weights below which a graph has equal weights (exact
#: eigenvectors; with noise, ``_equal_within_noise`` at the level the graph was found at).
EQUAL_WEIGHT_CV = 1e-6
#: Eigenvalues of a graph found closer than this, relative to the largest, are one
#: repeated eigenvalue (``_undetermined_support``: exact eigenvectors, rounding level).
SIMPLE_SPECTRUM_GAP = 1e-8


def _exact_misfit(history, residual) -> bool:
    """Whether a ranking's kept pairs fit the eigenvectors to rounding (a noise estimate
    at most ``EXACT_LEVEL``: exact eigenvectors, or noisy ones with few pairs per
    unknown) while the graph returned does not fit them (residual above
    ``ROUNDING_FIT``) and the searches at noise levels (``_refit_misfit``,
    ``history["misfit_refits"]``) found none that does; then
    ``history["exact_misfit"]`` holds the residual. Not asked for the complete graph
    (warned of on its own), nor true for a graph already doubted (``_unranked_doubt``).

    Every graph that shares exact eigenvectors fits them to rounding. A cycle of 100
    nodes with lognormal weights ($\\sigma$ = 1.5, weights 0.04 to 31) gave a graph
    of 304 edges at a residual of 1.2e-3 with no warning: its eigenvectors are
    localised, and the pairs left after the search's prefix fit 41 directions to
    rounding (their singular values decay from 1e-3 to 1e-13 with no gap), so the
    graph returned is an inaccurate member of that family. Without the condition on
    the refit this fired on the perturbed Petersen graph (45 pairs for 9 unknowns: its
    rankings' kept pairs fit the noisy basis to rounding).
    """
    levels = history.get("noise_estimates", []) + history.get("leverage_noise_estimates", [])
    if (not levels or min(levels) > EXACT_LEVEL or residual <= ROUNDING_FIT
            or "misfit_refits" not in history
            or "complete_graph_found" in history or "unranked_residual" in history):
        return False
    history["exact_misfit"] = float(residual)
    return True


def _undetermined_support(basis, B: PairBasis, W, eigenvalues, residual, history) -> int:
    """The dimension of the family of Laplacians that vanish on the pairs the graph of
    weights ``W`` leaves at zero, when that graph fits exact eigenvectors
    (``ROUNDING_FIT``), has a simple spectrum (no two eigenvalues within
    ``SIMPLE_SPECTRUM_GAP`` of the largest) and that family has more than one
    direction (``history["own_family_dimension"]``); else 0. Ungrouped, unordered
    bases of more than ``SMALL_NODES`` and at most ``FAMILY_SEARCH_MAX_N`` nodes, not
    the complete graph.

    The Laplacians diagonal in the basis of a graph with a simple spectrum are the
    polynomials of its Laplacian, and generically none but its own multiples vanishes
    on its non-edges: its zero pattern determines it (one direction). A graph whose
    zero pattern leaves several directions is a member of a family chosen by the
    search, not determined by the eigenvectors. Eigenvectors localised on a few nodes
    (edge weights spanning a wide range) give such families when the search's prefix
    holds the pairs near those nodes, and some of their members fit the eigenvectors
    exactly: a cycle of 60 nodes with weights uniform in [1, 10] gave 297 edges at a
    residual of 3e-12, whose zero pattern leaves 2 directions; the truth's leaves one.
    Not checked on 3 nodes or fewer: a 3-node path's zero pattern (one pair) leaves two.
    """
    n_edges = sp.triu(W, 1).nnz
    if (B.G is not None or B.ordered or not SMALL_NODES < B.n <= FAMILY_SEARCH_MAX_N
            or residual > ROUNDING_FIT or n_edges >= B.n_pairs):
        return 0
    lam = np.sort(np.delete(eigenvalues, basis["zero_column"]))
    if np.any(np.diff(lam) <= SIMPLE_SPECTRUM_GAP * float(np.abs(lam).max())):
        return 0
    upper = sp.triu(W, 1).tocoo()
    gram = complement_gram(B, upper.row, upper.col)
    mu, _ = gram.null_directions(2)
    if mu[1] > B.cluster(mu[0]):
        return 0
    mu, _ = gram.null_directions(cluster=B.cluster(mu[0]))
    history["own_family_dimension"] = int(np.count_nonzero(mu <= B.cluster(mu[0])))
    return history["own_family_dimension"]


def _unranked_doubt(B, history, residual) -> bool:
    """Whether a graph that the leverage rankings did not give is doubtful; its residual
    (``_diagonal_fit``) is then kept in ``history["unranked_residual"]``.

    When the leverage rankings give no graph and no noise level (their kept pairs clean
    to rounding, exact eigenvectors, or not clean at all), the fitted rankings'
    estimates measure their own misfit, not the noise. A graph they give is doubtful if
    it does not fit the eigenvectors exactly (``FITS_EXACTLY``: exact eigenvectors of
    Mycielski(6) gave 252 edges at a residual of 4.9e-2). A graph of the
    constant-diagonal family is doubtful if its residual is above
    ``RESIDUAL_CONSISTENT`` times the noise level that family shows
    (``constant_diagonal_noise``), or above ``FITS_EXACTLY`` if it shows none: the
    family's least-squares members fit a graph outside it too (exact eigenvectors of
    weighted ER(100, 0.5): 4914 edges at 2.6e-3, ten times that level). Graphs of that
    family already checked against its level (``_consistent_regular``) and the complete
    graph (warned of on its own) are not doubted here, nor a graph that fits to a noise
    level below ``UNRESOLVABLE_NOISE`` (``_fitted_noise``; exact Mycielski(6) gave
    0.034, where no edge leaves the noise band).
    """
    leverage = history.get("leverage_noise_estimates")
    if (not leverage or any(EXACT_LEVEL < e <= MAX_NOISE for e in leverage)
            or residual <= FITS_EXACTLY or history.get("regular_family") == "sparser"
            or history.get("noise_ratio", 0.0) > RESIDUAL_CONSISTENT
            or "complete_graph_found" in history):
        return False
    level = constant_diagonal_noise(B) if history.get("constant_diagonal_graph") else None
    if level is not None and residual <= RESIDUAL_CONSISTENT * level:
        return False
    if level is None and _fitted_noise(history):
        # a noise level at which edges leave the noise band, and the graph fits to it:
        # perturbed eigenvectors of a dense graph (ER(200, 0.3) at 1e-3: level 7e-5,
        # residual 2.2 times it)
        return False
    history["unranked_residual"] = residual
    return True


def _fitted_noise(history) -> float:
    """The noise level the graph was found at, if edges can leave its noise band (at
    most ``UNRESOLVABLE_NOISE``) and the graph fits the eigenvectors to it
    (``noise_ratio`` within ``RESIDUAL_CONSISTENT``); else 0."""
    noise = history.get("noise", 0.0)
    fits = history.get("noise_ratio", np.inf) <= RESIDUAL_CONSISTENT
    return noise if EXACT_NOISE < noise <= UNRESOLVABLE_NOISE and fits else 0.0


def _complement_twin(basis, best, noise: float = 0.0, by_fit: bool = False) -> bool:
    """Whether the complement of the graph ``best`` (a ``ranked`` entry: edges, weights'
    coefficient of variation, direction, weights) is a connected graph with the same
    eigenvectors.

    For a combinatorial Laplacian $L$ with equal weights $c$, $c(nI - J) - L$ is the
    Laplacian of the complement with the same weight, diagonal in every basis that
    diagonalises $L$ and has the constant vector: no inference from eigenvectors tells
    the two apart, and the prior "sparser" picks one. For a normalized Laplacian
    $I - A/d$ of a $d$-regular graph, $I - (J - I - A)/(n - 1 - d)$ is its complement's
    likewise (an irregular graph's complement does not share its eigenvectors: the
    zero-eigenvalue vector $D^{1/2}\\mathbf 1$ is not constant). True when the basis has
    no eigenvalue order (with the order known the complement, whose eigenvalues run the
    other way, is not valid), the graph is neither empty nor complete (and regular, for
    a normalized basis), its weights are equal (coefficient of variation at most
    ``EQUAL_WEIGHT_CV``, or, with noisy eigenvectors, equal to the level ``noise`` the
    graph was found at, ``_fitted_noise``: ``_equal_within_noise``) and its complement
    is connected (``complement_connected``, no dense matrix formed).

    With ``by_fit`` (the result's flag; ``_close_complement``, which warns, keeps the
    rule above) a graph whose weights are equal to no level known is a twin too when
    its complement fits the eigenvectors as well (``_complement_fits``): noisy
    eigenvectors searched as exact leave no level (the perturbed complement of the
    Petersen graph, draws 0 and 1: 45 pairs for 9 unknowns, every ranking fits them to
    rounding), and the graph found, with weights spread by 5e-4, is the Petersen graph.
    """
    n_edges, cv, _, W = best[:4]
    n = W.shape[0]
    if basis["ordered"] or not 0 < n_edges < n * (n - 1) // 2:
        return False
    if basis["kind"] == "normalized":
        degrees = np.asarray((sp.csr_array(W) != 0).sum(axis=1)).ravel()
        if np.any(degrees != degrees[0]):
            return False
    elif basis["kind"] != "combinatorial":
        return False
    equal = cv <= EQUAL_WEIGHT_CV or (noise > EXACT_NOISE
                                      and _equal_within_noise(basis, W, noise))
    if not equal and not by_fit:
        return False
    return complement_connected(W) and (equal or _complement_fits(basis, W))


def _complement_fits(basis, W) -> bool:
    """Whether the graph of weights ``W`` with unit weights and its complement with unit
    weights both fit the eigenvectors as well as ``W`` does (``_fits_as_well``,
    residuals floored at ``ROUNDING_FIT``; the complement's from
    ``complement_residuals``, no dense matrix formed).

    The complement of an equal-weight graph shares its eigenvectors: $c(nI - J) - L_1$
    has the off-diagonal part of $V^T L_1 V$ negated, plus that of the constant vector's
    own rotation, so it fits a noisy basis about as well as the unit-weight graph does.
    A graph with unequal weights fits in its weights the noise on its own pairs, which
    its unit-weight graph and the complement of that cannot: ``W``'s residuals are
    taken per pair it leaves free (``_per_free_pair``) before the comparison (the
    perturbed complement of the Petersen graph, draw 0: the graph found, 15 edges of
    45 pairs, has a rotation residual 1.42 times below its unit-weight graph's, 1.16
    per free pair). A weighted graph's complement (the weighted twin $c(nI - J) - L$,
    which holds all pairs but the heaviest edges) is no sparse graph with unit
    weights, and its unit-weight graph does not fit: it fails the test.
    """
    n = W.shape[0]
    reference = _per_free_pair(_floored_residuals(basis, W), sp.triu(W, 1).nnz,
                               n * (n - 1) // 2)
    if not _fits_as_well(_floored_residuals(basis, equal_weights(W)), reference):
        return False
    fit = [max(r, ROUNDING_FIT) for r in complement_residuals(basis["V"], W)]
    return _fits_as_well(fit, reference)


def _close_complement(basis, best, noise: float = 0.0) -> sp.csr_array | None:
    """Unit weights of the complement of the graph ``best`` when it shares its
    eigenvectors (``_complement_twin``) and is close: at most ``COMPLEMENT_RATIO`` times
    the edges of ``best`` (then the graph is at least a third of all pairs, so a dense
    matrix costs no more than the graph itself), for a combinatorial basis; otherwise
    ``None``.
    """
    n_edges, W = best[0], best[3]
    n = W.shape[0]
    pairs = n * (n - 1) // 2
    if (basis["kind"] != "combinatorial" or pairs - n_edges > COMPLEMENT_RATIO * n_edges
            or not _complement_twin(basis, best, noise)):
        return None
    # unit weights: `_laplacian` sets the scale
    return sp.csr_array(1.0 - np.eye(n) - W.astype(bool).toarray())


def _fitting_complement(basis, W, noise: float = 0.0) -> sp.csr_array | None:
    """Unit weights of the complement of the graph of weights ``W`` when it is connected,
    has no more edges than ``W`` and fits the eigenvectors as well (``_fits_as_well``,
    residuals floored at ``ROUNDING_FIT``) or ``W`` has equal weights to the noise level
    ``noise`` (``_equal_within_noise``; 0: not asked); None otherwise, and for a
    normalized or ordered basis.

    $c(nI - J) - L_1$ is the Laplacian of the complement of the unit-weight graph of
    $L_1$ and has every eigenvector of $L_1$ orthogonal to $\\mathbf 1$, exact or
    noisy: it fits a basis as well as $L_1$ does, and a graph whose weights are equal
    to the noise about as well (a graph with free weights fits the noise on its pairs:
    ``paley(17)`` perturbed by 1e-4, draw 1, gave its complement with weights spread
    by 5e-5 whose rotation residual is 0.79 times the unit-weight graph's, equal to
    the noise level of its constant-diagonal family, ``constant_diagonal_noise``).
    ``_close_complement`` asks the weights to be equal at the level the graph was
    found at, which a graph found with no level lacks: ``paley(17)`` perturbed by 1e-4
    came back as its complement (68 edges of 136 pairs, F1 0, a twin: Paley graphs are
    self-complementary) with the family flag only.
    """
    n_edges = sp.triu(W, 1).nnz
    n = W.shape[0]
    if (
        basis["kind"] != "combinatorial"
        or basis["ordered"]
        or not n_edges
        or 2 * n_edges < n * (n - 1) // 2
    ):
        return None
    C = sp.csr_array(1.0 - np.eye(n) - W.astype(bool).toarray())
    if sp.triu(C, 1).nnz > n_edges or sp.csgraph.connected_components(C, directed=False)[0] > 1:
        return None
    if noise > 0.0 and _equal_within_noise(basis, W, noise):
        return C
    if not _fits_as_well(_floored_residuals(basis, C), _floored_residuals(basis, W)):
        return None
    return C
