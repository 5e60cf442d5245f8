"""``C -= A @ B`` (GEMM, ``beta = 1``) and ``Y += X`` (AXPY) on numpy's own OpenBLAS.

numpy's ``matmul`` has no ``beta``, so ``Y - A @ B`` costs a GEMM into a temporary
(which BLAS first zeroes) and a pass that subtracts it. SciPy's ``gemm`` has
``beta``, but SciPy's wheels bring their own OpenBLAS with its own worker threads,
and an idle OpenBLAS worker spins for about 0.1 s after every call: a threaded GEMM
on SciPy's library right after one on numpy's shares a core with numpy's spinning
worker. Called on the library numpy itself uses, the update runs on the BLAS
threads of the caller's own ``@``. OpenBLAS's AXPY runs on those threads too, so a
pass over two large arrays needs no threads of its own.

The library is the OpenBLAS that threadpoolctl reports (optional) inside numpy's
wheel (``numpy.libs`` or ``numpy/.dylibs``), or the only BLAS library of the
process. Symbols with and without the ``scipy_`` prefix and the ``64_`` suffix of
the 64-bit-integer builds are tried, the integer width comes from
``openblas_get_config`` (``USE64BITINT``), and small products of every layout are
checked against numpy's once before the routine is used. When any of this fails,
`routines` returns ``None`` and callers keep their numpy path.
"""

from __future__ import annotations

import ctypes
import os
import threading

import numpy as np

from gsp_householder._blas_threads import blas_controller

__all__ = ["add_into", "gemm_update", "routines"]

_ROW_MAJOR, _COL_MAJOR, _NO_TRANS, _TRANS = 101, 102, 111, 112
_lock = threading.Lock()
_state: dict = {"loaded": False, "routines": None, "axpy": None}
_AXPY_CHUNK = 1 << 30  # entries per AXPY call: below the range of 32-bit BLAS integers


def _numpy_blas_path() -> str | None:
    """The file of the OpenBLAS that numpy uses, or ``None`` if it cannot be told."""
    controller = blas_controller()
    if controller is None:
        return None
    libs = [lib for lib in controller.lib_controllers if lib.internal_api == "openblas"]
    root = os.path.dirname(os.path.realpath(np.__file__))
    own = {os.path.join(os.path.dirname(root), "numpy.libs"), os.path.join(root, ".dylibs")}
    for lib in libs:
        if os.path.dirname(os.path.realpath(lib.filepath)) in own:
            return lib.filepath
    paths = {os.path.realpath(lib.filepath) for lib in controller.lib_controllers}
    return libs[0].filepath if libs and len(paths) == 1 else None


def _bind(path: str) -> tuple[dict, dict] | None:
    """``({dtype: gemm}, {dtype: axpy})``: the CBLAS routines of the library at ``path``."""
    try:
        lib = ctypes.CDLL(path)
    except OSError:
        return None
    for prefix in ("scipy_", ""):
        for suffix in ("64_", ""):
            try:
                config = getattr(lib, f"{prefix}openblas_get_config{suffix}")
                found = {np.dtype(dtype): getattr(lib, f"{prefix}cblas_{c}gemm{suffix}")
                         for dtype, c in ((np.float64, "d"), (np.float32, "s"))}
                axpy = {np.dtype(dtype): getattr(lib, f"{prefix}cblas_{c}axpy{suffix}")
                        for dtype, c in ((np.float64, "d"), (np.float32, "s"))}
            except AttributeError:
                continue
            config.restype, config.argtypes = ctypes.c_char_p, []
            integer = ctypes.c_int64 if b"USE64BITINT" in (config() or b"") else ctypes.c_int32
            for dtype, gemm in found.items():
                scalar = ctypes.c_double if dtype == np.float64 else ctypes.c_float
                gemm.restype = None
                gemm.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int, integer, integer,
                                 integer, scalar, ctypes.c_void_p, integer, ctypes.c_void_p,
                                 integer, scalar, ctypes.c_void_p, integer]
                axpy[dtype].restype = None
                axpy[dtype].argtypes = [integer, scalar, ctypes.c_void_p, integer,
                                        ctypes.c_void_p, integer]
            return found, axpy
    return None


def _layout(x) -> tuple[bool, int] | None:
    """``(row_major, leading dimension)`` of a 2-D array as BLAS sees it, or ``None``.

    A BLAS matrix has unit stride along one axis and, along the other, a multiple of
    the item size that covers the first axis: a C- or F-ordered array, or a block of
    its rows or columns. Axes of length one take any stride.
    """
    rows, cols = x.shape
    step = x.itemsize
    row_stride, col_stride = x.strides
    if cols <= 1 or col_stride == step:
        ld = row_stride // step if rows > 1 else max(1, cols)
        if rows <= 1 or (row_stride % step == 0 and ld >= max(1, cols)):
            return True, max(1, ld)
    if rows <= 1 or row_stride == step:
        ld = col_stride // step if cols > 1 else max(1, rows)
        if cols <= 1 or (col_stride % step == 0 and ld >= max(1, rows)):
            return False, max(1, ld)
    return None


def _gemm(found: dict, A, B, C) -> None:
    """``C -= A @ B`` for arrays of one dtype that `_layout` accepts."""
    M, K = A.shape
    N = B.shape[1]
    if M == 0 or N == 0 or K == 0:
        return
    (a_rows, lda), (b_rows, ldb), (c_rows, ldc) = (_layout(x) for x in (A, B, C))
    # in C's own order, an operand stored in the other order is its transpose
    trans_a = _NO_TRANS if a_rows == c_rows else _TRANS
    trans_b = _NO_TRANS if b_rows == c_rows else _TRANS
    found[C.dtype](_ROW_MAJOR if c_rows else _COL_MAJOR, trans_a, trans_b, M, N, K, -1.0,
                      A.ctypes.data, lda, B.ctypes.data, ldb, 1.0, C.ctypes.data, ldc)


def _add(axpy: dict, X, Y) -> None:
    """``Y += X`` for arrays of one dtype and shape, contiguous in the same memory order."""
    if X.shape != Y.shape or not ((X.flags.c_contiguous and Y.flags.c_contiguous)
                                  or (X.flags.f_contiguous and Y.flags.f_contiguous)):
        raise ValueError("X and Y must have one shape and one memory order")
    step = X.itemsize
    for start in range(0, X.size, _AXPY_CHUNK):
        count = min(_AXPY_CHUNK, X.size - start)
        axpy[Y.dtype](count, 1.0, X.ctypes.data + start * step, 1,
                      Y.ctypes.data + start * step, 1)


def _works(found: dict, axpy: dict) -> bool:
    """Whether the bound routines give numpy's results on small cases of every layout."""
    rng = np.random.default_rng(0)
    for dtype in (np.float64, np.float32):
        for order in "CF":
            X = np.asarray(rng.standard_normal((5, 7)), dtype=dtype, order=order)
            Y = np.asarray(rng.standard_normal((5, 7)), dtype=dtype, order=order)
            expected = X + Y
            _add(axpy, X, Y)
            if not np.array_equal(Y, expected):
                return False
    for dtype, tol in ((np.float64, 1e-12), (np.float32, 1e-4)):
        for order_a, order_b, order_c in ((a, b, c) for a in "CF" for b in "CF" for c in "CF"):
            # blocks of larger arrays: leading dimensions beyond the blocks' own sizes
            A = np.asarray(rng.standard_normal((7, 3)), dtype=dtype, order=order_a)[1:6]
            B = np.asarray(rng.standard_normal((3, 6)), dtype=dtype, order=order_b)[:, 2:]
            C = np.asarray(rng.standard_normal((5, 4)), dtype=dtype, order=order_c)
            expected = C.astype(np.float64) - A.astype(np.float64) @ B.astype(np.float64)
            _gemm(found, A, B, C)
            if not np.allclose(C, expected, rtol=0.0, atol=tol):
                return False
    return True


def routines() -> dict | None:
    """``{dtype: gemm}`` for float64 and float32 (the CBLAS functions of numpy's
    OpenBLAS, bound by ctypes, which releases the GIL), or ``None`` when they, or the
    AXPY routines of `add_into`, cannot be found or do not check out. Found and checked
    once, then cached.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder._numpy_blas import routines
    >>> found = routines()
    >>> found is None or set(found) == {np.dtype(np.float64), np.dtype(np.float32)}
    True
    """
    with _lock:
        if not _state["loaded"]:
            path = _numpy_blas_path()
            bound = _bind(path) if path is not None else None
            if bound is not None and not _works(*bound):
                bound = None
            _state["routines"], _state["axpy"] = bound if bound is not None else (None, None)
            _state["loaded"] = True
        return _state["routines"]


def gemm_update(A, B, C) -> None:
    """``C -= A @ B`` in place by one GEMM with ``beta = 1`` on numpy's BLAS.

    Internal: `routines` is not ``None``; ``A`` (M, K), ``B`` (K, N) and ``C``
    (M, N) share a dtype (float32 or float64), are aligned BLAS matrices (C- or
    F-ordered, or blocks of rows or columns of such arrays), ``C`` is writeable and
    overlaps neither ``A`` nor ``B``. Runs on as many threads as numpy's ``@``.
    """
    _gemm(routines(), A, B, C)



def add_into(X, Y) -> None:
    """``Y += X`` in place by AXPY on numpy's BLAS (on as many threads as numpy's ``@``).

    Internal: `routines` is not ``None``; ``X`` and ``Y`` share a dtype (float32 or
    float64) and a shape, are both C-contiguous or both F-contiguous, ``Y`` is
    writeable and does not overlap ``X``. Each entry is ``Y_ij + X_ij``, rounded once.
    """
    routines()
    _add(_state["axpy"], X, Y)
