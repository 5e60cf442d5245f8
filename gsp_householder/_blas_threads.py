"""Hold BLAS to one thread while this package runs its own threads over small BLAS calls.

A pass that splits an array into cache-sized blocks and hands them to several
Python threads, each block going through one small BLAS call, needs every call
to run on its calling thread: a threaded BLAS call per block wakes BLAS's
threads, which then compete with the Python threads for the same cores
(measured: 9 times slower on two cores). OpenBLAS's thread count is
process-wide, so `one_blas_thread` sets it to one through the optional
``threadpoolctl`` package for the duration of the pass and restores it after;
nested and concurrent passes share one limit (a counter), so the first to enter
sets it and the last to leave restores it. Without ``threadpoolctl``,
`blas_controller` returns ``None`` and callers keep their unblocked path.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["blas_controller", "blas_threads", "one_blas_thread"]

_lock = threading.Lock()
_state: dict = {"controller": None, "loaded": False, "count": 0, "limiter": None}


def blas_controller():
    """The process's ``threadpoolctl.ThreadpoolController`` for BLAS, or ``None``.

    Built once (it inspects the loaded libraries, about 10 ms).

    Examples
    --------
    >>> from gsp_householder._blas_threads import blas_controller
    >>> controller = blas_controller()
    >>> controller is None or hasattr(controller, "limit")
    True
    """
    with _lock:
        if not _state["loaded"]:
            try:
                from threadpoolctl import ThreadpoolController
            except ImportError:
                controller = None
            else:
                controller = ThreadpoolController().select(user_api="blas")
                if not controller.lib_controllers:
                    controller = None
            _state["controller"], _state["loaded"] = controller, True
        return _state["controller"]


def blas_threads() -> int | None:
    """Threads the loaded BLAS libraries use now (the largest), ``None`` if unknown.

    Inside a `one_blas_thread` block (of any thread of the process) this is 1.

    Examples
    --------
    >>> from gsp_householder._blas_threads import blas_threads
    >>> threads = blas_threads()
    >>> threads is None or threads >= 1
    True
    """
    controller = blas_controller()
    if controller is None:
        return None
    return max(lib.get_num_threads() for lib in controller.lib_controllers)


@contextmanager
def one_blas_thread() -> Iterator[None]:
    """Run the ``with`` block with every BLAS library held to one thread.

    Needs ``threadpoolctl`` (`blas_controller` not ``None``). Process-wide: BLAS
    calls made meanwhile by other threads of the process run on one thread too.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder._blas_threads import blas_controller, one_blas_thread
    >>> if blas_controller() is not None:
    ...     with one_blas_thread():
    ...         product = np.ones((2, 2)) @ np.ones((2, 2))
    """
    controller = blas_controller()
    if controller is None:
        raise RuntimeError("one_blas_thread needs the optional threadpoolctl package")
    with _lock:
        if _state["count"] == 0:
            _state["limiter"] = controller.limit(limits=1)
        _state["count"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["count"] -= 1
            if _state["count"] == 0:
                _state["limiter"].restore_original_limits()
                _state["limiter"] = None
