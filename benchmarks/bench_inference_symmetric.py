"""Order-free inference on vertex-transitive graphs: tori, circulants, cubes, Petersen.

For every graph and input (exact eigenvectors, or perturbed by a relative Frobenius
error 1e-3 with several draws; columns shuffled and sign-flipped): F1 against the true
graph, edges found / true, ``family_dimension``, candidates, W when a
``ConvergenceWarning`` was raised, and CPU seconds of ``infer_laplacian``.

With ``--baseline DIR`` every case is also run, in the same session and interleaved
with the current code, by a child process that imports ``gsp_householder`` from ``DIR``
(for example an export of another commit): the before / after table of one run.

Run::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_inference_symmetric.py
        [--only petersen torus-10x20 ...] [--draws 3] [--baseline DIR]

``--only`` also takes the graphs of ``EXTRA`` (more tori and circulants).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
import warnings

import networkx as nx
import numpy as np

GRAPHS = {
    "torus-10x20": lambda: nx.grid_2d_graph(10, 20, periodic=True),
    "petersen": nx.petersen_graph,
    "hypercube-5": lambda: nx.hypercube_graph(5),
    "circulant-30-1,4": lambda: nx.circulant_graph(30, [1, 4]),
    "circulant-60-1,7,11": lambda: nx.circulant_graph(60, [1, 7, 11]),
    "cycle-50": lambda: nx.cycle_graph(50),
    "moebius-kantor": lambda: nx.LCF_graph(16, [5, -5], 8),
    "heawood": nx.heawood_graph,
}
#: More tori and circulants (``--only``), beside those of ``GRAPHS``.
EXTRA = {
    "torus-8x12": lambda: nx.grid_2d_graph(8, 12, periodic=True),
    "torus-12x12": lambda: nx.grid_2d_graph(12, 12, periodic=True),
    "torus-4x4x5": lambda: nx.grid_graph([4, 4, 5], periodic=True),
    "circulant-40-1,3": lambda: nx.circulant_graph(40, [1, 3]),
    "circulant-50-2,5": lambda: nx.circulant_graph(50, [2, 5]),
    "circular-ladder-40": lambda: nx.circular_ladder_graph(40),
    "hypercube-6": lambda: nx.hypercube_graph(6),
}
#: Perturbed draws of the graphs whose runs take minutes.
SLOW = {"torus-10x20": 1}


def run_case(name: str, draw: int | None) -> dict:
    """One inference: ``draw`` None for the exact basis, else the perturbation's seed."""
    from bench_inference import _perturb, _shuffle

    from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
    from gsp_householder.exceptions import ConvergenceWarning

    G = nx.convert_node_labels_to_integers({**GRAPHS, **EXTRA}[name]())
    B = fourier_basis(G)
    V = B.eigenvectors
    if draw is not None:
        V = _perturb(V, 1e-3, np.random.default_rng(100 + draw))
    V = _shuffle(V, np.random.default_rng(0 if draw is None else draw))
    t = time.process_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    cpu = time.process_time() - t
    return {"f1": float(compare_graphs(B.laplacian, res.laplacian)["f1"]),
            "edges": int(res.n_edges), "true": G.number_of_edges(),
            "dim": int(res.family_dimension), "cands": int(res.n_candidates),
            "warned": any(issubclass(w.category, ConvergenceWarning) for w in caught),
            "cpu": cpu}


def _cases(names, draws):
    for name in names:
        yield name, None
        for d in range(min(SLOW.get(name, draws), draws)):
            yield name, d


def _child(baseline, name, draw):
    env = dict(os.environ, PYTHONPATH=os.path.abspath(baseline))
    out = subprocess.run([sys.executable, __file__, "--case", name,
                          "none" if draw is None else str(draw)],
                         env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _cell(r):
    return (f"{r['f1']:.3f} | {r['edges']} / {r['true']} | {r['dim']} | {r['cands']} | "
            f"{'W' if r['warned'] else '-'} | {r['cpu']:.2f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", nargs="*", default=list(GRAPHS))
    p.add_argument("--draws", type=int, default=3)
    p.add_argument("--baseline", default=None)
    p.add_argument("--case", nargs=2, default=None, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.case:
        name, draw = args.case
        print(json.dumps(run_case(name, None if draw == "none" else int(draw))))
        return
    head = "F1 | edges / true | family dim | candidates | W | cpu s"
    if args.baseline:
        print(f"| graph | input | before: {head} | after: {head} |")
        print("|---|---|" + "---|" * 12)
    else:
        print(f"| graph | input | {head} |\n|---|---|" + "---|" * 6)
    for name, draw in _cases(args.only, args.draws):
        label = "exact" if draw is None else f"perturbed 1e-3 #{draw}"
        cells = []
        if args.baseline:
            cells.append(_cell(_child(args.baseline, name, draw)))
        cells.append(_cell(run_case(name, draw)))
        print(f"| {name} | {label} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
