"""Cayley twins of the groups read off eigenvectors of tori, circulants and ladders.

``infer``: ``infer_laplacian(V, rng=0)`` on exact shuffled (``shuffled(V, s)``) or
perturbed (``audit_input``) eigenvectors from ``fourier_basis``, one row per input: F1,
edges found / true, warnings (A ``AmbiguousGraphWarning``, C ``ConvergenceWarning``),
whether the true graph is among the candidates, the ``cayley_twins`` calls (twins
listed / CPU s) and the CPU s of the inference. ``cost``: CPU s of ``cayley_twins``
against the true graph on exact shuffled eigenvectors (shuffle 0). ``groups A B0 B1 S0
S1``: per torus A x b (b = B0..B1) and shuffle (S0..S1), whether the torus's group is
among the groups read off the basis (``group_tables`` where it exists, else the greedy
``group_table``), the groups read, and the twins ``cayley_twins`` lists against the
torus itself. Run from the repository root (one BLAS thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_cayley_groups.py infer named other noisy axb
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_cayley_groups.py infer 8xb:12:27:0-2
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_cayley_groups.py cost
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_cayley_groups.py groups 8 12 27 0 5
"""

from __future__ import annotations

import sys
import time
import warnings

import networkx as nx
import numpy as np
import scipy.sparse as sp
from bench_inference_sweep import _perturb, _shuffle

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import _abelian_twins, _cayley_sparser, laplacian_inference
from gsp_householder.graphs._abelian_twins import cayley_twins
from gsp_householder.graphs._laplacian_fit import _diagonal_fit, _laplacian


def shuffled(V: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = V.shape[1]
    return V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def audit_input(V: np.ndarray, noise: float, draw: int) -> np.ndarray:
    """``V`` perturbed by ``noise`` and shuffled as the tests' ``audit_input`` (one
    generator, seed ``draw``: ``bench_inference_sweep``'s ``_perturb`` then ``_shuffle``)."""
    rng = np.random.default_rng(draw)
    return _shuffle(_perturb(V, noise, rng), rng)


def torus(a: int, b: int) -> nx.Graph:
    return nx.convert_node_labels_to_integers(nx.grid_2d_graph(a, b, periodic=True))


def _edges(L) -> set:
    return set(zip(*sp.triu(sp.csr_array(L), 1).nonzero(), strict=True))


def run(name: str, G: nx.Graph, make) -> None:
    calls = []

    def timed(function):
        def spy(*args):
            start = time.process_time()
            twins = function(*args)
            calls.append((len(twins), time.process_time() - start))
            return twins

        return spy

    originals = laplacian_inference.cayley_twins, _cayley_sparser.cayley_twins
    laplacian_inference.cayley_twins = timed(originals[0])
    _cayley_sparser.cayley_twins = timed(originals[1])
    try:
        B = fourier_basis(G)
        V = make(B.eigenvectors)
        start = time.process_time()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = infer_laplacian(V, rng=0)
        cpu = time.process_time() - start
    finally:
        laplacian_inference.cayley_twins, _cayley_sparser.cayley_twins = originals
    f1 = compare_graphs(B.laplacian, res.laplacian)["f1"]
    names = "".join(sorted({w.category.__name__[0] for w in caught})) or "-"
    truth = _edges(B.laplacian)
    held = int(any(_edges(C) == truth for C in res.candidates))
    twins = ";".join(f"{k}/{c:.2f}" for k, c in calls) or "none"
    print(
        f"{name} | F1 {f1:.3f} | {res.n_edges}/{G.number_of_edges()} | {names} | "
        f"truth-cand {held} | twins {twins} | cpu {cpu:.2f}",
        flush=True,
    )


def cases(which: str):
    if which == "named":
        for s in (0, 2):
            yield f"8x20 s{s}", torus(8, 20), lambda V, s=s: shuffled(V, s)
    elif which.startswith("8xb"):
        low, high, shuffles = which.split(":")[1:]
        first, last = (int(x) for x in shuffles.split("-"))
        for b in range(int(low), int(high) + 1):
            for s in range(first, last + 1):
                if b == 20 and s in (0, 2):
                    continue
                yield f"8x{b} s{s}", torus(8, b), lambda V, s=s: shuffled(V, s)
    elif which == "axb":
        for a, bs in ((4, (9, 15, 22)), (10, (12, 16, 21)), (12, (13, 20)), (16, (10, 16))):
            for b in bs:
                for s in (0, 1):
                    yield f"{a}x{b} s{s}", torus(a, b), lambda V, s=s: shuffled(V, s)
    elif which == "other":
        graphs = [
            ("circulant(30,[1,4])", nx.circulant_graph(30, [1, 4])),
            ("circulant(60,[1,7,11])", nx.circulant_graph(60, [1, 7, 11])),
            ("circulant(160,[1,7])", nx.circulant_graph(160, [1, 7])),
            ("circulant(200,[1,2])", nx.circulant_graph(200, [1, 2])),
            ("circ_ladder(20)", nx.circular_ladder_graph(20)),
            ("circ_ladder(35)", nx.circular_ladder_graph(35)),
            ("circ_ladder(80)", nx.circular_ladder_graph(80)),
            ("hypercube(5)", nx.hypercube_graph(5)),
            ("hypercube(7)", nx.hypercube_graph(7)),
            ("torus 3x4x5", nx.grid_graph(dim=[5, 4, 3], periodic=True)),
            ("cycle(64)", nx.cycle_graph(64)),
        ]
        for name, G in graphs:
            G = nx.convert_node_labels_to_integers(G)
            for s in (0, 1):
                yield f"{name} s{s}", G, lambda V, s=s: shuffled(V, s)
    elif which == "noisy":
        graphs = [
            ("circulant(30,[1,4])", nx.circulant_graph(30, [1, 4]), 1e-4),
            ("circulant(70,[1,5])", nx.circulant_graph(70, [1, 5]), 1e-3),
            ("circ_ladder(20)", nx.circular_ladder_graph(20), 1e-3),
            ("circ_ladder(21)", nx.circular_ladder_graph(21), 1e-3),
            ("circ_ladder(35)", nx.circular_ladder_graph(35), 1e-3),
            ("torus 6x9", nx.grid_2d_graph(6, 9, periodic=True), 1e-3),
        ]
        for name, G, eps in graphs:
            G = nx.convert_node_labels_to_integers(G)
            for d in range(4):
                yield f"{name} {eps:g} d{d}", G, lambda V, d=d, eps=eps: audit_input(V, eps, d)
    else:
        raise SystemExit(__doc__)


def cost() -> None:
    graphs = [
        ("torus 8x20", nx.grid_2d_graph(8, 20, periodic=True)),
        ("torus 12x20", nx.grid_2d_graph(12, 20, periodic=True)),
        ("torus 15x20", nx.grid_2d_graph(15, 20, periodic=True)),
        ("circulant(200,[1,2])", nx.circulant_graph(200, [1, 2])),
        ("circulant(300,[1,7])", nx.circulant_graph(300, [1, 7])),
        ("circ_ladder(80)", nx.circular_ladder_graph(80)),
    ]
    for name, G in graphs:
        G = nx.convert_node_labels_to_integers(G)
        n = G.number_of_nodes()
        V = shuffled(fourier_basis(G).eigenvectors, 0)
        W = sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(n), dtype=float))
        basis = {"V": V, "kind": "combinatorial", "ordered": False, "scale": None}
        start = time.process_time()
        twins = cayley_twins(basis, W, [])
        print(f"{name} | n {n} | twins {len(twins)} | cpu {time.process_time() - start:.2f}")


def groups(a: int, low: int, high: int, first: int, last: int) -> None:
    for b in range(low, high + 1):
        G = torus(a, b)
        n = a * b
        x, y = np.divmod(np.arange(n), b)
        addition = ((x[:, None] + x[None, :]) % a) * b + (y[:, None] + y[None, :]) % b
        W = sp.csr_array(nx.to_scipy_sparse_array(G, nodelist=range(n), dtype=float))
        eigenvectors = fourier_basis(G).eigenvectors
        for s in range(first, last + 1):
            V = shuffled(eigenvectors, s)
            basis = {"V": V, "kind": "combinatorial", "ordered": False, "scale": None}
            lam = _diagonal_fit(V, _laplacian(W, basis))[0]
            if hasattr(_abelian_twins, "group_tables"):
                tables = _abelian_twins.group_tables(V, lam)
            else:
                table = _abelian_twins.group_table(V, lam)
                table = _abelian_twins.group_table(V, None) if table is None else table
                tables = [] if table is None else [table]
            read = int(any(np.array_equal(t, addition) for t in tables))
            start = time.process_time()
            twins = cayley_twins(basis, W, [])
            cpu = time.process_time() - start
            print(
                f"{a}x{b} s{s} | torus group read {read} | groups {len(tables)} | "
                f"twins of the torus {len(twins)} | cpu {cpu:.2f}",
                flush=True,
            )


def main(argv: list[str]) -> None:
    if argv[:1] == ["cost"]:
        cost()
    elif argv[:1] == ["groups"]:
        groups(*(int(v) for v in argv[1:6]))
    elif argv[:1] == ["infer"]:
        for which in argv[1:]:
            for name, G, make in cases(which):
                run(name, G, make)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
