"""``fourier_basis`` under several BLAS kernels: the same basis, and what it costs.

Run ``python benchmarks/bench_fourier_kernels.py``. OpenBLAS picks its kernels for the CPU
(SkylakeX on CPUs with AVX-512, Haswell on most others); ``OPENBLAS_CORETYPE`` selects them,
read when OpenBLAS loads, so every kernel runs in its own subprocess (one BLAS thread) and
the bases are compared here.

(a) kernels: the largest entry of the difference between each kernel's eigenvectors and
    those of ``--kernels``' first kernel, per graph: graphs with symmetric nodes, whose
    repeated eigenspaces have rows of tied norm, and graphs with simple spectra beside them.
    Differences near rounding mean the basis is reproducible across machines.
(b) ``--timing``: ``fourier_basis(G)`` against ``numpy.linalg.eigh`` of the same dense
    Laplacian, CPU seconds, medians of ``--repeat`` rounds, each round timing the two in turn
    (ratios measured in the same run); the canonical bases of the repeated eigenspaces are
    the difference.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import networkx as nx
import numpy as np

GRAPHS = {
    "star(30)": lambda: nx.star_graph(29),
    "torus 3 x 4 x 5": lambda: nx.grid_graph([3, 4, 5], periodic=True),
    "Petersen": nx.petersen_graph,
    "hypercube(6)": lambda: nx.hypercube_graph(6),
    "K(5, 7)": lambda: nx.complete_bipartite_graph(5, 7),
    "grid 6 x 6": lambda: nx.grid_2d_graph(6, 6),
    "cycle(60)": lambda: nx.cycle_graph(60),
    "circulant(40, [1, 3, 7])": lambda: nx.circulant_graph(40, [1, 3, 7]),
    "dodecahedron": nx.dodecahedral_graph,
    "circular ladder(30)": lambda: nx.circular_ladder_graph(30),
    "caveman(4, 5)": lambda: nx.connected_caveman_graph(4, 5),
    "random tree(80, seed 11) normalized": lambda: (nx.random_labeled_tree(80, seed=11),
                                                    "normalized"),
    "K300": lambda: nx.complete_graph(300),
    "star(2000)": lambda: nx.star_graph(1999),
    "karate (simple spectrum)": nx.karate_club_graph,
}

TIMED = {
    "star(2000)": lambda: nx.star_graph(1999),
    "K600": lambda: nx.complete_graph(600),
    "grid 40 x 40": lambda: nx.grid_2d_graph(40, 40),
    "hypercube(10)": lambda: nx.hypercube_graph(10),
    "cycle(1000)": lambda: nx.cycle_graph(1000),
}


def _graph(make):
    made = make()
    return made if isinstance(made, tuple) else (made, "combinatorial")


def _write_bases(path: str) -> None:
    """Every graph's eigenvectors under this process's kernels, to ``path`` (npz)."""
    from gsp_householder.graphs.fourier import fourier_basis

    out = {}
    for i, make in enumerate(GRAPHS.values()):
        G, laplacian = _graph(make)
        out[f"g{i}"] = fourier_basis(G, laplacian=laplacian).eigenvectors
    np.savez(path, **out)


def kernel_table(kernels) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        bases = {}
        for kernel in kernels:
            path = os.path.join(tmp, f"{kernel}.npz")
            env = dict(os.environ, OPENBLAS_CORETYPE=kernel, OPENBLAS_NUM_THREADS="1")
            subprocess.run([sys.executable, __file__, "--write", path], env=env, check=True)
            with np.load(path) as f:
                bases[kernel] = {k: f[k] for k in f.files}
    first = kernels[0]
    print("| graph | multiplicities | " + " | ".join(f"{k} - {first}" for k in kernels[1:])
          + " |\n|---|---|" + "---|" * (len(kernels) - 1))
    from gsp_householder.graphs.fourier import fourier_basis

    for i, (name, make) in enumerate(GRAPHS.items()):
        G, laplacian = _graph(make)
        mult = sorted({len(g) for g in fourier_basis(G, laplacian=laplacian).eigenspaces
                       if len(g) > 1}, reverse=True)[:3]
        diffs = [np.abs(bases[k][f"g{i}"] - bases[first][f"g{i}"]).max() for k in kernels[1:]]
        print(f"| {name} | {', '.join(map(str, mult)) or 'simple'} | "
              + " | ".join(f"{d:.1e}" for d in diffs) + " |", flush=True)


def timing_table(repeat: int) -> None:
    from gsp_householder.graphs.fourier import fourier_basis, laplacian_matrix

    print("| graph | n | eigh CPU s | fourier_basis CPU s | ratio |\n|---|---|---|---|---|")
    for name, make in TIMED.items():
        G = make()
        L = laplacian_matrix(G).toarray()
        t_eigh, t_basis = [], []
        for _ in range(repeat):
            t = time.process_time()
            np.linalg.eigh(L)
            t_eigh.append(time.process_time() - t)
            t = time.process_time()
            fourier_basis(G)
            t_basis.append(time.process_time() - t)
        e, b = float(np.median(t_eigh)), float(np.median(t_basis))
        print(f"| {name} | {L.shape[0]} | {e:.3f} | {b:.3f} | {b / e:.2f} |", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kernels", nargs="+",
                    default=["Haswell", "SkylakeX", "Zen", "SandyBridge"])
    ap.add_argument("--timing", action="store_true")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--write", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.write:
        _write_bases(args.write)
    elif args.timing:
        timing_table(args.repeat)
    else:
        kernel_table(args.kernels)


if __name__ == "__main__":
    main()
