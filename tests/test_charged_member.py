"""The charged least-l1 member of a family by an interior point method and its certified
vertex (module ``_charged_member``)."""

from __future__ import annotations

import networkx as nx
import numpy as np
from _basis_inputs import perturbed, shuffled

import gsp_householder.graphs._noisy_unit_diagonal as noisy
from gsp_householder import fourier_basis
from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
from gsp_householder.graphs._charged_member import _certified_vertex, charged_member


def _objective(N0, Y, x, charge):
    r = N0 + Y @ x
    return float(np.sum(np.where(r > 0, (charge - 1.0) * r, -r)))


def _family(seed, pairs=400, m=6):
    # a sparse signal (a few large negative entries) on noise, as a family's pairs
    rng = np.random.default_rng(seed)
    Y = rng.standard_normal((pairs, m))
    N0 = 1e-3 * rng.standard_normal(pairs)
    N0[rng.choice(pairs, 20, replace=False)] -= rng.uniform(0.1, 1.0, 20)
    return N0, Y


def test_the_certified_vertex_is_the_simplex_optimum():
    for seed in range(3):
        N0, Y = _family(seed)
        for charge in noisy.PENALTIES:
            x = charged_member(N0, Y, charge)
            assert x is not None
            ref = noisy._simplex_member(N0, Y, charge)
            # the same optimum, a vertex: m entries vanish
            assert _objective(N0, Y, x, charge) <= _objective(N0, Y, ref, charge) + 1e-9
            assert np.abs(Y @ (x - ref)).max() <= 1e-7
            assert np.sum(np.abs(N0 + Y @ x) <= 1e-12) >= Y.shape[1]


def test_an_uncertified_vertex_is_refused():
    # dual variables all equal name no basis: the first m pairs' vertex is no optimum,
    # and its dual variables leave [0, 1]
    N0, Y = _family(0)
    a = np.full(N0.size, 1 / 3)
    assert _certified_vertex(N0, Y, 3.0, a) is None
    # while the interior point method's are certified
    assert charged_member(N0, Y, 3.0) is not None


def test_the_member_read_is_the_simplex_members(monkeypatch):
    # a perturbed normalized random tree: its near-null family has several dimensions;
    # the graph read with the simplex alone is the same
    G = nx.random_labeled_tree(40, seed=3)
    B = fourier_basis(G, laplacian="normalized")
    V = shuffled(perturbed(B.eigenvectors, 1e-3, 0), 7)
    basis = _read_basis(V, None, False, "normalized", None)
    P = _anchored_pair_basis(basis)
    args = (basis["V_anchored"], basis["zero_column"], P.u)
    found = noisy.noisy_unit_diagonal_member(*args)
    monkeypatch.setattr(noisy, "charged_member", lambda N0, Y, charge: None)
    simplex = noisy.noisy_unit_diagonal_member(*args)
    assert found is not None and simplex is not None
    assert found.dimension == simplex.dimension > 1
    assert (found.W != simplex.W).nnz == 0
    assert abs(found.gap - simplex.gap) <= 1e-6 * simplex.gap
