"""Cold linear programs of one inference, each solved once.

A cold solve (``_dense_lp.solve``: a fresh HiGHS model, presolved, then confirmed
without presolve when found infeasible) is a function of its arrays alone: HiGHS's
simplex runs on one thread and takes the same path on the same model. The searches of
one inference pose the same program more than once: on the exact eigenvectors of Les
Misérables with its normalized Laplacian, the searches at the largest noise estimate
are made again with the truncated families searched too (``search_truncated``), and
their seeds and first candidates repeat whole sequences of programs (200 of 601 cold
solves; the row takes 29 CPU s instead of 32). While ``remembered_programs`` is
active, each program's answer is kept under a digest of its arrays and returned again,
a copy of the same numbers, when the same program comes back.

Warm programs (``_dense_lp.WarmProgram``) are not remembered: their answers depend on the
basis they start from. Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
from collections import OrderedDict

import numpy as np

#: Most answers one inference keeps (the least recently used are dropped): a few
#: thousand cold programs at most are solved in an inference below 1000 nodes.
MAX_PROGRAMS = 4096

_memo: contextvars.ContextVar = contextvars.ContextVar("program_memo", default=None)


def program_key(arrays, flags) -> bytes:
    """A 32-byte digest of the shapes and float64 bytes of ``arrays`` (in order) and of
    the tuple ``flags``: equal for the same program, and two different programs share
    one with probability about $2^{-256}$."""
    digest = hashlib.blake2b(digest_size=32)
    digest.update(repr(flags).encode())
    for a in arrays:
        a = np.ascontiguousarray(a, dtype=np.float64)
        digest.update(repr(a.shape).encode())
        digest.update(a.reshape(-1))  # the same bytes as ``a.tobytes()``, uncopied
    return digest.digest()


@contextlib.contextmanager
def remembered_programs():
    """Keep the answers of the cold programs solved inside the block (``solved_once``);
    a block inside another one shares its record."""
    if _memo.get() is not None:
        yield
        return
    token = _memo.set(OrderedDict())
    try:
        yield
    finally:
        _memo.reset(token)


def solved_once(arrays, flags, solve):
    """``solve()``, a ``(status, x)`` pair, or the pair kept for the same ``arrays`` and
    ``flags`` inside ``remembered_programs`` (``x`` copied, or None). Outside such a
    block, ``solve()``."""
    record = _memo.get()
    if record is None:
        return solve()
    key = program_key(arrays, flags)
    if key in record:
        record.move_to_end(key)
        status, x = record[key]
        return status, (None if x is None else x.copy())
    status, x = solve()
    record[key] = (status, None if x is None else np.array(x, dtype=np.float64))
    while len(record) > MAX_PROGRAMS:
        record.popitem(last=False)
    return status, x
