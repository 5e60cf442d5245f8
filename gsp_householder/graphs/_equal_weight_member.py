"""The equal-weight graph on the edges of a weighted graph found, when it fits as well.

A torus $C_p \\times C_q$ whose factors share no nonzero eigenvalue has the
eigenvectors of every weighted torus $a L_p \\otimes I + b\\, I \\otimes L_q$: with its
eigenvalues tied on its eigenspaces (``character_groups``), the family of graphs on the
torus's edges has two directions, and a linear program's vertex of it weighs the two
directions of edges differently (the 7 x 16 torus: weights 0.37 apart, coefficient of
variation). The graph with the same edges and equal weights is then valid as well, and
equal weights are what ``candidate_order`` puts first; setting the weights equal and
checking the fit finds it without another search (``equal_weight_members``). With
noisy eigenvectors the same holds for a search's weighted candidates, the equal-weight
graph fitting as well as the weighted one (``equalised_at_noise``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from gsp_householder.graphs._laplacian_fit import (
    _fits_as_well,
    _residual,
    _residuals,
    equal_weights,
)
from gsp_householder.graphs._template_lp import EQUAL_WEIGHTS_CV
from gsp_householder.graphs._thresholds import FITS_EXACTLY


def equal_weight_members(basis, ranked) -> list:
    """The candidates of ``ranked`` (``rank_candidates`` items) with unequal weights whose
    graph with every weight set to 1 fits the eigenvectors exactly (residual at most
    ``FITS_EXACTLY``), as items ``(n_edges, 0.0, lam, W)`` (``lam`` the candidate's, kept
    for the rankings that read it, ``W`` the equal weights), in the order of ``ranked``.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    ranked : list of tuple
        Candidates ``(n_edges, weight_cv, lam, W)``.

    Returns
    -------
    list of tuple
        The equal-weight members found (empty if none).
    """
    out = []
    for n_edges, cv, lam, W in ranked:
        if cv <= EQUAL_WEIGHTS_CV:
            continue
        A = equal_weights(W)
        if _residual(basis, A) <= FITS_EXACTLY:
            out.append((n_edges, 0.0, lam, A))
    return out


def sparser_equal_weight_members(basis, ranked) -> list:
    """`equal_weight_members` of the weighted candidates of ``ranked`` with fewer edges
    than the first (exact eigenvectors), as items in the order of ``ranked``.

    A search's first graph has equal weights when one is found, and weighted vertices of
    the family with fewer edges stay behind it whatever their size (``candidate_order``).
    A torus whose factors share no nonzero eigenvalue has the eigenvectors of every
    torus with one weight per direction, and of its twins' too: on the 3 x 4 x 5 torus
    (tests' shuffle 1) the searches ranked a 240-edge member with equal weights first
    and two weighted 180-edge graphs (a twin torus, weights 0.145 to 0.210; a graph with
    a third of the torus's edges) after it, whose edges with equal weights fit the
    eigenvectors to rounding (residual 3e-15): valid graphs sparser than the one
    returned. Equalised, they come first.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    ranked : list of tuple
        Candidates ``(n_edges, weight_cv, lam, W)``, ordered by ``candidate_order``.

    Returns
    -------
    list of tuple
        The equal-weight members found (empty if none).
    """
    if not ranked:
        return []
    return equal_weight_members(basis, [item for item in ranked if item[0] < ranked[0][0]])


def equalised_at_noise(basis, ranked, residuals, fewer_than: int) -> tuple[list, list]:
    """``ranked`` (``rank_candidates`` items) with every weighted candidate of fewer than
    ``fewer_than`` edges whose graph with equal weights fits the noisy eigenvectors as
    well (``_fits_as_well`` against the candidate's own ``residuals``, ``_residuals``
    pairs in the order of ``ranked``) replaced by that equal-weight graph, and the
    residuals of the items returned.

    With noise, a search's candidates carry weights fitted to the noise: a vertex of a
    family whose sparsest members have equal weights (the DCT twins of a grid) has
    weights spread far beyond it (a 280-edge twin of the 9 x 17 grid: weights 0.28 to 1
    times the largest) and does not pass as a graph with equal weights to the noise level
    (``_equal_within_noise``), while the same edges with equal weights fit the
    eigenvectors as well as the weighted graph (rotation residual 8.02e-5 against
    8.00e-5) and as well as the truth (8.04e-5). Equal weights to the noise level rank a
    graph first (``_noisy_order``), so only graphs sparser than the one the search ranks
    first (``fewer_than``) are equalised: a denser member can have equal weights and fit
    as well too (a 402-edge member of a 7 x 10 grid's family perturbed by 1e-3, for 123
    edges), and equal weights must not put it before the sparser graphs.

    Parameters
    ----------
    basis : dict
        The validated basis (``_read_basis``).
    ranked : list of tuple
        Candidates ``(n_edges, weight_cv, lam, W)``.
    residuals : list of tuple
        ``(residual, rotation residual)`` of each candidate.
    fewer_than : int
        Only candidates with fewer edges than this are equalised.

    Returns
    -------
    tuple of list
        The items, in the order of ``ranked``, and their residuals; the arguments
        themselves when no candidate was replaced. A replaced item keeps its
        ``weight_cv`` (that of the weights the search fitted: ``candidate_order`` and
        the other comparisons of searches see the candidate as before) and ``lam``, with
        the equal weights ``A``.
    """
    items, fits, changed = [], [], False
    for item, own in zip(ranked, residuals, strict=True):
        if item[1] > EQUAL_WEIGHTS_CV and item[0] < fewer_than:
            A = equal_weights(item[3])
            equal = _residuals(basis, A)
            if _fits_as_well(equal, own):
                item, own, changed = (*item[:3], A), equal, True
        items.append(item)
        fits.append(own)
    return (items, fits) if changed else (ranked, residuals)
