"""Cost of the weighted cycle read's gate on bases that are no cycle.

``infer_laplacian`` asks ``_weighted_cycle.weighted_cycle`` of every unordered
combinatorial basis of 7 to 1000 nodes: the roundest pair of columns
(``_cycle_read.round_pairs``), then one eigensolve (``band_misfit``); past the gate,
the cycle's fit and the repair of its order. For each graph and input (exact
eigenvectors, or perturbed by a relative Frobenius error 1e-3, as
``bench_inference.py`` builds them, draw 0), the table gives the median CPU seconds
over ``--repeats`` runs of

- ``round_pairs(V, zero, 1)`` and of the plain ranking of every pair in double
  precision (the loop ``round_pairs`` ran before its single-precision pass), their ratio
  measured in the same run, and whether both give the same pair;
- the whole ``weighted_cycle`` call, and whether the gate passed (``band_misfit`` at most
  ``MAX_NOISE``) and a cycle was read.

Run::

    OPENBLAS_NUM_THREADS=1 python benchmarks/bench_cycle_gate.py [--repeats 5]
        [--only ws-1000 ...] [--threads 1]

Graphs: Watts-Strogatz, Barabasi-Albert (twin nodes), PyGSP sensor and random ring
graphs, a grid, at 200, 500 and 1000 nodes, and random orthogonal matrices holding the
constant vector ("arbitrary data", no graph behind them).
"""

from __future__ import annotations

import argparse
import statistics
import time

import networkx as nx
import numpy as np
from _threads import limit_blas_threads
from bench_inference import _perturb, _shuffle


def _pygsp(name, n, seed):
    import pygsp

    return nx.from_scipy_sparse_array(getattr(pygsp.graphs, name)(n, seed=seed).W)


GRAPHS = {
    "ws-200": lambda: nx.connected_watts_strogatz_graph(200, 6, 0.1, seed=1),
    "ba-200": lambda: nx.barabasi_albert_graph(200, 2, seed=1),
    "sensor-200": lambda: _pygsp("Sensor", 200, 1),
    "ring-200": lambda: _pygsp("RandomRing", 200, 1),
    "grid-15x15": lambda: nx.grid_2d_graph(15, 15),
    "ba-500": lambda: nx.barabasi_albert_graph(500, 2, seed=2),
    "sensor-500": lambda: _pygsp("Sensor", 500, 2),
    "ws-1000": lambda: nx.connected_watts_strogatz_graph(1000, 6, 0.1, seed=3),
    "ba-1000": lambda: nx.barabasi_albert_graph(1000, 2, seed=3),
    "ring-1000": lambda: _pygsp("RandomRing", 1000, 9),
}
#: Random orthogonal matrices (no graph): their sizes.
ARBITRARY = {"orthogonal-500": 500, "orthogonal-1000": 1000}


def all_pairs_roundest(V, zero_column: int) -> tuple[int, int]:
    """The roundest pair ranked as ``round_pairs`` ranked every pair in double precision
    (per column, the radii's coefficient of variation against every later column)."""
    columns = np.array([k for k in range(V.shape[1]) if k != zero_column])
    squares = V[:, columns] ** 2
    found = []
    for i in range(columns.size - 1):
        radii = np.sqrt(squares[:, i : i + 1] + squares[:, i + 1 :])
        variation = radii.std(axis=0) / radii.mean(axis=0)
        j = int(np.argmin(variation))
        found.append((float(variation[j]), int(columns[i]), int(columns[i + 1 + j])))
    found.sort()
    return found[0][1], found[0][2]


def _median_cpu(function, repeats: int):
    times, result = [], None
    for _ in range(repeats):
        start = time.process_time()
        result = function()
        times.append(time.process_time() - start)
    return statistics.median(times), result


def _inputs(name):
    """``(kind, V)`` for the exact and the perturbed input of ``name``."""
    rng = np.random.default_rng(0)
    if name in ARBITRARY:
        n = ARBITRARY[name]
        M = rng.standard_normal((n, n))
        M[:, 0] = 1.0  # a combinatorial basis holds the constant vector
        Q, _ = np.linalg.qr(M)
        return [("arbitrary", _shuffle(Q, rng))]
    from gsp_householder import fourier_basis

    V = fourier_basis(nx.convert_node_labels_to_integers(GRAPHS[name]())).eigenvectors
    exact = _shuffle(V, rng)
    return [("exact", exact), ("perturbed", _shuffle(_perturb(V, 1e-3, rng), rng))]


def main() -> None:
    from gsp_householder.graphs._basis_input import _anchored_pair_basis, _read_basis
    from gsp_householder.graphs._cycle_read import _angle_order, round_pairs
    from gsp_householder.graphs._thresholds import MAX_NOISE
    from gsp_householder.graphs._weighted_cycle import band_misfit, weighted_cycle

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--only", nargs="*", default=None)
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    limit_blas_threads(args.threads)
    names = args.only or [*GRAPHS, *ARBITRARY]
    print(
        "| basis | input | n | round_pairs s | all pairs s | ratio | same pair "
        "| gate passed | cycle read | weighted_cycle s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name in names:
        for kind, V in _inputs(name):
            basis = _read_basis(V, None, False, "combinatorial", None)
            _anchored_pair_basis(basis)
            zero = basis["zero_column"]
            W = np.asarray(basis["V"])
            fast, pair = _median_cpu(lambda: round_pairs(W, zero, 1)[0], args.repeats)  # noqa: B023
            plain, reference = _median_cpu(lambda: all_pairs_roundest(W, zero), args.repeats)  # noqa: B023
            gate = band_misfit(basis, _angle_order(W, *pair)) <= MAX_NOISE
            whole, found = _median_cpu(lambda: weighted_cycle(basis), args.repeats)  # noqa: B023
            print(
                f"| {name} | {kind} | {V.shape[0]} | {fast:.3f} | {plain:.3f} "
                f"| {plain / fast:.1f} | {'yes' if pair == reference else 'no'} "
                f"| {'yes' if gate else 'no'} | {'yes' if found is not None else 'no'} "
                f"| {whole:.3f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
