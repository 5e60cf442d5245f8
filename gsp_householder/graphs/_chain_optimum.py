"""A max-margin program answered by the last small relaxation of its certificate chain.

Before the cutting-plane rounds of a max-margin program (``_template_lp.valid_in_span``),
a chain of small relaxations (``_template_lp._certified``) adds, a few at a time, the
pair rows most violated at each relaxation's optimum, to prove the program's margin
below the floor. On a program that holds a valid Laplacian the chain often ends at a
relaxation whose optimum violates no pair row of the program: that optimum is then
feasible for the whole program and optimal for a relaxation of it, so it is optimal for
the program, and the program's only optimum when it is the relaxation's only one
(``_dense_lp.WarmProgram.unique_optimum``: the program's feasible set lies in the
relaxation's). The cutting-plane rounds (a first round of ``CUT_ROWS`` rows solved
cold, then more rounds) end at that vertex too, but not to the same bits, and they leave
other rows for the span's later programs: answers read from such bits (the reweighted
descents from a max-margin point of nearly equal entries: rotated ``caveman(4, 5)``,
draw 10, F1 1.0 to 0.5 at a difference of 2e-14) and objective programs started from
other rows (``minnesota ball 120, seed 2``: 15 candidates to 8) change. So the chain
answers only inside the sizes of a prefix search (``CHAIN_ANSWERS``, set by
``_support_search.PrefixSearch.run``), whose fits are verdicts (valid and clean, or
not); a fit whose residual is not clean is solved again by the rounds before the band
programs start from it, and the fit the search returns, when a chain answer made it, is
evaluated again at its size without them: the search returns the rounds' fit bit for bit.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import contextvars
from dataclasses import dataclass

import numpy as np

from gsp_householder.graphs import _dense_lp

#: Whether the max-margin programs solved now may be answered by their chain
#: (``_support_search.PrefixSearch`` sets it while it searches: the fits of its sizes are
#: verdicts, and the fit it returns is evaluated again without it).
CHAIN_ANSWERS: contextvars.ContextVar = contextvars.ContextVar("chain_answers", default=False)
#: Key of a program's ``cache`` (``_template_lp.valid_in_span``) that the chain answered:
#: such an answer is not kept by ``_span_memo`` (its vertex is the rounds' to rounding
#: only, and its rows are not the rounds').
ANSWERED = "chain_answer"


@dataclass
class ChainOptimum:
    """The optimum ``x`` (the span's coefficients, then the margin) of a chain's last
    relaxation, which answers its program, and the ``rows`` (indices into the program's
    pairs) that relaxation holds."""

    x: np.ndarray
    rows: np.ndarray

    def mask(self, n_pairs: int) -> np.ndarray:
        """The relaxation's rows as a mask over the program's ``n_pairs`` pairs."""
        out = np.zeros(n_pairs, dtype=bool)
        out[self.rows] = True
        return out


def chain_optimum(
    program: _dense_lp.WarmProgram, x: np.ndarray, rows: np.ndarray
) -> ChainOptimum | bool:
    """The ``ChainOptimum`` of a chain's last relaxation, or False.

    Parameters
    ----------
    program : _dense_lp.WarmProgram
        The relaxation, last solved to its optimum ``x``, at which no pair row of the
        program outside ``rows`` is violated (the caller's test).
    x : numpy.ndarray
        That optimum.
    rows : numpy.ndarray
        Indices of the pair rows the relaxation holds.

    Returns
    -------
    ChainOptimum or bool
        The answer of the program when ``x`` is the relaxation's only optimum; else
        False (the cutting-plane rounds decide, as without the chain).
    """
    if not program.unique_optimum():
        return False
    return ChainOptimum(np.array(x, dtype=float), np.asarray(rows, dtype=np.int64))
