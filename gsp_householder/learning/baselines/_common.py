"""Shared helpers of the baselines (private module)."""

from __future__ import annotations

import numpy as np

from gsp_householder.householder import HouseholderProduct


def as_operator(V, n: int, name: str = "init"):
    """Validate an orthogonal initial dictionary given as a HouseholderProduct or array."""
    from gsp_householder._validation import check_real_array

    if isinstance(V, HouseholderProduct):
        if V.n != n:
            raise ValueError(f"{name} must be {n} x {n} to match Y, got n = {V.n}")
        return V
    A = check_real_array(V, name, ndim=2, allow_float32=False)
    if A.shape != (n, n):
        raise ValueError(f"{name} must have shape ({n}, {n}) to match Y, got {A.shape}")
    defect = float(np.linalg.norm(A.T @ A - np.eye(n)))
    if defect > 1e-6 * np.sqrt(n):
        raise ValueError(f"{name} must be orthogonal: ||A^T A - I||_F = {defect:.3g}")
    return A


def residual(Y: np.ndarray, V, X: np.ndarray) -> float:
    """$\\|Y - V X\\|_F$ for a HouseholderProduct or dense ``V``."""
    return float(np.linalg.norm(Y - V @ X))
