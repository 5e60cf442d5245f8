"""A grid's lines read from pairs of its eigenvectors whose squares sum to a constant.

The grid $P_a \\square P_b$ has the eigenvectors $u_k \\otimes w_l$ (``_grid_twins``),
with $w_l(j) = c \\cos(l \\theta_j)$, $\\theta_j = \\pi (2j + 1) / 2b$. For $0 < l < b$,
$w_{b - l}(j) = (-1)^j c \\sin(l \\theta_j)$, so the columns $u_0 \\otimes w_l$ and
$u_0 \\otimes w_{b - l}$ have squares that sum to the same value on every node, and the
angle $\\varphi = \\operatorname{atan2}(|u_0 \\otimes w_{b - l}|, u_0 \\otimes w_l)$ of a
node on the $j$-th of the $b$ lines of $a$ nodes is $l \\theta_j$ folded into
$[0, \\pi]$: an odd multiple of $\\pi / 2b$ for $l$ odd and coprime to $b$, each line at
its own multiple. The lines' order by angle is then a DCT twin of the path.

The sorted values of one column (``_basis_grid.line_columns``) separate the lines only
where consecutive cosines differ by more than the noise; near $\\pm 1$ they differ by
about $(\\pi / 2b)^2$, so a long side is lost to the noise (``ladder_graph(50)``
perturbed by 1e-3: no column of 50 lines is read, and a denser graph of 198 edges for
148, F1 0.01, was returned with no warning). The angles are $\\pi / b$ apart everywhere:
their lines are read at that noise.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

#: Largest distance of an angle from its multiple of $\\pi / 2m$, in units of
#: $\\pi / 2m$, relative to the spacing of the multiples read (2 units): the share
#: ``_basis_grid.RUN_SPREAD`` of the gap that a run of values may spread over.
ANGLE_SPREAD = 0.25


def dct_profile(n: int, m: int) -> np.ndarray:
    """The sorted values of a unit column constant on ``m`` lines of ``n / m`` nodes
    that takes the path's DCT values $\\cos(\\pi l (2j + 1) / 2m)$ ($l$ odd, coprime
    to ``m``) on them.

    Examples
    --------
    >>> dct_profile(4, 2).round(3).tolist()
    [-0.5, -0.5, 0.5, 0.5]
    """
    values = np.repeat(np.cos(np.pi * (2 * np.arange(m) + 1) / (2 * m)), n // m)
    return np.sort(values) / np.linalg.norm(values)


def angle_lines(c, s, m: int) -> np.ndarray | None:
    """The line (0 to ``m - 1``) of every node read from the angle
    $\\operatorname{atan2}(|s|, c)$ of two columns, or None unless the angles fall on
    ``m`` multiples of $\\pi / 2m$ of one parity, each taken by ``n / m`` nodes, every
    angle within ``ANGLE_SPREAD`` of the spacing from its multiple.

    Examples
    --------
    >>> theta = np.pi * (2 * np.arange(4) + 1) / 8
    >>> angle_lines(np.cos(theta), np.sin(theta), 4).tolist()
    [0, 1, 2, 3]
    """
    n = c.size
    units = 2 * m * np.arctan2(np.abs(s), c) / np.pi
    for parity in (1, 0):
        k = 2 * np.round((units - parity) / 2) + parity
        if np.abs(units - k).max() >= 2 * ANGLE_SPREAD:
            continue
        levels, lines = np.unique(k, return_inverse=True)
        if levels.size == m and np.all(np.bincount(lines) == n // m):
            return lines
    return None


def angle_line_readings(V, S, m: int) -> Iterator[np.ndarray]:
    """Readings of ``m`` lines of ``n / m`` nodes (``angle_lines``) from pairs of
    columns of ``V`` whose sorted values ``S`` follow the DCT profile (``dct_profile``,
    within ``ANGLE_SPREAD`` in norm) and whose squares sum to a constant (the norm of
    the centred sum within ``ANGLE_SPREAD`` of the smaller centred square's). Only the
    columns of the profile are paired: $O(n^2)$ for a basis with none.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.convert_node_labels_to_integers(nx.ladder_graph(6))
    >>> V = np.linalg.eigh(nx.laplacian_matrix(G).toarray().astype(float))[1]
    >>> lines = next(angle_line_readings(V, np.sort(V, axis=0), 6))
    >>> np.bincount(lines).tolist()
    [2, 2, 2, 2, 2, 2]
    """
    n = V.shape[0]
    profile = dct_profile(n, m)
    off = np.minimum(
        np.linalg.norm(S - profile[:, None], axis=0),
        np.linalg.norm(S + profile[::-1, None], axis=0),
    )
    cols = np.flatnonzero(off < ANGLE_SPREAD)
    if cols.size < 2:
        return
    Q = V[:, cols] ** 2
    R = Q - Q.mean(axis=0)
    norms = np.linalg.norm(R, axis=0)
    G = R.T @ R
    gap = np.sqrt(np.maximum(norms[:, None] ** 2 + norms[None, :] ** 2 + 2 * G, 0.0))
    ratio = gap / np.maximum(np.minimum.outer(norms, norms), np.finfo(float).tiny)
    np.fill_diagonal(ratio, np.inf)
    for i, k in zip(*np.nonzero(np.triu(ratio < ANGLE_SPREAD, 1)), strict=True):
        # (either column may be the cosine: $w_l$ is $\pm(-1)^j \sin((b - l)\theta_j)$)
        for first, second in ((i, k), (k, i)):
            lines = angle_lines(V[:, cols[first]], V[:, cols[second]], m)
            if lines is not None:
                yield lines


def ladder_sides(V, lines) -> np.ndarray | None:
    """The side (0 or 1) of every node of a ladder $P_2 \\square P_b$ whose ``lines``
    (``b`` lines of two nodes, read from columns or angles) are known: a column
    $u_1 \\otimes w_l$ takes opposite values on a line's two nodes and $u_0 \\otimes w_l$
    equal ones, of the same magnitude, so the nodes where the two agree in sign are one
    side; every antisymmetric column matched with the symmetric one nearest in
    magnitude (within ``ANGLE_SPREAD`` of its values' norm) votes, and the sides are
    the votes' consensus. None unless a pair is matched.

    Examples
    --------
    >>> import networkx as nx
    >>> G = nx.convert_node_labels_to_integers(nx.ladder_graph(5))
    >>> V = np.linalg.eigh(nx.laplacian_matrix(G).toarray().astype(float))[1]
    >>> side = ladder_sides(V, np.arange(10) % 5)
    >>> bool(np.all(side[:5] == side[0]) and np.all(side[5:] != side[0]))
    True
    """
    first = np.argsort(lines, kind="stable")
    p, q = first[0::2], first[1::2]
    if p.size != q.size or np.any(lines[p] != lines[q]):
        return None
    scale = np.linalg.norm(V[p], axis=0) + np.linalg.norm(V[q], axis=0)
    even = np.linalg.norm(V[p] - V[q], axis=0) < ANGLE_SPREAD * scale
    odd = np.linalg.norm(V[p] + V[q], axis=0) < ANGLE_SPREAD * scale
    evens, odds = np.flatnonzero(even & ~odd), np.flatnonzero(odd & ~even)
    if not evens.size or not odds.size:
        return None
    A, B = np.abs(V[p][:, odds]), np.abs(V[p][:, evens])
    squares = (A * A).sum(axis=0)[:, None] + (B * B).sum(axis=0)[None, :]
    gap = np.sqrt(np.maximum(squares - 2 * (A.T @ B), 0.0))
    match = np.argmin(gap, axis=1)
    kept = gap[np.arange(odds.size), match] < ANGLE_SPREAD * np.linalg.norm(A, axis=0)
    if not kept.any():
        return None
    # each matched pair votes a split (+-1 on the nodes); pairs of the same $l$ vote the
    # sides up to sign, and other pairs of equal magnitudes (``ladder_graph(70)``:
    # $u_1 \otimes w_0$ and $u_0 \otimes w_{35}$, both $\pm 1/\sqrt n$) do not: the
    # sides are the votes' leading singular vector
    votes = np.sign(V[:, odds[kept]]) * np.sign(V[:, evens[match[kept]]])
    return (np.linalg.svd(votes, full_matrices=False)[0][:, 0] > 0).astype(np.int64)
