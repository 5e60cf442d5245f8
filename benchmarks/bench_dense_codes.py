"""Dense codes: where whole-basis learning starts to work, against n and p.

Signals $Y = V X$, $X$ Bernoulli($\\theta$) x Uniform[1, 2] (default
$\\theta = 0.5$), $V$ either a Haar-random orthogonal matrix (``random``) or
the Laplacian eigenbasis of a PyGSP random sensor graph with $n$ nodes
(``sensor``, ``load_graph("sensor", n=n, seed=trial)``). For each $n$ the ratio
$p / n$ goes up a ladder (``--ratios``) until a cell succeeds in every trial
(success: `gsp_householder.matched_basis_error` $\\le 10^{-6}$); the ratios
above it are not run, and the ladder of the next $n$ starts ``--skip`` steps
below the threshold found. The threshold $p^*(n)$ is the smallest $p$ of the ladder
at which at least two thirds of the trials succeed and every larger ratio run
did too; a least-squares fit of $\\log p^*$ against $\\log n$ gives the exponent
$a$ of $p^* \\propto n^a$.

Each cell counts the exact results, the near misses (wrong, but within a matched
error of 1: a few columns off) and the far failures (about as far as the
identity: the first stage stalled on a plateau).

Methods (``--method``): ``learner`` is `gsp_householder.learn_orthogonal_basis`
(blind) with ``n_restarts`` starts after the first (``--restarts``, default 0:
the success rate is then the per-start rate); ``no-repair`` is the same
without the sign repair of trapped columns (and with the looser acceptance
test it had before), for comparison.

``--identifiability`` checks, on one draw per $n$ at the smallest ratio of the
ladder, that the zero pattern of the true codes identifies $V$ (statistics,
not computation, is not what limits): for every atom $v_k$ the signals with
$x_k = 0$ span exactly a hyperplane (the ratio $\\sigma_{n-1} / \\sigma_1$ of
their matrix is bounded away from 0 and $\\sigma_n$ is at rounding level), so
$v_k$ is its unique normal; the truth is a fixed point of the learner's two
stages; starts at rotations $e^K V$ of the truth ($K$ random skew-symmetric,
scaled to a matched error of 2 and 6) are pulled back to it; and the learner's
result from a random start, when wrong, leaves far fewer near-zero codes than
the truth's $(1 - \\theta) p$ per row (the count of $|v^T y| \\le 10^{-8}$,
median over columns).

Times are CPU seconds per trial (run with ``--threads 1``).

Usage::

    python benchmarks/bench_dense_codes.py --threads 1 --quick
    python benchmarks/bench_dense_codes.py --threads 1 --bases random sensor \\
        --sizes 34 50 70 100 140 200 --ratios 10 14 20 28 40 56 80 113 160 226 320
    python benchmarks/bench_dense_codes.py --threads 1 --identifiability --sizes 100 200
"""

from __future__ import annotations

import argparse
import math
import time
import warnings

import numpy as np
from _threads import limit_blas_threads

SUCCESS = 1e-6
# a wrong result within this matched error of the truth is a near miss (a few columns
# off); farther ones are as far as the identity (the first stage stalled)
NEAR = 1.0


def _basis(kind: str, n: int, seed: int) -> np.ndarray:
    from gsp_householder import fourier_basis, load_graph
    from gsp_householder.learning._orthogonal import random_orthogonal

    if kind == "random":
        return random_orthogonal(n, np.random.default_rng(10_000 + seed))
    if kind == "sensor":
        return fourier_basis(load_graph("sensor", n=n, seed=seed)).eigenvectors
    raise ValueError(f"unknown basis kind {kind!r}")


def _signals(V: np.ndarray, p: int, theta: float, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = V.shape[0]
    X = rng.uniform(1.0, 2.0, (n, p)) * (rng.random((n, p)) < theta)
    return V @ X


def _learner(restarts: int):
    from gsp_householder import learn_orthogonal_basis

    def fit(Y, seed):
        return learn_orthogonal_basis(Y, rng=seed, n_restarts=restarts).dictionary.to_dense()
    return fit


def _learner_without_repair(restarts: int):
    """The learner without the sign repair and with the looser acceptance it had before."""
    from gsp_householder.learning import whole_basis

    whole_basis._SIGN_REPAIRS, whole_basis._RESIDUAL = 0, 1.0
    return _learner(restarts)


METHODS = {"learner": _learner, "no-repair": _learner_without_repair}


def _trial(kind, n, ratio, theta, seed, fit):
    from gsp_householder import matched_basis_error

    V = _basis(kind, n, seed)
    Y = _signals(V, ratio * n, theta, 1 + seed)
    t0 = time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        V_hat = fit(Y, 2 + seed)
    return matched_basis_error(V, V_hat), time.process_time() - t0


def _fit_exponent(sizes, thresholds):
    """Least-squares slope and intercept of log p* on log n."""
    if len(sizes) < 2:
        return math.nan, math.nan
    a, b = np.polyfit(np.log(sizes), np.log(thresholds), 1)
    return float(a), float(math.exp(b))


def threshold_study(kinds, sizes, ratios, trials, theta, method, restarts, seed, skip,
                    full=False):
    fit = METHODS[method](restarts)
    print(f"# {method} (restarts={restarts}), theta={theta:g}: success = matched error <= "
          f"{SUCCESS:g}; {trials} trials per cell; CPU s per trial (median)")
    print("| basis | n | p/n | p | exact | near miss | far | median error | identity | CPU s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    summary = []
    for kind in kinds:
        found = {}
        first = 0
        for n in sizes:
            rows = []
            for ratio in ratios[first:]:
                results = [_trial(kind, n, ratio, theta, seed + 1000 * t, fit)
                           for t in range(trials)]
                errs = [e for e, _ in results]
                ok = sum(e <= SUCCESS for e in errs)
                near = sum(SUCCESS < e <= NEAR for e in errs)
                ident = float(np.median([
                    _identity_error(kind, n, seed + 1000 * t) for t in range(trials)]))
                print(f"| {kind} | {n} | {ratio} | {ratio * n} | {ok}/{trials} | {near} | "
                      f"{trials - ok - near} | "
                      f"{np.median(errs):.2g} | {ident:.3g} | "
                      f"{np.median([c for _, c in results]):.2f} |", flush=True)
                rows.append((ratio, ok))
                if ok == trials and not full:
                    break
            good = [r for r, ok in rows if 3 * ok >= 2 * trials]
            if good and all(3 * ok >= 2 * trials for r, ok in rows if r >= good[0]):
                found[n] = good[0] * n
                first = 0 if full else max(0, ratios.index(good[0]) - skip)
        summary.append((kind, found))
    print("\n# threshold p* (smallest p of the ladder with >= 2/3 success) and the fit "
          "p* = c n^a")
    print("| basis | " + " | ".join(f"n={n}" for n in sizes) + " | a | c |")
    print("|---|" + "---|" * (len(sizes) + 2))
    for kind, found in summary:
        cells = [f"{found[n]} ({found[n] // n}n)" if n in found else f"> {ratios[-1]}n"
                 for n in sizes]
        ns = sorted(found)
        a, c = _fit_exponent(ns, [found[n] for n in ns])
        print(f"| {kind} | " + " | ".join(cells) + f" | {a:.2f} | {c:.3g} |", flush=True)


def _identity_error(kind, n, seed):
    from gsp_householder import matched_basis_error

    return matched_basis_error(_basis(kind, n, seed), np.eye(n))


def _stages(Y, V):
    """The learner's two alternating stages from the start ``V`` (no restarts)."""
    from gsp_householder.learning.whole_basis import _alternate

    history = {k: [] for k in ("cost", "residual", "change", "start")}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _alternate(Y, V, None, None, None, 1000, 1e-12, 0.9, lambda *a: None,
                          history, 0)[0]


def identifiability(kinds, sizes, ratio, theta, seed):
    from gsp_householder import learn_orthogonal_basis, matched_basis_error
    from gsp_householder.learning._orthogonal import cayley, skew

    print(f"\n# identifiability at p = {ratio}n, theta = {theta:g}: sigma ratios of the "
          "zero-set matrices, the truth as a fixed point, starts near it, zeros left by a "
          "random start")
    print("| basis | n | min sigma_{n-1}/sigma_1 | max sigma_n/sigma_1 | truth fixed | "
          "from error 2 | from error 6 | random start: error | zeros per row "
          "(truth / result) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for kind in kinds:
        for n in sizes:
            rng = np.random.default_rng(seed)
            V = _basis(kind, n, seed)
            p = ratio * n
            X = rng.uniform(1.0, 2.0, (n, p)) * (rng.random((n, p)) < theta)
            Y = V @ X
            gap, null = np.inf, 0.0
            for k in range(n):
                s = np.linalg.svd(Y[:, X[k] == 0], compute_uv=False)
                gap = min(gap, s[n - 2] / s[0])
                null = max(null, s[n - 1] / s[0])
            V_fix = _stages(Y, V)
            fixed = matched_basis_error(V, V_fix)
            near = []
            for target in (2.0, 6.0):
                K = skew(rng.standard_normal((n, n)))
                lo, hi = 0.0, 4.0
                for _ in range(40):                 # scale K to the target matched error
                    mid = 0.5 * (lo + hi)
                    if matched_basis_error(V, V @ cayley(mid * K / math.sqrt(n))) < target:
                        lo = mid
                    else:
                        hi = mid
                start = V @ cayley(lo * K / math.sqrt(n))
                V_near = _stages(Y, start)
                near.append(matched_basis_error(V, V_near))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                V_hat = learn_orthogonal_basis(Y, rng=seed + 1, n_restarts=0
                                               ).dictionary.to_dense()
            err = matched_basis_error(V, V_hat)
            tol = 1e-8 * float(np.abs(Y).max())
            zeros_true = int(np.median(np.sum(np.abs(V.T @ Y) <= tol, axis=1)))
            zeros_hat = int(np.median(np.sum(np.abs(V_hat.T @ Y) <= tol, axis=1)))
            print(f"| {kind} | {n} | {gap:.2e} | {null:.1e} | {fixed:.1e} | {near[0]:.1e} | "
                  f"{near[1]:.1e} | {err:.3g} | {zeros_true} / {zeros_hat} |", flush=True)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bases", nargs="+", default=["random", "sensor"],
                        choices=["random", "sensor"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[34, 50, 70, 100, 140, 200])
    parser.add_argument("--ratios", nargs="+", type=int, default=[10, 20, 40, 80, 160],
                        help="the ladder of p / n, increasing")
    parser.add_argument("--trials", type=int, default=3)
    parser.add_argument("--skip", type=int, default=2,
                        help="start the ladder of the next n this many steps below the "
                             "threshold of the previous n (thresholds grow with n)")
    parser.add_argument("--full-ladder", action="store_true",
                        help="run every ratio of the ladder (no early stop, no skip)")
    parser.add_argument("--theta", type=float, default=0.5)
    parser.add_argument("--method", choices=sorted(METHODS), default="learner")
    parser.add_argument("--restarts", type=int, default=0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--identifiability", action="store_true",
                        help="only the identifiability table (at the smallest ratio)")
    parser.add_argument("--quick", action="store_true",
                        help="random bases, n = 34 and 50, ratios 10 20 40, 2 trials")
    parser.add_argument("--threads", type=int, default=None,
                        help="BLAS threads (threadpoolctl), default: library default")
    args = parser.parse_args(argv)
    if args.quick:
        args.bases, args.sizes, args.ratios, args.trials = ["random"], [34, 50], [10, 20, 40], 2
    limit_blas_threads(args.threads)
    if args.identifiability:
        identifiability(args.bases, args.sizes, args.ratios[0], args.theta, args.seed)
        return 0
    threshold_study(args.bases, args.sizes, sorted(args.ratios), args.trials, args.theta,
                    args.method, args.restarts, args.seed, args.skip, args.full_ladder)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
