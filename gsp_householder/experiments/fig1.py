"""Fig. 1 of the paper: $\\|V - \\hat V\\|_F$ against the number $m$ of reflectors.

$n = 1000$ nodes, $p = 20$ signals, codes Bernoulli($\\theta = 0.5$) $\\times$
Uniform[1, 2], $V = H_1 \\cdots H_m$ with Uniform[0, 1] or Gaussian reflector
vectors. Every method sees the same signals in a trial.
"""

from __future__ import annotations

from gsp_householder.experiments._common import (
    Progress,
    check_distributions,
    check_int_values,
    check_methods,
    check_seed,
    check_trials,
    run_cells,
    trial_rng,
)
from gsp_householder.experiments._product import PRODUCT_METHODS, product_trial

__all__ = ["DEFAULT_MAX_TRIALS", "DEFAULT_METHODS", "run"]

#: Methods run by default: all but MSP, whose polar step with $p = 20 \ll n$ is
#: arbitrary on an $(n - p)$-dimensional space (and costs $O(n^3)$ per iteration).
DEFAULT_METHODS = tuple(m for m in PRODUCT_METHODS if m != "msp")

#: Trials per cell of the $O(n^3)$ methods and of the refinement, whose restarts
#: cost seconds per run at $m = 10$ (the others run every trial).
DEFAULT_MAX_TRIALS = {"procrustes-arbitrary": 3, "msp": 2, "refine": 5}


def run(m_values=range(1, 11), *, n: int = 1000, p: int = 20, theta: float = 0.5,
        distributions=("uniform", "gaussian"), trials: int = 20, seed: int = 0,
        methods=None, max_trials: dict | None = None, progress=None,
        options: dict | None = None, n_jobs: int = 1) -> list[dict]:
    """Basis error of every method against $m$ (the paper's Fig. 1).

    Parameters
    ----------
    m_values : iterable of int, default 1..10
        Numbers of reflectors.
    n, p : int, default 1000 and 20
        Nodes and signals.
    theta : float, default 0.5
        Code density; the non-zero values are Uniform[1, 2] ($\\mu = 1.5$).
    distributions : sequence of {"uniform", "gaussian"}
        Distribution of the entries of the true reflector vectors.
    trials : int, default 20
        Seeded trials per cell.
    seed : int, default 0
        Base seed; trial ``t`` of cell ``(distribution, m)`` uses
        ``default_rng([seed, 1, d, m, t])``.
    methods : sequence of str, optional
        Subset of ``gsp_householder.experiments._product.PRODUCT_METHODS``;
        default :data:`DEFAULT_METHODS`.
    max_trials : dict, optional
        Per-method cap on the trials run (default :data:`DEFAULT_MAX_TRIALS`).
    progress : None, bool or callable
        ``None``: a tqdm bar when stderr is a terminal; ``False``: silent;
        callable: ``progress(label, done, total)`` after each trial.
    options : dict, optional
        Iteration counts: ``h_dla_iter`` (30), ``altmin_iter`` (50), ``msp_iter`` (50).
    n_jobs : int, default 1
        Worker processes (cells are distributed; the table is the same).

    Returns
    -------
    list of dict
        One row per (distribution, m, trial, method, scale) with columns
        ``figure, distribution, n, m, p, theta, method, scale, trial, error``
        ($\\|V - \\hat V\\|_F$), ``error_vs_identity`` (divided by $\\|V - I\\|_F$),
        ``rel_error`` (divided by $\\sqrt{2n}$), ``orth_defect``, ``failed``,
        ``warnings``, ``seconds`` (wall) and ``cpu_seconds`` (process CPU time).

    Raises
    ------
    ValueError
        On bad sizes, an unknown method or distribution.

    Examples
    --------
    >>> from gsp_householder.experiments import fig1
    >>> rows = fig1.run([2], n=50, p=5, trials=1, methods=["alg3", "identity"],
    ...                 distributions=["uniform"], progress=False)
    >>> sorted({(r["method"], r["scale"]) for r in rows})
    [('alg3', 'blind'), ('alg3', 'oracle'), ('identity', 'n/a')]
    """
    return _run_product_study("fig1", 1, [(m, p) for m in check_int_values(m_values, "m", 1)],
                              n=n, theta=theta, distributions=distributions, trials=trials,
                              seed=seed, methods=methods, max_trials=max_trials,
                              default_methods=DEFAULT_METHODS, default_caps=DEFAULT_MAX_TRIALS,
                              progress=progress, options=options, n_jobs=n_jobs)


def _product_cell(task) -> list[dict]:
    """All trials of one (distribution, m, p) cell."""
    from gsp_householder.model import BernoulliUniform, make_signals, random_householder_product

    figure, fig_id, seed, d, dist, m, p, n, theta, trials, methods, opts = task
    model = BernoulliUniform(theta)
    rows: list[dict] = []
    for t in range(trials):
        rng = trial_rng(seed, fig_id, d, m, p, t)
        V = random_householder_product(n, m, dist, rng=rng)
        Y, X = make_signals(V, p, model, rng=rng)
        opts = dict(opts, seed=int(rng.integers(2**31)))
        base = dict(figure=figure, distribution=dist, n=n, m=m, p=p, theta=theta)
        rows += product_trial(V, Y, X, m, theta, model.mu, methods, t, base, opts)
    return rows


def _run_product_study(figure, fig_id, cells, *, n, theta, distributions, trials, seed,
                       methods, max_trials, default_methods, default_caps, progress, options,
                       n_jobs):
    from gsp_householder._validation import check_scalar, check_theta

    n = check_scalar(n, "n", low=2, low_inclusive=True, integer=True)
    theta = check_theta(theta)
    dists = check_distributions(distributions)
    trials = check_trials(trials)
    seed = check_seed(seed)
    methods = check_methods(methods if methods is not None else default_methods, PRODUCT_METHODS)
    for m, p in cells:
        if m > n:
            raise ValueError(f"m must be at most n = {n}, got {m}")
        check_scalar(p, "p", low=1, low_inclusive=True, integer=True)
    opts = dict(options or {})
    opts["max_trials"] = dict(default_caps if max_trials is None else max_trials)
    tasks = [(figure, fig_id, seed, d, dist, m, p, n, theta, trials, methods, opts)
             for d, dist in enumerate(dists) for m, p in cells]
    bar = Progress(progress, len(tasks) * trials, figure)
    try:
        return run_cells(_product_cell, tasks, n_jobs, bar, [trials] * len(tasks))
    finally:
        bar.close()
