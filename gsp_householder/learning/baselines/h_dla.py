"""H-DLA: learning a product of Householder reflectors by alternating minimisation.

Rusu, Gonzalez-Prelcic & Heath (2016), "Fast orthonormal sparsifying transforms
based on Householder reflectors", IEEE Trans. Signal Process. 64(24). The
dictionary is $D = H_m \\cdots H_1$ with $H_h = I - 2 u_h u_h^T$ and the codes
have at most ``sparsity`` non-zeros per column. As in the authors' reference
implementation:

1. all $u_h = 0$ ($H_h = I$) and $X = T_s(Q^T Y)$ with $Q$ the left singular
   vectors of $Y$;
2. each iteration forms $R = X Y^T H_m \\cdots H_2$ and, for $h = 1, \\dots, m$,
   takes as $u_h$ the eigenvector of the most negative eigenvalue of the
   symmetric $R + R^T$ ($u_h = 0$ when that eigenvalue is $\\ge 0$), which
   maximises $\\operatorname{tr}(R H_h)$, then updates $R \\leftarrow H_h R H_{h+1}$;
3. then $X = T_s(D^T Y)$, keeping the $s$ largest $|$entries$|$ of each column.

Both steps minimise $\\|Y - D X\\|_F$ exactly over their block, so the objective
never increases.

$R = A B^T$ with $A = H_{h-1} \\cdots H_1 X$ and $B = H_{h+1} \\cdots H_m Y$ has
rank at most $p$, so every eigenvector of $R + R^T$ with a non-zero eigenvalue
lies in $\\operatorname{span}(A, B)$. ``solver="lowrank"`` uses this: an
orthonormal basis $S$ of that span ($2p$ columns) and the eigenvectors of the
$2p \\times 2p$ matrix $S^T (R + R^T) S$, $O(np^2)$ per reflector instead of the
$O(n^3)$ of the dense eigenproblem (``solver="dense"``, the reference's
way; only the smallest eigenpair is computed, by LAPACK's ``syevr``). Both give
the same reflectors up to sign (and up to the choice within a repeated
eigenvalue).
"""

from __future__ import annotations

import numpy as np
import scipy.linalg

from gsp_householder._validation import check_scalar, check_signals
from gsp_householder.householder import HouseholderProduct
from gsp_householder.learning.result import DictionaryResult

__all__ = ["h_dla"]


def _top_s(Z: np.ndarray, s: int) -> np.ndarray:
    """Keep the ``s`` largest $|$entries$|$ of each column of ``Z``."""
    n = Z.shape[0]
    if s >= n:
        return Z.copy()
    idx = np.argpartition(np.abs(Z), n - s, axis=0)[n - s:]
    out = np.zeros_like(Z)
    np.put_along_axis(out, idx, np.take_along_axis(Z, idx, axis=0), axis=0)
    return out


def _reflect(u: np.ndarray | None, Z: np.ndarray) -> np.ndarray:
    """$(I - 2 u u^T) Z$; identity when ``u`` is None."""
    if u is None:
        return Z
    return Z - 2.0 * np.outer(u, u @ Z)


def _apply_chain(us, Z, order):
    for h in order:
        Z = _reflect(us[h], Z)
    return Z


def _smallest_eigenpair(S):
    """Smallest eigenvalue and its eigenvector of the symmetric ``S`` (LAPACK ?syevr)."""
    w, vecs = scipy.linalg.eigh(S, subset_by_index=[0, 0])
    return w[0], vecs[:, 0]


def _most_negative_dense(A, B):
    S = A @ B.T
    return _smallest_eigenpair(S + S.T)


def _most_negative_lowrank(A, B):
    p = A.shape[1]
    Q, Rf = np.linalg.qr(np.hstack([A, B]))
    RA, RB = Rf[:, :p], Rf[:, p:]
    small = RA @ RB.T
    lam, v = _smallest_eigenpair(small + small.T)
    return lam, Q @ v


def h_dla(Y, n_reflectors: int, sparsity: int, n_iter: int = 30, *,
          solver: str = "auto") -> DictionaryResult:
    """Learn $D = H_m \\cdots H_1$ and $s$-sparse codes by H-DLA (Rusu et al. 2016).

    Parameters
    ----------
    Y : array_like of shape (n, p)
        Signals (columns).
    n_reflectors : int
        Number $m$ of reflectors.
    sparsity : int
        Non-zeros $s$ kept per column of the codes, $1 \\le s \\le n$.
    n_iter : int, default 30
        Number of iterations (the reference runs a fixed number).
    solver : {"auto", "dense", "lowrank"}, default "auto"
        Eigen-solver of the reflector step (module notes): ``"dense"``
        diagonalises the $n \\times n$ matrix $R + R^T$ ($O(n^3)$),
        ``"lowrank"`` works in the $2p$-dimensional span that holds its
        non-zero spectrum ($O(np^2)$); ``"auto"`` takes ``"lowrank"`` when
        $2p < n$.

    Returns
    -------
    DictionaryResult
        ``dictionary`` a HouseholderProduct $H_m \\cdots H_1$ (the reflectors that
        stayed the identity are left out), ``codes`` $X$,
        ``history["objective"]`` $\\|Y - D X\\|_F$ after each iteration
        (non-increasing), ``converged`` whether the last iteration changed the
        objective by less than $10^{-10}$ relatively.

    Raises
    ------
    ValueError
        On bad ``Y``, ``n_reflectors < 1``, ``sparsity`` outside $[1, n]$,
        ``n_iter < 1`` or an unknown ``solver``.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import HouseholderProduct
    >>> from gsp_householder.learning.baselines import h_dla
    >>> rng = np.random.default_rng(0)
    >>> n, p, s = 16, 2000, 3                # exactly s-sparse codes
    >>> H = HouseholderProduct(rng.random(n))
    >>> X = np.zeros((n, p))
    >>> for j in range(p):
    ...     X[rng.choice(n, s, replace=False), j] = rng.uniform(1, 2, s)
    >>> res = h_dla(H @ X, n_reflectors=1, sparsity=s, n_iter=30)
    >>> bool(np.linalg.norm(res.dictionary.to_dense() - H.to_dense()) < 1e-10)
    True
    """
    Y = check_signals(Y, "Y")
    Y = np.asarray(Y, dtype=np.float64)
    n, p = Y.shape
    m = check_scalar(n_reflectors, "n_reflectors", low=1, low_inclusive=True, integer=True)
    s = check_scalar(sparsity, "sparsity", low=1, high=n, low_inclusive=True, integer=True)
    n_iter = check_scalar(n_iter, "n_iter", low=1, low_inclusive=True, integer=True)
    if solver not in ("auto", "dense", "lowrank"):
        raise ValueError(f"solver must be 'auto', 'dense' or 'lowrank', got {solver!r}")
    if solver == "auto":
        solver = "lowrank" if 2 * p < n else "dense"
    eig = _most_negative_lowrank if solver == "lowrank" else _most_negative_dense

    # Initial codes from the left singular vectors of Y: Q^T Y = [diag(sv) W^T; 0].
    _, sv, Wt = np.linalg.svd(Y, full_matrices=False)
    Z = np.zeros((n, p))
    Z[: sv.size] = sv[:, None] * Wt
    X = _top_s(Z, s)
    us: list[np.ndarray | None] = [None] * m
    history: list[float] = []
    converged = False
    it = 0
    for it in range(1, n_iter + 1):  # noqa: B007 - the count is reported
        # B_h = H_{h+1} ... H_m Y, computed for h = 1 from the current reflectors.
        B = _apply_chain(us, Y, range(m - 1, 0, -1))
        A = X
        for h in range(m):
            if h > 0:
                B = _reflect(us[h], B)          # drop H_{h+1}... i.e. undo H_h from B
            lam, v = eig(A, B)
            if lam < 0:
                us[h] = v / np.linalg.norm(v)
            else:
                us[h] = None
            A = _reflect(us[h], A)              # A_{h+1} = H_h A_h
        # D^T Y = H_1 ... H_m Y
        DtY = _apply_chain(us, Y, range(m - 1, -1, -1))
        X = _top_s(DtY, s)
        # ||Y - D X|| = ||D^T Y - X||
        history.append(float(np.linalg.norm(DtY - X)))
        converged = len(history) > 1 and \
            abs(history[-2] - history[-1]) <= 1e-10 * max(history[-2], 1e-300)
    kept = [us[h] for h in range(m - 1, -1, -1) if us[h] is not None]
    D = HouseholderProduct(np.column_stack(kept)) if kept else HouseholderProduct.identity(n)
    return DictionaryResult(dictionary=D, codes=X, history={"objective": history},
                            n_iter=it, converged=converged)
