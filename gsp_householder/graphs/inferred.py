"""The result of Laplacian inference, and its conversion to a networkx graph."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from gsp_householder._validation import check_real_array

__all__ = ["InferredLaplacian", "to_networkx"]


@dataclass
class InferredLaplacian:
    """Result of ``infer_laplacian``.

    Attributes
    ----------
    laplacian : scipy.sparse.csr_array of shape (n, n)
        A valid combinatorial Laplacian (symmetric, off-diagonal $\\le 0$,
        rows summing to 0), trace normalised to $n$.
    eigenvalues : ndarray of shape (n,)
        The eigenvalue $\\lambda_k$ found for column $k$ of the basis.
    n_edges : int
        Number of edges of the inferred graph.
    residual : float
        $\\|\\hat V^T L \\hat V - \\operatorname{diag}(\\hat V^T L \\hat V)\\|_F /
        \\|L\\|_F$ for the returned $L$: 0 when $\\hat V$ diagonalises it exactly.
    n_lp : int
        Number of linear programs solved.
    history : dict
        ``"n_edges"`` after each reweighting and ``"n_constraints"`` used.
    """

    laplacian: sp.csr_array
    eigenvalues: np.ndarray
    n_edges: int
    residual: float
    n_lp: int = 0
    history: dict = field(default_factory=dict, repr=False)

    def to_networkx(self, nodelist=None):
        """The inferred graph as a ``networkx.Graph`` (see ``to_networkx``)."""
        return to_networkx(self.laplacian, nodelist)


def to_networkx(L_hat, nodelist=None, *, tol: float = 0.0):
    """The weighted graph of a combinatorial Laplacian.

    Parameters
    ----------
    L_hat : scipy sparse array, array_like of shape (n, n) or InferredLaplacian
        A combinatorial Laplacian; edge weights are $-L_{ij}$.
    nodelist : list, optional
        Node labels of the rows; default ``0..n-1``.
    tol : float, default 0.0
        Entries with $-L_{ij} \\le$ ``tol`` are not edges.

    Returns
    -------
    networkx.Graph
        With a ``"weight"`` attribute on every edge.

    Raises
    ------
    ValueError
        If the shapes or the node list do not match.

    Examples
    --------
    >>> import numpy as np
    >>> G = to_networkx(np.array([[1.0, -1.0], [-1.0, 1.0]]), ["a", "b"])
    >>> list(G.edges(data=True))
    [('a', 'b', {'weight': 1.0})]
    """
    import networkx as nx

    if isinstance(L_hat, InferredLaplacian):
        L_hat = L_hat.laplacian
    if sp.issparse(L_hat):
        A = sp.coo_array(sp.triu(sp.csr_array(L_hat), k=1))
        n = L_hat.shape[0]
        if L_hat.shape != (n, n):
            raise ValueError(f"L_hat must be square, got shape {L_hat.shape}")
        rows, cols, vals = A.row, A.col, -A.data
    else:
        Ld = check_real_array(L_hat, "L_hat", ndim=2, allow_float32=False)
        n = Ld.shape[0]
        if Ld.shape != (n, n):
            raise ValueError(f"L_hat must be square, got shape {Ld.shape}")
        rows, cols = np.triu_indices(n, 1)
        vals = -Ld[rows, cols]
    if nodelist is None:
        nodelist = list(range(n))
    nodelist = list(nodelist)
    if len(nodelist) != n:
        raise ValueError(f"nodelist has {len(nodelist)} nodes, L_hat has {n} rows")
    G = nx.Graph()
    G.add_nodes_from(nodelist)
    keep = vals > tol
    G.add_weighted_edges_from(
        (nodelist[i], nodelist[j], float(w)) for i, j, w in zip(rows[keep], cols[keep], vals[keep],
                                                                strict=True))
    return G
