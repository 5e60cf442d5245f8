"""Which edges eigenvectors perturbed by a relative error ``rel`` can tell from non-edges.

For the true Laplacian $L$ of a graph, an eigenvector basis perturbed as the benchmarks
perturb it (relative Frobenius error ``rel``, then re-orthonormalised: a rotation
$V e^S$ with $S$ antisymmetric of entry variance $\\sigma^2 = \\mathrm{rel}^2 / 2n$)
moves the entry $L_{ij}$ read with the true eigenvalues by a standard error
$\\sigma \\sqrt{(L_{ii} - L_{jj})^2 + r_i + r_j - 2 L_{ij}^2}$ (module
``gsp_householder.graphs._edge_significance``). An edge whose weight over that error is
below the one-sided Bonferroni quantile over the edges (family-wise level
``EDGE_LEVEL``) cannot be told from a non-edge at that noise level by any method: the
graph of the other edges (the *significant graph*) is the best an inference can be
sure of, and its F1 against the truth is the ceiling of a sure answer.

Per graph the table gives the edges, the spread of the weights, the smallest nonzero
eigenvalue relative to the mean one (the noisy searches ask every eigenvalue to clear the
noise level they show, about ``rel``), the edges below the noise, the significant
graph's F1 and connected components, and how well the truth and the significant graph
fit one perturbed draw (off-diagonal part of $\\tilde V^T L \\tilde V$ relative to
$\\|L\\|_F$).

Usage::

    python benchmarks/bench_identifiable_edges.py            # SwissRoll, David, NNGraph
    python benchmarks/bench_identifiable_edges.py --rel 1e-4
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import networkx as nx
import numpy as np
import scipy.sparse as sp
from scipy.special import ndtri

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_inference import _perturb, _pygsp_graph

from gsp_householder.graphs._edge_significance import (
    EDGE_LEVEL,
    node_terms,
    pair_scale,
)
from gsp_householder.graphs.fourier import fourier_basis


def identifiable_edges(L, rel: float, level: float = EDGE_LEVEL) -> dict:
    """The edges of the Laplacian ``L`` significantly nonzero under a perturbation ``rel``.

    Parameters
    ----------
    L : sparse array of shape (n, n)
        The true Laplacian.
    rel : float
        Relative Frobenius error of the eigenvector basis (before re-orthonormalising).
    level : float
        Family-wise level of the one-sided test over the edges (Bonferroni).

    Returns
    -------
    dict
        ``"rows"``, ``"cols"`` (the edges, $i < j$), ``"weights"``, ``"z"`` (weight over
        its standard error), ``"threshold"`` and ``"significant"`` (mask of the edges
        whose ``z`` reaches the threshold).
    """
    L = sp.csr_array(L, dtype=float)
    n = L.shape[0]
    upper = sp.triu(L, 1).tocoo()
    weights = -upper.data
    d, r = node_terms(L)
    sigma = rel / np.sqrt(2.0 * n)
    z = weights / (sigma * pair_scale(d, r, upper.row, upper.col, upper.data))
    threshold = float(ndtri(1.0 - level / max(weights.size, 1)))
    return {"rows": upper.row, "cols": upper.col, "weights": weights, "z": z,
            "threshold": threshold, "significant": z >= threshold}


def _off_diagonal_residual(V, L) -> float:
    M = V.T @ (L @ V)
    return float(np.linalg.norm(M - np.diag(np.diag(M))) / sp.linalg.norm(L))


def row(name, G, rel, seed=0):
    """One line of the table for the graph ``G``."""
    B = fourier_basis(G)
    L = sp.csr_array(B.laplacian, dtype=float)
    n = B.n
    lam = np.sort(B.eigenvalues)
    res = identifiable_edges(L, rel)
    sig = res["significant"]
    m, k = sig.size, int(sig.sum())
    W = sp.coo_array((res["weights"][sig], (res["rows"][sig], res["cols"][sig])), shape=(n, n))
    W = sp.csr_array(W + W.T)
    Ls = sp.csr_array(sp.diags_array(np.asarray(W.sum(axis=1)).ravel()) - W)
    components = sp.csgraph.connected_components(W, directed=False)[0]
    Vp = _perturb(B.eigenvectors, rel, np.random.default_rng(seed))
    truth, significant = _off_diagonal_residual(Vp, L), _off_diagonal_residual(Vp, Ls)
    w = res["weights"]
    return (f"| {name} | {n} | {m} | {w.min() / w.max():.1e} | {lam[1] * n / lam.sum():.1e} | "
            f"{m - k} ({(m - k) / m:.0%}) | {2 * k / (k + m):.3f} | {components} | "
            f"{truth:.2e} | {significant / truth:.3f} |")


def graphs():
    import pygsp.graphs as pg

    out = {f"SwissRoll(200, seed {s})": (lambda s=s: _pygsp_graph(pg.SwissRoll(200, seed=s)))
           for s in range(5)}
    out["SwissRoll(300, seed 0)"] = lambda: _pygsp_graph(pg.SwissRoll(300, seed=0))
    out["DavidSensorNet(500)"] = lambda: _pygsp_graph(pg.DavidSensorNet(500, seed=0))
    for s in (0, 1):
        out[f"NNGraph(200 3-D points, seed {s})"] = (lambda s=s: _pygsp_graph(
            pg.NNGraph(np.random.default_rng(s).random((200, 3)))))
    # narrower Gaussian kernels: weights spanning 2 to 5 decades
    for s, width in ((5, 0.01), (6, 0.02)):
        out[f"NNGraph(200 3-D points, sigma {width}, seed {s})"] = (
            lambda s=s, width=width: _pygsp_graph(
                pg.NNGraph(np.random.default_rng(s).random((200, 3)), sigma=width)))
    for s, width in ((3, 0.01), (4, 0.02)):
        out[f"Bunny(250 points, sigma {width}, seed {s})"] = (
            lambda s=s, width=width: _bunny_points(250, width, s))
    return out


def _bunny_points(n, width, seed):
    """PyGSP's ``NNGraph`` (10 neighbours, Gaussian kernel of width ``width``) on ``n``
    points of the Bunny point cloud drawn without replacement."""
    import pygsp.graphs as pg

    coords = pg.Bunny().coords
    idx = np.random.default_rng(seed).choice(coords.shape[0], n, replace=False)
    return _pygsp_graph(pg.NNGraph(coords[idx], sigma=width))


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rel", type=float, default=1e-3, help="relative perturbation")
    ap.add_argument("--only", nargs="*", help="graph names to run")
    args = ap.parse_args()
    print("| graph | n | edges | weights min / max | lambda_2 / mean | edges below the noise | "
          "F1 of the significant graph | its components | truth's residual (perturbed) | "
          "significant graph's / truth's |\n|---|---|---|---|---|---|---|---|---|---|")
    for name, make in graphs().items():
        if not args.only or name in args.only:
            G = make()
            print(row(name, nx.convert_node_labels_to_integers(G), args.rel), flush=True)


if __name__ == "__main__":
    main()
