"""A normalized basis of a regular graph read as a combinatorial one.

For a $d$-regular graph with adjacency $A$ the normalized Laplacian $I - A/d$ is the
combinatorial Laplacian $dI - A$ divided by $d$: the two share their eigenvectors, and
a normalized basis whose zero-eigenvalue vector $D^{1/2}\\mathbf 1$ is constant is also
the basis of the combinatorial Laplacian of every regular graph it diagonalises. The
normalized searches anchor their zero column at the noisy vector the basis gives, where
a weighted member of the family fits as well as the regular graph: the normalized
``random_regular_graph(3, 40, seed=90)`` perturbed by 1e-3, draw 0, and its complement
gave the graph of the 2-walks of the cubic graph (118 edges, the weights of $A^2$ off
the diagonal, 1 and 2, a constant degree of 6; F1 0.034 and 0.274, no warning), whose
rotation residual is 0.95 times the cubic graph's; the combinatorial searches on the
same eigenvectors give the cubic graph (60 edges).

``regular_reading`` runs the combinatorial inference on such a basis when the
normalized searches gave a graph with unequal weights, and returns its graph with unit
weights when it is regular, connected, sparser, and fits the eigenvectors as a
normalized Laplacian as well as the weighted graph (``_fits_as_well``, residuals
floored at ``ROUNDING_FIT``): the sparser equal-weight graph is returned, as
``candidate_order`` puts it, the weighted one among the candidates. The reading's basis
says so (``"regular_only"``): a spanning tree of more than two nodes is not regular, so
the rule that reads a tree with fitted weights (``_weighted_tree.early_weighted_tree``)
is not asked there; its programs read nothing on the perturbed normalized
``circular_ladder(52)``, draw 0, at 15 CPU s (n = 104, 4 programs of 5356 rows, trees
2800 to 8800 times worse than the noise).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import connected_components

from gsp_householder.graphs._equal_sparsity import _floored_residuals
from gsp_householder.graphs._laplacian_fit import _fits_as_well
from gsp_householder.graphs._thresholds import UNRESOLVABLE_NOISE

__all__ = ["constant_zero_vector", "regular_reading"]


def constant_zero_vector(u) -> bool:
    """Whether the zero-eigenvalue vector ``u`` (unit norm, positive) of a normalized
    basis is constant to ``UNRESOLVABLE_NOISE`` in every entry: $|u_i \\sqrt n - 1|$ at
    most that level, the largest noise at which the inference tells edges apart.

    A perturbation of relative size $\\epsilon$ moves these entries by about
    $\\epsilon$ (1.4e-3 to 1.6e-3 at 1e-3 on a cubic graph of 40 nodes, 4.9e-3 at
    3e-3); a graph whose degrees are $k$ and $k + 1$ moves them by $1/(2k)$ at least
    (the 5 x 6 grid 0.22, G(40, 0.3) 0.26, G(100, 0.5) 0.15), so below $k = 30$ an
    irregular graph's basis is not read as a regular one.

    >>> import numpy as np
    >>> irregular = np.sqrt([2.0, 2.0, 3.0, 3.0]) / np.sqrt(10.0)
    >>> constant_zero_vector(np.full(4, 0.5)), constant_zero_vector(irregular)
    (True, False)
    """
    u = np.asarray(u, dtype=float)
    return bool(np.abs(u * np.sqrt(u.size) - 1.0).max() <= UNRESOLVABLE_NOISE)


def regular_reading(basis, W, infer: Callable) -> tuple[sp.csr_array, list] | None:
    """Unit weights of a regular graph sparser than the graph of weights ``W`` that the
    combinatorial inference of the basis finds, when it fits the eigenvectors as a
    normalized Laplacian as well as ``W``, and the warnings that inference raised about
    it (the caller raises them again: an equally sparse twin of the regular graph is
    as much in doubt read either way); else None.

    Parameters
    ----------
    basis : dict
        The validated normalized basis (``_read_basis``) after the anchoring
        (``V_anchored``, ``zero_column``), without eigenspaces or order; its zero
        vector is tested by ``constant_zero_vector``.
    W : scipy sparse array of shape (n, n)
        The weights of the graph the normalized searches found (unequal weights).
    infer : callable
        ``infer(combinatorial_basis)`` returns the ``InferredLaplacian`` of a validated
        basis dict (``_infer`` with the caller's tolerance and generator); its warnings
        are recorded, not raised.

    Returns
    -------
    tuple or None
        The regular graph's adjacency with unit weights and the list of
        ``warnings.WarningMessage`` of its inference.
    """
    if not constant_zero_vector(basis["V_anchored"][:, basis["zero_column"]]):
        return None
    reading = {
        "V": basis["V"],
        "groups": None,
        "ordered": False,
        "kind": "combinatorial",
        "nodelist": basis["nodelist"],
        "scale": None,
        # only a regular graph is kept: no rule need read a weighted tree
        "regular_only": True,
    }
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            found = infer(reading)
        except ValueError:
            # no column near the constant vector for the combinatorial reader
            return None
    A = sp.csr_array(sp.triu(found.laplacian, 1))
    A.eliminate_zeros()
    A.data[:] = 1.0
    A = sp.csr_array(A + A.T)
    degrees = np.asarray(A.sum(axis=1)).ravel()
    edges = int(degrees.sum()) // 2
    if (
        not 0 < edges < sp.triu(W, 1).nnz
        or np.ptp(degrees) > 0
        or connected_components(A, directed=False)[0] > 1
    ):
        return None
    if not _fits_as_well(_floored_residuals(basis, A), _floored_residuals(basis, W)):
        return None
    return A, list(caught)
