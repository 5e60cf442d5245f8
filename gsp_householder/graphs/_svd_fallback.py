"""A singular value decomposition that falls back on LAPACK's ``gesvd`` where the
divide-and-conquer driver of ``numpy.linalg.svd`` does not converge.

``gesdd`` (numpy's driver) fails now and then on finite, well-scaled matrices whose
singular values cluster (many at rounding); ``gesvd`` is slower but converges on them.
A search that meets such a matrix would otherwise stop with ``LinAlgError``.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg


def svd_or_gesvd(A, full_matrices: bool = True, compute_uv: bool = True):
    """``numpy.linalg.svd(A, full_matrices, compute_uv)`` (divide and conquer), or LAPACK's
    ``gesvd`` where it does not converge.

    Parameters
    ----------
    A : ndarray of shape (m, k)
        The matrix (finite).
    full_matrices : bool, default True
        As for ``numpy.linalg.svd``.
    compute_uv : bool, default True
        As for ``numpy.linalg.svd``.

    Returns
    -------
    tuple of ndarray or ndarray
        ``(U, s, Vh)``, or ``s`` when ``compute_uv`` is False.

    Notes
    -----
    Cases met: the exact 10 x 20 torus shuffled by ``bench_inference_sweep.run_one`` (the
    centred $Z$ of draw 0, and its product with $Q$ of draw 2, Haswell kernels); the
    pair rows of a family of the normalized Laplacian of ``gnr_graph(70, 0.3, seed=2)``
    (1349 x 44, largest entry 27, 31 singular values at rounding), exact, draw 0.
    """
    try:
        return np.linalg.svd(A, full_matrices=full_matrices, compute_uv=compute_uv)
    except np.linalg.LinAlgError:
        return scipy.linalg.svd(
            A, full_matrices=full_matrices, compute_uv=compute_uv, lapack_driver="gesvd"
        )
