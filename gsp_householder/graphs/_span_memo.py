"""Max-margin programs of a span, each solved once per state of its ``cache``.

A call of ``_template_lp.valid_in_span`` without an ``objective`` over several
directions (a max-margin program, with or without a band) is a function of its
arguments and of the state of its ``cache``: HiGHS's simplex is deterministic (iteration
limits, no time limits), the warm models such a call builds (``_Rounds``, ``_Chain``)
live and die inside it, and it reads and writes the cache's arrays (the span's basis,
its pair rows, the rows its programs needed), never the ``WarmProgram`` of the cache's
objective programs. The state of a cache is in turn a function of the calls made on it
since it was empty, or since ``same_span`` derived it from another cache: the digest of
that history, its *token*, names the state. While ``remembered_spans`` is active, each
max-margin call's answer and the entries it left in its cache are kept under the digest
of its arguments and of its cache's token; a call with the same digest is answered from
the record (its cache given the same entries, the same arrays) instead of solved.
Objective calls (``sparse_vertices``) extend the token too, but are always solved
(``remember`` false): over a noisy span such a call starts or advances its cache's warm
program (``cache["warm"]``, which the record does not keep), and the next objective call
starts from the basis it left. A warm solve reaches the same vertex from another basis,
but not to the same bits, so a call answered from the record would leave the warm program
unstarted and change the last bits of the next solve (perturbed
``circular_ladder_graph(8)``, SkylakeX kernels: 107 Laplacian entries of the answer
differed). Nor would answering them save work: on the 92 small symmetric inputs of
``benchmarks/bench_span_memo.py``, every objective call the record could have answered
was followed by another objective call on the same cache, whose warm solve needs the
warm program the answered call would have left: each had to be solved anyway.

On perturbed ``ladder(35)`` (draw 0) 1 866 of 4 955 HiGHS runs repeated a program
already solved in the same inference: the prefix searches of the noisy ladders at the
largest noise estimate and of the levels' ladders evaluate again prefixes an earlier
search evaluated, and pose again their max-margin programs, band rounds and
certificates. A cache whose history is not known (changed while no record was active)
has no token and is never answered from a record; the tokens of one record (rooted in
its own token of the empty cache) name no state of another. Internal module: arguments are
validated by the caller.
"""

from __future__ import annotations

import contextlib
import contextvars
import itertools
from collections import OrderedDict

import numpy as np

from gsp_householder.graphs._chain_optimum import ANSWERED
from gsp_householder.graphs._program_memo import program_key

#: The key of a cache's token (the digest of its history).
TOKEN = "_history"
#: Most bytes of arrays (answers and cache entries) the record keeps alive; the least
#: recently used calls are dropped past it.
MAX_BYTES = 256 * 2**20
#: Most calls the record keeps.
MAX_CALLS = 8192

_record: contextvars.ContextVar = contextvars.ContextVar("span_memo", default=None)
#: The roots of the records' tokens: a cache's history in one record never names a state
#: in another.
_roots = itertools.count(1)


class _Record:
    """Answers by call digest (least recently used first), the bases they were solved
    on (kept alive, so that their ``id`` is not reused) and the arrays they hold (by
    ``id``: the array and how many calls hold it)."""

    def __init__(self):
        self.root = next(_roots).to_bytes(8, "little")  # the token of an empty cache
        self.calls: OrderedDict = OrderedDict()
        self.bases: dict = {}
        self.held: dict = {}
        self.bytes = 0

    def _hold(self, arrays, step):
        for a in arrays:
            entry = self.held.get(id(a))
            if entry is None:
                entry = self.held[id(a)] = [a, 0]
                self.bytes += a.nbytes
            entry[1] += step
            if entry[1] == 0:
                del self.held[id(a)]
                self.bytes -= a.nbytes

    def get(self, key):
        if key in self.calls:
            self.calls.move_to_end(key)
            return self.calls[key]
        return None

    def put(self, key, answer, entries):
        arrays = _arrays(answer, entries)
        if sum(a.nbytes for a in arrays) > MAX_BYTES // 4:
            return
        self.calls[key] = (answer, entries)
        self._hold(arrays, 1)
        while len(self.calls) > MAX_CALLS or self.bytes > MAX_BYTES:
            _, (old_answer, old_entries) = self.calls.popitem(last=False)
            self._hold(_arrays(old_answer, old_entries), -1)


def _arrays(answer, entries) -> list:
    out = [v for v in entries.values() if isinstance(v, np.ndarray)]
    if answer[1] is not None:
        out.append(answer[1])
    return out


@contextlib.contextmanager
def remembered_spans():
    """Keep the answers of the max-margin calls made inside the block
    (``remembered_call``); a block inside another one shares its record."""
    if _record.get() is not None:
        yield
        return
    token = _record.set(_Record())
    try:
        yield
    finally:
        _record.reset(token)


def derived_token(parent: dict, child: dict) -> None:
    """Give ``child``, a cache that ``same_span`` derived from ``parent``, its token
    (none when ``parent``'s history is not known or no record is active)."""
    if _record.get() is not None and TOKEN in parent:
        child[TOKEN] = program_key([], ("same_span", parent[TOKEN]))


def _token(cache: dict, record: _Record):
    """The token of ``cache``: its digest, ``record.root`` when empty, None when not
    known."""
    if TOKEN in cache:
        return cache[TOKEN]
    return record.root if not cache else None


def remembered_call(B, arrays, flags, cache: dict, solve, remember: bool):
    """``solve()`` (an ``(ok, lam, t)`` triple that may change ``cache``), or the answer
    kept for the same call.

    ``arrays`` and ``flags`` are the call's arguments (``program_key``); ``B`` its pair
    basis. With ``remember`` (a max-margin call), a call with the same arguments on a
    cache with the same token is answered from the record, and ``cache`` is given the
    entries the first call left in its own (``rows`` copied, the other arrays shared:
    they are not written in place); otherwise (an objective call) the call is solved.
    The cache's token then names the new state, or is dropped when no record is active.
    """
    record = _record.get()
    before = None if record is None else _token(cache, record)
    if before is None:
        cache.pop(TOKEN, None)
        return solve()
    record.bases.setdefault(id(B), B)
    key = program_key(arrays, (flags, id(B), before))
    kept = record.get(key) if remember else None
    if kept is not None:
        (ok, lam, t), entries = kept
        cache.update(entries)
        if "rows" in entries:
            cache["rows"] = entries["rows"].copy()
        cache[TOKEN] = key
        return ok, (None if lam is None else lam.copy()), t
    cache.pop(TOKEN, None)  # not known while ``solve`` runs (it may raise)
    ok, lam, t = solve()
    if cache.get(ANSWERED):
        return ok, lam, t  # answered by its chain (``_chain_optimum``): not kept
    if remember:
        entries = {k: v for k, v in cache.items() if k not in ("warm", TOKEN)}
        if "rows" in entries:
            entries["rows"] = entries["rows"].copy()
        record.put(key, (ok, None if lam is None else np.array(lam, dtype=np.float64), t), entries)
    cache[TOKEN] = key
    return ok, lam, t
