"""End-to-end demo: graph -> Householder Fourier basis -> signals -> recovery -> graph.

``run_demo`` writes ``report.md`` and PNG figures into ``out_dir``. For the
chosen graph and, as a contrast, for a graph outside the method's reach, it
runs: the Householder Fourier basis (fewest reflectors found), signals under
the paper's model, the paper's estimator (Algorithm 3) and the structured
refinement, Laplacian inference from each recovered basis and from the exact
one, and the comparison with the true graph.
"""

from __future__ import annotations

import pathlib
import time
import warnings

import numpy as np

__all__ = ["run_demo"]

DEFAULT_GRAPH = "complete"
CONTRAST_GRAPH = "karate"


def _dense(V):
    return V.to_dense() if hasattr(V, "to_dense") else np.asarray(V, dtype=np.float64)


def _complete_graph(n):
    import scipy.sparse as sp

    from gsp_householder.graphs.inferred import InferredLaplacian

    L = sp.csr_array(n * np.eye(n) - np.ones((n, n)))
    return InferredLaplacian(L, np.full(n, float(n)), n * (n - 1) // 2, 0.0)


def _pipeline(name, *, seed, n_signals, theta, progress):
    from gsp_householder.graphs.comparison import compare_graphs
    from gsp_householder.graphs.datasets import load_graph
    from gsp_householder.graphs.fourier import fourier_basis, group_eigenvalues
    from gsp_householder.graphs.householder_basis import householder_fourier_basis
    from gsp_householder.graphs.laplacian_inference import infer_laplacian
    from gsp_householder.learning.paper import estimate_householder_product
    from gsp_householder.metrics import match_columns, matched_basis_error
    from gsp_householder.model import BernoulliUniform, make_signals

    def say(msg):
        if progress is not None:
            progress(f"[{name}] {msg}")

    G = load_graph(name)
    nodes = list(G)
    B = fourier_basis(G)
    L_true = B.laplacian
    V, lam_cols = householder_fourier_basis(G, return_eigenvalues=True)
    n, m = V.n, V.m
    p = 10 * n if n_signals is None else int(n_signals)
    say(f"n={n}, Householder Fourier basis with m={m} reflectors; drawing {p} signals")
    Y, _ = make_signals(V, p, BernoulliUniform(theta), rng=np.random.default_rng(seed))
    Vd = V.to_dense()
    rows = []
    estimates = {"exact basis (reference)": V}
    notes = []

    def recorded(label, func, *args, **kwargs):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = func(*args, **kwargs)
        notes.extend(f"{label}: warning: {w.message}" for w in caught)
        return value

    t = time.perf_counter()
    estimates["paper, Algorithm 3"] = recorded("paper, Algorithm 3",
                                               estimate_householder_product, Y, m)
    times = {"exact basis (reference)": 0.0, "paper, Algorithm 3": time.perf_counter() - t}
    try:
        from gsp_householder.learning.refinement import refine_householder_product
    except ImportError:  # pragma: no cover - depends on the installed version
        notes.append("The structured refinement is not available in this installation; "
                     "it was skipped.")
    else:
        t = time.perf_counter()
        res = recorded("structured refinement", refine_householder_product, Y, m,
                       rng=np.random.default_rng(seed + 1))
        estimates["structured refinement"] = res.dictionary
        times["structured refinement"] = time.perf_counter() - t
    estimates["identity (trivial estimate)"] = np.eye(n)
    times["identity (trivial estimate)"] = 0.0
    inferred = {}
    for label, Vh in estimates.items():
        say(f"{label}: Laplacian inference")
        Vhd = _dense(Vh)
        err = matched_basis_error(Vd, Vhd)
        t = time.perf_counter()
        # A learned basis comes without eigenvalue order, so no order is assumed.
        try:
            out = recorded(f"{label}, inference", infer_laplacian, Vhd, ordered=False,
                           tol=1e-3, rng=np.random.default_rng(seed))
        except ValueError as exc:
            notes.append(f"{label}: no Laplacian inferred ({exc}); counted as the complete "
                         "graph")
            out = _complete_graph(n)
        t_inf = time.perf_counter() - t
        cmp = compare_graphs(L_true, out.laplacian)
        inferred[label] = out
        rows.append({"method": label, "basis_error": err, "relative_basis_error": err / np.sqrt(n),
                     "time_recovery": times[label], "time_inference": t_inf, **cmp})
        if label.startswith("identity"):
            continue
        # Oracle: each learned column takes the eigenvalue of the true column it matches,
        # which gives the order and the eigenspaces (not available from signals alone).
        perm, _ = match_columns(Vd, Vhd)
        lam_hat = np.empty(n)
        lam_hat[perm] = lam_cols
        order = np.argsort(lam_hat, kind="stable")
        groups = group_eigenvalues(lam_hat[order], 1e-8)
        t = time.perf_counter()
        try:
            out = recorded(f"{label}, inference with oracle order", infer_laplacian,
                           Vhd[:, order], eigenspaces=groups, ordered=True, tol=1e-3,
                           rng=np.random.default_rng(seed))
        except ValueError as exc:
            notes.append(f"{label} + oracle eigenvalue order: no Laplacian ({exc})")
            continue
        t_inf = time.perf_counter() - t
        inferred[label + " + oracle order"] = out
        rows.append({"method": label + " + oracle eigenvalue order", "basis_error": err,
                     "relative_basis_error": err / np.sqrt(n), "time_recovery": times[label],
                     "time_inference": t_inf, **compare_graphs(L_true, out.laplacian)})
    # Reference: the exact eigenbasis with its eigenvalue order and eigenspaces.
    t = time.perf_counter()
    out = infer_laplacian(B, rng=np.random.default_rng(seed))
    t_inf = time.perf_counter() - t
    rows.append({"method": "exact basis, eigenvalue order known", "basis_error": 0.0,
                 "relative_basis_error": 0.0, "time_recovery": 0.0, "time_inference": t_inf,
                 **compare_graphs(L_true, out.laplacian)})
    inferred["exact basis, eigenvalue order known"] = out
    return {"name": name, "graph": G, "nodes": nodes, "n": n, "m": m, "p": p, "theta": theta,
            "rows": rows, "inferred": inferred, "L_true": L_true, "notes": notes}


def _table(rows):
    head = ("| method | basis error $\\|V-\\hat VP\\|_F$ | relative | edges found / true | "
            "precision | recall | F1 | rel. Laplacian error | recovery s | inference s |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n")
    body = "".join(
        f"| {r['method']} | {r['basis_error']:.3g} | {r['relative_basis_error']:.3g} | "
        f"{r['n_edges_hat']} / {r['n_edges_true']} | {r['precision']:.3f} | {r['recall']:.3f} | "
        f"{r['f1']:.3f} | {r['relative_error']:.3g} | {r['time_recovery']:.2f} | "
        f"{r['time_inference']:.2f} |\n" for r in rows)
    return head + body


def run_demo(graph: str = DEFAULT_GRAPH, out_dir="gsp_householder_demo", *, seed: int = 0,
             n_signals: int | None = None, progress=None) -> pathlib.Path:
    """Run the whole pipeline on a graph and write ``report.md`` with figures.

    Parameters
    ----------
    graph : str, default "complete"
        A name from ``gsp_householder.graphs.datasets.list_graphs()``. The default is a
        graph whose Fourier basis is a product of few reflectors, the case where
        recovery from signals can work; the report adds karate, where it cannot.
    out_dir : str or path-like, default "gsp_householder_demo"
        Created if needed.
    seed : int, default 0
        Seed of the signals and of the randomised steps.
    n_signals : int, optional
        Number of signals; default ten times the number of nodes.
    progress : callable, optional
        Called with one-line status messages (for example ``print``).

    Returns
    -------
    pathlib.Path
        Path of ``report.md``.

    Raises
    ------
    ValueError
        For an unknown graph name.

    Examples
    --------
    >>> import tempfile, matplotlib
    >>> matplotlib.use("Agg")
    >>> d = tempfile.mkdtemp()
    >>> path = run_demo("complete", d, n_signals=100)  # doctest: +SKIP
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from gsp_householder.graphs.comparison import compare_spectra
    from gsp_householder.graphs.datasets import list_graphs
    from gsp_householder.graphs.inferred import to_networkx
    from gsp_householder.graphs.plotting import plot_graph_comparison, plot_spectra

    if graph not in list_graphs():
        raise ValueError(f"graph must be one of {sorted(list_graphs())}, got {graph!r}")
    out = pathlib.Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    names = [graph] + ([CONTRAST_GRAPH] if graph != CONTRAST_GRAPH else [])
    results = [_pipeline(g, seed=seed, n_signals=n_signals if g == graph else None, theta=0.5,
                         progress=progress) for g in names]
    lines = ["# gsp_householder demo", "",
             "Pipeline: graph -> Householder Fourier basis (fewest reflectors found) -> signals "
             "$Y = VX$ with $X$ Bernoulli($\\theta$) x Uniform[1, 2] -> recovery of $V$ -> "
             "sparsest valid Laplacian with the recovered eigenvectors -> comparison with the "
             "true graph. Basis errors are after the best signed column permutation; edge "
             "scores compare supports; the Laplacian error compares $L/\\operatorname{tr} L$.",
             ""]
    for res in results:
        name, n, m = res["name"], res["n"], res["m"]
        lines += [f"## {name}: n = {n} nodes, {m} reflectors, p = {res['p']} signals, "
                  f"theta = {res['theta']}", "", _table(res["rows"])]
        rows = {r["method"]: r for r in res["rows"]}
        learned = [k for k in rows if k.startswith(("paper, Algorithm 3", "structured refinement"))]
        ok = [k for k in learned if rows[k]["f1"] >= 0.99]
        if ok:
            lines.append(f"Graph recovered (edge F1 >= 0.99) by: {'; '.join(ok)}.")
        else:
            lines.append("No method recovers this graph from the signals: the learned bases are "
                         "as far from the truth as the identity, and the inferred graphs are "
                         "wrong.")
        lines += ["", *[f"- {note}" for note in res["notes"]], ""]
        G = res["graph"]
        best = max(learned, key=lambda k: rows[k]["f1"]) if learned else None
        if best is not None:
            key = best.replace(" eigenvalue order", " order")
            G_hat = to_networkx(res["inferred"][key].laplacian, res["nodes"])
            fig = plot_graph_comparison(G, G_hat, title_hat=best)
            fig.savefig(out / f"{name}_graphs.png", dpi=110, bbox_inches="tight")
            plt.close(fig)
            spec = compare_spectra(res["L_true"], res["inferred"][key].laplacian)
            fig = plot_spectra(spec["eigenvalues_true"], spec["eigenvalues_hat"],
                               labels=("true", best))
            fig.savefig(out / f"{name}_spectra.png", dpi=110, bbox_inches="tight")
            plt.close(fig)
            lines += [f"![true and inferred graph]({name}_graphs.png)", "",
                      f"![spectra]({name}_spectra.png)", "",
                      f"Largest eigenvalue error (trace-normalised, {best}): "
                      f"{spec['max_eigenvalue_error']:.3g}.", ""]
        fig, ax = plt.subplots(figsize=(6, 3.2))
        labels = [r["method"] for r in res["rows"]]
        ax.barh(labels, [r["f1"] for r in res["rows"]], color="tab:blue")
        ax.set_xlim(0, 1)
        ax.set_xlabel("edge F1")
        ax.set_title(name)
        fig.savefig(out / f"{name}_errors.png", dpi=110, bbox_inches="tight")
        plt.close(fig)
        lines += [f"![edge F1 per method]({name}_errors.png)", ""]
    lines += ["## What this shows", ""]
    for res in results:
        rows = {r["method"]: r for r in res["rows"]}
        paper = rows["paper, Algorithm 3"]["basis_error"]
        triv = rows["identity (trivial estimate)"]["basis_error"]
        ref = rows.get("structured refinement", {}).get("basis_error", float("nan"))
        lines.append(f"- {res['name']} ({res['m']} reflectors): basis error of the paper's "
                     f"estimator {paper:.3g}, of the structured refinement {ref:.3g}, of the "
                     f"identity {triv:.3g}.")
    lines += ["- The paper's first-order estimator reads only the row sums of $Y$: it identifies "
              "$V\\mathbf 1$ and nothing else, so it can only be right when $V$ is one "
              "reflector (the complete graph).",
              "- The structured refinement needs a basis that is a product of few reflectors, "
              "i.e. a graph with highly repeated eigenvalues; an ordinary graph such as karate "
              "needs about $n$ reflectors and is not recovered from these signals.",
              "- The paper's signal model gives every atom the same statistics, so the order of "
              "the learned columns (which eigenvalue each one has) is not identifiable. Rows "
              "marked *oracle eigenvalue order* borrow that order from the truth; without it, "
              "Laplacian inference from a basis, even the exact one, returns a denser graph "
              "(see the rows without the oracle).",
              "- On a complete graph almost every pair is an edge, so edge F1 says little there; "
              "and with the eigenspaces given, any basis with a near-constant column yields "
              "the complete graph (the projector onto the complement of the constant vector does "
              "not depend on the basis). The basis error is the informative column there.",
              "", f"Total run time: {time.perf_counter() - t0:.1f} s.", ""]
    path = out / "report.md"
    path.write_text("\n".join(lines))
    return path
