"""A weighted cycle read from the eigenvectors: the nodes in the order of their angle.

The two eigenvectors of least nonzero eigenvalue of a weighted cycle wind once round
it: node $i$ at the angle of $(V_{i a}, V_{i b})$ in their plane, the angles in the
order of the cycle (the exact eigenvectors of PyGSP ``RandomRing(180, seeds 3-5)`` and
``RandomRing(200, seeds 1, 4, 5)`` give their rings so). Which two columns those are is
read from the eigenvalues of a graph found. Nodes joined by a heavy edge sit at nearly
the same angle, and the noise can swap them; such an edge has a column of its own (the
difference of its two nodes, with a large eigenvalue), as a chain of two heavy edges
has two columns on its three nodes. So the nodes on which a column has at least
``MIN_COS`` squared of its squared norm, two to ``MAX_GROUP`` of them (a heavy group;
groups that share a node merged), when consecutive in the angles' order, are ordered as
the cycle refitted (``_edge_test_descent.anchored_fit``) fits best in rotation residual
(``_laplacian_fit._residuals``), group after group, again until no group moves.
Nothing here decides whether the cycle is the graph sought: the caller compares its fit
and size with the graph found.

The graph found can put the winding pair's eigenvalues in the wrong places (perturbed
PyGSP ``RandomRing(180, seed=4)``, draw 1: the ring's least column is 26th of the graph
found's; ``RandomRing(200, seed=5)``, draw 0: the second is 11th), and the least two
columns' angles then give a cycle that the graph found holds no more than half of. The
pair is then read from the basis itself (``winding_pair``): the two columns that wind
once round the cycle put every node near a circle (its radius
sqrt(V[i, a]^2 + V[i, b]^2) nearly constant: coefficient of variation 0.02 to 0.05
on the five such rings, the next pair 0.07 to 0.10), so of the ``WINDING_PAIRS`` pairs
of least coefficient of variation, the one whose angles' cycle the graph found holds
the most edges.

Where the cycle so ordered and refitted is not connected (its refit left out many edges:
a few swapped neighbours elsewhere in the angles' order spoil it, and the rotation
residuals of fits that lose edges no longer tell orders apart), the angles' order is
repaired by adjacent swaps judged by the cycle's support misfit
(``_cycle_repair.repair_order``) and refitted; perturbed PyGSP ``RandomRing(180,
seed=5)``, draw 0: 6 edges kept before, the ring after.

Perturbed PyGSP ``RandomRing(200, seed=1)`` (draw 0 of ``bench_inference.py --pygsp``,
1e-3; weights 0.18 to 55): the angles alone give 196 of the 200 edges; with its heavy
groups ordered the ring (0.8 CPU s), rotation residual 7.02e-5 against 7.46e-5 for the
240 edges the searches found.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import itertools

import numpy as np
import scipy.sparse as sp

from gsp_householder.graphs._basis_input import MIN_COS
from gsp_householder.graphs._cycle_repair import repair_order
from gsp_householder.graphs._edge_test_descent import anchored_fit, connected
from gsp_householder.graphs._laplacian_fit import _residuals

#: Most nodes of a heavy group whose orders are tried (``MAX_GROUP``! fits each).
MAX_GROUP = 3

#: Relative error allowed on `_round_candidates`' ratio $n \sum_k r_k^2 / (\sum_k
#: r_k)^2$: its radii are computed in single precision (the squares, their sums and
#: the square roots each rounded to $6 \cdot 10^{-8}$, $1.2 \cdot 10^{-7}$ in all on a
#: radius, kept by a sum of positive terms accumulated in double precision), so the
#: ratio is within $2.4 \cdot 10^{-7}$, forty times below.
ROUND_SLACK = 1e-5

#: Pairs of columns of least radius variation whose cycles are compared with the graph
#: found (``winding_pair``): a cycle of nearly equal weights has a pair as round for
#: each harmonic, which winds more than once.
WINDING_PAIRS = 4


def column_blocks(V, zero_column: int, largest: int) -> list[np.ndarray]:
    """For each column of ``V`` but ``zero_column``, the fewest nodes (two to
    ``largest``, heaviest first) on which it has at least ``MIN_COS`` squared of its
    squared norm, when there are so few."""
    V = np.asarray(V)
    blocks = [column_block(V[:, k], largest) for k in range(V.shape[1]) if k != zero_column]
    return [block for block in blocks if block is not None]


def column_block(column, largest: int) -> np.ndarray | None:
    """The fewest nodes (two to ``largest``, heaviest first) on which ``column`` has at
    least ``MIN_COS`` squared of its squared norm; None when there are more."""
    squares = np.asarray(column) ** 2
    top = np.argsort(squares)[::-1][:largest]
    shares = np.cumsum(squares[top]) / float(squares.sum())
    size = int(np.searchsorted(shares, MIN_COS**2)) + 1
    return top[:size] if 2 <= size <= largest else None


def heavy_groups(V, zero_column: int) -> list[list[int]]:
    """The heavy groups of the module docstring: for each column of ``V`` but
    ``zero_column``, the fewest nodes (two to ``MAX_GROUP``) on which it has at least
    ``MIN_COS`` squared of its squared norm; groups that share a node merged, those
    merged beyond ``MAX_GROUP`` nodes left out."""
    V = np.asarray(V)
    n = V.shape[0]
    parent = list(range(n))

    def root(a: int) -> int:
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    grouped = set()
    for block in column_blocks(V, zero_column, MAX_GROUP):
        nodes = [int(a) for a in block]
        grouped.update(nodes)
        for a in nodes[1:]:
            parent[root(a)] = root(nodes[0])
    groups: dict[int, list[int]] = {}
    for a in sorted(grouped):
        groups.setdefault(root(a), []).append(a)
    return [g for g in groups.values() if len(g) <= MAX_GROUP]


def _angle_order(V, a: int, b: int) -> np.ndarray:
    """The nodes in the order of their angle in the plane of the columns ``a``, ``b``."""
    angles = np.arctan2(V[:, b], V[:, a])
    return np.lexsort((np.arange(V.shape[0]), angles))


def cycle_order(V, eigenvalues, zero_column: int) -> np.ndarray:
    """The nodes in the order of their angle in the plane of the two columns of ``V``
    of least ``eigenvalues`` (``zero_column`` left out)."""
    V = np.asarray(V)
    columns = [k for k in np.argsort(eigenvalues, kind="stable") if k != zero_column][:2]
    return _angle_order(V, columns[0], columns[1])


def round_pairs(V, zero_column: int, count: int) -> list[tuple[int, int]]:
    """The ``count`` pairs of columns of ``V`` (``zero_column`` left out) whose nodes'
    radii sqrt(V[i, a]^2 + V[i, b]^2) vary least (coefficient of variation), the
    roundest first.

    The variations are computed as written (in double precision, as the pairs are
    ranked) only on the columns that `_round_candidates` keeps: the same pairs in the
    same order."""
    V = np.asarray(V)
    columns = np.array([k for k in range(V.shape[1]) if k != zero_column])
    squares = V[:, columns] ** 2
    found: list[tuple[float, int, int]] = []
    for i in _round_candidates(squares, count):
        radii = np.sqrt(squares[:, i : i + 1] + squares[:, i + 1 :])
        variation = radii.std(axis=0) / radii.mean(axis=0)
        for j in np.argsort(variation, kind="stable")[:count]:
            found.append((float(variation[j]), int(columns[i]), int(columns[i + 1 + j])))
    found.sort()
    return [(a, b) for _, a, b in found[:count]]


def _round_candidates(squares, count: int) -> np.ndarray:
    """The columns ``i`` of ``squares`` ($V_{ia}^2$) some of whose pairs ``(i, j > i)``
    may be among the ``count`` roundest: a pair's squared variation is
    $n \\sum_k r_k^2 / (\\sum_k r_k)^2 - 1$, whose sum of radii alone is computed per
    pair, in single precision; a column is kept when its least is within twice
    ``ROUND_SLACK`` (relative) of the ``count``-th least."""
    n, m = squares.shape
    if m < 2:
        return np.arange(0)
    transposed = np.ascontiguousarray(squares.T, dtype=np.float32)
    norms = squares.sum(axis=0)
    radii = np.empty((m, n), dtype=np.float32)
    least = np.full((m - 1, count), np.inf)
    for i in range(m - 1):
        block = radii[: m - 1 - i]
        np.add(transposed[i + 1 :], transposed[i], out=block)
        np.sqrt(block, out=block)
        ratio = n * (norms[i] + norms[i + 1 :]) / np.square(block.sum(axis=1, dtype=float))
        kept = min(count, ratio.size)
        least[i, :kept] = np.partition(ratio, kept - 1)[:kept]
    bound = np.partition(least.ravel(), count - 1)[count - 1] * (1.0 + 2.0 * ROUND_SLACK)
    return np.flatnonzero(least[:, 0] <= bound)


def _held(W, order) -> int:
    """How many edges of the cycle through ``order`` the graph of weights ``W`` has."""
    return int(np.count_nonzero(W[order, np.roll(order, -1)]))


def winding_pair(V, zero_column: int, W) -> np.ndarray:
    """The nodes in the order of their angle in the plane of the pair of columns that
    winds once round the cycle, read from the basis (module docstring): of the
    ``WINDING_PAIRS`` pairs of ``round_pairs``, the one whose angles' cycle the graph
    of weights ``W`` holds the most edges of (the first of those on a tie)."""
    V = np.asarray(V)
    orders = [_angle_order(V, a, b) for a, b in round_pairs(V, zero_column, WINDING_PAIRS)]
    held = [_held(W, order) for order in orders]
    return orders[int(np.argmax(held))]


def _consecutive(places, n: int) -> bool:
    """Whether the sorted positions ``places`` are consecutive on a cycle of ``n``."""
    gaps = np.diff(np.r_[places, places[0] + n])
    return int(np.count_nonzero(gaps != 1)) <= 1


def _cycle_fit(basis, order) -> sp.csr_array:
    """The `anchored_fit` of the cycle through the nodes in ``order``."""
    after = np.roll(order, -1)
    return anchored_fit(basis, np.minimum(order, after), np.maximum(order, after))


def read_cycle(basis, eigenvalues, W) -> sp.csr_array | None:
    """The weights of the cycle of the module docstring, refitted on the anchored basis
    (``basis["V_anchored"]``, ``basis["zero_column"]``), read from ``basis["V"]`` and the
    columns' ``eigenvalues`` (those of the graph found, of weights ``W``, which order its
    columns); None when the graph found holds no more than half of the edges of the
    cycle of the angles alone (no cycle behind it: its heavy groups are not ordered),
    for the two columns of least ``eigenvalues`` and for the pair ``winding_pair`` reads
    from the basis (tried when the first fails). When the cycle refitted is not
    connected, the angles' order repaired (``_cycle_repair.repair_order``) is refitted
    and returned if connected."""
    V, zero = basis["V"], basis["zero_column"]
    W = sp.csr_array(W)
    order = cycle_order(V, eigenvalues, zero)
    if 2 * _held(W, order) <= order.size:
        order = winding_pair(V, zero, W)
        if 2 * _held(W, order) <= order.size:
            return None
    angles = order
    fitted = _cycle_fit(basis, order)
    best = _residuals(basis, fitted)[1]
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    groups = [g for g in heavy_groups(V, zero) if _consecutive(np.sort(position[g]), order.size)]
    groups.sort(key=lambda g: int(position[g].min()))
    moved = True
    while moved:
        # each group's order of least residual, the others held; again until none moves
        # (a strictly falling residual: it ends)
        moved = False
        for group in groups:
            places = np.sort(position[group])
            nodes = order[places].copy()
            pick = None
            for perm in itertools.permutations(range(len(group))):
                if list(perm) == sorted(perm):
                    continue
                trial = order.copy()
                trial[places] = nodes[list(perm)]
                A = _cycle_fit(basis, trial)
                rotation = _residuals(basis, A)[1]
                if rotation < best:
                    best, fitted, pick = rotation, A, trial
            if pick is not None:
                order, moved = pick, True
    if connected(fitted):
        return fitted
    # the refit fell apart (many edges left out: ``_cycle_repair``): the angles' order
    # repaired by adjacent swaps judged by the cycle's support misfit, refitted
    repaired = repair_order(basis, angles)
    if np.array_equal(repaired, angles):
        return fitted
    refitted = _cycle_fit(basis, repaired)
    return refitted if connected(refitted) else fitted
