"""A noisy graph with the weights and spectrum of a quadratic of a sparser equal-weight graph.

Every polynomial of a Laplacian $L$ has the eigenvectors of $L$, and a quadratic
$A = c(TL - L^2)$ of a graph with equal weights is a valid Laplacian for $T$ at least
the largest $d_i + d_j$ (less the common neighbours) over its edges: a pair at distance
2 gets weight $c$ per common neighbour, an edge $c(T - d_i - d_j)$ plus $c$ per common
neighbour, and the edges where that is 0 drop out. ``random_labeled_tree(300,
seed=23)`` perturbed by 1e-3 gave such a graph for the smallest $T$ (8): 700 edges for
the tree's 299 (F1 0.577), the pairs at distance 2, the tree's edges of degree sum
below 8 (weights $c$ to $5c$), 11 edges missed, no warning. It fits the eigenvectors as
well as the tree (rotation residual 5.767e-5 against 5.766e-5) and its family (43
directions) holds none of the 11, so no member of it is the tree, and the family's bound
(``_family_doubt``) does not reach it.

Such a graph has two signatures that a graph with free weights has no reason to show
together: (1) its weights are integer multiples of its smallest, $c$, to the noise level
(``integer_unit``), at least two levels of them; (2) its largest eigenvalue is
$c\\,T^2/4$ for an integer $T$ (``integer_fold``): $\\mu = c\\rho(T - \\rho)$ is largest at
the fold $\\rho = T/2$, and a graph's spectrum has an eigenvalue near it (tree(300, seed
23): $2\\sqrt{\\max_k \\mu_k / c} = 8.0037$). ``quadratic_signature`` gives $(c, T)$ when
both hold. The graph of equal weights behind it is not computed: choosing the root
$\\rho_k = T/2 \\pm \\sqrt{T^2/4 - \\mu_k/c}$ of every column is a search of its own (see
"Swapped sibling subtrees and a tree's quadratic" in the docs).

When the largest eigenvalue gives no integer $T$, it is read again on the columns that
are not supported on a few nodes (``_local_columns.local_columns``). A column supported
on a few nodes (opposite on two pendant paths of two nodes hung on one node) enters only
the entries among its nodes, and its eigenvalue is free within the family of valid
graphs: the search can return a relative of the quadratic whose entries there differ
(the pendant ends swapped) and whose eigenvalue on that column lies above the fold. On
the basis ``fourier_basis`` gives today, tree(300, seed 23) perturbed by 1e-3 (draw 0)
returned such a graph (702 edges, F1 0.567): the quadratic $c(8L - L^2)$ of the tree but
on two such groups of four nodes, whose two columns have $\\mu / c$ = 17.11 against the
fold's 16, every other column at most 16.015; read on all columns the fold was 8.27, no
integer, and no warning was given.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._laplacian_fit import entry_scales
from gsp_householder.graphs._local_columns import local_columns

#: Deviation of a weight from an integer multiple of the unit (``integer_unit``), in units
#: of the noise level times $s_i + s_j$, $s_i^2 = (L^2)_{ii}$ (as ``_equal_within_noise``
#: standardises the entries; tree(300, seed 23): at most 0.35 of it).
INTEGER_FACTOR = 3.0
#: Largest multiple of the unit read (``integer_unit``): a quadratic of a graph of degree
#: at most $d$ has weights up to about $2d$ units, and on a finer grid of levels every
#: set of weights is near one.
MAX_LEVEL = 16
#: The unit must exceed this many times the largest tolerance of a weight
#: (``integer_unit``): otherwise every weight is near some multiple of it.
UNIT_MARGIN = 4.0
#: Relative slack of the fold $2 \\sqrt{\\max_k \\mu_k / c}$ below or above an integer
#: (``integer_fold``), in units of the noise level: the eigenvalue nearest the fold puts
#: $\\max_k \\mu_k / c$ just below $T^2/4$, the noise on either side (tree(300, seed 23):
#: 8.0037 at a noise level 7.8e-4, 0.6 of the slack).
FOLD_SLACK = 10.0


def integer_unit(L, noise: float) -> float | None:
    """The smallest weight $c$ of the Laplacian ``L`` (sparse) when every weight is an
    integer multiple of it, at most ``MAX_LEVEL`` times, to ``INTEGER_FACTOR`` times the
    noise level ``noise`` (entries standardised by $s_i + s_j$), the weights take at
    least two such levels and $c$ exceeds ``UNIT_MARGIN`` tolerances; else None."""
    C = sp.triu(L, 1).tocoo()
    w = -C.data
    if w.size == 0 or w.min() <= 0.0:
        return None
    s = entry_scales(L)
    tol = INTEGER_FACTOR * noise * (s[C.row] + s[C.col])
    unit = float(w.min())
    level = np.round(w / unit)
    if level.max() < 2 or level.max() > MAX_LEVEL or unit <= UNIT_MARGIN * tol.max():
        return None
    if np.any(np.abs(w - level * unit) > tol):
        return None
    return unit


def integer_fold(eigenvalues, unit: float, noise: float, free=()) -> int | None:
    """The integer $T$ with $c\\,T^2/4$ the largest of ``eigenvalues`` (a graph's on the
    basis, $c$ = ``unit``) but those of the columns ``free`` (indices: columns whose
    eigenvalue the family leaves free) to a relative ``FOLD_SLACK`` times ``noise``;
    else None."""
    eigenvalues = np.delete(np.asarray(eigenvalues, dtype=float), np.asarray(free, dtype=int))
    if eigenvalues.size == 0:
        return None
    top = float(np.max(eigenvalues)) / unit
    if top <= 0.0:
        return None
    fold = 2.0 * np.sqrt(top)
    T = int(np.rint(fold))
    if T < 2 or abs(fold - T) > FOLD_SLACK * noise * fold:
        return None
    return T


def quadratic_signature(L, eigenvalues, noise: float,
                        V: np.ndarray | None = None) -> tuple[float, int] | None:
    """$(c, T)$ when the Laplacian ``L`` (sparse) with ``eigenvalues`` on the basis has
    the weights and the largest eigenvalue of a quadratic $c(TL_0 - L_0^2)$ of a graph
    $L_0$ with equal weights at the noise level ``noise`` (module docstring); else None.

    Parameters
    ----------
    L : sparse array
        The Laplacian of the graph found (any scale).
    eigenvalues : ndarray
        Its eigenvalue on every column of the basis (the diagonal of $V^T L V$).
    noise : float
        The noise level the graph was found at (positive).
    V : ndarray, optional
        The basis: when the largest eigenvalue gives no integer $T$, its columns
        supported on a few nodes (``_local_columns.local_columns``) are left out of it.

    Returns
    -------
    tuple of (float, int) or None
        The unit weight $c$ and the integer $T$.
    """
    unit = integer_unit(L, noise)
    if unit is None:
        return None
    T = integer_fold(eigenvalues, unit, noise)
    if T is None and V is not None:
        T = integer_fold(eigenvalues, unit, noise, local_columns(V)[0])
    return None if T is None else (unit, T)
