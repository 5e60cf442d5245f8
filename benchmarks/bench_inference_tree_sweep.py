"""Order-free inference on random trees: random labelled trees, lobsters, r-ary and weighted trees.

``random_labeled_tree(n, seed)`` for n in 100, 150, 200, 300 and seeds 0-9; random
lobsters (``random_lobster_graph(m, 0.6, 0.4, seed)``, backbone length m = 30, 40, 50,
seeds 0-2); ``full_rary_tree(r, n)`` for (r, n) = (3, 150), (4, 200), (5, 156); and
random labelled trees of 150 nodes with lognormal edge weights ($\\sigma$ = 0.5, seeds
0-4). Each graph's exact eigenvectors and its eigenvectors perturbed by a relative
Frobenius error 1e-3 are shuffled and sign-flipped with the generator of
``bench_inference.py`` (seed 0), as ``bench_inference_rgg_sweep.py`` does.

Columns: F1, edges found / true, family dimension, candidates, T (the tree is among the
candidates: ``y``, or is the answer: ``=``), W (a warning was raised), S (families
whose sparser member, ``_polynomial_member``, was a candidate: ``history["sparser_members"]``),
CPU seconds of ``infer_laplacian``. The last lines count, per input, the runs that miss the tree
(F1 < 1), the silent ones among them (no warning) and the CPU time's median and maximum.

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/bench_inference_tree_sweep.py
[--inputs exact perturbed] [--kinds labelled lobster rary weighted] [--sizes 100 150 200 300]
[--seeds 0 ... 9] [--only NAME ...] [--skip N]``
(``--skip N`` leaves out the first N graphs).
"""

from __future__ import annotations

import argparse

import networkx as nx
import numpy as np
from bench_inference import sweep_inputs, timed_inference

from gsp_householder import compare_graphs, fourier_basis


def _weighted(G, seed, sigma=0.5):
    """``G`` with lognormal edge weights (``sigma``), drawn with ``default_rng(1000 + seed)``."""
    rng = np.random.default_rng(1000 + seed)
    H = nx.Graph()
    H.add_nodes_from(G)
    for u, v in G.edges:
        H.add_edge(u, v, weight=float(rng.lognormal(0.0, sigma)))
    return H


def graphs(kinds, sizes, seeds):
    """``(name, make)`` of the sweep's trees."""
    out = []
    if "labelled" in kinds:
        out += [(f"tree({n}, seed {s})", lambda n=n, s=s: nx.random_labeled_tree(n, seed=s))
                for n in sizes for s in seeds]
    if "lobster" in kinds:
        out += [(f"lobster({m}, seed {s})",
                 lambda m=m, s=s: nx.convert_node_labels_to_integers(
                     nx.random_lobster_graph(m, 0.6, 0.4, seed=s)))
                for m in (30, 40, 50) for s in range(3)]
    if "rary" in kinds:
        out += [(f"full_rary_tree({r}, {n})", lambda r=r, n=n: nx.full_rary_tree(r, n))
                for r, n in ((3, 150), (4, 200), (5, 156))]
    if "weighted" in kinds:
        out += [(f"tree(150, seed {s}) lognormal 0.5",
                 lambda s=s: _weighted(nx.random_labeled_tree(150, seed=s), s))
                for s in range(5)]
    return out


def _edge_set(L, tol=1e-9):
    L = np.asarray(L.todense()) if hasattr(L, "todense") else np.asarray(L)
    i, j = np.nonzero(np.triu(-L, 1) > tol * np.abs(L).max())
    return set(zip(i.tolist(), j.tolist(), strict=True))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--inputs", nargs="*", choices=("exact", "perturbed"),
                    default=["exact", "perturbed"])
    ap.add_argument("--kinds", nargs="*", choices=("labelled", "lobster", "rary", "weighted"),
                    default=["labelled", "lobster", "rary", "weighted"])
    ap.add_argument("--sizes", nargs="*", type=int, default=[100, 150, 200, 300])
    ap.add_argument("--seeds", nargs="*", type=int, default=list(range(10)))
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--skip", type=int, default=0)
    args = ap.parse_args()
    stats = {key: {"cpu": [], "miss": 0, "silent": 0, "runs": 0} for key in args.inputs}
    print("| graph | n | input | F1 | edges / true | family dim. | candidates | T | W | S "
          "| cpu s |\n|---|---|---|---|---|---|---|---|---|---|---|")
    for name, make in graphs(args.kinds, args.sizes, args.seeds)[args.skip:]:
        if args.only and name not in args.only:
            continue
        B = fourier_basis(make())
        truth = _edge_set(B.laplacian)
        inputs = sweep_inputs(B)
        for key in args.inputs:
            res, dt, caught = timed_inference(inputs[key])
            cmp = compare_graphs(B.laplacian, res.laplacian)
            found = [_edge_set(c) == truth for c in res.candidates]
            mark = "=" if found and found[0] else ("y" if any(found) else "-")
            warned = bool([w for w in caught if not issubclass(w.category, DeprecationWarning)])
            st = stats[key]
            st["cpu"].append(dt)
            st["runs"] += 1
            if cmp["f1"] < 1.0:
                st["miss"] += 1
                st["silent"] += not warned
            print(f"| {name} | {B.n} | {key} | {cmp['f1']:.4f} | {cmp['n_edges_hat']} / "
                  f"{cmp['n_edges_true']} | {res.family_dimension} | {len(res.candidates)} | "
                  f"{mark} | {'W' if warned else '-'} | "
                  f"{res.history.get('sparser_members', 0)} | {dt:.2f} |", flush=True)
    for key, st in stats.items():
        times = np.asarray(st["cpu"])
        if times.size:
            print(f"{key}: {st['runs']} runs, {st['miss']} miss the tree (F1 < 1), "
                  f"{st['silent']} of them silent; CPU median {np.median(times):.2f} s, max "
                  f"{times.max():.2f}, sum {times.sum():.1f}", flush=True)


if __name__ == "__main__":
    main()
