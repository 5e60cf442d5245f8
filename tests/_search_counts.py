"""Counting the work of prefix searches in tests: the sizes evaluated and the Gram
downdates made."""

from __future__ import annotations

from contextlib import contextmanager

from gsp_householder.graphs._pair_geometry import PairGram
from gsp_householder.graphs._support_search import evaluation_hook


@contextmanager
def counted_search():
    """``(sizes, downdates)``: the lists that the sizes a prefix search evaluates
    (``evaluation_hook``) and the numbers of pairs of the Gram downdates it makes
    (``PairGram.without``) are appended to inside the block."""
    sizes, downdates = [], []
    original = PairGram.without

    def counted(self, i, j):
        downdates.append(len(i))
        return original(self, i, j)

    PairGram.without = counted
    token = evaluation_hook.set(sizes.append)
    try:
        yield sizes, downdates
    finally:
        evaluation_hook.reset(token)
        PairGram.without = original
