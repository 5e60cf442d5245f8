"""Signals on a graph under the paper's model: $Y = V X + N$ with $V$ a graph Fourier basis."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from gsp_householder._validation import check_real_array, check_rng
from gsp_householder.graphs.fourier import (
    FourierBasis,
    _laplacian_from_adjacency,
    _resolve_laplacian,
    adjacency_matrix,
    fourier_basis,
)
from gsp_householder.graphs.householder_basis import _householder_basis
from gsp_householder.householder import HouseholderProduct
from gsp_householder.model import make_signals

__all__ = ["GraphSignals", "make_graph_signals"]


@dataclass(frozen=True)
class GraphSignals:
    """Signals on a graph, their codes and the Fourier basis that made them.

    Unpacks as ``Y, X, V = make_graph_signals(...)``; the frequencies and the
    node order are attributes.

    Attributes
    ----------
    Y : ndarray of shape (n, p)
        The signals, one per column; row ``i`` is node ``nodelist[i]``.
    X : ndarray of shape (n, p)
        The sparse codes: row ``k`` is the coefficient of column ``k`` of ``V``.
    V : HouseholderProduct or ndarray of shape (n, n)
        The basis used.
    eigenvalues : ndarray of shape (n,)
        The frequency of each column of ``V`` (and row of ``X``): the Laplacian
        eigenvalue, ascending, when ``make_graph_signals`` built the basis or was
        given a ``FourierBasis``; the Rayleigh quotient $v_k^T L v_k$ of each
        column, in the given order, for a basis given as a product or an array.
    nodelist : list
        Node of each row of ``Y`` and ``V``.

    Examples
    --------
    >>> import networkx as nx
    >>> from gsp_householder.model import BernoulliUniform
    >>> out = make_graph_signals(nx.path_graph(4), 3, BernoulliUniform(0.5), rng=0)
    >>> Y, X, V = out
    >>> out.eigenvalues.round(3)
    array([0.   , 0.586, 2.   , 3.414])
    """

    Y: np.ndarray
    X: np.ndarray
    V: HouseholderProduct | np.ndarray = field(repr=False)
    eigenvalues: np.ndarray = field(repr=False)
    nodelist: list = field(repr=False)

    def __iter__(self):
        return iter((self.Y, self.X, self.V))

    def __len__(self) -> int:
        return 3

    def __getitem__(self, index):
        return (self.Y, self.X, self.V)[index]


def make_graph_signals(G, n_signals: int, model, snr_db: float | None = None, rng=None, *,
                       basis=None, weight: str | None = "weight",
                       laplacian: str | None = None) -> GraphSignals:
    """Signals $Y = V X + N$ on a graph, with $V$ its Fourier basis as reflectors.

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
    basis : FourierBasis, HouseholderProduct or array_like of shape (n, n), optional
        A precomputed basis of ``G``. Default
        ``householder_fourier_basis(G, weight=weight, laplacian=laplacian)``:
        columns in ascending order of frequency. The signals are computed
        with the dense matrix that the construction holds anyway, equal to
        ``V @ X`` up to rounding. A ``FourierBasis`` is
        factored into reflectors (its columns, order and signs kept exactly)
        and must have the nodes of ``G``; its node order is used. A product or
        an array must be ``n x n`` and orthogonal; its columns are used in the
        given order.
    weight : str or None, default "weight"
        Edge attribute holding the weight (networkx graphs only).
    laplacian : {"combinatorial", "normalized"}, optional
        Which Laplacian defines the frequencies; default as in ``fourier_basis``
        (a PyGSP graph's ``lap_type``, else combinatorial).

    Returns
    -------
    GraphSignals
        Unpacks as ``Y, X, V`` (signals, codes, basis); also ``.eigenvalues``
        (frequency of each column of ``V``, i.e. of each row of ``X``) and
        ``.nodelist`` (node of each row of ``Y``).

    Raises
    ------
    ValueError
        For an invalid graph, model or size; a ``basis`` of the wrong shape, not
        orthogonal, non-finite, or a ``FourierBasis`` of other nodes.
    TypeError
        For a ``basis`` of another type.

    Examples
    --------
    >>> import networkx as nx
    >>> from gsp_householder.model import BernoulliUniform
    >>> Y, X, V = make_graph_signals(nx.complete_graph(5), 3, BernoulliUniform(0.5), rng=0)
    >>> Y.shape, V.m
    ((5, 3), 1)
    >>> from gsp_householder.graphs.fourier import fourier_basis
    >>> G = nx.cycle_graph(6)
    >>> out = make_graph_signals(G, 4, BernoulliUniform(0.5), rng=0, basis=fourier_basis(G))
    >>> bool(np.allclose(out.V.to_dense(), fourier_basis(G).eigenvectors))
    True
    """
    rng = check_rng(rng)
    laplacian = _resolve_laplacian(G, laplacian)
    if isinstance(basis, FourierBasis):
        W, nodes = adjacency_matrix(G, weight=weight)
        n = W.shape[0]
        if basis.n != n:
            raise ValueError(f"basis has {basis.n} nodes, G has {n}")
        if set(basis.nodelist) != set(nodes):
            extra = next(v for v in basis.nodelist if v not in set(nodes))
            raise ValueError(f"basis has node {extra!r}, which is not a node of G")
        nodes = list(basis.nodelist)
        V, dense, eigenvalues = _householder_basis(basis, search=False)
    elif basis is None:
        W, nodes = adjacency_matrix(G, weight=weight)
        fb = fourier_basis(W, laplacian=laplacian)
        V, dense, eigenvalues = _householder_basis(fb)
    else:
        W, nodes = adjacency_matrix(G, weight=weight)
        V = dense = _check_basis(basis, W.shape[0])
        eigenvalues = _rayleigh_quotients(_laplacian_from_adjacency(W, laplacian), V)
    # One product with the dense matrix the construction already holds; equal to V @ X
    # up to rounding.
    Y, X = make_signals(dense, n_signals, model, snr_db=snr_db, rng=rng)
    return GraphSignals(Y, X, V, eigenvalues, nodes)


def _check_basis(basis, n: int):
    """A HouseholderProduct or an orthogonal float64 array of shape ``(n, n)``."""
    if isinstance(basis, HouseholderProduct):
        if basis.n != n:
            raise ValueError(f"basis must have shape ({n}, {n}) to match G, got {basis.shape}")
        return basis
    if sp.issparse(basis):
        raise TypeError(f"basis must be a FourierBasis, a HouseholderProduct or a dense "
                        f"array, got a sparse {type(basis).__name__}")
    if not isinstance(basis, np.ndarray | list | tuple):
        raise TypeError(f"basis must be a FourierBasis, a HouseholderProduct or an "
                        f"orthogonal array, got {type(basis).__name__}")
    Q = check_real_array(basis, "basis", ndim=2, allow_float32=False)
    if Q.shape != (n, n):
        raise ValueError(f"basis must have shape ({n}, {n}) to match G, got {Q.shape}")
    defect = float(np.linalg.norm(Q.T @ Q - np.eye(n)))
    if not defect <= 1e-8 * np.sqrt(n):
        raise ValueError(f"basis must be orthogonal: ||basis^T basis - I||_F = {defect:.3g}")
    return Q


def _rayleigh_quotients(L: sp.csr_array, V) -> np.ndarray:
    """$v_k^T L v_k$ for each column of a validated basis (sparse $L$, no $n^2$ solve)."""
    D = V.to_dense() if isinstance(V, HouseholderProduct) else V
    return np.einsum("ij,ij->j", D, np.asarray(L @ D))
