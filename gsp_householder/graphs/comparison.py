"""Comparing an inferred graph (Laplacian, spectrum, Fourier basis) with the truth."""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from gsp_householder._validation import check_scalar

__all__ = ["compare_graphs", "compare_spectra"]


def _dense_laplacian(L, name):
    if hasattr(L, "laplacian") and not isinstance(L, np.ndarray):
        L = L.laplacian
    A = L.toarray() if sp.issparse(L) else np.asarray(L, dtype=np.float64)
    if A.ndim != 2 or A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square matrix, got shape {A.shape}")
    if not np.isfinite(A).all():
        raise ValueError(f"{name} must be finite")
    return A


def compare_graphs(L_true, L_hat, *, weight_tol: float = 1e-6,
                   normalize: bool = True) -> dict[str, float]:
    """Edge and matrix errors of an inferred Laplacian.

    Parameters
    ----------
    L_true, L_hat : array_like or scipy sparse array of shape (n, n), or InferredLaplacian
        Combinatorial Laplacians on the same node order.
    weight_tol : float, default 1e-6
        An entry is an edge when $-L_{ij}$ exceeds ``weight_tol`` times the
        largest $|L_{ij}|$ of its matrix.
    normalize : bool, default True
        Compare $L / \\operatorname{tr} L$ (eigenvectors fix a Laplacian only up
        to scale).

    Returns
    -------
    dict
        ``relative_error`` $\\|L - \\hat L\\|_F / \\|L\\|_F$, ``precision``,
        ``recall``, ``f1``, ``n_edges_true``, ``n_edges_hat``,
        ``true_positives``.

    Raises
    ------
    ValueError
        If the shapes differ.

    Examples
    --------
    >>> import numpy as np
    >>> L = np.array([[1.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 1.0]])
    >>> r = compare_graphs(L, 2 * L)
    >>> r["f1"], round(r["relative_error"], 12)
    (1.0, 0.0)
    """
    A = _dense_laplacian(L_true, "L_true")
    B = _dense_laplacian(L_hat, "L_hat")
    if A.shape != B.shape:
        raise ValueError(f"L_true and L_hat must have equal shapes, got {A.shape} and {B.shape}")
    weight_tol = check_scalar(weight_tol, "weight_tol", low=0.0, low_inclusive=True)
    if normalize:
        ta, tb = np.trace(A), np.trace(B)
        A = A / ta if ta > 0 else A
        B = B / tb if tb > 0 else B
    iu = np.triu_indices(A.shape[0], 1)
    a, b = -A[iu], -B[iu]
    ea = a > weight_tol * max(np.abs(a).max(initial=0.0), 1e-300)
    eb = b > weight_tol * max(np.abs(b).max(initial=0.0), 1e-300)
    tp = int(np.count_nonzero(ea & eb))
    prec = tp / eb.sum() if eb.sum() else (1.0 if not ea.sum() else 0.0)
    rec = tp / ea.sum() if ea.sum() else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec > 0 else 0.0
    na = np.linalg.norm(A)
    return {
        "relative_error": float(np.linalg.norm(A - B) / na) if na > 0 else float(np.linalg.norm(B)),
        "precision": float(prec),
        "recall": float(rec),
        "f1": float(f1),
        "n_edges_true": int(ea.sum()),
        "n_edges_hat": int(eb.sum()),
        "true_positives": tp,
    }


def compare_spectra(L_true, L_hat, *, V_true=None, V_hat=None, eigenspaces=None,
                    normalize: bool = True) -> dict:
    """Eigenvalue and eigenvector errors of an inferred Laplacian or basis.

    Parameters
    ----------
    L_true, L_hat : array_like or sparse of shape (n, n)
        Laplacians; their eigenvalues are compared sorted (after scaling both
        to trace $n$ when ``normalize``).
    V_true, V_hat : array_like of shape (n, n) or HouseholderProduct, optional
        Bases to compare; default the eigenvectors of ``L_true`` and ``L_hat``.
    eigenspaces : list of sequences of int, optional
        Column groups of ``V_true`` sharing an eigenvalue; default computed from
        the eigenvalues of ``L_true`` (relative tolerance $10^{-8}$).
    normalize : bool, default True
        Scale both Laplacians to trace $n$ first.

    Returns
    -------
    dict
        ``eigenvalue_errors`` (sorted $|\\lambda_k - \\hat\\lambda_k| / \\max|\\lambda|$),
        ``max_eigenvalue_error``, ``basis_error`` ($\\|V - \\hat V P\\|_F$ after the
        best signed permutation $P$), ``relative_basis_error`` (divided by
        $\\sqrt n$), ``principal_angles`` (largest principal angle between each
        true eigenspace and the span of the matched columns of $\\hat V$, radians).

    Examples
    --------
    >>> import numpy as np
    >>> L = np.array([[1.0, -1.0], [-1.0, 1.0]])
    >>> r = compare_spectra(L, L)
    >>> float(r["max_eigenvalue_error"]), round(r["basis_error"], 12)
    (0.0, 0.0)
    """
    from gsp_householder.graphs.fourier import group_eigenvalues
    from gsp_householder.metrics import match_columns

    A = _dense_laplacian(L_true, "L_true")
    B = _dense_laplacian(L_hat, "L_hat")
    if A.shape != B.shape:
        raise ValueError(f"L_true and L_hat must have equal shapes, got {A.shape} and {B.shape}")
    n = A.shape[0]
    if normalize:
        A = A * (n / np.trace(A)) if np.trace(A) > 0 else A
        B = B * (n / np.trace(B)) if np.trace(B) > 0 else B
    ea, Va = scipy.linalg.eigh(A)
    eb, Vb = scipy.linalg.eigh(B)
    scale = max(np.abs(ea).max(), 1e-300)
    errs = np.abs(ea - eb) / scale
    V = Va if V_true is None else _dense_basis(V_true)
    W = Vb if V_hat is None else _dense_basis(V_hat)
    perm, signs = match_columns(V, W)
    Wm = W[:, perm] * signs
    berr = float(np.linalg.norm(V - Wm))
    if eigenspaces is None:
        eigenspaces = group_eigenvalues(ea) if V_true is None else [[k] for k in range(n)]
    angles = []
    for g in eigenspaces:
        g = np.asarray(g)
        s = np.linalg.svd(V[:, g].T @ Wm[:, g], compute_uv=False)
        angles.append(float(np.arccos(np.clip(s.min(), -1.0, 1.0))))
    return {
        "eigenvalue_errors": errs,
        "max_eigenvalue_error": float(errs.max()),
        "basis_error": berr,
        "relative_basis_error": berr / np.sqrt(n),
        "principal_angles": np.array(angles),
        "eigenvalues_true": ea,
        "eigenvalues_hat": eb,
    }


def _dense_basis(V):
    if hasattr(V, "to_dense"):
        return V.to_dense()
    if hasattr(V, "eigenvectors"):
        return V.eigenvectors
    return np.asarray(V, dtype=np.float64)
