"""Fig. 2 of the paper: $\\|V - \\hat V\\|_F$ against the number $p$ of signals.

$n = 200$, $m = 10$, $p$ from 10 to 2000 (the paper's caption says $n = 1000$ but
its text says 200, "since we increased $p$"); otherwise as `fig1`.
"""

from __future__ import annotations

from gsp_householder.experiments._common import check_int_values
from gsp_householder.experiments._product import PRODUCT_METHODS
from gsp_householder.experiments.fig1 import _run_product_study

__all__ = ["DEFAULT_MAX_TRIALS", "DEFAULT_METHODS", "DEFAULT_P_VALUES", "run"]

DEFAULT_P_VALUES = (10, 20, 50, 100, 200, 500, 1000, 2000)
DEFAULT_METHODS = PRODUCT_METHODS
#: Trials per cell of the $O(n^3)$-per-iteration MSP and of the refinement (seconds
#: per run at $p = 2000$); the others run every trial.
DEFAULT_MAX_TRIALS = {"msp": 5, "refine": 5}


def run(p_values=DEFAULT_P_VALUES, *, n: int = 200, m: int = 10, theta: float = 0.5,
        distributions=("uniform", "gaussian"), trials: int = 20, seed: int = 0,
        methods=None, max_trials: dict | None = None, progress=None,
        options: dict | None = None, n_jobs: int = 1) -> list[dict]:
    """Basis error of every method against $p$ (the paper's Fig. 2).

    Parameters
    ----------
    p_values : iterable of int, default :data:`DEFAULT_P_VALUES`
        Numbers of signals.
    n, m : int, default 200 and 10
        Nodes and reflectors.
    theta, distributions, trials, seed, methods, max_trials, progress, options, n_jobs
        As in `gsp_householder.experiments.fig1.run` (here every method
        runs by default, MSP for at most :data:`DEFAULT_MAX_TRIALS` trials).

    Returns
    -------
    list of dict
        Rows as in `gsp_householder.experiments.fig1.run`.

    Examples
    --------
    >>> from gsp_householder.experiments import fig2
    >>> rows = fig2.run([10, 40], n=30, m=2, trials=1, methods=["procrustes-identity"],
    ...                 distributions=["uniform"], progress=False)
    >>> [r["p"] for r in rows]
    [10, 40]
    """
    cells = [(m, p) for p in check_int_values(p_values, "p", 1)]
    return _run_product_study("fig2", 2, cells, n=n, theta=theta, distributions=distributions,
                              trials=trials, seed=seed, methods=methods, max_trials=max_trials,
                              default_methods=DEFAULT_METHODS, default_caps=DEFAULT_MAX_TRIALS,
                              progress=progress, options=options, n_jobs=n_jobs)
