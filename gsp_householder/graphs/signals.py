"""Signals on a graph under the paper's model: $Y = V X + N$ with $V$ a graph Fourier basis."""

from __future__ import annotations

from gsp_householder._validation import check_rng
from gsp_householder.graphs.fourier import adjacency_matrix
from gsp_householder.graphs.householder_basis import householder_fourier_basis
from gsp_householder.model import make_signals

__all__ = ["make_graph_signals"]


def make_graph_signals(G, n_signals: int, model, snr_db: float | None = None, rng=None, *,
                       basis=None, weight: str | None = "weight"):
    """Signals $Y = V X + N$ on a graph, with $V$ its Householder Fourier basis.

    Parameters
    ----------
    G : networkx.Graph, pygsp.graphs.Graph, scipy sparse array or array_like
        The graph.
    n_signals : int
        Number $p$ of signals.
    model : BernoulliUniform
        Distribution of the codes $X$.
    snr_db : float, optional
        Signal-to-noise ratio in dB; ``None`` for noiseless signals.
    rng : None, int or numpy.random.Generator
        Randomness.
    basis : HouseholderProduct or array_like, optional
        A precomputed Fourier basis of ``G``; default
        ``householder_fourier_basis(G, weight=weight)``.
    weight : str or None, default "weight"
        Edge attribute holding the weight (networkx graphs only).

    Returns
    -------
    Y : ndarray of shape (n, n_signals)
    X : ndarray of shape (n, n_signals)
    V : HouseholderProduct or ndarray
        The basis used.

    Raises
    ------
    ValueError, TypeError
        For an invalid graph, model or size.

    Examples
    --------
    >>> import networkx as nx
    >>> from gsp_householder.model import BernoulliUniform
    >>> Y, X, V = make_graph_signals(nx.complete_graph(5), 3, BernoulliUniform(0.5), rng=0)
    >>> Y.shape, V.m
    ((5, 3), 1)
    """
    rng = check_rng(rng)
    if basis is None:
        basis = householder_fourier_basis(G, weight=weight)
    else:
        n = adjacency_matrix(G, weight=weight)[0].shape[0]
        if basis.shape != (n, n):
            raise ValueError(f"basis must have shape ({n}, {n}) to match G, got {basis.shape}")
    Y, X = make_signals(basis, n_signals, model, snr_db=snr_db, rng=rng)
    return Y, X, basis
