"""Refits of edge sets near a base edge set, from its pair Gram updated."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import perturbed, shuffled
from test_edge_test_descent import _basis, _edges, _weights
from test_twin_split import HEAVY, _as_twins, _heavy_cycle

from gsp_householder import fourier_basis
from gsp_householder.graphs._edge_set_fits import EdgeSetFits
from gsp_householder.graphs._edge_test_descent import anchored_fit


def _pairs(W):
    upper = sp.triu(sp.csr_array(W), 1).tocoo()
    return set(zip(upper.row.tolist(), upper.col.tolist(), strict=True))


def _support_fit(basis, pairs):
    rows, cols = zip(*sorted(pairs), strict=True)
    return anchored_fit(basis, np.array(rows), np.array(cols))


@pytest.mark.parametrize(("seed", "draw"), [(1, 0), (4, 2)])
def test_updated_fits_are_the_support_fits(seed, draw):
    """Edge sets with pairs added and taken out of the base (the heavy edges joined, the
    pairs at distance 2 around them dropped; non-edges added, which the fit gives
    non-positive weights and leaves out): the same edges as `support_fit`'s, the same
    weights to 1e-8 of the largest."""
    G = _heavy_cycle(40, seed)
    basis = _basis(perturbed(shuffled(fourier_basis(G).eigenvectors, draw), 1e-3, draw))
    base = _pairs(_as_twins(G))
    fits = EdgeSetFits(basis, base)
    heavy = [(h, h + 1) for h in HEAVY]
    around = [(h - 1, h + 1) for h in HEAVY] + [(h, h + 2) for h in HEAVY]
    far = [(0, 20), (3, 30), (11, 27), (8, 33)]
    cases = [([], []), (heavy, []), (heavy, around), (heavy[:1], around[::2]), (far, [])]
    cases += [(heavy + far, around)]
    dropped = 0
    for added, removed in cases:
        A = fits.fit(added, removed)
        B = _support_fit(basis, (base | set(added)) - set(removed))
        assert A is not None
        assert _edges(A) == _edges(B)
        assert abs(A - B).max() <= 1e-8 * abs(B).max()
        dropped += len(base) + len(added) - len(removed) - sp.triu(B, 1).nnz
    assert dropped > 0  # some fits left pairs out (the loop of `support_fit` was run)


def test_fit_of_the_true_edges_from_a_twin_base():
    """From the base with the heavy edges read as twins, the update to the cycle's edges
    fits the cycle: its edges, at the weights `support_fit` gives them."""
    G = _heavy_cycle(40, 2)
    basis = _basis(perturbed(shuffled(fourier_basis(G).eigenvectors, 1), 1e-3, 1))
    base = _pairs(_as_twins(G))
    truth = _pairs(_weights(G))
    A = EdgeSetFits(basis, base).fit(sorted(truth - base), sorted(base - truth))
    assert _edges(A) == _edges(_weights(G))
    B = _support_fit(basis, truth)
    assert abs(A - B).max() <= 1e-8 * abs(B).max()
