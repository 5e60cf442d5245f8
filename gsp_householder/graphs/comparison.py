"""Comparing an inferred graph (Laplacian, spectrum, Fourier basis) with the truth."""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp

from gsp_householder._validation import check_real_array, check_scalar

__all__ = ["compare_graphs", "compare_spectra"]


def _sparse_laplacian(L, name, weight):
    """A sparse Laplacian from a graph, an InferredLaplacian/FourierBasis or a matrix."""
    from gsp_householder.graphs.fourier import _is_pygsp, _networkx, laplacian_matrix

    if isinstance(L, _networkx().Graph):
        return laplacian_matrix(L, weight=weight)
    if _is_pygsp(L):
        return laplacian_matrix(L)   # a PyGSP graph's lap_type is respected
    if hasattr(L, "laplacian") and not isinstance(L, np.ndarray) and not sp.issparse(L):
        L = L.laplacian
    if sp.issparse(L):
        if L.ndim != 2 or L.shape[0] != L.shape[1]:
            raise ValueError(f"{name} must be a square matrix, got shape {L.shape}")
        A = sp.csr_array(L, dtype=np.float64)
    elif isinstance(L, np.ndarray | list | tuple):
        dense = check_real_array(L, name, ndim=2, allow_float32=False, check_finite=False)
        if dense.shape[0] != dense.shape[1]:
            raise ValueError(f"{name} must be a square matrix, got shape {dense.shape}")
        if not np.isfinite(dense).all():
            raise ValueError(f"{name} must be finite")
        A = sp.csr_array(np.asarray(dense, dtype=np.float64))
    else:
        raise TypeError(f"{name} must be a Laplacian matrix, a networkx or PyGSP graph, an "
                        f"InferredLaplacian or a FourierBasis, got {type(L).__name__}")
    A.sum_duplicates()
    if not np.isfinite(A.data).all():
        raise ValueError(f"{name} must be finite")
    diagonal = A.diagonal()
    off = sp.coo_array(A - sp.diags_array(diagonal))
    off.eliminate_zeros()
    top = float(np.abs(A.data).max(initial=0.0))
    if top > 0 and not diagonal.any() and (off.data >= 0).all():
        raise ValueError(f"{name} looks like an adjacency matrix (zero diagonal, non-negative "
                         f"off-diagonal entries), not a Laplacian; pass the graph itself or "
                         f"laplacian_matrix(W)")
    if top > 0 and off.data.max(initial=0.0) > 1e-8 * top:
        k = int(np.argmax(off.data))
        i, j = int(off.row[k]), int(off.col[k])
        raise ValueError(f"{name} must be a Laplacian (off-diagonal entries <= 0), found "
                         f"{name}[{i}, {j}] = {off.data[k]:.3g}")
    return A


def _labels(L):
    """Node labels of a networkx graph, or the ``nodelist`` of a basis or inferred graph.

    None for matrices, PyGSP graphs and objects without labels: those are taken in
    their row order.
    """
    from gsp_householder.graphs.fourier import _networkx

    if isinstance(L, _networkx().Graph):
        return list(L)
    labels = getattr(L, "nodelist", None)
    return None if labels is None else list(labels)


def _laplacian_pair(L_true, L_hat, weight="weight"):
    """Both Laplacians (sparse), ``L_hat``'s rows put in ``L_true``'s node order.

    Inputs that both carry node labels are matched by label (their node sets must
    agree); otherwise rows are matched by position.
    """
    A = _sparse_laplacian(L_true, "L_true", weight)
    B = _sparse_laplacian(L_hat, "L_hat", weight)
    if A.shape != B.shape:
        raise ValueError(f"L_true and L_hat must have equal shapes, got {A.shape} and {B.shape}")
    order = _row_order(L_true, L_hat)
    return (A, B) if order is None else (A, B[order][:, order])


def _row_order(L_true, L_hat) -> np.ndarray | None:
    """The rows of ``L_hat`` in ``L_true``'s node order: None when either carries no
    labels or both list them in the same order (rows are then matched by position)."""
    la, lb = _labels(L_true), _labels(L_hat)
    if la is None or lb is None or la == lb:
        return None
    position = {label: k for k, label in enumerate(lb)}
    missing = [label for label in la if label not in position]
    if missing:
        raise ValueError(f"L_true and L_hat must label the same nodes: {missing[0]!r} is a "
                         f"node of L_true only ({len(missing)} such nodes)")
    return np.array([position[label] for label in la])


def compare_graphs(L_true, L_hat, *, weight_tol: float = 1e-6, normalize: bool = True,
                   weight: str | None = "weight") -> dict[str, float]:
    """Edge and matrix errors of an inferred Laplacian.

    Parameters
    ----------
    L_true, L_hat : Laplacian, graph or InferredLaplacian
        Arrays or scipy sparse arrays of shape (n, n), networkx or PyGSP graphs
        (their Laplacian in the order ``list(G)``; a PyGSP graph's
        ``lap_type``), ``InferredLaplacian`` or ``FourierBasis`` objects. When
        both carry node labels (a networkx graph, or a ``nodelist``), their nodes
        are matched by label; otherwise by position. An adjacency matrix is
        refused.
    weight_tol : float, default 1e-6
        An entry is an edge when $-L_{ij}$ exceeds ``weight_tol`` times the
        largest $|L_{ij}|$ of its matrix.
    normalize : bool, default True
        Compare $L / \\operatorname{tr} L$ (eigenvectors fix a Laplacian only up
        to scale).
    weight : str or None, default "weight"
        Edge attribute holding the weight of a networkx graph, as in networkx
        (``None``: every edge has weight 1). Ignored for other inputs.

    Returns
    -------
    dict
        ``relative_error`` $\\|L - \\hat L\\|_F / \\|L\\|_F$, ``precision``,
        ``recall``, ``f1``, ``n_edges_true``, ``n_edges_hat``,
        ``true_positives``.

    Raises
    ------
    ValueError
        If the shapes differ, two labelled inputs label different nodes, or a
        matrix is not a Laplacian (an adjacency
        matrix: zero diagonal, non-negative off-diagonal; or a positive
        off-diagonal entry).
    TypeError
        For an input of another type.

    Examples
    --------
    >>> import numpy as np
    >>> import networkx as nx
    >>> compare_graphs(nx.path_graph(3), nx.path_graph(3))["f1"]
    1.0
    >>> L = np.array([[1.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 1.0]])
    >>> r = compare_graphs(L, 2 * L)
    >>> r["f1"], round(r["relative_error"], 12)
    (1.0, 0.0)

    Weights stored under another edge attribute are named as in networkx:

    >>> G = nx.Graph([(0, 1, {"w": 1.0}), (1, 2, {"w": 3.0})])
    >>> H = nx.Graph([(0, 1, {"w": 3.0}), (1, 2, {"w": 1.0})])
    >>> round(compare_graphs(G, H, weight="w")["relative_error"], 3)
    0.722
    >>> compare_graphs(G, H, weight=None)["relative_error"]
    0.0
    """
    A, B = _laplacian_pair(L_true, L_hat, weight)
    weight_tol = check_scalar(weight_tol, "weight_tol", low=0.0, low_inclusive=True)
    if normalize:
        ta, tb = A.trace(), B.trace()
        A = A / ta if ta > 0 else A
        B = B / tb if tb > 0 else B
    ea, eb = _edges(A, weight_tol), _edges(B, weight_tol)
    tp = len(ea & eb)
    prec = tp / len(eb) if eb else (1.0 if not ea else 0.0)
    rec = tp / len(ea) if ea else 1.0
    f1 = 2 * prec * rec / (prec + rec) if prec + rec > 0 else 0.0
    na = float(sp.linalg.norm(A))
    difference = float(sp.linalg.norm(A - B))
    return {
        "relative_error": difference / na if na > 0 else float(sp.linalg.norm(B)),
        "precision": float(prec),
        "recall": float(rec),
        "f1": float(f1),
        "n_edges_true": len(ea),
        "n_edges_hat": len(eb),
        "true_positives": tp,
    }


def _edges(L, weight_tol: float) -> set[tuple[int, int]]:
    """Pairs i < j with $-L_{ij}$ above ``weight_tol`` times the largest $|L_{ij}|$."""
    upper = sp.coo_array(sp.triu(L, k=1))
    upper.eliminate_zeros()
    weights = -upper.data
    keep = weights > weight_tol * max(float(np.abs(weights).max(initial=0.0)), 1e-300)
    return set(zip(upper.row[keep].tolist(), upper.col[keep].tolist(), strict=True))


def compare_spectra(L_true, L_hat, *, V_true=None, V_hat=None, eigenspaces=None,
                    normalize: bool = True, weight: str | None = "weight") -> dict:
    """Eigenvalue and eigenvector errors of an inferred Laplacian or basis.

    Parameters
    ----------
    L_true, L_hat : Laplacian, graph or InferredLaplacian
        As in ``compare_graphs``; their eigenvalues are compared sorted (after
        scaling both to trace $n$ when ``normalize``).
    V_true, V_hat : array_like of shape (n, n) or HouseholderProduct, optional
        Bases to compare; default the eigenvectors of ``L_true`` and ``L_hat``.
        Their rows are the nodes of ``L_true`` and ``L_hat`` respectively, in
        those inputs' order: when both carry labels, the rows of ``V_hat`` are
        matched to ``L_true``'s nodes by label, as ``L_hat``'s are (for
        ``learn_graph``'s result, ``V_hat=result.learned.dictionary`` is in the
        order of its ``nodelist``).
    eigenspaces : list of sequences of int, optional
        Column groups of ``V_true`` sharing an eigenvalue, each a non-empty
        sequence of column indices in ``0..n-1``; default computed from the
        eigenvalues of ``L_true`` (relative tolerance $10^{-8}$).
    normalize : bool, default True
        Scale both Laplacians to trace $n$ first.
    weight : str or None, default "weight"
        Edge attribute of a networkx graph, as in ``compare_graphs``.

    Returns
    -------
    dict
        ``eigenvalue_errors`` (sorted $|\\lambda_k - \\hat\\lambda_k| / \\max|\\lambda|$),
        ``max_eigenvalue_error``, ``basis_error`` ($\\|V - \\hat V P\\|_F$ after the
        best signed permutation $P$), ``relative_basis_error`` (divided by
        $\\sqrt n$), ``principal_angles`` (largest principal angle between each
        true eigenspace and the span of the matched columns of $\\hat V$, radians).

    Examples
    --------
    >>> import numpy as np
    >>> L = np.array([[1.0, -1.0], [-1.0, 1.0]])
    >>> r = compare_spectra(L, L)
    >>> float(r["max_eigenvalue_error"]), round(r["basis_error"], 12)
    (0.0, 0.0)
    """
    from gsp_householder.graphs.fourier import group_eigenvalues
    from gsp_householder.metrics import match_columns

    A, B = (L.toarray() for L in _laplacian_pair(L_true, L_hat, weight))
    n = A.shape[0]
    if normalize:
        A = A * (n / np.trace(A)) if np.trace(A) > 0 else A
        B = B * (n / np.trace(B)) if np.trace(B) > 0 else B
    ea, Va = scipy.linalg.eigh(A)
    eb, Vb = scipy.linalg.eigh(B)
    scale = max(np.abs(ea).max(), 1e-300)
    errs = np.abs(ea - eb) / scale
    V = Va if V_true is None else _dense_basis(V_true)
    W = Vb if V_hat is None else _dense_basis(V_hat)
    if V_hat is not None:                # its rows are L_hat's nodes: as B, in L_true's order
        order = _row_order(L_true, L_hat)
        W = W if order is None else W[order]
    perm, signs = match_columns(V, W)
    Wm = W[:, perm] * signs
    berr = float(np.linalg.norm(V - Wm))
    if eigenspaces is None:
        eigenspaces = group_eigenvalues(ea) if V_true is None else [[k] for k in range(n)]
    eigenspaces = _check_eigenspaces(eigenspaces, n)
    angles = []
    for g in eigenspaces:
        s = np.linalg.svd(V[:, g].T @ Wm[:, g], compute_uv=False)
        angles.append(float(np.arccos(np.clip(s.min(), -1.0, 1.0))))
    return {
        "eigenvalue_errors": errs,
        "max_eigenvalue_error": float(errs.max()),
        "basis_error": berr,
        "relative_basis_error": berr / np.sqrt(n),
        "principal_angles": np.array(angles),
        "eigenvalues_true": ea,
        "eigenvalues_hat": eb,
    }


def _check_eigenspaces(eigenspaces, n: int) -> list[np.ndarray]:
    """Validate column groups: non-empty integer sequences with entries in ``0..n-1``."""
    if isinstance(eigenspaces, str | bytes) or not hasattr(eigenspaces, "__iter__"):
        raise TypeError(f"eigenspaces must be a list of sequences of column indices, got "
                        f"{type(eigenspaces).__name__}")
    out = []
    for k, g in enumerate(eigenspaces):
        arr = np.asarray(g)
        if arr.ndim != 1 or arr.size == 0 or arr.dtype.kind not in "iu":
            raise ValueError(f"eigenspaces[{k}] must be a non-empty sequence of integer column "
                             f"indices, got {g!r}")
        bad = arr[(arr < 0) | (arr >= n)]
        if bad.size:
            raise ValueError(f"eigenspaces[{k}] has column index {int(bad[0])}, outside "
                             f"0..{n - 1}")
        out.append(arr.astype(np.intp))
    return out


def _dense_basis(V):
    if hasattr(V, "to_dense"):
        return V.to_dense()
    if hasattr(V, "eigenvectors"):
        return V.eigenvectors
    return np.asarray(V, dtype=np.float64)
