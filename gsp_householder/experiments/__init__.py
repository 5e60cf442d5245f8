"""Reproduction of the paper's simulations, beside the baselines and trivial estimates.

One module per study; each ``run`` is pure computation returning a tidy table
(a list of dicts, one row per setting, trial, method and scale), and
`gsp_householder.experiments.plotting` draws them:

- `gsp_householder.experiments.fig1`: $\\|V - \\hat V\\|_F$ against the number of
  reflectors $m = 1..10$ ($n = 1000$, $p = 20$).
- `gsp_householder.experiments.fig2`: the same against the number of signals
  $p = 10..2000$ ($n = 200$, $m = 10$).
- `gsp_householder.experiments.fig3`: error of the reflector vector $u$
  ($\\ell_\\infty$, $\\ell_2$, relative) against $p = 2..18$ for
  $\\theta \\in \\{0.1, 0.3, 0.5, 0.7, 0.9\\}$ ($m = 1$, $n = 1000$).
- `gsp_householder.experiments.fig4`: per-entry error of the codes $X$, same grid.
- `gsp_householder.experiments.fig5`: error of $u$ at an SNR of 0, 10, 20, 30 dB
  and noiseless.
- `gsp_householder.experiments.refine`: success rate of the structured
  refinement against $p$ (phase transition).
- `gsp_householder.experiments.reproduce`: all of them to CSV and PNG files
  (``gsp-householder reproduce``).

Every study draws the true reflector vectors with Uniform[0, 1] and Gaussian
entries (Theorem 1 needs $c = \\sum_i u_i$ large, which Gaussian vectors violate),
runs the paper's estimators with the oracle and the blind scale $\\theta\\mu$, and
uses $\\ge 20$ seeded trials per cell by default.
"""
