"""Bundled and synthetic graphs."""

import networkx as nx
import pytest

from gsp_householder.graphs.datasets import list_graphs, load_graph

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


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_sizes_and_validity(name):
    G = load_graph(name)
    assert (G.number_of_nodes(), G.number_of_edges()) == EXPECTED[name]
    assert not G.is_directed() and nx.number_of_selfloops(G) == 0
    assert list(G) == list(range(G.number_of_nodes())) or name == "karate"


def test_minnesota_offline():
    G = load_graph("minnesota")
    assert G.number_of_nodes() == 2642 and nx.is_connected(G)


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
