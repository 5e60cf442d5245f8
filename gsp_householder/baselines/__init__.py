"""Baseline dictionary-learning methods the paper compares with.

- :func:`procrustes_oracle`: best-case orthogonal Procrustes with the codes known.
- :func:`procrustes_altmin`: alternating minimisation (Lesage et al. 2005).
- :func:`h_dla`: product of Householder reflectors (Rusu et al. 2016).
- :func:`msp`: $\\ell^4$ optimisation over the orthogonal group (Zhai et al. 2020).

Each returns a :class:`gsp_householder.result.DictionaryResult`.
"""

from gsp_householder.baselines.h_dla import h_dla
from gsp_householder.baselines.msp import excess_kurtosis, msp
from gsp_householder.baselines.procrustes import polar_factor, procrustes_altmin, procrustes_oracle

__all__ = ["excess_kurtosis", "h_dla", "msp", "polar_factor", "procrustes_altmin",
           "procrustes_oracle"]
