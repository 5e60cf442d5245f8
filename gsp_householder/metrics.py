"""Error metrics for recovered vectors, dictionaries and codes.

A reflector vector is defined up to sign, a dictionary learned from data up to
a signed permutation of its columns; the metrics here say which ambiguity they
remove. `basis_error` between two HouseholderProducts costs $O(nm^2)$ and
never forms an $n \\times n$ matrix.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.optimize

from gsp_householder._validation import check_real_array
from gsp_householder.householder import HouseholderProduct

__all__ = [
    "vector_error",
    "basis_error",
    "coefficient_error",
    "match_columns",
    "matched_basis_error",
    "orthogonality_defect",
]


def vector_error(u, u_hat, ord=np.inf, *, relative: bool = False) -> float:
    """$\\min_{\\pm} \\|u \\mp \\hat u\\|$, the error of a reflector vector up to sign.

    Parameters
    ----------
    u, u_hat : array_like of shape (n,)
        True and estimated vectors.
    ord : {inf, 2, 1}, default inf
        Norm of the difference (the paper uses $\\ell_\\infty$).
    relative : bool, default False
        Divide by $\\|u\\|$ in the same norm. Note that $\\|u\\|_\\infty$ is only
        about $\\sqrt{3/n}$ for a normalised Uniform[0, 1] vector, so $\\hat u = 0$
        already scores $\\|u\\|_\\infty$: report $\\ell_2$ and relative errors too.

    Examples
    --------
    >>> from gsp_householder import vector_error
    >>> vector_error([0.6, 0.8], [-0.6, -0.7])
    0.1...
    """
    u = check_real_array(u, "u", ndim=1, allow_float32=False)
    u_hat = check_real_array(u_hat, "u_hat", ndim=1, allow_float32=False)
    if u.shape != u_hat.shape:
        raise ValueError(f"u and u_hat must have equal shapes, got {u.shape} and {u_hat.shape}")
    # scale by a power of 2 (exact): no overflow for huge entries, same result otherwise
    peak = max(float(np.abs(u).max()), float(np.abs(u_hat).max()))
    unit = float(np.ldexp(1.0, np.frexp(peak)[1] - 1)) if peak > 0 else 1.0
    a, b = u / unit, u_hat / unit
    err = min(np.linalg.norm(a - b, ord), np.linalg.norm(a + b, ord))
    if relative:
        norm_u = np.linalg.norm(a, ord)
        if not norm_u > 0:
            raise ValueError("u must be non-zero for a relative error")
        return float(err / norm_u)
    return float(err * unit)


def _low_rank_parts(V: HouseholderProduct):
    """$V = D_V + L C R^T$ pieces: $Q D = D - U T U^T D$."""
    U, T, d = V.vectors, V.wy_factor, V.signs
    return U, -T, U * d[:, None], d


def basis_error(V, V_hat, *, relative: bool = False) -> float:
    """$\\|V - \\hat V\\|_F$ (columns compared as they stand, no matching).

    Between two HouseholderProducts the difference is a diagonal plus a matrix of
    rank at most $m_1 + m_2$, $\\Delta + L C R^T$; its norm is computed from thin
    QR factors of $L$ and $R$ in $O(n(m_1 + m_2)^2)$, accurate to about machine
    precision even when the error is tiny (no cancellation of $2n - 2\\operatorname{tr}$).
    Dense arrays are compared densely.

    Parameters
    ----------
    V, V_hat : HouseholderProduct or array_like of shape (n, n)
    relative : bool, default False
        Divide by $\\|V\\|_F = \\sqrt n$ (for orthogonal $V$).

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import HouseholderProduct, basis_error
    >>> V = HouseholderProduct(np.array([1.0, 0.0, 0.0]))      # diag(-1, 1, 1)
    >>> basis_error(V, np.eye(3))
    2.0
    """
    if isinstance(V, HouseholderProduct) and isinstance(V_hat, HouseholderProduct):
        if V.n != V_hat.n:
            raise ValueError(f"V and V_hat must have equal sizes, got {V.n} and {V_hat.n}")
        n = V.n
        k_signs = int(np.sum(V.signs != V_hat.signs))
        width = V.m + V_hat.m + k_signs
        if 2 * width < n:
            err = _structured_difference_norm(V, V_hat)
            return err / np.sqrt(n) if relative else err
    A = _dense(V, "V")
    B = _dense(V_hat, "V_hat")
    if A.shape != B.shape:
        raise ValueError(f"V and V_hat must have equal shapes, got {A.shape} and {B.shape}")
    with np.errstate(over="ignore"):  # huge entries: an infinite error, not a warning
        err = float(np.linalg.norm(A - B))
    return err / np.sqrt(A.shape[0]) if relative else err


def _structured_difference_norm(V: HouseholderProduct, W: HouseholderProduct) -> float:
    La, Ca, Ra, da = _low_rank_parts(V)
    Lb, Cb, Rb, db = _low_rank_parts(W)
    diff = da - db
    idx = np.flatnonzero(diff)
    E = np.zeros((V.n, idx.size))
    E[idx, np.arange(idx.size)] = 1.0
    L = np.hstack([La, Lb, E])
    R = np.hstack([Ra, Rb, E])
    C = scipy.linalg.block_diag(Ca, -Cb, np.diag(diff[idx]))
    if L.shape[1] == 0:
        return 0.0
    _, RL = np.linalg.qr(L)
    _, RR = np.linalg.qr(R)
    return float(np.linalg.norm(RL @ C @ RR.T))


def _dense(V, name) -> np.ndarray:
    if isinstance(V, HouseholderProduct):
        return V.to_dense()
    A = check_real_array(V, name, ndim=2, allow_float32=False)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be square, got shape {A.shape}")
    return A


def coefficient_error(X, X_hat) -> float:
    """Per-entry error $\\|X - \\hat X\\|_F / \\sqrt{np}$ (the paper's Fig. 4).

    Parameters
    ----------
    X, X_hat : array_like of shape (n, p)
        True and estimated codes.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import coefficient_error
    >>> coefficient_error(np.zeros((2, 2)), np.ones((2, 2)))
    1.0
    """
    X = check_real_array(X, "X", ndim=2, allow_float32=False)
    X_hat = check_real_array(X_hat, "X_hat", ndim=2, allow_float32=False)
    if X.shape != X_hat.shape:
        raise ValueError(f"X and X_hat must have equal shapes, got {X.shape} and {X_hat.shape}")
    with np.errstate(over="ignore"):  # huge entries: an infinite error, not a warning
        return float(np.linalg.norm(X - X_hat) / np.sqrt(X.size))


def match_columns(V, V_hat) -> tuple[np.ndarray, np.ndarray]:
    """Signed permutation aligning the columns of ``V_hat`` with those of ``V``.

    Solves the assignment problem maximising $\\sum_j |v_j^T \\hat v_{\\pi(j)}|$
    (Hungarian algorithm on the $n \\times n$ cross-Gram matrix, which this
    matching needs).

    Parameters
    ----------
    V, V_hat : HouseholderProduct or array_like of shape (n, n)
        Reference and estimated bases.

    Returns
    -------
    perm : ndarray of int, shape (n,)
        ``V_hat[:, perm]`` is aligned with ``V``.
    signs : ndarray of shape (n,)
        ``V_hat[:, perm] * signs`` matches ``V`` column by column.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import match_columns
    >>> V = np.eye(3)
    >>> perm, signs = match_columns(V, -V[:, [2, 0, 1]])
    >>> perm.tolist(), signs.tolist()
    ([1, 2, 0], [-1.0, -1.0, -1.0])
    """
    A = _dense(V, "V")
    B = _dense(V_hat, "V_hat")
    if A.shape != B.shape:
        raise ValueError(f"V and V_hat must have equal shapes, got {A.shape} and {B.shape}")
    with np.errstate(over="ignore", invalid="ignore"):
        G = A.T @ B
    if not np.isfinite(G).all():
        raise ValueError("V and V_hat have entries too large in magnitude: V^T V_hat overflows")
    rows, cols = scipy.optimize.linear_sum_assignment(-np.abs(G))
    perm = np.empty(A.shape[1], dtype=int)
    perm[rows] = cols
    signs = np.sign(G[np.arange(A.shape[1]), perm])
    signs[signs == 0] = 1.0
    return perm, signs


def matched_basis_error(V, V_hat, *, relative: bool = False) -> float:
    """$\\|V - \\hat V P S\\|_F$ after the best signed permutation (`match_columns`).

    Parameters
    ----------
    V, V_hat : HouseholderProduct or array_like of shape (n, n)
        Reference and estimated bases.
    relative : bool, default False
        Divide by $\\|V\\|_F$.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import matched_basis_error
    >>> matched_basis_error(np.eye(3), -np.eye(3)[:, [1, 0, 2]])
    0.0
    """
    perm, signs = match_columns(V, V_hat)
    A = _dense(V, "V")
    B = _dense(V_hat, "V_hat")[:, perm] * signs
    with np.errstate(over="ignore"):  # huge entries: an infinite error, not a warning
        err = float(np.linalg.norm(A - B))
    return err / np.sqrt(A.shape[0]) if relative else err


def orthogonality_defect(A) -> float:
    """$\\|A^T A - I\\|_F$; zero for an orthogonal matrix.

    Parameters
    ----------
    A : HouseholderProduct or array_like of shape (n, k)
        The matrix whose columns should be orthonormal.

    Returns
    -------
    float
        ``inf`` when $A^T A$ overflows.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import orthogonality_defect
    >>> orthogonality_defect(2 * np.eye(2))
    4.242640687119285
    """
    A = _dense(A, "A")
    with np.errstate(over="ignore", invalid="ignore"):  # huge entries: infinite defect
        defect = float(np.linalg.norm(A.T @ A - np.eye(A.shape[1])))
    return defect if np.isfinite(defect) else np.inf
