"""gsp_householder: orthogonal dictionaries that are products of Householder reflectors.

Learn $V = H_1 \\cdots H_m$, $H_i = I - 2u_iu_i^T$, from signals $Y = VX$ with
sparse $X$, and use such dictionaries as graph Fourier bases.
"""

from gsp_householder.estimator import HouseholderDictionaryLearning
from gsp_householder.exceptions import (
    AmbiguousGraphWarning,
    ConvergenceWarning,
    DegenerateStatisticsError,
    DegenerateStatisticsWarning,
    NotFittedError,
)
from gsp_householder.graphs import (
    FourierBasis,
    GraphSignals,
    InferredLaplacian,
    adjacency_matrix,
    aligned_eigenbasis,
    approximate_householder,
    compare_graphs,
    compare_spectra,
    fourier_basis,
    gft,
    householder_fourier_basis,
    igft,
    infer_laplacian,
    laplacian_matrix,
    learn_graph,
    list_graphs,
    load_graph,
    make_graph_signals,
    to_networkx,
)
from gsp_householder.householder import HouseholderProduct
from gsp_householder.learning import (
    DictionaryResult,
    estimate_householder,
    estimate_householder_given,
    estimate_householder_product,
    estimate_householder_vector,
    estimate_scale,
    h_dla,
    learn_orthogonal_basis,
    msp,
    procrustes_altmin,
    procrustes_oracle,
    refine_householder_product,
    sparse_code,
    structured_procrustes,
)
from gsp_householder.metrics import (
    basis_error,
    coefficient_error,
    match_columns,
    matched_basis_error,
    orthogonality_defect,
    vector_error,
)
from gsp_householder.model import (
    BernoulliUniform,
    make_signals,
    random_householder_product,
)
from gsp_householder.statistics import (
    SignalStatistics,
    iter_column_blocks,
    statistics_from_blocks,
    statistics_from_dask,
    statistics_from_npy,
)

__all__ = [
    # algebra
    "HouseholderProduct",
    # model
    "BernoulliUniform",
    "random_householder_product",
    "make_signals",
    # the paper's estimators
    "SignalStatistics",
    "estimate_scale",
    "estimate_householder_vector",
    "estimate_householder",
    "estimate_householder_given",
    "estimate_householder_product",
    "sparse_code",
    "DictionaryResult",
    # beyond the paper
    "refine_householder_product",
    "structured_procrustes",
    "learn_orthogonal_basis",
    # the methods the paper compares with
    "procrustes_oracle",
    "procrustes_altmin",
    "h_dla",
    "msp",
    # graphs
    "fourier_basis",
    "FourierBasis",
    "laplacian_matrix",
    "adjacency_matrix",
    "gft",
    "igft",
    "make_graph_signals",
    "GraphSignals",
    "householder_fourier_basis",
    "aligned_eigenbasis",
    "approximate_householder",
    "infer_laplacian",
    "learn_graph",
    "InferredLaplacian",
    "to_networkx",
    "compare_graphs",
    "compare_spectra",
    "load_graph",
    "list_graphs",
    # scikit-learn estimator, streaming and dask
    "HouseholderDictionaryLearning",
    "iter_column_blocks",
    "statistics_from_blocks",
    "statistics_from_npy",
    "statistics_from_dask",
    # metrics
    "vector_error",
    "basis_error",
    "coefficient_error",
    "match_columns",
    "matched_basis_error",
    "orthogonality_defect",
    # exceptions and warnings
    "DegenerateStatisticsError",
    "DegenerateStatisticsWarning",
    "AmbiguousGraphWarning",
    "ConvergenceWarning",
    "NotFittedError",
]

__version__ = "0.1.0"
