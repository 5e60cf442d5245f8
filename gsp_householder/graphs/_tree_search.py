"""A tree with unit weights searched on the eigenvectors, by projections and local kicks.

When the noisy searches end at the complete graph (no start) or at a dense member of a
tree's family whose maximum spanning tree is far from the tree (``_spanning_tree``: no
read), a tree can still be read from the eigenvectors alone. The projection of a tree
$T$'s Laplacian $L_T$ (unit weights) on the matrices $V \\operatorname{diag}(\\lambda)
V^T$ is $R = V \\operatorname{diag}(\\lambda) V^T$ with $\\lambda_k = v_k^T L_T v_k$;
the tree nearest $R$ in the off-diagonal Frobenius norm is the maximum spanning tree of
$-R$. Alternating the two (``converge``) ends at a tree whose misfit
$\\|L_T\\|_F^2 - \\|\\lambda\\|^2$ (``misfit``; the squared distance of $L_T$ to the
basis's matrices) no step lowers: from a random tree on perturbed (1e-3) random
labelled trees of 450 to 550 nodes, a tree with 60 to 80 % of the edges, whose wrong
edges gather on a few nodes whose rows of $L_T - R$ are large. A kick perturbs the
entries of $-R$ on the pairs of those nodes (rows above ``ROW_FACTOR`` times the median
row) by symmetric Gaussian noise of ``KICK`` (unit weights), and the alternation starts
again from the kicked matrix's maximum spanning tree; a tree of smaller misfit is kept
(``search_tree``); when the kicks end above ``DONE_MISFIT``, descents from stars on the
nodes of most localised rows (``hub_nodes``: a star's centre, a binomial tree's root)
follow. On those trees the misfit falls from hundreds to the noise's (1e-3)
in 8 to 45 kicks, 0.5 to 2 CPU s (spanning trees by Prim's algorithm on the dense
matrix, ``_spanning``).

The tree returned is the one of least misfit: whether it replaces a graph found is the
caller's decision (``_laplacian_fit._equal_graph_fits``: it must fit the eigenvectors
as well as that graph and have equal weights to the noise level). On graphs that are
not trees the misfit stays large (perturbed sensor, Barabasi-Albert, Watts-Strogatz
graphs of 200 nodes, a 15 x 15 grid: 280 to 10000) and no tree is accepted.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import pickle

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._spanning_tree import _unit_graph

#: Largest basis searched: each step costs $O(n^3)$ (the projection $R$), some 0.01 to
#: 0.05 CPU s at 450 to 550 nodes, and a search takes up to some hundred steps.
MAX_NODES = 600
#: Seed of the random start and the kicks (the search is deterministic).
SEED = 0
#: Kicks at most (``search_tree``).
MAX_KICKS = 80
#: Alternating steps at most per descent (``converge``).
MAX_STEPS = 60
#: Standard deviation of a kick's noise on the pairs of the nodes that fit worst, in
#: unit edge weights.
KICK = 0.5
#: Nodes kicked: those whose row of $L_T - R$ has a norm above this times the median.
ROW_FACTOR = 3.0
#: The search stops at a misfit below this (a wrong edge costs about 1 or more; a tree
#: that fits perturbed eigenvectors leaves 1e-3).
DONE_MISFIT = 0.5
#: The search stops after ``STALL_KICKS`` kicks if its misfit is still above
#: ``STALL_FRACTION`` of the first descent's. Measured after 20 kicks: 0.004 to 0.62 of it
#: on the seven perturbed (1e-3) random trees of 120 to 550 nodes whose search took more
#: than 20 kicks (all found), 0.94 to 1.0 on the searches that never reach a tree
#: (weighted Delaunay(200), SwissRoll(200), DavidSensorNet(500), tree(550, seed 66)),
#: which then ran all ``MAX_KICKS`` (2.7 to 20 CPU s) without lowering it further.
STALL_KICKS = 20
#: See ``STALL_KICKS``.
STALL_FRACTION = 0.8
#: Stars the search starts from when the random start ends above ``DONE_MISFIT``
#: (``hub_nodes``, ``search_tree``).
HUB_STARTS = 3

_searches: contextvars.ContextVar = contextvars.ContextVar("tree_searches", default=None)


def tree_eigenvalues(V: np.ndarray, T) -> np.ndarray:
    """Each column's $v_k^T L_T v_k$ for the Laplacian $L_T$ of the unit weights ``T``."""
    T = sp.csr_array(T, dtype=float)
    degrees = np.asarray(T.sum(axis=1)).ravel()
    L = _laplacian_rows(T, degrees)
    if L is None:
        L = sp.diags_array(degrees) - T
    return np.einsum("ik,ik->k", V, L @ V)


def misfit(V: np.ndarray, T) -> float:
    """$\\|L_T\\|_F^2 - \\|\\lambda\\|^2$, the squared distance of the Laplacian of the
    unit weights ``T`` to the matrices $V \\operatorname{diag}(\\lambda) V^T$ (``V``
    orthogonal)."""
    lam = tree_eigenvalues(V, T)
    degrees = np.asarray(sp.csr_array(T).sum(axis=1)).ravel()
    return float((degrees**2).sum() + degrees.sum() - (lam**2).sum())


def _projected(V: np.ndarray, T) -> np.ndarray:
    """$R = V \\operatorname{diag}(\\lambda) V^T$ for ``T``'s eigenvalues."""
    return (V * tree_eigenvalues(V, T)) @ V.T


def _spanning(W: np.ndarray) -> sp.csr_array:
    """The maximum spanning tree of the complete graph of the off-diagonal entries of
    the dense symmetric ``W``, with unit weights.

    Prim's algorithm on the dense matrix: $n - 1$ vectorised steps of $O(n)$, no sparse
    copy of the $n^2$ pairs and no sort of them (Kruskal's, ``maximum_spanning_tree``,
    spent three quarters of a search in its sort). Both give the one maximum spanning
    tree when the weights are distinct.
    """
    n = W.shape[0]
    # the rows of W with the columns of the nodes in the tree at -inf: no entry of
    # theirs is larger than a node's best, so no mask of the nodes outside is needed
    rest = np.array(W, dtype=float)
    rest[:, 0] = -np.inf
    best = rest[0].copy()
    parent = np.zeros(n, dtype=np.intp)
    rows, cols = np.empty(n - 1, dtype=np.intp), np.empty(n - 1, dtype=np.intp)
    closer = np.empty(n, dtype=bool)
    largest = best.argmax
    for k in range(n - 1):
        j = largest()
        rows[k] = parent[j]
        cols[k] = j
        rest[:, j] = -np.inf
        best[j] = -np.inf
        row = rest[j]
        np.greater(row, best, out=closer)
        np.copyto(best, row, where=closer)
        np.copyto(parent, j, where=closer)
    return _tree_graph(rows, cols, n)


def _tree_graph(rows: np.ndarray, cols: np.ndarray, n: int) -> sp.csr_array:
    """Symmetric unit weights on the $n - 1$ distinct pairs ``(rows, cols)`` of a tree
    on ``n`` nodes (``intp`` arrays, no pair twice, no loop), built in compressed form:
    the arrays ``_spanning_tree._unit_graph`` gives, without its sparse sum."""
    heads = np.concatenate([rows, cols])
    tails = np.concatenate([cols, rows])
    order = np.lexsort((tails, heads))
    indptr = np.zeros(n + 1, dtype=np.intp)
    np.cumsum(np.bincount(heads, minlength=n), out=indptr[1:])
    return sp.csr_array((np.ones(heads.size), tails[order], indptr), shape=(n, n))


def _laplacian_rows(T: sp.csr_array, degrees: np.ndarray) -> sp.csr_array | None:
    """$\\operatorname{diag}(d) - T$ for the weights ``T`` (canonical, no diagonal entry)
    and its positive ``degrees`` $d$, in compressed form: the arrays the sparse
    difference gives (each row's entries by column, the diagonal among them), without
    it; None for other ``T``."""
    n = T.shape[0]
    counts = np.diff(T.indptr)
    heads = np.repeat(np.arange(n), counts)
    if not T.has_canonical_format or np.any(T.indices == heads) or np.any(degrees <= 0.0):
        return None
    after = T.indices > heads
    # a row's diagonal goes after its entries of smaller columns
    before = np.bincount(heads[~after], minlength=n)
    indptr = T.indptr + np.arange(n + 1)
    indices = np.empty(T.nnz + n, dtype=T.indices.dtype)
    data = np.empty(T.nnz + n)
    at = np.arange(T.nnz) + heads + after
    indices[at], data[at] = T.indices, -T.data
    diagonal = indptr[:-1] + before
    indices[diagonal], data[diagonal] = np.arange(n), degrees
    return sp.csr_array((data, indices, indptr), shape=(n, n))


def _tree_key(T) -> bytes:
    """A key of the sparse matrix ``T`` (its canonical form: entries summed, zeros
    dropped, indices sorted): equal keys, equal matrices."""
    T = sp.csr_array(T, dtype=float, copy=True)
    T.sum_duplicates()
    T.eliminate_zeros()
    return b"".join(a.tobytes() for a in (np.asarray(T.shape), T.indptr, T.indices, T.data))


def converge(V: np.ndarray, T, steps: dict | None = None) -> sp.csr_array:
    """Alternate ``T`` with the maximum spanning tree of $-R$ until it repeats, at most
    ``MAX_STEPS`` steps: the tree the step leaves unchanged, or the tree after the last
    step.

    A step is a function of its tree alone, so a tree met again (``_tree_key``) starts a
    cycle the steps go round until the last: the tree after the last step is read off
    the cycle without stepping round it (the same tree). On perturbed
    ``random_internet_as_graph(150, seed=25)`` (as ``bench_inference.py`` draws it) 13
    of the tree search's 21 descents went round a cycle of two trees until the last
    step (60 steps each: 830 steps in all, 159 now).

    ``steps``: the steps made before on ``V`` (``search_tree``'s descents), each tree's
    key to the tree after it and its key, read and filled here: a descent that meets a
    tree stepped from before takes the same next tree (the same arrays) without the
    projection and the spanning tree. Only trees that a step gave are recorded (the
    spanning trees' canonical arrays); the start is stepped as it is given.
    """
    T = sp.csr_array(T, dtype=float)
    key = _tree_key(T)
    seen = {key: 0}
    trees = [T]
    for step in range(MAX_STEPS):
        known = None if steps is None or step == 0 else steps.get(key)
        if known is None:
            nxt = _spanning(-_projected(V, T))
            known = (nxt, _tree_key(nxt))
            if steps is not None and step > 0:
                steps[key] = known
        nxt, key = known
        first = seen.get(key)
        if first == step:
            break
        if first is not None:
            # trees[first:] is a cycle of len(trees) - first trees, stepped round until
            # step MAX_STEPS
            return trees[first + (MAX_STEPS - first) % (len(trees) - first)]
        seen[key] = step + 1
        trees.append(nxt)
        T = nxt
    return T


def random_tree(n: int, rng: np.random.Generator) -> sp.csr_array:
    """A random recursive tree on ``n`` nodes (each node in a random order joins a
    uniformly chosen earlier one), with unit weights."""
    order = rng.permutation(n)
    parents = order[(rng.random(n - 1) * np.arange(1, n)).astype(int)]
    U = sp.coo_array((np.ones(n - 1), (order[1:], parents)), shape=(n, n))
    return sp.csr_array(U + U.T)


def hub_nodes(V: np.ndarray, count: int = HUB_STARTS) -> np.ndarray:
    """The ``count`` nodes whose rows of ``V`` have the largest entry in absolute value,
    largest first: the centres of hubs.

    A node of degree $d$ in a tree (or a star's centre, $d = n - 1$) carries an
    eigenvector localised on it and its neighbours, of eigenvalue about $d + 1$, whose
    entry there is about $\\sqrt{d / (d + 1)}$ (the star's: $\\sqrt{(n - 1) / n}$),
    while an eigenspace of high multiplicity spreads its columns over its nodes. A
    random start does not find such a hub on perturbed ``star_graph(80)`` (6 seeds:
    misfit 5.8 to 61) nor on exact ``binomial_tree(7)`` (5 of 6 seeds: 3.3 to 106),
    where the descent from a star on the row of largest entry (the star) or on the
    second (the binomial tree's root) ends at the truth.
    """
    peak = np.abs(V).max(axis=1)
    return np.argsort(-peak, kind="stable")[:count]


def star(n: int, centre: int) -> sp.csr_array:
    """The star on ``n`` nodes centred at ``centre``, with unit weights."""
    leaves = np.delete(np.arange(n), centre)
    return _unit_graph(leaves, np.full(n - 1, centre), n)


@contextlib.contextmanager
def remembered_searches():
    """Keep the answers of the searches made inside the block (``search_tree``); a block
    inside another one shares its record."""
    if _searches.get() is not None:
        yield
        return
    token = _searches.set({})
    try:
        yield
    finally:
        _searches.reset(token)


def _basis_digest(V: np.ndarray) -> bytes:
    """A 32-byte digest of the bytes of ``V`` (and its shape)."""
    digest = hashlib.blake2b(digest_size=32)
    V = np.ascontiguousarray(V, dtype=np.float64)
    digest.update(repr(V.shape).encode())
    digest.update(V.reshape(-1))
    return digest.digest()


def _search_key(basis_key: bytes, rng: np.random.Generator, start) -> bytes:
    """A 32-byte digest of a search's arguments: the basis's digest ``basis_key``
    (``_basis_digest``), the state of ``rng`` and the start's key (``_tree_key``)."""
    digest = hashlib.blake2b(basis_key, digest_size=32)
    digest.update(pickle.dumps(rng.bit_generator.state))
    digest.update(b"" if start is None else _tree_key(start))
    return digest.digest()


def search_tree(V: np.ndarray, rng: np.random.Generator, start=None) -> tuple[sp.csr_array, float]:
    """The tree of least misfit found from ``start`` (default: a random tree) by
    alternating projections and kicks (module docstring), and its misfit; the kicks
    stop early when the first ``STALL_KICKS`` have not lowered the misfit below
    ``STALL_FRACTION`` of the first descent's (no tree behind the eigenvectors).

    Parameters
    ----------
    V : numpy.ndarray
        Orthogonal basis, shape ``(n, n)`` (the eigenvectors, columns).
    rng : numpy.random.Generator
        Source of the random start and of the kicks.
    start : sparse array, optional
        Unit weights of a spanning tree to start from.

    Returns
    -------
    tuple
        Symmetric unit weights of the tree (``scipy.sparse.csr_array``) and its misfit.

    Notes
    -----
    The search is a function of ``V``, the state of ``rng`` and ``start``. Inside
    ``remembered_searches`` a search made before with the same arguments is not made
    again: its tree (a copy) and misfit are returned and ``rng`` is left in the state
    the search left it in. The inferences search one basis from the same seeds more
    than once (``_fitting_tree``'s exact tree, ``_hopeless_basis``'s sparse fit and the
    result's searched tree).
    """
    record = _searches.get()
    if record is None:
        return _search_tree(V, rng, start)
    basis_key = _basis_digest(V)
    key = _search_key(basis_key, rng, start)
    if key not in record:
        T, value = _search_tree(V, rng, start, _kept_steps(record, basis_key))
        record[key] = (T, value, rng.bit_generator.state)
    T, value, state = record[key]
    rng.bit_generator.state = state
    return T.copy(), value


def kicked_search(T, best: float, rng: np.random.Generator, projected, descend,
                  misfit_of) -> tuple[sp.csr_array, float]:
    """``(tree, misfit)`` after the kicks of ``search_tree`` from the descended tree
    ``T`` of misfit ``best``: kicks of ``KICK`` on the pairs of the nodes whose rows of
    $L_T - R$ exceed ``ROW_FACTOR`` times the median ($R$ = ``projected(T)``), the
    maximum spanning tree of $-R$ plus the kick descended (``descend``) and kept when
    its misfit (``misfit_of``) is smaller; at most ``MAX_KICKS``, stopped below
    ``DONE_MISFIT`` or after ``STALL_KICKS`` kicks above ``STALL_FRACTION`` of
    ``best``. Shared by ``search_tree`` and ``_family_tree.family_search``."""
    n = T.shape[0]
    first = best
    R = None
    for kick in range(MAX_KICKS):
        if best < DONE_MISFIT or (kick == STALL_KICKS and best > STALL_FRACTION * first):
            break
        if R is None:
            # the projection and the nodes kicked depend on T alone: made again only
            # when a kick has lowered the misfit
            R = projected(T)
            E = -T.toarray() - R
            E[np.diag_indices(n)] += np.asarray(T.sum(axis=1)).ravel()
            rows = np.linalg.norm(E, axis=1)
            worst = rows > ROW_FACTOR * np.median(rows)
        noise = rng.standard_normal((n, n))
        noise = (noise + noise.T) / 2.0 * (worst[:, None] | worst[None, :])
        candidate = descend(_spanning(-R + KICK * noise))
        value = misfit_of(candidate)
        if value < best:
            T, best, R = candidate, value, None
    return T, best


def _kept_steps(record: dict, basis_key: bytes) -> dict:
    """The steps of the descents made on the basis of digest ``basis_key``
    (``_basis_digest``) inside ``remembered_searches`` (its ``record``), for ``converge``:
    a step is a function of its tree and the basis alone, so the searches of one basis
    from other seeds share them.

    Every search from a random start that stalls descends from the same stars
    (``hub_nodes`` of ``V``), and its kicked descents meet the trees of the searches
    before: exact ``random_internet_as_graph(200, seed=62)`` (shuffle 0) searched three
    seeds (``_fitting_tree.exact_tree``), 1134 steps, each a projection and a spanning
    tree.
    """
    return record.setdefault(("steps", basis_key), {})


def _search_tree(
    V: np.ndarray, rng: np.random.Generator, start=None, steps: dict | None = None
) -> tuple[sp.csr_array, float]:
    """``search_tree`` without the record of ``remembered_searches``; ``steps``: the
    steps of the descents made on ``V`` before (``_kept_steps``), read and filled."""
    n = V.shape[0]
    # the steps of every descent on V, shared (``converge``)
    steps = {} if steps is None else steps
    T = converge(V, random_tree(n, rng) if start is None else start, steps)
    T, best = kicked_search(T, misfit(V, T), rng, lambda T: _projected(V, T),
                            lambda K: converge(V, K, steps), lambda T: misfit(V, T))
    if best >= DONE_MISFIT:
        # the random start stalled: descend from a star on each hub (``hub_nodes``)
        for centre in hub_nodes(V):
            candidate = converge(V, star(n, int(centre)), steps)
            value = misfit(V, candidate)
            if value < best:
                T, best = candidate, value
            if best < DONE_MISFIT:
                break
    return T, best
