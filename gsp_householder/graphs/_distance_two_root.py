"""The regular graph behind a graph read as its pairs at distance 2.

For a $k$-regular graph of girth at least 5 with adjacency $A$, two nodes have at most
one common neighbour and no edge has one, so $A^2 = kI + A_2$ with $A_2$ the adjacency of
the pairs at distance 2, and its Laplacian is $L_2 = k(k - 1)I - A_2 = 2kL - L^2$: a
quadratic of $L$ with the same eigenvectors, equal weights and degree $k(k - 1)$ for the
graph's $k$. ``pancake(5)`` (the pancake graph of $S_5$: 120 nodes, 4-regular, girth 6)
perturbed by 1e-3 was answered by its 720 pairs at distance 2 for its 240 edges (F1 0),
with no warning. Its weights take one level, so ``_quadratic_doubt`` (which reads a
quadratic by two levels of weights) does not see it.

Read as a quadratic, the graph found gives every column's eigenvalue of $A$ up to its
sign: $x_k = \\pm s_k$, $s_k = \\sqrt{k^2 - \\nu_k / c}$ for the column's eigenvalue
$\\nu_k$ of the graph found, $c$ its weight (the constant column's is $+k$). The signs
follow from linear conditions: $V \\operatorname{diag}(x) V^T$ is 0 on the diagonal and
on the pairs of the graph found (``null_space``, to the noise). That subspace holds
other matrices than $A$ ($A^3$ for girth 6, which is 0 there too), and $A$ is the one
whose coordinates have the moduli $s_k$: ``candidate_directions`` solves
$|N\\theta| = s$ for the subspace's basis $N$ as a linear problem in
$\\Theta = \\theta\\theta^T$ (the equations $N_k^T \\Theta N_k = s_k^2$), and from
each of its eigenvectors of positive eigenvalue (then each basis vector of the
subspace) ``settled_signs`` alternates between the moduli and the subspace until the
signs settle; failing that, ``distance_two_roots`` reads the ``k`` largest entries
of each row (``mutual_largest``) and refits them in the subspace.

The graph read off $V \\operatorname{diag}(x) V^T$ (entries above 1/2) is returned only
when it is $k$-regular and its pairs at distance 2 are exactly the graph found
($A^2 = kI + A_2$ in integers, which is girth at least 5): any other reading leaves
the graph found in place. Whether it fits the eigenvectors as well decides the caller.

The other way, ``distance_two_graph`` gives the pairs at distance 2 of a graph that is
$k$-regular of girth at least 5 (read from $A^2$ in integers): a denser graph with the
same eigenvectors, which the eigenvectors do not tell from it.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import scipy.sparse as sp

#: Most alternations between the moduli and the subspace (``settled_signs``; two products
#: with the subspace's basis each, the signs settle in a few), and most readings of the
#: largest entries refitted per start (an $n^3$ product each): bounds on the work only.
MAX_ALTERNATIONS = 50


def regular_root_degree(W) -> int | None:
    """The degree $k \\ge 3$ of a regular graph whose pairs at distance 2 would be the
    graph of weights ``W`` (sparse), when every node of it has $k(k - 1)$ neighbours;
    else None. ($k = 2$ gives a cycle's: no sparser.)"""
    degrees = np.diff(sp.csr_array(W).indptr)
    if degrees.size == 0 or np.any(degrees != degrees[0]):
        return None
    k = int(np.rint((1.0 + np.sqrt(1.0 + 4.0 * degrees[0])) / 2.0))
    return k if k >= 3 and k * (k - 1) == degrees[0] else None


def distance_two_graph(W) -> sp.csr_array | None:
    """Unit weights of the pairs at distance 2 of the graph of weights ``W`` (sparse,
    symmetric, zero diagonal) when that graph is $k$-regular for some $k \\ge 3$ and of
    girth at least 5, that is when $A^2 = kI + A_2$ for its 0/1 adjacency $A$ and a 0/1
    ``A_2`` with no pair in common with $A$ (integers: no tolerance); else None. Then
    $k(k - 1)I - A_2 = 2kL_1 - L_1^2$ for the unit-weight Laplacian $L_1$: the graph
    of $A_2$, $k - 1$ times denser, has the same eigenvectors. $O(nk^2)$ (a sparse
    product), after an $O(n)$ test of the degrees.

    Examples
    --------
    >>> import networkx as nx
    >>> H = distance_two_graph(nx.to_scipy_sparse_array(nx.petersen_graph()))
    >>> int(H.sum()) // 2                     # the Petersen graph's complement
    30
    >>> distance_two_graph(nx.to_scipy_sparse_array(nx.hypercube_graph(3))) is None
    True
    """
    A = sp.csr_array(W != 0, dtype=float)
    degrees = np.diff(A.indptr)
    k = int(degrees[0]) if degrees.size else 0
    if k < 3 or np.any(degrees != k):
        return None
    square = sp.csr_array(A @ A)
    square.setdiag(0.0)
    square.eliminate_zeros()
    if square.nnz and (square.data.max() != 1.0 or A.multiply(square).nnz):
        return None
    return square


def null_space(V, rows, cols) -> np.ndarray:
    """An orthonormal basis (columns) of the vectors $x$ whose $V \\operatorname{diag}(x)
    V^T$ is smallest on the diagonal and on the pairs ``(rows, cols)``: the right
    singular vectors below the largest ratio between consecutive singular values of the
    smaller half (the gap between the conditions met to the noise and those not)."""
    M = np.vstack([V[rows] * V[cols], V * V])
    _, sv, Vt = np.linalg.svd(M, full_matrices=False)
    ascending = np.maximum(sv[::-1], np.finfo(float).tiny)
    half = max(ascending.size // 2, 2)
    d = int(np.argmax(ascending[1:half] / ascending[: half - 1])) + 1
    return Vt[-d:].T


def candidate_directions(N, moduli) -> list[np.ndarray]:
    """Directions $\\theta$ with $|N\\theta|$ near ``moduli``, most likely first: the
    eigenvectors of the least-squares solution $\\Theta$ of $N_k^T \\Theta N_k = $
    ``moduli``$_k^2$ with a positive eigenvalue, largest first (a single $\\theta$ when
    the moduli fix it, several when sign changes of whole eigenspaces keep them: the
    Heawood graph's $-\\tfrac{11}{7}A + \\tfrac{2}{7}A^3$ has the moduli of $A$)."""
    d = N.shape[1]
    iu = np.triu_indices(d)
    F = N[:, iu[0]] * N[:, iu[1]] * np.where(iu[0] == iu[1], 1.0, 2.0)
    theta = np.linalg.lstsq(F, moduli**2, rcond=None)[0]
    Theta = np.zeros((d, d))
    Theta[iu] = theta
    Theta = Theta + Theta.T - np.diag(np.diag(Theta))
    values, vectors = np.linalg.eigh(Theta)
    return [vectors[:, j] for j in range(d - 1, -1, -1) if values[j] > 0.0]


def settled_signs(N, moduli, zero_column: int, start) -> np.ndarray:
    """Signs $\\sigma$ (positive on ``zero_column``) at which $\\sigma \\odot$ ``moduli``
    projected on the span of ``N`` keeps the signs $\\sigma$, alternating from the
    signs of $N$ ``start`` (module docstring)."""
    x = N @ start
    sigma = np.where(x < 0.0, -1.0, 1.0) * (1.0 if x[zero_column] >= 0.0 else -1.0)
    for _ in range(MAX_ALTERNATIONS):
        x = N @ (N.T @ (sigma * moduli))
        new = np.where(x < 0.0, -1.0, 1.0)
        new[zero_column] = 1.0
        if np.array_equal(new, sigma):
            break
        sigma = new
    return sigma


def is_distance_two_root(A, H, k: int) -> bool:
    """Whether the 0/1 symmetric ``A`` (sparse) is $k$-regular and $A^2 = kI + H$ for
    the 0/1 pattern ``H`` (sparse, symmetric, zero diagonal): ``H`` is its graph of
    pairs at distance 2 and it has girth at least 5."""
    n = A.shape[0]
    if np.any(np.diff(sp.csr_array(A).indptr) != k):
        return False
    square = sp.csr_array(A @ A) - k * sp.eye_array(n, format="csr") - H
    return sp.csr_array(square).count_nonzero() == 0


def distance_two_roots(basis, L, eigenvalues) -> Iterator[sp.csr_array]:
    """The unit weights of each $k$-regular graph of girth at least 5 whose pairs at
    distance 2 are the graph of the Laplacian ``L`` (equal weights, sparse), read from
    its ``eigenvalues`` on the basis's columns (module docstring), one per choice of
    signs that gives one, in the order of ``candidate_directions`` (the columns of the
    subspace's basis after them).

    Parameters
    ----------
    basis : dict
        The read basis (``V_anchored``, ``zero_column``).
    L : sparse array
        Laplacian of the graph found, its weights equal (the caller's test).
    eigenvalues : ndarray
        Its eigenvalue on every column of the basis.

    Yields
    ------
    scipy.sparse.csr_array
        Symmetric unit weights of a root (the caller decides whether it fits).
    """
    H = sp.csr_array(sp.triu(L, 1) + sp.tril(L, -1))
    k = regular_root_degree(H)
    if k is None:
        return
    unit = float(-H.data.mean())
    if unit <= 0.0:
        return
    V = basis["V_anchored"]
    z = int(basis["zero_column"])
    moduli = np.sqrt(np.maximum(k * k - np.asarray(eigenvalues) / unit, 0.0))
    moduli[z] = float(k)
    rows, cols = sp.triu(H, 1).nonzero()
    N = null_space(V, rows, cols)
    pattern = sp.csr_array((H != 0).astype(float))
    H_dense = pattern.toarray() != 0
    for start in [*candidate_directions(N, moduli), *np.eye(N.shape[1])]:
        sigma = settled_signs(N, moduli, z, start)
        R = (V * (sigma * moduli)) @ V.T
        np.fill_diagonal(R, 0.0)
        A = sp.csr_array((R > 0.5).astype(float))
        if is_distance_two_root(A, pattern, k):
            yield A
            continue
        x = N @ start
        x = x if x[z] >= 0.0 else -x
        for _ in range(MAX_ALTERNATIONS):
            A = sp.csr_array(mutual_largest(V, x, H_dense, k).astype(float))
            if is_distance_two_root(A, pattern, k):
                yield A
                break
            x = N @ (N.T @ np.einsum("ij,ij->j", V, A @ V))


def mutual_largest(V, x, excluded, k: int) -> np.ndarray:
    """The pairs $(i, j)$ whose entry of $V \\operatorname{diag}(x) V^T$ is among the
    ``k`` largest of both row $i$ and row $j$, the diagonal and the pairs ``excluded``
    (boolean) left out: the $k$-regular 0/1 pattern nearest that matrix when it is one
    (boolean, symmetric)."""
    n = V.shape[0]
    R = (V * x) @ V.T
    R[excluded] = -np.inf
    np.fill_diagonal(R, -np.inf)
    largest = np.argpartition(-R, k - 1, axis=1)[:, :k]
    P = np.zeros((n, n), dtype=bool)
    P[np.repeat(np.arange(n), k), largest.ravel()] = True
    return P & P.T
