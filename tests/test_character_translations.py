"""Character groups are invariant under one group of translations: unions of
eigenspaces, never halves of two paired across."""

from __future__ import annotations

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import shuffled

from gsp_householder import fourier_basis
from gsp_householder.graphs._character_groups import (
    _constant_diagonal,
    _one_translation_group,
    _Translations,
    character_groups,
)


def _cycle_basis(m):
    """Real orthonormal eigenvectors of the cycle C_m: columns ``{(k, "c"), (k, "s")}``."""
    x = np.arange(m)
    columns = {(0, "c"): np.ones(m)}
    for k in range(1, m // 2 + 1):
        columns[k, "c"] = np.cos(2 * np.pi * k * x / m)
        if 2 * k < m:
            columns[k, "s"] = np.sin(2 * np.pi * k * x / m)
    return {key: v / np.linalg.norm(v) for key, v in columns.items()}


def _torus_basis(a, b):
    """Products of the cycles' eigenvectors (the 8 x b torus's as ``eigh`` may give
    them), with each column's key ``(k, part, l, part)``."""
    X, Y = _cycle_basis(a), _cycle_basis(b)
    keys = [(k, p, l, q) for (k, p) in X for (l, q) in Y]
    V = np.column_stack([np.kron(X[k, p], Y[l, q]) for k, p, l, q in keys])
    return V, keys


def _columns(keys, test):
    return np.array([i for i, key in enumerate(keys) if test(*key)])


def _crossed(keys, eigenspaces, crossings):
    """``eigenspaces`` with those of (1, l) and (3, l), l in ``crossings``, regrouped
    as the cosine half of one with the sine half of the other."""
    groups = [
        g for g in eigenspaces if not (keys[g[0]][0] in (1, 3) and keys[g[0]][2] in crossings)
    ]
    for l in crossings:
        groups.append(
            _columns(keys, lambda k, p, m, q, l=l: m == l and (k, p) in ((1, "c"), (3, "s")))
        )
        groups.append(
            _columns(keys, lambda k, p, m, q, l=l: m == l and (k, p) in ((1, "s"), (3, "c")))
        )
    return groups


@pytest.mark.parametrize("b", [5, 7])
def test_halves_paired_across_have_constant_diagonals_but_no_common_translations(b):
    # cos^2(pi x / 4) + sin^2(3 pi x / 4) = 1: the cosine half of the eigenspace of the
    # characters (1, l) joined to the sine half of that of (3, l) has a constant
    # diagonal, as the eigenspaces have; with the other eigenspaces whole, only the
    # eigenspaces are invariant under one group of translations
    V, keys = _torus_basis(8, b)
    assert np.allclose(V.T @ V, np.eye(8 * b), atol=1e-13)
    eigenspaces = {}
    for i, (k, _, l, _) in enumerate(keys):
        eigenspaces.setdefault((k, l), []).append(i)
    eigenspaces = [np.array(g) for g in eigenspaces.values()]
    squared = V * V
    assert all(_constant_diagonal(squared[:, g].sum(axis=1)) for g in eigenspaces)
    assert _one_translation_group(V, eigenspaces)
    for crossings in ([1], [0, 2], list(range(1, b // 2 + 1))):
        crossed = _crossed(keys, eigenspaces, crossings)
        assert sorted(np.concatenate(crossed).tolist()) == list(range(8 * b))
        assert all(_constant_diagonal(squared[:, g].sum(axis=1)) for g in crossed)
        assert not _one_translation_group(V, crossed)
    # crossed at every l alike, the groups are invariant under another group of
    # permutations of the nodes: no test on the projectors refuses them, and the
    # pairing leaves halves with several such partners unpaired
    assert _one_translation_group(V, _crossed(keys, eigenspaces, range(b // 2 + 1)))
    # unions of eigenspaces are invariant too
    assert _one_translation_group(V, [np.concatenate(eigenspaces[:3]), *eigenspaces[3:]])


def test_a_single_crossed_pair_is_refused_next_to_whole_eigenspaces():
    # the pairing's test: with the other eigenspaces in place, of the four groups whose
    # union with the cosine half of (1, 1) has a constant diagonal (the sine halves of
    # (1, 1), (3, 1), (1, 4) and (3, 4) on the 8 x 5 torus: 4 = -1 mod 5), only its own
    # other half keeps the translations
    V, keys = _torus_basis(8, 5)
    rest = {}
    for i, (k, _, l, _) in enumerate(keys):
        if not (k in (1, 3) and l == 1):
            rest.setdefault((k, l), []).append(i)
    whole = _Translations(V, [np.array(g) for g in rest.values()])
    half = _columns(keys, lambda k, p, m, q: (k, p, m) == (1, "c", 1))
    own = _columns(keys, lambda k, p, m, q: (k, p, m) == (1, "s", 1))
    across = _columns(keys, lambda k, p, m, q: (k, p, m) == (3, "s", 1))
    squared = V * V
    for other in (own, across):
        assert _constant_diagonal(squared[:, np.concatenate([half, other])].sum(axis=1))
    assert whole.admits(np.concatenate([half, own]))
    assert not whole.admits(np.concatenate([half, across]))


def _split_eigenspaces(a, b, shuffle):
    """The eigenspaces of the exact a x b torus (shuffled) whose columns
    ``character_groups`` puts in more than one group (None: no grouping)."""
    B = fourier_basis(nx.convert_node_labels_to_integers(nx.grid_2d_graph(a, b, periodic=True)))
    V = shuffled(B.eigenvectors, shuffle)
    lam = np.round(np.diag(V.T @ B.laplacian.toarray() @ V), 8)
    groups = character_groups(V, int(np.argmax(np.abs(V.sum(axis=0)))))
    if groups is None:
        return None
    assert sorted(np.concatenate(groups).tolist()) == list(range(B.n))
    label = np.empty(B.n, dtype=int)
    for g, columns in enumerate(groups):
        label[columns] = g
    return [value for value in np.unique(lam) if np.unique(label[lam == value]).size > 1]


@pytest.mark.parametrize(
    ("a", "b", "shuffle"),
    [(8, 12, s) for s in (0, 1, 3, 6, 8, 9, 13)] + [(8, 11, 0), (8, 17, 0), (8, 17, 2)],
)
def test_torus_with_a_factor_eight_is_grouped_in_unions_of_eigenspaces(a, b, shuffle):
    # before: halves of the eigenspaces (1, t) and (3, t) paired across by the overlap
    # of their patterns, every group with a constant diagonal: 2 to 12 eigenspaces split
    # (8 x 12), 2 to 26 (8 x 11, 8 x 17); refused for want of common translations, the
    # halves are paired to single partners that keep them, or joined to all their
    # partners: unions of eigenspaces, or no grouping
    assert _split_eigenspaces(a, b, shuffle) in (None, [])


@pytest.mark.parametrize(("a", "b", "shuffle"), [(8, 11, 2), (8, 13, 1), (8, 27, 0)])
def test_torus_with_a_factor_eight_keeps_its_exact_eigenspaces(a, b, shuffle):
    # the pairing by the patterns' overlap gives groups under one group of
    # translations: the eigenspaces, as before
    assert _split_eigenspaces(a, b, shuffle) == []
