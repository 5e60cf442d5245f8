"""Rankings and rotated caveman answers that the BLAS kernels must not change.

``--rankings``: edges among the m largest scores of the three fitted rankings
((r, keep) = (16, 0.5), (32, 0.5), (16, 0.7)) on exact ``gnp_random_graph`` eigenvectors
(``N:P:SEED`` each), and a hash of the pairs each leaves out: run it under several
``OPENBLAS_CORETYPE`` values and compare the hashes. ``--caveman C S DRAWS``: order-free
inference of ``connected_caveman_graph(C, S)`` rotated inside its repeated eigenspaces,
perturbed by 1e-3 and shuffled (the tests' draws, ``tests/_basis_inputs.py``), per draw
``F1/edges/grouped search's edges/W or q``. Run from the repository root (one BLAS
thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_kernel_rankings.py --rankings 60:0.35:9 90:0.3:3
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_kernel_rankings.py --caveman 3 6 0-15
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
import warnings
from pathlib import Path

import networkx as nx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from _basis_inputs import perturbed, rotated, shuffled

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._fitted_ranking import fitted_ranking
from gsp_householder.graphs._pair_geometry import pair_basis

RANKINGS = ((16, 0.5), (32, 0.5), (16, 0.7))


def ranking_row(spec: str) -> str:
    """One markdown row of ``--rankings`` for ``N:P:SEED``."""
    n, p, seed = spec.split(":")
    B = fourier_basis(nx.gnp_random_graph(int(n), float(p), seed=int(seed)))
    V = B.eigenvectors.copy()
    V[:, 0] = 1.0 / np.sqrt(B.n)
    A = B.laplacian.toarray() < 0
    i, j = np.triu_indices(B.n, 1)
    m = int(A[i, j].sum())
    row, cpu = [f"G({n}, {p}) s{seed}", str(m)], 0.0
    for r, keep in RANKINGS:
        t = time.process_time()
        scores, (_, I, J) = fitted_ranking(pair_basis(V, 0, V[:, 0]), r=r, keep=keep)
        cpu += time.process_time() - t
        top = np.argsort(-scores[i, j])[:m]
        digest = hashlib.md5(np.stack([I, J]).tobytes()).hexdigest()[:6]
        row.append(f"{int(A[i[top], j[top]].sum())} [{digest}]")
    return "| " + " | ".join([*row, f"{cpu:.2f}"]) + " |"


def caveman_line(cliques: int, size: int, draws: list[int]) -> str:
    """Per draw ``F1/edges/grouped edges/W or q`` and the CPU seconds of all draws."""
    B = fourier_basis(nx.connected_caveman_graph(cliques, size))
    out, cpu = [], 0.0
    for draw in draws:
        V = shuffled(perturbed(rotated(B, np.random.default_rng(draw)), 1e-3, draw), draw)
        t = time.process_time()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = infer_laplacian(V, rng=0)
        cpu += time.process_time() - t
        f1 = compare_graphs(B.laplacian, res.laplacian)["f1"]
        grouped = res.history.get("found_eigenspaces", {}).get("edges")
        out.append(f"d{draw}:{f1:.2f}/{res.n_edges}/{grouped}/{'W' if caught else 'q'}")
    return " ".join(out) + f" cpu {cpu:.1f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rankings", nargs="+", metavar="N:P:SEED")
    ap.add_argument("--caveman", nargs=3, metavar=("CLIQUES", "SIZE", "FIRST-LAST"))
    args = ap.parse_args()
    if args.rankings:
        print(
            "| graph | m | (16, 0.5) | (32, 0.5) | (16, 0.7) | cpu s |\n|---|---|---|---|---|---|"
        )
        for spec in args.rankings:
            print(ranking_row(spec), flush=True)
    if args.caveman:
        first, last = (int(x) for x in args.caveman[2].split("-"))
        print(
            caveman_line(int(args.caveman[0]), int(args.caveman[1]), list(range(first, last + 1)))
        )


if __name__ == "__main__":
    main()
