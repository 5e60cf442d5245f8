"""Figures for graph inference: true and inferred graphs side by side, two spectra."""

from __future__ import annotations

import numpy as np

__all__ = ["plot_graph_comparison", "plot_spectra"]


def plot_graph_comparison(G_true, G_hat, *, pos=None, axes=None, title_hat: str = "inferred"):
    """Draw the true and the inferred graph with the same node positions.

    Edges of the inferred graph that are in the true graph are drawn dark, the
    others (false positives) red; true edges that were missed are drawn dashed
    grey on the right-hand panel.

    Parameters
    ----------
    G_true, G_hat : networkx.Graph
        On the same node set.
    pos : dict, optional
        Node positions; default the node attribute ``"pos"`` when every node
        has one, else a seeded spring layout of ``G_true``.
    axes : sequence of two matplotlib Axes, optional
        Where to draw; default a new figure with two panels.
    title_hat : str, default "inferred"
        Title of the right-hand panel.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import networkx as nx
    >>> fig = plot_graph_comparison(nx.path_graph(4), nx.cycle_graph(4))
    >>> len(fig.axes)
    2
    """
    import matplotlib.pyplot as plt
    import networkx as nx

    if axes is None:
        fig, axes = plt.subplots(1, 2, figsize=(10, 4.5))
    else:
        if len(axes) != 2:
            raise ValueError(f"axes must hold two Axes, got {len(axes)}")
        fig = axes[0].figure
    if pos is None:
        if all("pos" in d for _, d in G_true.nodes(data=True)):
            pos = {v: d["pos"] for v, d in G_true.nodes(data=True)}
        else:
            pos = nx.spring_layout(G_true, seed=0)
    true_edges = {frozenset(e) for e in G_true.edges()}
    hat_edges = {frozenset(e) for e in G_hat.edges()}
    size = 300 / np.sqrt(max(G_true.number_of_nodes(), 1))
    nx.draw_networkx_nodes(G_true, pos, ax=axes[0], node_size=size, node_color="tab:blue")
    nx.draw_networkx_edges(G_true, pos, ax=axes[0], width=0.8)
    axes[0].set_title(f"true ({len(true_edges)} edges)")
    good = [tuple(e) for e in hat_edges & true_edges]
    bad = [tuple(e) for e in hat_edges - true_edges]
    missed = [tuple(e) for e in true_edges - hat_edges]
    nx.draw_networkx_nodes(G_hat, pos, ax=axes[1], node_size=size, node_color="tab:blue")
    nx.draw_networkx_edges(G_hat, pos, edgelist=good, ax=axes[1], width=0.8)
    nx.draw_networkx_edges(G_hat, pos, edgelist=bad, ax=axes[1], width=0.8, edge_color="tab:red")
    nx.draw_networkx_edges(G_hat, pos, edgelist=missed, ax=axes[1], width=0.6,
                           edge_color="0.6", style="dashed")
    axes[1].set_title(f"{title_hat}: {len(good)} correct, {len(bad)} wrong (red), "
                      f"{len(missed)} missed (dashed)", fontsize=9)
    for ax in axes:
        ax.set_axis_off()
    return fig


def plot_spectra(eigenvalues_true, eigenvalues_hat, *, ax=None, labels=("true", "inferred")):
    """Sorted Laplacian eigenvalues of two graphs (both scaled to trace n).

    Parameters
    ----------
    eigenvalues_true, eigenvalues_hat : array_like of shape (n,)
        Eigenvalues, any order.
    ax : matplotlib Axes, optional
    labels : tuple of two str

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> fig = plot_spectra([0, 1, 2], [0, 1.1, 1.9])
    >>> fig.axes[0].get_xlabel()
    'index k'
    """
    import matplotlib.pyplot as plt

    a = np.sort(np.asarray(eigenvalues_true, dtype=np.float64))
    b = np.sort(np.asarray(eigenvalues_hat, dtype=np.float64))
    if ax is None:
        fig, ax = plt.subplots(figsize=(5, 3.5))
    else:
        fig = ax.figure
    ax.plot(a, "o-", ms=3, label=labels[0])
    ax.plot(b, "x--", ms=4, label=labels[1])
    ax.set_xlabel("index k")
    ax.set_ylabel("eigenvalue (trace n)")
    ax.legend()
    return fig
