"""Graphs: Fourier bases, signals on graphs, Laplacian inference and comparison.

A graph (networkx, PyGSP, a sparse or dense adjacency) gives a Fourier basis
(`fourier`), as a product of Householder reflectors (`householder_basis`);
signals on it follow the paper's model (`signals`); from an estimated basis a
Laplacian is inferred (`laplacian_inference`, `inferred`) and compared with
the truth (`comparison`, `plotting`). Bundled graphs live in `datasets`.
"""

from gsp_householder.graphs.comparison import compare_graphs, compare_spectra
from gsp_householder.graphs.datasets import list_graphs, load_graph
from gsp_householder.graphs.fourier import (
    FourierBasis,
    adjacency_matrix,
    fourier_basis,
    gft,
    igft,
    laplacian_matrix,
)
from gsp_householder.graphs.from_signals import learn_graph
from gsp_householder.graphs.householder_basis import (
    aligned_eigenbasis,
    approximate_householder,
    householder_fourier_basis,
)
from gsp_householder.graphs.inferred import InferredLaplacian, to_networkx
from gsp_householder.graphs.laplacian_inference import infer_laplacian
from gsp_householder.graphs.signals import GraphSignals, make_graph_signals

__all__ = [
    "FourierBasis",
    "GraphSignals",
    "InferredLaplacian",
    "adjacency_matrix",
    "aligned_eigenbasis",
    "approximate_householder",
    "compare_graphs",
    "compare_spectra",
    "fourier_basis",
    "gft",
    "householder_fourier_basis",
    "igft",
    "infer_laplacian",
    "laplacian_matrix",
    "learn_graph",
    "list_graphs",
    "load_graph",
    "make_graph_signals",
    "to_networkx",
]
