"""Small helpers on the orthogonal group shared by the whole-basis learner (private).

Every function takes validated float64 arrays.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

__all__ = ["cayley", "polar_factor", "random_orthogonal", "skew"]


def polar_factor(M: np.ndarray) -> np.ndarray:
    """Orthogonal polar factor $U W^T$ of a square ``M = U \\Sigma W^T``.

    Examples
    --------
    >>> import numpy as np
    >>> Q = polar_factor(np.array([[2.0, 0.0], [0.0, -3.0]]))
    >>> Q
    array([[ 1.,  0.],
           [ 0., -1.]])
    """
    U, _, Wt = scipy.linalg.svd(M, full_matrices=False, check_finite=False,
                                lapack_driver="gesdd")
    return U @ Wt


def skew(M: np.ndarray) -> np.ndarray:
    """Skew-symmetric part $(M - M^T) / 2$."""
    return 0.5 * (M - M.T)


def cayley(A: np.ndarray) -> np.ndarray:
    """Cayley transform $(I - A/2)^{-1}(I + A/2)$ of a skew-symmetric ``A`` (orthogonal).

    Examples
    --------
    >>> import numpy as np
    >>> Q = cayley(np.array([[0.0, 1.0], [-1.0, 0.0]]))
    >>> bool(np.allclose(Q.T @ Q, np.eye(2)))
    True
    """
    n = A.shape[0]
    eye = np.eye(n)
    return scipy.linalg.solve(eye - 0.5 * A, eye + 0.5 * A, check_finite=False)


def random_orthogonal(n: int, rng: np.random.Generator) -> np.ndarray:
    """A Haar-distributed orthogonal ``n x n`` matrix (QR of a Gaussian, signs fixed)."""
    Q, R = np.linalg.qr(rng.standard_normal((n, n)))
    d = np.sign(np.diag(R))
    d[d == 0] = 1.0
    return Q * d
