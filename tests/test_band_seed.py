"""The last program of a span starts the next band program (``_band_seed``)."""

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

from gsp_householder import fourier_basis, infer_laplacian
from gsp_householder.graphs import _band_seed, _dense_lp


def _seed(codes, widths, rows):
    return _band_seed.BandSeed(
        None, np.asarray(rows, bool), np.asarray(codes, np.int64), np.asarray(widths, float)
    )


def test_a_seed_fits_a_band_that_holds_its_own_with_the_same_rows_and_widths():
    n, rows = 10, [True, False, True]
    seed = _seed([1 * n + 2, 3 * n + 4], [0.5, 0.25], rows)
    band = (np.array([0, 1, 3]), np.array([5, 2, 4]), np.array([0.1, 0.5, 0.25]))
    _program, new = _band_seed.fits(seed, np.array(rows), band, n)
    assert new.tolist() == [True, False, False]  # only (0, 5) is missing
    # another width, a pair missing, other pair rows, no band: not fitting
    assert (
        _band_seed.fits(seed, np.array(rows), (band[0], band[1], np.array([0.1, 0.5, 0.3])), n)
        is None
    )
    assert _band_seed.fits(seed, np.array(rows), (band[0][:2], band[1][:2], band[2][:2]), n) is None
    assert _band_seed.fits(seed, np.array([True, True, True]), band, n) is None
    assert _band_seed.fits(seed, np.array(rows), None, n) is None
    assert _band_seed.fits(None, np.array(rows), band, n) is None


def test_a_seed_serves_one_program():
    cache = {}
    _band_seed.record(cache, "model", np.ones(3, bool), None, 5)
    assert _band_seed.take(cache).program == "model"
    assert _band_seed.take(cache) is None


def _perturbed_cograph():
    G = nx.random_cograph(4, seed=61)
    G = G if nx.is_connected(G) else nx.complement(G)
    B = fourier_basis(nx.convert_node_labels_to_integers(G))
    rng = np.random.default_rng(1)
    E = rng.standard_normal(B.eigenvectors.shape)
    U, _, Wt = np.linalg.svd(
        B.eigenvectors + 1e-3 * np.linalg.norm(B.eigenvectors) * E / np.linalg.norm(E)
    )
    V = U @ Wt
    return V[:, rng.permutation(B.n)] * rng.choice([-1.0, 1.0], B.n)


def _answer(V):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        res = infer_laplacian(V, rng=0)
    L = sp.csr_array(res.laplacian).toarray()
    return L, res.n_edges, res.family_dimension, res.n_candidates


def test_seeded_band_programs_give_the_answer_of_cold_ones(monkeypatch):
    """Perturbed cograph of 16 nodes (twins, a family of band programs): the same
    Laplacian, family and candidates with the seeds as without them, and the seeds
    were taken."""
    if not _dense_lp.available():
        pytest.skip("the HiGHS bindings are not available")
    V = _perturbed_cograph()
    fits, used = _band_seed.fits, []

    def counted(*args):
        held = fits(*args)
        used.append(held is not None)
        return held

    monkeypatch.setattr(_band_seed, "fits", counted)
    seeded = _answer(V)
    assert sum(used) > 0
    monkeypatch.setattr(_band_seed, "fits", lambda *args: None)
    cold = _answer(V)
    np.testing.assert_array_equal(seeded[0], cold[0])
    assert seeded[1:] == cold[1:]
