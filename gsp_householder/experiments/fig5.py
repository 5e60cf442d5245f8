"""Fig. 5 of the paper: error of $u$ against $p$ under noise.

$m = 1$, $n = 1000$, $\\theta = 0.5$, $p = 2, 4, \\dots, 18$, white Gaussian noise at
an SNR of 0, 10, 20 and 30 dB and noiseless (``snr_db = inf`` in the rows). The
SNR is the empirical clean-signal power over the noise power.
"""

from __future__ import annotations

from gsp_householder.experiments._single import run_single_grid

__all__ = ["DEFAULT_MAX_TRIALS", "DEFAULT_METHODS", "DEFAULT_P_VALUES", "DEFAULT_SNRS", "run"]

DEFAULT_P_VALUES = (2, 4, 6, 8, 10, 12, 14, 16, 18)
DEFAULT_SNRS = (0.0, 10.0, 20.0, 30.0, None)
#: Trials per cell of the refinement (with noise it runs all its sweeps and restarts,
#: about 0.7 CPU-second per run, the dominant cost here); the others run every trial.
DEFAULT_MAX_TRIALS = {"refine": 3}
DEFAULT_METHODS = ("alg1", "alg1-paper", "refine", "h_dla", "zero")


def run(p_values=DEFAULT_P_VALUES, snrs=DEFAULT_SNRS, *, n: int = 1000, theta: float = 0.5,
        distributions=("uniform", "gaussian"), trials: int = 20, seed: int = 0,
        methods=None, max_trials: dict | None = None, progress=None,
        options: dict | None = None, n_jobs: int = 1) -> list[dict]:
    """Reflector-vector error against $p$ at several SNRs (the paper's Fig. 5).

    Parameters
    ----------
    p_values : iterable of int, default 2, 4, ..., 18
    snrs : iterable of float or None, default (0, 10, 20, 30, None)
        SNR in dB; ``None`` is noiseless.
    theta : float, default 0.5
    n, distributions, trials, seed, methods, max_trials, progress, options, n_jobs
        As in `gsp_householder.experiments.fig3.run`.

    Returns
    -------
    list of dict
        Rows as in `gsp_householder.experiments.fig3.run`, with
        ``snr_db`` set.

    Examples
    --------
    >>> from gsp_householder.experiments import fig5
    >>> rows = fig5.run([4], [0.0, None], n=100, trials=1, methods=["alg1"],
    ...                 distributions=["uniform"], progress=False)
    >>> [r["snr_db"] for r in rows]
    [0.0, 0.0, inf, inf]
    """
    return run_single_grid("fig5", 5, n=n, p_values=p_values, thetas=[theta], snrs=snrs,
                           distributions=distributions, trials=trials, seed=seed,
                           methods=methods, default_methods=DEFAULT_METHODS,
                           max_trials=DEFAULT_MAX_TRIALS if max_trials is None else max_trials,
                           progress=progress, options=options,
                           n_jobs=n_jobs)
