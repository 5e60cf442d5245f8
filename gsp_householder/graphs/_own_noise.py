"""The noise a graph's non-edges show in perturbed eigenvectors, and the residual it predicts.

A basis $V = V_0 e^{S}$ rotated by a small antisymmetric $S$ from the eigenvectors $V_0$
of a Laplacian $L$ leaves the graph the residual $R = L - V \\operatorname{diag}(\\lambda)
V^T$, $\\lambda_k = v_k^T L v_k$ (``_laplacian_fit._diagonal_fit``), which to first order
is the commutator $L W - W L$ with $W = V_0 S V_0^T$ (the part of $S$ inside an
eigenspace does not show). When $S$ has i.i.d. entries of variance $\\sigma^2$ above its
diagonal, so does $W$ (the distribution is invariant under rotation), and an entry of $R$
on a pair $i \\ne j$ that is not an edge has the variance

$$\\sigma^2 v_{ij}, \\qquad v_{ij} = s_i^2 + s_j^2 - 2 L_{ii} L_{jj}, \\qquad s_i^2 =
\\textstyle\\sum_k L_{ik}^2,$$

while the whole residual has $E \\|R\\|_F^2 = \\sigma^2 \\sum_{k \\ne l} (\\lambda_k -
\\lambda_l)^2$: the rotation residual (``_laplacian_fit._residuals``,
$\\|R\\|_F / \\sqrt{n \\sum_k (\\lambda_k - \\bar\\lambda)^2}$) is $\\sqrt 2 \\sigma$.
The non-edges of a graph thus read $\\sigma$ (``own_noise``: the median of
$|R_{ij}| / \\sqrt{v_{ij}}$ over them, scaled to a standard deviation), and the graph's
residual in units of the one that noise predicts (``noise_ratio``) is about 1 for the
graph behind the eigenvectors, whatever its degrees: 0.99 to 1.07 on perturbed (1e-3)
stars of 81 and 101 nodes, ``cycle_graph(60)``, karate, the 8 x 8 grid and
``ladder_graph(20)``.

The rankings' noise estimates (``_support_search.robust_noise``) read the same kind of
entry with an eigenvalue vector fitted to the pairs kept, which a basis with a large
eigenspace lets them choose: on the perturbed ``star_graph(80)`` (an eigenspace of
dimension 79) the smallest estimate is 6.8e-7, some 50 times below what the star's own
non-edges show with its eigenvalues (3.7e-5 in the same standardisation), and the star,
a unit-weight graph with no weight to absorb the noise on its hub's row, leaves 1400
times that estimate. A graph denser than the truth fits weights on its edges and leaves
less than its non-edges predict (ratios 0.17 to 0.28 on the stars' denser answers).

A wrong graph's residual may also be spread over all its pairs (the best spanning tree of
karate or of ``ladder_graph(20)`` perturbed: ratio 1.85 and 1.09), but then its
non-edges show a noise far above the eigenvectors' (250 times the truth's): the level
read on a graph must be compared with the level read on another graph too
(``_fitting_tree.tree_at_own_noise``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._laplacian_fit import _laplacian, _residuals

#: Standard deviation of a normal variable over the median of its absolute value (as
#: ``_support_search.robust_noise`` scales its median).
MEDIAN_TO_DEVIATION = 1.4826


def non_edge_noise(V: np.ndarray, L) -> float:
    """The standard deviation $\\sigma$ of the rotation of the basis ``V`` that the
    non-edges of the Laplacian ``L`` show (module docstring): the scaled median of
    $|R_{ij}| / \\sqrt{v_{ij}}$ over the pairs $i < j$ with $L_{ij} = 0$; 0 when there
    are none.

    Parameters
    ----------
    V : numpy.ndarray
        Orthogonal basis, shape ``(n, n)`` (the eigenvectors, columns).
    L : sparse array or numpy.ndarray
        Laplacian of a connected graph on the ``n`` nodes, any scale.

    Returns
    -------
    float
        The noise level, in units of the rotation's entries.

    Examples
    --------
    >>> import numpy as np
    >>> L = np.array([[2.0, -1, -1], [-1, 1, 0], [-1, 0, 1]])
    >>> V = np.linalg.eigh(L)[1]
    >>> non_edge_noise(V, L) < 1e-12
    True
    """
    Ld = L.toarray() if hasattr(L, "toarray") else np.asarray(L, dtype=float)
    lam = np.einsum("ij,ij->j", V, Ld @ V)
    R = Ld - (V * lam) @ V.T
    diagonal = np.diag(Ld)
    s2 = np.einsum("ij,ij->i", Ld, Ld)
    i, j = np.triu_indices(Ld.shape[0], 1)
    free = Ld[i, j] == 0.0
    i, j = i[free], j[free]
    if i.size == 0:
        return 0.0
    v = s2[i] + s2[j] - 2.0 * diagonal[i] * diagonal[j]
    z = np.abs(R[i, j]) / np.sqrt(np.maximum(v, 1e-300))
    return MEDIAN_TO_DEVIATION * float(np.median(z))


def own_noise(basis, W) -> tuple[float, float]:
    """``(sigma, ratio)`` for the graph of weights ``W`` on the basis ``basis``: the noise
    level its non-edges show (``non_edge_noise``) and its rotation residual
    (``_laplacian_fit._residuals``) over the $\\sqrt 2 \\sigma$ that level predicts
    (``inf`` when it is 0 and the residual is not).

    Parameters
    ----------
    basis : dict
        The inference's basis (``"V"``, ``"kind"``, ``"scale"``).
    W : sparse array
        Symmetric non-negative weights of a connected graph.

    Returns
    -------
    tuple of float
        The noise level and the ratio (about 1 for the graph behind the eigenvectors).
    """
    sigma = non_edge_noise(basis["V"], _laplacian(W, basis))
    rotation = _residuals(basis, W)[1]
    if sigma <= 0.0:
        return sigma, (0.0 if rotation <= 0.0 else np.inf)
    return sigma, float(rotation / (np.sqrt(2.0) * sigma))
