"""The pair rows of a span over many pairs, kept with the basis for the next program
over the same span and pairs.

The max-margin program of a noisy prefix (``_template_lp.valid_in_span``) needs the
rows $a_{ij}^T Q$ of every pair of its prefix on the orthonormal basis $Q$ of its span
(``_template_lp._pair_constraints``): at $n = 1000$ up to 497 499 pairs of 40
directions, 0.5 to 1.5 CPU s each. The same rows are asked for again: a prefix search
evaluates the size it returns a second time, on the same Gram and so the same span,
when a certificate chain answered its program (``_chain_optimum``); such a program whose
answer is not clean is solved again by the rounds at once; and the sparsest member of
the family found (``_family_member.sparsest_direction``) reads the same rows of the same
span. The last ``KEPT_SPANS`` such products (of at least ``MAX_ROW_ENTRIES`` row
entries, and at most ``KEPT_BYTES`` together) are kept with the basis
(``PairBasis.span_rows``), by a digest of the span and the pairs, and returned
read-only: the same array, so the same numbers, bit for bit.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import hashlib

import numpy as np

from gsp_householder.graphs._pair_geometry import MAX_ROW_ENTRIES, PairBasis

#: Products kept per basis.
KEPT_SPANS = 2
#: Most bytes of products kept per basis (the largest at $n = 1000$: 159 MB).
KEPT_BYTES = 256 * 2**20


def span_pair_rows(B: PairBasis, Q: np.ndarray, i: np.ndarray, j: np.ndarray) -> np.ndarray:
    """``B.products(i, j, Q)``, kept with ``B`` when its pair rows are large.

    Parameters
    ----------
    B : PairBasis
        The pair geometry.
    Q : numpy.ndarray
        The span, one direction per column.
    i, j : numpy.ndarray
        The pairs.

    Returns
    -------
    numpy.ndarray
        The products, shape ``(len(i), Q.shape[1])``: read-only when kept.
    """
    if len(i) * B.V.shape[1] < MAX_ROW_ENTRIES:
        return B.products(i, j, Q)
    key = _digest(Q, i, j)
    for k, (known, rows) in enumerate(B.span_rows):
        if known == key:
            B.span_rows.insert(0, B.span_rows.pop(k))
            return rows
    rows = B.products(i, j, Q)
    if rows.nbytes <= KEPT_BYTES:
        rows.setflags(write=False)
        B.span_rows.insert(0, (key, rows))
        del B.span_rows[KEPT_SPANS:]
        while sum(r.nbytes for _, r in B.span_rows) > KEPT_BYTES:
            B.span_rows.pop()
    return rows


def _digest(Q, i, j) -> tuple:
    """The shapes and a digest of the bytes of the span and the pairs."""
    digest = hashlib.blake2b(digest_size=16)
    for a in (
        np.ascontiguousarray(Q, dtype=np.float64),
        np.ascontiguousarray(i),
        np.ascontiguousarray(j),
    ):
        digest.update(str(a.dtype).encode())
        digest.update(a.tobytes())
    return Q.shape, len(i), digest.hexdigest()
