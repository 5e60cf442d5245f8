"""Fig. 4 of the paper: per-entry error of the codes $X$ against $p$, for several $\\theta$.

Same grid as `fig3`. Every method's codes are
$\\hat X = HT_{1/2}(\\hat H^T Y)$ (threshold half the smallest non-zero value), and
the error is $\\|X - \\hat X\\|_F / \\sqrt{np}$; ``rel_x_error`` divides it by the
root-mean-square of $X$.
"""

from __future__ import annotations

from gsp_householder.experiments._single import run_single_grid
from gsp_householder.experiments.fig3 import DEFAULT_P_VALUES, DEFAULT_THETAS

__all__ = ["DEFAULT_MAX_TRIALS", "DEFAULT_METHODS", "run"]

#: Every one-reflector method (codes exist for all of them).
#: Trials per cell of the refinement (about 0.1 s per run, the dominant cost here);
#: the other methods run every trial.
DEFAULT_MAX_TRIALS = {"refine": 10}
DEFAULT_METHODS = ("alg1", "alg1-paper", "refine", "h_dla", "altmin",
                   "procrustes-identity", "zero")


def run(p_values=DEFAULT_P_VALUES, thetas=DEFAULT_THETAS, *, n: int = 1000,
        distributions=("uniform", "gaussian"), trials: int = 20, seed: int = 0,
        methods=None, max_trials: dict | None = None, progress=None,
        options: dict | None = None, n_jobs: int = 1) -> list[dict]:
    """Per-entry code error of every method against $p$ and $\\theta$ (the paper's Fig. 4).

    Parameters and the returned rows are those of
    `gsp_householder.experiments.fig3.run` (the same draws for the same
    ``seed``); the columns to read are ``x_error`` and ``rel_x_error``.

    Examples
    --------
    >>> from gsp_householder.experiments import fig4
    >>> rows = fig4.run([4], [0.5], n=100, trials=1, methods=["zero"],
    ...                 distributions=["uniform"], progress=False)
    >>> 0 < rows[0]["x_error"] < 2
    True
    """
    return run_single_grid("fig4", 3, n=n, p_values=p_values, thetas=thetas, snrs=[None],
                           distributions=distributions, trials=trials, seed=seed,
                           methods=methods, default_methods=DEFAULT_METHODS,
                           max_trials=DEFAULT_MAX_TRIALS if max_trials is None else max_trials,
                           progress=progress, options=options,
                           n_jobs=n_jobs)
