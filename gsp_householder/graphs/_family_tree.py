"""A spanning tree searched inside the kept pairs' family, above ``LADDER_MAX_N`` nodes.

Above ``LADDER_MAX_N`` nodes the rankings are sampled and neither the hopeless-basis
rule nor its tree (``_hopeless_basis.large_family_tree``, ``_fitting_tree.early_tree``)
is asked: a perturbed tree whose sibling leaves give an eigenvalue of high multiplicity
goes to the noisy ladder's prefix searches, whose max-margin programs over a kept family
of hundreds of directions take minutes (``random_powerlaw_tree(600, seed=69)``
perturbed by 1e-3: eigenvalue 1 of multiplicity 240, kept families of 240 and 241 of
599 unknowns, over 300 CPU s, 99 % in HiGHS). The tree search on the eigenvectors alone
(``_tree_search.search_tree``) ends there at misfits of 74 to 265 (105 to 328 wrong
edges, 3 starts, 13 CPU s): the projection $V \\operatorname{diag}(\\lambda) V^T$ of a
wrong tree leaves all $n - 1$ eigenvalues free.

Every graph none of whose edges is among a ranking's kept pairs has its eigenvalues in
that pairs' near-null family (``PrefixSearch._near_null``, as ``kept_family`` counts it,
to the noise level). The alternation of ``_tree_search`` held to that family
(``family_descent``: a tree's eigenvalues $v_k^T L_T v_k$ projected onto the family's
span before the maximum spanning tree of $-R$ is taken; $V$ is orthogonal, so this is
the projection in the Frobenius norm onto the family's matrices), with the tree
search's kicks (``family_search``), reaches the truth there on draws 0 and 1 (on draw
1 from the second ranking's family, 0.15 CPU s, 3 seeds of 3; the first stalls at a
misfit of 131): the family pins down what the free eigenvalues let a wrong tree
fit. The families are searched in turn (one search each, seed ``SEED``); when none ends below
``DONE_MISFIT``, ``search_tree`` starts from the best tree they found (the
unconstrained search: a kept family holds the truth to the noise level only).

The tree is the answer when it fits the eigenvectors at the rankings' smallest noise
level (``_fitting_tree.fits_at_noise``, the test of ``early_tree``): no connected graph
has fewer edges, and a tree searched on a graph with cycles leaves 10 to 10000 times
that level. The gate is the searches' own bound on the families they search: a kept
family of more than ``MAX_FAMILY`` directions, which the prefix searches truncate.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._fitting_tree import fits_at_noise, noise_level, tree_family
from gsp_householder.graphs._hopeless_basis import kept_near_null
from gsp_householder.graphs._hopeless_family import HOPELESS_SEARCHES
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._support_search import MAX_FAMILY
from gsp_householder.graphs._thresholds import LADDER_MAX_N
from gsp_householder.graphs._tree_search import (
    DONE_MISFIT,
    MAX_STEPS,
    SEED,
    _spanning,
    _tree_key,
    kicked_search,
    misfit,
    random_tree,
    search_tree,
)

#: Most nodes of a basis searched so: each step costs $O(n^3)$ (the projection).
MAX_NODES = 1000


def family_span(B: PairBasis, trimmed, noise: float) -> np.ndarray:
    """Orthonormal basis (``(g, k)``) of the near-null family of the pairs a ranking
    keeps (``trimmed`` from the ranking: their Gram and the trimmed pairs) at the noise
    level ``noise``, counted up to the ``g`` unknowns (as ``kept_family``)."""
    Q, _ = np.linalg.qr(kept_near_null(B, trimmed, noise)[1])
    return Q


def _eigenvalues(Vs: np.ndarray, Q: np.ndarray, T) -> tuple[np.ndarray, float]:
    """The tree ``T``'s eigenvalues on the orthonormal columns ``Vs`` projected onto the
    span ``Q`` and the squared distance of its Laplacian to the matrices of that span
    (the misfit held to the family)."""
    degrees = np.asarray(T.sum(axis=1)).ravel()
    L = sp.diags_array(degrees) - T
    lam = Q.T @ np.einsum("ik,ik->k", Vs, L @ Vs)
    return Q @ lam, float((degrees**2).sum() + degrees.sum() - lam @ lam)


def family_descent(Vs: np.ndarray, Q: np.ndarray, T) -> sp.csr_array:
    """The alternation of ``_tree_search.converge`` held to the span ``Q``: the tree
    ``T``'s eigenvalues on the orthonormal columns ``Vs`` (the free columns) projected
    onto ``Q``'s columns, then the maximum spanning tree of $-R$, until a tree repeats
    or ``MAX_STEPS`` steps."""
    T = sp.csr_array(T, dtype=float)
    seen = {_tree_key(T)}
    for _ in range(MAX_STEPS):
        lam, _ = _eigenvalues(Vs, Q, T)
        nxt = _spanning(-((Vs * lam) @ Vs.T))
        key = _tree_key(nxt)
        if key in seen:
            return nxt
        seen.add(key)
        T = nxt
    return T


def family_search(Vs: np.ndarray, Q: np.ndarray, rng: np.random.Generator):
    """``(tree, misfit held to the family)``: ``_tree_search.search_tree`` with every
    descent held to the span ``Q`` (``family_descent``): from a random tree, then the
    kicks of ``_tree_search.kicked_search``, $R$ the projection held to ``Q``."""
    n = Vs.shape[0]
    T = family_descent(Vs, Q, random_tree(n, rng))
    return kicked_search(T, _eigenvalues(Vs, Q, T)[1], rng,
                         lambda T: (Vs * _eigenvalues(Vs, Q, T)[0]) @ Vs.T,
                         lambda K: family_descent(Vs, Q, K),
                         lambda T: _eigenvalues(Vs, Q, T)[1])


def family_tree(B: PairBasis, basis, spans):
    """The unit weights of a spanning tree whose misfit (``_tree_search.misfit``) is
    below ``DONE_MISFIT``, searched held to each span of ``spans`` in turn
    (``family_search``, seed ``SEED``), the first found; else the tree of least misfit
    they found refined by ``search_tree`` from it, when below; else None."""
    V = basis["V"]
    Vs = B.V * B.u[:, None]  # the free columns, orthonormal
    best, value = None, np.inf
    for Q in spans:
        T, _ = family_search(Vs, Q, np.random.default_rng(SEED))
        m = misfit(V, T)
        if m < DONE_MISFIT:
            return T
        if m < value:
            best, value = T, m
    if best is None:
        return None
    T, value = search_tree(V, np.random.default_rng(SEED), start=best)
    return T if value < DONE_MISFIT else None


def large_basis_tree(B: PairBasis, basis, keys, ranking, levels, history):
    """``(ranked, family dimension)`` with a spanning tree with unit weights that fits
    the eigenvectors at the rankings' smallest noise level (``fits_at_noise``), searched
    inside the kept families (``family_tree``) of the first ``HOPELESS_SEARCHES``
    rankings of ``keys`` (in the noisy ladder's order) whose noise estimate is in
    ``levels`` (``(low, high]``) and whose family exceeds ``MAX_FAMILY`` directions;
    else None. Asked on ``LADDER_MAX_N`` to ``MAX_NODES`` nodes only, on combinatorial
    Laplacians without an eigenvalue order, twin classes or grouped unknowns.
    ``ranking(key)`` gives ``(scores, trimmed, noise)``. ``history["noise"]`` is then
    the level and ``history["fitting_tree"]`` the tree's residual in its units, as
    ``_fitting_tree.early_tree`` records them."""
    if (
        not LADDER_MAX_N < B.n <= MAX_NODES
        or basis is None
        or basis["ordered"]
        or basis["kind"] != "combinatorial"
        or basis.get("twin_class")
        or B.G is not None
    ):
        return None
    level = noise_level(history)
    if level <= 0.0:
        return None
    low, high = levels
    noisy = [key for key in keys if low < ranking(key)[2] <= high][:HOPELESS_SEARCHES]
    spans = []
    for key in noisy:
        _, trimmed, noise = ranking(key)
        Q = family_span(B, trimmed, noise)
        if Q.shape[1] > MAX_FAMILY:
            spans.append(Q)
    if not spans:
        return None
    T = family_tree(B, basis, spans)
    if T is None or not fits_at_noise(basis, T, level):
        return None
    T = sp.csr_array(T, dtype=float)
    history["noise"] = level
    history["fitting_tree"] = _diagonal_fit(basis["V"], _laplacian(T, basis))[1] / level
    return [(B.n - 1, 0.0, None, T)], tree_family(B, T, level)
