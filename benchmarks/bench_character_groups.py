"""Character groups of exact torus bases: split eigenspaces, answers, twins.

``groups``: per torus a x b and shuffle, ``character_groups`` on the anchored basis against
the true eigenvalues of the columns: ``exact`` (the eigenspaces), ``union`` (unions of
them), ``SPLIT`` (a group holds part of an eigenspace), ``none`` (no grouping), with the
CPU seconds of the grouping. ``infer``: ``infer_laplacian`` on the same inputs: F1, edges
found / true, groups, warnings, CPU seconds. ``twins``: whether the torus basis
diagonalises the Cayley graph with steps (k, 0), (0, 1). Shuffles as the tests'
(``V[:, rng.permutation(n)]`` with random signs, seed = shuffle). Run from the repository
root (one BLAS thread, CPU seconds)::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_character_groups.py groups 8,4,12 5-20 0-13
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_character_groups.py infer 8x12 0,1,3
    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_character_groups.py twins
"""

from __future__ import annotations

import sys
import time
import warnings

import networkx as nx
import numpy as np

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs import _eigenspace_search
from gsp_householder.graphs._character_groups import character_groups


def shuffled(V: np.ndarray, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = V.shape[1]
    return V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def anchored(V: np.ndarray) -> tuple[np.ndarray, int]:
    """The zero column reflected onto the constant vector, as ``infer_laplacian`` does."""
    n = V.shape[0]
    u = np.full(n, 1 / np.sqrt(n))
    c = int(np.argmax(np.abs(V.sum(axis=0))))
    v = V[:, c] * np.sign(V[:, c] @ u)
    V = V - 2.0 * np.outer(v, v @ V)
    b = (v + u) / np.linalg.norm(v + u)
    V = V - 2.0 * np.outer(b, b @ V)
    V[:, c] = u
    return V, c


def torus(spec: str) -> nx.Graph:
    dims = [int(x) for x in spec.split("x")]
    return nx.convert_node_labels_to_integers(nx.grid_graph(dim=dims[::-1], periodic=True))


def grouping(G: nx.Graph, shuffle: int) -> str:
    B = fourier_basis(G)
    V, c = anchored(shuffled(B.eigenvectors, shuffle))
    lam = np.round(np.diag(V.T @ B.laplacian.toarray() @ V), 8)
    start = time.process_time()
    groups = character_groups(V, c, pair_halves=G.number_of_nodes() > 64)
    cpu = time.process_time() - start
    eigenspaces = np.unique(lam).size
    if groups is None:
        return f"none eig {eigenspaces} groups None split 0 joined 0 cpu {cpu:.2f}"
    label = np.empty(V.shape[1], dtype=int)
    for g, columns in enumerate(groups):
        label[columns] = g
    split = sum(np.unique(label[lam == value]).size > 1 for value in np.unique(lam))
    joined = sum(np.unique(lam[g]).size > 1 for g in groups)
    kind = "SPLIT" if split else ("union" if joined else "exact")
    return (
        f"{kind} eig {eigenspaces} groups {len(groups)} split {split} joined {joined} cpu {cpu:.2f}"
    )


def answer(G: nx.Graph, shuffle: int) -> str:
    seen = {}
    search = _eigenspace_search.character_groups

    def spy(V, c, **options):
        groups = search(V, c, **options)
        seen["groups"] = None if groups is None else len(groups)
        return groups

    B = fourier_basis(G)
    V = shuffled(B.eigenvectors, shuffle)
    _eigenspace_search.character_groups = spy
    try:
        start = time.process_time()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = infer_laplacian(V, rng=0)
        cpu = time.process_time() - start
    finally:
        _eigenspace_search.character_groups = search
    f1 = compare_graphs(B.laplacian, res.laplacian)["f1"]
    names = ",".join(sorted({w.category.__name__ for w in caught})) or "-"
    return (
        f"F1 {f1:.3f} edges {res.n_edges}/{G.number_of_edges()} "
        f"groups {seen.get('groups')} warn {names} cpu {cpu:.2f}"
    )


def twins() -> None:
    for a, b, k in [(8, 11, 3), (8, 12, 3), (8, 13, 3), (8, 17, 3), (10, 20, 3)]:
        G = torus(f"{a}x{b}")
        V = fourier_basis(G).eigenvectors
        H = nx.Graph()
        for x in range(a):
            for y in range(b):
                H.add_edge(x * b + y, ((x + k) % a) * b + y)
                H.add_edge(x * b + y, x * b + (y + 1) % b)
        L = nx.laplacian_matrix(H, nodelist=range(a * b)).toarray().astype(float)
        D = V.T @ L @ V
        off = np.abs(D - np.diag(np.diag(D))).max()
        print(f"{a}x{b} steps ({k}, 0), (0, 1): largest off-diagonal entry of V^T L V {off:.1e}")


def _numbers(text: str) -> list[int]:
    if "-" in text:
        low, high = (int(x) for x in text.split("-"))
        return list(range(low, high + 1))
    return [int(x) for x in text.split(",")]


def main(argv: list[str]) -> None:
    if argv[0] == "twins":
        twins()
    elif argv[0] == "groups":
        for a in _numbers(argv[1]):
            for b in _numbers(argv[2]):
                G = torus(f"{a}x{b}")
                for s in _numbers(argv[3]):
                    print(f"{a}x{b} s{s} {grouping(G, s)}", flush=True)
    elif argv[0] == "infer":
        G = torus(argv[1])
        for s in _numbers(argv[2]):
            print(f"{argv[1]} s{s} {answer(G, s)}", flush=True)
    else:
        raise SystemExit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
