"""Learn a whole orthogonal basis (for example a graph Fourier basis) from its signals.

Signals $Y = V X$ with $V$ orthogonal ($n \\times n$, any orthogonal matrix: a
graph's Laplacian eigenbasis needs about $n$ reflectors) and i.i.d. codes that
are zero with probability $1 - \\theta$ and in $[\\ell, h]$, $\\ell \\ge 0$,
otherwise. The sources are independent and the mixing is orthogonal, so this
is independent component analysis without whitening; what makes it exact is
that the codes are non-negative with an atom at zero.

`learn_orthogonal_basis` runs two stages from a random orthogonal start:

1. `gsp_householder.learning.rectified_procrustes`: minimise the energy of
   the negative part of $V^T Y$ (non-negative ICA) by an accelerated
   alternation, until the support of $V^T Y$ (the level of stage 2) has
   changed in at most $10^{-4}$ of the entries at each of 3 consecutive steps
   (or the rotation step is below $10^{-3}\\sqrt n$);
2. `gsp_householder.learning.zero_pattern`: threshold $V^T Y$ (blind: the
   two-means level, moved down into the gap above the zero cluster when it
   lies inside the non-zero codes, as it does for wide code ranges such as
   $[1, 10]$; `gsp_householder.learning.zero_pattern.gap_threshold`; or
   $\\ell / 2$ when $\\ell$ is known) and fit $V$ to the thresholded codes until the support
   stops changing, which lands on the truth to machine precision without
   noise.

The truth is a fixed point of both stages; a fixed point of the second alone
can be a near miss (a few columns mixed, measured error about 0.5 on karate),
which the first stage then leaves. So the two stages alternate (the first with
a tight tolerance from the second round on) until a round ends on the support
it started from, at most 4 rounds (a start whose second stage does not
settle is abandoned at once).

A start settles when the support stops changing, carries most of the
energy ($\\|V^T Y - \\hat X\\|_F \\le \\|\\hat X\\|_F / 2$: true at the truth above
about 6 dB SNR; a two-means split that keeps only a thin top tail of a plateau's codes
scores about 1) and leaves a zero cluster balanced about zero
(`gsp_householder.learning.zero_pattern.zero_cluster_balance` between 1/2
and 2: about 1 at the truth down to about 15 dB SNR; 0.1-0.4 or 1.7 at the
wrong stationary points met in practice; at 10 dB the truth itself scores
about 0.46 and is then reported as not settled) and alike in every row (the
largest over the median of the rows' mean squares,
`gsp_householder.learning.zero_pattern.zero_cluster_spread`, within a
sampling bound $1 + 4\\sqrt{2 \\log n / k}$, $k$ the smallest count of
off-support entries in a row: 1.0-1.4 at the truth, 5-10 at near misses).
A start whose off-support part is within the rounding of the signals as given
($\\|V^T Y - \\hat X\\|_F \\le \\epsilon \\|Y\\|_F$, $\\epsilon$ float32's epsilon for float32
signals, `gsp_householder.learning._input_precision`) settles whatever these tests say:
float32 rounding follows the entries' magnitudes and fails the row test at the truth
(spread 1.9-2.3), where the off-support part is 0.12-0.19 of that level.

A start that does not settle is first repaired: the first stage has local
minima near the truth where a column sits near the negative of an atom,
$-v_k$, tilted towards a positive mix of the others (its code row then holds
100-200 times the median row's negative energy,
`gsp_householder.learning.rectified_procrustes.trapped_columns`); such columns
are negated and the two stages continue, at most 3 times. With dense codes
about one random start in three ended in such a trap at every $p$ measured
(50-100 columns, $\theta = 0.5$); the repair frees all of them. A start that
still does not settle is followed by fresh random starts, up to ``n_restarts``; the
returned one is the first that settles, else the one with the smallest data
residual $\\|Y - V \\hat X\\|_F$, with a
`gsp_householder.exceptions.ConvergenceWarning`.

**Order and signs.** The model cannot identify the columns' order or signs.
The returned columns are signed so that each code row is non-negative (its sum
is positive) and sorted by the row index of their largest entry in magnitude
(ties: larger magnitude first). This is not the eigenvalue order of a graph
basis; compare with a reference by `gsp_householder.metrics.match_columns` /
`gsp_householder.metrics.matched_basis_error`.

**Where it fails** (measured; see the documentation page "Whole bases"): dense
codes need about $0.4 n^2$ signals. At $\\theta = 0.5$, per start, both random
orthogonal bases and sensor-graph bases were recovered exactly in every trial from
$p = 20n$ at 50 columns, $28n$ at 70, $40n$ at 100, $56n$ at 140 and $80n$ at 200
(sensor graph), and in none one step ($\\sqrt 2$) below: there the first stage
stops on a plateau (a local minimum of its cost) as far from the truth as the
identity, and the learner warns. Karate (34 nodes) is exact in 10/10 trials at
$p = 10n$ and $20n$. The zero pattern identifies $V$ at $p = 20n$ (the truth is a
fixed point with a wide basin), so the limit is the search, not the data. Sparse
codes ($\\theta = 0.1$) are recovered exactly from $p = 5n$ on every graph measured.
"""

from __future__ import annotations

import contextlib
import math

import numpy as np

from gsp_householder._blas_threads import blas_controller, one_blas_thread
from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._validation import check_rng, check_scalar, check_signals, check_theta
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.householder import HouseholderProduct
from gsp_householder.learning._code_density import code_density_bound, dense_codes_hint
from gsp_householder.learning._input_precision import input_rounding
from gsp_householder.learning._orthogonal import random_orthogonal
from gsp_householder.learning._progress import progress_bar
from gsp_householder.learning.rectified_procrustes import rectified_procrustes, trapped_columns
from gsp_householder.learning.result import DictionaryResult
from gsp_householder.learning.zero_pattern import (
    support_codes,
    support_threshold,
    zero_cluster_balance,
    zero_cluster_spread,
    zero_pattern_refinement,
)

__all__ = ["learn_orthogonal_basis"]

# stage 1 hands over to the zero-pattern stage when its rotation step is this small
_SWITCH_TOL = 1e-3
# stage-1 tolerance of the rounds after the first; at most this many rounds per start
_POLISH_TOL = 1e-6
_FLOAT_MAX = float(np.finfo(np.float64).max)
_ROUNDS = 4
# bases up to this size are learned with one BLAS thread (when threadpoolctl is installed)
_SINGLE_THREAD_N = 400
# entries of V^T Y the first stage's support test takes its level from (gap_threshold)
_RULE_SAMPLE = 1 << 12
# a start is accepted when its zero cluster is balanced about 0 (zero_cluster_balance)
_BALANCE = (0.5, 2.0)
# ... and its off-support part is at most this fraction of its codes (Frobenius norms)
_RESIDUAL = 0.5
# columns trapped near -v_k (rectified_procrustes.trapped_columns) are negated and the
# start continued at most this many times before a fresh start
_SIGN_REPAIRS = 3
# Y is refused as rank deficient when the smallest eigenvalue of Y Y^T is below this
# fraction of the largest (a singular value ratio of 1e-6; model signals with p >= 2n
# have a ratio near 1 / sqrt(n))
_RANK_TOL = 1e-12


def _check_range(low, high) -> tuple[float | None, float | None]:
    if (low is None) != (high is None):
        raise ValueError("give both low and high (the value range of the non-zero codes) or "
                         f"neither (blind); got low={low!r}, high={high!r}")
    if low is None:
        return None, None
    low = check_scalar(low, "low")
    high = check_scalar(high, "high")
    if not low < high:
        raise ValueError(f"low must be smaller than high, got low={low}, high={high}")
    if low < 0 < high:
        raise ValueError("the non-zero codes must have one sign (0 <= low < high or "
                         f"low < high <= 0): with low={low} < 0 < high={high} their zeros "
                         "cannot be told from small non-zero values")
    return low, high


def _canonical_columns(V: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Sign each column so its code row sums to >= 0; sort by (argmax |row|, -max)."""
    signs = np.sign((V.T @ Y).sum(axis=1))
    signs[signs == 0] = 1.0
    V = V * signs
    absV = np.abs(V)
    peak_row = absV.argmax(axis=0)
    peak = absV.max(axis=0)
    order = np.lexsort((-peak, peak_row))
    return V[:, order]


def learn_orthogonal_basis(Y, *, theta: float | None = None, low: float | None = None,
                           high: float | None = None, rng=None, max_iter: int = 1000,
                           tol: float = 1e-12, n_restarts: int = 2, momentum: float = 0.9,
                           progress: bool | None = None) -> DictionaryResult:
    """Learn an orthogonal $V$ ($n$ - 1 reflectors) and sparse codes from ``Y = V X``.

    Parameters
    ----------
    Y : array_like of shape (n, p)
        Signals as columns, not centred, $p \\ge n$ (the method needs $p$ of a
        few times $n$: see Notes).
    theta : float in (0, 1], optional
        Probability of a non-zero code, if known. Only ``theta = 1`` (no zeros)
        changes the method: the zero-pattern stage is then skipped. The support
        is always found from the data.
    low, high : float, optional
        Value range of the non-zero codes (both or neither). Known: the
        threshold is ``low / 2`` and kept codes are clipped to ``[low, high]``;
        non-positive ranges (``high <= 0``) are handled by symmetry. Blind
        (default): the codes are taken as non-negative up to the columns' signs
        and the threshold lies in the gap between the zero cluster and the
        non-zero codes (the two-means level, moved down into that gap when it
        lies inside wide codes: `gsp_householder.learning.zero_pattern.gap_threshold`);
        at the truth without noise it is about ``low / 2``. Ranges with
        ``low < 0 < high`` are rejected: their zeros are not identifiable.
    rng : None, int or numpy.random.Generator
        Randomness of the starts.
    max_iter : int, default 1000
        Maximum number of steps of the first stage per start; the zero-pattern
        stage, which converges in tens of steps when it converges, gets
        ``max(1, max_iter // 4)``.
    tol : float, default 1e-12
        The zero-pattern stage has settled when the support did not change and
        $V$ moved by at most ``tol * sqrt(n)`` (Frobenius).
    n_restarts : int, default 2
        Fresh random starts tried after a start that did not settle.
    momentum : float in [0, 1), default 0.9
        Heavy-ball coefficient of the first stage.
    progress : bool, optional
        Show a tqdm bar. Default: only on a terminal and for long runs
        ($n^2 p \\ge 5 \\cdot 10^9$).

    Returns
    -------
    DictionaryResult
        ``dictionary``: a `gsp_householder.householder.HouseholderProduct`
        (the LAPACK Householder QR of the learned $V$: $n - 1$ reflectors and
        signs); ``codes``: $\\hat X$ (thresholded $V^T Y$; zero off the
        support); ``history``: ``"cost"`` (stage 1, rectification cost
        relative to $\\|Y\\|_F^2$), ``"residual"`` and ``"change"`` (stage 2)
        and ``"start"`` (index of the start of each stage-2 step), over all
        starts; ``"balance"`` and ``"spread"``, the zero-cluster statistics of
        each start; ``"code_density"``, a lower bound on the codes' density
        read from the signals (their squared mean over their mean square);
        ``n_iter``: steps of both stages over all starts;
        ``converged``: whether the returned start settled.

    Raises
    ------
    ValueError
        ``Y`` not 2-D, non-finite, zero, with fewer than 2 rows or fewer signals
        than rows, or of rank below its number of rows (some direction carries no
        signal, so no basis is identifiable there); ``theta`` outside (0, 1];
        ``low``/``high`` given alone, not increasing or of both signs; a bad ``max_iter``, ``tol``,
        ``n_restarts`` or ``momentum``.
    TypeError
        Non-numeric ``Y`` or parameters.

    Warns
    -----
    ConvergenceWarning
        When no start settled. With dense codes (density bound 0.4-0.6) and
        fewer than $0.4 n^2$ signals it says that more signals are needed (the
        measured sample threshold of dense codes; more steps or restarts do not
        help there).

    Notes
    -----
    Order and signs follow the convention of the module (`learn_orthogonal_basis`
    cannot identify them): compare with a reference after matching columns.
    Cost per step: two products with $Y$ ($O(n^2 p)$), one $n \\times n$
    symmetric eigendecomposition (first stage) or SVD (second stage) and one
    $n \\times n$ solve. Measured success rates and times per graph, $\\theta$ and
    $p / n$ are in the documentation page "Whole bases".

    Examples
    --------
    >>> import networkx as nx
    >>> from gsp_householder import BernoulliUniform, fourier_basis, make_signals
    >>> from gsp_householder.metrics import matched_basis_error
    >>> U = fourier_basis(nx.karate_club_graph()).eigenvectors
    >>> Y, X = make_signals(U, 5 * 34, BernoulliUniform(0.1), rng=0)
    >>> result = learn_orthogonal_basis(Y, rng=1)
    >>> result.dictionary.m, result.converged
    (33, True)
    >>> matched_basis_error(U, result.dictionary.to_dense()) < 1e-8
    True
    """
    Y = check_signals(Y)
    rounding = input_rounding(Y)
    Y = Y.astype(np.float64, copy=False)
    n, p = Y.shape
    if p < n:
        raise ValueError(f"Y has {p} signals (columns) for {n} nodes (rows); "
                         "learn_orthogonal_basis needs at least as many signals as nodes")
    if theta is not None:
        theta = check_theta(theta)
    low, high = _check_range(low, high)
    max_iter = check_scalar(max_iter, "max_iter", low=1, low_inclusive=True, integer=True)
    tol = check_scalar(tol, "tol", low=0.0)
    n_restarts = check_scalar(n_restarts, "n_restarts", low=0, low_inclusive=True, integer=True)
    momentum = check_scalar(momentum, "momentum", low=0.0, low_inclusive=True, high=1.0,
                            high_inclusive=False)
    return learn_validated(Y, theta=theta, low=low, high=high, rng=check_rng(rng),
                           max_iter=max_iter, tol=tol, n_restarts=n_restarts,
                           momentum=momentum, progress=progress, rounding=rounding)


def learn_validated(Y: np.ndarray, *, theta: float | None = None, low: float | None = None,
                    high: float | None = None, rng: np.random.Generator,
                    max_iter: int = 2000, tol: float = 1e-12, n_restarts: int = 2,
                    momentum: float = 0.9, progress: bool | None = None,
                    rounding: float | None = None, name: str = "Y") -> DictionaryResult:
    """`learn_orthogonal_basis` on arguments that are already validated.

    ``Y`` is a finite float64 array (n, p) with ``p >= n``, the parameters are in
    range and ``rng`` is a Generator; only the degeneracies of the data (zero or
    overflowing ``Y``) are checked here. The public function and the estimator
    validate once, then call this. ``rounding``: the relative rounding of the
    signals as given (`gsp_householder.learning._input_precision.input_rounding`;
    default: read from ``Y``), below which a start's off-support part is accepted.
    ``name``: the caller's name of the data in the messages of the errors, ``"Y"``
    (signals as columns) or ``"X"`` (the estimator's samples as rows, ``Y`` transposed).
    """
    if rounding is None:
        rounding = input_rounding(Y)
    n, p = Y.shape
    scale = float(np.max(np.abs(Y)))
    if scale == 0.0:
        raise ValueError(f"{name} is zero: no basis is identifiable from it")
    if not scale * math.sqrt(n) < _FLOAT_MAX:
        raise ValueError(f"{name} has entries up to {scale:.3g}: its codes could overflow "
                         "float64")
    Y = Y / scale                              # scale-free: no overflow in the products
    _check_full_rank(Y, name)
    floor = rounding * float(np.linalg.norm(Y))
    if low is not None:
        bound = max(abs(low), abs(high))
        if bound >= scale * _FLOAT_MAX:
            raise ValueError(f"low and high are out of all proportion to {name} (max "
                             f"|{name}| = {scale:.3g}): their ratio to it overflows")
        low, high = low / scale, high / scale
    flip = high is not None and high <= 0
    if flip:                                   # X <= 0: learn from -Y = V (-X)
        Y, low, high = -Y, -high, -low
    history: dict[str, list[float]] = {"cost": [], "residual": [], "change": [], "start": [],
                                        "balance": [], "spread": []}
    bar = progress_bar(progress, float(n) * n * p, "learn_orthogonal_basis")
    try:
        with _blas_threads(n):
            (V, residual, settled), n_iter = _best_start(
                Y, theta, low, high, rng, max_iter, tol, n_restarts, momentum, _ticker(bar),
                history, floor)
    finally:
        if bar is not None:
            bar.close()
    density = code_density_bound(Y)
    history["code_density"] = [density]
    if not settled:
        hint = dense_codes_hint(n, p, density)
        warn_at_caller(f"learn_orthogonal_basis did not settle in {n_restarts + 1} start(s) of "
                       f"at most {max_iter} steps (relative residual "
                       f"{residual / (np.linalg.norm(Y) or 1.0):.3g}); the basis is probably "
                       "wrong: " + (hint if hint else
                                    "more signals, more steps or more restarts may help"),
                       ConvergenceWarning)
    V = _canonical_columns(V, Y)
    codes, _ = support_codes(V.T @ Y, low, high)
    codes = -scale * codes if flip else scale * codes
    return DictionaryResult(dictionary=HouseholderProduct.from_orthogonal(V, method="qr"),
                            codes=codes, history=history, n_iter=n_iter, converged=settled)


def _check_full_rank(Y: np.ndarray, name: str = "Y") -> None:
    """Refuse signals that leave a direction of $\\mathbb R^n$ empty.

    With $Y = VX$ and $V$ orthogonal, $\\operatorname{rank} Y = \\operatorname{rank} X$;
    below $n$ some rows of the codes are zero or dependent, and the atoms they weigh
    are not identifiable (for example, constant signals fix one atom only). The message
    names the data as the caller does (``name``): ``"Y"``, signals as the columns of
    ``Y`` (n, p), or ``"X"``, the estimator's samples as the rows of ``X`` (p, n).
    """
    gram = np.linalg.eigvalsh(Y @ Y.T)
    if gram[0] <= _RANK_TOL * gram[-1]:
        rank = int(np.count_nonzero(gram > _RANK_TOL * gram[-1]))
        n = Y.shape[0]
        codes = (f"with Y = V X and V orthogonal the codes X have rank {rank} too"
                 if name == "Y" else
                 f"with {name} = codes @ V.T and V orthogonal the codes (what transform "
                 f"returns) have rank {rank} too")
        where, what = (("rows (nodes)", "signals") if name == "Y" else
                       ("features (columns)", "samples"))
        raise ValueError(f"{name} has rank {rank} for {n} {where}: its {what} leave some "
                         f"directions empty, so no basis is identifiable there ({codes}: "
                         f"some of the {n} codes are never active or move together, and "
                         f"the atoms they weigh are not determined)")


def _blas_threads(n: int):
    """One BLAS thread for bases of at most `_SINGLE_THREAD_N` columns, else no change.

    Their products and factorisations are small: a second thread gains little on an idle
    machine, and on a busy one the threads of each small call wait for each other (measured
    at n = 200: 1.8 s with one thread, 118 s with two). Needs threadpoolctl (installed
    with scikit-learn); without it nothing changes.
    """
    if n > _SINGLE_THREAD_N or blas_controller() is None:
        return contextlib.nullcontext()
    return one_blas_thread()


def _ticker(bar):
    """The progress callback of both stages (a no-op without a bar)."""
    def tick(it, value, step):
        if bar is not None:
            bar.update(1)
            bar.set_postfix(cost=f"{value:.2e}", step=f"{step:.1e}", refresh=False)
    return tick


def _best_start(Y, theta, low, high, rng, max_iter, tol, n_restarts, momentum, tick, history,
                floor=0.0):
    """Random starts until one is accepted: ``((V, residual, settled), steps)`` of the best."""
    best = None
    n_iter = 0
    for start in range(n_restarts + 1):
        V = random_orthogonal(Y.shape[0], rng)
        for repair in range(_SIGN_REPAIRS + 1):
            if repair:                         # negate the columns trapped near -v_k
                trapped = trapped_columns(V.T @ Y)
                if trapped.size == 0:
                    break
                V = V.copy()
                V[:, trapped] *= -1.0
            V, ok1, ok2, steps = _alternate(Y, V, theta, low, high, max_iter, tol, momentum,
                                            tick, history, start)
            n_iter += steps
            residual, settled = _assess(Y, V, theta, low, high, ok1, ok2, history, floor)
            if best is None or (settled, -residual) > (best[2], -best[1]):
                best = (V, residual, settled)
            if settled:
                return best, n_iter
    return best, n_iter


def _alternate(Y, V, theta, low, high, max_iter, tol, momentum, tick, history, start):
    """Stage 1 then stage 2, repeated until a round keeps its support (at most `_ROUNDS`)."""
    lower, upper = (0.0, np.inf) if low is None else (0.0, high)
    sparse = theta is None or theta < 1

    def rule(C):                     # a cheap support: the level from a few thousand entries
        return C > support_threshold(C, low, sample=_RULE_SAMPLE)

    previous = None
    steps = 0
    ok1 = ok2 = True
    for round_ in range(_ROUNDS):
        # stage 1, then (from the second round on) a polish that leaves the truth at
        # once: both stages have it as a fixed point
        # the first round hands over once the support is settled (or the step is small)
        V, h1, ok1 = rectified_procrustes(Y, V, lower=lower, upper=upper, max_iter=max_iter,
                                          tol=_SWITCH_TOL if round_ == 0 else _POLISH_TOL,
                                          momentum=momentum, callback=tick,
                                          support=rule if round_ == 0 and sparse else None)
        history["cost"].extend(h1["cost"])
        steps += len(h1["cost"])
        ok2 = True
        if theta is not None and theta == 1:
            break
        V, h2, ok2 = zero_pattern_refinement(Y, V, low=low, high=None,
                                             max_iter=max(1, max_iter // 4), tol=tol,
                                             callback=tick)
        history["residual"].extend(h2["residual"])
        history["change"].extend(h2["change"])
        history["start"].extend([float(start)] * len(h2["residual"]))
        steps += len(h2["residual"])
        support = support_codes(V.T @ Y, low, high)[1]
        if not ok2 or (previous is not None and np.array_equal(support, previous)):
            break                          # a failing start, or a settled round
        previous = support
    return V, ok1, ok2, steps


def _assess(Y, V, theta, low, high, ok1, ok2, history, floor=0.0) -> tuple[float, bool]:
    """The residual of a start and whether it is accepted, from the data alone.

    The support must carry most of the energy and the zero cluster be balanced about
    0 and alike in every row (a sampling bound on the rows' mean squares), or the
    off-support part be at most ``floor``, the rounding of the signals as given (float32
    signals: their rounding follows the entries' magnitudes and fails the row test).
    """
    C = V.T @ Y
    codes, support = support_codes(C, low, high)
    residual = float(np.linalg.norm(C - codes))
    balance = zero_cluster_balance(C, support) if theta is None or theta < 1 else 1.0
    spread, count = zero_cluster_spread(C, support)
    history["balance"].append(balance)
    history["spread"].append(spread)
    if theta is not None and theta == 1:
        return residual, ok1
    fits = (residual <= _RESIDUAL * float(np.linalg.norm(codes))
            and _BALANCE[0] <= balance <= _BALANCE[1]
            and spread <= 1.0 + 4.0 * math.sqrt(2.0 * math.log(Y.shape[0]) / count))
    return residual, ok2 and (fits or residual <= floor)
