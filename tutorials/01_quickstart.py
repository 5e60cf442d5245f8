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
# # Quickstart: signals, recovery, sparse codes
#
# This tutorial walks once through the toolkit's core pipeline on the paper's own setting:
#
# 1. draw a random Householder reflector $H = I - 2uu^T$ and sparse signals $Y = HX$;
# 2. recover $H$ from $Y$ alone with the paper's Algorithm 1, with the scale $\theta\mu$
#    given (oracle) and estimated from the data (blind);
# 3. compute the sparse codes $\hat X$;
# 4. see what the toolkit does with bad input and with data that cannot define an estimate.
#
# Every number printed below is computed when this page is built.

# %%
import warnings

import matplotlib.pyplot as plt
import numpy as np

import gsp_householder as gh

# %% [markdown]
# ## 1. Signals
#
# Signals are the **columns** of `Y`, which has shape `(n, p)`: `n` nodes (or
# coordinates), `p` signals. The codes follow the paper's model: each entry of $X$ is
# non-zero with probability $\theta$ and, when non-zero, uniform on $[1, 2]$ (mean
# $\mu = 1.5$). All randomness goes through an `rng` argument (an integer seed or a
# `numpy.random.Generator`).

# %%
n, p = 1000, 18
V = gh.random_householder_product(n, 1, rng=0)  # one reflector, u with Uniform[0, 1] entries
model = gh.BernoulliUniform(theta=0.5)
Y, X = gh.make_signals(V, p, model, rng=1)

print(V)
print("Y:", Y.shape, " X:", X.shape, " fraction of non-zero codes:", (X != 0).mean().round(3))
print("theta * mu =", model.mean)

# %% [markdown]
# `V` is a `HouseholderProduct`: it stores the reflector vectors, never the $n \times n$
# matrix. `V @ Y` and `V.T @ Y` cost $O(nmp)$ and agree with the dense product.

# %%
print("max |V @ X - dense(V) @ X| =", np.abs(V @ X - V.to_dense() @ X).max())
print("max |V.T @ Y - X|          =", np.abs(V.T @ Y - X).max())

# %% [markdown]
# ## 2. Recovery (Algorithm 1)
#
# Under the model, the mean column of $Y$ is $\theta\mu\,H\mathbf 1 =
# \theta\mu\,(\mathbf 1 - 2u\,(u^T\mathbf 1))$, so it points $u$ out directly; the estimate
# reads $Y$ only through its row sums (one pass, $O(np)$).
#
# The paper assumes $\theta$ and $\mu$ known (the *oracle* scale). Because
# $\|V\mathbf 1\| = \sqrt n$ for any orthogonal $V$, the scale $\theta\mu$ can also be
# estimated from the data (the *blind* form, `theta=None, mu=None`).

# %%
H_oracle = gh.estimate_householder(Y, theta=0.5, mu=1.5)
H_blind = gh.estimate_householder(Y)
print("blind scale estimate:", round(gh.estimate_scale(Y), 4), " (true 0.75)")

u = V.vectors[:, 0]


def errors(H):
    u_hat = H.vectors[:, 0]
    return {
        "l_inf": gh.vector_error(u, u_hat),
        "l_2": gh.vector_error(u, u_hat, ord=2),
        "l_inf / ||u||_inf": gh.vector_error(u, u_hat, relative=True),
        "||V - V_hat||_F": gh.basis_error(V, H),
    }


for name, H in [("oracle", H_oracle), ("blind", H_blind)]:
    print(f"{name:7s}", {k: round(v, 4) for k, v in errors(H).items()})
print("u_hat = 0 would score l_inf =", round(np.abs(u).max(), 4))

# %% [markdown]
# Read the $\ell_\infty$ error (the paper's metric) next to the size of $u$ itself: a unit
# vector with $n = 1000$ Uniform[0, 1] entries has $\|u\|_\infty \approx \sqrt{3/n} \approx
# 0.055$, so the estimate $\hat u = 0$ already scores 0.055. The relative and $\ell_2$
# errors say more: with $p = 18$ signals the estimate is off by roughly a quarter of
# $\|u\|_\infty$.
#
# How the error falls with the number of signals, averaged over a few draws (the blind and
# oracle curves are the same to three digits):

# %%
ps = [2, 5, 10, 18, 50, 200]
n_trials = 20
table = {"oracle": [], "blind": []}
for p_ in ps:
    err_o, err_b = [], []
    for trial in range(n_trials):
        Y_, _ = gh.make_signals(V, p_, model, rng=1000 * p_ + trial)
        err_o.append(gh.vector_error(u, gh.estimate_householder(Y_, 0.5, 1.5).vectors[:, 0]))
        err_b.append(gh.vector_error(u, gh.estimate_householder(Y_).vectors[:, 0]))
    table["oracle"].append(np.mean(err_o))
    table["blind"].append(np.mean(err_b))

print(f"{'p':>5} {'oracle l_inf':>13} {'blind l_inf':>12}")
for p_, eo, eb in zip(ps, table["oracle"], table["blind"], strict=True):
    print(f"{p_:5d} {eo:13.4f} {eb:12.4f}")

fig, ax = plt.subplots(figsize=(6, 3.5))
ax.loglog(ps, table["oracle"], "o-", label="oracle scale")
ax.loglog(ps, table["blind"], "x--", label="blind scale")
ax.axhline(np.abs(u).max(), color="grey", lw=1, label=r"$\hat u = 0$")
ax.set_xlabel("number of signals p")
ax.set_ylabel(r"mean $\ell_\infty$ error of $\hat u$")
ax.set_title(f"Algorithm 1, n = {n}, theta = 0.5, {n_trials} draws per p")
ax.legend()
fig.tight_layout()

# %% [markdown]
# The statistics are all the estimators need. `SignalStatistics` accumulates them over
# column blocks in $O(n)$ memory, so a stream of signals gives the same estimate as the
# array:

# %%
stats = gh.SignalStatistics(n)
for start in range(0, p, 5):
    stats.update(Y[:, start:start + 5])
H_stream = gh.estimate_householder(stats)
print(stats, " same estimate:", np.allclose(H_stream.vectors, H_blind.vectors))

# %% [markdown]
# ## 3. Sparse codes
#
# For an orthogonal dictionary the least-squares code is $V^T Y$; `sparse_code` keeps its
# large entries. By default the threshold is chosen from the data (a two-cluster split of
# the magnitudes); give `threshold=` or `sparsity=` to fix it.

# %%
X_hat = gh.sparse_code(H_blind, Y)
X_true_dict = gh.sparse_code(V, Y)
print("per-entry code error with the estimated H:", round(gh.coefficient_error(X, X_hat), 4))
print("per-entry code error with the true H:     ", gh.coefficient_error(X, X_true_dict))
print("support agreement with the estimated H:   ", ((X_hat != 0) == (X != 0)).mean().round(4))

# %% [markdown]
# The support is found almost everywhere, yet the values carry the error of $\hat u$:
# $\hat X = \hat H^T H X$ mixes every code through the rank-two difference
# $\hat H - H$.
#
# Noise lowers the accuracy gracefully; the SNR is the paper's (empirical power of $VX$
# over the noise power, in dB):

# %%
for snr in [None, 20, 10, 0]:
    errs = []
    for trial in range(n_trials):
        Y_, _ = gh.make_signals(V, p, model, snr_db=snr, rng=500 + trial)
        errs.append(gh.vector_error(u, gh.estimate_householder(Y_).vectors[:, 0]))
    label = "noiseless" if snr is None else f"{snr} dB"
    print(f"{label:>9}: mean l_inf error {np.mean(errs):.4f}")

# %% [markdown]
# ## 4. Errors and warnings
#
# Bad input raises a `ValueError` or `TypeError` whose message names the argument:

# %%
for call in [
    lambda: gh.BernoulliUniform(theta=1.5),
    lambda: gh.estimate_householder(Y, theta=0.5),  # theta without mu
    lambda: gh.estimate_householder(np.full((n, 3), np.nan)),
]:
    try:
        call()
    except (ValueError, TypeError) as exc:
        print(f"{type(exc).__name__}: {exc}")

# %% [markdown]
# Data that cannot define an estimate raise `DegenerateStatisticsError` (a `ValueError`).
# Centred signals (each row's mean removed) carry no first-moment information at all:

# %%
rng = np.random.default_rng(3)
Y_centred = Y - Y.mean(axis=1, keepdims=True)
try:
    gh.estimate_householder(Y_centred)
except gh.DegenerateStatisticsError as exc:
    print("DegenerateStatisticsError:", exc)

# %% [markdown]
# The check is statistical. On pure zero-mean noise the debiased blind scale estimate
# $\hat a^2$ is positive or negative with about equal odds; when it is positive it is
# compared with its standard deviation under a zero mean, $\sqrt{2\sum_i s_i^4}/p$, and a
# value below three of those comes with a `DegenerateStatisticsWarning`:

# %%
outcomes = {"raised": 0, "warned": 0, "silent": 0}
for _trial in range(40):
    noise = rng.standard_normal((n, 50))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            gh.estimate_householder(noise)
        except gh.DegenerateStatisticsError:
            outcomes["raised"] += 1
            continue
    flagged = any(issubclass(w.category, gh.DegenerateStatisticsWarning) for w in caught)
    outcomes["warned" if flagged else "silent"] += 1
print("pure noise, 40 draws:", outcomes)

# %% [markdown]
# The toolkit does not prove that the data follow the model: pass `theta` and `mu` when
# they are known, and check the estimate (for example, how sparse `sparse_code(H_hat, Y)`
# is) before trusting it.

# %% [markdown]
# Estimates that exist but are unreliable come with a `DegenerateStatisticsWarning`. The
# clearest case is the paper's Algorithm 3 asked for ten reflectors: the mean column
# identifies $V\mathbf 1$ and nothing more, and the toolkit says which steps were fitted
# to noise (tutorial 2 measures this).

# %%
V10 = gh.random_householder_product(n, 10, rng=0)
Y10, _ = gh.make_signals(V10, 20, model, rng=1)
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    V10_hat = gh.estimate_householder_product(Y10, 10)
for w in caught:
    print(f"{w.category.__name__}: {w.message}")
print("reflectors kept:", V10_hat.m, " ||V - V_hat||_F =", round(gh.basis_error(V10, V10_hat), 3),
      " ||V - I||_F =", round(gh.basis_error(V10, gh.HouseholderProduct.identity(n)), 3))

# %% [markdown]
# The warning classes live in `gsp_householder` (`DegenerateStatisticsWarning`,
# `ConvergenceWarning`), so they can be filtered precisely, e.g.
# `warnings.simplefilter("error", gh.DegenerateStatisticsWarning)` to make them fatal.
#
# **Next:** tutorial 2 reproduces the paper's figures and shows where Algorithm 3 stops;
# tutorial 3 goes past it.
