"""A sparser member of a small exact family: the truth beside its own square.

When the pairs taken as non-edges leave out the pairs at distance 2, the square of the
true Laplacian vanishes on them too: the family of valid graphs is then the truth, its
square (eigenvalues $\\lambda$ and $\\lambda^2$) and the local columns (pendant pairs,
twins: ``_local_columns``). Its members $L - tL^2$ are valid for $0 \\le t \\le t_{max}$,
and the linear-program vertices (``sparse_vertices``) sit at $t_{max}$, where the
eigenvalue floor binds: the pairs at distance 2 become edges, a few true edges vanish.
``random_labeled_tree(200, seed=3)`` exact: a family of 27 directions (25 local columns,
$\\lambda$, $\\lambda^2$) whose vertices are graphs of 482 to 484 edges; the tree is a
vertex of it, which no random objective reached.

Below ``LADDER_MAX_N`` nodes the local columns are not searched apart
(``PairBasis.local_groups`` is empty), so the hyperplane of the most pair rows
(``sparsest_direction``) is not searched either. Here the local columns of the basis are
found for the family at hand, the hyperplane is searched in the directions besides
them, and the member (its local columns sparsified, polished) is a candidate when it
is valid and has fewer edges than every connected vertex found: the vertices' answer
is otherwise left as it was.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._family_member import sparsest_direction
from gsp_householder.graphs._local_columns import local_groups, sparsify_local
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._template_lp import Fit, _connected_edges, check_member, polish
from gsp_householder.graphs._thresholds import LADDER_MAX_N


def sparser_member(B: PairBasis, fit: Fit, rng, cands: list) -> np.ndarray | None:
    """The member of ``span(fit.Lam)`` on the hyperplane of the most pair rows besides the
    basis's local columns, if valid and with fewer edges than every connected one of
    ``cands`` (eigenvalue vectors); else None.

    Only exact families of at least two directions on at most ``LADDER_MAX_N`` nodes
    (above, ``_sparsest_member`` searches this member first). ``rng`` is not drawn from
    (``sparsest_direction`` draws from a copy).
    """
    if (B.n > LADDER_MAX_N or fit.Lam.shape[1] < 2
            or float(fit.mu[0]) > B.cluster(0.0)):
        return None
    groups = B.local_groups or local_groups(B)
    lam = sparsest_direction(B, fit.Lam, fit.hint, rng, fit.tol, fit.floor, groups=groups)
    if lam is None:
        return None
    if groups:
        lam = sparsify_local(B, lam, groups, fit.tol, fit.floor)
    lam = polish(B, lam, fit)
    if not check_member(B, lam, fit.tol, fit.floor, fit.hint):
        return None
    edges = _connected_edges(B, lam, fit.tol)
    fewest = min((_connected_edges(B, c, fit.tol) for c in cands), default=float("inf"))
    return lam if edges < fewest else None
