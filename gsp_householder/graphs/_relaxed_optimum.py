"""A small relaxation whose optimum is its max-margin program's.

``valid_in_span`` first solves small relaxations of a max-margin program (a few pair
rows, ``_certified``), which prove most failing programs below the floor. When they do
not, the last one's optimum may already satisfy every pair row of the program: a
relaxation's optimum that is feasible for the whole program is optimal for it, and if it
is the relaxation's only optimum it is the program's only optimum too (an optimum of the
program is feasible for the relaxation at the same value). The cutting-plane rounds
would then end at that vertex: their last relaxation's optimum satisfies every row, so
it is an optimum of the program. This module tells such a relaxation
(``relaxation_optimum``); the rounds are not solved for the answer, only later, when
another program of the same span needs the rows they keep (``valid_in_span``'s
``cache``, see ``DEFERRED``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.graphs._dense_lp import WarmProgram

#: Key of ``valid_in_span``'s ``cache`` holding the floor of a max-margin program
#: answered by its relaxation (``relaxation_optimum``) whose cutting-plane rounds were
#: not solved: a later program of the cache solves them first, so that it starts from
#: the rows they keep, as it would have.
DEFERRED = "deferred_rounds"
#: Relative level above which a pair row counts as violated (that of the cutting-plane
#: rounds of ``valid_in_span``: the same rows end them).
VIOLATION_LEVEL = 1e-9


def relaxation_optimum(program: WarmProgram, x, rows, H, h, live) -> np.ndarray | None:
    """The solution ``x`` of the relaxation ``program`` (its last solve, optimal) when
    it is the max-margin program's only optimum, else None.

    ``rows`` are the indices (among the hint pairs) of the pair rows the relaxation
    holds; ``H``, ``h`` the program's pair rows $H y \\le h$ (those of the hint pairs
    that do not vanish on the span, ``live``), $y$ = ``x[:-1]``. Required: no pair row
    outside the relaxation exceeds its bound by more than ``VIOLATION_LEVEL`` times the
    largest $|H y|$ (at least 1), the level at which the cutting-plane rounds stop
    adding rows, and the relaxation's optimum is unique
    (``WarmProgram.unique_optimum``).

    Examples
    --------
    Maximise $t$ subject to $t \\le y$ and the pair row $y \\le 1$ held by the relaxation
    (variables $(y, t)$); the program has a second pair row $2 y \\le$ ``h[1]``:

    >>> import numpy as np
    >>> from gsp_householder.graphs._dense_lp import WarmProgram
    >>> program = WarmProgram(np.array([[-1.0, 1.0]]), np.zeros(1), np.zeros((0, 2)),
    ...                       np.zeros(0), np.zeros(2), np.full(2, 2.0))
    >>> program.add_rows(np.array([[1.0, 0.0]]), np.array([1.0]))
    >>> status, x = program.solve(np.array([0.0, -1.0]))
    >>> H, live = np.array([[1.0], [2.0]]), np.array([True, True])
    >>> relaxation_optimum(program, x, np.array([0]), H, np.array([1.0, 2.5]), live)
    array([1., 1.])
    >>> relaxation_optimum(program, x, np.array([0]), H, np.array([1.0, 1.5]), live) is None
    True
    """
    Hy = H @ x[:-1]
    level = VIOLATION_LEVEL * max(float(np.abs(Hy).max(initial=0.0)), 1.0)
    excess = Hy - h
    held = np.asarray(rows, dtype=np.intp)
    held = held[live[held]]
    excess[(np.cumsum(live) - 1)[held]] = 0.0
    if np.any(excess > level):
        return None
    return x if program.unique_optimum() else None
