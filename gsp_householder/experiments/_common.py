"""Shared machinery of the paper-reproduction studies (private module)."""

from __future__ import annotations

import errno
import os
import pathlib
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterable, Sequence

import numpy as np

from gsp_householder._validation import check_scalar
from gsp_householder.exceptions import DegenerateStatisticsError
from gsp_householder.householder import HouseholderProduct

DISTRIBUTIONS = ("uniform", "gaussian")
THRESHOLD = 0.5  # half the smallest non-zero code value of the paper's model (Uniform[1, 2])


def check_trials(trials) -> int:
    return check_scalar(trials, "trials", low=1, low_inclusive=True, integer=True)


def check_seed(seed) -> int:
    return check_scalar(seed, "seed", low=0, low_inclusive=True, integer=True)


def check_distributions(distributions) -> tuple[str, ...]:
    if isinstance(distributions, str):
        distributions = (distributions,)
    out = tuple(distributions)
    bad = [d for d in out if d not in DISTRIBUTIONS]
    if bad or not out:
        raise ValueError(f"distributions must be drawn from {DISTRIBUTIONS}, got {distributions!r}")
    return out


def check_methods(methods, available: Sequence[str]) -> tuple[str, ...]:
    if methods is None:
        return tuple(available)
    if isinstance(methods, str):
        methods = (methods,)
    out = tuple(methods)
    bad = [m for m in out if m not in available]
    if bad:
        raise ValueError(f"unknown methods {bad}; choose from {list(available)}")
    return out


def check_int_values(values, name: str, low: int) -> list[int]:
    vals = [check_scalar(v, name, low=low, low_inclusive=True, integer=True) for v in values]
    if not vals:
        raise ValueError(f"{name} must not be empty")
    return vals


def trial_rng(seed: int, *keys: int) -> np.random.Generator:
    """Independent stream for one cell and trial, the same for every method."""
    return np.random.default_rng([seed, *keys])


class Progress:
    """tqdm bar on a terminal, a callable ``progress(label, done, total)``, or nothing."""

    def __init__(self, progress, total: int, label: str):
        self.callback: Callable | None = None
        self.bar = None
        self.label, self.total, self.done = label, total, 0
        if callable(progress) and not isinstance(progress, bool):
            self.callback = progress
        elif progress is None or progress is True:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, desc=label, leave=False,
                            disable=not (progress is True or sys.stderr.isatty()))

    def update(self, k: int = 1) -> None:
        self.done += k
        if self.bar is not None:
            self.bar.update(k)
        if self.callback is not None:
            self.callback(self.label, self.done, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def _limit_blas_threads() -> None:
    """One BLAS thread per worker process (when threadpoolctl is installed)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - optional
        return
    threadpool_limits(1)


def run_cells(func: Callable, tasks: Sequence, n_jobs: int, bar: Progress,
              weights: Sequence[int]) -> list[dict]:
    """``func(task) -> rows`` over ``tasks``, in order, on ``n_jobs`` processes.

    Results are concatenated in task order whatever the completion order, so a
    table does not depend on ``n_jobs``.
    """
    n_jobs = check_scalar(n_jobs, "n_jobs", low=1, low_inclusive=True, integer=True)
    out: list[list[dict]] = [[] for _ in tasks]
    if n_jobs == 1 or len(tasks) <= 1:
        for i, task in enumerate(tasks):
            out[i] = func(task)
            bar.update(weights[i])
    else:
        from concurrent.futures import ProcessPoolExecutor, as_completed

        with ProcessPoolExecutor(max_workers=n_jobs, initializer=_limit_blas_threads) as pool:
            futures = {pool.submit(func, task): i for i, task in enumerate(tasks)}
            for fut in as_completed(futures):
                i = futures[fut]
                out[i] = fut.result()
                bar.update(weights[i])
    return [row for rows in out for row in rows]


def timed(fn: Callable, *args, **kwargs):
    """Run ``fn`` with warnings recorded.

    Returns ``(result or None, (wall seconds, process CPU seconds), warning names, error)``.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t0, c0 = time.perf_counter(), time.process_time()
        try:
            out, err = fn(*args, **kwargs), ""
        except (DegenerateStatisticsError, FloatingPointError, np.linalg.LinAlgError) as exc:
            out, err = None, type(exc).__name__
        dt = (time.perf_counter() - t0, time.process_time() - c0)
    names = sorted({w.category.__name__ for w in caught})
    return out, dt, ";".join(names), err


def paper_vectors(Y: np.ndarray, m: int, theta: float | None, mu: float | None):
    """The paper's Algorithm 3 as printed: identity start, $u = k / \\sqrt{k^T s}$ unnormalised.

    Returns the list of vectors (the product of $I - 2 u u^T$ is not orthogonal),
    or raises DegenerateStatisticsError when a radicand is not positive (NaN).
    """
    from gsp_householder.learning.paper import estimate_scale

    n = Y.shape[0]
    a = estimate_scale(Y, theta, mu)
    z = Y.mean(axis=1) / a
    s = np.ones(n)           # Q 1 for the identity start
    us = []
    for i in range(m):
        k = 0.5 * (s - z)
        rad = float(k @ s)
        if not rad > 0:
            raise DegenerateStatisticsError(f"radicand {rad:.3g} <= 0 at step {i + 1}")
        u = k / np.sqrt(rad)
        us.append(u)
        z = z - 2.0 * u * (u @ z)   # W^T Y <- H_i^T W^T Y
    return us


def general_wy(us: Sequence[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """$\\prod_i (I - 2 u_i u_i^T) = I - U T U^T$ for vectors of any norm."""
    U = np.column_stack(us)
    m = U.shape[1]
    T = np.zeros((m, m))
    for j in range(m):
        T[:j, j] = -2.0 * T[:j, :j] @ (U[:, :j].T @ U[:, j])
        T[j, j] = 2.0
    return U, T


def lowrank_difference_norm(V: HouseholderProduct, U: np.ndarray, T: np.ndarray) -> float:
    """$\\|V - (I - U T U^T)\\|_F$ for $V$ without a sign diagonal, in $O(n m^2)$."""
    if np.any(V.signs < 0):
        raise ValueError("V must have no sign diagonal")
    L = np.hstack([V.vectors, U])
    C = np.zeros((L.shape[1], L.shape[1]))
    mv = V.m
    C[:mv, :mv] = -V.wy_factor
    C[mv:, mv:] = T
    _, R = np.linalg.qr(L)
    return float(np.linalg.norm(R @ C @ R.T))


def lowrank_orthogonality_defect(U: np.ndarray, T: np.ndarray) -> float:
    """$\\|A^T A - I\\|_F$ for $A = I - U T U^T$, in $O(n m^2)$."""
    _, R = np.linalg.qr(U)
    S = R @ T @ R.T                      # A = I - Q S Q^T
    k = S.shape[0]
    D = -(S + S.T) + S.T @ S             # A^T A - I = Q D Q^T
    return float(np.linalg.norm(D)) if k else 0.0


def rows_to_columns(rows: Iterable[dict]) -> list[str]:
    cols: list[str] = []
    for r in rows:
        for k in r:
            if k not in cols:
                cols.append(k)
    return cols


#: PNG metadata written by `save_figure`: no software version, so bytes depend on pixels only.
PNG_METADATA = {"Software": None}


def save_figure(fig, path, *, dpi: int, **kwargs) -> pathlib.Path:
    """Save a matplotlib figure as PNG with reproducible bytes (no version metadata)."""
    path = pathlib.Path(path)
    fig.savefig(path, dpi=dpi, format="png", metadata=PNG_METADATA, **kwargs)
    return path


def prepare_out_dir(path, name: str = "out_dir") -> pathlib.Path:
    """Create the output directory ``path`` if needed and check that it can be written.

    Raises ``ValueError`` naming ``name`` (the user's argument, e.g. ``"--out"``)
    when ``path`` is an existing file, cannot be created, or is not writable.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> prepare_out_dir(d / "new").is_dir()
    True
    >>> (d / "f.txt").write_text("x")
    1
    >>> prepare_out_dir(d / "f.txt", "--out")
    Traceback (most recent call last):
    ...
    ValueError: --out must be a directory, but ... is an existing file
    """
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"{name} must be a path (str or os.PathLike), got "
                        f"{type(path).__name__}")
    out = pathlib.Path(path)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{name} must be a directory, but {str(out)!r} is an existing file")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ValueError(f"{name}: cannot create directory {str(out)!r} "
                         f"({exc.strerror or exc})") from None
    try:
        with tempfile.TemporaryFile(dir=out):
            pass
    except OSError as exc:
        why = "" if exc.errno == errno.ENOENT else f" ({exc.strerror or exc})"
        raise ValueError(f"{name}: directory {str(out)!r} is not writable{why}") from None
    return out
