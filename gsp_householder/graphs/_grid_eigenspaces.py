"""A bipartite grid's repeated eigenspaces read from eigenvectors in any basis of them.

The normalized Laplacian of a square grid $P_a \\square P_a$ has eigenvalues of
multiplicity 2 (the grid's transpose maps an eigenvector to another of the same
eigenvalue), and the columns of such an eigenspace may be any orthonormal basis of it:
their sorted magnitudes then match no single eigenvector of the grid, and
``_normalized_grid`` could not give them an eigenvalue column by column.

The bipartition's signs $S$ map the eigenspace of $\\mu$ onto that of $2 - \\mu$, so
$M = V^T S V$ is orthogonal and, columns ordered by eigenspace, has blocks only between
the eigenspaces of $\\mu$ and $2 - \\mu$. The connected components of its support split
the columns into sets $K \\cup L$ with $S \\operatorname{span} K = \\operatorname{span} L$
and no entry of $M$ within $K$ or within $L$ (a 2-colouring of the component); such a
$K$ spans a subspace of one eigenspace, and $L$ its image. The eigenvalue-1 space is
mapped onto itself (components that are no such pair: they add nothing to
$D^{-1/2} A D^{-1/2}$). The diagonal of a projector is unchanged by a rotation of the
basis, and its sorted values by a relabelling of the nodes, so
$\\operatorname{sort}(\\sum_{k \\in K} v_k^2)$ is matched with the same profile of the
grid's eigenspaces of as many dimensions; a component of one column that matches no
simple eigenvector is matched, with another such component, to an eigenspace of two
dimensions (their columns may be a basis of it that $S$ maps column by column).
Which side of each component takes $\\mu$ is then searched as for single columns.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import breadth_first_order, connected_components

#: Decimals to which the grid's eigenvalues are rounded to group its eigenspaces.
EIGENVALUE_DECIMALS = 8


def sign_blocks(
    V: np.ndarray, S: np.ndarray, skip: tuple[int, ...], tolerance: float
) -> list[np.ndarray] | None:
    """The sides $K$ of the components of $|V^T S V| > $ ``tolerance`` that pair two
    subspaces (module docstring), the columns ``skip`` (the zero and eigenvalue-2
    columns) left out, and components that $S$ maps onto themselves (eigenvalue 1)
    too; None when a column's component does not hold it (the squared entries of its
    row within the component below $1 - $ ``tolerance``).

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal eigenvectors.
    S : ndarray of shape (n,)
        The bipartition's signs.
    skip : tuple of int
        Columns left out.
    tolerance : float
        Smallest entry of the support; largest distance from 1 of a row's squares.

    Returns
    -------
    list of ndarray or None

    Examples
    --------
    >>> V = np.eye(4)[:, [0, 3, 1, 2]]
    >>> V[:, 2:] = np.array([[0, 0], [1, 1], [1, -1], [0, 0]]) / np.sqrt(2)
    >>> [K.tolist() for K in sign_blocks(V, np.array([1.0, 1, -1, 1]), (0, 1), 1e-8)]
    [[2]]
    """
    M = V.T @ (S[:, None] * V)
    keep = np.setdiff1d(np.arange(V.shape[1]), np.asarray(skip, dtype=np.int64))
    M = M[np.ix_(keep, keep)]
    support = np.abs(M) > tolerance
    if np.any(np.sum(np.where(support, M * M, 0.0), axis=1) < 1.0 - tolerance):
        return None
    count, labels = connected_components(sp.csr_array(support), directed=False)
    blocks = []
    for c in range(count):
        members = np.flatnonzero(labels == c)
        sub = support[np.ix_(members, members)]
        if np.any(np.diag(sub)):
            continue  # S maps a column onto itself: eigenvalue 1
        order, parents = breadth_first_order(sp.csr_array(sub), 0, directed=False)
        colour = np.zeros(members.size, dtype=bool)
        for node in order[1:]:
            colour[node] = not colour[parents[node]]
        if np.any(sub & (colour[:, None] == colour[None, :])):
            continue  # no 2-colouring: mapped onto itself
        blocks.append(keep[members[~colour]])
    return blocks


def eigenspace_profiles(
    eigenvalues: np.ndarray, W: np.ndarray
) -> dict[int, tuple[np.ndarray, np.ndarray]]:
    """The grid's eigenspaces by dimension: ``{d: (mu, profiles)}`` with each
    eigenspace's eigenvalue and the sorted diagonal of its projector (one row each)."""
    values, labels = np.unique(np.round(eigenvalues, EIGENVALUE_DECIMALS), return_inverse=True)
    spaces: dict[int, tuple[list, list]] = {}
    for g in range(values.size):
        cols = np.flatnonzero(labels == g)
        mus, rows = spaces.setdefault(cols.size, ([], []))
        mus.append(float(np.mean(eigenvalues[cols])))
        rows.append(np.sort(np.sum(W[:, cols] ** 2, axis=1)))
    return {d: (np.array(m), np.array(r)) for d, (m, r) in spaces.items()}


def _costs(P: np.ndarray, Q: np.ndarray) -> np.ndarray:
    """Squared distances between the rows of ``P`` and of ``Q``."""
    return (P * P).sum(axis=1)[:, None] + (Q * Q).sum(axis=1)[None, :] - 2.0 * (P @ Q.T)


def block_options(
    V: np.ndarray,
    blocks: list[np.ndarray],
    spaces: dict[int, tuple[np.ndarray, np.ndarray]],
    tolerance: float,
    factor: float,
) -> list[np.ndarray] | None:
    """Each block's options $\\pm(1 - \\mu)$: the $\\mu$ of the grid's eigenspaces of its
    dimension whose profile is within ``tolerance`` plus ``factor`` times the block's
    best match, and for a block of one column also those of two dimensions that it
    matches with another block of one column; None when a block matches none.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal eigenvectors.
    blocks : list of ndarray
        The blocks' columns (`sign_blocks`).
    spaces : dict
        The grid's eigenspaces (`eigenspace_profiles`).
    tolerance, factor : float
        Absolute and relative (noisy eigenvectors: above 0) tolerance of a match.

    Returns
    -------
    list of ndarray or None
    """
    profiles = [np.sort(np.sum(V[:, K] ** 2, axis=1)) for K in blocks]
    single = [i for i, K in enumerate(blocks) if K.size == 1]
    union = np.full((len(blocks), 0), np.inf)
    if 2 in spaces and len(single) > 1:
        i, j = np.triu_indices(len(single), 1)
        sq = V[:, [int(blocks[s][0]) for s in single]] ** 2
        both = _costs(np.sort(sq[:, i] + sq[:, j], axis=0).T, spaces[2][1])
        union = np.full((len(blocks), both.shape[1]), np.inf)
        for rows, pair in ((np.asarray(single)[i], both), (np.asarray(single)[j], both)):
            np.minimum.at(union, rows, pair)
    options = []
    for b, K in enumerate(blocks):
        own = _costs(profiles[b][None, :], spaces[K.size][1])[0] if K.size in spaces else []
        own = np.asarray(own, dtype=float)
        best = min(own.min(initial=np.inf), union[b].min(initial=np.inf))
        limit = tolerance + factor * best
        mu = np.concatenate(
            [
                spaces[K.size][0][own <= limit] if own.size else [],
                spaces[2][0][union[b] <= limit] if union[b].size else [],
            ]
        )
        if mu.size == 0:
            return None
        mu = np.unique(np.round(np.minimum(mu, 2.0 - mu), 9))
        options.append(np.unique(np.concatenate([1.0 - mu, mu - 1.0])))
    return options
