"""How dense the codes are, read from the signals, and what dense codes need.

For signals $y = V x$ with $V$ orthogonal and i.i.d. code entries that are zero with
probability $1 - \\theta$ and $u \\ge 0$ otherwise, $E[y] = \\theta E[u] V \\mathbf 1$ and
$E\\|y\\|^2 = n \\theta E[u^2]$, so
$$ \\frac{\\|E[y]\\|^2}{E\\|y\\|^2} = \\theta \\frac{E[u]^2}{E[u^2]} \\le \\theta $$
(Cauchy-Schwarz): the ratio of the squared mean signal to the mean squared signal is
a lower bound on the density, blind to the range of the codes, tight for narrow ranges
(0.482 for Bernoulli(0.5) x Uniform[1, 2]) and lowered by noise. Rows with different
densities give a weighted mean of the rows' bounds.

With dense codes the whole-basis learner has a sample threshold that grows like $n^2$:
at $\\theta = 0.5$ every random start stalled on a plateau below about $0.28 n^2$
signals and every start was exact from $0.4 n^2$ (random bases and sensor graphs of 50
to 200 nodes, see "Where it fails" in the whole-basis docs); more steps and restarts did
not move it. `dense_codes_hint` says so when a start does not settle on such signals.
"""

from __future__ import annotations

import numpy as np

from gsp_householder.statistics.signal_statistics import statistics_of_validated

__all__ = ["code_density_bound", "dense_codes_hint"]

#: the density bounds the threshold study speaks for (its codes, theta = 0.5 with
#: Uniform[1, 2] values: 0.482 by this bound; theta = 0.9 is not covered by it)
_DENSE = (0.4, 0.6)
#: the measured threshold at theta = 0.5: every start exact from 0.4 n^2 signals
_THRESHOLD = 0.4


def code_density_bound(Y: np.ndarray) -> float:
    """A lower bound on the codes' density $\\theta$: $\\|\\bar y\\|^2$ over mean $\\|y_j\\|^2$.

    Parameters
    ----------
    Y : ndarray of shape (n, p)
        Signals, one per column (not centred).

    Returns
    -------
    float
        In $[0, 1]$; 0 for zero signals.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.learning._code_density import code_density_bound
    >>> rng = np.random.default_rng(0)
    >>> X = rng.uniform(1, 2, (30, 20000)) * (rng.random((30, 20000)) < 0.5)
    >>> round(code_density_bound(X), 2)   # 0.5 * E[u]^2 / E[u^2] = 0.482
    0.48
    """
    stats = statistics_of_validated(Y)  # one fused pass for both moments
    power = float(stats.row_sq_sums.sum()) / stats.count
    if power == 0.0:
        return 0.0
    mean = stats.row_sums / stats.count
    return min(1.0, float(mean @ mean) / power)


def dense_codes_hint(n: int, p: int, density: float) -> str:
    """A sentence on the sample threshold of dense codes, or ``""`` where it does not apply.

    Parameters
    ----------
    n, p : int
        Columns of the basis and number of signals.
    density : float
        `code_density_bound` of the signals.

    Returns
    -------
    str
        Non-empty when ``0.4 <= density <= 0.6`` and ``p < 0.4 n^2``.

    Examples
    --------
    >>> from gsp_householder.learning._code_density import dense_codes_hint
    >>> dense_codes_hint(100, 2000, 0.48)[:34]
    'the codes are dense (density >= 0.'
    >>> dense_codes_hint(100, 2000, 0.1), dense_codes_hint(100, 4000, 0.48)
    ('', '')
    """
    needed = int(np.ceil(_THRESHOLD * n * n))
    if not _DENSE[0] <= density <= _DENSE[1] or p >= needed:
        return ""
    return (
        f"the codes are dense (density >= {density:.2f} from the signals' first two "
        f"moments) and p = {p} signals is below about 0.4 n^2 = {needed}, from which "
        "dense codes (theta = 0.5) were learned exactly in the measured threshold "
        "study (below about 0.28 n^2 every start stalled, and more steps or restarts "
        "did not help): more signals are needed"
    )
