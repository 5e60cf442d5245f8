"""Order-free inference on random regular graphs and disconnected unions (held-out cases).

For every graph: F1, edges found, family dimension and CPU seconds from its exact
eigenvectors and from eigenvectors perturbed by a relative Frobenius error 1e-3, both
shuffled and sign-flipped with the graph's seed (W: a ConvergenceWarning; error: the
input was refused).

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/bench_inference_heldout.py``
"""

from __future__ import annotations

import time
import warnings

import networkx as nx
import numpy as np
from bench_inference import _perturb, _shuffle

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian

REGULAR = [(3, 100, 5), (3, 60, 7), (3, 150, 9), (4, 90, 8), (5, 100, 6), (6, 200, 3),
           (7, 60, 13), (8, 100, 7), (9, 60, 14), (10, 120, 5), (14, 100, 6), (16, 150, 7),
           (20, 100, 8)]


def _unions():
    return [
        ("WS(50) + tree(40), seed 21", lambda: nx.disjoint_union(
            nx.connected_watts_strogatz_graph(50, 4, 0.2, seed=21),
            nx.random_labeled_tree(40, seed=21)), 21),
        ("BA(60) + path(5) + K3, seed 22", lambda: nx.disjoint_union_all(
            [nx.barabasi_albert_graph(60, 2, seed=22), nx.path_graph(5),
             nx.complete_graph(3)]), 22),
        ("karate + caveman(4, 6)", lambda: nx.disjoint_union(
            nx.karate_club_graph(), nx.connected_caveman_graph(4, 6)), 23),
    ]


def main():
    cases = [(f"{d}-regular({n}) seed {s}",
              (lambda d=d, n=n, s=s: nx.random_regular_graph(d, n, seed=s)), s)
             for d, n, s in REGULAR] + _unions()
    print("| graph | n | exact F1 | edges | family dim | cpu s | perturbed F1 | edges | "
          "family dim | cpu s |\n|---|---|---|---|---|---|---|---|---|---|")
    for name, make, seed in cases:
        B = fourier_basis(make())
        out = []
        for noise in (0.0, 1e-3):
            V = B.eigenvectors
            if noise:
                V = _perturb(V, noise, np.random.default_rng(seed))
            V = _shuffle(V, np.random.default_rng(seed))
            t = time.process_time()
            try:
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    res = infer_laplacian(V, rng=0)
            except ValueError:
                out.append("error | - | - | -")
                continue
            f1 = compare_graphs(B.laplacian, res.laplacian)["f1"]
            out.append(f"{f1:.3f}{'W' if caught else ''} | {res.n_edges} | "
                       f"{res.family_dimension} | {time.process_time() - t:.2f}")
        print(f"| {name} | {B.n} | {' | '.join(out)} |", flush=True)


if __name__ == "__main__":
    main()
