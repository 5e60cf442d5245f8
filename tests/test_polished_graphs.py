"""The graphs of a family's polished vertices are read while their matrices are kept
(``_polished_graphs``): each vertex's matrix is formed once, and the candidates are the
ones read without the kept graphs, bit for bit."""

import networkx as nx
import numpy as np
from _basis_inputs import shuffled as _shuffled

from gsp_householder.graphs import _basis_input, _candidate_search, _polished_graphs
from gsp_householder.graphs._pair_geometry import MATRIX_CACHE
from gsp_householder.graphs._template_lp import Fit, edge_pairs, rank_candidates
from gsp_householder.graphs.fourier import fourier_basis


def _basis():
    """Pair basis of the shuffled eigenvectors of a 5 x 6 grid (exact)."""
    V = _shuffled(fourier_basis(nx.grid_2d_graph(5, 6)).eigenvectors, 0)
    basis = _basis_input._read_basis(V, None, None, None, None)
    return _basis_input._anchored_pair_basis(basis)


def _family(B, k):
    """A fit of ``k`` directions and ``2 k`` vertices: the equal eigenvalues moved along
    random directions (valid or not: every vertex is ranked the same way)."""
    rng = np.random.default_rng(3)
    Lam = np.column_stack([B.equal_eigenvalues()] + [rng.standard_normal(B.g)
                                                    for _ in range(k - 1)])
    tol = np.full(B.n, 1e-9 * B.n)
    hint = B.upper()
    # mu above the rounding cluster: no sparser member is searched (``sparser_member``)
    fit = Fit(Lam[:, 0], Lam, np.ones(k), 0, tol, 1e-6, hint)
    vertices = [B.equal_eigenvalues() + 0.3 * rng.standard_normal(B.g) for _ in range(2 * k)]
    return fit, vertices


def _kept_vertex(B, lam, fit):
    """``polish`` that keeps the vertex, as it does when the projection is not a valid
    Laplacian, after reading its entries (``edge_pairs``: its matrix is formed)."""
    edge_pairs(B, lam, fit.tol)
    return lam


def test_each_vertex_matrix_is_formed_once(monkeypatch):
    """With more vertices than ``MATRIX_CACHE`` all kept by their projection, ``_candidates``
    forms each vertex's matrix once (``rank_candidates`` formed the first ones again),
    and ranks the candidates it ranks without the kept graphs, bit for bit."""
    B = _basis()
    fit, vertices = _family(B, 4)
    assert len(vertices) > MATRIX_CACHE
    monkeypatch.setattr(_candidate_search, "sparse_vertices", lambda B, fit, rng: vertices)
    monkeypatch.setattr(_polished_graphs, "polish", _kept_vertex)
    monkeypatch.setattr(_candidate_search, "polish", _kept_vertex)
    formed = {}
    matrix = B.matrix

    def counted(lam, out=None):
        key = np.ascontiguousarray(lam, dtype=np.float64).tobytes()
        if out is None and all(known != key for known, _ in B.matrices):
            formed[key] = formed.get(key, 0) + 1
        return matrix(lam, out=out)

    B.matrix = counted
    got = _candidate_search._candidates(B, fit, np.random.default_rng(0))
    assert formed and max(formed.values()) == 1
    B.matrix = matrix
    want = rank_candidates(B, vertices, fit)
    assert len(got) == len(want) > 0
    for a, b in zip(got, want, strict=True):
        assert a[0] == b[0] and a[1] == b[1] and a[2].tobytes() == b[2].tobytes()
        for name in ("data", "indices", "indptr"):
            assert getattr(a[3], name).tobytes() == getattr(b[3], name).tobytes(), name


def test_rank_candidates_reads_the_graphs_given():
    """``rank_candidates(..., graphs=)`` uses the graphs given for their vectors and reads
    the others; the result is the one without them, bit for bit."""
    B = _basis()
    fit, vertices = _family(B, 3)
    cands, graphs = _polished_graphs.polished_with_graphs(B, vertices, fit)
    assert len(graphs) == len({lam.tobytes() for lam in cands})
    extra = B.equal_eigenvalues()
    got = rank_candidates(B, [*cands, extra], fit, graphs=graphs)
    want = rank_candidates(B, [*cands, extra], fit)
    assert [item[0] for item in got] == [item[0] for item in want]
    for a, b in zip(got, want, strict=True):
        assert a[2].tobytes() == b[2].tobytes() and a[1] == b[1]
        assert (a[3] != b[3]).nnz == 0
