"""Laplacian inference from bases with a learning error: F1 against the basis error.

The true eigenvectors are rotated by a random orthogonal matrix close to the identity,
$V \\exp(A)$ with $A$ skew-symmetric, $\\|A\\|_F = $ ``error`` (so
$\\|V\\exp(A) - V\\|_F \\approx$ ``error``), then shuffled and sign-flipped (order-free
inference); the ordered row keeps the column order and passes the true eigenspaces.
Prints F1, edges found / true and CPU seconds (median over the draws).

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/bench_inference_basis_error.py
[--errors 0.01 0.05 0.1] [--draws 0 1 2]``
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import scipy.linalg

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian, load_graph

GRAPHS = {"karate": lambda: load_graph("karate"), "sensor-200": lambda: load_graph("sensor")}


def rotated(V, error, rng):
    """``V exp(A)`` for a random skew-symmetric ``A`` with Frobenius norm ``error``."""
    S = rng.standard_normal(V.shape)
    A = S - S.T
    return V @ scipy.linalg.expm(error * A / np.linalg.norm(A))


def one(B, basis, **kw):
    c = time.process_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(basis, rng=0, **kw)
    cmp = compare_graphs(B.laplacian, res.laplacian)
    return cmp["f1"], cmp["n_edges_hat"], time.process_time() - c, bool(caught)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--errors", nargs="*", type=float, default=[0.01, 0.05, 0.1])
    ap.add_argument("--draws", nargs="*", type=int, default=[0, 1, 2])
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    print("| graph | error | input | F1 per draw (W: complete graph, refused) | edges | "
          "median cpu s |\n|---|---|---|---|---|---|")
    for name, make in GRAPHS.items():
        if args.only and name not in args.only:
            continue
        B = fourier_basis(make())
        n = B.n
        for error in args.errors:
            for label in ("shuffled", "ordered"):
                rows = []
                for seed in args.draws:
                    rng = np.random.default_rng(seed)
                    V = rotated(B.eigenvectors, error, rng)
                    if label == "shuffled":
                        perm = rng.permutation(n)
                        rows.append(one(B, V[:, perm] * rng.choice([-1.0, 1.0], n)))
                    else:
                        rows.append(one(B, V, eigenspaces=B.eigenspaces, ordered=True))
                f1 = " / ".join(f"{r[0]:.3f}" + ("W" if r[3] else "") for r in rows)
                edges = " / ".join(str(r[1]) for r in rows)
                cpu = np.median([r[2] for r in rows])
                print(f"| {name} | {error:g} | {label} | {f1} | {edges} / "
                      f"{(B.laplacian.nnz - n) // 2} | {cpu:.1f} |", flush=True)


if __name__ == "__main__":
    main()
