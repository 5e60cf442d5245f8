"""Bases of disconnected graphs: the components' candidates and warnings in the result."""

import warnings

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp
from _basis_inputs import audit_input, shuffled

from gsp_householder.exceptions import AmbiguousGraphWarning, ConvergenceWarning
from gsp_householder.graphs import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.graphs._components import combined_choices


def _pairs_at_distance_two(G) -> nx.Graph:
    """The graph of the pairs of ``G`` at distance exactly 2 (integer labels)."""
    G = nx.convert_node_labels_to_integers(G)
    distance = dict(nx.all_pairs_shortest_path_length(G, cutoff=2))
    H = nx.Graph()
    H.add_nodes_from(G)
    H.add_edges_from((u, v) for u in G for v, d in distance[u].items() if d == 2)
    return H


def _listed(B, res) -> bool:
    return any(compare_graphs(B.laplacian, C)["f1"] == 1.0 for C in res.candidates)


def test_choices_are_the_answers_each_alternative_and_the_aligned_ranks():
    choices = combined_choices([3, 1, 2])
    assert choices == [(0, 0, 0), (1, 0, 0), (2, 0, 0), (0, 0, 1), (1, 0, 1)]
    assert combined_choices([1, 1]) == [(0, 0)]
    counts = [5, 9, 4]
    choices = combined_choices(counts)
    assert len(set(choices)) == len(choices) <= 1 + sum(c - 1 for c in counts) + max(counts) - 1
    assert (4, 4, 0) in choices and (3, 3, 3) in choices


@pytest.mark.parametrize(("make", "kind", "size"), [
    (nx.heawood_graph, "exact", 7),
    (nx.desargues_graph, "perturbed", 10),
])
def test_pairs_at_distance_two_of_bipartite_graphs_list_the_truth(make, kind, size):
    # bipartite: the pairs at distance 2 are two isomorphic components, each answered
    # by a sparser graph with its eigenvectors and the truth among its candidates (a
    # copy of K7, read as a tree from exact eigenvectors, a family of dimension 6; the
    # complement of the Petersen graph read as the Petersen graph, quiet, draw 3); the
    # answer once came with itself as its only candidate
    B = fourier_basis(_pairs_at_distance_two(make()))
    V = shuffled(B.eigenvectors, 3) if kind == "exact" else audit_input(B.eigenvectors, 1e-3, 3)
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        res = infer_laplacian(V, rng=0)
    assert res.history["components"] == [size, size]
    assert _listed(B, res)
    counts = res.history["component_candidates"]
    assert len(res.candidates) == len(res.history["candidate_choices"])
    assert len(res.candidates) <= 1 + sum(c - 1 for c in counts) + max(counts) - 1
    assert res.history["candidate_edges"] == [sp.triu(C, 1).nnz for C in res.candidates]
    assert res.n_edges == sp.triu(res.laplacian, 1).nnz
    assert (res.candidates[0] != res.laplacian).nnz == 0


def test_desargues_pairs_at_distance_two_warned_once_with_the_components_named():
    # two copies of the complement of the Petersen graph, each answered by the Petersen
    # graph and warned of its complement, the truth: one warning naming both components
    B = fourier_basis(_pairs_at_distance_two(nx.desargues_graph()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(shuffled(B.eigenvectors, 3), rng=0)
    said = [str(w.message) for w in caught if w.category is AmbiguousGraphWarning]
    assert len(said) == 1 and said[0].startswith("in components 1, 2 of the 2")
    assert "complement" in said[0]
    assert _listed(B, res)
    assert not res.complement_twin                   # the whole graph's complement is no twin
    assert res.history["component_complement_twins"] == [0, 1]
    assert res.ambiguous


def test_component_warning_names_one_component():
    # the Desargues graph's pairs at distance 2, perturbed, draw 0: only the first
    # component's inference warns
    B = fourier_basis(_pairs_at_distance_two(nx.desargues_graph()))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = infer_laplacian(audit_input(B.eigenvectors, 1e-3, 0), rng=0)
    said = [str(w.message) for w in caught if w.category is ConvergenceWarning]
    assert len(said) == 1 and said[0].startswith("in component 1 of the 2 ")
    assert _listed(B, res)
    assert np.isfinite(res.eigenvalues).all()
