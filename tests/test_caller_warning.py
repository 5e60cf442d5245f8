"""Warnings point at the user's call, whatever the depth of the library's frames."""

from __future__ import annotations

import inspect
import warnings

import networkx as nx
import numpy as np
import pytest
from _basis_inputs import audit_input
from test_star_twin import _lognormal_star

from gsp_householder import SignalStatistics, fourier_basis, infer_laplacian
from gsp_householder._caller_warning import PACKAGE_FOLDER, warn_at_caller


def _package_chain(depth: int):
    """A function that calls ``warn_at_caller`` through ``depth`` frames whose code
    is compiled as a file of the package."""
    source = "def f0(warn):\n    warn('a doubt', UserWarning)\n"
    for k in range(1, depth + 1):
        source += f"def f{k}(warn):\n    f{k - 1}(warn)\n"
    namespace = {}
    exec(compile(source, f"{PACKAGE_FOLDER}/_chain.py", "exec"), namespace)
    return namespace[f"f{depth}"]


@pytest.mark.parametrize("depth", [0, 1, 4])
def test_the_warning_is_at_the_first_frame_outside_the_package(depth):
    chain = _package_chain(depth)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        chain(warn_at_caller)
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line)]


def test_a_library_warning_points_at_the_call():
    Y = np.random.default_rng(0).uniform(1.0, 2.0, size=(6, 1))
    stats = SignalStatistics.from_array(Y)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        stats.scale_estimate()
    assert [(w.filename, w.lineno) for w in caught] == [(__file__, line)]


def test_every_warning_of_a_deep_inference_points_at_the_call():
    # a weighted star of 90 leaves perturbed by 1e-3 (``test_star_twin``): the star
    # twin's, the swap doubt's and the weak edges' warnings are raised at different
    # depths (with fixed stack levels, the first two pointed inside the library)
    V = audit_input(fourier_basis(_lognormal_star(90, 0, 906)).eigenvectors, 1e-3, 0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        infer_laplacian(V, rng=0)
    assert len(caught) == 3
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, line)}


def test_components_point_at_the_call():
    # two components, each inferred by a nested inference: the path's complement
    # and an equally sparse twin are warned of
    G = nx.disjoint_union(nx.path_graph(5), nx.star_graph(4))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        line = inspect.currentframe().f_lineno + 1
        infer_laplacian(fourier_basis(G).eigenvectors, rng=0)
    assert len(caught) == 2
    assert {(w.filename, w.lineno) for w in caught} == {(__file__, line)}
