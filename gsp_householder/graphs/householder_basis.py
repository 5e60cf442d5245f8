"""Graph Fourier bases with few Householder reflectors, and their approximation.

An orthogonal $Q$ is an exact product of $r = \\operatorname{rank}(Q - I)$
reflectors and of no fewer (Cartan–Dieudonné). A Laplacian eigenbasis is not
unique: column order, column signs and the basis inside each repeated
eigenspace are free. ``householder_fourier_basis`` uses that freedom to make
many columns of $Q$ close to (ideally equal to) the coordinate vectors they
replace:

1. Positions: each coordinate $e_j$ is assigned to one eigenspace slot by a
   linear assignment problem maximising $\\sum_j \\|P_{E(j)} e_j\\|^2$ (the
   energy of $e_j$ in its eigenspace).
2. Inside an eigenspace $E$ with orthonormal basis $B$ and assigned positions
   $J$, the basis is the orthogonal Procrustes solution $B R$ closest to
   $I_{:,J}$, $R = \\operatorname{polar}(B_{J,:}^T)$; for a simple eigenvalue this
   is the sign choice.

3. A second construction reflects the coordinate subspaces onto the eigenspaces
   one principal angle at a time (``_subspace_greedy``); the product with fewer
   reflectors is returned. For the complete graph $K_n$ it gives
   $Q = I - 2uu^T$ with $u \\propto e_1 - \\mathbf 1/\\sqrt n$: one reflector
   (Procrustes alone gives 2); $r$ disjoint cliques need $r$.

Ordinary graphs (simple spectra) keep $\\operatorname{rank}(Q - I) \\approx n$.
Neither construction is proven minimal over all eigenbases.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import linear_sum_assignment

from gsp_householder._validation import check_real_array, check_scalar
from gsp_householder.graphs.fourier import FourierBasis, fourier_basis
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
    # energy[j, g] = ||P_g e_j||^2
    energy = np.stack([np.sum(V[:, g] ** 2, axis=1) for g in groups], axis=1)
    slot_group = np.concatenate([np.full(len(g), k) for k, g in enumerate(groups)])
    cost = -energy[:, slot_group]                    # positions x slots
    rows, cols = linear_sum_assignment(cost)
    position_group = np.empty(n, dtype=np.intp)
    position_group[rows] = slot_group[cols]
    Q = np.empty((n, n))
    lam = np.empty(n)
    for k, g in enumerate(groups):
        J = np.flatnonzero(position_group == k)
        B = V[:, g]
        U, _, Wt = np.linalg.svd(B[J, :].T)          # polar factor of B_J^T
        Q[:, J] = B @ (U @ Wt)
        lam[J] = basis.eigenvalues[g].mean()
    return Q, lam


def householder_fourier_basis(G, laplacian: str = "combinatorial", nodelist=None,
                              weight: str | None = "weight", *, tol: float = 1e-8,
                              return_eigenvalues: bool = False):
    """A Laplacian eigenbasis as a product of as few reflectors as this method finds.

    Parameters
    ----------
    G : networkx.Graph, pygsp.graphs.Graph, scipy sparse array or array_like
        The graph (see ``fourier_basis``).
    laplacian : {"combinatorial", "normalized"}, default "combinatorial"
        Which Laplacian.
    nodelist : list, optional
        Node order.
    weight : str or None, default "weight"
        Edge attribute holding the weight (networkx graphs only).
    tol : float, default 1e-8
        Relative tolerance grouping equal eigenvalues.
    return_eigenvalues : bool, default False
        Also return the eigenvalue of each column.

    Returns
    -------
    V : HouseholderProduct
        $V = H_1 \\cdots H_r$ with $r = \\operatorname{rank}(Q - I)$, where $Q$
        is the aligned eigenbasis (``aligned_eigenbasis``); the columns of
        ``V`` are eigenvectors of the Laplacian.
    eigenvalues : ndarray of shape (n,)
        Only if ``return_eigenvalues``.

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
    """
    basis = fourier_basis(G, laplacian=laplacian, nodelist=nodelist, weight=weight, tol=tol)
    Q, lam = aligned_eigenbasis(basis)
    V = HouseholderProduct.from_orthogonal(Q, method="minimal", atol=1e-7 * np.sqrt(Q.shape[0]))
    position_group = np.empty(basis.n, dtype=np.intp)
    for k, g in enumerate(basis.eigenspaces):
        position_group[np.flatnonzero(np.isin(lam, basis.eigenvalues[g].mean()))] = k
    greedy = _subspace_greedy(basis, position_group, max_reflectors=V.m)
    if greedy is not None and greedy.m < V.m:
        V = greedy
    return (V, lam) if return_eigenvalues else V


def _subspace_greedy(basis: FourierBasis, position_group, max_reflectors):
    """Reflect the coordinate subspaces onto the eigenspaces, largest angle first.

    With $A$ the current product (start $I$) and, for each eigenspace $E$ with
    positions $J$, the principal vectors $a \\in \\operatorname{span}(A_{:,J})$,
    $b \\in E$ of the largest principal angle, the reflector through $a - b$
    maps $a$ to $b$ and fixes everything orthogonal to $a - b$. When every
    $\\operatorname{span}(A_{:,J})$ equals its $E$, $A$ is an eigenbasis. For
    $K_n$ one step suffices (it maps $e_j$ to $\\mathbf 1/\\sqrt n$).
    Returns ``None`` if more than ``max_reflectors`` steps would be needed.
    """
    V = basis.eigenvectors
    n = V.shape[0]
    A = np.eye(n)
    vectors = []
    groups = basis.eigenspaces
    positions = [np.flatnonzero(position_group == k) for k in range(len(groups))]
    for _ in range(max_reflectors):
        worst = None
        for k, g in enumerate(groups):
            B = V[:, g]
            AJ = A[:, positions[k]]
            Ul, sig, Wt = np.linalg.svd(B.T @ AJ)
            i = int(np.argmin(sig))
            if sig[i] < 1 - 1e-10 and (worst is None or sig[i] < worst[0]):
                worst = (sig[i], AJ @ Wt[i], B @ Ul[:, i])
        if worst is None:
            break
        _, a, b = worst
        u = a - b
        u /= np.linalg.norm(u)
        A = A - 2.0 * np.outer(u, u @ A)
        vectors.append(u)
    else:
        return None
    if not vectors:
        return HouseholderProduct.identity(n)
    # A = H_k ... H_1, so A = H_1 ... H_k read in reverse order.
    return HouseholderProduct(np.column_stack(vectors[::-1]))


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
        Number $m \\ge 0$ of reflectors.
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
        If ``Q`` is not square or not orthogonal.

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
