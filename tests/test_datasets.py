"""Bundled and synthetic graphs."""

import networkx as nx
import pytest

from gsp_householder.graphs.datasets import list_graphs, load_graph
from gsp_householder.graphs.fourier import fourier_basis

EXPECTED = {  # name: (nodes, edges)
    "karate": (34, 78),
    "les_miserables": (77, 254),
    "florentine_families": (15, 20),
    "davis_southern_women": (32, 89),
    "complete": (20, 190),
    "cliques": (32, 112),
    "complete_multipartite": (32, 384),
    "ring": (50, 50),
    "grid": (225, 420),
}

# The labels each source has: networkx's own graphs keep theirs.
SOURCES = {
    "karate": nx.karate_club_graph,
    "les_miserables": nx.les_miserables_graph,
    "florentine_families": nx.florentine_families_graph,
    "davis_southern_women": nx.davis_southern_women_graph,
    "grid": lambda: nx.grid_2d_graph(15, 15),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sizes_and_validity(name):
    G = load_graph(name)
    assert (G.number_of_nodes(), G.number_of_edges()) == EXPECTED[name]
    assert not G.is_directed() and nx.number_of_selfloops(G) == 0


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_labels_and_weights_of_the_source_are_kept(name):
    G, S = load_graph(name), SOURCES[name]()
    assert list(G) == list(S)
    assert {frozenset(e) for e in G.edges()} == {frozenset(e) for e in S.edges()}
    for u, v, w in S.edges(data="weight", default=1.0):
        assert G[u][v].get("weight", 1.0) == w
    assert fourier_basis(G).nodelist == list(S)


def test_every_bundled_graph_labels_reach_the_basis():
    for name in list_graphs():
        if name == "minnesota":
            continue  # n = 2642: checked in test_minnesota_offline
        G = load_graph(name)
        assert fourier_basis(G).nodelist == list(G)


def test_grid_labels_and_positions():
    G = load_graph("grid", rows=3, cols=4)
    assert list(G)[:3] == [(0, 0), (0, 1), (0, 2)]
    assert G.nodes[2, 3]["pos"] == (3.0, -2.0)
    assert "Valjean" in load_graph("les_miserables")
    assert "Medici" in load_graph("florentine_families")
    with pytest.raises(ValueError, match="rows must be >= 1"):
        load_graph("grid", rows=0)


def test_minnesota_offline():
    G = load_graph("minnesota")
    assert G.number_of_nodes() == 2642 and nx.is_connected(G)
    assert list(G) == list(range(2642)) and "pos" in G.nodes[0]


@pytest.mark.parametrize("name", ["sbm", "sensor"])
def test_seeded_families_are_reproducible(name):
    a, b = load_graph(name, seed=4), load_graph(name, seed=4)
    c = load_graph(name, seed=5)
    assert set(a.edges()) == set(b.edges())
    assert set(a.edges()) != set(c.edges())
    assert nx.is_connected(a)


def test_list_and_errors():
    names = list_graphs()
    assert {"karate", "minnesota", "sbm", "sensor", "grid"} <= set(names)
    with pytest.raises(ValueError, match="name must be one of"):
        load_graph("no-such-graph")
    with pytest.raises(TypeError):
        load_graph("ring", rows=3)
    assert load_graph("karate", weighted=False).number_of_edges() == 78
