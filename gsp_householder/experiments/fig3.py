"""Fig. 3 of the paper: error of the reflector vector $u$ against $p$, for several $\\theta$.

$m = 1$, $n = 1000$, $p = 2, \\dots, 18$, $\\theta \\in \\{0.1, 0.3, 0.5, 0.7, 0.9\\}$,
noiseless. The paper plots $\\|u - \\hat u\\|_\\infty$; since
$\\|u\\|_\\infty \\approx \\sqrt{3/n} = 0.055$ at $n = 1000$ (so that $\\hat u = 0$
already scores 0.055), the rows also carry $\\|u - \\hat u\\|_2$, the relative
$\\ell_\\infty$ error and $\\|H - \\hat H\\|_F$.
"""

from __future__ import annotations

from gsp_householder.experiments._single import run_single_grid

__all__ = ["DEFAULT_MAX_TRIALS", "DEFAULT_METHODS", "DEFAULT_P_VALUES", "DEFAULT_THETAS", "run"]

DEFAULT_P_VALUES = tuple(range(2, 19))
DEFAULT_THETAS = (0.1, 0.3, 0.5, 0.7, 0.9)
#: Methods with a single-reflector estimate (the others have no $\hat u$).
#: Trials per cell of the refinement (about 0.1 s per run, the dominant cost here);
#: the other methods run every trial.
DEFAULT_MAX_TRIALS = {"refine": 10}
DEFAULT_METHODS = ("alg1", "alg1-paper", "refine", "h_dla", "zero")


def run(p_values=DEFAULT_P_VALUES, thetas=DEFAULT_THETAS, *, n: int = 1000,
        distributions=("uniform", "gaussian"), trials: int = 20, seed: int = 0,
        methods=None, max_trials: dict | None = None, progress=None,
        options: dict | None = None, n_jobs: int = 1) -> list[dict]:
    """Reflector-vector error of every method against $p$ and $\\theta$ (the paper's Fig. 3).

    Parameters
    ----------
    p_values : iterable of int, default 2..18
    thetas : iterable of float, default (0.1, 0.3, 0.5, 0.7, 0.9)
    n : int, default 1000
    distributions : sequence of {"uniform", "gaussian"}
        Entries of the true $u$ before normalisation.
    trials : int, default 20
    seed : int, default 0
    methods : sequence of str, optional
        From ``gsp_householder.experiments._single.SINGLE_METHODS``; default
        :data:`DEFAULT_METHODS`.
    max_trials : dict, optional
        Per-method cap on the trials run (default :data:`DEFAULT_MAX_TRIALS`).
    progress : None, bool or callable
        As in `gsp_householder.experiments.fig1.run`.
    options : dict, optional
        ``h_dla_iter`` (30), ``altmin_iter`` (50).
    n_jobs : int, default 1
        Worker processes (cells are distributed; the table is the same).

    Returns
    -------
    list of dict
        One row per (distribution, theta, p, trial, method, scale): ``figure,
        distribution, n, p, theta, snr_db, method, scale, trial, linf, l2,
        rel_linf`` ($\\ell_\\infty$ error over $\\|u\\|_\\infty$), ``fro``
        ($\\|H - \\hat H\\|_F$), ``x_error``, ``rel_x_error``, ``u_norm``
        ($\\|\\hat u\\|_2$; not 1 for ``alg1-paper``), ``failed``, ``warnings``,
        ``seconds``. Errors are NaN where a method failed (``alg1-paper`` with a
        non-positive radicand) or has no single $\\hat u$.

    Examples
    --------
    >>> from gsp_householder.experiments import fig3
    >>> rows = fig3.run([4], [0.5], n=100, trials=1, methods=["alg1", "zero"],
    ...                 distributions=["uniform"], progress=False)
    >>> [(r["method"], r["scale"]) for r in rows]
    [('alg1', 'oracle'), ('alg1', 'blind'), ('zero', 'n/a')]
    """
    return run_single_grid("fig3", 3, n=n, p_values=p_values, thetas=thetas, snrs=[None],
                           distributions=distributions, trials=trials, seed=seed,
                           methods=methods, default_methods=DEFAULT_METHODS,
                           max_trials=DEFAULT_MAX_TRIALS if max_trials is None else max_trials,
                           progress=progress, options=options,
                           n_jobs=n_jobs)

