"""The paper's signal model: $Y = V X + N$ with Bernoulli-Uniform sparse codes.

Each entry of $X$ is non-zero with probability $\\theta$ (Bernoulli support) and,
on the support, uniform on $[\\text{low}, \\text{high}]$ (the paper takes
$[1, 2]$). $V$ is a product of random Householder reflectors, as in the
paper's simulations, or any orthogonal matrix, such as a graph's Fourier basis.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np

from gsp_householder._validation import check_real_array, check_rng, check_scalar, check_theta
from gsp_householder.householder import HouseholderProduct

__all__ = ["BernoulliUniform", "random_householder_product", "make_signals", "noise_std"]


@dataclass(frozen=True)
class BernoulliUniform:
    """I.i.d. codes: zero with probability $1 - \\theta$, else Uniform[low, high].

    Parameters
    ----------
    theta : float
        Probability that an entry is non-zero, in (0, 1].
    low, high : float, default 1.0 and 2.0
        Range of the non-zero values, ``low < high``.

    Examples
    --------
    >>> from gsp_householder import BernoulliUniform
    >>> model = BernoulliUniform(0.5)
    >>> model.mu, model.mean
    (1.5, 0.75)
    >>> X = model.sample((3, 4), rng=0)
    >>> X.shape
    (3, 4)
    """

    theta: float
    low: float = 1.0
    high: float = 2.0

    def __post_init__(self):
        object.__setattr__(self, "theta", check_theta(self.theta))
        low = check_scalar(self.low, "low")
        high = check_scalar(self.high, "high")
        if not low < high:
            raise ValueError(f"low must be smaller than high, got low={low}, high={high}")
        if max(abs(low), abs(high)) > 1e150:
            raise ValueError("low and high must be at most 1e150 in magnitude, so that the "
                             f"second moment is finite in float64; got low={low}, high={high}")
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)

    @property
    def mu(self) -> float:
        """Mean $\\mu = (\\text{low} + \\text{high})/2$ of a non-zero entry."""
        return 0.5 * (self.low + self.high)

    @property
    def mean(self) -> float:
        """Mean $\\theta\\mu$ of one entry (the scale $a$ of $E[Y] = a V 1$)."""
        return self.theta * self.mu

    @property
    def second_moment(self) -> float:
        """$E[x^2] = \\theta (\\text{low}^2 + \\text{low}\\,\\text{high} + \\text{high}^2) / 3$."""
        lo, hi = self.low, self.high
        return self.theta * (lo * lo + lo * hi + hi * hi) / 3.0

    @property
    def variance(self) -> float:
        """Variance of one entry, $E[x^2] - (\\theta\\mu)^2$."""
        return self.second_moment - self.mean**2

    @property
    def excess_kurtosis(self) -> float:
        """Excess kurtosis of a centred entry; its sign decides whether l4 methods maximise.

        Negative for the paper's model at $\\theta = 0.5$ (-1.73 for [1, 2]),
        positive only for small or large $\\theta$.
        """
        t, lo, hi = self.theta, self.low, self.high
        scale = max(abs(lo), abs(hi))  # the kurtosis does not depend on the unit of the values
        lo, hi = lo / scale, hi / scale
        raw = [1.0] + [t * (hi ** (k + 1) - lo ** (k + 1)) / ((k + 1) * (hi - lo))
                       for k in range(1, 5)]
        m1 = raw[1]
        c2 = raw[2] - m1**2
        c4 = raw[4] - 4 * m1 * raw[3] + 6 * m1**2 * raw[2] - 3 * m1**4
        if not c2 > 0:
            raise ValueError(f"low={self.low} and high={self.high} are too close for the "
                             "kurtosis to be computed in float64")
        return float(c4 / c2 / c2 - 3.0)  # not c2**2, which underflows for tiny theta

    def sample(self, shape, rng=None) -> np.ndarray:
        """Draw an array of codes of the given shape (float64)."""
        rng = check_rng(rng)
        if isinstance(shape, numbers.Integral):
            shape = (int(shape),)
        shape = tuple(int(s) for s in shape)
        if any(s < 0 for s in shape):
            raise ValueError(f"shape must be non-negative, got {shape}")
        support = rng.random(shape) < self.theta
        values = rng.uniform(self.low, self.high, size=shape)
        return np.where(support, values, 0.0)


def random_householder_product(n: int, m: int, distribution: str = "uniform",
                               rng=None) -> HouseholderProduct:
    """A product of ``m`` random reflectors, as in the paper's simulations.

    Each $u_i$ has i.i.d. entries, then is normalised.

    Parameters
    ----------
    n : int
        Size, at least 2.
    m : int
        Number of reflectors, at least 1.
    distribution : {"uniform", "gaussian"}, default "uniform"
        Uniform[0, 1] entries (then $c = \\sum_i u_i \\approx \\sqrt{3n}/2$, as
        Theorem 1 needs) or standard normal ones (then $c = O(1)$, outside
        Theorem 1).
    rng : None, int or numpy.random.Generator

    Returns
    -------
    HouseholderProduct

    Examples
    --------
    >>> from gsp_householder import random_householder_product
    >>> V = random_householder_product(100, 3, rng=0)
    >>> V.n, V.m
    (100, 3)
    """
    n = check_scalar(n, "n", low=2, low_inclusive=True, integer=True)
    m = check_scalar(m, "m", low=1, low_inclusive=True, integer=True)
    rng = check_rng(rng)
    if distribution == "uniform":
        U = rng.random((n, m))
    elif distribution == "gaussian":
        U = rng.standard_normal((n, m))
    else:
        raise ValueError(f"distribution must be 'uniform' or 'gaussian', got {distribution!r}")
    return HouseholderProduct(U)


def noise_std(clean: np.ndarray, snr_db: float) -> float:
    """Standard deviation of white noise giving ``snr_db`` against ``clean``.

    The SNR is the paper's: $10 \\log_{10}(P_\\text{signal} / P_\\text{noise})$ with
    $P_\\text{signal} = \\|VX\\|_F^2 / (np)$, the empirical power of the clean signals.

    Parameters
    ----------
    clean : ndarray
        The noiseless signals $VX$.
    snr_db : float
        Signal-to-noise ratio in dB.

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder.model import noise_std
    >>> noise_std(np.ones((4, 5)), 20.0)
    0.1
    """
    snr_db = check_scalar(snr_db, "snr_db")
    power = float(np.mean(np.square(clean, dtype=np.float64)))
    with np.errstate(over="ignore", under="ignore", divide="ignore", invalid="ignore"):
        sigma = float(np.sqrt(power / np.power(10.0, snr_db / 10.0)))
    if not np.isfinite(sigma):
        raise ValueError(f"snr_db = {snr_db} gives a noise level that is not representable "
                         "in float64")
    return sigma


def make_signals(V, n_signals: int, model: BernoulliUniform, snr_db: float | None = None,
                 rng=None) -> tuple[np.ndarray, np.ndarray]:
    """Draw signals $Y = V X + N$ under the paper's model.

    Parameters
    ----------
    V : HouseholderProduct or array_like of shape (n, n)
        The dictionary (orthogonal).
    n_signals : int
        Number $p$ of signals (columns).
    model : BernoulliUniform
        Distribution of the codes.
    snr_db : float, optional
        Signal-to-noise ratio in dB; ``None`` for noiseless signals.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    Y : ndarray of shape (n, n_signals)
        The signals, one per column.
    X : ndarray of shape (n, n_signals)
        The sparse codes.

    Examples
    --------
    >>> from gsp_householder import BernoulliUniform, make_signals, random_householder_product
    >>> V = random_householder_product(50, 2, rng=0)
    >>> Y, X = make_signals(V, 10, BernoulliUniform(0.5), snr_db=20, rng=1)
    >>> Y.shape, X.shape
    ((50, 10), (50, 10))
    """
    if not isinstance(model, BernoulliUniform):
        raise TypeError(f"model must be a BernoulliUniform, got {type(model).__name__}")
    p = check_scalar(n_signals, "n_signals", low=1, low_inclusive=True, integer=True)
    rng = check_rng(rng)
    if isinstance(V, HouseholderProduct):
        n = V.n
    else:
        V = check_real_array(V, "V", ndim=2, allow_float32=False)
        if V.shape[0] != V.shape[1]:
            raise ValueError(f"V must be square, got shape {V.shape}")
        n = V.shape[0]
    X = model.sample((n, p), rng)
    Y = V @ X
    if snr_db is not None:
        sigma = noise_std(Y, snr_db)
        Y = Y + sigma * rng.standard_normal(Y.shape)
    return Y, X
