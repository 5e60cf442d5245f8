"""Baseline dictionary-learning methods the paper compares with.

- `procrustes_oracle`: best-case orthogonal Procrustes with the codes known.
- `procrustes_altmin`: alternating minimisation (Lesage et al. 2005).
- `h_dla`: product of Householder reflectors (Rusu et al. 2016).
- `msp`: $\\ell^4$ optimisation over the orthogonal group (Zhai et al. 2020).

Each returns a `gsp_householder.learning.result.DictionaryResult`.
"""

from gsp_householder.learning.baselines.h_dla import h_dla
from gsp_householder.learning.baselines.msp import excess_kurtosis, msp
from gsp_householder.learning.baselines.procrustes import (
           polar_factor,
           procrustes_altmin,
           procrustes_oracle,
)

__all__ = ["excess_kurtosis", "h_dla", "msp", "polar_factor", "procrustes_altmin",
           "procrustes_oracle"]
