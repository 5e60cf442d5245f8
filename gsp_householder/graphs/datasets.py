"""Graphs to experiment with: small real networks and seeded synthetic families.

Every loader returns an undirected ``networkx.Graph`` without self-loops whose
nodes keep the labels of the graph's source: the character names of *Les
Misérables*, the family names of Florence, the women and events of Davis, the
``(i, j)`` tuples of a grid (with ``"pos"`` attributes for drawing), the
integers of karate, Minnesota, the sensor graph and the other synthetic
families. These labels flow through ``fourier_basis(G).nodelist``. Provenance
and licences of the real graphs are in ``datasets/README.md`` at the root of
the repository.

Real graphs (no download: they ship with networkx and PyGSP):

- ``karate``: Zachary's karate club, 34 nodes, 78 edges, weighted by the number
  of contexts of interaction (networkx).
- ``les_miserables``: co-appearance of characters in *Les Misérables*, 77 nodes,
  254 weighted edges (networkx, from Knuth's Stanford GraphBase).
- ``florentine_families``: marriage ties between Renaissance Florentine
  families, 15 nodes, 20 edges (networkx).
- ``davis_southern_women``: the bipartite women-events attendance graph of
  Davis, Gardner & Gardner, 32 nodes, 89 edges (networkx).
- ``minnesota``: the Minnesota road network, 2642 nodes, 3304 edges, connected
  version (PyGSP's bundled ``minnesota.mat``, from MatlabBGL).

Synthetic families (``seed`` where random): ``complete``, ``cliques``,
``complete_multipartite``, ``sbm``, ``ring``, ``grid``, ``sensor``.
"""

from __future__ import annotations

import warnings

import networkx as nx
import numpy as np

from gsp_householder._validation import check_scalar

__all__ = ["list_graphs", "load_graph"]


def _karate(weighted: bool = True):
    G = nx.karate_club_graph()
    if not weighted:
        G = nx.Graph(G.edges())
    return G


def _les_miserables():
    return nx.les_miserables_graph()


def _florentine():
    return nx.florentine_families_graph()


def _davis():
    return nx.davis_southern_women_graph()


def _minnesota():
    import pygsp

    P = _quiet_pygsp(pygsp.graphs.Minnesota, connected=True)
    W = P.W.tocsr()
    G = nx.from_scipy_sparse_array(W.astype(np.float64))
    for i, (x, y) in enumerate(np.asarray(P.coords)):
        G.nodes[i]["pos"] = (float(x), float(y))
    return G


def _complete(n: int = 20):
    return nx.complete_graph(check_scalar(n, "n", low=2, low_inclusive=True, integer=True))


def _cliques(n_cliques: int = 4, size: int = 8):
    r = check_scalar(n_cliques, "n_cliques", low=1, low_inclusive=True, integer=True)
    s = check_scalar(size, "size", low=2, low_inclusive=True, integer=True)
    return nx.disjoint_union_all([nx.complete_graph(s) for _ in range(r)])


def _multipartite(sizes=(8, 8, 8, 8)):
    return nx.complete_multipartite_graph(*[int(s) for s in sizes])


def _sbm(sizes=(50, 50, 50, 50), p_in: float = 0.3, p_out: float = 0.02, seed: int = 0):
    k = len(sizes)
    probs = [[p_in if i == j else p_out for j in range(k)] for i in range(k)]
    G = nx.stochastic_block_model([int(s) for s in sizes], probs, seed=seed)
    H = nx.Graph()
    H.add_nodes_from(G.nodes(data=True))
    H.add_edges_from(G.edges())
    return H


def _ring(n: int = 50):
    return nx.cycle_graph(check_scalar(n, "n", low=3, low_inclusive=True, integer=True))


def _grid(rows: int = 15, cols: int | None = None):
    rows = check_scalar(rows, "rows", low=1, low_inclusive=True, integer=True)
    cols = rows if cols is None else check_scalar(cols, "cols", low=1, low_inclusive=True,
                                                  integer=True)
    G = nx.grid_2d_graph(rows, cols)
    for i, j in G:
        G.nodes[i, j]["pos"] = (float(j), float(-i))
    return G


def _sensor(n: int = 200, seed: int = 0):
    import pygsp

    n = check_scalar(n, "n", low=4, low_inclusive=True, integer=True)
    P = _quiet_pygsp(pygsp.graphs.Sensor, n, seed=seed)
    G = nx.from_scipy_sparse_array(P.W.tocsr().astype(np.float64))
    for i, (x, y) in enumerate(np.asarray(P.coords)):
        G.nodes[i]["pos"] = (float(x), float(y))
    return G


_LOADERS = {
    "karate": (_karate, "Zachary's karate club (real, weighted, n=34)"),
    "les_miserables": (_les_miserables, "Les Miserables co-appearances (real, weighted, n=77)"),
    "florentine_families": (_florentine, "Florentine families marriages (real, n=15)"),
    "davis_southern_women": (_davis, "Davis southern women, bipartite (real, n=32)"),
    "minnesota": (_minnesota, "Minnesota road network (real, n=2642)"),
    "complete": (_complete, "complete graph K_n (n=20)"),
    "cliques": (_cliques, "disjoint cliques (n_cliques=4, size=8)"),
    "complete_multipartite": (_multipartite, "complete multipartite (sizes=(8, 8, 8, 8))"),
    "sbm": (_sbm, "stochastic block model (4 x 50 nodes, p_in=0.3, p_out=0.02, seed=0)"),
    "ring": (_ring, "ring (cycle) graph (n=50)"),
    "grid": (_grid, "2-D grid (15 x 15)"),
    "sensor": (_sensor, "PyGSP random sensor graph (n=200, seed=0, weighted)"),
}


def list_graphs() -> dict[str, str]:
    """Names of the graphs ``load_graph`` knows, with a one-line description.

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> "karate" in list_graphs()
    True
    """
    return {k: v[1] for k, v in _LOADERS.items()}


def load_graph(name: str, **kwargs) -> nx.Graph:
    """Load a bundled real graph or build a seeded synthetic one.

    Parameters
    ----------
    name : str
        One of ``list_graphs()``.
    **kwargs
        Passed to the family's builder, e.g. ``load_graph("sbm", seed=3)``,
        ``load_graph("grid", rows=10)``, ``load_graph("karate", weighted=False)``,
        ``load_graph("sensor", n=100, seed=1)``.

    Returns
    -------
    networkx.Graph

    Raises
    ------
    ValueError
        For an unknown name.
    TypeError
        For keyword arguments the family does not take.

    Examples
    --------
    >>> G = load_graph("karate")
    >>> G.number_of_nodes(), G.number_of_edges()
    (34, 78)
    >>> load_graph("cliques", n_cliques=2, size=3).number_of_edges()
    6
    >>> list(load_graph("grid", rows=2))
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    >>> "Valjean" in load_graph("les_miserables")
    True
    """
    if not isinstance(name, str) or name not in _LOADERS:
        raise ValueError(f"name must be one of {sorted(_LOADERS)}, got {name!r}")
    return _LOADERS[name][0](**kwargs)


def _quiet_pygsp(factory, *args, **kwargs):
    """Build a pygsp graph without its FutureWarnings and debug log lines."""
    import logging

    factory_module = __import__("pygsp").graphs  # make sure pygsp's loggers exist
    del factory_module
    loggers = [logging.getLogger(name) for name in list(logging.root.manager.loggerDict)
               if name.startswith("pygsp")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.WARNING)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return factory(*args, **kwargs)
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)
