"""Sparse combinatorial Laplacians with prescribed eigenvectors (spectral templates).

Given an orthonormal basis $\\hat V$ (for example a learned dictionary),
find a combinatorial Laplacian $L = \\hat V \\operatorname{diag}(\\lambda) \\hat V^T$,
symmetric with off-diagonal entries $\\le 0$ and zero row sums, with as few
edges as possible (Segarra, Marques, Mateos & Ribeiro 2017).

Formulation
-----------
Write $L(\\lambda) = \\sum_k \\lambda_k P_k$ with $P_k$ the projector onto the
$k$-th eigenspace (one column, or a group of columns known to share an
eigenvalue; projectors make the problem independent of the basis chosen inside
an eigenspace). The column closest to the constant vector is first rotated
onto $\\mathbf 1/\\sqrt n$ by one Householder reflection and its eigenvalue is
fixed at 0, so rows sum to zero by construction. Every off-diagonal entry
$L_{ij}(\\lambda) = \\sum_k \\lambda_k (P_k)_{ij}$ is linear in $\\lambda$: the
valid Laplacians form a polyhedral cone in only $g - 1$ unknowns ($g$
eigenspaces), cut out by $n(n-1)/2$ inequalities $L_{ij}(\\lambda) \\le 0$.
A sparse graph is a vertex of this cone where many inequalities are tight.

Why the plain $\\ell_1$ objective fails: with $L_{ij} \\le 0$ and $L\\mathbf 1 = 0$,
$\\sum_{i \\ne j} |L_{ij}| = \\operatorname{tr} L$, so "minimise the $\\ell_1$ norm
subject to $\\operatorname{tr} L = n$" is a constant objective and any vertex is
optimal. Here the trace is fixed at $n$ and the objective is a *weighted*
$\\ell_1$ norm $\\sum_{i<j} w_{ij} |L_{ij}|$, which is linear on the cone:

1. Start from i.i.d. exponential weights. Since the $\\ell_1$ mass is fixed,
   the objective is a $|L_{ij}|$-weighted average of the weights over the
   support; averages over few entries fluctuate most, so sparse vertices are
   favoured over dense ones.
2. Reweight, $w_{ij} = 1 / (|L_{ij}| + \\varepsilon)$ (Candès, Wakin & Boyd
   2008), a majorise-minimise step on $\\sum \\log(|L_{ij}| + \\varepsilon)$,
   which moves from vertex to sparser vertex.

Eigenvalue order is information: the DCT basis of a path (hence of a grid) is
shared by several path graphs with permuted eigenvalues, so from the columns
alone a grid is not identifiable. When the columns are sorted by ascending
eigenvalue (as ``fourier_basis`` returns them), ``ordered=True`` adds
$\\lambda_k \\le \\lambda_{k+1}$ and removes those twins.

Each linear program has $g - 1$ variables; it is solved with HiGHS
(``scipy.optimize.linprog``) by constraint generation: only the inequalities
violated by the current solution are added, computing all $L_{ij}$ with two
$n \\times n$ matrix products per round.

Noisy eigenvectors: the inequalities are relaxed to $L_{ij} \\le \\tau$ and
entries above $-\\tau_\\text{edge}$ are dropped from the returned graph; the
returned Laplacian is rebuilt from the kept edge weights, so it is always a
valid combinatorial Laplacian.
"""

from __future__ import annotations

import warnings

import numpy as np
import scipy.sparse as sp
from scipy.optimize import linprog

from gsp_householder._validation import check_real_array, check_rng, check_scalar
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs.inferred import InferredLaplacian
from gsp_householder.householder import HouseholderProduct

__all__ = ["infer_laplacian"]


def infer_laplacian(V_hat, *, eigenspaces=None, ordered: bool | None = None,
                    n_reweights: int = 4, n_starts: int = 1, tol: float = 0.0,
                    edge_tol: float | None = None, epsilon: float = 1e-3,
                    rng=None, max_rounds: int = 100) -> InferredLaplacian:
    """Sparsest valid combinatorial Laplacian with the given eigenvectors.

    Parameters
    ----------
    V_hat : array_like of shape (n, n), HouseholderProduct or FourierBasis
        An orthonormal basis (it is projected on the orthogonal matrices first).
        One column must be close to the constant vector. A ``FourierBasis``
        supplies its eigenspaces and ``ordered=True`` by default.
    eigenspaces : sequence of sequences of int, optional
        Groups of columns known to share one eigenvalue; each group gets one
        $\\lambda$ (its projector), which makes the result independent of the
        basis inside the group. Default: every column is its own group.
    ordered : bool, optional
        The columns (groups) are sorted by ascending eigenvalue: impose
        $\\lambda_k \\le \\lambda_{k+1}$. Default: True for a ``FourierBasis``,
        else False.
    n_reweights : int, default 4
        Reweighted-$\\ell_1$ steps after the first linear program.
    n_starts : int, default 1
        Independent random starts; the sparsest result is kept.
    tol : float, default 0.0
        Slack $\\tau$ of the inequalities $L_{ij} \\le \\tau$, relative to the
        mean degree (the trace is normalised to $n$). Use about the relative
        error of ``V_hat`` for noisy eigenvectors.
    edge_tol : float, optional
        Entries with $-L_{ij} \\le$ ``edge_tol`` (relative to the mean degree)
        are not edges. Default: ``max(1e-7, 2 * tol)``.
    epsilon : float, default 1e-3
        Reweighting offset, relative to the largest $|L_{ij}|$.
    rng : None, int or numpy.random.Generator
        Randomness of the starting weights.
    max_rounds : int, default 100
        Constraint-generation rounds per linear program.

    Returns
    -------
    InferredLaplacian

    Raises
    ------
    ValueError
        If ``V_hat`` is not square, not close to orthogonal, or if
        ``eigenspaces`` is not a partition of the columns.

    Warns
    -----
    ConvergenceWarning
        If a linear program fails or constraint generation does not finish.

    Examples
    --------
    >>> import networkx as nx
    >>> from gsp_householder.graphs.fourier import fourier_basis
    >>> B = fourier_basis(nx.cycle_graph(6))
    >>> res = infer_laplacian(B, rng=0)
    >>> res.n_edges
    6
    >>> sorted(res.to_networkx().edges())
    [(0, 1), (0, 5), (1, 2), (2, 3), (3, 4), (4, 5)]
    """
    from gsp_householder.graphs.fourier import FourierBasis

    if isinstance(V_hat, FourierBasis):
        if eigenspaces is None:
            eigenspaces = V_hat.eigenspaces
        if ordered is None:
            ordered = True
        V = V_hat.eigenvectors
    elif isinstance(V_hat, HouseholderProduct):
        V = V_hat.to_dense()
    else:
        V = check_real_array(V_hat, "V_hat", ndim=2, allow_float32=False)
    ordered = bool(ordered)
    n = V.shape[0]
    if V.shape != (n, n) or n < 2:
        raise ValueError(f"V_hat must be square with n >= 2, got shape {V.shape}")
    n_reweights = check_scalar(n_reweights, "n_reweights", low=0, low_inclusive=True,
                               integer=True)
    n_starts = check_scalar(n_starts, "n_starts", low=1, low_inclusive=True, integer=True)
    max_rounds = check_scalar(max_rounds, "max_rounds", low=1, low_inclusive=True, integer=True)
    tol = check_scalar(tol, "tol", low=0.0, low_inclusive=True)
    epsilon = check_scalar(epsilon, "epsilon", low=0.0)
    edge_tol = max(1e-7, 2.0 * tol) if edge_tol is None else \
        check_scalar(edge_tol, "edge_tol", low=0.0, low_inclusive=True)
    rng = check_rng(rng)

    defect = np.linalg.norm(V.T @ V - np.eye(n)) / np.sqrt(n)
    if defect > 0.5:
        raise ValueError(f"V_hat must be close to orthogonal, got ||V^T V - I||_F / sqrt(n) = "
                         f"{defect:.3g}")
    U, _, Wt = np.linalg.svd(V)
    V = U @ Wt
    groups = _check_groups(eigenspaces, n)
    V, null_group = _anchor_constant(V, groups)
    if ordered and null_group != 0:
        raise ValueError("ordered=True needs the column closest to the constant vector in the "
                         f"first eigenspace, found it in eigenspace {null_group}")
    problem = _Problem(V, groups, null_group, ordered, tol)

    rho_tol = max(1e-10, 10.0 * tol * tol)
    n_lp = 0
    hist: dict = {"method": []}
    lam, rho = None, np.inf
    if ordered:
        # Proxy with the right eigenvalue order: L0 = sum_k k P_k ranks the edges first.
        scores = -problem.offdiag(np.arange(1, len(problem.free) + 1, dtype=np.float64))
        lam, hist["support_size"], rho = problem.support_search(scores, rho_tol)
        hist["method"].append("least-squares support search (eigenvalue-order proxy)")
    if rho > rho_tol:
        # Weighted-l1 linear programs (random weights, or the proxy's when ordered), then
        # the support search in the order of the LP solution.
        best = None
        for start in range(n_starts):
            if ordered and start == 0:
                W = problem.rank_weights(epsilon)
            else:
                W = rng.exponential(size=(n, n))
                W = np.triu(W, 1)
                W = W + W.T
            lam_lp, _, h, k = problem.reweighted(W, n_reweights, epsilon, max_rounds, edge_tol)
            n_lp += k
            off = problem.offdiag(lam_lp)
            nnz = int(np.count_nonzero(-off > edge_tol))
            if best is None or nnz < best[0]:
                best = (nnz, lam_lp, h)
        _, lam_lp, h = best
        hist.update(h)
        hist["method"].append("reweighted weighted-l1 linear programs")
        if not ordered:
            # Estimated eigenvalue order from the LP solution, then the order proxy.
            lam_o, k_o, rho_o = problem.order_search(lam_lp, rho_tol)
            if rho_o <= rho_tol:
                lam, rho, hist["support_size"] = lam_o, rho_o, k_o
                hist["method"].append("least-squares support search (order estimated by LP)")
        lam2, k2, rho2 = problem.support_search(-problem.offdiag(lam_lp), rho_tol)
        if rho > rho_tol and rho2 <= rho_tol:
            lam, rho, hist["support_size"] = lam2, rho2, k2
            hist["method"].append("least-squares support search (LP order)")
        else:
            lam, rho = lam_lp, np.nan
    if 1e-12 < rho <= rho_tol:
        # Noisy data: one re-ranking with the solution found (its own off-diagonal
        # pattern). Exact data (rho ~ 0) needs none.
        lam2, k2, rho2 = problem.support_search(-problem.offdiag(lam), rho_tol)
        if rho2 <= rho:
            lam, rho, hist["support_size"] = lam2, rho2, k2
    # Polish: least squares on the support found (removes LP tolerances).
    off = problem.offdiag(lam)
    support = -off > edge_tol * max(1.0, float(np.abs(off).max()))
    if support.any():
        order = np.argsort(~support, kind="stable")
        lam_p, rho_p = problem._ls(order, int(support.sum()))
        if rho_p <= rho_tol:
            lam, rho = lam_p, rho_p
    hist["rho"] = rho
    L = _valid_laplacian(problem.full(lam), edge_tol)
    lam_cols = problem.G @ lam
    residual = _residual(L, V)
    return InferredLaplacian(L, lam_cols, int((L.nnz - np.count_nonzero(L.diagonal())) // 2),
                             residual, n_lp, hist)


def _check_groups(eigenspaces, n):
    if eigenspaces is None:
        return [np.array([k]) for k in range(n)]
    groups = [np.asarray(g, dtype=np.intp).ravel() for g in eigenspaces]
    flat = np.concatenate(groups) if groups else np.array([], dtype=np.intp)
    if flat.size != n or not np.array_equal(np.sort(flat), np.arange(n)):
        raise ValueError(f"eigenspaces must partition the columns 0..{n - 1}")
    return groups


def _anchor_constant(V, groups):
    """Rotate the column nearest to $\\mathbf 1/\\sqrt n$ exactly onto it.

    The rotation is the product of two reflectors acting in the plane of $v$ and
    $\\mathbf 1$, $H_b H_v$ with $b \\propto v + \\mathbf 1/\\sqrt n$: it maps $v$ to
    $\\mathbf 1/\\sqrt n$, is the identity outside that plane, and moves every other
    column only by the angle between $v$ and $\\mathbf 1$ (a single reflector would
    flip the in-plane component of the other columns).
    """
    n = V.shape[0]
    one = np.full(n, 1.0 / np.sqrt(n))
    dots = V.T @ one
    c = int(np.argmax(np.abs(dots)))
    sign = 1.0 if dots[c] >= 0 else -1.0
    v = V[:, c] * sign
    V = V - 2.0 * np.outer(v, v @ V)          # H_v: v -> -v
    b = v + one
    b /= np.linalg.norm(b)
    V = V - 2.0 * np.outer(b, b @ V)          # H_b: -v -> 1/sqrt(n)
    V[:, c] = one * sign
    null_group = next(k for k, g in enumerate(groups) if c in set(g.tolist()))
    return V, null_group


def _valid_laplacian(Lfull, edge_tol):
    n = Lfull.shape[0]
    scale = np.trace(Lfull) / n if np.trace(Lfull) > 0 else 1.0
    A = -Lfull.copy()
    np.fill_diagonal(A, 0.0)
    A = 0.5 * (A + A.T)
    A[A <= edge_tol * scale] = 0.0
    W = sp.csr_array(A)
    d = np.asarray(W.sum(axis=1)).ravel()
    L = sp.csr_array(sp.diags_array(d) - W)
    tr = d.sum()
    if tr > 0:
        L = L * (n / tr)
    return sp.csr_array(L)


def _residual(L, V):
    M = V.T @ (L @ V)
    off = M - np.diag(np.diag(M))
    nl = sp.linalg.norm(L)
    return float(np.linalg.norm(off) / nl) if nl > 0 else 0.0


class _Problem:
    """The cone $\\{\\lambda : L_{ij}(\\lambda) \\le \\tau\\}$ with trace fixed to $n$."""

    def __init__(self, V, groups, null_group, ordered, tol):
        n = V.shape[0]
        self.n = n
        self.V = V
        self.groups = groups
        g = len(groups)
        self.g = g
        self.free = np.array([k for k in range(g) if k != null_group])
        col_group = np.empty(n, dtype=np.intp)
        for k, grp in enumerate(groups):
            col_group[grp] = k
        self.col_group = col_group
        self.mult = np.array([len(grp) for grp in groups], dtype=np.float64)
        self.tol = tol
        self.ordered = ordered
        # Connected graphs only: every free eigenvalue at least 1e-3 of the mean.
        self.floor = 1e-3 * n / self.mult[self.free].sum()
        # Group-sum matrix: columns of V -> free groups.
        G = np.zeros((n, len(self.free)))
        pos = {k: i for i, k in enumerate(self.free)}
        for col in range(n):
            k = col_group[col]
            if k in pos:
                G[col, pos[k]] = 1.0
        self.G = G
        self.free_cols = None
        if all(len(grp) == 1 for grp in groups):
            self.free_cols = np.array([groups[k][0] for k in self.free])
        nf = len(self.free)
        self.A_eq = self.mult[self.free][None, :]
        self.b_eq = np.array([float(n)])
        if ordered and nf > 1:
            D = np.zeros((nf - 1, nf))
            idx = np.arange(nf - 1)
            D[idx, idx] = 1.0
            D[idx, idx + 1] = -1.0
            self.A_ord = D
        else:
            self.A_ord = np.zeros((0, nf))
        self.iu = np.triu_indices(n, 1)

    # -- evaluation
    def full(self, lam_free):
        """$L(\\lambda)$ as a dense matrix."""
        lam_cols = self.G @ lam_free
        return (self.V * lam_cols) @ self.V.T

    def rank_weights(self, epsilon):
        """Weights from $L_0 = \\sum_k k P_k$, a proxy with the right eigenvalue order."""
        lam0 = np.arange(1, len(self.free) + 1, dtype=np.float64)
        off = -self.full(lam0)
        np.fill_diagonal(off, 0.0)
        off = np.maximum(off, 0.0)
        W = 1.0 / (off + epsilon * max(off.max(), 1e-300))
        np.fill_diagonal(W, 0.0)
        return W

    def offdiag(self, lam_free):
        return self.full(lam_free)[self.iu]

    def rows(self, i, j):
        """Rows $a_{ij}$ of the constraint matrix, $L_{ij}(\\lambda) = a_{ij}^T\\lambda$."""
        if self.free_cols is not None:       # one column per group: a selection
            Vf = self.V[:, self.free_cols]
            return Vf[i] * Vf[j]
        return (self.V[i] * self.V[j]) @ self.G

    def objective(self, W):
        """$c$ with $c^T\\lambda = -\\sum_{i<j} w_{ij} L_{ij}(\\lambda)$ (W symmetric)."""
        per_col = np.einsum("ik,ik->k", self.V, W @ self.V)
        return -0.5 * (per_col @ self.G)

    # -- solvers
    def solve(self, c, S, max_rounds):
        """LP by constraint generation; S is a set of pair indices (into iu), updated."""
        n = self.n
        rows_i, rows_j = self.iu
        lam = None
        k = 0
        for _ in range(max_rounds):
            idx = np.fromiter(S, dtype=np.intp) if S else np.zeros(0, dtype=np.intp)
            A_cut = self.rows(rows_i[idx], rows_j[idx]) if idx.size else np.zeros((0, len(c)))
            A_ub = np.vstack([A_cut, self.A_ord])
            b_ub = np.concatenate([np.full(len(A_cut), self.tol), np.zeros(len(self.A_ord))])
            res = linprog(c, A_ub=A_ub if len(A_ub) else None,
                          b_ub=b_ub if len(A_ub) else None, A_eq=self.A_eq, b_eq=self.b_eq,
                          bounds=(self.floor, None), method="highs")
            k += 1
            if res.status != 0 or res.x is None:
                warnings.warn(f"linear program failed: {res.message}", ConvergenceWarning,
                              stacklevel=3)
                return lam, k, False
            lam = res.x
            off = self.offdiag(lam)
            viol = np.flatnonzero(off > self.tol + 1e-9)
            if viol.size == 0:
                return lam, k, True
            order = viol[np.argsort(-off[viol])][: 2 * n]
            S.update(order.tolist())
        warnings.warn(f"constraint generation did not finish in {max_rounds} rounds",
                      ConvergenceWarning, stacklevel=3)
        return lam, k, False

    def _ls(self, order, k):
        """Least-squares $\\lambda$ vanishing off the first ``k`` pairs of ``order``."""
        i, j = self.iu
        N = len(i)
        if k <= N - k:
            AE = self.rows(i[order[:k]], j[order[:k]])
            M = self.M_all - AE.T @ AE
        else:
            AN = self.rows(i[order[k:]], j[order[k:]])
            M = AN.T @ AN
        w, U = np.linalg.eigh(0.5 * (M + M.T))
        lam = U[:, 0]
        total = lam @ self.M_all @ lam
        rho = float(max(w[0], 0.0) / total) if total > 0 else np.inf
        tr = self.mult[self.free] @ lam
        lam = lam * (self.n / tr) if tr != 0 else lam
        # A valid connected solution: every free eigenvalue positive, and in
        # ascending order when the columns are ordered.
        floor = 1e-6 * self.n / self.mult[self.free].sum()
        valid = bool(tr != 0 and lam.min() > floor)
        if valid and self.ordered and lam.size > 1:
            valid = bool(np.all(np.diff(lam) >= -1e-3 * lam.max()))
        return lam, (rho if valid else np.inf)

    def order_search(self, lam_est, rho_tol):
        """Support search with the proxy $\\sum_k \\operatorname{rank}(\\hat\\lambda_k) P_k$."""
        ranks = np.empty(len(lam_est))
        ranks[np.argsort(lam_est, kind="stable")] = np.arange(1, len(lam_est) + 1)
        return self.support_search(-self.offdiag(ranks), rho_tol)

    def support_search(self, scores, rho_tol):
        """Smallest support (in the order of ``scores``) admitting an exact solution.

        $\\rho(k)$, the fraction of off-diagonal energy left outside the ``k`` best
        pairs, is non-increasing in ``k``. Each evaluation costs
        $O(\\min(k, N - k)\\, g^2)$, so ``k`` is searched over the cheap candidates
        $k = n, 2n, 4n, \\dots$ and $N - k = 3g, 6g, 12g, \\dots$ (binary search, by
        monotonicity), then refined by bisection while evaluations stay cheap.
        Returns $\\lambda$, ``k`` and $\\rho$.
        """
        if not hasattr(self, "M_all"):
            Z = (self.V * self.V) @ self.G
            self.M_all = 0.5 * (np.diag(self.mult[self.free]) - Z.T @ Z)
        order = np.argsort(-scores, kind="stable")
        N = len(order)
        g = len(self.free)
        k_max = max(N - 3 * g, 1)
        cands = set()
        k = max(self.n - 1, 1)
        while k < k_max:
            cands.add(k)
            k *= 2
        c = 3 * g
        while N - c > 0:
            cands.add(N - c)
            c *= 2
        cands.add(k_max)
        cap = 64 * self.n                     # rows per evaluation in the scan
        cands = sorted(x for x in cands if 1 <= x <= k_max and min(x, N - x) <= cap)
        cache = {}

        def evaluate(kk):
            if kk not in cache:
                cache[kk] = self._ls(order, kk)
            return cache[kk]

        # Ascending scan: validity (connected, ordered) is not monotone near k_max,
        # where few constraints leave the solution undetermined.
        hi = None
        for idx, kk in enumerate(cands):
            lam, rho = evaluate(kk)
            if rho <= rho_tol:
                hi = idx
                break
        if hi is None:
            return lam, cands[-1], rho
        lo = hi - 1
        k_hi = cands[hi]
        k_lo = cands[lo] if lo >= 0 else 0
        budget = 8 * self.n                   # rows per evaluation in the refinement
        while k_hi - k_lo > max(1, k_hi // 100):
            mid = (k_lo + k_hi) // 2
            if min(mid, N - mid) > budget:
                break
            if evaluate(mid)[1] <= rho_tol:
                k_hi = mid
            else:
                k_lo = mid
        lam, rho = evaluate(k_hi)
        return lam, k_hi, rho

    def reweighted(self, W, n_reweights, epsilon, max_rounds, edge_tol):
        n = self.n
        S: set[int] = set()
        hist = {"n_edges": [], "n_constraints": []}
        n_lp = 0
        lam = None
        prev = None
        for it in range(n_reweights + 1):
            lam_new, k, _ok = self.solve(self.objective(W), S, max_rounds)
            n_lp += k
            if lam_new is None:
                break
            lam = lam_new
            Lfull = self.full(lam)
            off = -Lfull
            np.fill_diagonal(off, 0.0)
            mag = np.abs(off)
            hist["n_edges"].append(int(np.count_nonzero(off[self.iu] > edge_tol)))
            hist["n_constraints"].append(len(S))
            support = off[self.iu] > edge_tol
            if prev is not None and np.array_equal(support, prev):
                break
            prev = support
            if it < n_reweights:
                W = 1.0 / (mag + epsilon * max(mag.max(), 1e-300))
                np.fill_diagonal(W, 0.0)
        if lam is None:
            lam = np.full(len(self.free), n / self.mult[self.free].sum())
        return lam, S, hist, n_lp
