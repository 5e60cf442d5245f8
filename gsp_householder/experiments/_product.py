"""One trial of a dictionary-recovery study: every method on the same signals (private)."""

from __future__ import annotations

import numpy as np

from gsp_householder.experiments._common import (
    THRESHOLD,
    general_wy,
    lowrank_difference_norm,
    lowrank_orthogonality_defect,
    paper_vectors,
    timed,
)
from gsp_householder.householder import HouseholderProduct

#: Methods of the studies of $\|V - \hat V\|_F$ (Figs 1 and 2).
PRODUCT_METHODS = (
    "alg3",                  # the paper's Algorithm 3, unit vectors (project form)
    "alg3-unpruned",         # Algorithm 3 with unit vectors, every step kept (no pruning)
    "alg3-paper",            # Algorithm 3 as printed: u = k / sqrt(k^T s), not orthogonal
    "single-reflector",      # the reflector mapping 1 to the mean direction (blind scale)
    "refine",                # structured refinement (gsp_householder.learning.refinement)
    "procrustes-identity",   # Procrustes with X known, identity completion
    "procrustes-arbitrary",  # Procrustes with X known, plain SVD completion (O(n^3))
    "altmin",                # Lesage et al. alternating minimisation (identity completion)
    "h_dla",                 # Rusu et al. H-DLA
    "msp",                   # Zhai et al. l4 optimisation (dense, O(n^3) per iteration)
    "identity",              # trivial V_hat = I
)

SCALED = ("alg3", "alg3-unpruned", "alg3-paper")
BLIND = ("single-reflector", "refine")     # their defaults estimate the scale / value range


def _estimates(name, Y, X, m, theta, mu, scale, options):
    """Return a callable producing the estimate of ``name`` (and extra columns)."""
    from gsp_householder.learning import baselines, paper

    n, p = Y.shape
    th, mm = (theta, mu) if scale == "oracle" else (None, None)
    if name == "alg3":
        return lambda: paper.estimate_householder_product(Y, m, th, mm)
    if name == "alg3-unpruned":
        return lambda: paper.estimate_householder_product(Y, m, th, mm, prune=False)
    if name == "alg3-paper":
        return lambda: general_wy(paper_vectors(Y, m, th, mm))
    if name == "single-reflector":
        return lambda: paper.estimate_householder(Y)
    if name == "refine":
        from gsp_householder.learning.refinement import refine_householder_product

        return lambda: _dictionary(refine_householder_product(Y, m, rng=options["seed"]))
    if name == "procrustes-identity":
        return lambda: baselines.procrustes_oracle(Y, X, "identity").dictionary
    if name == "procrustes-arbitrary":
        return lambda: baselines.procrustes_oracle(Y, X, "arbitrary").dictionary
    if name == "altmin":
        return lambda: baselines.procrustes_altmin(
            Y, threshold=THRESHOLD, n_iter=options.get("altmin_iter", 50),
            completion="identity" if p < n else "arbitrary").dictionary
    if name == "h_dla":
        s = max(1, round(theta * n))
        return lambda: baselines.h_dla(Y, m, s, n_iter=options.get("h_dla_iter", 30)).dictionary
    if name == "msp":
        return lambda: baselines.msp(Y, n_iter=options.get("msp_iter", 50),
                                     rng=options["seed"]).dictionary
    if name == "identity":
        return lambda: HouseholderProduct.identity(n)
    raise ValueError(f"unknown method {name!r}")  # pragma: no cover


def _dictionary(result):
    return result.dictionary if hasattr(result, "dictionary") else result


def product_trial(V: HouseholderProduct, Y: np.ndarray, X: np.ndarray, m: int, theta: float,
                  mu: float, methods, trial: int, base: dict, options: dict) -> list[dict]:
    """Rows ``base | {method, scale, error, ...}`` for every method on one draw."""
    from gsp_householder.metrics import basis_error, match_columns

    n = V.n
    ref = basis_error(V, HouseholderProduct.identity(n))
    caps = options.get("max_trials", {})
    rows = []
    for name in methods:
        if caps.get(name) is not None and trial >= caps[name]:
            continue
        scales = ("oracle", "blind") if name in SCALED else \
            ("blind",) if name in BLIND else ("n/a",)
        for scale in scales:
            est, sec, warns, err = timed(_estimates(name, Y, X, m, theta, mu, scale, options))
            row = dict(base, method=name, scale=scale, trial=trial)
            defect = 0.0
            if est is None:
                error = np.nan
            elif isinstance(est, tuple):                      # non-orthogonal paper form
                U, T = est
                error = lowrank_difference_norm(V, U, T)
                defect = lowrank_orthogonality_defect(U, T)
            elif name == "msp":                               # columns up to signed permutation
                perm, signs = match_columns(V, est)
                error = basis_error(V, est[:, perm] * signs)
            else:
                error = basis_error(V, est)
            row.update(error=error, error_vs_identity=error / ref if ref > 0 else np.nan,
                       rel_error=error / np.sqrt(2 * n), orth_defect=defect,
                       failed=bool(err) or not np.isfinite(error), warnings=warns or err,
                       seconds=sec[0], cpu_seconds=sec[1])
            rows.append(row)
    return rows
