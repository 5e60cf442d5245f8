"""The input basis of the Laplacian inference: read, validated and anchored.

``_read_basis`` turns an array, a ``HouseholderProduct`` or a ``FourierBasis`` into the
nearest orthogonal matrix with the options a ``FourierBasis`` supplies (eigenspaces,
order, kind and scale of the Laplacian); ``_anchored_pair_basis`` rotates the column
closest to the zero-eigenvalue vector exactly onto it and builds the pair rows
(``PairBasis``).
"""

from __future__ import annotations

import numpy as np

from gsp_householder._validation import check_real_array
from gsp_householder.graphs._inference_options import check_inference_options
from gsp_householder.graphs._local_columns import local_groups
from gsp_householder.graphs._pair_geometry import PairBasis, pair_basis
from gsp_householder.graphs._thresholds import LADDER_MAX_N
from gsp_householder.graphs.fourier import FourierBasis
from gsp_householder.householder import HouseholderProduct

#: Smallest |cos| between the zero-eigenvalue column and its target vector.
MIN_COS = 0.98
#: Largest $\\|V^T V - I\\|_F$ of an input basis made orthogonal by one Newton-Schulz
#: step instead of an SVD (``_orthonormal``): the step's error, $\\tfrac38$ of its
#: square, is below double-precision rounding.
POLAR_STEP_GAP = 1e-8
#: Smallest basis size at which ``_orthonormal`` takes that step. Below, the SVD's
#: rounding is kept (at most 0.3 s there): the exact search of dense graphs depends on
#: the last digits of the basis (``gnp_random_graph(60, 0.35, seed=1)``, shuffled: F1
#: 1.0 from the SVD's polar factor, 0.514 from the step's, which is as orthogonal and
#: as close to the input).
POLAR_STEP_MIN_N = 501


def _read_basis(V_hat, eigenspaces, ordered, laplacian, scale) -> dict:
    """Validated dense basis and options (the defaults a ``FourierBasis`` supplies)."""
    info = {"nodelist": None, "scale": None, "kind": laplacian}
    if isinstance(V_hat, FourierBasis):
        if not V_hat.connected:
            if eigenspaces is not None or ordered:
                raise ValueError(f"V_hat is the basis of a graph with {V_hat.n_components} "
                                 "connected components: its components are inferred "
                                 "without eigenspaces or order, pass neither")
            info["components"] = V_hat.n_components
        else:
            eigenspaces = V_hat.eigenspaces if eigenspaces is None else eigenspaces
            ordered = True if ordered is None else ordered
        info["kind"] = V_hat.laplacian_type if laplacian is None else laplacian
        info["nodelist"] = list(V_hat.nodelist)
        if V_hat.laplacian is not None:
            info["scale"] = float(V_hat.laplacian.diagonal().sum()) / V_hat.n
        V = np.asarray(V_hat.eigenvectors, dtype=np.float64)
    elif isinstance(V_hat, HouseholderProduct):
        V = V_hat.to_dense()
    elif isinstance(V_hat, np.ndarray | list | tuple) or hasattr(V_hat, "__array__"):
        V = check_real_array(V_hat, "V_hat", ndim=2, allow_float32=False)
    else:
        raise TypeError("V_hat must be an array, a HouseholderProduct or a FourierBasis, "
                        f"got {type(V_hat).__name__}")
    info["kind"] = "combinatorial" if info["kind"] is None else info["kind"]
    scale = check_inference_options(info["kind"], scale)
    if scale is not None:
        info["scale"] = scale
    info["V"] = _orthonormal(V)
    info["groups"] = _check_groups(eigenspaces, V.shape[0])
    info["ordered"] = bool(ordered)
    return info


def _orthonormal(V):
    """The orthogonal matrix nearest ``V``, refused unless ``V`` is near-orthogonal.

    Near-orthogonal: $\\|V^T V - I\\|_F / \\sqrt n \\le 0.5$ and every entry of
    $V^T V - I$ at most 0.5 in absolute value. The entrywise bound does not weaken
    as $n$ grows: a repeated or zero column (a singular $V$, whose nearest
    orthogonal matrix is not unique) is refused at every size.

    The nearest orthogonal matrix is the polar factor $V (V^T V)^{-1/2}$. When
    $n \\ge$ ``POLAR_STEP_MIN_N`` and $G = V^T V - I$ has $\\|G\\|_F \\le$
    ``POLAR_STEP_GAP`` (a basis orthonormal up to rounding, as eigensolvers return), one
    Newton-Schulz step $V - V G / 2$ gives it to within $\\tfrac38 \\|G\\|_F^2$ plus
    rounding (one product, $2 n^3$ flops); otherwise it is $U W^T$ from the SVD
    $V = U \\Sigma W^T$ ($\\approx 22 n^3$ flops).
    """
    n = V.shape[0]
    if V.shape != (n, n) or n < 3:
        raise ValueError(f"V_hat must be square with n >= 3, got shape {V.shape}")
    gap = V.T @ V - np.eye(n)
    size = float(np.linalg.norm(gap))
    defect = size / np.sqrt(n)
    if defect > 0.5:
        raise ValueError("V_hat must be close to orthogonal, got ||V^T V - I||_F / sqrt(n) = "
                         f"{defect:.3g}")
    k, l = np.unravel_index(int(np.argmax(np.abs(gap))), gap.shape)
    if abs(gap[k, l]) > 0.5:
        what = (f"column {k} has squared norm {gap[k, k] + 1:.3g}" if k == l else
                f"columns {k} and {l} have inner product {gap[k, l]:.3g}")
        raise ValueError(f"V_hat must be close to orthogonal (every entry of V^T V - I at "
                         f"most 0.5), but its {what}")
    if n >= POLAR_STEP_MIN_N and size <= POLAR_STEP_GAP:
        # one Newton-Schulz step: V (I + G)^{-1/2} = V (I - G/2) + O(||G||^2)
        return V - V @ (0.5 * gap)
    U, _, Wt = np.linalg.svd(V)
    return U @ Wt


def _check_groups(eigenspaces, n):
    if eigenspaces is None:
        return None
    groups = [np.asarray(g, dtype=np.intp).ravel() for g in eigenspaces]
    flat = np.concatenate(groups) if groups else np.array([], dtype=np.intp)
    if flat.size != n or not np.array_equal(np.sort(flat), np.arange(n)):
        raise ValueError(f"eigenspaces must partition the columns 0..{n - 1}")
    return groups


def _zero_column(V, kind):
    """Index of the zero-eigenvalue column and the vector it is rotated onto."""
    n = V.shape[0]
    cos = np.abs(V.sum(axis=0)) / np.sqrt(n)
    one_sign = np.abs(V.sum(axis=0)) / np.abs(V).sum(axis=0)
    one_sign[np.abs(V).min(axis=0) <= 1e-12 * np.abs(V).max(axis=0)] = 0.0   # zero entries
    if kind == "combinatorial":
        c = int(np.argmax(cos))
        if cos[c] >= MIN_COS:
            return c, np.full(n, 1.0 / np.sqrt(n))
        k = int(np.argmax(one_sign))
        hint = (f"; its column {k} has entries of one sign, as the basis of a normalized "
                "Laplacian has: pass laplacian='normalized'" if one_sign[k] >= MIN_COS else "")
        raise ValueError("V_hat has no column close to the constant vector, the "
                         "zero-eigenvalue eigenvector of a combinatorial Laplacian (largest "
                         f"|cos| {cos[c]:.3g} < {MIN_COS}){hint}")
    c = int(np.argmax(one_sign))
    u = np.abs(V[:, c])
    if one_sign[c] < MIN_COS:
        raise ValueError("V_hat has no column with entries of one sign, the zero-eigenvalue "
                         "eigenvector D^(1/2) 1 of a normalized Laplacian (best "
                         f"|sum| / sum |.| {one_sign[c]:.3g} < {MIN_COS})")
    return c, u / np.linalg.norm(u)


def _anchored_pair_basis(basis) -> PairBasis:
    """Rotate the zero-eigenvalue column exactly onto its vector, build the pair rows."""
    V = basis["V"]
    c, u = _zero_column(V, basis["kind"])
    groups, ordered = basis["groups"], basis["ordered"]
    if ordered:
        first = 0 if groups is None else next(k for k, g in enumerate(groups) if c in g)
        if first != 0 or (groups is None and c != 0):
            raise ValueError("ordered=True needs the zero-eigenvalue column first, found it "
                             f"at column {c}")
    v = V[:, c] * np.sign(V[:, c] @ u)
    V = V - 2.0 * np.outer(v, v @ V)                 # v -> -v
    b = (v + u) / np.linalg.norm(v + u)
    V = V - 2.0 * np.outer(b, b @ V)                 # -v -> u
    V[:, c] = u
    basis["V_anchored"], basis["zero_column"] = V, c
    B = pair_basis(V, c, u, groups, ordered)
    if V.shape[0] > LADDER_MAX_N:       # below, the family searches are fast enough
        B.local_groups = local_groups(B)
        # n^3 products: half the flops. Below, the general product's rounding is kept:
        # exact trees whose families hold heavy twin graphs settle on a vertex that
        # depends on it (random_labeled_tree(80, seed=2): F1 1.0 with the general product,
        # 0.969 with the symmetric one)
        B.symmetric = True
    return B
