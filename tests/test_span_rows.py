"""The pair rows of a span over many pairs are built once for the programs and the
family member search that ask for them again (``_span_rows``)."""

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import perturbed, shuffled

from gsp_householder.graphs import _basis_input, _span_rows
from gsp_householder.graphs._family_member import sparsest_direction
from gsp_householder.graphs._pair_geometry import PairBasis
from gsp_householder.graphs._template_lp import _pair_constraints
from gsp_householder.graphs.fourier import fourier_basis


@pytest.fixture
def basis(monkeypatch):
    """A perturbed 30-node tree's pair basis, with every product of at least one row
    entry kept (the size from which products are kept is lowered to it)."""
    monkeypatch.setattr(_span_rows, "MAX_ROW_ENTRIES", 1)
    G = nx.random_labeled_tree(30, seed=1)
    V = shuffled(perturbed(fourier_basis(G).eigenvectors, 1e-3, 2), 3)
    return _basis_input._anchored_pair_basis(_basis_input._read_basis(V, None, None, None, None))


def _counted(monkeypatch):
    calls = []
    original = PairBasis.products

    def counted(self, i, j, Lam):
        calls.append(len(i))
        return original(self, i, j, Lam)

    monkeypatch.setattr(PairBasis, "products", counted)
    return calls


def test_the_same_span_and_pairs_are_built_once(basis, monkeypatch):
    B = basis
    i, j = B.upper()
    Q = np.linalg.qr(np.random.default_rng(0).standard_normal((B.g, 3)))[0]
    calls = _counted(monkeypatch)
    tol = np.full(B.n, 1e-3)
    first = _pair_constraints(B, Q, tol, (i, j))
    again = _pair_constraints(B, Q, 2.0 * tol, (i, j))
    assert calls == [len(i)]
    assert again["H"] is first["H"] and not first["H"].flags.writeable
    monkeypatch.undo()
    assert np.array_equal(first["H"], B.products(i, j, Q)[first["live"]])


def test_other_pairs_or_another_span_are_built(basis, monkeypatch):
    B = basis
    i, j = B.upper()
    rng = np.random.default_rng(0)
    Q = np.linalg.qr(rng.standard_normal((B.g, 3)))[0]
    calls = _counted(monkeypatch)
    _span_rows.span_pair_rows(B, Q, i, j)
    _span_rows.span_pair_rows(B, Q, i[:-1], j[:-1])
    _span_rows.span_pair_rows(B, np.linalg.qr(rng.standard_normal((B.g, 3)))[0], i, j)
    _span_rows.span_pair_rows(B, Q, i, j)  # kept: the last two, this one first asked
    assert calls == [len(i), len(i) - 1, len(i), len(i)]


def test_the_family_member_search_reads_the_programs_rows(basis, monkeypatch):
    B = basis
    i, j = B.upper()
    Lam = np.linalg.qr(np.random.default_rng(1).standard_normal((B.g, 3)))[0]
    Q = np.linalg.qr(Lam)[0]
    calls = _counted(monkeypatch)
    _pair_constraints(B, Q, np.full(B.n, 1e-3), (i, j))
    sparsest_direction(B, Lam, (i, j), np.random.default_rng(2), np.full(B.n, 1e-3), 1e-5)
    assert calls == [len(i)]
