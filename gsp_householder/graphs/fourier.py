"""Graph Laplacians, graph Fourier bases and the graph Fourier transform.

The graph Fourier basis of a weighted undirected graph is an orthonormal
eigenbasis $V$ of its Laplacian $L = V \\Lambda V^T$, eigenvalues ascending.
Graphs can be given as a ``networkx.Graph``, a ``pygsp.graphs.Graph``, a scipy
sparse array or a dense array (both read as the weighted adjacency matrix).

Two choices make the basis reproducible. The sign of every eigenvector is
fixed so that its entry of largest magnitude (the first one, up to a relative
tolerance) is positive. Inside an eigenspace of a repeated eigenvalue the
basis is not determined by $L$; it is replaced by a canonical one (rows picked
by column-pivoted QR, rows of equal norm in node order, then Gram–Schmidt in that
order), so that the same subspace always yields the same columns, whatever the
BLAS kernels. The eigenspaces are reported.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from gsp_householder._validation import check_real_array, check_scalar, raise_not_finite
from gsp_householder.householder import HouseholderProduct

__all__ = [
    "FourierBasis",
    "adjacency_matrix",
    "fourier_basis",
    "gft",
    "igft",
    "laplacian_matrix",
]

_LAPLACIANS = ("combinatorial", "normalized")


# --------------------------------------------------------------------- input
def adjacency_matrix(G, nodelist=None, weight: str | None = "weight") -> tuple[sp.csr_array, list]:
    """The weighted adjacency matrix of an undirected graph, validated.

    Parameters
    ----------
    G : networkx.Graph, pygsp.graphs.Graph, scipy sparse array or array_like
        The graph. Arrays are read as a symmetric weighted adjacency matrix.
    nodelist : list, optional
        Node order (networkx graphs only). Default ``list(G)``. For the other
        inputs the nodes are ``0, ..., n - 1`` and ``nodelist`` may reorder them.
    weight : str or None, default "weight"
        Edge attribute holding the weight (networkx graphs only); ``None`` gives
        weight 1 to every edge.

    Returns
    -------
    W : scipy.sparse.csr_array of shape (n, n)
        Symmetric, non-negative, zero diagonal, float64.
    nodelist : list
        The node order of the rows and columns of ``W``.

    Raises
    ------
    TypeError
        If ``G`` is none of the accepted types.
    ValueError
        If the graph is directed (non-symmetric), has self-loops, negative,
        NaN or infinite weights, or is empty.

    Examples
    --------
    >>> import networkx as nx
    >>> W, nodes = adjacency_matrix(nx.path_graph(3))
    >>> W.toarray()
    array([[0., 1., 0.],
           [1., 0., 1.],
           [0., 1., 0.]])
    >>> nodes
    [0, 1, 2]
    """
    nx = _networkx()
    if isinstance(G, nx.Graph):
        if G.is_directed():
            raise ValueError("G must be undirected, got a directed networkx graph; "
                             "use G.to_undirected() if the direction does not matter")
        if G.number_of_nodes() == 0:
            raise ValueError("G must have at least one node, got an empty graph")
        loops = list(nx.selfloop_edges(G))
        if loops:
            raise ValueError(f"G must not have self-loops, found {len(loops)} (e.g. at node "
                             f"{loops[0][0]!r}); remove them with "
                             "G.remove_edges_from(nx.selfloop_edges(G))")
        if nodelist is None:
            nodelist = list(G)
        else:
            nodelist = list(nodelist)
            missing = [v for v in nodelist if v not in G]
            if missing:
                raise ValueError(f"nodelist contains nodes not in G, e.g. {missing[0]!r}")
            if len(set(nodelist)) != len(nodelist):
                raise ValueError("nodelist must not contain duplicates")
        try:
            W = nx.to_scipy_sparse_array(G, nodelist=nodelist, weight=weight, dtype=np.float64,
                                         format="csr")
        except (TypeError, ValueError) as exc:
            _raise_bad_weight(G, weight, exc)
        _check_weights(W, "G")
        return sp.csr_array(W), nodelist
    if _is_pygsp(G):
        if G.is_directed():
            raise ValueError("G must be undirected, got a directed pygsp graph")
        W = sp.csr_array(G.W, dtype=np.float64)
    elif sp.issparse(G):
        W = sp.csr_array(G, dtype=np.float64)
    elif isinstance(G, np.ndarray | list | tuple):
        arr = np.asarray(G)
        if arr.dtype.kind not in "fiub":
            raise TypeError(f"G must hold real numbers, got dtype {arr.dtype}")
        W = sp.csr_array(arr.astype(np.float64))
    else:
        raise TypeError("G must be a networkx.Graph, a pygsp graph, a scipy sparse array or "
                        f"an adjacency array, got {type(G).__name__}")
    if W.ndim != 2 or W.shape[0] != W.shape[1]:
        raise ValueError(f"G's adjacency matrix must be square, got shape {W.shape}")
    if W.shape[0] == 0:
        raise ValueError("G must have at least one node, got an empty matrix")
    _check_weights(W, "G")
    if W.diagonal().any():
        i = int(np.flatnonzero(W.diagonal())[0])
        raise ValueError(f"G must not have self-loops, found a non-zero diagonal entry at "
                         f"node {i}")
    asym = abs(W - W.T)
    if asym.nnz and asym.max() > 1e-12 * max(abs(W).max(), 1.0):
        raise ValueError("G must be undirected: its adjacency matrix is not symmetric "
                         f"(max |W - W^T| = {asym.max():.3g})")
    n = W.shape[0]
    if nodelist is None:
        nodelist = list(range(n))
    else:
        nodelist = [int(v) for v in nodelist]
        if sorted(nodelist) != list(range(n)):
            raise ValueError(f"nodelist must be a permutation of 0..{n - 1} for matrix input")
        W = W[nodelist][:, nodelist]
    W.eliminate_zeros()
    return sp.csr_array(W), nodelist


def _raise_bad_weight(G, weight, exc):
    """Name the first edge whose ``weight`` attribute is not a real number."""
    for u, v, w in G.edges(data=weight, default=1.0):
        if isinstance(w, bool) or not isinstance(w, numbers.Real | np.integer | np.floating):
            raise TypeError(f"G's edge ({u!r}, {v!r}) has {weight!r} = {w!r}, which is not a "
                            f"real number; edge weights (attribute {weight!r}) must be real "
                            "numbers") from exc
    raise TypeError(f"G's edge weights (attribute {weight!r}) could not be read as real "
                    f"numbers: {exc}") from exc


def _check_weights(W, name):
    data = W.data
    if data.size and not np.isfinite(data).all():
        bad = "NaN" if np.isnan(data).any() else "infinite"
        raise ValueError(f"{name} must have finite edge weights, found a {bad} weight")
    if data.size and (data < 0).any():
        raise ValueError(f"{name} must have non-negative edge weights, found {data.min():.3g}")


def _networkx():
    import networkx as nx
    return nx


def _is_pygsp(G) -> bool:
    return type(G).__module__.startswith("pygsp") and hasattr(G, "W")


def _resolve_laplacian(G, laplacian: str | None) -> str:
    """The Laplacian type to use for ``G``: ``laplacian`` if given, else the graph's own.

    A PyGSP graph carries its Laplacian type (``G.lap_type``); it is the default
    for such a graph. An explicit ``laplacian`` argument always wins. Every other
    input defaults to ``"combinatorial"``.

    Examples
    --------
    >>> import networkx as nx
    >>> _resolve_laplacian(nx.path_graph(3), None)
    'combinatorial'
    >>> _resolve_laplacian(nx.path_graph(3), "normalized")
    'normalized'
    """
    if laplacian is None:
        laplacian = getattr(G, "lap_type", "combinatorial") if _is_pygsp(G) else "combinatorial"
        if laplacian not in _LAPLACIANS:
            raise ValueError(f"G has lap_type {laplacian!r}, which is not supported; pass "
                             f"laplacian= one of {_LAPLACIANS}")
        return laplacian
    if not isinstance(laplacian, str) or laplacian not in _LAPLACIANS:
        raise ValueError(f"laplacian must be one of {_LAPLACIANS}, got {laplacian!r}")
    return laplacian


def laplacian_matrix(G, laplacian: str | None = None, nodelist=None,
                     weight: str | None = "weight") -> sp.csr_array:
    """The graph Laplacian as a scipy sparse array.

    Parameters
    ----------
    G : networkx.Graph, pygsp.graphs.Graph, scipy sparse array or array_like
        The graph (arrays are adjacency matrices).
    laplacian : {"combinatorial", "normalized"}, optional
        $L = D - W$ or $I - D^{-1/2} W D^{-1/2}$ (isolated nodes get a zero row).
        Default: the ``lap_type`` of a PyGSP graph, else ``"combinatorial"``; an
        explicit value always wins.
    nodelist : list, optional
        Node order, as in networkx.
    weight : str or None, default "weight"
        Edge attribute holding the weight (networkx graphs only).

    Returns
    -------
    scipy.sparse.csr_array of shape (n, n)

    Raises
    ------
    ValueError
        For an unknown ``laplacian`` or an invalid graph (see
        ``adjacency_matrix``).

    Examples
    --------
    >>> import networkx as nx
    >>> laplacian_matrix(nx.path_graph(3)).toarray()
    array([[ 1., -1.,  0.],
           [-1.,  2., -1.],
           [ 0., -1.,  1.]])
    """
    laplacian = _resolve_laplacian(G, laplacian)
    W, _ = adjacency_matrix(G, nodelist=nodelist, weight=weight)
    return _laplacian_from_adjacency(W, laplacian)


def _laplacian_from_adjacency(W: sp.csr_array, laplacian: str) -> sp.csr_array:
    n = W.shape[0]
    d = np.asarray(W.sum(axis=1)).ravel()
    if laplacian == "combinatorial":
        return sp.csr_array(sp.diags_array(d) - W)
    with np.errstate(divide="ignore"):
        s = np.where(d > 0, 1.0 / np.sqrt(np.where(d > 0, d, 1.0)), 0.0)
    S = sp.diags_array(s)
    eye = sp.diags_array((d > 0).astype(np.float64))
    return sp.csr_array(eye - S @ W @ S) if n else W


# ------------------------------------------------------------------- basis
@dataclass
class FourierBasis:
    """A graph Fourier basis: Laplacian eigenvalues and eigenvectors.

    Attributes
    ----------
    eigenvalues : ndarray of shape (n,)
        Ascending.
    eigenvectors : ndarray of shape (n, n)
        Orthonormal columns, column ``k`` for ``eigenvalues[k]``, signs and
        eigenspace bases fixed deterministically.
    nodelist : list
        Node of each row.
    eigenspaces : list of ndarray of int
        Column indices of each group of equal eigenvalues (within ``tol``),
        in ascending order of eigenvalue; a simple eigenvalue is a group of one.
    n_components : int
        Number of connected components.
    laplacian_type : str
        ``"combinatorial"`` or ``"normalized"``.
    laplacian : scipy.sparse.csr_array
        The Laplacian the basis diagonalises.
    """

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray
    nodelist: list
    eigenspaces: list = field(repr=False)
    n_components: int = 1
    laplacian_type: str = "combinatorial"
    laplacian: sp.csr_array | None = field(default=None, repr=False)

    @property
    def connected(self) -> bool:
        """Whether the graph is connected."""
        return self.n_components == 1

    @property
    def n(self) -> int:
        """Number of nodes."""
        return self.eigenvectors.shape[0]

    @property
    def multiplicities(self) -> np.ndarray:
        """Size of each eigenspace, in the order of ``eigenspaces``."""
        return np.array([len(g) for g in self.eigenspaces])


def fourier_basis(G, laplacian: str | None = None, nodelist=None,
                  weight: str | None = "weight", *, tol: float = 1e-8) -> FourierBasis:
    """Eigendecomposition of a graph Laplacian with a reproducible basis.

    Parameters
    ----------
    G : networkx.Graph, pygsp.graphs.Graph, scipy sparse array or array_like
        An undirected graph without self-loops, non-negative weights
        (arrays are adjacency matrices). Disconnected graphs are allowed.
    laplacian : {"combinatorial", "normalized"}, optional
        Which Laplacian. Default: a PyGSP graph's own ``lap_type`` (so a graph
        built with ``lap_type="normalized"`` gets the normalized basis, as
        ``G.U`` in PyGSP), else ``"combinatorial"``. An explicit value wins over
        ``lap_type``.
    nodelist : list, optional
        Node order of the rows, as in networkx; default ``list(G)``. The labels
        are kept in ``FourierBasis.nodelist`` (a grid's ``(i, j)`` tuples, a
        character's name, ...).
    weight : str or None, default "weight"
        Edge attribute holding the weight (networkx graphs only).
    tol : float, default 1e-8
        Two eigenvalues belong to the same eigenspace when they differ by at
        most ``tol * max(1, lambda_max)``.

    Returns
    -------
    FourierBasis
        Eigenvalues ascending; each eigenvector's entry of largest magnitude
        positive; a canonical basis inside repeated eigenspaces; the
        eigenspaces and number of connected components.

    Raises
    ------
    ValueError
        If the graph is directed, has self-loops, or has negative, NaN or
        infinite weights.
    TypeError
        If ``G`` is not a supported graph type.

    Examples
    --------
    >>> import networkx as nx
    >>> B = fourier_basis(nx.complete_graph(4))
    >>> B.eigenvalues.round(6)
    array([0., 4., 4., 4.])
    >>> [len(g) for g in B.eigenspaces], B.connected
    ([1, 3], True)
    >>> bool(abs(B.eigenvectors[:, 0] - 0.5).max() < 1e-12)
    True
    """
    laplacian = _resolve_laplacian(G, laplacian)
    tol = check_scalar(tol, "tol", low=0.0, low_inclusive=True)
    W, nodes = adjacency_matrix(G, nodelist=nodelist, weight=weight)
    L = _laplacian_from_adjacency(W, laplacian)
    n = L.shape[0]
    evals, evecs = np.linalg.eigh(L.toarray())   # LAPACK syevd (divide and conquer)
    evals = np.where(np.abs(evals) < 1e-12 * max(1.0, float(np.abs(evals).max())), 0.0, evals)
    groups = group_eigenvalues(evals, tol)
    _canonicalise_eigenspaces(evecs, groups)
    evecs = evecs * column_signs(evecs)
    n_comp = int(sp.csgraph.connected_components(W, directed=False)[0]) if n > 1 else 1
    return FourierBasis(evals, evecs, nodes, groups, n_comp, laplacian, L)


def group_eigenvalues(eigenvalues, tol: float = 1e-8) -> list[np.ndarray]:
    """Group ascending eigenvalues that differ by at most ``tol * max(1, |lambda|_max)``.

    Parameters
    ----------
    eigenvalues : array_like of shape (n,)
        Sorted ascending.
    tol : float, default 1e-8
        Relative gap below which neighbours share a group.

    Returns
    -------
    list of ndarray of int
        Consecutive index groups covering ``0..n-1``.

    Examples
    --------
    >>> [g.tolist() for g in group_eigenvalues([0.0, 1.0, 1.0 + 1e-12, 3.0])]
    [[0], [1, 2], [3]]
    """
    e = np.asarray(eigenvalues, dtype=np.float64)
    if e.ndim != 1 or e.size == 0:
        raise ValueError(f"eigenvalues must be a non-empty 1-D array, got shape {e.shape}")
    if np.any(np.diff(e) < -1e-12 * max(1.0, float(np.abs(e).max()))):
        raise ValueError("eigenvalues must be sorted ascending")
    scale = tol * max(1.0, float(np.abs(e).max()))
    breaks = np.flatnonzero(np.diff(e) > scale) + 1
    return [np.asarray(g, dtype=np.intp) for g in np.split(np.arange(e.size), breaks)]


def _canonicalise_eigenspaces(evecs: np.ndarray, groups: list) -> None:
    """Replace, in place, the basis of every repeated eigenspace by its canonical one.

    Eigenspaces of equal dimension are processed together (one batched call per
    dimension), so that many small eigenspaces (grids, rings) cost no Python
    loop over the eigenspaces.
    """
    by_size: dict[int, list] = {}
    for g in groups:
        if len(g) > 1:
            by_size.setdefault(len(g), []).append(g)
    for gs in by_size.values():
        if len(gs) == 1:
            evecs[:, gs[0]] = _canonical_basis(evecs[:, gs[0]])
            continue
        cols = np.stack(gs)                                  # (c, k)
        B = np.transpose(evecs[:, cols], (1, 0, 2))          # (c, n, k)
        evecs[:, cols] = np.transpose(_canonical_bases(B), (1, 0, 2))


#: Relative weight by which ``_canonical_bases`` prefers earlier rows as pivots: row ``i`` of
#: ``n`` is weighted by ``1 + PIVOT_ORDER_WEIGHT * (n - 1 - i) / (n - 1)``. Symmetric graphs
#: have eigenspaces whose rows tie exactly in norm; which of them is the largest would
#: otherwise be decided by the last bits of the eigenvectors, which differ with the BLAS
#: kernels. Adjacent rows differ in weight by ``1e-3 / (n - 1)``, far above the rounding of
#: the norms that column-pivoted QR updates (about the square root of the machine epsilon at
#: worst), and far below what would make a pivot ill-conditioned.
PIVOT_ORDER_WEIGHT = 1e-3


def _pivot_order_weights(n: int) -> np.ndarray:
    """Row weights that break pivoting ties in favour of earlier rows."""
    return 1.0 + PIVOT_ORDER_WEIGHT * np.arange(n - 1, -1, -1) / max(n - 1, 1)


def _canonical_bases(B: np.ndarray) -> np.ndarray:
    """``_canonical_basis`` of each ``B[i]`` (shape ``(c, n, k)``), batched.

    The pivot rows are chosen as column-pivoted QR of ``(w B[i]).T`` chooses them (largest
    remaining weighted row norm, then projection; ``w`` from ``_pivot_order_weights``),
    vectorised over ``i``.
    """
    c, n, k = B.shape
    R = B.copy()                                              # C order: fast einsums
    R *= _pivot_order_weights(n)[None, :, None]
    rows = np.empty((c, k), dtype=np.intp)
    idx = np.arange(c)
    for t in range(k):
        p = np.argmax(np.einsum("cnk,cnk->cn", R, R), axis=1)
        rows[:, t] = p
        q = R[idx, p, :]
        q /= np.linalg.norm(q, axis=1, keepdims=True)
        R -= np.einsum("cnk,ck->cn", R, q)[:, :, None] * q[:, None, :]
    rows.sort(axis=1)
    return _basis_from_pivot_rows(B, rows)


def _basis_from_pivot_rows(B: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """The basis of each ``span(B[i])`` that is triangular on its pivot ``rows[i]`` (sorted),
    orthonormalised in that order with positive diagonal."""
    idx = np.arange(B.shape[0])
    pivots = B[idx[:, None], rows, :]                         # (c, k, k)
    C = np.matmul(B, np.linalg.inv(pivots))                   # identity on the pivot rows
    Q, Rr = np.linalg.qr(C)
    d = np.sign(np.diagonal(Rr, axis1=1, axis2=2))
    d = np.where(d == 0, 1.0, d)
    return Q * d[:, None, :]


def _canonical_basis(B: np.ndarray) -> np.ndarray:
    """A basis of span(B) that depends only on the subspace and the row order.

    The pivot rows are those LAPACK's column-pivoted QR picks from ``(w B).T``, ``w`` from
    ``_pivot_order_weights`` (rows of equal norm: the earliest first); the same rows as
    ``_canonical_bases`` picks, in BLAS-3 time for one large eigenspace.
    """
    n, k = B.shape
    _, _, piv = scipy.linalg.qr((B * _pivot_order_weights(n)[:, None]).T, pivoting=True,
                                mode="economic")
    return _basis_from_pivot_rows(B[None], np.sort(piv[:k])[None])[0]


def column_signs(A: np.ndarray, rtol: float = 1e-8) -> np.ndarray:
    """Signs making each column's first entry of (nearly) largest magnitude positive.

    The eigenvector sign convention of `fourier_basis`; ``A`` is a validated 2-D array.
    """
    M = np.abs(A)
    top = M.max(axis=0)
    first = np.argmax(M >= top * (1 - rtol), axis=0)
    s = np.sign(A[first, np.arange(A.shape[1])])
    s[s == 0] = 1.0
    return s


# --------------------------------------------------------------- transform
def _as_operator(V, name="V"):
    """The basis as a HouseholderProduct or a square float64 array, and its node list."""
    if isinstance(V, FourierBasis):
        return V.eigenvectors, V.nodelist
    if isinstance(V, HouseholderProduct):
        return V, None
    if sp.issparse(V):
        raise TypeError(f"{name} must be a dense basis, got a sparse {type(V).__name__}")
    arr = check_real_array(V, name, ndim=2, allow_float32=False)
    if arr.shape[0] != arr.shape[1]:
        raise ValueError(f"{name} must be a square basis, got shape {arr.shape}")
    return arr, None


def _as_node_signals(x, n: int, nodelist, name: str) -> np.ndarray:
    """Validate signals for a basis of size ``n``; a dict is read through ``nodelist``."""
    if isinstance(x, dict):
        if nodelist is None:
            raise TypeError(f"{name} is a dict keyed by node, which needs a FourierBasis "
                            "(it knows the node order); with this basis pass an array whose "
                            "rows follow the basis rows")
        missing = [v for v in nodelist if v not in x]
        if missing:
            raise ValueError(f"{name} has no value for node {missing[0]!r} "
                             f"({len(missing)} of {n} nodes missing)")
        if len(x) != n:
            extra = next(k for k in x if k not in set(nodelist))
            raise ValueError(f"{name} has a value for {extra!r}, which is not a node of the "
                             "basis")
        try:
            x = np.array([x[v] for v in nodelist])
        except ValueError as exc:
            raise ValueError(f"{name}'s values must all have the same shape: {exc}") from exc
    if np.ndim(x) == 0 and not isinstance(x, np.ndarray | list | tuple):
        if isinstance(x, numbers.Number):
            raise ValueError(f"{name} must be an array of shape ({n},) or ({n}, p), got the "
                             f"scalar {x!r}")
        raise TypeError(f"{name} must be an array of shape ({n},) or ({n}, p), got "
                        f"{type(x).__name__}")
    arr = check_real_array(x, name, ndim=(1, 2), check_finite=False)
    if arr.shape[0] != n:
        raise ValueError(f"{name} has {arr.shape[0]} rows (shape {arr.shape}), the basis has "
                         f"{n}")
    if not np.isfinite(arr).all():
        raise_not_finite(arr, name)
    return arr


def gft(V, signals) -> np.ndarray:
    """Graph Fourier transform $\\hat x = V^T x$.

    Parameters
    ----------
    V : HouseholderProduct, FourierBasis or array_like of shape (n, n)
        The Fourier basis; a HouseholderProduct with $m$ reflectors costs
        $O(mn)$ per signal instead of $O(n^2)$.
    signals : array_like of shape (n,) or (n, p), or dict
        Signals as columns, rows in the basis's node order. With a
        ``FourierBasis``, a dict ``{node: value}`` (values scalars, or 1-D
        arrays of one length for several signals) is accepted and read in the
        order of ``V.nodelist``; it must give every node, and only nodes.

    Returns
    -------
    ndarray of the same shape as ``signals`` (shape ``(n,)`` or ``(n, p)`` for a dict)

    Raises
    ------
    ValueError
        If the shapes do not match, ``signals`` has a NaN or infinite entry, is
        a scalar, or is a dict missing a node or naming a non-node.
    TypeError
        If ``signals`` is not numeric, or is a dict while ``V`` is not a
        ``FourierBasis``.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import HouseholderProduct
    >>> V = HouseholderProduct(np.ones(4))
    >>> x = np.array([1.0, 2.0, 3.0, 4.0])
    >>> bool(np.allclose(igft(V, gft(V, x)), x))
    True
    >>> import networkx as nx
    >>> B = fourier_basis(nx.path_graph(["a", "b", "c"]))
    >>> bool(np.allclose(gft(B, {"c": 3.0, "a": 1.0, "b": 2.0}), gft(B, [1.0, 2.0, 3.0])))
    True
    """
    op, nodes = _as_operator(V)
    x = _as_node_signals(signals, op.shape[0], nodes, "signals")
    return op.T @ x


def igft(V, coefficients) -> np.ndarray:
    """Inverse graph Fourier transform $x = V \\hat x$.

    Parameters
    ----------
    V : HouseholderProduct, FourierBasis or array_like of shape (n, n)
        The Fourier basis.
    coefficients : array_like of shape (n,) or (n, p)
        Fourier coefficients as columns, row ``k`` for column ``k`` of the basis
        (frequency ``k`` for a ``FourierBasis``).

    Returns
    -------
    ndarray of the same shape as ``coefficients``; rows in the basis's node order

    Raises
    ------
    ValueError
        If the shapes do not match or ``coefficients`` is a scalar or has a NaN
        or infinite entry.
    TypeError
        If ``coefficients`` is not numeric.

    Examples
    --------
    >>> import numpy as np
    >>> igft(np.eye(2), np.array([1.0, 2.0]))
    array([1., 2.])
    """
    op, _ = _as_operator(V)
    c = _as_node_signals(coefficients, op.shape[0], None, "coefficients")
    return op @ c
