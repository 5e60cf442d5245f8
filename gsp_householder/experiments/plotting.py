"""Figures for the tidy tables of `gsp_householder.experiments`.

Every function draws medians over trials with a 25–75 % quantile band, takes
``ax=None`` (a new figure is made) and returns the Figure. Rows are the
``list[dict]`` tables the studies return (or read back from their CSV files).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

import numpy as np

__all__ = [
    "plot_basis_error",
    "plot_by_group",
    "plot_coefficient_error",
    "plot_noise",
    "plot_vector_error",
    "summarize",
]

_STYLE = {
    "alg3": ("C0", "-"), "alg1": ("C0", "-"),
    "alg3-paper": ("C0", ":"), "alg1-paper": ("C0", ":"), "alg3-unpruned": ("C8", "-"),
    "single-reflector": ("C9", "--"),
    "refine": ("C3", "-"),
    "procrustes-identity": ("C2", "-"), "procrustes-arbitrary": ("C2", ":"),
    "altmin": ("C4", "-"), "h_dla": ("C1", "-"), "msp": ("C5", "-"),
    "identity": ("0.4", "--"), "zero": ("0.4", "--"),
}


def _num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return np.nan


def summarize(rows: Sequence[dict], x: str, y: str, group: Callable[[dict], str] | str,
              where: Callable[[dict], bool] | None = None) -> dict:
    """Median, quartiles and failure fraction of ``y`` per group and ``x``.

    Parameters
    ----------
    rows : sequence of dict
        A study's table.
    x, y : str
        Columns for the horizontal axis and the value.
    group : str or callable
        Column (or function of a row) naming the curve.
    where : callable, optional
        Keep only rows for which it is true.

    Returns
    -------
    dict
        ``{label: {"x": array, "median": array, "q25": array, "q75": array,
        "failed": array, "count": array}}`` with ``x`` ascending; NaN values
        (failed runs) are left out of the quantiles and counted in ``failed``.

    Examples
    --------
    >>> rows = [{"m": 1, "e": 1.0, "k": "a"}, {"m": 1, "e": 3.0, "k": "a"}]
    >>> s = summarize(rows, "m", "e", "k")
    >>> float(s["a"]["median"][0])
    2.0
    """
    key = (lambda r: str(r[group])) if isinstance(group, str) else group
    cells: dict = defaultdict(lambda: defaultdict(list))
    for r in rows:
        if where is not None and not where(r):
            continue
        cells[key(r)][_num(r[x])].append(_num(r[y]))
    out = {}
    for label, by_x in cells.items():
        xs = np.array(sorted(by_x))
        med, q25, q75, failed, count = [], [], [], [], []
        for xv in xs:
            vals = np.array(by_x[xv], dtype=float)
            ok = vals[np.isfinite(vals)]
            count.append(vals.size)
            failed.append(1.0 - ok.size / vals.size)
            if ok.size:
                a, b, c = np.quantile(ok, [0.25, 0.5, 0.75])
            else:
                a = b = c = np.nan
            q25.append(a)
            med.append(b)
            q75.append(c)
        out[label] = {"x": xs, "median": np.array(med), "q25": np.array(q25),
                      "q75": np.array(q75), "failed": np.array(failed),
                      "count": np.array(count)}
    return out


def _axes(ax):
    if ax is None:
        from matplotlib.figure import Figure  # no pyplot: nothing to close, any backend

        fig = Figure(figsize=(5.0, 3.6))
        return fig, fig.subplots()
    return ax.figure, ax


def plot_by_group(rows: Sequence[dict], x: str, y: str, group, *, where=None, ax=None,
                  logx: bool = False, logy: bool = True, styles: dict | None = None,
                  title: str | None = None, ylabel: str | None = None):
    """Median of ``y`` against ``x`` per group, with the 25–75 % band.

    Groups whose runs partly failed (NaN) get the failure percentage in the
    legend; wholly failed groups are listed in the legend without a line.

    Parameters
    ----------
    rows : sequence of dict
        A tidy table, one dict per trial.
    x, y : str
        Columns drawn on the horizontal and vertical axes.
    group : str or tuple of str
        Column(s) whose values define one curve each.
    where : dict, optional
        Keep only rows whose columns equal these values.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure when omitted.
    logx, logy : bool
        Logarithmic axes.
    styles : dict, optional
        Keyword arguments of ``Axes.plot`` per group value.
    title, ylabel : str, optional
        Axes title and vertical label.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> rows = [{"p": p, "e": 1.0 / p, "k": "a"} for p in (1, 2, 4)]
    >>> fig = plot_by_group(rows, "p", "e", "k")
    >>> len(fig.axes[0].lines)
    1
    """
    fig, ax = _axes(ax)
    stats = summarize(rows, x, y, group, where)
    for i, (label, s) in enumerate(stats.items()):
        base = label.split(" ")[0]
        color, ls = (styles or _STYLE).get(base, (f"C{i % 10}", "-"))
        if isinstance(styles, dict) and label in styles:
            color, ls = styles[label]
        if label.endswith("(oracle)"):
            ls = "-."
        fail = float(np.mean(s["failed"]))
        text = label + (f" (NaN {100 * fail:.0f}%)" if fail > 0 else "")
        ok = np.isfinite(s["median"])
        if not ok.any():
            ax.plot([], [], color=color, ls=ls, label=text)
            continue
        if logy:
            ok &= s["median"] > 0
        ax.plot(s["x"][ok], s["median"][ok], color=color, ls=ls, marker=".", label=text)
        ax.fill_between(s["x"][ok], s["q25"][ok], s["q75"][ok], color=color, alpha=0.15,
                        linewidth=0)
    if logx:
        ax.set_xscale("log")
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(x)
    ax.set_ylabel(ylabel or y)
    if title:
        ax.set_title(title, fontsize=9)
    ax.legend(fontsize=6, ncol=2 if len(stats) > 6 else 1)
    ax.grid(alpha=0.3, which="both")
    return fig


def _method_label(r: dict) -> str:
    return r["method"] if r.get("scale") in ("n/a", None, "") else f"{r['method']} ({r['scale']})"


def plot_basis_error(rows: Sequence[dict], *, x: str = "m", distribution: str = "uniform",
                     metric: str = "error", methods: Sequence[str] | None = None, ax=None,
                     logy: bool = True):
    """$\\|V - \\hat V\\|_F$ (or ``metric``) per method against ``x`` (Figs 1 and 2).

    Parameters
    ----------
    rows : sequence of dict
        Rows of `gsp_householder.experiments.fig1.run` or ``fig2.run``.
    x : {"m", "p"}
    distribution : {"uniform", "gaussian"}
    metric : str, default "error"
        Or ``"error_vs_identity"``, ``"rel_error"``.
    methods : sequence of str, optional
        Subset to draw.
    ax : matplotlib Axes, optional
    logy : bool, default True

    Returns
    -------
    matplotlib.figure.Figure
    """
    def keep(r):
        return r["distribution"] == distribution and (methods is None or r["method"] in methods)

    return plot_by_group(rows, x, metric, _method_label, where=keep, ax=ax, logx=(x == "p"),
                         logy=logy, title=f"{distribution} u",
                         ylabel={"error": "||V - V_hat||_F"}.get(metric, metric))


def _theta_label(r: dict) -> str:
    return f"theta={_num(r['theta']):g}"


def plot_vector_error(rows: Sequence[dict], *, metric: str = "linf", method: str = "alg1",
                      scale: str = "blind", distribution: str = "uniform", ax=None,
                      reference: str | None = "zero", logy: bool = True):
    """Error of $\\hat u$ against $p$, one curve per $\\theta$ (Fig. 3; Fig. 4 with ``x_error``).

    Parameters
    ----------
    rows : sequence of dict
        Rows of `gsp_householder.experiments.fig3.run` (or ``fig4.run``).
    metric : str, default "linf"
        ``"linf"``, ``"l2"``, ``"rel_linf"``, ``"fro"``, ``"x_error"``, ``"rel_x_error"``.
    method, scale : str
        The method drawn per $\\theta$ (``scale`` ignored for unscaled methods).
    distribution : {"uniform", "gaussian"}
    reference : str or None, default "zero"
        A method drawn dashed per $\\theta$ for comparison (the trivial estimate).
    ax : matplotlib Axes, optional
    logy : bool, default True
        Logarithmic vertical axis.

    Returns
    -------
    matplotlib.figure.Figure
    """
    def keep(r):
        return (r["distribution"] == distribution and r["method"] == method
                and r["scale"] in (scale, "n/a"))

    fig = plot_by_group(rows, "p", metric, _theta_label, where=keep, ax=ax, logy=logy,
                        styles={}, title=f"{method} ({scale}), {distribution} u")
    ax = fig.axes[0] if ax is None else ax
    if reference is not None:
        ref = summarize(rows, "p", metric, _theta_label,
                        lambda r: r["distribution"] == distribution and r["method"] == reference)
        for i, (label, s) in enumerate(ref.items()):
            ok = np.isfinite(s["median"])
            ax.plot(s["x"][ok], s["median"][ok], color=f"C{i}", ls="--", lw=0.8,
                    label=f"{reference}, {label}" if i == 0 else None)
        ax.legend(fontsize=6)
    ax.set_ylabel(metric)
    return fig


def plot_coefficient_error(rows: Sequence[dict], **kwargs):
    """Per-entry code error against $p$, one curve per $\\theta$ (Fig. 4).

    Parameters
    ----------
    rows : sequence of dict
        Rows of `gsp_householder.experiments.fig4.run`.
    **kwargs
        Passed to `plot_vector_error` (default ``metric="x_error"``).

    Returns
    -------
    matplotlib.figure.Figure
    """
    kwargs.setdefault("metric", "x_error")
    return plot_vector_error(rows, **kwargs)


def plot_noise(rows: Sequence[dict], *, metric: str = "linf", method: str = "alg1",
               scale: str = "blind", distribution: str = "uniform", ax=None,
               logy: bool = True):
    """Error of $\\hat u$ against $p$, one curve per SNR (Fig. 5).

    Parameters
    ----------
    rows : sequence of dict
        Rows of `gsp_householder.experiments.fig5.run`.
    metric : str, default "linf"
        Error column drawn.
    method, scale, distribution : str
        Which method, scale (oracle or blind) and distribution of $u$ to draw.
    ax : matplotlib Axes, optional
        Axes to draw on; a new figure when omitted.
    logy : bool, default True
        Logarithmic vertical axis.

    Returns
    -------
    matplotlib.figure.Figure
    """
    def keep(r):
        return (r["distribution"] == distribution and r["method"] == method
                and r["scale"] in (scale, "n/a"))

    def label(r):
        snr = _num(r["snr_db"])
        return "noiseless" if not np.isfinite(snr) else f"{snr:g} dB"

    fig = plot_by_group(rows, "p", metric, label, where=keep, ax=ax, logy=logy, styles={},
                        title=f"{method} ({scale}), {distribution} u")
    return fig
