"""Noisy ladders whose graphs all leave most eigenvalues free stop early, warned."""

from __future__ import annotations

import warnings

import networkx as nx
from _basis_inputs import perturbed, shuffled, stored_eigenvectors

from gsp_householder import compare_graphs, fourier_basis, infer_laplacian
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs._hopeless_family import (
    HOPELESS_FRACTION,
    hopeless_ladder,
    hopeless_member,
)


def _entry(edges, dim, equal=False):
    """A ``_noisy_entry`` tuple with a graph of ``edges`` edges (only what is read)."""
    return (1e-3, [(edges, 0.0, None, None)], dim, 1e-3, False, equal)


def test_hopeless_members():
    # random_cograph(6, seed=61)'s complement perturbed: 472 edges, family 59 of 63
    assert hopeless_member(64, 63, 472, 59, False)
    # equal weights to the noise level: what a family's sparse members look like
    assert not hopeless_member(64, 63, 472, 59, True)
    # a family of at most HOPELESS_FRACTION of the unknowns
    assert not hopeless_member(64, 63, 472, int(HOPELESS_FRACTION * 63), False)
    # balanced_tree(3, 4) perturbed (SandyBridge kernels): 158 edges, family 64 of 120
    assert not hopeless_member(121, 120, 158, 64, False)
    # a tree, or a graph too close to one, cannot have a much sparser member
    assert not hopeless_member(64, 63, 63, 60, False)
    assert not hopeless_member(64, 63, 65, 60, False)


def test_the_ladder_stops_on_hopeless_graphs_only():
    assert not hopeless_ladder(64, 63, [_entry(472, 59)])
    assert hopeless_ladder(64, 63, [_entry(472, 59), _entry(490, 59)])
    # one graph that is not such a member: the ladder goes on
    assert not hopeless_ladder(64, 63, [_entry(472, 59), _entry(490, 20)])
    assert not hopeless_ladder(64, 63, [_entry(472, 59), _entry(490, 59, equal=True)])
    assert not hopeless_ladder(64, 63, [_entry(472, 59), _entry(63, 59)])
    # every ranking searched (``least=1``): one such graph is enough
    assert hopeless_ladder(64, 63, [_entry(297, 60)], least=1)
    assert not hopeless_ladder(64, 63, [_entry(297, 40)], least=1)
    assert not hopeless_ladder(64, 63, [], least=1)


def test_complete_multipartite_perturbed_stops_early_and_is_warned():
    # K(10, 10, 12) perturbed by 1e-3 (seed 0): eigenvalues of multiplicity 18 and 11;
    # the first two rankings' graphs (94 and 70 edges for 340) are weighted members of
    # families of 24 and 27 dimensions of 31
    G = nx.complete_multipartite_graph(10, 10, 12)
    B = fourier_basis(G)
    V = stored_eigenvectors("complete_multipartite_10_10_12", B.laplacian)
    V = perturbed(shuffled(V, 0), 1e-3, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = infer_laplacian(V, rng=0)
    edges, dims, g = result.history["hopeless_family"]
    assert len(edges) == 2 and g == 31
    assert all(d > HOPELESS_FRACTION * g for d in dims)
    assert result.n_edges in edges
    assert any(
        issubclass(w.category, ConvergenceWarning) and "pin down little" in str(w.message)
        for w in caught
    )
    assert compare_graphs(B.laplacian, result.laplacian)["f1"] < 0.5
