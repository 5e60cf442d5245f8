"""Laplacian inference from eigenvectors, with and without the eigenvalue order.

For every graph: the exact eigenvectors shuffled and sign-flipped (order-free), the
``FourierBasis`` (ordered path: eigenspaces and order), and the eigenvectors perturbed
by a relative Frobenius error ``--noise`` then re-orthonormalised (order-free). Prints
F1, edges found / true, family dimension, number of candidates and time.

Run: ``OPENBLAS_NUM_THREADS=1 python benchmarks/bench_inference.py [--large] [--noise 1e-3]``

Times: wall seconds and CPU seconds of the process (with one BLAS thread, the CPU time
is the wall time of an idle machine; on a shared machine only the CPU time is stable).

``--extra`` adds graphs not used while tuning (caveman, another tree, BA(150, 3), a weighted
G(150, 0.1), a random geometric graph); ``--heldout`` graphs of n ~ 200 not used while
making the inference faster (``HELDOUT``); ``--draws 10 11 12`` prints, per graph, F1 of the
perturbed input for each of those noise draws and the median time. ``--rotated`` runs the
graphs with repeated eigenvalues (``REPEATED``: karate, Les Miserables, breadth-first balls
of Minnesota, trees, caveman graphs, BA(n, 1), pendant pairs) on perturbed inputs, with
and without a random rotation inside every repeated eigenspace (the eigenvectors of a
repeated eigenvalue are defined up to rotation; a learned basis gives an arbitrary one),
one row per graph and rotation with F1, edges, family dimension and CPU seconds per draw
(``--draws``, default 10 11 12). ``--pygsp`` runs PyGSP graphs of 100 to 500 nodes with
their own weights (``PYGSP``: wide kernel weights, rings, a tree, sensor networks), for
each graph seed of ``--seeds`` (default 0). ``--sensors`` sweeps PyGSP's ``Sensor(N, seed)``
(k = 6 nearest neighbours, Gaussian kernel weights, largest component) for N in
``--sizes`` (default 100 150 200 300 400) and each seed of ``--seeds`` (default 0 to 5),
plus unweighted and ``distributed=True`` versions of a few (``SENSOR_VARIANTS``), one row
per input with the warning's class and the spectrum's largest multiplicity.
"""

from __future__ import annotations

import argparse
import time
import warnings

import networkx as nx
import numpy as np

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian, load_graph


def _weighted_random(n, m, seed):
    G = nx.gnm_random_graph(n, m, seed=seed)
    rng = np.random.default_rng(seed)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.uniform(0.1, 2.0)
    return G


def _unweighted(G):
    H = nx.Graph(G)
    nx.set_edge_attributes(H, 1.0, "weight")
    return H


def _largest_component(G):
    return G.subgraph(max(nx.connected_components(G), key=len)).copy()


def _rgg():
    return _largest_component(nx.random_geometric_graph(200, 0.13, seed=5))


def _airfoil_ball(n, seed):
    """Breadth-first ball of ``n`` nodes of PyGSP's Airfoil mesh (unweighted)."""
    import pygsp.graphs as pg
    W = pg.Airfoil().W.tocoo()
    G = nx.Graph()
    G.add_edges_from(zip(W.row.tolist(), W.col.tolist(), strict=True))
    src = int(np.random.default_rng(seed).integers(G.number_of_nodes()))
    ball = G.subgraph(list(nx.bfs_tree(G, src))[:n])
    return nx.convert_node_labels_to_integers(_largest_component(ball))


def _bunny_ball(n, seed):
    """Breadth-first ball of ``n`` nodes of PyGSP's Bunny graph (weighted)."""
    import pygsp.graphs as pg
    W = pg.Bunny().W.tocoo()
    G = nx.Graph()
    G.add_weighted_edges_from((a, b, w) for a, b, w in zip(
        W.row.tolist(), W.col.tolist(), W.data.tolist(), strict=True) if a != b)
    src = int(np.random.default_rng(seed).integers(G.number_of_nodes()))
    ball = G.subgraph(list(nx.bfs_tree(G, src))[:n])
    return nx.convert_node_labels_to_integers(_largest_component(ball))


def _delaunay_paths(n, n_paths, seed):
    """Delaunay triangulation of ``n`` random points with ``n_paths`` pendant paths of 1
    to 4 nodes on random nodes."""
    from scipy.spatial import Delaunay
    rng = np.random.default_rng(seed)
    G = nx.Graph()
    for s in Delaunay(rng.random((n, 2))).simplices:
        G.add_edges_from(((s[0], s[1]), (s[1], s[2]), (s[0], s[2])))
    new = n
    for _ in range(n_paths):
        prev = int(rng.integers(n))
        for _ in range(int(rng.integers(1, 5))):
            G.add_edge(prev, new)
            prev, new = new, new + 1
    return G


def _weighted_gnp(n, p, seed):
    G = nx.gnp_random_graph(n, p, seed=seed)
    rng = np.random.default_rng(3)
    for u, v in G.edges:
        G[u][v]["weight"] = rng.uniform(0.2, 1.5)
    return G


EXTRA = {
    "caveman(8, 10)": lambda: nx.connected_caveman_graph(8, 10),
    "caveman(5, 5)": lambda: nx.connected_caveman_graph(5, 5),
    "tree(150, seed 9)": lambda: nx.random_labeled_tree(150, seed=9),
    "BA(150, 3)": lambda: nx.barabasi_albert_graph(150, 3, seed=7),
    "weighted G(150, 0.1)": lambda: _weighted_gnp(150, 0.1, 11),
    "RGG(200, 0.13)": _rgg,
}


def _delaunay(n, seed):
    """Delaunay mesh of ``n`` uniform random points, weights exp(-d^2 / 0.01)."""
    from scipy.spatial import Delaunay

    P = np.random.default_rng(seed).random((n, 2))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    for s in Delaunay(P).simplices:
        for a, b in ((0, 1), (0, 2), (1, 2)):
            u, v = int(s[a]), int(s[b])
            G.add_edge(u, v, weight=float(np.exp(-np.sum((P[u] - P[v]) ** 2) / 0.01)))
    return G


def _pygsp_sensor(n, seed):
    import pygsp

    return _largest_component(nx.from_scipy_sparse_array(pygsp.graphs.Sensor(n, seed=seed).W))


#: Graphs of n ~ 200 not used while making the inference faster (``--heldout``).
HELDOUT = {
    "G(200, 0.05), seed 2": lambda: _largest_component(nx.gnp_random_graph(200, 0.05, seed=2)),
    "powerlaw_cluster(200, 3, 0.2)": lambda: nx.powerlaw_cluster_graph(200, 3, 0.2, seed=3),
    "PyGSP Sensor(200, seed 7)": lambda: _pygsp_sensor(200, 7),
    "PyGSP Sensor(200, seed 7) unweighted": lambda: _unweighted(_pygsp_sensor(200, 7)),
    "WS(200, 8, 0.05)": lambda: nx.connected_watts_strogatz_graph(200, 8, 0.05, seed=4),
    "weighted Delaunay(200)": lambda: _delaunay(200, 4),
    "tree(200, seed 31)": lambda: nx.random_labeled_tree(200, seed=31),
    "RGG(200, 0.12, seed 9)": lambda: _largest_component(
        nx.random_geometric_graph(200, 0.12, seed=9)),
    "les miserables unweighted": lambda: _unweighted(load_graph("les_miserables")),
    "16-regular(200, seed 3)": lambda: nx.random_regular_graph(16, 200, seed=3),
}


def _pygsp_graph(g):
    """The largest component of the PyGSP graph ``g``, with its weights ``g.W`` (without
    self-loops, which its Laplacian ignores)."""
    import scipy.sparse as sp

    W = sp.csr_array(g.W, dtype=float)
    W.setdiag(0.0)
    W.eliminate_zeros()
    return nx.convert_node_labels_to_integers(
        _largest_component(nx.from_scipy_sparse_array((W + W.T) / 2)))


def _pygsp_knn(n, k, seed):
    """PyGSP's ``NNGraph`` of ``k`` neighbours on ``n`` uniform random points of the
    square (Gaussian kernel weights)."""
    import pygsp.graphs as pg

    return _pygsp_graph(pg.NNGraph(np.random.default_rng(seed).random((n, 2)), k=k))


def pygsp_graphs(seeds):
    """``--pygsp``: PyGSP graphs of 100 to 500 nodes for each graph seed of ``seeds``
    (``LowStretchTree(4)``, which has no seed, once)."""
    import pygsp.graphs as pg

    out = {"PyGSP LowStretchTree(4)": lambda: _pygsp_graph(pg.LowStretchTree(4))}
    for s in seeds:
        out.update({
            f"PyGSP SwissRoll(200, seed {s})": lambda s=s: _pygsp_graph(pg.SwissRoll(200, seed=s)),
            f"PyGSP RandomRing(150, seed {s})": lambda s=s: _pygsp_graph(
                pg.RandomRing(150, seed=s)),
            f"PyGSP NNGraph(150, k 4, seed {s})": lambda s=s: _pygsp_knn(150, 4, s),
            f"PyGSP Sensor(300, seed {s})": lambda s=s: _pygsp_graph(pg.Sensor(300, seed=s)),
            f"PyGSP Community(200, seed {s})": lambda s=s: _pygsp_graph(
                pg.Community(200, seed=s)),
            f"PyGSP DavidSensorNet(500, seed {s})": lambda s=s: _pygsp_graph(
                pg.DavidSensorNet(500, seed=s)),
        })
    return out


SENSOR_SIZES = (100, 150, 200, 300, 400)
SENSOR_SEEDS = (0, 1, 2, 3, 4, 5)
# (N, seed, variant): a few unweighted and distributed=True sensor networks beside the sweep
# (PyGSP distributes the points on a grid: N a perfect square)
SENSOR_VARIANTS = ((150, 0, "unweighted"), (200, 2, "unweighted"), (300, 4, "unweighted"),
                   (144, 1, "distributed"), (196, 3, "distributed"), (289, 5, "distributed"))


def sensor_graphs(sizes, seeds):
    """``--sensors``: PyGSP ``Sensor(N, seed)`` for every size and seed, then the
    variants of ``SENSOR_VARIANTS`` (unweighted: all weights 1; distributed: PyGSP's
    ``distributed=True`` points)."""
    import pygsp.graphs as pg

    out = {}
    for n in sizes:
        for s in seeds:
            out[f"PyGSP Sensor({n}, seed {s})"] = lambda n=n, s=s: _pygsp_graph(
                pg.Sensor(n, seed=s))
    for n, s, variant in SENSOR_VARIANTS:
        if variant == "unweighted":
            out[f"PyGSP Sensor({n}, seed {s}) unweighted"] = lambda n=n, s=s: _unweighted(
                _pygsp_graph(pg.Sensor(n, seed=s)))
        else:
            out[f"PyGSP Sensor({n}, seed {s}) distributed"] = lambda n=n, s=s: _pygsp_graph(
                pg.Sensor(n, distributed=True, seed=s))
    return out


def sensor_rows(names, sizes, seeds, inputs, noise):
    """One row per sensor network of ``sensor_graphs`` and input: F1, edges, family
    dimension, candidates, the warnings' classes, the largest eigenvalue multiplicity,
    CPU seconds."""
    print("| graph | n | mult. | input | F1 | edges found / true | family dim. | candidates | "
          "warning | cpu s |\n|---|---|---|---|---|---|---|---|---|---|")
    for name, make in sensor_graphs(sizes, seeds).items():
        if names and name not in names:
            continue
        B = fourier_basis(make())
        mult = max(len(g) for g in B.eigenspaces)
        rng = np.random.default_rng(0)
        rows = [("exact", _shuffle(B.eigenvectors, rng)),
                ("perturbed", _shuffle(_perturb(B.eigenvectors, noise, rng), rng))]
        for key, basis in rows:
            if inputs and key not in inputs:
                continue
            c = time.process_time()
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                res = infer_laplacian(basis, rng=0)
            dc = time.process_time() - c
            cmp = compare_graphs(B.laplacian, res.laplacian)
            kinds = ", ".join(sorted({w.category.__name__ for w in caught})) or "-"
            print(f"| {name} | {B.n} | {mult} | {key} | {cmp['f1']:.4f} | "
                  f"{cmp['n_edges_hat']} / {cmp['n_edges_true']} | {res.family_dimension} | "
                  f"{res.n_candidates} | {kinds} | {dc:.2f} |", flush=True)


def _minnesota_ball(n, seed):
    """Breadth-first ball of ``n`` nodes of Minnesota around a random node (largest
    component)."""
    M = load_graph("minnesota")
    nodes = list(M)
    src = nodes[int(np.random.default_rng(seed).integers(len(nodes)))]
    ball = _largest_component(M.subgraph(list(nx.bfs_tree(M, src))[:n]))
    return nx.convert_node_labels_to_integers(ball)


def _pendant_pairs(n, k, seed):
    """BA(n, 2) with two pendant leaves on each of ``k`` random nodes."""
    G = nx.barabasi_albert_graph(n, 2, seed=seed)
    new = n
    for v in np.random.default_rng(seed).choice(n, k, replace=False):
        G.add_edges_from(((int(v), new), (int(v), new + 1)))
        new += 2
    return G


#: Graphs with repeated eigenvalues (``--rotated``).
REPEATED = {
    "karate": lambda: load_graph("karate"),
    "karate unweighted": lambda: load_graph("karate", weighted=False),
    "les miserables": lambda: load_graph("les_miserables"),
    "minnesota ball 60, seed 0": lambda: _minnesota_ball(60, 0),
    "minnesota ball 80, seed 0": lambda: _minnesota_ball(80, 0),
    "minnesota ball 80, seed 1": lambda: _minnesota_ball(80, 1),
    "minnesota ball 120, seed 2": lambda: _minnesota_ball(120, 2),
    "minnesota ball 200, seed 3": lambda: _minnesota_ball(200, 3),
    "tree(100, seed 1)": lambda: nx.random_labeled_tree(100, seed=1),
    "caveman(6, 8)": lambda: nx.connected_caveman_graph(6, 8),
    "caveman(4, 5)": lambda: nx.connected_caveman_graph(4, 5),
    "BA(100, 1)": lambda: nx.barabasi_albert_graph(100, 1, seed=2),
    "BA(80, 2) + 10 pendant pairs": lambda: _pendant_pairs(80, 10, 5),
}


def graphs(large: bool, extra: bool = False, heldout: bool = False, pygsp=None):
    if pygsp is not None:
        return pygsp_graphs(pygsp)
    out = {
        "karate": lambda: load_graph("karate"),
        "karate unweighted": lambda: load_graph("karate", weighted=False),
        "les miserables": lambda: load_graph("les_miserables"),
        "sensor-200": lambda: load_graph("sensor"),
        "sensor-200 unweighted": lambda: _unweighted(load_graph("sensor")),
        "grid 15x15": lambda: load_graph("grid"),
        "SBM 4x50": lambda: load_graph("sbm"),
        "BA(200, 2)": lambda: nx.barabasi_albert_graph(200, 2, seed=1),
        "WS(200, 6, 0.1)": lambda: nx.connected_watts_strogatz_graph(200, 6, 0.1, seed=1),
        "ER(200, 0.15)": lambda: nx.gnp_random_graph(200, 0.15, seed=2),
        "ER(200, 0.3)": lambda: nx.gnp_random_graph(200, 0.3, seed=2),
        "6-regular(200)": lambda: nx.random_regular_graph(6, 200, seed=3),
        "tree(200)": lambda: nx.random_labeled_tree(200, seed=4),
        "weighted G(200, 800)": lambda: _weighted_random(200, 800, 5),
    }
    if large:
        out["sensor-1000"] = lambda: load_graph("sensor", n=1000)
        out["WS(1000, 6, 0.1)"] = lambda: nx.connected_watts_strogatz_graph(1000, 6, 0.1, seed=1)
        out["SBM 4x250"] = lambda: nx.stochastic_block_model(
            [250] * 4, [[0.04 if a == b else 0.002 for b in range(4)] for a in range(4)], seed=3)
        out["RGG(1000, 0.06)"] = lambda: _largest_component(
            nx.random_geometric_graph(1000, 0.06, seed=5))
        out["BA(1000, 2)"] = lambda: nx.barabasi_albert_graph(1000, 2, seed=1)
        out["weighted G(1000, 5000)"] = lambda: _weighted_random(1000, 5000, 7)
        out["minnesota"] = lambda: load_graph("minnesota")
        # not looked at while designing the local columns (step 10 of the docs)
        out["sensor-1000 seed 7"] = lambda: load_graph("sensor", n=1000, seed=7)
        out["RGG(1000, 0.07) seed 11"] = lambda: _largest_component(
            nx.random_geometric_graph(1000, 0.07, seed=11))
        out["hexagonal lattice 20x24"] = lambda: nx.hexagonal_lattice_graph(20, 24)
        # road-like graphs beside Minnesota, not looked at while designing the family
        # member search (module _family_member)
        out["airfoil ball 2000"] = lambda: _airfoil_ball(2000, 0)
        out["Delaunay(1500) + 150 paths"] = lambda: _delaunay_paths(1500, 150, 1)
        # held out: not used while removing the coarse re-search
        # (docs/measurements/speed-and-scale.md)
        out["held out: PyGSP Sensor(1000, seed 21)"] = lambda: _pygsp_sensor(1000, 21)
        out["held out: powerlaw_cluster(1000, 3, 0.1)"] = lambda: nx.powerlaw_cluster_graph(
            1000, 3, 0.1, seed=2)
        out["held out: RGG(1200, 0.05) seed 3"] = lambda: _largest_component(
            nx.random_geometric_graph(1200, 0.05, seed=3))
        out["held out: airfoil ball 1000 seed 5"] = lambda: _airfoil_ball(1000, 5)
        out["held out: bunny ball 1000"] = lambda: _bunny_ball(1000, 1)
        # held out: not used by any change before (docs/measurements/speed-and-scale.md,
        # "n = 1000 on graphs not used before"); the first one's exact input takes over
        # 240 CPU s
        out["held out: RGG(1000, 0.055) seed 31"] = lambda: _largest_component(
            nx.random_geometric_graph(1000, 0.055, seed=31))
        out["held out: BA(1000, 3) seed 7"] = lambda: nx.barabasi_albert_graph(1000, 3, seed=7)
        out["held out: PyGSP Sensor(1000, seed 3)"] = lambda: _pygsp_sensor(1000, 3)
        out["held out: WS(1000, 4, 0.1) seed 5"] = lambda: nx.connected_watts_strogatz_graph(
            1000, 4, 0.1, seed=5)
        out["held out: powerlaw_cluster(1000, 4, 0.3) seed 8"] = lambda: (
            nx.powerlaw_cluster_graph(1000, 4, 0.3, seed=8))
        out["held out: SBM 5x200 seed 9"] = lambda: _largest_component(nx.stochastic_block_model(
            [200] * 5, [[0.05 if a == b else 0.002 for b in range(5)] for a in range(5)],
            seed=9))
        out["held out: weighted G(1000, 4000) seed 11"] = lambda: _weighted_random(1000, 4000, 11)
        out["held out: tree(1000) seed 10"] = lambda: nx.random_labeled_tree(1000, seed=10)
        out["held out: grid 25x40"] = lambda: nx.convert_node_labels_to_integers(
            nx.grid_2d_graph(25, 40))
    if extra:
        out.update(EXTRA)
    if heldout:
        out.update(HELDOUT)
    return out


def _shuffle(V, rng):
    n = V.shape[1]
    return V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def _perturb(V, rel, rng):
    E = rng.standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + rel * np.linalg.norm(V) * E / np.linalg.norm(E))
    return U @ Wt


def sweep_inputs(B) -> dict:
    """The sweeps' inputs of a graph's Fourier basis ``B``: ``"exact"``, its eigenvectors
    shuffled and sign-flipped, and ``"perturbed"``, perturbed by a relative Frobenius
    error 1e-3 then shuffled, from one generator (seed 0)."""
    rng = np.random.default_rng(0)
    inputs = {"exact": _shuffle(B.eigenvectors, rng)}
    inputs["perturbed"] = _shuffle(_perturb(B.eigenvectors, 1e-3, rng), rng)
    return inputs


def timed_inference(V):
    """``infer_laplacian(V, rng=0)``, its CPU seconds and the warnings it raised."""
    t = time.process_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    return res, time.process_time() - t, caught


def _rotate(B, rng):
    """The eigenvectors with a random rotation inside every repeated eigenspace."""
    V = B.eigenvectors.copy()
    for g in B.eigenspaces:
        if len(g) > 1:
            Q, R = np.linalg.qr(rng.standard_normal((len(g), len(g))))
            V[:, g] = V[:, g] @ (Q * np.sign(np.diag(R)))
    return V


def rotated_rows(names, seeds, noise):
    """``--rotated``: perturbed inputs of ``REPEATED``, plain and rotated, per draw."""
    print("| graph | n | multiplicity | rotated | F1 per draw | edges / true | family dim. | "
          "candidates | W | cpu s |\n|---|---|---|---|---|---|---|---|---|---|")
    for name, make in REPEATED.items():
        if names and name not in names:
            continue
        B = fourier_basis(make())
        mult = max(len(g) for g in B.eigenspaces)
        for rotated in (False, True):
            f1, edges, dims, cands, warned, cpu = [], [], [], [], [], []
            for seed in seeds:
                rng = np.random.default_rng(seed)
                V = _rotate(B, rng) if rotated else B.eigenvectors
                basis = _shuffle(_perturb(V, noise, rng), rng)
                t = time.process_time()
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    res = infer_laplacian(basis, rng=0)
                cpu.append(time.process_time() - t)
                cmp = compare_graphs(B.laplacian, res.laplacian)
                f1.append(f"{cmp['f1']:.3f}")
                edges.append(str(cmp["n_edges_hat"]))
                dims.append(str(res.family_dimension))
                cands.append(str(res.n_candidates))
                warned.append("W" if caught else "-")
            print(f"| {name} | {B.n} | {mult} | {'yes' if rotated else 'no'} | {' / '.join(f1)} | "
                  f"{'/'.join(edges)} / {cmp['n_edges_true']} | {'/'.join(dims)} | "
                  f"{'/'.join(cands)} | {''.join(warned)} | "
                  f"{' / '.join(f'{x:.2f}' for x in cpu)} |", flush=True)


def run(B, basis):
    t, c = time.perf_counter(), time.process_time()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(basis, rng=0)
    dt, dc = time.perf_counter() - t, time.process_time() - c
    cmp = compare_graphs(B.laplacian, res.laplacian)
    names = sorted({type(w.message).__name__ for w in caught})
    flag = f" ({', '.join(names)})" if names else ""
    return (f"{cmp['f1']:.4f} | {cmp['n_edges_hat']} / {cmp['n_edges_true']} | "
            f"{res.family_dimension} | {res.n_candidates} | {dt:.2f} | {dc:.2f}{flag}")


def draws(B, seeds, noise):
    """F1 of the perturbed input for each noise draw, and the median time."""
    f1, times = [], []
    for seed in seeds:
        rng = np.random.default_rng(seed)
        basis = _shuffle(_perturb(B.eigenvectors, noise, rng), rng)
        t = time.process_time()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            res = infer_laplacian(basis, rng=0)
        times.append(time.process_time() - t)
        f1.append(f"{compare_graphs(B.laplacian, res.laplacian)['f1']:.3f}"
                  + ("W" if caught else ""))
    return f"{' / '.join(f1)} | {np.median(times):.1f}"


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--large", action="store_true",
                    help="add n = 1000 graphs (sensor, WS, SBM, RGG, BA, weighted G, another "
                         "sensor and RGG, a hexagonal lattice), Minnesota and two road-like "
                         "graphs (a ball of 2000 nodes of Airfoil, a Delaunay mesh with "
                         "pendant paths)")
    ap.add_argument("--noise", type=float, default=1e-3)
    ap.add_argument("--only", nargs="*", help="graph names to run")
    ap.add_argument("--extra", action="store_true", help="add graphs not used for tuning")
    ap.add_argument("--heldout", action="store_true",
                    help="add graphs of n ~ 200 not used while making the inference faster")
    ap.add_argument("--pygsp", action="store_true",
                    help="PyGSP graphs of 100 to 500 nodes with their own weights (only these)")
    ap.add_argument("--seeds", nargs="*", type=int,
                    help="graph seeds of --pygsp (default 0) and --sensors (default 0 to 5)")
    ap.add_argument("--sensors", action="store_true",
                    help="sweep PyGSP Sensor(N, seed) over --sizes and --seeds (only these)")
    ap.add_argument("--sizes", nargs="*", type=int, default=list(SENSOR_SIZES),
                    help="sizes N of --sensors (default 100 150 200 300 400)")
    ap.add_argument("--draws", nargs="*", type=int, help="noise seeds: perturbed F1 per draw")
    ap.add_argument("--inputs", nargs="*", choices=("exact", "ordered", "perturbed"),
                    help="inputs to run (default: all three)")
    ap.add_argument("--rotated", action="store_true",
                    help="graphs with repeated eigenvalues, perturbed, with and without a "
                         "random rotation inside each repeated eigenspace, per draw")
    args = ap.parse_args()
    if args.sensors:
        sensor_rows(args.only, args.sizes, args.seeds if args.seeds else SENSOR_SEEDS,
                    args.inputs, args.noise)
        return
    if args.seeds is None:
        args.seeds = [0]
    if args.rotated:
        rotated_rows(args.only, args.draws or (10, 11, 12), args.noise)
        return
    if args.draws:
        print("| graph | n | F1 per draw (W: refused) | median cpu s |\n|---|---|---|---|")
        for name, make in graphs(args.large, args.extra, args.heldout,
                                    args.seeds if args.pygsp else None).items():
            if not args.only or name in args.only:
                B = fourier_basis(make())
                print(f"| {name} | {B.n} | {draws(B, args.draws, args.noise)} |", flush=True)
        return
    print("| graph | n | input | F1 | edges found / true | family dim. | candidates | s | cpu s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, make in graphs(args.large, args.extra, args.heldout,
                                    args.seeds if args.pygsp else None).items():
        if args.only and name not in args.only:
            continue
        G = make()
        B = fourier_basis(G)
        rng = np.random.default_rng(0)
        rows = [("exact", "exact, shuffled", _shuffle(B.eigenvectors, rng)),
                ("ordered", "FourierBasis (ordered)", B),
                ("perturbed", f"perturbed {args.noise:g}, shuffled",
                 _shuffle(_perturb(B.eigenvectors, args.noise, rng), rng))]
        for key, label, basis in rows:
            if args.inputs and key not in args.inputs:
                continue
            print(f"| {name} | {B.n} | {label} | {run(B, basis)} |", flush=True)


if __name__ == "__main__":
    main()
