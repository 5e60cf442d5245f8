"""Eigenspaces of a Cayley graph of an abelian group, read off its eigenvectors.

A Cayley graph of an abelian group (a cycle, a circulant, a torus $C_p \\times C_q$) is
diagonalised by the group's characters $\\chi_s$, and the product of two characters is a
character: $\\chi_s \\circ \\chi_t = \\chi_{s+t}$. An eigensolver returns an arbitrary
orthonormal basis of every repeated eigenspace $E$, but the products of two columns
$V_k \\circ V_l$ still lie in the span of the eigenspaces that hold a character $s + t$
with $s \\in E_k$, $t \\in E_l$: the triple products
$T_{klm} = \\sum_i V_{ik} V_{il} V_{im}$ vanish outside a pattern fixed by the
eigenspaces of $k$, $l$ and $m$ (a few per cent of the entries on a torus; nearly all
entries are nonzero for a graph without such symmetry). Columns of one eigenspace have
patterns drawn from the same one, columns of different eigenspaces from different
ones: the columns are grouped by the overlap (Jaccard index) of their patterns.

A grouping is accepted only when every group's projector $\\sum_{k \\in E} V_k V_k^T$
has a constant diagonal, as every eigenspace of a vertex-transitive graph has, and the
groups together are invariant under one group of translations (``_Translations``: a
combination of their projectors has rows that are permutations of one another); among
the overlap levels, the finest such grouping is taken (a group that splits an
eigenspace has an unequal diagonal, or, joined to part of another eigenspace, breaks
the common translations; a union of eigenspaces passes, and is coarser).
The eigenvalues are then searched constant on the groups (far fewer unknowns: the
10 x 20 torus has 49 eigenspaces for 200 columns, and its constant-diagonal family,
searched column by column, 125 directions).

Internal module: arguments are validated by the caller; exact eigenvectors only.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

#: Entries of the triple products below this fraction of the largest are zero (exact
#: eigenvectors: rounding level).
ZERO_LEVEL = 1e-9
#: The squares' coefficients $V^T (V_k \circ V_k)$ must be zero in at least this fraction
#: of the entries (a graph without a group structure has nearly none).
MIN_SPARSITY = 0.5
#: Columns $l$ of the triple-product patterns (all when there are fewer): evenly spaced.
PATTERN_COLUMNS = 64
#: Overlap levels tried, finest grouping first.
OVERLAP_LEVELS = (0.8, 0.7, 0.6, 0.5)
#: A group's projector diagonal is constant when its spread is below this fraction of
#: its mean.
CONSTANT_DIAGONAL = 1e-8
#: Fewest groups accepted: the zero-eigenvalue column and two more (with one, the
#: eigenvalues are all equal: the complete graph).
MIN_GROUPS = 3
#: Largest basis grouped (the patterns take $n^3 \cdot$ ``PATTERN_COLUMNS`` / n flops).
MAX_NODES = 500


def character_groups(V: np.ndarray, c: int, *, pair_halves: bool = True) -> list[np.ndarray] | None:
    """A partition of the columns of ``V`` into eigenspaces (groups), or None.

    Parameters
    ----------
    V : ndarray of shape (n, n)
        Orthonormal, exact eigenvectors; column ``c`` is the constant vector.
    c : int
        The zero-eigenvalue column (a group on its own).
    pair_halves : bool, default True
        When no overlap level gives groups with a constant diagonal, pair the groups
        whose diagonals complement each other (`_paired`) and try again.

    Returns
    -------
    list of ndarray or None
        The groups (column indices), when the squares of the columns are sparse in the
        basis, the patterns give a grouping with a group of two columns or more, and
        every group's projector has a constant diagonal; else None.
    """
    n = V.shape[0]
    if n > MAX_NODES or n < 4:
        return None
    squares = V.T @ (V * V)
    if np.mean(np.abs(squares) <= ZERO_LEVEL * np.abs(squares).max()) < MIN_SPARSITY:
        return None
    step = max(1, -(-n // PATTERN_COLUMNS))
    probes = np.arange(0, n, step)
    pattern = np.empty((n, probes.size, n), dtype=np.float32)
    for a, l in enumerate(probes):
        T = V.T @ (V * V[:, [l]])  # T[k, m] = sum_i V_ik V_il V_im
        pattern[:, a, :] = np.abs(T) > ZERO_LEVEL * np.abs(T).max()
    pattern[:, :, c] = 0.0
    label = np.arange(n)
    squared = V * V
    levels = []
    refused = False  # constant diagonals, but no common translations
    for level in OVERLAP_LEVELS:
        label = _merged(pattern, probes, label, c, level)
        levels.append(label)
        groups = _diagonal_groups(label, squared)
        if groups:
            refined = [part for g in groups for part in _finest(g, levels[:-1], squared)]
            for grouping in (refined, groups):
                if _one_translation_group(V, grouping):
                    return _partition_with_column_alone(grouping, c)
            refused = True
            break
    if not pair_halves:
        return None
    # no level gave groups with a constant diagonal: the halves of split eigenspaces
    # paired at each level, and a group with a constant diagonal (a whole eigenspace or
    # a union of them) joined to no other one; then, if a grouping was refused for
    # want of common translations, halves paired only to a single partner that keeps
    # them, and last every half joined to all its partners (unions of eigenspaces)
    for pairing in (
        lambda halves: _paired(pattern, probes, halves, squared),
        lambda halves: _paired_by_translations(V, halves, squared),
        lambda halves: _joined_partners(halves, squared),
    ):
        label = np.arange(n)
        for level in OVERLAP_LEVELS:
            label = pairing(_kept_apart(label, _merged(pattern, probes, label, c, level), squared))
            groups = _diagonal_groups(label, squared)
            if groups:
                if _one_translation_group(V, groups):
                    return _partition_with_column_alone(groups, c)
                refused = True
                break
        if not refused:
            return None
    return None


def _partition_with_column_alone(groups, c) -> list[np.ndarray] | None:
    """``groups`` if there are at least ``MIN_GROUPS`` of them and column ``c`` is a
    group on its own, else None.

    Column ``c`` is the zero eigenvalue's: a group holding other columns too is not an
    eigenspace of a connected graph's Laplacian, and has no unknown of the grouped
    search. It happens when ``c`` is not constant (a normalized Laplacian's
    $D^{1/2} 1$, the 10 x 10 grid's: its triple products merge it with other
    columns).
    """
    if len(groups) < MIN_GROUPS:
        return None
    if any(c in g and g.size > 1 for g in groups):
        return None
    return groups


def _kept_apart(label, merged, squared) -> np.ndarray:
    """``merged`` (a coarser labeling than ``label``) with every merged group that joins
    a group of ``label`` whose projector diagonal is constant split back into the
    groups of ``label``: the overlap levels joined whole eigenspaces of the 4 x 4 x 5
    torus (7 groups for 15) once the halves of others had been paired."""
    count = int(label.max()) + 1
    constant = np.array(
        [_constant_diagonal(squared[:, label == g].sum(axis=1)) for g in range(count)]
    )
    joins = (
        np.bincount(merged[np.unique(label, return_index=True)[1]], minlength=int(merged.max()) + 1)
        > 1
    )
    mixed = np.zeros_like(joins)
    np.logical_or.at(mixed, merged, joins[merged] & constant[label])
    kept = np.where(mixed[merged], label + merged.max() + 1, merged)
    return np.unique(kept, return_inverse=True)[1]


def _paired(pattern, probes, label, squared) -> np.ndarray:
    """``label`` with the groups whose projector diagonal is not constant joined in
    pairs of partners.

    An eigenspace of a product of cycles may come back from the eigensolver as products
    of the factors' eigenvectors ($\\cos(2\\pi a x / 8) \\cos(2\\pi b y / q)$ and its
    sine partners on the 8 x 14 torus), whose patterns split it into halves of
    complementary diagonals ($\\cos^2$ and $\\sin^2$ of the same angle) that no overlap
    level joins. Two such groups are partners when their union has a constant diagonal
    and each is the other's group of largest overlap among those (strictly ahead of the
    runner-up: the halves of an eigenspace $a$ of $C_8$ have unions with a constant
    diagonal with those of $3a$ too, an automorphism's image, whose patterns overlap
    less). Used only when the overlap levels alone give no grouping.
    """
    count = int(label.max()) + 1
    groups = [np.flatnonzero(label == g) for g in range(count)]
    diagonal = np.array([squared[:, g].sum(axis=1) for g in groups])
    bad = [g for g in range(count) if not _constant_diagonal(diagonal[g])]
    if len(bad) < 2:
        return label
    overlap = _overlaps(pattern, probes, label)
    best = {}
    for g in bad:
        unions = diagonal[g] + diagonal[bad]  # `_constant_diagonal`, row by row
        constant = np.ptp(unions, axis=1) <= CONSTANT_DIAGONAL * np.abs(unions.mean(axis=1))
        partners = sorted(
            ((overlap[g, h], h) for h, ok in zip(bad, constant, strict=True) if ok and h != g),
            reverse=True,
        )
        if partners and (len(partners) == 1 or partners[1][0] < partners[0][0]):
            best[g] = partners[0][1]
    target = np.arange(count)
    for g, h in best.items():
        if best.get(h) == g:
            target[max(g, h)] = min(g, h)
    _, joined = np.unique(target, return_inverse=True)
    return joined[label]


def _paired_by_translations(V, label, squared) -> np.ndarray:
    """``label`` with the groups whose projector diagonal is not constant joined in
    pairs of partners.

    An eigenspace of a product of cycles may come back from the eigensolver as products
    of the factors' eigenvectors ($\\cos(2\\pi a x / 8) \\cos(2\\pi b y / q)$ and its
    sine partners on the 8 x 14 torus), whose patterns split it into halves of
    complementary diagonals ($\\cos^2$ and $\\sin^2$ of the same angle) that no overlap
    level joins. The halves of the eigenspaces of the characters $a$ and $3a$ of $C_8$
    (and of $b$ and $b'$ of the other factor with $2b = \\pm 2b'$) complement one
    another too: on the 8 x 12 torus a half has four to eight groups whose union with it
    has a constant diagonal, one of them its own other half. Two groups are partners
    when their union has a constant diagonal and each is the only such group of the
    other that keeps the groups found so far under one group of translations
    (``_Translations``); partners are added to those groups and the rest tested
    again, until no group has a single such partner. Halves left with several are not
    paired (the overlap levels join them later, into unions of eigenspaces): pairing
    them by the overlap of their patterns joined halves of different eigenspaces
    (8 x 12 torus, shuffles 0, 1, 3, 6, 8, 9, 11-13). Used only when the grouping
    that `_paired` gives was refused for want of common translations.
    """
    count = int(label.max()) + 1
    groups = [np.flatnonzero(label == g) for g in range(count)]
    diagonal = np.array([squared[:, g].sum(axis=1) for g in groups])
    bad = [g for g in range(count) if not _constant_diagonal(diagonal[g])]
    if len(bad) < 2:
        return label
    whole = _Translations(V, [groups[g] for g in range(count) if g not in bad])
    partners = {}
    for g in bad:
        unions = diagonal[g] + diagonal[bad]  # `_constant_diagonal`, row by row
        constant = np.ptp(unions, axis=1) <= CONSTANT_DIAGONAL * np.abs(unions.mean(axis=1))
        partners[g] = [h for h, ok in zip(bad, constant, strict=True) if ok and h != g]
    target = np.arange(count)
    while True:
        admitted = {
            g: [h for h in hs if whole.admits(np.concatenate([groups[g], groups[h]]))]
            for g, hs in partners.items()
        }
        pairs = [
            (g, hs[0])
            for g, hs in admitted.items()
            if len(hs) == 1 and g < hs[0] and admitted.get(hs[0]) == [g]
        ]
        if not pairs:
            break
        for g, h in pairs:
            target[h] = g
            whole.add(np.concatenate([groups[g], groups[h]]))
        done = {x for pair in pairs for x in pair}
        partners = {
            g: [h for h in hs if h not in done] for g, hs in admitted.items() if g not in done
        }
    _, joined = np.unique(target, return_inverse=True)
    return joined[label]


def _joined_partners(label, squared) -> np.ndarray:
    """``label`` with every group whose projector diagonal is not constant joined to
    all the groups whose union with it has a constant diagonal (transitively): the
    halves of the eigenspaces of the characters $a$ and $3a$ of a factor $C_8$ joined
    into unions of eigenspaces, whichever way they pair."""
    count = int(label.max()) + 1
    diagonal = np.array([squared[:, label == g].sum(axis=1) for g in range(count)])
    bad = np.flatnonzero([not _constant_diagonal(d) for d in diagonal])
    if bad.size < 2:
        return label
    unions = diagonal[bad][:, None, :] + diagonal[bad][None, :, :]
    partners = np.ptp(unions, axis=2) <= CONSTANT_DIAGONAL * np.abs(unions.mean(axis=2))
    _, component = sp.csgraph.connected_components(sp.csr_array(partners), directed=False)
    target = np.arange(count)
    target[bad] = count + component
    return np.unique(target, return_inverse=True)[1][label]


def _overlaps(pattern, probes, label) -> np.ndarray:
    """The Jaccard index of the patterns of the groups of ``label`` (see `_merged`)."""
    n = pattern.shape[0]
    count = int(label.max()) + 1
    if count == n:  # one column per group: its own pattern
        block = pattern.reshape(n, -1)
    else:
        H = np.zeros((n, count), dtype=np.float32)
        H[np.arange(n), label] = 1.0
        seen = (pattern.reshape(-1, n) @ H).reshape(n, probes.size, count) > 0
        seen = np.matmul(seen.transpose(0, 2, 1).astype(np.float32), H[probes]) > 0
        block = (H.T @ seen.reshape(n, -1).astype(np.float32) > 0).astype(np.float32)
    common = block @ block.T
    size = np.diag(common)
    return common / np.maximum(size[:, None] + size[None, :] - common, 1.0)


def _finest(group, finer, squared):
    """``group`` split by the finest of the ``finer`` labelings whose parts of it all have
    a constant projector diagonal (the group itself if none)."""
    for label in finer:
        parts = [group[label[group] == v] for v in np.unique(label[group])]
        if len(parts) > 1 and all(_constant_diagonal(squared[:, p].sum(axis=1)) for p in parts):
            return parts
    return [group]


def _merged(pattern, probes, label, c, level, max_rounds=10):
    """Groups merged while their patterns overlap at ``level`` or more.

    A group's pattern is the set of pairs of groups $(Y, Z)$ with a nonzero $T_{klm}$
    for $k$ in the group, $l \\in Y$ (among the probe columns), $m \\in Z$: the union over
    its columns, closer to its eigenspace's pattern than any one column's.
    """
    for _ in range(max_rounds):
        count = int(label.max()) + 1
        overlap = _overlaps(pattern, probes, label)
        overlap[label[c], :] = overlap[:, label[c]] = 0.0
        merged, joined = sp.csgraph.connected_components(
            sp.csr_array(overlap >= level), directed=False
        )
        if merged == count:
            break
        label = joined[label]
    return label


class _Translations:
    """A combination $M = \\sum_g r_g P_g$ of groups' projectors with random weights
    $r_g \\in [1, 2]$ (a fixed seed), whose rows must be permutations of one another.

    The eigenspaces of a Cayley graph of an abelian group are invariant under one and
    the same group of translations, $P_E(i + t, j + t) = P_E(i, j)$, so every row of
    every such combination is its first row translated. The diagonal test
    (``_constant_diagonal``) holds for each projector alone, and also for groups each
    invariant under a group of permutations of its own: on the 8 x 12 torus, a half of
    the eigenspace of the characters $(1, t)$ joined to a half of that of $(3, t)$
    ($\\cos^2$ and $\\sin^2$ diagonals of one angle) has a constant diagonal, even rows
    that are permutations of one another, but is no sum of characters; with the other
    groups, the rows of $M$ differ by 1e-3 to 1e-1 of its largest entry. Rows agree
    after sorting to ``CONSTANT_DIAGONAL`` times the largest entry, the diagonal test's
    level (the rounding of $M$ is about $n \\epsilon$ of it).
    """

    def __init__(self, V: np.ndarray, groups: list[np.ndarray]):
        self.V = V
        self.rng = np.random.default_rng(0)
        self.M = np.zeros((V.shape[0], V.shape[0]))
        for columns in groups:
            self.add(columns)

    def _term(self, group: np.ndarray) -> np.ndarray:
        U = self.V[:, group]
        return self.rng.uniform(1.0, 2.0) * (U @ U.T)

    def admits(self, group: np.ndarray) -> bool:
        """Whether the rows stay permutations of one another with ``group`` added."""
        return _permuted_rows(self.M + self._term(group))

    def add(self, group: np.ndarray) -> None:
        self.M += self._term(group)

    def hold(self) -> bool:
        """Whether the rows are permutations of one another."""
        return _permuted_rows(self.M)


def _permuted_rows(M: np.ndarray) -> bool:
    rows = np.sort(M, axis=1)
    return bool(np.abs(rows - rows[0]).max() <= CONSTANT_DIAGONAL * np.abs(rows).max())


def _one_translation_group(V: np.ndarray, groups: list[np.ndarray]) -> bool:
    """Whether the groups' projectors are invariant under one group of translations
    (`_Translations`, every row)."""
    return _Translations(V, groups).hold()


def _diagonal_groups(label: np.ndarray, squared: np.ndarray) -> list[np.ndarray]:
    """The groups of columns of ``label`` when there are fewer groups than columns and
    every group's projector has a constant diagonal (``squared``: the basis's entries
    squared); else an empty list."""
    count = int(label.max()) + 1
    if count == label.size:
        return []
    groups = [np.flatnonzero(label == g) for g in range(count)]
    if all(_constant_diagonal(squared[:, g].sum(axis=1)) for g in groups):
        return groups
    return []


def _constant_diagonal(d) -> bool:
    return bool(np.ptp(d) <= CONSTANT_DIAGONAL * abs(float(d.mean())))
