"""Graph benchmarks: reflectors per graph family, fast GFT, approximation, inference.

Run ``python benchmarks/bench_graph.py`` (add ``--large`` for the n = 1000 inference
case; ``--speed`` for table (0) only). Every ratio is measured in the same run on the
same machine.

(0) speed against LAPACK: ``householder_fourier_basis(G)`` (including its WY factor)
    and ``make_graph_signals(G, n, ...)`` (p = n signals), each as a ratio to
    ``numpy.linalg.eigh`` of the same dense Laplacian; medians of ``--repeat`` rounds
    (default 3), each round timing the three in turn. The load average is printed
    beside the table: the machine may be shared.
(0b) ``--sweep``: every bundled graph and graphs not used to develop the method
    (random weighted, disconnected, repeated eigenvalues): reflectors in frequency and
    in free order, eigen-residual, distance to ``fourier_basis`` (0 where the QR is
    kept; inside a repeated eigenspace the search picks another basis), one timing.

(a) reflectors needed by ``householder_fourier_basis`` per family and the speed-up of
    ``V.T @ Y`` through the product over a dense matrix product;
(b) greedy approximation by m reflectors (``approximate_householder``): relative error
    $\\|QP - H_1 \\cdots H_m\\|_F / \\|QP - I\\|_F$ at m = n/4, n/2, 3n/4, n;
(c) Laplacian inference from the exact and from a perturbed eigenbasis (relative
    Frobenius error 1e-3): edge F1 and time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import time

import numpy as np

from gsp_householder.graphs.comparison import compare_graphs
from gsp_householder.graphs.datasets import load_graph
from gsp_householder.graphs.fourier import fourier_basis, laplacian_matrix
from gsp_householder.graphs.householder_basis import (
    approximate_householder,
    householder_fourier_basis,
)
from gsp_householder.graphs.laplacian_inference import infer_laplacian
from gsp_householder.graphs.signals import make_graph_signals
from gsp_householder.model import BernoulliUniform

FAMILIES = [
    ("complete K_200", "complete", {"n": 200}),
    ("cliques 8 x 25", "cliques", {"n_cliques": 8, "size": 25}),
    ("complete 4-partite 4 x 50", "complete_multipartite", {"sizes": (50, 50, 50, 50)}),
    ("SBM dense blocks 4 x 50 (p_in=1, p_out=0)", "sbm",
     {"sizes": (50, 50, 50, 50), "p_in": 1.0, "p_out": 0.0}),
    ("SBM 4 x 50 (p_in=0.3, p_out=0.02)", "sbm", {}),
    ("ring 200", "ring", {"n": 200}),
    ("grid 15 x 15", "grid", {}),
    ("sensor 200", "sensor", {}),
    ("karate", "karate", {}),
]


def best_time(f, repeat=7):
    ts = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        ts.append(time.perf_counter() - t)
    return min(ts)


SPEED_CASES = [
    ("grid 15 x 15", "grid", {}),
    ("sensor n = 500", "sensor", {"n": 500}),
    ("sensor n = 1000", "sensor", {"n": 1000}),
    ("Minnesota", "minnesota", {}),
    ("cliques 8 x 25", "cliques", {"n_cliques": 8, "size": 25}),
    ("complete 4-partite 4 x 50", "complete_multipartite", {"sizes": (50, 50, 50, 50)}),
]


def _uptime() -> str:
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):  # pragma: no cover - no uptime binary
        return "load average: " + ", ".join(f"{x:.2f}" for x in os.getloadavg())


def speed_table(repeat=3):
    print(f"(0) speed against numpy.linalg.eigh (medians of {repeat} rounds)")
    print(f"before: {_uptime()}")
    print("| graph | n | m | eigh s | basis s | basis / eigh | signals s (p = n) | "
          "signals / eigh |")
    print("|---|---|---|---|---|---|---|---|")
    model = BernoulliUniform(0.5)
    for label, name, kw in SPEED_CASES:
        G = load_graph(name, **kw)
        L = laplacian_matrix(G).toarray()
        n = L.shape[0]
        rounds = {"eigh": [], "basis": [], "signals": []}
        m = None
        for r in range(repeat):
            t = time.perf_counter()
            np.linalg.eigh(L)
            rounds["eigh"].append(time.perf_counter() - t)
            t = time.perf_counter()
            V = householder_fourier_basis(G)
            _ = V.wy_factor  # the form that applies V
            rounds["basis"].append(time.perf_counter() - t)
            m = V.m
            t = time.perf_counter()
            make_graph_signals(G, n, model, rng=r)
            rounds["signals"].append(time.perf_counter() - t)
        te, tb, ts = (float(np.median(rounds[k])) for k in ("eigh", "basis", "signals"))
        print(f"| {label} | {n} | {m} | {te:.3f} | {tb:.3f} | {tb / te:.2f} | {ts:.3f} | "
              f"{ts / te:.2f} |", flush=True)
    print(f"after: {_uptime()}")


def _random_weighted(n, prob, seed):
    import networkx as nx

    rng = np.random.default_rng(seed)
    G = nx.gnp_random_graph(n, prob, seed=seed)
    for u, v in G.edges():
        G[u][v]["weight"] = float(rng.uniform(0.1, 3.0))
    return G


def sweep_table():
    """Every bundled graph and a few others: counts, exactness, time against eigh."""
    import networkx as nx

    from gsp_householder.graphs.datasets import list_graphs

    cases = [(name, load_graph(name)) for name in list_graphs()]
    cases += [
        ("random weighted G(300, 0.05)", _random_weighted(300, 0.05, 7)),
        ("disconnected: G(150, 0.05) + path 50",
         nx.disjoint_union(_random_weighted(150, 0.05, 8), nx.path_graph(50))),
        ("K_{3,5,7,9}", nx.complete_multipartite_graph(3, 5, 7, 9)),
        ("cliques 3, 5, 8, 13", nx.disjoint_union_all([nx.complete_graph(k)
                                                      for k in (3, 5, 8, 13)])),
        ("Petersen", nx.petersen_graph()),
        ("6-cube", nx.hypercube_graph(6)),
        ("barbell (10, 3)", nx.barbell_graph(10, 3)),
    ]
    print("\n(0b) every bundled graph and others not used to develop the method")
    print("| graph | n | components | m (frequency) | m (fewest) | max |LV - V diag(lam)| | "
          "max |V - fourier_basis| | eigh ms | basis ms |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, G in cases:
        B = fourier_basis(G)
        L = B.laplacian.toarray()
        t = time.perf_counter()
        np.linalg.eigh(L)
        te = time.perf_counter() - t
        t = time.perf_counter()
        V, lam = householder_fourier_basis(G, return_eigenvalues=True)
        tb = time.perf_counter() - t
        m_few = householder_fourier_basis(B, order="fewest").m
        D = V.to_dense()
        res = float(np.abs(L @ D - D * lam).max())
        diff = float(np.abs(D - B.eigenvectors).max())
        print(f"| {label} | {B.n} | {B.n_components} | {V.m} | {m_few} | {res:.1e} | "
              f"{diff:.1e} | {1e3 * te:.2f} | {1e3 * tb:.2f} |", flush=True)


def reflector_table(p=256):
    print(f"(a) reflectors and fast GFT (V.T @ Y, p = {p} signals)")
    print("| graph | n | reflectors m | product s | dense s | speed-up |")
    print("|---|---|---|---|---|---|")
    rng = np.random.default_rng(0)
    for label, name, kw in FAMILIES:
        G = load_graph(name, **kw)
        V = householder_fourier_basis(G)
        Vd = V.to_dense()
        Y = rng.standard_normal((V.n, p))
        tp = best_time(lambda V=V, Y=Y: V.T @ Y)
        td = best_time(lambda Vd=Vd, Y=Y: Vd.T @ Y)
        print(f"| {label} | {V.n} | {V.m} | {tp:.2e} | {td:.2e} | {td / tp:.2f} |")


def approximation_table():
    print("\n(b) greedy approximation by m reflectors (aligned signs and order)")
    print("| graph | n | m=n/4 | m=n/2 | m=3n/4 | m=n |")
    print("|---|---|---|---|---|---|")
    for label, name, kw in [("karate", "karate", {}), ("sensor 200", "sensor", {}),
                            ("grid 15 x 15", "grid", {})]:
        Q = fourier_basis(load_graph(name, **kw)).eigenvectors
        n = Q.shape[0]
        _, err, _, _ = approximate_householder(Q, n)
        cells = " | ".join(f"{err[m] / err[0]:.3f}" for m in (n // 4, n // 2, 3 * n // 4, n))
        print(f"| {label} | {n} | {cells} |")


def inference_table(large=False):
    print("\n(c) Laplacian inference (eigenvalue order known), edge F1 and time")
    print("| graph | n | edges | F1 exact | s | F1 noisy 1e-3 | s |")
    print("|---|---|---|---|---|---|---|")
    cases = [("karate", "karate", {}), ("sensor 200", "sensor", {}),
             ("grid 15 x 15", "grid", {}), ("SBM 4 x 50", "sbm", {})]
    if large:
        cases.append(("sensor 1000", "sensor", {"n": 1000}))
    rng = np.random.default_rng(0)
    for label, name, kw in cases:
        B = fourier_basis(load_graph(name, **kw))
        t = time.perf_counter()
        res = infer_laplacian(B, rng=0)
        t_exact = time.perf_counter() - t
        f_exact = compare_graphs(B.laplacian, res.laplacian)["f1"]
        V = B.eigenvectors
        E = rng.standard_normal(V.shape)
        Vn = V + 1e-3 * np.linalg.norm(V) * E / np.linalg.norm(E)
        t = time.perf_counter()
        res_n = infer_laplacian(Vn, ordered=True, tol=1e-3, rng=0)
        t_noisy = time.perf_counter() - t
        f_noisy = compare_graphs(B.laplacian, res_n.laplacian)["f1"]
        n_edges = compare_graphs(B.laplacian, B.laplacian)["n_edges_true"]
        print(f"| {label} | {B.n} | {n_edges} | {f_exact:.3f} | {t_exact:.2f} | "
              f"{f_noisy:.3f} | {t_noisy:.2f} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--large", action="store_true", help="add the n = 1000 case")
    parser.add_argument("--speed", action="store_true", help="only table (0)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds of table (0)")
    parser.add_argument("--sweep", action="store_true", help="only table (0b)")
    args = parser.parse_args()
    if args.sweep:
        sweep_table()
        raise SystemExit(0)
    speed_table(args.repeat)
    if args.speed:
        raise SystemExit(0)
    sweep_table()
    print()
    reflector_table()
    approximation_table()
    inference_table(large=args.large)
