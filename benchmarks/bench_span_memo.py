"""Answers of ``infer_laplacian`` with and without the record of ``_span_memo``.

The record of the programs of a span (``remembered_spans``) must not change what
``infer_laplacian`` returns. For every graph and input (the inputs of
``bench_inference_symmetric.py``: exact eigenvectors, or perturbed by a relative
Frobenius error 1e-3 with draws 0..; columns shuffled and sign-flipped), the inference is
run with the record and with ``remembered_spans`` replaced by ``contextlib.nullcontext``
(every call solved), and the two results compared bit for bit: the Laplacian, the
candidates and the warnings. Each row gives the Laplacian entries that differ, whether
the candidates or warnings differ, the calls answered from the record (objective calls
among them: none, the record answers max-margin calls only) and the CPU seconds of both
runs.

With ``--seeded`` the perturbed inputs are built as ``tests/test_span_memo.py`` builds
its input instead (noise 1e-3 per entry, orthonormalised by QR, columns permuted, one
generator of seed ``draw``), and no exact input is run.

Run::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_span_memo.py [--only petersen ...]
        [--draws 4] [--seeded]

Graphs: those of ``bench_inference_symmetric.py`` below 60 nodes and the circular
ladders of ``SMALL`` (``--only`` takes any of them).
"""

from __future__ import annotations

import argparse
import contextlib
import time
import warnings

import networkx as nx
import numpy as np

#: Small symmetric graphs beside those of ``bench_inference_symmetric.py``.
SMALL = {
    "circular-ladder-8": lambda: nx.circular_ladder_graph(8),
    "circular-ladder-12": lambda: nx.circular_ladder_graph(12),
    "circulant-20-1,3": lambda: nx.circulant_graph(20, [1, 3]),
    "cycle-24": lambda: nx.cycle_graph(24),
}
#: The graphs of ``bench_inference_symmetric.py`` below 60 nodes.
SYMMETRIC = ("petersen", "hypercube-5", "circulant-30-1,4", "cycle-50", "moebius-kantor", "heawood")


def _graph(name):
    from bench_inference_symmetric import EXTRA, GRAPHS

    return nx.convert_node_labels_to_integers({**GRAPHS, **EXTRA, **SMALL}[name]())


def _inferred(V, record: bool, counts: dict):
    """``infer_laplacian(V, rng=0)`` with the record or solving every call, its warnings
    and CPU seconds; ``counts`` gets the calls answered from the record (objective calls
    among them)."""
    from gsp_householder import infer_laplacian
    from gsp_householder.graphs import _span_memo, _template_lp, laplacian_inference

    get, call = _span_memo._Record.get, _span_memo.remembered_call

    def counted_get(self, key):
        kept = get(self, key)
        counts["hits"] += kept is not None
        return kept

    def counted_call(B, arrays, flags, cache, solve, remember, **kw):
        solved = []
        out = call(B, arrays, flags, cache, lambda: solved.append(1) or solve(), remember, **kw)
        counts["objective_hits"] += (not solved) and not flags[2]
        return out

    saved = laplacian_inference.remembered_spans
    _span_memo._Record.get, _template_lp.remembered_call = counted_get, counted_call
    if not record:
        laplacian_inference.remembered_spans = contextlib.nullcontext
    try:
        t = time.process_time()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = infer_laplacian(V, rng=0)
        cpu = time.process_time() - t
    finally:
        _span_memo._Record.get, _template_lp.remembered_call = get, call
        laplacian_inference.remembered_spans = saved
    return res, [str(w.message) for w in caught], cpu


def seeded_input(V0, seed: int):
    """``V0`` perturbed as ``tests/test_span_memo.py`` perturbs its input: noise 1e-3 per
    entry (over the square root of the size), orthonormalised by QR, columns permuted,
    from one generator of seed ``seed``."""
    n = V0.shape[0]
    rng = np.random.default_rng(seed)
    V = V0 + 1e-3 * rng.standard_normal(V0.shape) / np.sqrt(n)
    Q = np.linalg.qr(V)[0]
    V = Q * np.sign(np.sum(V * Q, axis=0))
    return V[:, rng.permutation(n)]


def run_case(name: str, draw: int | None, seeded: bool = False) -> dict:
    """The two inferences of one input: ``draw`` None for the exact basis, else the
    perturbation's seed (``bench_inference_symmetric.run_case``'s input, or
    ``seeded_input`` when ``seeded``)."""
    from bench_inference import _perturb, _shuffle

    from gsp_householder import fourier_basis

    B = fourier_basis(_graph(name))
    V = B.eigenvectors
    if seeded:
        V = seeded_input(V, draw)
    else:
        if draw is not None:
            V = _perturb(V, 1e-3, np.random.default_rng(100 + draw))
        V = _shuffle(V, np.random.default_rng(0 if draw is None else draw))
    counts = {"hits": 0, "objective_hits": 0}
    kept, kept_warnings, kept_cpu = _inferred(V, True, counts)
    solved, solved_warnings, solved_cpu = _inferred(V, False, dict(counts))
    same_candidates = len(kept.candidates) == len(solved.candidates) and all(
        (a != b).nnz == 0 for a, b in zip(kept.candidates, solved.candidates, strict=True)
    )
    return {
        "entries": int((kept.laplacian != solved.laplacian).nnz),
        "edges": (int(kept.n_edges), int(solved.n_edges)),
        "candidates": same_candidates,
        "warnings": kept_warnings == solved_warnings,
        **counts,
        "cpu": (kept_cpu, solved_cpu),
    }


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="*", default=[*SMALL, *SYMMETRIC])
    p.add_argument("--draws", type=int, default=4)
    p.add_argument("--seeded", action="store_true", help="the test's perturbation, seeds 0..")
    args = p.parse_args()
    print(
        "| graph | input | entries differing | edges (record / solved) | candidates same | "
        "warnings same | hits (objective) | cpu s record | cpu s solved |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    differing = 0
    for name in args.only:
        for draw in (*(() if args.seeded else (None,)), *range(args.draws)):
            r = run_case(name, draw, args.seeded)
            label = "exact" if draw is None else f"perturbed 1e-3 #{draw}"
            label += ", seeded" if args.seeded else ""
            same = r["entries"] == 0 and r["candidates"] and r["warnings"]
            differing += not same
            print(
                f"| {name} | {label} | {r['entries']} | {r['edges'][0]} / {r['edges'][1]} | "
                f"{'yes' if r['candidates'] else 'NO'} | {'yes' if r['warnings'] else 'NO'} | "
                f"{r['hits']} ({r['objective_hits']}) | "
                f"{r['cpu'][0]:.2f} | {r['cpu'][1]:.2f} |",
                flush=True,
            )
    print(f"inputs whose answers differ with the record: {differing}")


if __name__ == "__main__":
    main()
