"""Order-free inference on random geometric graphs and random trees of 200 nodes.

RGG(200, r, seed) (largest component) for r in 0.10, 0.12, 0.14 and seeds 0-9, and
``random_labeled_tree(200, seed)`` for seeds 0-5: F1, edges found / true, family
dimension, W (a warning was raised) and CPU seconds of ``infer_laplacian`` on the exact
eigenvectors and on eigenvectors perturbed by a relative Frobenius error 1e-3, both
shuffled and sign-flipped with the generator of ``bench_inference.py`` (seed 0). The
last lines give the CPU time's median, maximum and the count of runs over 2 s per input.

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/bench_inference_rgg_sweep.py
[--inputs exact perturbed] [--radii 0.1 0.12 0.14] [--seeds 0 ... 9] [--trees 0 ... 5]``
"""

from __future__ import annotations

import argparse

import networkx as nx
import numpy as np
from bench_inference import _largest_component, sweep_inputs, timed_inference

from gsp_householder import compare_graphs, fourier_basis


def graphs(radii, seeds, trees):
    """``(name, make)`` of the sweep's graphs."""
    out = [(f"RGG(200, {r:g}, seed {s})",
            lambda r=r, s=s: _largest_component(nx.random_geometric_graph(200, r, seed=s)))
           for r in radii for s in seeds]
    out += [(f"tree(200, seed {s})", lambda s=s: nx.random_labeled_tree(200, seed=s))
            for s in trees]
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--inputs", nargs="*", choices=("exact", "perturbed"),
                    default=["exact", "perturbed"])
    ap.add_argument("--radii", nargs="*", type=float, default=[0.1, 0.12, 0.14])
    ap.add_argument("--seeds", nargs="*", type=int, default=list(range(10)))
    ap.add_argument("--trees", nargs="*", type=int, default=list(range(6)))
    args = ap.parse_args()
    cpu = {key: [] for key in args.inputs}
    print("| graph | n | input | F1 | edges / true | family dim. | W | cpu s |\n"
          "|---|---|---|---|---|---|---|---|")
    for name, make in graphs(args.radii, args.seeds, args.trees):
        B = fourier_basis(make())
        inputs = sweep_inputs(B)
        for key in args.inputs:
            res, dt, caught = timed_inference(inputs[key])
            cpu[key].append(dt)
            cmp = compare_graphs(B.laplacian, res.laplacian)
            print(f"| {name} | {B.n} | {key} | {cmp['f1']:.4f} | {cmp['n_edges_hat']} / "
                  f"{cmp['n_edges_true']} | {res.family_dimension} | "
                  f"{'W' if caught else '-'} | {dt:.2f} |", flush=True)
    for key, times in cpu.items():
        times = np.asarray(times)
        print(f"{key}: {times.size} runs, median {np.median(times):.2f} CPU s, max "
              f"{times.max():.2f}, {int(np.sum(times > 2.0))} over 2 s", flush=True)


if __name__ == "__main__":
    main()
