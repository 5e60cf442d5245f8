"""Phase transition of the structured refinement: exact recovery against $p$.

For each number of signals $p$ and seeded trial: draw $V = H_1 \\cdots H_m$ and
$Y = VX$ (+ noise), run `gsp_householder.learning.refinement.refine_householder_product`
(blind: value range and density learned), and score $\\|V - \\hat V\\|_F$ beside the
paper's first-moment start (Algorithm 3, blind scale) and the structured oracle
(`gsp_householder.learning.refinement.structured_procrustes` with $X$ known).
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Sequence

import numpy as np

from gsp_householder._validation import check_scalar, check_theta
from gsp_householder.experiments._common import (
    Progress,
    check_distributions,
    check_int_values,
    check_seed,
    check_trials,
    trial_rng,
)

__all__ = ["phase_transition", "plot_phase_transition", "SUCCESS_TOL"]

#: A trial is a success when $\\|V - \\hat V\\|_F$ is at most this.
SUCCESS_TOL = 1e-6

_METHODS = ("refine", "oracle", "start")


def phase_transition(p_values: Sequence[int], n: int = 1000, m: int = 10, theta: float = 0.5,
                     trials: int = 20, distribution: str = "uniform",
                     snr_db: float | None = None, seed: int = 0, progress=None,
                     success_tol: float = SUCCESS_TOL, n_restarts: int = 2) -> list[dict]:
    """Error and success rate of the structured refinement against the number of signals.

    Parameters
    ----------
    p_values : sequence of int
        Numbers of signals $p$.
    n, m : int, default 1000 and 10
        Nodes and reflectors.
    theta : float, default 0.5
        Code density; non-zero values Uniform[1, 2].
    trials : int, default 20
        Seeded trials per $p$.
    distribution : {"uniform", "gaussian"}, default "uniform"
        Entries of the true reflector vectors.
    snr_db : float, optional
        Signal-to-noise ratio in dB; ``None`` for noiseless signals.
    seed : int, default 0
        Trial ``t`` at ``p`` uses ``default_rng([seed, 6, p, t])``.
    progress : None, bool or callable
        ``None``: a tqdm bar when stderr is a terminal; ``False``: silent;
        callable: ``progress(label, done, total)`` after each trial.
    success_tol : float, default 1e-6
        A trial succeeds when $\\|V - \\hat V\\|_F \\le$ ``success_tol``.
    n_restarts : int, default 2
        Passed to the refinement.

    Returns
    -------
    list of dict
        One row per (p, trial, method) with columns ``study, distribution, n, m,
        p, theta, snr_db, trial, method`` (``"refine"``, ``"oracle"`` = the
        structured fit with $X$ known, ``"start"`` = the paper's Algorithm 3),
        ``error`` ($\\|V - \\hat V\\|_F$), ``success`` (``error <= success_tol``),
        ``converged``, ``n_iter`` and ``seconds``.

    Raises
    ------
    ValueError
        On bad sizes, ``m > n``, a bad ``theta``, distribution or tolerance.

    Examples
    --------
    >>> from gsp_householder.experiments.refine import phase_transition
    >>> rows = phase_transition([30], n=100, m=2, trials=2, progress=False)
    >>> len(rows), sorted({r["method"] for r in rows})
    (6, ['oracle', 'refine', 'start'])
    >>> all(r["success"] for r in rows if r["method"] == "refine")
    True
    """
    from gsp_householder.learning.paper import estimate_householder_product
    from gsp_householder.learning.refinement import (
        refine_householder_product,
        structured_procrustes,
    )
    from gsp_householder.metrics import basis_error
    from gsp_householder.model import BernoulliUniform, make_signals, random_householder_product

    p_values = check_int_values(p_values, "p", 1)
    n = check_scalar(n, "n", low=2, low_inclusive=True, integer=True)
    m = check_scalar(m, "m", low=1, low_inclusive=True, integer=True)
    if m > n:
        raise ValueError(f"m must be at most n = {n}, got {m}")
    theta = check_theta(theta)
    (distribution,) = check_distributions([distribution])
    if snr_db is not None:
        snr_db = check_scalar(snr_db, "snr_db")
    trials = check_trials(trials)
    seed = check_seed(seed)
    success_tol = check_scalar(success_tol, "success_tol", low=0.0)
    model = BernoulliUniform(theta)
    bar = Progress(progress, len(p_values) * trials, "refine")
    rows: list[dict] = []
    try:
        for p in p_values:
            for t in range(trials):
                rng = trial_rng(seed, 6, p, t)
                V = random_householder_product(n, m, distribution, rng=rng)
                Y, X = make_signals(V, p, model, snr_db=snr_db, rng=rng)
                base = dict(study="refine", distribution=distribution, n=n, m=m, p=p,
                            theta=theta, snr_db=np.nan if snr_db is None else snr_db,
                            trial=t)
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    t0 = time.perf_counter()
                    V0 = estimate_householder_product(Y, m)
                    t_start = time.perf_counter() - t0
                    t0 = time.perf_counter()
                    res = refine_householder_product(Y, m, init=V0, n_restarts=n_restarts,
                                                     rng=int(rng.integers(2**31)))
                    t_ref = time.perf_counter() - t0 + t_start
                    t0 = time.perf_counter()
                    orc = structured_procrustes(Y, X, m)
                    t_orc = time.perf_counter() - t0
                for method, D, conv, it, sec in (
                        ("refine", res.dictionary, res.converged, res.n_iter, t_ref),
                        ("oracle", orc.dictionary, orc.converged, orc.n_iter, t_orc),
                        ("start", V0, True, 0, t_start)):
                    err = float(basis_error(V, D))
                    rows.append(base | dict(method=method, error=err,
                                            success=bool(err <= success_tol),
                                            converged=bool(conv), n_iter=int(it),
                                            seconds=sec))
                bar.update()
    finally:
        bar.close()
    return rows


def plot_phase_transition(rows: Sequence[dict], ax=None):
    """Success rate and median error of the refinement against $p$.

    Parameters
    ----------
    rows : sequence of dict
        Output of `phase_transition` (several settings may be concatenated:
        one line per distribution, $m$, $\\theta$ and SNR).
    ax : matplotlib Axes or pair of Axes, optional
        One Axes: the success rate only. Two: success rate and errors. Default:
        a new figure with both panels.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> rows = [dict(distribution="uniform", m=2, theta=0.5, snr_db=float("nan"), p=p,
    ...              method=k, error=e, success=e < 1e-6)
    ...         for p in (10, 20) for k, e in (("refine", 1e-9), ("oracle", 1e-12),
    ...                                         ("start", 1.0))]
    >>> fig = plot_phase_transition(rows)
    >>> len(fig.axes)
    2
    """
    if ax is None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(9.0, 3.6))
        ax_rate, ax_err = fig.subplots(1, 2)
    elif isinstance(ax, list | tuple | np.ndarray):
        ax_rate, ax_err = ax
        fig = ax_rate.figure
    else:
        ax_rate, ax_err, fig = ax, None, ax.figure
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        snr = r.get("snr_db")
        snr = None if snr is None or snr == "" or np.isnan(float(snr)) else float(snr)
        key = (r.get("distribution", ""), int(r["m"]), float(r["theta"]), snr)
        groups.setdefault(key, []).append(r)
    for i, (key, grp) in enumerate(sorted(groups.items(), key=lambda kv: str(kv[0]))):
        dist, m, theta, snr = key
        label = f"{dist} u, m={m}, θ={theta:g}" + ("" if snr is None else f", {snr:g} dB")
        color = f"C{i % 10}"
        ps = sorted({int(r["p"]) for r in grp})
        rate = [np.mean([bool(r["success"]) for r in grp
                         if r["method"] == "refine" and int(r["p"]) == p]) for p in ps]
        ax_rate.plot(ps, rate, marker="o", color=color, label=label)
        if ax_err is None:
            continue
        for method, ls in (("refine", "-"), ("oracle", ":"), ("start", "--")):
            med, lo, hi = [], [], []
            for p in ps:
                e = np.array([float(r["error"]) for r in grp
                              if r["method"] == method and int(r["p"]) == p])
                e = np.maximum(e, 1e-16)
                med.append(np.median(e) if e.size else np.nan)
                lo.append(np.quantile(e, 0.25) if e.size else np.nan)
                hi.append(np.quantile(e, 0.75) if e.size else np.nan)
            ax_err.plot(ps, med, ls=ls, marker=".", color=color,
                        label=f"{method}" + (f" ({label})" if len(groups) > 1 else ""))
            ax_err.fill_between(ps, lo, hi, color=color, alpha=0.12, linewidth=0)
    ax_rate.set_xlabel("p (signals)")
    ax_rate.set_ylabel(f"success rate (error ≤ {SUCCESS_TOL:g})")
    ax_rate.set_ylim(-0.05, 1.05)
    ax_rate.grid(alpha=0.3)
    ax_rate.legend(fontsize=7)
    ax_rate.set_title("structured refinement: exact recovery", fontsize=9)
    if ax_err is not None:
        ax_err.set_yscale("log")
        ax_err.set_xlabel("p (signals)")
        ax_err.set_ylabel("||V - V_hat||_F (median, quartiles)")
        ax_err.grid(alpha=0.3, which="both")
        ax_err.legend(fontsize=6)
        ax_err.set_title("refine vs oracle (X known) vs paper's start", fontsize=9)
    return fig
