"""Whether every edge of a graph inferred from perturbed eigenvectors is significantly nonzero.

Model. A perturbed orthonormal basis is $\\tilde V = V e^{S}$, $S$ antisymmetric with
independent entries of variance $\\sigma^2$ above the diagonal (a small Gaussian error
$E$ of i.i.d. entries re-orthonormalised by the polar factor leaves $S \\approx (V^T E -
E^T V) / 2$: $\\sigma^2$ is half the variance of $E$'s entries). A Laplacian
$L = V \\Lambda V^T$ read on $\\tilde V$ with the same eigenvalues is, to first order,
$\\tilde L = L + V [S, \\Lambda] V^T$, whose entry $(i, j)$ moves by
$\\sum_{k < l} S_{kl} (\\lambda_l - \\lambda_k) (V_{ik} V_{jl} + V_{il} V_{jk})$. Its
variance, summed with $\\sum_k V_{ik} V_{jk} = \\delta_{ij}$,
$\\sum_k \\lambda_k V_{ik} V_{jk} = L_{ij}$ and $\\sum_k \\lambda_k^2 V_{ik} V_{jk} =
(L^2)_{ij}$, is

$$\\operatorname{Var} \\tilde L_{ij} = \\sigma^2 \\left( (L_{ii} - L_{jj})^2 + r_i + r_j
- 2 L_{ij}^2 \\right), \\qquad r_i = \\sum_{k \\ne i} L_{ik}^2,$$

which needs only the entries of $L$ (no $n \\times n$ product) and does not change when a
multiple of the identity is added to $L$ (rotations inside an eigenspace move nothing);
$r_i + r_j - 2 L_{ij}^2$ is the squared weight of the other edges at $i$ and $j$ (a
single edge's two eigenvectors are fixed).
The inference reads the weights off $\\tilde V \\hat\\Lambda \\tilde V^T$ with eigenvalues
$\\hat\\lambda$ fitted on the non-edges, whose error adds $a_{ij}^T \\delta\\lambda$,
$a_{ij} = \\tilde V_i \\circ \\tilde V_j$. By least squares weighted by the non-edges'
variances, $\\operatorname{Cov} \\delta\\lambda = \\sigma^2 F^{-1}$ with
$F = \\sum_{(i, j) \\notin E} a_{ij} a_{ij}^T / v_{ij}$, $v_{ij}$ the root above squared at
$L_{ij} = 0$; only its diagonal is kept ($O(n)$ per pair rather than $O(n^2)$), so the
squared standard error of an edge weight $w_{ij} = -L_{ij}$ is

$$\\sigma^2 \\Big( (L_{ii} - L_{jj})^2 + r_i + r_j - 2 L_{ij}^2
+ \\sum_k \\tilde V_{ik}^2 \\tilde V_{jk}^2 / F_{kk} \\Big),$$

with $L$ the graph returned and $k$ over the columns of nonzero eigenvalue. The second
term matters where few non-edges hold an eigenvalue (eigenvectors localised on a few
nodes, parts of the graph scaled down to the noise); on pairs of such regions the first
term alone understates the error several times.

Noise level. At a non-edge $L_{ij} = 0$, so $\\tilde L_{ij} / \\sqrt{(L_{ii} - L_{jj})^2
+ r_i + r_j}$ is $N(0, \\sigma^2)$: $\\sigma$ is estimated by 1.4826 times the median
absolute value of that ratio over the non-edges of the graph returned (all of them, or
``NOISE_PAIRS`` sampled with a fixed seed), with $\\tilde L_{ij} = \\sum_k \\tilde V_{ik}
\\lambda_k \\tilde V_{jk}$ for the returned eigenvalues: $O(n)$ per pair.

Test. Each edge's $z_{ij} = w_{ij} / \\mathrm{se}_{ij}$ is $N(w_{ij} / \\mathrm{se}_{ij}, 1)$;
an edge is significantly nonzero when $z_{ij}$ exceeds the one-sided Bonferroni quantile
$\\Phi^{-1}(1 - \\alpha / m)$ over the $m$ edges, $\\alpha$ = ``EDGE_LEVEL``. An edge below
it is one that the eigenvectors do not tell from zero at their noise level. Its sum $F_{kk}$
runs over every non-edge up to ``INFORMATION_PAIRS`` pairs in all, else over that many
pairs drawn with a fixed seed (scaled to all non-edges).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.special import ndtri

from gsp_householder.graphs._family_doubt import EDGE_AGREEMENT
from gsp_householder.graphs._support_search import EXACT_NOISE

#: Family-wise level of the test that every edge is nonzero (one-sided, Bonferroni over
#: the edges of the graph).
EDGE_LEVEL = 0.05
#: Non-edges sampled for the noise level (a median of 4096 values: 2 % relative error).
NOISE_PAIRS = 4096
#: Pairs per block of the non-edge entries (bounds the memory to this many rows of $V$).
PAIR_BLOCK = 512
#: Non-edges over which the eigenvalues' information $F_{kk}$ is summed: all of them up
#: to this many pairs (630 nodes), else this many drawn ($O(n)$ each).
INFORMATION_PAIRS = 200_000


def node_terms(L) -> tuple[np.ndarray, np.ndarray]:
    """The diagonal $L_{ii}$ and $r_i = \\sum_{k \\ne i} L_{ik}^2$ of a sparse ``L``."""
    L = sp.csr_array(L)
    d = L.diagonal()
    r = np.asarray(L.multiply(L).sum(axis=1)).ravel() - d * d
    return d, np.maximum(r, 0.0)


def pair_scale(d, r, i, j, entries) -> np.ndarray:
    """$\\sqrt{(L_{ii} - L_{jj})^2 + r_i + r_j - 2 L_{ij}^2}$: the standard deviation of
    $\\tilde L_{ij}$ per unit of the rotation noise $\\sigma$."""
    return np.sqrt(np.maximum((d[i] - d[j]) ** 2 + r[i] + r[j] - 2.0 * entries ** 2, 0.0))


def non_edges(L, n_pairs: int = NOISE_PAIRS, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Pairs $i < j$ with $L_{ij} = 0$: all of them when there are at most ``n_pairs``
    pairs in all, else ``n_pairs`` draws (fixed ``seed``) with the edges left out."""
    L = sp.csr_array(L)
    n = L.shape[0]
    if n * (n - 1) // 2 <= n_pairs:
        i, j = np.triu_indices(n, 1)
    else:
        rng = np.random.default_rng(seed)
        i, j = rng.integers(0, n, n_pairs), rng.integers(0, n, n_pairs)
        i, j = np.minimum(i, j), np.maximum(i, j)
        keep = i < j
        i, j = i[keep], j[keep]
    zero = np.asarray(L[i, j]).ravel() == 0
    return i[zero], j[zero]


def rotation_noise(V, eigenvalues, L, d=None, r=None) -> float:
    """The rotation noise level $\\sigma$ of the basis ``V`` for the graph ``L`` with
    ``eigenvalues`` (the diagonal of $V^T L V$), from its non-edges (module docstring);
    0 if it has none."""
    if d is None:
        d, r = node_terms(L)
    i, j = non_edges(L)
    if i.size == 0:
        return 0.0
    V = np.asarray(V)
    ratios = np.empty(i.size)
    for s in range(0, i.size, PAIR_BLOCK):
        a, b = i[s:s + PAIR_BLOCK], j[s:s + PAIR_BLOCK]
        entries = np.einsum("pk,pk->p", V[a] * eigenvalues, V[b])
        ratios[s:s + PAIR_BLOCK] = np.abs(entries) / (pair_scale(d, r, a, b, 0.0) + 1e-300)
    return 1.4826 * float(np.median(ratios))


def eigenvalue_information(V, eigenvalues, L, d, r) -> np.ndarray:
    """$F_{kk} = \\sum_{(i, j) \\notin E} V_{ik}^2 V_{jk}^2 / v_{ij}$ per column of ``V``
    (module docstring), over the non-edges of ``L`` (``non_edges`` with
    ``INFORMATION_PAIRS``, scaled to all of them when sampled)."""
    n = L.shape[0]
    i, j = non_edges(L, INFORMATION_PAIRS, seed=1)
    total = n * (n - 1) // 2 - (sp.triu(L, 1).nnz)
    Z = np.asarray(V) ** 2
    F = np.zeros(Z.shape[1])
    for s in range(0, i.size, PAIR_BLOCK):
        a, b = i[s:s + PAIR_BLOCK], j[s:s + PAIR_BLOCK]
        v = pair_scale(d, r, a, b, 0.0) ** 2
        F += (Z[a] * Z[b] / (v[:, None] + 1e-300)).sum(axis=0)
    return F * (total / max(i.size, 1)) if n * (n - 1) // 2 > INFORMATION_PAIRS else F


def edge_significance(V, L, eigenvalues, level: float = EDGE_LEVEL) -> dict | None:
    """The test of the module docstring for the graph ``L`` inferred from ``V``.

    Returns ``None`` when there is nothing to test (no edge, no non-edge, or a noise
    level at rounding, ``EXACT_NOISE``), else a dict with ``"noise"`` ($\\sigma$),
    ``"threshold"`` (the Bonferroni quantile), ``"z"`` (the edges' z-scores), ``"rows"``
    and ``"cols"`` (the edges, $i < j$), ``"weak"`` (the edges whose z-score is
    below the threshold), ``"node_terms"`` ($L_{ii}$ and $r_i$, ``node_terms``) and
    ``"information"`` ($F_{kk}$ and the mask of the columns of nonzero eigenvalue).
    """
    L = sp.csr_array(L)
    d, r = node_terms(L)
    upper = sp.triu(L, 1).tocoo()
    weights = -upper.data
    if weights.size == 0:
        return None
    sigma = rotation_noise(V, eigenvalues, L, d, r)
    if sigma <= EXACT_NOISE:
        return None
    F = eigenvalue_information(V, eigenvalues, L, d, r)
    free = np.abs(eigenvalues) > 1e-12 * float(np.abs(eigenvalues).max())
    Z = np.asarray(V)[:, free] ** 2
    fitted = np.einsum("ek,ek->e", Z[upper.row] * (1.0 / np.maximum(F[free], 1e-300)),
                       Z[upper.col])
    se = sigma * np.sqrt(pair_scale(d, r, upper.row, upper.col, weights) ** 2 + fitted)
    z = weights / se
    threshold = float(ndtri(1.0 - level / weights.size))
    return {"noise": sigma, "threshold": threshold, "z": z, "rows": upper.row,
            "cols": upper.col, "weak": z < threshold, "node_terms": (d, r),
            "information": (F, free)}


def weak_beyond_agreement(test) -> bool:
    """Whether the edges of ``test`` (``edge_significance``) not significantly nonzero,
    $k$ of $m$, are enough that the graph without them agrees with it below
    ``EDGE_AGREEMENT`` in F1, $2 (m - k) / (2 m - k)$: fewer weak edges, whatever the
    truth of them, leave the graph within that accuracy of it."""
    weak, m = int(test["weak"].sum()), int(test["z"].size)
    return 2.0 * (m - weak) / (2.0 * m - weak) < EDGE_AGREEMENT
