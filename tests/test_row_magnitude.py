"""The rows' largest magnitudes without their absolute values (``_row_magnitude``), and
the pair constraints of a span that use them (``_template_lp._pair_constraints``): the
same numbers, bit for bit."""

import numpy as np

from gsp_householder.graphs import _template_lp
from gsp_householder.graphs._row_magnitude import row_magnitudes


def test_row_magnitudes_are_the_largest_absolute_values():
    rng = np.random.default_rng(2)
    H = rng.standard_normal((500, 9))
    H[3] = 0.0
    H[4] = -0.0
    H[5, 2] = -40.0
    H[6] = np.abs(H[6])
    H[7] = -np.abs(H[7])
    expected = np.abs(H).max(axis=1, initial=0.0)
    assert row_magnitudes(H).tobytes() == expected.tobytes()
    empty = np.zeros((4, 0))
    assert row_magnitudes(empty).tobytes() == np.abs(empty).max(axis=1, initial=0.0).tobytes()


class _Rows:
    """A stand-in basis whose pair rows on a span are given (too few entries to be kept
    with it, ``_span_rows``)."""

    def __init__(self, H):
        self.H = H
        self.V = np.eye(H.shape[1])
        self.span_rows = []

    def products(self, i, j, Q):
        return self.H.copy()


def _expected(H, tol, I, J):
    """The pair constraints as formed with the absolute values."""
    live = np.abs(H).max(axis=1, initial=0.0) > 1e-12 * max(
        float(np.abs(H).max(initial=0.0)), 1e-300
    )
    h = _template_lp.POSITIVE_SLACK * (tol[I] + tol[J])
    return H[live], h[live], live


def test_pair_constraints_keep_the_live_rows():
    rng = np.random.default_rng(4)
    m, d, n = 300, 7, 40
    I, J = rng.integers(0, n, m), rng.integers(0, n, m)
    tol = rng.uniform(1e-9, 1e-8, n)
    H = rng.standard_normal((m, d))
    H[10] = 0.0  # a pair that vanishes on the span
    H[11] = 1e-14 * H[11]  # below 1e-12 of the largest entry: dead too
    H[12, :] = -0.0
    H[13] = -np.abs(H[13]) * 50.0  # the largest entry, negative
    for rows in (H, np.abs(H) + 1.0):  # with dead rows, and all live
        out = _template_lp._pair_constraints(_Rows(rows), None, tol, (I, J))
        H_live, h_live, live = _expected(rows, tol, I, J)
        assert np.array_equal(out["live"], live)
        assert out["H"].tobytes() == H_live.tobytes() and out["H"].flags.c_contiguous
        assert out["h"].tobytes() == h_live.tobytes()
        assert int(live.sum()) == (m - 3 if rows is H else m)
