"""Regular graphs as sparse as a regular graph found on noisy eigenvectors, fitting as well.

The eigenvectors that ``fourier_basis`` gives a regular graph with repeated eigenvalues
(one basis of each eigenspace) are often those of other regular graphs with as many
edges and equal weights: isomorphic twins that commute with the graph and split its
eigenspaces differently (the exact Pappus graph, draw 0: 4 twins among the candidates,
warned). Perturbed, the truth and a twin fit the eigenvectors alike: a
rotation of the basis inside an eigenspace of one is a rotation across eigenspaces of the
other, and the expected residual $\\sigma^2 \\sum_{k \\ne l} (\\lambda_k - \\lambda_l)^2$
depends on the spectrum alone, which isomorphic graphs share. The grouped search
(``_eigenspace_search._found_eigenspaces``) of a twin found holds only graphs with that
twin's eigenspaces, and the twin was returned alone with no warning (the Pappus graph
perturbed by 1e-3, draw 0; the Heawood graph, draws 1, 2 and 6; the 4 x 4 torus, draw 3).

The twins are members of the noisy constant-diagonal family (the family of regular
graphs, ``_regular_family``). Its near-null space is read below the widest gap among its
``MAX_DIMENSION + 1`` smallest singular values, the family's own bound: the Pappus
graph's has 9 directions, more than the ``NOISY_TAIL`` that the searches read
(``constant_diagonal_noise`` finds no gap there). Its vertices at random objectives, as
many as the family's budget ``DRAW_BUDGET / n`` (as ``_regular_candidates`` draws them for
equal-weight members), are kept when they have the edges of the graph found, equal
weights to the family's level (``_equal_member``) and fit the eigenvectors as well as the
graph found (``_fits_as_well``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import (
    _equal_within_noise,
    _fits_as_well,
    _residuals,
    equal_weights,
)
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._regular_candidates import (
    _constant_degree,
    _equal_member,
    drawn_members,
)
from gsp_householder.graphs._regular_family import (
    MAX_DIMENSION,
    constant_diagonal_fit,
    constant_diagonal_noise,
)
from gsp_householder.graphs._template_lp import edge_key
from gsp_householder.graphs._thresholds import FAMILY_SEARCH_MAX_N

#: Seed of the family's random objectives: the read runs after the searches, whose
#: generator it leaves as it was.
SEED = 0


def regular_twins(basis, B: PairBasis, W, noise: float) -> list[sp.csr_array]:
    """The equal-weight graphs (symmetric weights, all 1) of the members of the noisy
    constant-diagonal family with as many edges as the graph of weights ``W`` but other
    edges, equal weights to the family's level and fitting the eigenvectors as well as
    ``W`` (module docstring); [] when ``W`` is not a regular graph with equal weights to
    the level ``noise`` it was found at, the family shows no level, or the basis is not
    a combinatorial one of one unknown per column of at most ``FAMILY_SEARCH_MAX_N``
    nodes.

    Parameters
    ----------
    basis : dict
        The inference's basis (``"V"``, ``"kind"``, ``"scale"``).
    B : PairBasis
        Its pair geometry.
    W : sparse array
        Symmetric weights of the graph found.
    noise : float
        The noise level it was found at (positive).

    Returns
    -------
    list of sparse arrays
        The twins, in the order the family's candidates rank them.
    """
    if (
        basis["kind"] != "combinatorial"
        or B.G is not None
        or B.n > FAMILY_SEARCH_MAX_N
        or not _constant_degree(equal_weights(W))
        or not _equal_within_noise(basis, W, noise)
    ):
        return []
    level = constant_diagonal_noise(B, tail_size=MAX_DIMENSION)
    fit = constant_diagonal_fit(B, noisy=True, tail_size=MAX_DIMENSION)
    if level is None or fit is None:
        return []
    edges = int(sp.triu(W, 1).nnz)
    reference = _residuals(basis, W)
    own = edge_key(W)
    twins, seen = [], {own}
    for c in drawn_members(B, fit, np.random.default_rng(SEED)):
        key = edge_key(c[3])
        if c[0] != edges or key in seen or not _equal_member(basis, c[3], level):
            continue
        seen.add(key)
        A = equal_weights(c[3])
        if _fits_as_well(_residuals(basis, A), reference):
            twins.append(A)
    return twins
