"""A cycle's order repaired inside its heavy blocks, each order scored by its exact misfit.

Nodes joined by heavy edges sit at nearly the same angle in the plane of the winding
pair, and the noise scrambles them: on perturbed PyGSP ``RandomRing(300, seed=4)``,
draw 3, the chain 283-284-285 (weights 148 and 34.6 between edges of 1.2 and 1.3) is
read as 284 285 283, and the adjacent swaps of ``_cycle_repair.repair_order`` end at
284 282 285 283 (its support misfit 4.7339e-7, the ring's 4.7226e-7); on
``RandomRing(800, seed=9)``, draw 0, the chain 259-262 (weights 12 to 17) is read
reversed, which no adjacent swap lowers. Every order of such a block is a move of
several nodes at once.

The blocks are read from the eigenvectors: a heavy chain has columns of its own, each
with at least ``MIN_COS`` squared of its squared norm on the chain's few nodes
(`heavy_blocks`, at most ``MAX_BLOCK`` nodes). A block whose nodes lie within
``MAX_BLOCK`` consecutive places of the order gives a window: those places, their
nodes in every order. A block spread wider (a node of it far from the others: node 850
of ``RandomRing(1000, seed=9)``, draw 0, six places from its neighbours after the
swaps) gives each of its nodes moved next to each other one, on either side, the nodes
between shifted by one place.

Each move is scored by the support misfit of its cycle
(``_cycle_repair.support_misfit``, the smallest eigenvalue of the Gram $M$ of the pair
rows off the cycle), computed exactly but without an eigensolve: a move changes the
edges at its places only (a window of $w$ places: $r \\le 2 (w + 1)$ of them; a node moved:
$r \\le 6$), so its Gram is $M' = M + C S C^T$ with the rows $C$ of the edges given up
($S = +1$) and taken ($S = -1$). With $M = Q \\Lambda Q^T$ (one eigensolve per order descended
from) and $P = Q^T C$, the number of eigenvalues of $M'$ below $\\mu$ is (Haynsworth's
inertia additivity)

$$\\#\\{\\lambda_k < \\mu\\}
  + \\nu\\big(-S - P^T (\\Lambda - \\mu)^{-1} P\\big) - \\#\\{S = +1\\},$$

$\\nu$ the number of negative eigenvalues of an $r \\times r$ matrix, and the least
eigenvalue of $M'$, when that count at the least misfit found so far says it is below,
is bisected between $\\lambda_1 - \\|C_{S=-1}\\|_F^2$ and it, to ``BISECTION_STEPS``
halvings ($O(n r^2)$ each); most orders take one count.

`reorder_blocks` descends: each round scores every window from one eigensolve, takes
the windows' best orders that lower the misfit, together where they share no place
(the combined order is kept when its own misfit is below the best single move's
score, else that move alone), and ends when no window lowers it (a strictly falling
misfit: it cannot circle; at most ``_cycle_repair.REPAIR_ROUNDS`` rounds).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import scipy.linalg

from gsp_householder.graphs._cycle_read import column_blocks
from gsp_householder.graphs._cycle_repair import REPAIR_ROUNDS, _band_pairs
from gsp_householder.graphs._edge_test_descent import anchored_pair_gram

#: Most nodes of a block whose orders are tried (a cost cap: ``MAX_BLOCK``! orders of
#: a window; the reversed chain of ``RandomRing(800, seed=9)`` has 4).
MAX_BLOCK = 5

#: Halvings of the bisection of a window order's least eigenvalue (from a bracket of at
#: most the squared norm of its pair rows, below 1, to below the double precision
#: rounding of the Gram's eigenvalues, $10^{-16}$).
BISECTION_STEPS = 56


class OrderGram:
    """The Gram of the pair rows off the cycle through ``order`` on the anchored basis,
    diagonalised once (`reorder_blocks`), and the exact least eigenvalue of its updates
    by a few pairs' rows (module docstring)."""

    def __init__(self, basis, order: np.ndarray) -> None:
        V = np.asarray(basis["V_anchored"])
        self.free = np.arange(V.shape[0]) != basis["zero_column"]
        rows, cols = _band_pairs(order, 1)
        A = V[rows] * V[cols]
        gram = (anchored_pair_gram(basis) - A.T @ A)[np.ix_(self.free, self.free)]
        self.values, self.vectors = scipy.linalg.eigh(gram)
        self.rows = V[:, self.free]
        self._projected: dict[tuple[int, int], np.ndarray] = {}

    @property
    def misfit(self) -> float:
        """The support misfit of the order (``_cycle_repair.support_misfit``)."""
        return float(self.values[0])

    def projected(self, pairs: list[tuple[int, int]]) -> np.ndarray:
        """The pair rows $V_i \\circ V_j$ of ``pairs`` in the Gram's eigenvectors, one a
        row (each computed once and kept)."""
        new = [pair for pair in dict.fromkeys(pairs) if pair not in self._projected]
        if new:
            i, j = np.array(new).T
            P = (self.rows[i] * self.rows[j]) @ self.vectors
            self._projected.update(zip(new, P, strict=True))
        return np.array([self._projected[pair] for pair in pairs])

    def least_after(self, P: np.ndarray, signs: np.ndarray, bound: float) -> float | None:
        """The least eigenvalue of the Gram plus $\\sum_k s_k c_k c_k^T$, the rows
        ``P`` ($Q^T c_k$, one a row) with ``signs`` $s_k = \\pm 1$ (module docstring),
        when below ``bound`` by more than the bisection's resolution (its bracket over
        $2^{56}$); None when it is not."""
        lo = self.values[0] - float(np.square(P[signs < 0]).sum())
        hi = bound - (bound - lo) * 2.0**-BISECTION_STEPS
        if not lo < hi or not self._below(P, signs, hi):
            # not below the bound by the bisection's resolution
            return None
        for _ in range(BISECTION_STEPS):
            mu = 0.5 * (lo + hi)
            if not lo < mu < hi:
                break
            if self._below(P, signs, mu):
                hi = mu
            else:
                lo = mu
        return hi

    def _below(self, P: np.ndarray, signs: np.ndarray, mu: float) -> bool:
        """Whether the updated Gram of `least_after` has an eigenvalue below ``mu``: its
        count by the inertia of the module docstring."""
        values = self.values
        below = int(np.searchsorted(values, mu))
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            K = -np.diag(signs) - (P / (values - mu)) @ P.T
        if not np.all(np.isfinite(K)):
            # mu on an eigenvalue of the Gram: the bisection moves off it
            return True
        negative = int(np.count_nonzero(np.linalg.eigvalsh(K) < 0.0))
        return below + negative - int(np.count_nonzero(signs > 0)) >= 1


def heavy_blocks(V, zero_column: int) -> list[np.ndarray]:
    """For each column of ``V`` but ``zero_column``, the fewest nodes (two to
    ``MAX_BLOCK``) on which it has at least ``MIN_COS`` squared of its squared norm,
    when there are so few (``_cycle_read.heavy_groups`` without merging: the columns of
    a long heavy chain share nodes, and merged they outgrow ``MAX_BLOCK``)."""
    return column_blocks(V, zero_column, MAX_BLOCK)


def _block_places(position: np.ndarray, block: np.ndarray, n: int) -> tuple[int, int]:
    """The first place and the length of the fewest consecutive places (cyclically) of
    an order holding the nodes of ``block`` (``position``: each node's place)."""
    places = np.sort(position[block])
    gaps = np.diff(np.r_[places, places[0] + n])
    widest = int(np.argmax(gaps))
    return int(places[(widest + 1) % places.size]), n - int(gaps[widest]) + 1


def _segments(order: np.ndarray, blocks: list[np.ndarray]) -> list[tuple[int, tuple[int, ...]]]:
    """The moves a round of `reorder_blocks` scores, each as ``(start, nodes)``: the
    consecutive places from ``start`` take ``nodes``. A block within ``MAX_BLOCK``
    places gives every order of the nodes there (its window); a block spread wider
    gives each of its nodes moved next to each other, on either side (the nodes
    between shifted by one place), the shorter way round."""
    n = order.size
    position = np.empty(n, dtype=int)
    position[order] = np.arange(n)
    moves = set()
    for block in blocks:
        start, length = _block_places(position, block, n)
        if length + 2 > n:
            continue
        if length <= MAX_BLOCK:
            nodes = tuple(int(a) for a in order[(start + np.arange(length)) % n])
            moves.update((start, perm) for perm in itertools.permutations(nodes) if perm != nodes)
            continue
        for u, v in itertools.permutations(block.tolist(), 2):
            moves.update(_gathered(order, position, int(u), int(v)))
    return sorted(moves)


def _gathered(order, position, u: int, v: int) -> list[tuple[int, tuple[int, ...]]]:
    """The moves of node ``u`` next to node ``v`` (before it and after it), the nodes
    between them shifted by one place, the shorter way round the order."""
    n = order.size
    forward = (position[v] - position[u]) % n
    if forward <= n // 2:
        start = int(position[u])
        between = [int(a) for a in order[(start + 1 + np.arange(forward - 1)) % n]]
        return [(start, (*between, u, v)), (start, (*between, v, u))]
    start = int(position[v])
    between = [int(a) for a in order[(start + 1 + np.arange(n - forward - 1)) % n]]
    return [(start, (u, v, *between)), (start, (v, u, *between))]


def _edge(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _path_edges(path) -> set[tuple[int, int]]:
    return {_edge(int(a), int(b)) for a, b in itertools.pairwise(path)}


def _scored(gram: OrderGram, order: np.ndarray, moves) -> list[tuple[float, int, tuple]]:
    """``(misfit, start, nodes)`` of each move that lowers the order's misfit and the
    least found before it among the moves of the same places (its first order on a
    tie)."""
    n = order.size
    best: dict[tuple[int, int], tuple[float, int, tuple]] = {}
    for start, nodes in moves:
        length = len(nodes)
        places = (start + np.arange(-1, length + 1)) % n
        path = order[places]
        edges = _path_edges([int(path[0]), *nodes, int(path[-1])])
        current = _path_edges(path)
        given, taken = sorted(current - edges), sorted(edges - current)
        if not given and not taken:
            continue
        P = gram.projected(given + taken)
        signs = np.r_[np.ones(len(given)), -np.ones(len(taken))]
        key = (start, length)
        bound = best[key][0] if key in best else gram.misfit
        value = gram.least_after(P, signs, bound)
        if value is not None:
            best[key] = (value, start, nodes)
    return sorted(best.values())


def reorder_blocks(basis, order) -> np.ndarray:
    """The order the descent of the module docstring ends at from the nodes in
    ``order`` (``order`` itself when no window's order lowers its misfit)."""
    blocks = heavy_blocks(np.asarray(basis["V"]), basis["zero_column"])
    return descend(basis, order, lambda current: _segments(current, blocks))


def descend(basis, order, proposed: Callable[[np.ndarray], list]) -> np.ndarray:
    """The order the descent of `reorder_blocks` (module docstring) ends at from the
    nodes in ``order``, each round scoring the moves ``proposed(order)`` gives
    (``(start, nodes)``: the consecutive places from ``start`` take ``nodes``)."""
    order = np.asarray(order).copy()
    gram = OrderGram(basis, order)
    for _ in range(REPAIR_ROUNDS):
        moves = _scored(gram, order, proposed(order))
        if not moves:
            break
        combined = _moved(order, moves)
        trial = OrderGram(basis, combined)
        if trial.misfit >= moves[0][0] and not np.array_equal(combined, _moved(order, moves[:1])):
            # the moves together do not lower the misfit below the best alone
            combined = _moved(order, moves[:1])
            trial = OrderGram(basis, combined)
        if not trial.misfit < gram.misfit:
            break
        order, gram = combined, trial
    return order


def _moved(order: np.ndarray, moves: list) -> np.ndarray:
    """``order`` with the nodes of ``moves`` (``(misfit, start, nodes)``, best first)
    put in their places, each unless it shares a place, or a place next to it, with a
    move taken before."""
    n = order.size
    moved, taken = order.copy(), np.zeros(n, dtype=bool)
    for _, start, nodes in moves:
        places = (start + np.arange(-1, len(nodes) + 1)) % n
        if not taken[places].any():
            taken[places] = True
            moved[places[1:-1]] = nodes
    return moved
