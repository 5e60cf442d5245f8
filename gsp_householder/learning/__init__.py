"""Learning orthogonal dictionaries from signals.

The paper's Algorithms 1-3 (`paper`), the structured refinement
(`refinement`), the whole-basis learner (`whole_basis`), sparse coding, the
methods the paper compares with (`baselines`) and the result type they share.
"""

from gsp_householder.learning.baselines import h_dla, msp, procrustes_altmin, procrustes_oracle
from gsp_householder.learning.paper import (
    estimate_householder,
    estimate_householder_given,
    estimate_householder_product,
    estimate_householder_vector,
    estimate_scale,
)
from gsp_householder.learning.refinement import refine_householder_product, structured_procrustes
from gsp_householder.learning.result import DictionaryResult
from gsp_householder.learning.sparse_coding import sparse_code
from gsp_householder.learning.whole_basis import learn_orthogonal_basis

__all__ = [
    "DictionaryResult",
    "estimate_householder",
    "estimate_householder_given",
    "estimate_householder_product",
    "estimate_householder_vector",
    "estimate_scale",
    "h_dla",
    "learn_orthogonal_basis",
    "msp",
    "procrustes_altmin",
    "procrustes_oracle",
    "refine_householder_product",
    "sparse_code",
    "structured_procrustes",
]
