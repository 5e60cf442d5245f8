"""Regenerate the paper's figures (and the refinement's phase transition) as CSV and PNG.

``run_reproduction(["fig1", ...], out_dir)`` runs each study with its default
grid, writes ``<figure>.csv`` (the tidy table), ``<figure>.png`` and
``<figure>_timings.csv`` and returns the paths. The table and the figure depend
only on the arguments (same seed, same bytes); the wall-clock and CPU times of
each run are in ``<figure>_timings.csv`` alone, keyed by the row number of the
table. The $O(n^3)$ baselines run on fewer trials than the others (the
figure's subtitle and :data:`NOTES` say which); everything else uses ``trials``
seeded trials per cell.
"""

from __future__ import annotations

import csv
import os
import pathlib
from collections.abc import Iterable

from gsp_householder.experiments._common import (
    check_seed,
    check_trials,
    prepare_out_dir,
    rows_to_columns,
    save_figure,
)

__all__ = ["FIGURES", "NOTES", "TIMING_COLUMNS", "run_reproduction", "split_timings",
           "write_csv"]

#: Columns of the study tables that hold measured times (not reproducible).
TIMING_COLUMNS = ("seconds", "cpu_seconds")
#: Columns copied into the timings table to say which run a time belongs to.
_KEY_COLUMNS = ("figure", "method", "scale", "distribution", "n", "m", "p", "theta", "snr_db",
                "trial")

FIGURES = ("fig1", "fig2", "fig3", "fig4", "fig5", "refine")

#: What each figure runs on fewer trials or iterations than the rest.
NOTES = {
    "fig1": "procrustes-arbitrary (dense SVD) on 3 trials per cell, refine on 5; MSP left "
            "out (p = 20 << n); h_dla 30 iterations (low-rank eigensolver), altmin <= 50",
    "fig2": "MSP (O(n^3) per iteration, 50 iterations) and refine on 5 trials per cell; "
            "h_dla 30 iterations, altmin <= 50",
    "fig3": "refine on 10 trials per cell", "fig4": "refine on 10 trials per cell",
    "fig5": "refine on 3 trials per cell", "refine": "",
}

REFINE_P_VALUES = (20, 30, 40, 60, 80, 100, 150, 200)


def write_csv(rows: Iterable[dict], path) -> pathlib.Path:
    """Write a tidy table to ``path`` (columns in order of first appearance).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> write_csv([{"a": 1, "b": 2.5}], d / "t.csv").read_text().splitlines()
    ['a,b', '1,2.5']
    """
    rows = list(rows)
    path = pathlib.Path(path)
    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=rows_to_columns(rows), extrasaction="ignore")
        writer.writeheader()
        writer.writerows(rows)
    return path


def split_timings(rows: Iterable[dict]) -> tuple[list[dict], list[dict]]:
    """``(rows without the timing columns, timing rows)`` of a study table.

    A timing row holds ``row`` (the index of its row in the first table), the
    columns that identify the run (figure, method, scale, ...) and the times.

    Examples
    --------
    >>> results, times = split_timings([{"method": "alg3", "error": 0.5, "seconds": 0.01}])
    >>> results, times
    ([{'method': 'alg3', 'error': 0.5}], [{'row': 0, 'method': 'alg3', 'seconds': 0.01}])
    """
    results, times = [], []
    for i, r in enumerate(rows):
        results.append({k: v for k, v in r.items() if k not in TIMING_COLUMNS})
        times.append({"row": i, **{k: r[k] for k in _KEY_COLUMNS if k in r},
                      **{k: r[k] for k in TIMING_COLUMNS if k in r}})
    return results, times


def _figure(nrows, ncols):
    from matplotlib.figure import Figure

    fig = Figure(figsize=(4.6 * ncols, 3.4 * nrows))
    return fig, fig.subplots(nrows, ncols, squeeze=False)


def _plot(name: str, rows: list[dict]):
    from gsp_householder.experiments import plotting

    dists = [d for d in ("uniform", "gaussian") if any(r.get("distribution") == d for r in rows)]
    if name in ("fig1", "fig2"):
        fig, axes = _figure(1, len(dists))
        for j, d in enumerate(dists):
            plotting.plot_basis_error(rows, x="m" if name == "fig1" else "p", distribution=d,
                                      ax=axes[0, j])
    elif name in ("fig3", "fig4"):
        metrics = ("linf", "l2") if name == "fig3" else ("x_error",)
        fig, axes = _figure(len(metrics) + 1, len(dists))
        for j, d in enumerate(dists):
            for i, metric in enumerate(metrics):
                plotting.plot_vector_error(rows, metric=metric, distribution=d, ax=axes[i, j])
            theta = 0.5 if any(r["theta"] == 0.5 for r in rows) else rows[0]["theta"]
            plotting.plot_by_group(
                rows, "p", metrics[-1], plotting._method_label, ax=axes[-1, j],
                where=lambda r, d=d, t=theta: r["distribution"] == d and r["theta"] == t,
                title=f"all methods, theta = {theta:g}, {d} u", ylabel=metrics[-1])
    elif name == "fig5":
        fig, axes = _figure(3, len(dists))
        for j, d in enumerate(dists):
            plotting.plot_noise(rows, metric="linf", distribution=d, ax=axes[0, j])
            plotting.plot_noise(rows, metric="l2", distribution=d, ax=axes[1, j])
            snr = min(r["snr_db"] for r in rows)
            plotting.plot_by_group(
                rows, "p", "l2", plotting._method_label, ax=axes[2, j],
                where=lambda r, d=d, s=snr: r["distribution"] == d and r["snr_db"] == s,
                title=f"all methods, SNR {snr:g} dB, {d} u", ylabel="l2")
    else:  # refine
        from gsp_householder.experiments.refine import plot_phase_transition

        fig = plot_phase_transition(rows)
    if NOTES.get(name):
        fig.suptitle(NOTES[name], fontsize=7)
    fig.tight_layout()
    return fig


def _run(name: str, trials: int, seed: int, progress, kwargs: dict, n_jobs: int):
    if name == "refine":
        from gsp_householder.experiments.refine import phase_transition

        kw = {"p_values": REFINE_P_VALUES, "n": 1000, "m": 10, "theta": 0.5} | kwargs
        p_values = kw.pop("p_values")
        return phase_transition(p_values, trials=trials, seed=seed, progress=progress, **kw)
    import importlib

    module = importlib.import_module(f"gsp_householder.experiments.{name}")
    return module.run(trials=trials, seed=seed, progress=progress, **({"n_jobs": n_jobs} | kwargs))


def run_reproduction(figures, out_dir, *, trials: int = 20, seed: int = 0,
                     progress=None, study_kwargs: dict | None = None,
                     n_jobs: int | None = None) -> dict[str, list[pathlib.Path]]:
    """Run the studies and write ``<figure>.csv`` and ``<figure>.png`` into ``out_dir``.

    Parameters
    ----------
    figures : str or iterable of str
        From ``("fig1", "fig2", "fig3", "fig4", "fig5", "refine")``, or ``"all"``.
    out_dir : str or path
        A directory, created if missing; an existing file or a place where no
        directory can be created raises ``ValueError``.
    trials : int, default 20
        Seeded trials per cell (the capped baselines keep their caps, see :data:`NOTES`).
    seed : int, default 0
    progress : None, bool or callable
        ``None``: tqdm bars when stderr is a terminal; ``False``: silent;
        callable ``progress(label, done, total)``.
    study_kwargs : dict, optional
        Per-figure keyword arguments overriding the study's defaults, e.g.
        ``{"fig1": {"n": 200, "m_values": [1, 5]}}`` (smaller grids).
    n_jobs : int, optional
        Worker processes for the figure studies; default ``min(2, os.cpu_count())``.

    Returns
    -------
    dict of str to list of pathlib.Path
        ``{figure: [csv_path, png_path, timings_path]}``. With the same
        arguments the CSV and PNG files are byte-identical from run to run;
        ``<figure>_timings.csv`` holds the measured times.

    Raises
    ------
    ValueError
        On an unknown figure name, bad ``trials``/``seed``, or an ``out_dir`` that
        is a file or cannot be created or written.

    Examples
    --------
    ``run_reproduction("all", "results")`` writes ``results/fig1.csv``,
    ``results/fig1.png``, ... (about 20 minutes on two cores). With
    ``study_kwargs`` the grids can be shrunk for a quick look:

    >>> from gsp_householder.experiments.reproduce import run_reproduction
    >>> run_reproduction(["fig6"], "unused")
    Traceback (most recent call last):
    ...
    ValueError: figures must be drawn from (...) or 'all', got ['fig6']
    """
    if isinstance(figures, str):
        figures = FIGURES if figures == "all" else (figures,)
    figures = list(dict.fromkeys(figures))
    bad = [f for f in figures if f not in FIGURES]
    if bad or not figures:
        raise ValueError(f"figures must be drawn from {FIGURES} or 'all', got {bad or figures}")
    trials = check_trials(trials)
    seed = check_seed(seed)
    if n_jobs is None:
        n_jobs = min(2, os.cpu_count() or 1)
    out = prepare_out_dir(out_dir, "out_dir")
    written: dict[str, list[pathlib.Path]] = {}
    for name in figures:
        rows = _run(name, trials, seed, progress, dict((study_kwargs or {}).get(name, {})),
                    n_jobs)
        results, times = split_timings(rows)
        csv_path = write_csv(results, out / f"{name}.csv")
        timings_path = write_csv(times, out / f"{name}_timings.csv")
        png_path = save_figure(_plot(name, results), out / f"{name}.png", dpi=72)
        written[name] = [csv_path, png_path, timings_path]
    return written

