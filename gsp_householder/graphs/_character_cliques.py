"""The largest sets of character planes that are characters of one abelian group.

A plane of two columns of the eigenvectors whose rows have one norm and angles on a
regular $m$-gon numbers the nodes $k(x) \\in \\mathbb Z_m$ (``_abelian_twins``). Numbers
of one group's characters $k_1, k_2$ are homomorphisms, so the pairs
$(k_1(x), k_2(x))$ form a subgroup of $\\mathbb Z_{m_1} \\times \\mathbb Z_{m_2}$ with
equally many nodes on each element (``compatible``). A basis can hold the characters of
several groups on the nodes: the eigensolver returns an eigenspace
$(\\pm 1, \\pm t)$ of the 8 x 20 torus as $\\cos(\\pi x / 4) g(y)$ and
$\\sin(\\pi x / 4) g(y)$ halves, and two columns of different eigenspaces, such as
$\\cos(\\pi x / 4)$ and $\\sin(3 \\pi x / 4)$, or $g(y)$ and $(-1)^x g'(y)$, also make
planes of one norm on a regular polygon (60 of the 81 planes of the 8 x 20 torus,
shuffle 2), the characters of other groups. Read greedily, planes of several groups
mix into a group whose Cayley graphs do not hold the torus. The planes of one group are
pairwise compatible; the sets of them that no other plane is compatible with are the
maximal cliques of the compatibility graph, and the largest (the groups of which the
basis holds the most characters: eight sets of 21 planes on the 8 x 20 torus, four of
them groups, the torus's among them; the group read greedily on shuffle 0 holds 13) are
read (``largest_compatible_sets``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

#: Maximal cliques of the compatibility graph enumerated at most (a bound on the cost;
#: the 8 x 20 torus has 80, ``circulant_graph(300, [1, 7])`` 25, with one of 123 planes
#: of its 245, ``circular_ladder_graph(80)`` 68).
MAX_CLIQUES = 1000


def compatible(k1: np.ndarray, m1: int, k2: np.ndarray, m2: int) -> bool:
    """Whether the numbers ``k1`` (modulo ``m1``) and ``k2`` (modulo ``m2``) of the nodes
    can be homomorphisms of one group: their pairs form a subgroup of
    $\\mathbb Z_{m_1} \\times \\mathbb Z_{m_2}$ (closed under addition) with equally many
    nodes on each of its elements (the cosets of the kernel); ``compatibility`` for one
    pair.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(8)
    >>> compatible(x % 8, 8, (3 * x) % 8, 8)
    True
    >>> crossed = np.where(x % 2 == 1, x, -x) % 8
    >>> compatible(x % 8, 8, crossed, 8)
    False
    """
    return bool(_compatible_with(k1, m1, k2[None, :], np.array([m2]))[0])


def compatibility(characters: list[tuple[np.ndarray, int]]) -> np.ndarray:
    """The symmetric matrix of ``compatible`` pairs among ``characters`` (numbers, each
    onto its $\\mathbb Z_m$ and 0 at node 0, and orders), a row at a time."""
    count = len(characters)
    K = np.array([k for k, _ in characters], dtype=np.int64)
    M = np.array([m for _, m in characters], dtype=np.int64)
    C = np.eye(count, dtype=bool)
    for i, (k, m) in enumerate(characters[:-1]):
        C[i, i + 1 :] = _compatible_with(k, m, K[i + 1 :], M[i + 1 :])
    return C | C.T


def _compatible_with(k1: np.ndarray, m1: int, K: np.ndarray, M: np.ndarray) -> np.ndarray:
    """``compatible(k1, m1, K[j], M[j])`` for every row ``j``.

    With $k_1$ onto $\\mathbb Z_{m_1}$, the pairs $H = \\{(k_1(x), k_2(x))\\}$ are a
    subgroup with equal fibres exactly when (i) every element of $H$ holds equally many
    nodes, (ii) $H + (1, c) \\subseteq H$ for $c = k_2(x_1)$ at a node with
    $k_1(x_1) = 1$, so that the values of $k_2$ on $k_1 = u$ are $F(0) + u c$, and
    (iii) $F(0)$ is a subgroup of $\\mathbb Z_{m_2}$ (the multiples of the gcd of its
    elements and $m_2$). Each is checked over the sorted pairs of the nodes."""
    rows, n = K.shape
    stride = m1 * int(M.max())
    offsets = stride * np.arange(rows, dtype=np.int64)[:, None]
    held = np.sort(k1[None, :] * M[:, None] + K, axis=1) + offsets
    # (i) distinct elements r, each on n / r nodes: a new element every n / r nodes
    change = held[:, 1:] != held[:, :-1]
    distinct = 1 + change.sum(axis=1)
    fibre = n // distinct
    places = (np.arange(1, n)[None, :] % fibre[:, None]) == 0
    equal = (n % distinct == 0) & (change == places).all(axis=1)
    # (ii) closed under adding (1, c)
    x1 = int(np.argmax(k1 == 1 % m1))
    shifted = ((k1 + 1) % m1)[None, :] * M[:, None] + (K + K[:, [x1]]) % M[:, None] + offsets
    flat = held.ravel()
    where = np.minimum(np.searchsorted(flat, shifted), flat.size - 1)
    closed = (flat[where] == shifted).all(axis=1)
    # (iii) the values on k1 = 0 are a subgroup of Z_m2
    zero = K[:, k1 == 0]
    step = np.gcd.reduce(np.concatenate([zero, M[:, None]], axis=1), axis=1)
    ordered = np.sort(zero, axis=1)
    values = 1 + (np.diff(ordered, axis=1) != 0).sum(axis=1)
    subgroup = values == M // step
    return equal & closed & subgroup


def largest_compatible_sets(characters: list[tuple[np.ndarray, int]]) -> list[list[int]]:
    """The largest maximal sets of pairwise ``compatible`` planes among ``characters``
    (numbers and orders), as lists of their indices in increasing order; at most
    ``MAX_CLIQUES`` maximal sets are enumerated.

    Parameters
    ----------
    characters : list of tuple
        ``(numbers, order)`` of every plane and real character read (``_characters``).

    Returns
    -------
    list of list of int
    """
    count = len(characters)
    if count == 0:
        return []
    C = compatibility(characters)
    G = nx.Graph()
    G.add_nodes_from(range(count))
    G.add_edges_from(zip(*np.nonzero(np.triu(C, 1)), strict=True))
    sets = []
    for clique in nx.find_cliques(G):
        sets.append(sorted(clique))
        if len(sets) >= MAX_CLIQUES:
            break
    largest = max(len(s) for s in sets)
    return sorted(s for s in sets if len(s) == largest)
