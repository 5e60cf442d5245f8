from __future__ import annotations

import numpy as np
import pytest

from gsp_householder.graphs._noise_resolution import MEDIAN_RELATIVE_ERROR, median_resolution


def test_median_resolution_is_the_spread_of_half_normal_medians():
    # 4000 estimates of 400 pairs each: the relative spread of their medians is the
    # asymptotic 1.166 / sqrt(400) = 5.8 % (within 10 % of it for this many draws)
    rng = np.random.default_rng(0)
    medians = np.median(np.abs(rng.standard_normal((4000, 400))), axis=1)
    spread = medians.std() / medians.mean()
    assert abs(spread / median_resolution(400) - 1.0) < 0.1
    assert MEDIAN_RELATIVE_ERROR == pytest.approx(1.1664, abs=1e-4)


def test_median_resolution_needs_pairs():
    with pytest.raises(ValueError, match="needs pairs"):
        median_resolution(0)
