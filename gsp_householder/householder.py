"""Products of Householder reflectors, applied in compact WY form.

A `HouseholderProduct` represents the orthogonal matrix

$$V = H_1 H_2 \\cdots H_m D, \\qquad H_i = I - 2 u_i u_i^T,\\ \\|u_i\\| = 1,$$

with $D$ an optional diagonal of signs. It never forms the $n \\times n$ matrix
unless asked to (`HouseholderProduct.to_dense`): the product of the
reflectors is kept in the compact WY form $H_1 \\cdots H_m = I - U T U^T$
(Schreiber & Van Loan 1989), with $U = [u_1, \\dots, u_m]$ and $T$ an
$m \\times m$ upper-triangular matrix given by
$T^{-1} = \\tfrac12 I + \\operatorname{striu}(U^T U)$
(Joffrain, Low, Quintana-Ortí, van de Geijn & Van Zee 2006). Applying $V$ to a
block of $p$ signals then costs two matrix-matrix products, $O(nmp)$ flops.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.linalg
import scipy.linalg.blas

from gsp_householder._blas_threads import blas_controller, blas_threads, one_blas_thread
from gsp_householder._numpy_blas import gemm_update, routines
from gsp_householder._validation import check_real_array, check_scalar, raise_not_finite

__all__ = ["HouseholderProduct"]

# bytes of one block of rows (or columns) of the result in the WY apply: it stays in
# cache between its copy from Y and the reading of its bounds
_APPLY_BLOCK_BYTES = 1 << 19
# bytes of Y from which the copy of the WY apply is split between threads
_PARALLEL_COPY_BYTES = 1 << 23
# the entry of the last column of the factor of W in the apply with several BLAS threads:
# a product with an entry of Y past a quarter of the range overflows (see _apply_sentinel)
_SENTINEL = 16.0
# bytes of one block of the result in the fused second half of the WY apply (copy,
# bounds and GEMM 2 per block): with the block of Y it came from, half of one core's
# L2 cache (2 MiB on the machine it was measured on)
_FUSED_BLOCK_BYTES = 1 << 20
# bytes of Y per task of the first GEMM when the package's threads share it out (the
# apply with several BLAS threads)
_GEMM1_CHUNK_BYTES = 1 << 23
_copy_pool: dict = {}
_copy_pool_lock = threading.Lock()


class HouseholderProduct:
    """Orthogonal matrix $V = H_1 \\cdots H_m D$ stored as its reflector vectors.

    Parameters
    ----------
    vectors : array_like of shape (n, m)
        Column $i$ is the vector $u_i$ of $H_i = I - 2 u_i u_i^T$. Columns are
        normalised on entry; a zero or non-finite column raises ``ValueError``.
        A 1-D array of length ``n`` is one reflector. ``m = 0`` (shape ``(n, 0)``)
        gives the identity or a pure sign diagonal.
    signs : array_like of shape (n,), optional
        Diagonal of $D$, each entry $+1$ or $-1$. Default: all $+1$.

    Attributes
    ----------
    n : int
        Size of the matrix.
    m : int
        Number of reflectors.
    vectors : ndarray of shape (n, m)
        Unit reflector vectors, float64 (read-only).
    signs : ndarray of shape (n,)
        The sign diagonal (read-only).

    Notes
    -----
    ``V @ Y``, ``V.T @ Y`` and ``Y @ V`` accept vectors and matrices and cost
    $O(nmp)$; the result has the floating dtype of ``Y`` (float32 stays float32).
    ``V1 @ V2`` composes two products into one without forming any dense matrix.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import HouseholderProduct
    >>> V = HouseholderProduct(np.array([[1.0, 0.0], [1.0, 1.0], [0.0, 1.0]]))
    >>> V.n, V.m
    (3, 2)
    >>> Y = np.arange(6.0).reshape(3, 2)
    >>> np.allclose(V @ Y, V.to_dense() @ Y)
    True
    >>> np.allclose(V.T @ (V @ Y), Y)
    True
    """

    __array_priority__ = 1000  # make ndarray @ V defer to __rmatmul__

    def __init__(self, vectors, signs=None):
        if np.size(vectors):
            U = check_real_array(vectors, "vectors", ndim=(1, 2), allow_float32=False)
        else:  # no reflectors: only the dtype and the number of rows matter
            U = np.asarray(vectors)
            if U.dtype.kind not in "fiu":
                raise TypeError(f"vectors must hold real numbers, got dtype {U.dtype}")
            U = U.astype(np.float64)
        if U.ndim == 1:
            U = U[:, None]
        if U.ndim != 2:
            raise ValueError(f"vectors must be 1-D or 2-D, got shape {U.shape}")
        n = U.shape[0]
        if n < 1:
            raise ValueError(f"vectors must have at least one row, got shape {U.shape}")
        with np.errstate(over="ignore", under="ignore"):
            norms = np.linalg.norm(U, axis=0)
        unit_norms = norms
        extreme = ~(norms < 1e150) | (norms < 1e-150)
        if extreme.any():
            # rescale these columns by their largest entry first, so that the norm
            # neither overflows (huge entries) nor underflows (tiny ones)
            U = np.array(U, dtype=np.float64)
            peak = np.abs(U[:, extreme]).max(axis=0)
            U[:, extreme] /= np.where(peak > 0, peak, 1.0)
            unit_norms = norms.copy()
            unit_norms[extreme] = np.linalg.norm(U[:, extreme], axis=0)
            norms = unit_norms.copy()
            with np.errstate(over="ignore"):
                norms[extreme] = unit_norms[extreme] * peak
        tiny = np.flatnonzero(~(norms > np.finfo(np.float64).tiny * 1e3))
        if tiny.size:
            raise ValueError(
                f"vectors must have non-zero columns; column {int(tiny[0])} has norm "
                f"{norms[tiny[0]]:.3g}, which defines no reflector")
        U = np.ascontiguousarray(U / unit_norms)
        U.setflags(write=False)
        self._U_store = U
        self._plane = None
        if signs is None:
            d = np.ones(n)
        else:
            d = check_real_array(signs, "signs", ndim=1, allow_float32=False)
            if d.shape != (n,):
                raise ValueError(f"signs must have shape ({n},) to match vectors, got {d.shape}")
            if not np.all(np.abs(d) == 1):
                raise ValueError("signs must contain only +1 and -1")
            d = d.copy()
        d.setflags(write=False)
        self._d = d
        self._has_signs = bool(np.any(d < 0))
        self._T = None
        self._transpose = None
        self._cast_cache: dict = {}

    # ------------------------------------------------------------------ basics
    @property
    def _U(self) -> np.ndarray:
        """The reflector vectors, formed on first use when they are kept in factored form."""
        if self._U_store is None:
            basis, coef = self._plane
            U = np.matmul(basis, coef)
            U.setflags(write=False)
            self._U_store = U
        return self._U_store

    @property
    def n(self) -> int:
        """Size $n$ of the $n \\times n$ matrix."""
        return self._d.shape[0]

    @property
    def m(self) -> int:
        """Number of reflectors."""
        return self._plane[1].shape[1] if self._U_store is None else self._U_store.shape[1]

    @property
    def shape(self) -> tuple[int, int]:
        """``(n, n)``."""
        return (self.n, self.n)

    @property
    def ndim(self) -> int:
        """Always 2: the object behaves as a matrix."""
        return 2

    @property
    def dtype(self):
        """Always float64."""
        return np.dtype(np.float64)

    @property
    def vectors(self) -> np.ndarray:
        """Unit reflector vectors as the columns of an ``(n, m)`` array."""
        return self._U

    @property
    def signs(self) -> np.ndarray:
        """The sign diagonal $D$, shape ``(n,)``."""
        return self._d

    def __repr__(self) -> str:
        extra = ", signs" if self._has_signs else ""
        return f"HouseholderProduct(n={self.n}, m={self.m}{extra})"

    def __getstate__(self):
        if self._plane is not None:  # the factored form pickles small and applies the same
            return {"basis": np.array(self._plane[0]), "coef": np.array(self._plane[1])}
        return {"U": np.array(self._U), "d": np.array(self._d)}

    def __setstate__(self, state):
        if "basis" in state:
            basis = check_real_array(state["basis"], "basis", ndim=2, allow_float32=False)
            coef = check_real_array(state["coef"], "coef", ndim=2, allow_float32=False)
            if (coef.shape[0] != basis.shape[1]
                    or not np.allclose(basis.T @ basis, np.eye(basis.shape[1]), atol=1e-10)
                    or not np.allclose(np.linalg.norm(coef, axis=0), 1.0, atol=1e-10)):
                raise ValueError("a factored HouseholderProduct needs an orthonormal basis "
                                 "and unit coefficient columns matching it")
            self.__dict__.update(HouseholderProduct._trusted_factored(basis, coef).__dict__)
            return
        self.__init__(state["U"], state["d"])

    # --------------------------------------------------------------- WY form
    @property
    def wy_factor(self) -> np.ndarray:
        """The upper-triangular $T$ with $H_1 \\cdots H_m = I - U T U^T$."""
        if self._T is None:
            m = self.m
            if m == 0:
                T = np.zeros((0, 0))
            else:
                if self._plane is not None:  # U = B C with orthonormal B: U^T U = C^T C
                    coef = self._plane[1]
                    gram = coef.T @ coef
                else:
                    gram = self._U.T @ self._U
                Tinv = np.triu(gram, k=1)
                Tinv[np.diag_indices(m)] = 0.5
                T = scipy.linalg.solve_triangular(Tinv, np.eye(m), lower=False)
            T.setflags(write=False)
            self._T = T
        return self._T

    def _apply_factors(self, dtype, transpose: bool):
        """``(A, M, B)`` with $V = D - A M B^T$ applied as $V Y = D Y - A M B^T Y$.

        With $V = Q D$ and $Q = I - U T U^T$: $V = D - U T (DU)^T$ and
        $V^T = D - (DU) T^T U^T$, so the signs cost no pass of their own. For
        reflectors kept in factored form $U = BC$ (orthonormal $B$ of $r$
        columns, no signs), $U T U^T = B (C T C^T) B^T$: the apply then costs
        $O(nrp)$. Every entry of ``A`` is at most 1 in magnitude (unit or
        orthonormal columns, times signs). Cast to ``dtype`` and cached.
        """
        key = (np.dtype(dtype), transpose)
        if key not in self._cast_cache:
            T = self.wy_factor
            if self._plane is not None:
                basis, coef = self._plane
                U, M = basis, coef @ T @ coef.T
            else:
                U, M = self._U, T
            M = np.ascontiguousarray(M.T if transpose else M, dtype=dtype)
            U = U.astype(dtype, copy=False)
            DU = U * self._d.astype(dtype)[:, None] if self._has_signs else U
            A, B = (DU, U) if transpose else (U, DU)
            self._cast_cache[key] = (A, M, B)
        return self._cast_cache[key]

    def _apply_pair(self, dtype, transpose: bool):
        """``(A, C)`` with $V = D - A C^T$: ``A`` as in `_apply_factors`, $C = B M^T$.

        Folding the $m \\times m$ factor into $B$ once (in float64, then cast) makes
        $W = C^T Y$ a single GEMM over ``Y``, with no small product after it.
        """
        key = ("pair", np.dtype(dtype), transpose)
        if key not in self._cast_cache:
            A = self._apply_factors(dtype, transpose)[0]
            _, M, B = self._apply_factors(np.float64, transpose)
            C = np.ascontiguousarray(B @ M.T, dtype=dtype)
            self._cast_cache[key] = (A, C)
        return self._cast_cache[key]

    def _apply_watched(self, dtype, transpose: bool) -> np.ndarray:
        """$C$ of `_apply_pair`, with one more column when some of its rows are zero.

        $W = C^T Y$ is not finite when ``Y`` holds a NaN or an inf in a row where
        $C$ has a nonzero entry (that entry times the inf or NaN enters a sum). A row
        of $C$ that is zero sees nothing, so when there are such rows a last column,
        1 on them and 0 elsewhere, adds their column sums of ``Y`` as a last row of
        the product: $C_e^T Y$ is then finite only if ``Y`` is. Cast to ``dtype``
        (the zero rows are those of the cast factor) and cached.
        """
        key = ("watched", np.dtype(dtype), transpose)
        if key not in self._cast_cache:
            C = self._apply_pair(dtype, transpose)[1]
            unseen = ~C.any(axis=1)
            if unseen.any():
                C = np.ascontiguousarray(np.column_stack([C, unseen.astype(dtype)]))
            self._cast_cache[key] = C
        return self._cast_cache[key]

    def _apply_sentinel(self, dtype, transpose: bool) -> np.ndarray:
        """$C$ of `_apply_pair` with a last column of ``_SENTINEL`` (16) on every row.

        The last row of $W = C_s^T Y$ is then 16 times the column sums of ``Y``, and a
        GEMM accumulates them term by term: a term $16 Y_{ij}$ with $|Y_{ij}|$ past a
        quarter of the range is past four times the range, so the running sum it
        enters (finite before it, at most the range) leaves the range and becomes
        infinite, and stays so (or NaN). A NaN or inf in ``Y`` reaches that row
        likewise. So a finite last row proves every entry of ``Y`` finite and at most a
        quarter of the range in magnitude, at the cost of one more row in the GEMM,
        with no pass over ``Y`` of its own. (This holds for a GEMM that adds products
        one by one, as OpenBLAS does; not for Strassen-like schemes, which the apply
        does not use this for.) Cast to ``dtype`` and cached.
        """
        key = ("sentinel", np.dtype(dtype), transpose)
        if key not in self._cast_cache:
            C = self._apply_pair(dtype, transpose)[1]
            column = np.full((C.shape[0], 1), _SENTINEL, dtype=C.dtype)
            self._cast_cache[key] = np.ascontiguousarray(np.hstack([C, column]))
        return self._cast_cache[key]

    def _apply_signed(self, dtype, transpose: bool) -> np.ndarray:
        """$D A$ for ``A`` of `_apply_factors`: $V Y = D (Y - D A W)$ since $D^2 = I$.

        ``A`` itself when there are no signs. Cast to ``dtype`` and cached.
        """
        A = self._apply_factors(dtype, transpose)[0]
        if not self._has_signs:
            return A
        key = ("signed", np.dtype(dtype), transpose)
        if key not in self._cast_cache:
            self._cast_cache[key] = np.ascontiguousarray(A * self._d.astype(dtype)[:, None])
        return self._cast_cache[key]

    def _prepare(self, Y, name, axis):
        arr = np.asarray(Y)
        if arr.dtype.kind not in "fiu" or arr.dtype == np.float16:
            if arr.dtype.kind == "c":
                raise TypeError(f"{name} must be real, got complex dtype {arr.dtype}")
            if arr.dtype.kind not in "fiub":
                raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
        if arr.dtype != np.float32:
            arr = arr.astype(np.float64, copy=False)
        if arr.ndim not in (1, 2):
            raise ValueError(f"{name} must be 1-D or 2-D, got shape {arr.shape}")
        size = arr.shape[0] if axis == 0 else arr.shape[-1]
        if size != self.n:
            raise ValueError(
                f"shape mismatch: {name} has shape {arr.shape}, which does not match "
                f"the {self.n} x {self.n} HouseholderProduct")
        return arr

    def _apply_q(self, Y, transpose: bool, overwrite: bool = False
                 ) -> tuple[np.ndarray, bool]:
        """$V Y$ (or $V^T Y$) for validated ``Y`` (n first), with whether it is finite.

        ``True`` means proven finite; ``False`` means not proven (the caller
        then checks the result itself). A C- or F-ordered matrix takes the fast
        path: $W = C^T Y$ with $C = B M^T$ (one GEMM over ``Y``), then ``out = D Y``
        written by blocks of rows (C order) or columns (F order) while the bounds
        of each block are read from cache, then ``out -= A W`` by a GEMM that
        accumulates into ``out`` (BLAS ``beta = 1``), so no pass over the ``n x p``
        result follows. That path runs when threadpoolctl is installed and BLAS
        runs one thread (arrays of ``_PARALLEL_COPY_BYTES`` or more run the copy, the
        bounds and the GEMM block by block while each block is in cache,
        `_fused_copy_subtract`), and with ``overwrite``: the output is ``Y`` itself,
        no allocation and no copy, only the bounds pass.

        With BLAS on several threads, when numpy's own OpenBLAS can be called
        (`gsp_householder._numpy_blas`), a result of ``_PARALLEL_COPY_BYTES`` or
        more (signs or not; fresh, or ``Y`` itself with ``overwrite``, written only
        once ``W`` is complete) is made by `_fused_sentinel_apply`: BLAS held to one
        thread, the package's threads (as many as BLAS would use, at most the CPUs
        of the process) compute $W = C_s^T Y$ by chunks of ``Y``, then write each
        cache-sized block of ``D Y`` into ``out`` and run ``out_block -= A_block W``
        (``beta = 1``) while it is in cache (a thread out of chunks copies its next
        blocks while ``W`` is completed). No BLAS thread then waits at a barrier
        for another (OpenBLAS's threads synchronise several times per GEMM, and each
        wait costs a time slice when the cores are shared), the fresh pages are
        written once and by the threads that fault them in, and the result goes to
        memory once. For smaller arrays, with ``overwrite`` or without signs:
        $W = C_s^T Y$, then ``out -= A W`` with ``beta = 1`` on numpy's BLAS, where
        ``out`` is ``Y`` itself (the signs applied to it in place first, if any) or
        a copy of ``Y``. $C_s$ is $C$ with a last column of 16 (`_apply_sentinel`):
        the last row of $W$ is finite only if every entry of ``Y`` is finite and at
        most a quarter of the range, and with the column sums of $|W|$ below half
        the range no entry of the result can overflow.

        Otherwise (BLAS may run several threads) GEMM 2 goes through numpy's BLAS,
        as GEMM 1 does: ``out = (D A) W`` by ``numpy.matmul``, then
        ``out = D (Y - out)`` by blocks on threads. No maximum or minimum is read:
        $W$ finite means ``Y`` is finite (with `_apply_watched`, every row of ``Y``
        enters $W$ through a nonzero factor, and a NaN or inf times a nonzero
        number is not finite), the column sums of $|W|$ below half the range mean
        $(DA) W$ is finite (every $|A_{ik}|$ is at most 1), and then only the
        subtraction can overflow, which numpy reports (`_subtract_flagged`, under
        ``np.errstate(over="raise")``). Where numpy does not report overflow
        (`_overflow_is_reported`), the bounds of each block of the result are read
        instead (`_subtract_from`). numpy and SciPy may each load their own BLAS,
        each with its own threads, and an idle OpenBLAS thread spins for about 0.1 s
        after every call: a GEMM on SciPy's BLAS right after one on numpy's shares a
        core with numpy's spinning thread. One library keeps the apply on the
        threads the caller's own products use.
        """
        d = self._d if Y.dtype == np.float64 else self._d.astype(Y.dtype)
        if self.m == 0:
            if overwrite:
                out = np.multiply(Y, d if Y.ndim == 1 else d[:, None], out=Y) \
                    if self._has_signs else Y
            else:
                out = Y * (d if Y.ndim == 1 else d[:, None]) if self._has_signs else Y.copy()
            return out, False
        c_order = Y.ndim == 2 and Y.flags.c_contiguous
        if Y.ndim == 1 or Y.shape[1] == 0 or not (c_order or Y.flags.f_contiguous):
            A, M, B = self._apply_factors(Y.dtype, transpose)
            W = M @ (B.T @ Y)
            out = A @ W  # the one n x p allocation; the subtraction reuses it
            dY = Y * (d if Y.ndim == 1 else d[:, None]) if self._has_signs else Y
            return np.subtract(dY, out, out=out), False
        dcol = d[:, None] if self._has_signs else None
        threads = blas_threads() if blas_controller() is not None else None
        one_thread = threads == 1
        fresh = not overwrite and dcol is None
        large = Y.nbytes >= _PARALLEL_COPY_BYTES
        if large and threads is not None and threads > 1 and routines() is not None:
            # both GEMMs and the copy on the package's threads, BLAS held to one thread:
            # W by chunks of Y, then out = D Y - A W by blocks that stay in cache (with
            # overwrite, out is Y: no block is written before W is complete)
            A = self._apply_pair(Y.dtype, transpose)[0]
            Cs = self._apply_sentinel(Y.dtype, transpose)
            out = Y if overwrite else np.empty_like(Y)  # same memory order as Y
            W = _fused_sentinel_apply(Y, out, dcol, c_order, A, Cs,
                                      min(threads, _copy_threads()))
            with np.errstate(over="ignore", invalid="ignore"):
                bound = float(np.abs(W[:-1]).sum(axis=0).max())
                finite = bool(np.isfinite(W[-1]).all())
            return out, finite and bound < 0.5 * np.finfo(Y.dtype).max
        if (overwrite or fresh) and not one_thread and routines() is not None:
            # W from Y, then Y -= A W in place (the signs applied to Y first, if any), or a
            # copy of Y (a small array, on the calling thread) and out -= A W: beta = 1 on
            # numpy's BLAS, on the BLAS threads of GEMM 1
            A = self._apply_pair(Y.dtype, transpose)[0]
            W = self._apply_sentinel(Y.dtype, transpose).T @ Y
            if overwrite:
                out = Y
                if dcol is not None:
                    _copy_plain(Y, out, dcol, c_order)
            else:
                out = Y.copy(order="K")
            gemm_update(A, W[:-1], out)
            # the last row finite: every |Y_ij| is at most a quarter of the range; the column
            # sums of |W| below half the range: |(A W)_ij| is too (|A_ik| <= 1)
            with np.errstate(over="ignore", invalid="ignore"):
                bound = float(np.abs(W[:-1]).sum(axis=0).max())
                finite = bool(np.isfinite(W[-1]).all())
            return out, finite and bound < 0.5 * np.finfo(Y.dtype).max
        out = Y if overwrite else np.empty_like(Y)  # same memory order as Y
        if not (overwrite or one_thread):
            # GEMM 2 through numpy, as GEMM 1: one BLAS library, one set of BLAS threads
            signed = self._apply_signed(Y.dtype, transpose)
            if not _overflow_is_reported(Y.dtype):
                W = self._apply_pair(Y.dtype, transpose)[1].T @ Y
                _product_into(signed, W, out, c_order)
                high = _subtract_from(Y, out, dcol, c_order)
                return out, bool(high < np.inf)
            # W (with the sums of the rows C does not see) finite: Y is finite; the column
            # sums of |W| below half the range: (D A) W is finite; then only the
            # subtraction can overflow, and numpy reports it
            W = self._apply_watched(Y.dtype, transpose).T @ Y
            _product_into(signed, W[:signed.shape[1]], out, c_order)
            flagged = _subtract_flagged(Y, out, dcol, c_order)
            with np.errstate(over="ignore", invalid="ignore"):
                bound = float(np.abs(W).sum(axis=0).max())
            return out, bool(not flagged and bound < 0.5 * np.finfo(Y.dtype).max)
        A, C = self._apply_pair(Y.dtype, transpose)
        W = C.T @ Y
        if Y.nbytes >= _PARALLEL_COPY_BYTES and one_thread:
            high = _fused_copy_subtract(Y, out, dcol, c_order, A, W)
        else:
            high = _copy_with_bounds(Y, out, dcol, c_order)
            _subtract_product(A, W, out)
        # |(A W)_ij| <= sum_k |W_kj| since |A_ik| <= 1: no overflow below half the range
        with np.errstate(over="ignore", invalid="ignore"):
            bound = high + float(np.abs(W).sum(axis=0).max())
        return out, bool(bound < 0.5 * np.finfo(Y.dtype).max)

    def matvec(self, Y, *, transpose: bool = False, overwrite_y: bool = False) -> np.ndarray:
        """Return ``V @ Y`` (or ``V.T @ Y``) for ``Y`` of shape ``(n,)`` or ``(n, p)``.

        Parameters
        ----------
        Y : array_like of shape (n,) or (n, p)
            Signals as columns.
        transpose : bool, default False
            Apply $V^T$ instead of $V$.
        overwrite_y : bool, default False
            Allow the result to be written into ``Y`` (as SciPy's ``overwrite_a``):
            when ``Y`` is a writeable float32 or float64 matrix in C or F order, it
            is overwritten and returned, which saves allocating and writing a
            second ``n x p`` array. Otherwise a new array is returned as usual. If
            ``Y`` holds NaN or inf (``ValueError``), its contents are lost too.

        Returns
        -------
        ndarray of the same shape as ``Y``

        Notes
        -----
        For a matrix ``Y`` of 8 MB or more, when the optional ``threadpoolctl`` is
        installed: with BLAS on one thread, the copy of ``Y`` into the result and the
        second GEMM run block by block while each block is in cache; with BLAS on
        several threads and numpy's own BLAS callable directly, a new result is made
        on the package's threads (as many as BLAS uses), with BLAS held to one
        thread for the call (process-wide): ``W`` by chunks of ``Y``, then the copy
        and the second GEMM (``beta = 1``) block by block in cache; with
        ``overwrite_y``, the same into ``Y`` itself once ``W`` is made. Otherwise both
        GEMMs go through numpy's BLAS (the library, and the BLAS threads, of the
        caller's own ``@``): the second accumulates (``beta = 1``) into ``Y`` itself
        with ``overwrite_y``, or into a copy of ``Y`` where numpy's BLAS can be
        called directly; elsewhere the subtraction from ``Y`` is shared out between
        threads by blocks.

        Examples
        --------
        >>> import numpy as np
        >>> from gsp_householder import HouseholderProduct
        >>> V = HouseholderProduct(np.array([[1.0], [1.0]]))
        >>> Y = np.array([[1.0, 2.0], [3.0, 4.0]])
        >>> out = V.matvec(Y, transpose=True, overwrite_y=True)
        >>> out is Y, out.tolist()
        (True, [[-3.0, -4.0], [-1.0, -2.0]])
        """
        arr = Y
        Y = self._prepare(Y, "Y", axis=0)
        overwrite = bool(overwrite_y) and Y is arr and Y.ndim == 2 and Y.flags.writeable \
            and (Y.flags.c_contiguous or Y.flags.f_contiguous)
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked below
            out, finite = self._apply_q(Y, transpose, overwrite)
            if not finite:  # one pass: NaN and inf propagate to the total
                finite = bool(np.isfinite(np.add.reduce(out, axis=None)))
        if not finite and not np.isfinite(out).all():
            if not overwrite and not np.isfinite(Y).all():
                raise_not_finite(Y, "Y")
            if overwrite:
                raise ValueError("Y is not finite, or too large in magnitude for "
                                 f"{Y.dtype}: the result overflows (Y was overwritten)")
            raise ValueError(f"Y is too large in magnitude for {Y.dtype}: applying the "
                             "reflectors overflows; rescale Y or use float64")
        return out

    def rmatvec(self, Y) -> np.ndarray:
        """Return ``Y @ V`` for ``Y`` of shape ``(n,)`` or ``(p, n)``."""
        Y = self._prepare(Y, "Y", axis=-1)
        # Y V = (V^T Y^T)^T
        if Y.ndim == 1:
            return self.matvec(Y, transpose=True)
        return self.matvec(Y.T, transpose=True).T

    def __matmul__(self, other):
        if isinstance(other, HouseholderProduct):
            return self.compose(other)
        if hasattr(other, "toarray") and not isinstance(other, np.ndarray):
            other = other.toarray()
        if _is_dask(other):
            return other.map_blocks(self.matvec, dtype=other.dtype) if other.ndim == 1 \
                else _dask_apply(self, other, transpose=False)
        return self.matvec(other)

    def __rmatmul__(self, other):
        if hasattr(other, "toarray") and not isinstance(other, np.ndarray):
            other = other.toarray()
        return self.rmatvec(other)

    def __array__(self, dtype=None, copy=None):
        dense = self.to_dense()
        return dense if dtype is None else dense.astype(dtype)

    # ------------------------------------------------------------ structure
    @property
    def T(self) -> HouseholderProduct:
        """The transpose $V^T = D H_m \\cdots H_1$, itself a HouseholderProduct.

        Since $D H D = I - 2 (Du)(Du)^T$, $V^T = H(D u_m) \\cdots H(D u_1) D$.
        """
        if self._transpose is None:
            if self._plane is not None and not self._has_signs:
                basis, coef = self._plane
                transpose = HouseholderProduct._trusted_factored(basis, coef[:, ::-1])
            else:
                U = self._U[:, ::-1]
                if self._has_signs:
                    U = U * self._d[:, None]
                transpose = HouseholderProduct._trusted(U, self._d if self._has_signs else None)
            transpose._transpose = self  # (V^T)^T is V: its cached factors are reused
            self._transpose = transpose
        return self._transpose

    def inverse(self) -> HouseholderProduct:
        """The inverse, equal to the transpose since $V$ is orthogonal."""
        return self.T

    def compose(self, other: HouseholderProduct) -> HouseholderProduct:
        """Return ``self @ other`` as one HouseholderProduct with ``m1 + m2`` reflectors.

        With $V_1 = Q_1 D_1$ and $V_2 = Q_2 D_2$,
        $V_1 V_2 = Q_1 (D_1 Q_2 D_1) D_1 D_2$, and $D_1 Q_2 D_1$ is the product of
        the reflectors with vectors $D_1 u$.
        """
        if not isinstance(other, HouseholderProduct):
            raise TypeError(f"other must be a HouseholderProduct, got {type(other).__name__}")
        if other.n != self.n:
            raise ValueError(f"shape mismatch: cannot compose n={self.n} with n={other.n}")
        U2 = other._U * self._d[:, None] if self._has_signs else other._U
        return HouseholderProduct._trusted(np.hstack([self._U, U2]), self._d * other._d)

    @classmethod
    def _trusted(cls, U, d):
        """Build from columns already known to be unit vectors (no re-validation cost).

        ``d=None``: no signs, stored as a read-only broadcast of 1.0 (no memory).
        """
        obj = cls.__new__(cls)
        U = np.ascontiguousarray(U, dtype=np.float64)
        U.setflags(write=False)
        if d is None:
            d = np.broadcast_to(np.float64(1.0), (U.shape[0],))
            obj._has_signs = False
        else:
            d = np.array(d, dtype=np.float64)
            d.setflags(write=False)
            obj._has_signs = bool(np.any(d < 0))
        obj._U_store, obj._d = U, d
        obj._plane = None
        obj._T = None
        obj._transpose = None
        obj._cast_cache = {}
        return obj

    @classmethod
    def _trusted_factored(cls, basis, coef):
        """Reflectors $U = B C$ kept factored: ``basis`` $B$ (n, r) with orthonormal
        columns, ``coef`` $C$ (r, m) with unit columns; no signs. ``U`` is formed only
        when asked for (`vectors`); applying the product costs $O(nrp)$.
        """
        obj = cls._trusted(np.zeros((basis.shape[0], 0)), None)
        basis = np.asarray(basis, dtype=np.float64)  # either memory order
        coef = np.ascontiguousarray(coef, dtype=np.float64)
        basis.setflags(write=False)
        coef.setflags(write=False)
        obj._U_store = None
        obj._plane = (basis, coef)
        return obj

    def reflector(self, i: int) -> HouseholderProduct:
        """The single reflector $H_i$ (0-based ``i``) as a HouseholderProduct."""
        i = check_scalar(i, "i", integer=True)
        if not -self.m <= i < self.m:
            raise IndexError(f"i must be in [0, {self.m}), got {i}")
        return HouseholderProduct._trusted(self._U[:, [i]], None)

    def to_dense(self) -> np.ndarray:
        """The dense $n \\times n$ matrix (costs $O(n^2 m)$ and $O(n^2)$ memory)."""
        return self.matvec(np.eye(self.n))

    def orthogonality_defect(self) -> float:
        """$\\|V^T V - I\\|_F$ computed densely; about machine precision by construction."""
        V = self.to_dense()
        return float(np.linalg.norm(V.T @ V - np.eye(self.n)))

    # --------------------------------------------------------- constructors
    @classmethod
    def identity(cls, n: int) -> HouseholderProduct:
        """The $n \\times n$ identity, with no reflectors."""
        n = check_scalar(n, "n", low=1, low_inclusive=True, integer=True)
        return cls._trusted(np.zeros((n, 0)), None)

    @classmethod
    def from_orthogonal(cls, Q, *, method: str = "qr", atol: float | None = None
                        ) -> HouseholderProduct:
        """Factor an orthogonal matrix exactly into reflectors (and signs).

        Parameters
        ----------
        Q : array_like of shape (n, n)
            An orthogonal matrix.
        method : {"qr", "minimal"}, default "qr"
            ``"qr"``: Householder QR, $Q = H_1 \\cdots H_k D$ with $k \\le n - 1$
            (reflectors whose LAPACK scalar $\\tau$ is zero are dropped) and $D$
            the diagonal of signs of $R$; $O(n^3)$.
            ``"minimal"``: the Cartan–Dieudonné construction, which needs exactly
            $r = \\operatorname{rank}(Q - I)$ reflectors and no signs: while
            $Q \\ne I$, take the column $j$ of $Q - I$ of largest norm and the
            reflector through $w = (Q - I) e_j$, which maps $Q e_j$ to $e_j$ and
            fixes every vector $Q$ already fixes; $O(n^2 r)$.
        atol : float, optional
            Tolerance of the orthogonality check $\\|Q^T Q - I\\|_F$ (default
            $10^{-8} \\sqrt{n}$) and, for ``"minimal"``, of the stopping rule: a
            column of the remaining $Q - I$ shorter than ``atol`` counts as zero
            (default $10^{-12} \\sqrt{n}$, so that the factorisation stays exact;
            pass a larger value to ignore small rotations of a noisy $Q$).

        Returns
        -------
        HouseholderProduct

        Raises
        ------
        ValueError
            If ``Q`` is not square, not finite, or not orthogonal within ``atol``.

        Examples
        --------
        >>> import numpy as np
        >>> from gsp_householder import HouseholderProduct
        >>> Q, _ = np.linalg.qr(np.random.default_rng(0).standard_normal((5, 5)))
        >>> V = HouseholderProduct.from_orthogonal(Q)
        >>> bool(np.allclose(V.to_dense(), Q, atol=1e-12))
        True
        >>> HouseholderProduct.from_orthogonal(np.eye(4), method="minimal").m
        0
        """
        Q = check_real_array(Q, "Q", ndim=2, allow_float32=False)
        n = Q.shape[0]
        if Q.shape != (n, n):
            raise ValueError(f"Q must be square, got shape {Q.shape}")
        rank_tol = 1e-12 * np.sqrt(n) if atol is None else atol
        if atol is None:
            atol = 1e-8 * np.sqrt(n)
        with np.errstate(over="ignore", invalid="ignore"):  # huge entries: infinite defect
            defect = float(np.linalg.norm(Q.T @ Q - np.eye(n)))
        if not defect <= atol:
            defect = defect if np.isfinite(defect) else np.inf
            raise ValueError(
                f"Q must be orthogonal: ||Q^T Q - I||_F = {defect:.3g} exceeds atol = {atol:.3g}")
        if method == "qr":
            return cls._from_orthogonal_qr(Q)
        if method == "minimal":
            return cls._from_orthogonal_minimal(Q, rank_tol)
        raise ValueError(f"method must be 'qr' or 'minimal', got {method!r}")

    @classmethod
    def _from_orthogonal_qr(cls, Q):
        n = Q.shape[0]
        (qr, tau), _r = scipy.linalg.qr(Q, mode="raw")
        keep = []
        vectors = []
        for j in range(min(n, len(tau))):
            if tau[j] == 0.0:
                continue
            v = np.zeros(n)
            v[j] = 1.0
            v[j + 1:] = qr[j + 1:, j]
            vectors.append(v)
            keep.append(j)
        signs = np.sign(np.diag(qr))
        signs[signs == 0] = 1.0
        U = np.column_stack(vectors) if vectors else np.zeros((n, 0))
        return cls(U, signs) if vectors else cls._trusted(U, signs)

    @classmethod
    def _from_orthogonal_minimal(cls, Q, atol):
        n = Q.shape[0]
        A = Q.copy()
        vectors = []
        for _ in range(n):
            R = A - np.eye(n)
            norms = np.linalg.norm(R, axis=0)
            j = int(np.argmax(norms))
            if norms[j] <= atol:
                break
            u = R[:, j] / norms[j]
            A -= 2.0 * np.outer(u, u @ A)
            vectors.append(u)
        U = np.column_stack(vectors) if vectors else np.zeros((n, 0))
        return cls._trusted(U, None)


def _copy_threads() -> int:
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, 4))


def _get_copy_pool(workers: int) -> ThreadPoolExecutor:
    with _copy_pool_lock:
        if workers not in _copy_pool:
            _copy_pool[workers] = ThreadPoolExecutor(
                workers, thread_name_prefix="gsp_householder-apply")
        return _copy_pool[workers]


def _block_bound(block, high: float) -> float:
    """``max(high, max |block|)``, or inf if ``block`` holds a NaN (which numpy's max and
    min propagate and Python's max would drop, hence the explicit comparison)."""
    top, bottom = abs(float(block.max())), abs(float(block.min()))
    if top <= high and bottom <= high:
        return high
    return max(top, bottom) if top == top and bottom == bottom else np.inf


def _copy_block(Y, out, dcol, c_order: bool, sl: slice) -> np.ndarray:
    """The rows (C order) or columns (F order) ``sl`` of ``D Y`` written into ``out``
    (``D = diag(dcol)``, or the identity when ``dcol`` is ``None``; nothing to copy when
    ``out`` is ``Y``); returns that block of ``out``."""
    source, block = (Y[sl], out[sl]) if c_order else (Y[:, sl], out[:, sl])
    if dcol is not None:
        np.multiply(source, dcol[sl] if c_order else dcol, out=block)
    elif out is not Y:
        np.copyto(block, source)
    return block


def _copy_blocks(Y, out, dcol, c_order: bool, step: int, claim, product=None) -> float:
    """Copy and bound the blocks handed out by ``claim()`` (a block index, or ``None``);
    with ``product = (A, W)``, also ``block -= A_block W_block`` while the block is in cache."""
    high = 0.0
    while (index := claim()) is not None:
        sl = slice(index * step, (index + 1) * step)
        block = _copy_block(Y, out, dcol, c_order, sl)
        high = _block_bound(block, high)
        if product is not None:
            A, W = product
            _subtract_product(A[sl] if c_order else A, W if c_order else W[:, sl], block)
    return high


def _blocked_pass(Y, out, dcol, c_order: bool, block_bytes: int, n_threads: int,
                  product=None, last_first: bool = False, worker=None) -> float:
    """`_copy_blocks` (or ``worker``, called with the same arguments but ``product``)
    over blocks of about ``block_bytes``, shared out between ``n_threads`` threads as
    each becomes free; the largest bound of all threads."""
    n, p = Y.shape
    step = max(1, block_bytes // max(1, (p if c_order else n) * Y.itemsize))
    blocks = -(-(n if c_order else p) // step)
    if worker is None:
        def worker(*args):
            return _copy_blocks(*args, product)
    highs = _shared_claims(blocks, n_threads,
                           lambda claim: worker(Y, out, dcol, c_order, step, claim), last_first)
    return max(highs)  # each thread's bound is inf if its blocks were not finite


def _shared_claims(count: int, n_threads: int, work, last_first: bool = False) -> list:
    """``work(claim)`` on ``n_threads`` threads (the calling one and the package's pool),
    ``claim()`` handing out ``0, ..., count - 1`` (last first if asked) as each thread
    becomes free, then ``None``; the threads' results."""
    counter = iter(range(count - 1, -1, -1) if last_first else range(count))
    lock = threading.Lock()

    def claim():
        with lock:
            return next(counter, None)

    return _on_threads(min(n_threads, count), lambda: work(claim))


def _on_threads(n_threads: int, work) -> list:
    """``work()`` once on each of ``n_threads`` threads (the calling one and the
    package's pool); their results, the calling thread's first. The pool's calls are
    waited for even when the calling thread's raises."""
    n_threads = max(1, n_threads)
    if n_threads == 1:
        return [work()]
    futures = [_get_copy_pool(n_threads - 1).submit(work) for _ in range(n_threads - 1)]
    try:
        results = [work()]
    finally:
        results_of_pool = [future.result() for future in futures]
    return results + results_of_pool


def _copy_with_bounds(Y, out, dcol, c_order: bool, n_threads: int | None = None) -> float:
    """Write ``D Y`` into ``out`` by cache-sized blocks; return ``max |Y|`` (inf if not finite).

    Internal: ``Y`` (n, p) is validated and C- or F-ordered, ``out`` has its shape
    and memory order (``out`` may be ``Y`` itself: then only the signs are applied),
    ``dcol`` is the ``(n, 1)`` sign column or ``None``. Blocks of rows (C order) or
    of columns (F order) of about ``_APPLY_BLOCK_BYTES`` are copied, and their
    largest and smallest entries are read while they are in cache (numpy's own
    reductions: a BLAS call per block would wake BLAS's threads once per block).
    Arrays of ``_PARALLEL_COPY_BYTES`` or more are shared out between threads
    (default: the CPUs this process may use, at most 4), block by block as each
    thread becomes free (numpy releases the GIL in the copy and the reductions).
    """
    if n_threads is None:
        n_threads = _copy_threads() if Y.nbytes >= _PARALLEL_COPY_BYTES else 1
    return _blocked_pass(Y, out, dcol, c_order, _APPLY_BLOCK_BYTES, n_threads)


def _copy_plain_blocks(Y, out, dcol, c_order: bool, step: int, claim) -> float:
    """Write ``D Y`` into the blocks handed out by ``claim()``; 0."""
    while (index := claim()) is not None:
        _copy_block(Y, out, dcol, c_order, slice(index * step, (index + 1) * step))
    return 0.0


def _copy_plain(Y, out, dcol, c_order: bool, n_threads: int | None = None) -> None:
    """Write ``D Y`` into ``out`` by blocks of ``_APPLY_BLOCK_BYTES``, no bound read.

    Internal: arguments as in `_copy_with_bounds`. Arrays of ``_PARALLEL_COPY_BYTES``
    or more are shared out between threads (default: the CPUs this process may use,
    at most 4), block by block as each thread becomes free.
    """
    if n_threads is None:
        n_threads = _copy_threads() if Y.nbytes >= _PARALLEL_COPY_BYTES else 1
    _blocked_pass(Y, out, dcol, c_order, _APPLY_BLOCK_BYTES, n_threads,
                  worker=_copy_plain_blocks)


def _fused_copy_subtract(Y, out, dcol, c_order: bool, A, W, n_threads: int = 1) -> float:
    """``out = D Y - A W`` block by block; return ``max |Y|`` (inf if not finite).

    Internal: arguments as in `_copy_with_bounds` and `_subtract_product`. Each
    block of rows (C order) or columns (F order) of about ``_FUSED_BLOCK_BYTES``
    is copied from ``Y``, its bounds are read, and ``out_block -= A_block W`` runs
    as one BLAS GEMM with ``beta = 1``, all while the block is in cache: the
    result is written to memory once, instead of once by the copy and again by a
    GEMM over the whole array. The blocks are taken last first: the GEMM that
    made ``W`` read ``Y`` first to last, so the last blocks are still in the
    shared cache. The apply runs it with BLAS on one thread and ``n_threads = 1``;
    with more threads, each takes blocks as it becomes free and BLAS is held to one
    thread for the pass (`one_blas_thread`, process-wide). Every entry of the result
    comes from the same BLAS kernel call on the same data whatever the number of
    threads.
    """
    if n_threads == 1:
        return _blocked_pass(Y, out, dcol, c_order, _FUSED_BLOCK_BYTES, 1, (A, W), True)
    with one_blas_thread():
        return _blocked_pass(Y, out, dcol, c_order, _FUSED_BLOCK_BYTES, n_threads, (A, W),
                             True)


def _fused_sentinel_apply(Y, out, dcol, c_order: bool, A, Cs, n_threads: int) -> np.ndarray:
    """``out = D Y - A W[:-1]`` with ``W = Cs^T Y``, on ``n_threads`` threads; return ``W``.

    Internal: ``Y`` (n, p) is validated and C- or F-ordered, ``out`` is fresh memory of
    its shape and order or ``Y`` itself, ``dcol`` the ``(n, 1)`` sign column or ``None``,
    ``A`` (n, m) and ``Cs`` (n, m + 1) are the cast factors of `_apply_pair` and
    `_apply_sentinel`, and numpy's BLAS can be called (`gsp_householder._numpy_blas`).
    Every BLAS call is made on a thread of the package with BLAS held to one thread
    (`one_blas_thread`, process-wide), so no BLAS thread waits for another. Each thread
    (the calling one and those of the package's pool, handed their work once per call)
    first takes chunks of about ``_GEMM1_CHUNK_BYTES`` of ``Y`` (rows in C order, whose
    partial products are added in a fixed order by the thread that finishes the last
    one; columns in F order) for ``W``, then blocks of about ``_FUSED_BLOCK_BYTES`` of
    rows (C order) or columns (F order), last first: the block of ``D Y`` is written
    into ``out`` and ``out_block -= A_block W`` runs as one GEMM with ``beta = 1`` while
    the block is in cache, so the result is written to memory once. A thread that runs
    out of chunks while another still computes one copies its next blocks meanwhile and
    runs their GEMMs once ``W`` is complete, so no thread waits between the two halves
    (when ``out`` is ``Y`` itself, every block waits for ``W``). The chunks and blocks
    depend on the shapes only, and every block goes through the same copy and the same
    GEMM call, so every thread count gives the same bits.
    """
    n, p = Y.shape
    line = (p if c_order else n) * Y.itemsize  # bytes of one row (C) or column (F)
    step = max(1, _GEMM1_CHUNK_BYTES // line)
    chunks = -(-(n if c_order else p) // step)
    block = max(1, _FUSED_BLOCK_BYTES // line)
    blocks = -(-(n if c_order else p) // block)
    lock = threading.Lock()
    chunk_order, block_order = iter(range(chunks)), iter(range(blocks - 1, -1, -1))
    state = {"done": 0, "W": None, "failed": False}
    ready = threading.Event()
    early = out is not Y  # the copy may start before W is complete: it leaves Y alone
    parts: list = [None] * chunks
    full = None if c_order else np.empty((Cs.shape[1], p), dtype=Y.dtype)

    def claim(order):
        with lock:
            return next(order, None)

    def chunk(i):
        sl = slice(i * step, (i + 1) * step)
        if c_order:
            parts[i] = Cs[sl].T @ Y[sl]
        else:
            np.matmul(Cs.T, Y[:, sl], out=full[:, sl])
        with lock:
            state["done"] += 1
            last = state["done"] == chunks
        if last:
            W = full
            if c_order:
                W = parts[0]
                for part in parts[1:]:
                    W += part
            state["W"] = W
            ready.set()

    def copy(j):
        _copy_block(Y, out, dcol, c_order, slice(j * block, (j + 1) * block))

    def subtract(j, W):
        sl = slice(j * block, (j + 1) * block)
        if c_order:
            gemm_update(A[sl], W, out[sl])
        else:
            gemm_update(A, W[:, sl], out[:, sl])

    def work():
        # numpy's error state is per thread: the pool's threads ignore overflow and NaN
        # as the caller does (the sentinel row of W reports them)
        with np.errstate(over="ignore", invalid="ignore"):
            _work()

    def _work():
        try:
            while (i := claim(chunk_order)) is not None:
                chunk(i)
        except BaseException:
            state["failed"] = True
            ready.set()  # the other threads stop waiting for W
            raise
        pending = []
        while (j := claim(block_order)) is not None:
            if not (early or ready.is_set()):
                ready.wait()
            if state["failed"]:
                return
            copy(j)
            pending.append(j)
            if ready.is_set():
                W = state["W"][:-1]
                for k in pending:
                    subtract(k, W)
                pending = []
        if pending:
            ready.wait()
            if state["W"] is not None:
                W = state["W"][:-1]
                for k in pending:
                    subtract(k, W)

    with one_blas_thread():
        _on_threads(min(n_threads, blocks), work)
    return state["W"]


def _product_into(A, W, out, c_order: bool) -> None:
    """``out = A @ W`` by ``numpy.matmul`` (numpy's BLAS, ``beta = 0``), ``out`` C or F
    ordered; for F order the transpose ``out^T = W^T A^T`` is the C-ordered product."""
    if c_order:
        np.matmul(A, W, out=out)
    else:
        np.matmul(W.T, A.T, out=out.T)


def _subtract_blocks(Y, out, dcol, c_order: bool, step: int, claim) -> float:
    """``out = D (Y - out)`` on the blocks handed out by ``claim()``; the largest
    ``|entry|`` of the result (inf if one is not finite)."""
    high = 0.0
    while (index := claim()) is not None:
        sl = slice(index * step, (index + 1) * step)
        source, block = (Y[sl], out[sl]) if c_order else (Y[:, sl], out[:, sl])
        np.subtract(source, block, out=block)
        if dcol is not None:
            np.multiply(block, dcol[sl] if c_order else dcol, out=block)
        high = _block_bound(block, high)
    return high


def _subtract_from(Y, out, dcol, c_order: bool, n_threads: int | None = None) -> float:
    """``out = D (Y - out)`` by blocks of ``_APPLY_BLOCK_BYTES``; ``max |result|`` (inf if
    the result is not finite).

    Internal: arguments as in `_copy_with_bounds`; ``out`` holds ``(D A) W``. The
    bounds are read from each block of the result while it is in cache, so a NaN or
    inf anywhere in the result shows as an infinite bound. Arrays of
    ``_PARALLEL_COPY_BYTES`` or more are shared out between threads, block by block
    as each thread becomes free (a thread that shares its core with a spinning BLAS
    thread takes fewer blocks); no BLAS call is made.
    """
    if n_threads is None:
        n_threads = _copy_threads() if Y.nbytes >= _PARALLEL_COPY_BYTES else 1
    return _blocked_pass(Y, out, dcol, c_order, _APPLY_BLOCK_BYTES, n_threads,
                         worker=_subtract_blocks)


def _subtract_flagged_blocks(Y, out, dcol, c_order: bool, step: int, claim) -> float:
    """``out = D (Y - out)`` on the blocks handed out by ``claim()``; inf if numpy reported
    an overflow or an invalid operation in a subtraction, else 0."""
    flagged = False
    with np.errstate(over="raise", invalid="raise", under="ignore", divide="ignore"):
        while (index := claim()) is not None:
            sl = slice(index * step, (index + 1) * step)
            source, block = (Y[sl], out[sl]) if c_order else (Y[:, sl], out[:, sl])
            try:
                np.subtract(source, block, out=block)
            except FloatingPointError:  # numpy raises after the loop: the block is written
                flagged = True
            if dcol is not None:
                np.multiply(block, dcol[sl] if c_order else dcol, out=block)
    return np.inf if flagged else 0.0


def _subtract_flagged(Y, out, dcol, c_order: bool, n_threads: int | None = None) -> bool:
    """``out = D (Y - out)`` by blocks of ``_APPLY_BLOCK_BYTES``; whether numpy reported
    an overflow (or an invalid operation) in any subtraction.

    Internal: arguments as in `_subtract_from`, which this pass replaces where
    numpy reports overflow (`_overflow_is_reported`): no maximum or minimum is read,
    so finite ``Y`` and finite ``out`` give a finite result unless this returns
    ``True``. A NaN or inf already in ``Y`` or ``out`` raises no flag: the caller
    proves those finite on its own.
    """
    if n_threads is None:
        n_threads = _copy_threads() if Y.nbytes >= _PARALLEL_COPY_BYTES else 1
    return _blocked_pass(Y, out, dcol, c_order, _APPLY_BLOCK_BYTES, n_threads,
                         worker=_subtract_flagged_blocks) == np.inf


_overflow_reported: dict = {}


def _overflow_is_reported(dtype) -> bool:
    """Whether numpy raises ``FloatingPointError`` for an overflow in ``np.subtract`` on
    ``dtype`` arrays under ``np.errstate(over="raise")``.

    Checked once per dtype, with one overflowing entry at the start, inside and at the
    end of an array long enough for numpy's vector loops and their remainders;
    platforms without floating-point exception flags do not report it.
    """
    key = np.dtype(dtype)
    if key not in _overflow_reported:
        big = np.finfo(key).max
        reported = True
        for i in (0, 17, 36):
            high, low = np.zeros(37, dtype=key), np.zeros(37, dtype=key)
            high[i], low[i] = big, -big
            try:
                with np.errstate(over="raise"):
                    np.subtract(high, low, out=low)
                reported = False
            except FloatingPointError:
                pass
        _overflow_reported[key] = reported
    return _overflow_reported[key]


def _subtract_product(A, W, out) -> None:
    """``out -= A @ W`` in place by one BLAS GEMM with ``beta = 1``; ``out`` C or F ordered.

    ``A`` (n, m) and ``W`` (m, p) are small beside ``out`` (n, p); no temporary of
    the size of ``out`` is made (numpy's ``matmul`` has no ``beta``).
    """
    gemm = scipy.linalg.blas.get_blas_funcs("gemm", (out,))
    a_c = A.flags.c_contiguous
    if out.flags.f_contiguous:  # out = -A W + out
        res = gemm(-1.0, A.T if a_c else A, W.T, trans_a=int(a_c), trans_b=1, beta=1.0,
                   c=out, overwrite_c=1)
        target = out
    else:  # out^T (F-ordered) = -W^T A^T + out^T
        res = gemm(-1.0, W.T, A.T if a_c else A, trans_b=int(not a_c), beta=1.0,
                   c=out.T, overwrite_c=1)
        target = out.T
    if res.ctypes.data != target.ctypes.data:  # the BLAS wrapper worked on a copy
        np.copyto(target, res)


def _is_dask(x) -> bool:
    return type(x).__module__.startswith("dask")


def _dask_apply(V: HouseholderProduct, Y, *, transpose: bool):
    """Apply ``V`` (or ``V.T``) to a dask array chunked along columns only."""
    Y = Y.rechunk({0: -1})
    return Y.map_blocks(lambda block: V.matvec(block, transpose=transpose), dtype=Y.dtype)

