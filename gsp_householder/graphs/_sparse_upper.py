"""The stored entries of a sparse matrix's strict upper triangle, read off its arrays.

``sp.triu(W, 1).tocoo()`` converts ``W`` to COO, masks it and builds a new COO array
(index checks and dtype searches, about 0.25 ms for a graph of 200 nodes); the
candidate searches ask for it once per candidate graph, hundreds of times per
inference. For a CSR array the same entries, in the same order, come from its index
arrays alone.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def upper_entries(W) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(row, col, data)`` of the stored entries of ``W`` with ``row < col``: those of
    ``sp.triu(W, 1).tocoo()``, in its order (row by row, each row in stored order; for a
    CSR array, which ``tocoo`` expands without summing duplicates or dropping zeros)."""
    if sp.issparse(W) and W.format == "csr":
        rows = np.repeat(np.arange(W.shape[0], dtype=W.indices.dtype), np.diff(W.indptr))
        keep = rows < W.indices
        return rows[keep], W.indices[keep], W.data[keep]
    upper = sp.triu(W, 1).tocoo()
    return upper.row, upper.col, upper.data
