"""Progress bars of the iterative learners (tqdm on stderr)."""

from __future__ import annotations

import sys

#: Floating-point work above which ``progress=None`` shows a bar on a terminal (a few
#: seconds of BLAS).
LONG_RUN = 5e9


def progress_bar(progress: bool | None, work: float, desc: str, unit: str = "step",
                 long_run: float = LONG_RUN):
    """A tqdm bar without total, or None.

    ``progress=None`` shows it only when stderr is a terminal and ``work`` (by
    default the floating-point operations of a few iterations) is at least
    ``long_run``.
    """
    if progress is None:
        progress = sys.stderr.isatty() and work >= long_run
    if not progress:
        return None
    from tqdm.auto import tqdm

    return tqdm(desc=desc, unit=unit, leave=False)
