"""Graph Fourier bases as products of Householder reflectors, and their approximation.

An orthogonal $Q$ is an exact product of $r = \\operatorname{rank}(Q - I)$
reflectors and of no fewer (Cartan–Dieudonné). ``householder_fourier_basis``
returns the Laplacian eigenbasis with its columns in ascending order of
frequency (column $k$ for the $k$-th smallest eigenvalue) as a
``HouseholderProduct`` $V = H_1 \\cdots H_m D$:

1. Always available: the Householder QR of the eigenvector matrix of
   ``fourier_basis`` (LAPACK ``geqrf``), $Q = H_1 \\cdots H_{n-1} D$ with
   $D$ the signs of $R$. It represents exactly the columns and signs of
   ``fourier_basis``; about $n - 1$ reflectors, $O(n^3)$ flops in BLAS-3.
2. Only where eigenvalues repeat: inside a repeated eigenspace the basis is
   free, and a search (``_few_reflector_search``) reflects the coordinate
   subspaces onto the eigenspaces one principal angle at a time, keeping the
   ascending column order. For the complete graph $K_n$ it gives
   $Q = I - 2uu^T$ with $u \\propto e_1 - \\mathbf 1/\\sqrt n$: one
   reflector; $r$ disjoint cliques need $r$. The search is abandoned as soon
   as its projected count (steps so far plus the remaining deficiency at the
   rate observed so far) cannot beat the QR, so that graphs where it does not
   pay off (grids, rings, hypercubes, road networks) cost a few steps only.

The product with fewer reflectors is returned. Neither construction is proven
minimal over all eigenbases.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg
from scipy.optimize import linear_sum_assignment

from gsp_householder._validation import check_real_array, check_scalar
from gsp_householder.graphs.fourier import FourierBasis, column_signs, fourier_basis
from gsp_householder.householder import HouseholderProduct

__all__ = ["approximate_householder", "householder_fourier_basis", "aligned_eigenbasis"]


def aligned_eigenbasis(basis: FourierBasis) -> tuple[np.ndarray, np.ndarray]:
    """An eigenbasis as close to the identity as the eigenspaces allow.

    Parameters
    ----------
    basis : FourierBasis
        From ``fourier_basis``.

    Returns
    -------
    Q : ndarray of shape (n, n)
        Orthogonal; column ``j`` is an eigenvector for ``eigenvalues[j]``.
    eigenvalues : ndarray of shape (n,)
        The eigenvalue of each column of ``Q`` (no longer sorted).

    Examples
    --------
    >>> import networkx as nx
    >>> from gsp_householder.graphs.fourier import fourier_basis
    >>> Q, lam = aligned_eigenbasis(fourier_basis(nx.complete_graph(4)))
    >>> int(np.linalg.matrix_rank(Q - np.eye(4), tol=1e-8))  # the subspace greedy needs 1
    2
    """
    if not isinstance(basis, FourierBasis):
        raise TypeError(f"basis must be a FourierBasis, got {type(basis).__name__}")
    V = basis.eigenvectors
    n = V.shape[0]
    groups = basis.eigenspaces
    positions = _aligned_positions(basis)
    Q = np.empty((n, n))
    lam = np.empty(n)
    for k, g in enumerate(groups):
        J = positions[k]
        B = V[:, g]
        U, _, Wt = np.linalg.svd(B[J, :].T)          # polar factor of B_J^T
        Q[:, J] = B @ (U @ Wt)
        lam[J] = basis.eigenvalues[g].mean()
    return Q, lam


def _aligned_positions(basis: FourierBasis) -> list[np.ndarray]:
    """Column positions of each eigenspace maximising the energy of the coordinates in them.

    Each coordinate $e_j$ is assigned to one eigenspace slot by a linear
    assignment maximising $\\sum_j \\|P_{E(j)} e_j\\|^2$. Internal: ``basis``
    is a validated ``FourierBasis``.
    """
    V = basis.eigenvectors
    n = V.shape[0]
    groups = basis.eigenspaces
    energy = np.stack([np.sum(V[:, g] ** 2, axis=1) for g in groups], axis=1)
    slot_group = np.concatenate([np.full(len(g), k) for k, g in enumerate(groups)])
    rows, cols = linear_sum_assignment(-energy[:, slot_group])   # positions x slots
    position_group = np.empty(n, dtype=np.intp)
    position_group[rows] = slot_group[cols]
    order = np.argsort(position_group, kind="stable")
    return np.split(order, np.cumsum([len(g) for g in groups])[:-1])


def householder_fourier_basis(G, laplacian: str | None = None, nodelist=None,
                              weight: str | None = "weight", *, tol: float = 1e-8,
                              return_eigenvalues: bool = False, search: bool = True,
                              order: str = "frequency"):
    """A Laplacian eigenbasis as a product of Householder reflectors.

    Parameters
    ----------
    G : networkx.Graph, pygsp.graphs.Graph, scipy sparse array, array_like or FourierBasis
        The graph (see ``fourier_basis``), or its ``FourierBasis`` (then
        ``laplacian``, ``nodelist``, ``weight`` and ``tol`` are not used).
    laplacian : {"combinatorial", "normalized"}, optional
        Which Laplacian; default as in ``fourier_basis`` (a PyGSP graph's
        ``lap_type``, else combinatorial).
    nodelist : list, optional
        Node order.
    weight : str or None, default "weight"
        Edge attribute holding the weight (networkx graphs only).
    tol : float, default 1e-8
        Relative tolerance grouping equal eigenvalues.
    return_eigenvalues : bool, default False
        Also return the eigenvalue of each column.
    search : bool, default True
        Look for fewer reflectors inside repeated eigenspaces; ``False`` gives
        the QR factorisation of ``fourier_basis(G).eigenvectors`` always.
    order : {"frequency", "fewest"}, default "frequency"
        ``"frequency"``: column ``k`` is an eigenvector of the ``k``-th smallest
        eigenvalue. ``"fewest"``: the columns may come in any order (the
        eigenvalue of each column is returned with ``return_eigenvalues``); the
        search also tries the order that puts each coordinate vector in the
        eigenspace holding most of its energy, which needs fewer reflectors
        for unequal cliques or parts (e.g. $K_{3,5,7,9}$: 6 instead of 18).

    Returns
    -------
    V : HouseholderProduct
        Columns are Laplacian eigenvectors with the sign convention of
        ``fourier_basis`` (entry of largest magnitude positive, through the
        sign diagonal of ``V``). With a simple spectrum, or when the search does
        not pay off, ``V`` equals ``fourier_basis(G).eigenvectors`` up to
        rounding, with about $n - 1$ reflectors. Inside a repeated eigenspace
        the search may return another orthonormal basis of the same eigenspace.
    eigenvalues : ndarray of shape (n,)
        Only if ``return_eigenvalues``: the eigenvalue of each column
        (``fourier_basis(G).eigenvalues`` for ``order="frequency"``).

    Raises
    ------
    ValueError, TypeError
        For an invalid graph (see ``fourier_basis``).

    Examples
    --------
    >>> import networkx as nx
    >>> householder_fourier_basis(nx.complete_graph(6)).m
    1
    >>> G = nx.disjoint_union_all([nx.complete_graph(4)] * 3)
    >>> householder_fourier_basis(G).m
    3
    >>> V, lam = householder_fourier_basis(nx.path_graph(5), return_eigenvalues=True)
    >>> V.m, bool(np.allclose(V.to_dense(), fourier_basis(nx.path_graph(5)).eigenvectors))
    (4, True)
    >>> bool(np.all(np.diff(lam) >= 0))
    True
    """
    if not isinstance(search, bool | np.bool_):
        raise TypeError(f"search must be True or False, got {search!r}")
    if order not in ("frequency", "fewest"):
        raise ValueError(f"order must be 'frequency' or 'fewest', got {order!r}")
    if isinstance(G, FourierBasis):
        basis = G
    else:
        basis = fourier_basis(G, laplacian=laplacian, nodelist=nodelist, weight=weight, tol=tol)
    V, _, lam = _householder_basis(basis, search=bool(search), order=order)
    return (V, lam) if return_eigenvalues else V


def _householder_basis(basis: FourierBasis, *, search: bool = True, order: str = "frequency"):
    """``(V, Q, eigenvalues)``: the product, the same matrix dense, each column's eigenvalue.

    Internal: ``basis`` is a validated ``FourierBasis``. Both constructions hold
    the dense matrix anyway (``fourier_basis``'s eigenvectors, or the search's
    product), which callers that apply it once use instead of the WY form.
    """
    Q = basis.eigenvectors
    V = _householder_qr(Q)
    lam = basis.eigenvalues.copy()
    if not (search and any(len(g) > 1 for g in basis.eigenspaces)):
        return V, Q, lam
    found = _few_reflector_search(basis, basis.eigenspaces, best=V.m)
    if found is not None:
        V, Q = found
    if order == "fewest":
        positions = _aligned_positions(basis)
        found = _few_reflector_search(basis, positions, best=V.m)
        if found is not None:
            V, Q = found
            for g, J in zip(basis.eigenspaces, positions, strict=True):
                lam[J] = basis.eigenvalues[g]
    return V, Q, lam


def _householder_qr(Q: np.ndarray) -> HouseholderProduct:
    """$Q = H_1 \\cdots H_k D$ from LAPACK ``geqrf``, for a validated orthogonal ``Q``.

    ``geqrf`` returns $Q = H_1 \\cdots H_n R$ with $H_j = I - \\tau_j v_j v_j^T$,
    $v_j = (0, \\dots, 0, 1, \\text{qr}_{j+1:n, j})$ and, $Q$ being orthogonal,
    $R$ the diagonal of signs. Since $\\tau_j = 2 / \\|v_j\\|^2$ (or $0$: no
    reflector), $u_j = v_j / \\|v_j\\|$. No Python loop over $n$.
    """
    n = Q.shape[0]
    (qr, tau), _ = scipy.linalg.qr(Q, mode="raw", check_finite=False)
    signs = np.sign(np.diagonal(qr)).copy()
    signs[signs == 0] = 1.0
    keep = np.flatnonzero(tau[:n] != 0.0)
    if keep.size:
        U = qr[:, keep]
        rows = np.arange(n)[:, None]
        U = np.where(rows > keep[None, :], U, 0.0)
        U[keep, np.arange(keep.size)] = 1.0
        U /= np.linalg.norm(U, axis=0)
    else:
        U = np.zeros((n, 0))
    return HouseholderProduct(U, signs)


def _few_reflector_search(basis: FourierBasis, positions: list, best: int, *,
                          sine_tol: float = 1e-9, work: float = 5e5
                          ) -> tuple[HouseholderProduct, np.ndarray] | None:
    """Fewer than ``best`` reflectors for an eigenbasis (and its dense matrix), or ``None``.

    Internal: ``basis`` is a validated ``FourierBasis``; ``positions[k]`` are
    the columns that are to span eigenspace ``k`` (``basis.eigenspaces`` itself
    for the ascending order). With $A$ the current product (start $I$), each
    eigenspace $E$ (basis columns $g$, positions $J$) is to be spanned by the
    columns $A_{:,J}$. Each step takes the pair of principal vectors
    $a \\in \\operatorname{span}(A_{:,J})$, $b \\in E$ of the largest principal
    angle over all eigenspaces, and the reflector through $a - b$, which maps
    $a$ to $b$ and fixes everything orthogonal to $a - b$. The deficiency is the
    number of principal angles whose sine exceeds ``sine_tol``.

    Bounded in time: the search stops with ``None`` when it has used
    ``best - 1`` reflectors, and, once it has spent its free budget of steps
    (``work`` divided by the cost of a step, $n^2 + n \\sum_E \\dim(E)^2$;
    at least 1), as soon as the steps so far plus the smallest deficiency seen,
    divided by its average decrease per step (counting one decrease more than
    seen), reach ``best``. The projection is
    a heuristic: it bounds the time, not the optimality. A result is checked
    against the Laplacian before it is returned.
    """
    groups = basis.eigenspaces
    if all(len(g) == 1 for g in groups) or best <= 1:
        return None
    V = basis.eigenvectors
    n = V.shape[0]
    lam = np.empty(n)
    for g, J in zip(groups, positions, strict=True):
        lam[J] = basis.eigenvalues[g]
    buckets = _size_buckets(V, groups, positions)
    step_cost = n * n + n * sum(len(g) ** 2 for g in groups if len(g) > 1)
    free_steps = max(1, int(work // step_cost))
    Az = np.zeros((n, n + 1))          # column n stays zero: the padding of the buckets
    A = Az[:, :n]
    A[np.diag_indices(n)] = 1.0
    vectors = []
    deficit0 = lowest = None
    while True:
        worst, deficit = _largest_angle(Az, buckets, sine_tol)
        steps = len(vectors)
        if deficit0 is None:
            deficit0 = lowest = deficit
        lowest = min(lowest, deficit)
        if worst is None:
            break
        if steps + 1 >= best:
            return None
        if steps >= free_steps:
            rate = (deficit0 - lowest + 1) / steps     # one closure of benefit of doubt
            if steps + lowest / rate >= best:
                return None
        a, b = worst
        u = a - b
        u /= np.linalg.norm(u)
        A -= 2.0 * np.outer(u, u @ A)
        vectors.append(u)
    L = basis.laplacian
    if L is not None:
        lam_max = max(1.0, float(np.abs(basis.eigenvalues).max()))
        residual = np.linalg.norm(L @ A - A * lam)
        if not residual <= 1e-8 * lam_max * np.sqrt(n):  # pragma: no cover - safeguard
            return None
    signs = column_signs(A)
    if not vectors:
        return HouseholderProduct(np.zeros((n, 0)), signs), A * signs
    # A = H_k ... H_1: the product of the reflectors in reverse order of construction.
    return HouseholderProduct(np.column_stack(vectors[::-1]), signs), A * signs


def _size_buckets(V, groups, positions):
    """Eigenspaces stacked by dimension: ``(B of shape (c, n, K), J of shape (c, K), dims)``.

    Dimension 1 is one bucket; larger dimensions share a bucket per power of two
    ($K = 2, 4, 8, \\dots$), zero-padded to ``K`` columns (a padded column of
    ``B`` and of ``A_J`` is zero, so it adds no principal angle). A step then
    costs a few batched calls, not one per eigenspace.
    """
    by_size: dict[int, list] = {}
    for g, J in zip(groups, positions, strict=True):
        K = 1 if len(g) == 1 else 1 << (len(g) - 1).bit_length()
        by_size.setdefault(K, []).append((g, J))
    n = V.shape[0]
    Vz = np.hstack([V, np.zeros((n, 1))])             # column n: zero, for the padding
    out = []
    for K, items in sorted(by_size.items()):
        cols = np.full((len(items), K), n, dtype=np.intp)
        pos = np.full((len(items), K), n, dtype=np.intp)
        dims = np.array([len(g) for g, _ in items], dtype=np.intp)
        for i, (g, J) in enumerate(items):
            cols[i, : dims[i]] = g
            pos[i, : dims[i]] = J
        out.append((np.ascontiguousarray(np.transpose(Vz[:, cols], (1, 0, 2))), pos, dims))
    return out


def _largest_angle(Az, buckets, sine_tol):
    """Principal pair ``(a, b)`` of the largest angle (or None) and the deficiency.

    ``Az`` is the current product with one more, zero, column (the padding).
    """
    worst = None
    worst_sine = sine_tol
    deficit = 0
    for B, J, dims in buckets:
        AJ = np.transpose(Az[:, J], (1, 0, 2))                  # (c, n, K)
        M = np.matmul(np.swapaxes(B, 1, 2), AJ)                  # (c, K, K) = B^T A_J
        P = AJ - np.matmul(B, M)
        if B.shape[2] == 1:
            sines = np.linalg.norm(P[:, :, 0], axis=1)[:, None]
        else:
            gram = np.matmul(np.swapaxes(P, 1, 2), P)
            sines = np.sqrt(np.clip(np.linalg.eigvalsh(gram), 0.0, None))
        deficit += int(np.count_nonzero(sines > sine_tol))
        top = sines.max(axis=1)
        i = int(np.argmax(top))
        if top[i] > worst_sine:
            worst_sine = top[i]
            k = dims[i]
            Ul, _, Wt = np.linalg.svd(M[i, :k, :k])
            worst = (AJ[i, :, :k] @ Wt[-1], B[i, :, :k] @ Ul[:, -1])
    return worst, deficit


def approximate_householder(Q, n_reflectors: int, *, align: bool = True):
    """Greedy product of ``n_reflectors`` reflectors approximating an orthogonal matrix.

    Step $i$ takes the column of $A_{i-1} - I$ of largest norm, $w$, and the
    reflector $H_i$ through $w$, which maps that column of $A_{i-1}$ onto its
    coordinate vector; $A_i = H_i A_{i-1}$, $A_0 = Q$. After $m$ steps
    $Q \\approx H_1 \\cdots H_m$ with error $\\|A_m - I\\|_F$. With $m =
    \\operatorname{rank}(Q - I)$ the product is exact.

    Parameters
    ----------
    Q : array_like of shape (n, n)
        Orthogonal.
    n_reflectors : int
        Number $0 \\le m \\le n$ of reflectors ($m = n$ is always exact).
    align : bool, default True
        First choose column signs and order (a signed permutation $P$ by linear
        assignment on $|Q|$) to bring $Q P$ close to $I$, and approximate $Q P$.

    Returns
    -------
    V : HouseholderProduct
        The product of the $m$ reflectors.
    errors : ndarray of shape (m + 1,)
        ``errors[i]`` $= \\|QP - H_1 \\cdots H_i\\|_F$ for $i = 0..m$.
    perm : ndarray of int of shape (n,)
        Column order (``Q[:, perm] * signs`` is approximated).
    signs : ndarray of shape (n,)

    Raises
    ------
    ValueError
        If ``Q`` is not square or not orthogonal, or ``n_reflectors > n``.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.model import random_householder_product
    >>> Q = random_householder_product(20, 3, rng=0).to_dense()
    >>> V, err, perm, signs = approximate_householder(Q, 3, align=False)
    >>> bool(err[-1] < 1e-10)
    True
    """
    Q = check_real_array(Q, "Q", ndim=2, allow_float32=False)
    n = Q.shape[0]
    if Q.shape != (n, n):
        raise ValueError(f"Q must be square, got shape {Q.shape}")
    defect = float(np.linalg.norm(Q.T @ Q - np.eye(n)))
    if defect > 1e-6 * np.sqrt(n):
        raise ValueError(f"Q must be orthogonal, ||Q^T Q - I||_F = {defect:.3g}")
    m = check_scalar(n_reflectors, "n_reflectors", low=0, low_inclusive=True, integer=True)
    if m > n:
        raise ValueError(f"n_reflectors must be at most n = {n} (n reflectors already give "
                         f"any orthogonal Q exactly), got {m}")
    perm = np.arange(n)
    signs = np.ones(n)
    if align:
        rows, cols = linear_sum_assignment(-np.abs(Q))
        perm = np.empty(n, dtype=np.intp)
        perm[rows] = cols
        signs = np.sign(Q[np.arange(n), perm])
        signs[signs == 0] = 1.0
    A = Q[:, perm] * signs
    errors = [float(np.linalg.norm(A - np.eye(n)))]
    vectors = []
    for _ in range(m):
        R = A - np.eye(n)
        norms = np.linalg.norm(R, axis=0)
        j = int(np.argmax(norms))
        if norms[j] <= 1e-10 * np.sqrt(n):  # already exact: a reflector would fit rounding
            errors.append(errors[-1])
            continue
        u = R[:, j] / norms[j]
        A = A - 2.0 * np.outer(u, u @ A)
        vectors.append(u)
        errors.append(float(np.linalg.norm(A - np.eye(n))))
    U = np.column_stack(vectors) if vectors else np.zeros((n, 0))
    V = HouseholderProduct(U) if vectors else HouseholderProduct.identity(n)
    return V, np.array(errors), perm, signs
