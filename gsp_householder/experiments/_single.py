"""One trial of the one-reflector studies (Figs 3-5): every method on the same signals."""

from __future__ import annotations

import numpy as np

from gsp_householder.experiments._common import (
    THRESHOLD,
    Progress,
    check_distributions,
    check_int_values,
    check_methods,
    check_seed,
    check_trials,
    run_cells,
    timed,
    trial_rng,
)
from gsp_householder.householder import HouseholderProduct

#: Methods of the one-reflector studies.
SINGLE_METHODS = (
    "alg1",                 # the paper's Algorithm 1, unit u (project form)
    "alg1-paper",           # Algorithm 1 as printed: u = k / sqrt(k^T 1), NaN when <= 0
    "refine",               # structured refinement with m = 1
    "h_dla",                # Rusu et al. with one reflector
    "altmin",               # Lesage et al. (identity completion): dense-structured, no u
    "procrustes-identity",  # X known, identity completion: no single u
    "zero",                 # trivial u_hat = 0, i.e. H_hat = I
)
SCALED = ("alg1", "alg1-paper")


def _estimate(name, Y, X, theta, mu, scale, options):
    from gsp_householder.learning import baselines, paper

    n, p = Y.shape
    th, mm = (theta, mu) if scale == "oracle" else (None, None)
    if name == "alg1":
        return lambda: paper.estimate_householder_vector(Y, th, mm)
    if name == "alg1-paper":
        return lambda: paper.estimate_householder_vector(Y, th, mm, normalize=False)
    if name == "refine":
        from gsp_householder.learning.refinement import refine_householder_product

        return lambda: refine_householder_product(Y, 1, rng=options["seed"]).dictionary
    if name == "h_dla":
        s = max(1, round(theta * n))
        return lambda: baselines.h_dla(Y, 1, s, n_iter=options.get("h_dla_iter", 30)).dictionary
    if name == "altmin":
        return lambda: baselines.procrustes_altmin(
            Y, threshold=THRESHOLD, n_iter=options.get("altmin_iter", 50),
            completion="identity" if p < n else "arbitrary").dictionary
    if name == "procrustes-identity":
        return lambda: baselines.procrustes_oracle(Y, X, "identity").dictionary
    if name == "zero":
        return lambda: np.zeros(n)
    raise ValueError(f"unknown method {name!r}")  # pragma: no cover


def _as_vector(est):
    """A single reflector's vector, or None when the estimate is not one reflector."""
    if isinstance(est, np.ndarray) and est.ndim == 1:
        return est
    if isinstance(est, HouseholderProduct):
        if est.m == 1 and not np.any(est.signs < 0):
            return est.vectors[:, 0]
        if est.m == 0:
            return np.zeros(est.n)
    return None


def _codes(est, Y):
    """$HT_{1/2}(\\hat H^T Y)$ for a vector (any norm: $\\hat H = I - 2uu^T$) or a dictionary."""
    if isinstance(est, np.ndarray) and est.ndim == 1:
        Z = Y - 2.0 * np.outer(est, est @ Y)
    else:
        Z = est.T @ Y
    return Z * (np.abs(Z) >= THRESHOLD)


def single_trial(u, Y, X, theta, mu, methods, trial, base, options) -> list[dict]:
    from gsp_householder.metrics import coefficient_error

    u_inf = float(np.max(np.abs(u)))
    x_rms = float(np.sqrt(np.mean(X**2)))
    caps = options.get("max_trials", {})
    rows = []
    for name in methods:
        if caps.get(name) is not None and trial >= caps[name]:
            continue
        scales = ("oracle", "blind") if name in SCALED else \
            ("blind",) if name == "refine" else ("n/a",)
        for scale in scales:
            est, sec, warns, err = timed(_estimate(name, Y, X, theta, mu, scale, options))
            row = dict(base, method=name, scale=scale, trial=trial)
            linf = l2 = fro = xerr = np.nan
            norm_u = np.nan
            if est is not None:
                v = _as_vector(est)
                if v is not None:
                    linf = min(np.max(np.abs(u - v)), np.max(np.abs(u + v)))
                    l2 = min(np.linalg.norm(u - v), np.linalg.norm(u + v))
                    norm_u = float(np.linalg.norm(v))
                    # ||H - H_hat||_F with H_hat = I - 2 v v^T (v of any norm)
                    g = float(u @ v)
                    fro = 2.0 * np.sqrt(max(1.0 + norm_u**4 - 2.0 * g * g, 0.0))
                else:
                    from gsp_householder.metrics import basis_error

                    fro = basis_error(HouseholderProduct(u), est)
                xerr = coefficient_error(X, _codes(est, Y))
            row.update(linf=linf, l2=l2, rel_linf=linf / u_inf, fro=fro, x_error=xerr,
                       rel_x_error=xerr / x_rms if x_rms > 0 else np.nan, u_norm=norm_u,
                       failed=bool(err) or not np.isfinite(xerr), warnings=warns or err,
                       seconds=sec[0], cpu_seconds=sec[1])
            rows.append(row)
    return rows


def _single_cell(task) -> list[dict]:
    """All trials of one (distribution, snr, theta, p) cell."""
    from gsp_householder.model import BernoulliUniform, make_signals, random_householder_product

    figure, fig_id, seed, d, dist, si, snr, ti, theta, p, n, trials, methods, opts = task
    model = BernoulliUniform(theta)
    rows: list[dict] = []
    for t in range(trials):
        rng = trial_rng(seed, fig_id, d, si, ti, p, t)
        H = random_householder_product(n, 1, dist, rng=rng)
        Y, X = make_signals(H, p, model, snr_db=snr, rng=rng)
        base = dict(figure=figure, distribution=dist, n=n, p=p, theta=theta,
                    snr_db=np.inf if snr is None else float(snr))
        opts = dict(opts, seed=int(rng.integers(2**31)))
        rows += single_trial(H.vectors[:, 0], Y, X, theta, model.mu, methods, t, base, opts)
    return rows


def run_single_grid(figure: str, fig_id: int, *, n, p_values, thetas, snrs, distributions,
                    trials, seed, methods, default_methods, max_trials, progress, options,
                    n_jobs=1):
    """Rows over (distribution, snr, theta, p, trial) for the one-reflector studies."""
    from gsp_householder._validation import check_scalar, check_theta

    n = check_scalar(n, "n", low=2, low_inclusive=True, integer=True)
    p_values = check_int_values(p_values, "p", 1)
    thetas = [check_theta(t) for t in thetas]
    snrs = [None if s is None else check_scalar(s, "snr_db") for s in snrs]
    dists = check_distributions(distributions)
    trials = check_trials(trials)
    seed = check_seed(seed)
    methods = check_methods(methods if methods is not None else default_methods, SINGLE_METHODS)
    opts = dict(options or {})
    opts["max_trials"] = dict(max_trials or {})
    tasks = [(figure, fig_id, seed, d, dist, si, snr, ti, theta, p, n, trials, methods, opts)
             for d, dist in enumerate(dists) for si, snr in enumerate(snrs)
             for ti, theta in enumerate(thetas) for p in p_values]
    bar = Progress(progress, len(tasks) * trials, figure)
    try:
        return run_cells(_single_cell, tasks, n_jobs, bar, [trials] * len(tasks))
    finally:
        bar.close()
