"""gsp_householder: orthogonal dictionaries that are products of Householder reflectors.

Learn $V = H_1 \\cdots H_m$, $H_i = I - 2u_iu_i^T$, from signals $Y = VX$ with
sparse $X$, and use such dictionaries as graph Fourier bases.
"""

from gsp_householder.exceptions import (
    ConvergenceWarning,
    DegenerateStatisticsError,
    DegenerateStatisticsWarning,
    NotFittedError,
)
from gsp_householder.householder import HouseholderProduct
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
from gsp_householder.recovery import (
    estimate_householder,
    estimate_householder_given,
    estimate_householder_product,
    estimate_householder_vector,
    estimate_scale,
)
from gsp_householder.result import DictionaryResult
from gsp_householder.sparse_coding import sparse_code
from gsp_householder.statistics import SignalStatistics

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
    "ConvergenceWarning",
    "NotFittedError",
]

__version__ = "0.1.0"
