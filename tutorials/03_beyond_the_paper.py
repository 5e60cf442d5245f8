# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Beyond the paper: the blind estimator and structured refinement
#
# The paper's estimators assume that the sparsity $\theta$ and the mean $\mu$ of the
# non-zero codes are known, and its Algorithm 3 learns nothing beyond the first reflector
# (tutorial 2). This tutorial measures two ways past those limits:
#
# 1. the **blind** estimator, which estimates the scale $a = \theta\mu$ from the data;
# 2. the **structured refinement**, which alternates sparse coding with an update that
#    keeps the dictionary a product of $m$ reflectors, started from the paper's estimate.

# %%
import time
import warnings

import matplotlib.pyplot as plt
import numpy as np

import gsp_householder as gh

# %% [markdown]
# ## 1. The blind scale
#
# Under the model $E[\bar y] = a\,V\mathbf 1$, and $\|V\mathbf 1\| = \sqrt n$ for every
# orthogonal $V$. Since $E\|\bar y\|^2 = a^2 n + \sum_i \operatorname{Var}(Y_{ij})/p$,
#
# $$\hat a^2 = \Big(\|\bar y\|^2 - \tfrac1p \textstyle\sum_i s_i^2\Big) / n$$
#
# (with $s_i^2$ the sample variance of row $i$) is unbiased, and needs nothing but the same
# one pass over $Y$. Only the product $\theta\mu$ is identifiable from the first moment,
# and it is all that the estimators need.
#
# How accurate is $\hat a$, and what does using it instead of the true $\theta\mu$ cost?
# For $n = 1000$, one reflector, several sparsities and numbers of signals:

# %%
n = 1000
V = gh.random_householder_product(n, 1, rng=0)
u = V.vectors[:, 0]
n_trials = 20

rows = []
for theta in (0.1, 0.5, 0.9):
    model = gh.BernoulliUniform(theta)
    for p in (5, 18, 100):
        err_oracle, err_blind, scale_err = [], [], []
        for trial in range(n_trials):
            Y, _ = gh.make_signals(V, p, model, rng=np.random.default_rng([int(10 * theta), p,
                                                                          trial]))
            err_oracle.append(gh.vector_error(u, gh.estimate_householder(Y, theta, 1.5)
                                              .vectors[:, 0]))
            err_blind.append(gh.vector_error(u, gh.estimate_householder(Y).vectors[:, 0]))
            scale_err.append(gh.estimate_scale(Y) / model.mean - 1)
        rows.append((theta, p, np.sqrt(np.mean(np.square(scale_err))), np.mean(err_oracle),
                     np.mean(err_blind)))

print(f"{'theta':>5} {'p':>4} {'rms rel. error of a_hat':>24} {'l_inf oracle':>13} "
      f"{'l_inf blind':>12} {'blind / oracle':>15}")
for theta, p, se, eo, eb in rows:
    print(f"{theta:5.1f} {p:4d} {se:24.4f} {eo:13.4f} {eb:12.4f} {eb / eo:15.3f}")

# %% [markdown]
# The blind estimate of $\theta\mu$ is within a few per cent with as few as 18 signals, and
# the $\ell_\infty$ error of $\hat u$ with the blind scale is the oracle's to within a few
# per cent in every cell of the table (the ratio column). The reason: the estimators
# return $u = k/\|k\|$, the direction of $k = (\mathbf 1 - \bar y/a)/2$, and an error in
# $a$ only adds a small multiple of $\bar y$ to $k$.
#
# The price of the oracle is that it must be right. With codes uniform on $[1, 3]$
# ($\mu = 2$) and the paper's $\mu = 1.5$ assumed, the oracle is worse than the blind
# estimate, which needs no assumption at all:

# %%
true_model = gh.BernoulliUniform(0.5, low=1.0, high=3.0)
print(f"{'mu assumed':>10} {'l_inf oracle':>13} {'l_inf blind':>12}")
for mu_assumed in (1.5, 2.0):
    err_oracle, err_blind = [], []
    for trial in range(n_trials):
        Y, _ = gh.make_signals(V, 18, true_model, rng=trial)
        err_oracle.append(gh.vector_error(u, gh.estimate_householder(Y, 0.5, mu_assumed)
                                          .vectors[:, 0]))
        err_blind.append(gh.vector_error(u, gh.estimate_householder(Y).vectors[:, 0]))
    print(f"{mu_assumed:10.1f} {np.mean(err_oracle):13.4f} {np.mean(err_blind):12.4f}")

# %% [markdown]
# The blind form is therefore the default everywhere in the toolkit (`theta=None,
# mu=None`). It fails loudly where the first moment carries no information: when
# $\hat a^2 \le 0$ it raises `DegenerateStatisticsError` (tutorial 1 shows the limits of
# that check on pure noise).
#
# The blind scale does not help Algorithm 3: with ten reflectors, blind and oracle give
# the same single reflector, because the mean column identifies $V\mathbf 1$ only.

# %%
m = 10
V10 = gh.random_householder_product(n, m, rng=0)
Y10, X10 = gh.make_signals(V10, 20, gh.BernoulliUniform(0.5), rng=1)
with warnings.catch_warnings():
    warnings.simplefilter("ignore", gh.DegenerateStatisticsWarning)
    V_oracle = gh.estimate_householder_product(Y10, m, theta=0.5, mu=1.5)
    V_blind = gh.estimate_householder_product(Y10, m)
identity = gh.HouseholderProduct.identity(n)
print(f"||V - V_hat||_F  oracle {gh.basis_error(V10, V_oracle):.3f}   "
      f"blind {gh.basis_error(V10, V_blind):.3f}   identity {gh.basis_error(V10, identity):.3f}"
      f"   (reflectors kept: {V_oracle.m}, {V_blind.m})")

# %% [markdown]
# ## 2. Structured refinement
#
# Every product of $m$ reflectors is $V = I + B(R - I)B^T$ with $B$ an $n \times m$
# orthonormal basis of $\operatorname{span}(u_1, \dots, u_m)$ and $R$ an $m \times m$
# orthogonal matrix, so $X - Y = (V^T - I)Y$ has rank at most $m$. Where a code is zero
# the signal itself gives linear equations on that low-rank matrix: the signals carry far
# more information about $V$ than their mean. `refine_householder_product` uses it
# (low-rank completion on the estimated zero set, then alternating sparse coding with a
# structured least-squares fit; the module documentation has the details), starting from
# the paper's estimate. It returns a `DictionaryResult`: `.dictionary` (a
# `HouseholderProduct`), `.codes`, `.converged` and the per-iteration `.history`.
#
# At the paper's size for Fig. 1 ($n = 1000$, $m = 10$) with $p = 200$ noiseless signals:

# %%
from gsp_householder.learning.refinement import refine_householder_product

n_big, m_big, p_big = 1000, 10, 200
V_big = gh.random_householder_product(n_big, m_big, rng=0)
Y_big, X_big = gh.make_signals(V_big, p_big, gh.BernoulliUniform(0.5), rng=1)
t0 = time.perf_counter()
result = refine_householder_product(Y_big, m_big, rng=0)
t_refine = time.perf_counter() - t0
with warnings.catch_warnings():
    warnings.simplefilter("ignore", gh.DegenerateStatisticsWarning)
    V_paper = gh.estimate_householder_product(Y_big, m_big)
print(f"refinement: ||V - V_hat||_F = {gh.basis_error(V_big, result.dictionary):.2e} in "
      f"{t_refine:.1f} s (converged: {result.converged}, {result.dictionary.m} reflectors)")
print(f"code error (per entry): {gh.coefficient_error(X_big, result.codes):.2e}")
print(f"paper's Algorithm 3: {gh.basis_error(V_big, V_paper):.3f};  V_hat = I: "
      f"{gh.basis_error(V_big, gh.HouseholderProduct.identity(n_big)):.3f}")

# %% [markdown]
# ### How many signals does it need?
#
# A smaller problem ($n = 300$, $m = 5$, $\theta = 0.5$) over a range of $p$, a few draws
# each. A draw counts as recovered when $\|V - \hat V\|_F < 10^{-6}$. The `converged` flag
# says that the method found a dictionary and codes that fit the model exactly; compare it
# with the error, which only a simulation can know.

# %%
n_s, m_s, n_draws = 300, 5, 3
p_values = [20, 40, 80, 160]
records = []
for p in p_values:
    for draw in range(n_draws):
        rng = np.random.default_rng([p, draw])
        V_s = gh.random_householder_product(n_s, m_s, rng=rng)
        Y_s, _ = gh.make_signals(V_s, p, gh.BernoulliUniform(0.5), rng=rng)
        t0 = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", gh.ConvergenceWarning)
            res = refine_householder_product(Y_s, m_s, rng=draw)
        seconds = time.perf_counter() - t0
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", gh.DegenerateStatisticsWarning)
            paper_err = gh.basis_error(V_s, gh.estimate_householder_product(Y_s, m_s))
        records.append((p, draw, gh.basis_error(V_s, res.dictionary), paper_err,
                        res.converged, seconds))

print(f"{'p':>4} {'draw':>4} {'refined error':>14} {'Alg. 3 error':>13} {'converged':>10} "
      f"{'seconds':>8}")
for p, draw, err, paper_err, conv, sec in records:
    print(f"{p:4d} {draw:4d} {err:14.2e} {paper_err:13.3f} {conv!s:>10} {sec:8.2f}")
for p in p_values:
    errs = [r[2] for r in records if r[0] == p]
    print(f"p = {p:3d}: recovered in {sum(e < 1e-6 for e in errs)} of {len(errs)} draws")

# %%
fig, ax = plt.subplots(figsize=(6, 3.5))
for p, _draw, err, paper_err, _conv, _sec in records:
    ax.scatter(p, max(err, 1e-16), color="C3", marker="o")
    ax.scatter(p, paper_err, color="C0", marker="x")
ax.scatter([], [], color="C3", marker="o", label="structured refinement")
ax.scatter([], [], color="C0", marker="x", label="paper's Algorithm 3")
ax.set_xscale("log")
ax.set_yscale("log")
ax.set_xlabel("number of signals p")
ax.set_ylabel(r"$\|V - \hat V\|_F$")
ax.set_title(f"n = {n_s}, m = {m_s}, theta = 0.5, {n_draws} draws per p")
ax.legend()
fig.tight_layout()

# %% [markdown]
# ### With noise
#
# The exact fit exists only for noiseless signals. With noise the refinement still uses
# the structure, and is compared here with the paper's estimate on the same signals
# ($n = 300$, $m = 5$, $p = 160$):

# %%
V_n = gh.random_householder_product(n_s, m_s, rng=0)
for snr in (30.0, 20.0, 10.0):
    Y_n, X_n = gh.make_signals(V_n, 160, gh.BernoulliUniform(0.5), snr_db=snr, rng=1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gh.ConvergenceWarning)
        res = refine_householder_product(Y_n, m_s, rng=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", gh.DegenerateStatisticsWarning)
        paper_err = gh.basis_error(V_n, gh.estimate_householder_product(Y_n, m_s))
    print(f"SNR {snr:4.0f} dB: refined {gh.basis_error(V_n, res.dictionary):.3f}, "
          f"Algorithm 3 {paper_err:.3f}, V_hat = I {gh.basis_error(V_n, V_n.identity(n_s)):.3f}"
          f"; refined code error {gh.coefficient_error(X_n, res.codes):.3f}")

# %% [markdown]
# **Summary.** The blind scale is free: it matches the oracle and removes an assumption.
# The structured refinement learns what the first moment cannot: with enough noiseless
# signals it recovers a product of ten reflectors exactly, where Algorithm 3 stays at the
# error of a single reflector. Below that number of signals an exact fit can exist without
# being the true dictionary (the table shows whether `converged` and the error agree). With
# noise the refinement is approximate, and at a low SNR (10 dB above) it can be worse than
# the paper's estimate and than $\hat V = I$: check a refined dictionary against held-out
# signals before trusting it. What the method needs at the identifiability limit, and with
# noise and unknown value ranges, is open.
