"""Small helpers on the orthogonal group shared by the whole-basis learner (private).

Every function takes validated float64 arrays.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.linalg.blas

__all__ = ["cayley", "cayley_update", "polar_factor", "polar_factor_gram",
           "random_orthogonal", "skew"]

# polar_factor_gram falls back to the SVD when the Gram matrix is this ill-conditioned
_GRAM_COND = 1e10


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


def polar_factor_gram(M: np.ndarray) -> np.ndarray:
    """Orthogonal polar factor of a square ``M`` from the eigenvectors of $M^T M$.

    $M^T M = W \\Lambda W^T$ gives $\\operatorname{polar}(M) = M W \\Lambda^{-1/2} W^T$:
    one symmetric product, one symmetric eigendecomposition (LAPACK ``syevd``) and
    two products, about two thirds of the time of `polar_factor` at $n = 1000$.
    Squaring $M$ squares its condition number $\\kappa$: the factor is accurate to
    about $\\varepsilon \\kappa^2$ (against $\\varepsilon \\kappa$ for the SVD), which
    is ample for a descent direction but not for a fixed point that must be reached
    to machine precision; when $\\kappa^2$ exceeds $10^{10}$ (or ``M`` is singular)
    it falls back to `polar_factor`.

    Examples
    --------
    >>> import numpy as np
    >>> M = np.array([[2.0, 1.0], [0.0, -3.0]])
    >>> bool(np.allclose(polar_factor_gram(M), polar_factor(M)))
    True
    """
    # upper triangle of M^T M by a symmetric rank-k update (half the flops of a product);
    # M.T is Fortran-ordered when M is C-ordered, so no copy is made
    gram = scipy.linalg.blas.dsyrk(1.0, M.T, trans=0)
    w, W = scipy.linalg.eigh(gram, lower=False, check_finite=False, driver="evd",
                             overwrite_a=True)
    if not w[0] > w[-1] / _GRAM_COND:
        return polar_factor(M)
    return (M @ (W / np.sqrt(w))) @ W.T


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


def cayley_update(V: np.ndarray, A: np.ndarray) -> np.ndarray:
    """``V @ cayley(A)`` with one linear solve and no product.

    $\\operatorname{cay}(A) = 2 (I - A/2)^{-1} - I$ and, $A$ being skew-symmetric,
    $V (I - A/2)^{-1} = ((I + A/2)^{-1} V^T)^T$: one LU factorisation and its
    triangular solves replace the solve and the product of ``V @ cayley(A)``.

    Examples
    --------
    >>> import numpy as np
    >>> A = np.array([[0.0, 0.3], [-0.3, 0.0]])
    >>> V = cayley(np.array([[0.0, 1.0], [-1.0, 0.0]]))
    >>> bool(np.allclose(cayley_update(V, A), V @ cayley(A)))
    True
    """
    n = A.shape[0]
    lhs = 0.5 * A
    lhs[np.diag_indices(n)] += 1.0
    half = scipy.linalg.solve(lhs, V.T, check_finite=False, overwrite_a=True)
    return 2.0 * half.T - V


def random_orthogonal(n: int, rng: np.random.Generator) -> np.ndarray:
    """A Haar-distributed orthogonal ``n x n`` matrix (QR of a Gaussian, signs fixed)."""
    Q, R = np.linalg.qr(rng.standard_normal((n, n)))
    d = np.sign(np.diag(R))
    d[d == 0] = 1.0
    return Q * d
