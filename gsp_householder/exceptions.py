"""Exception and warning classes raised by gsp_householder.

Every error the toolkit raises for bad input is a `ValueError` or a
`TypeError` whose message names the offending argument. Numerical trouble
that does not make a result meaningless is reported with a warning of a dedicated
class, so that callers can filter it precisely.
"""

from __future__ import annotations

__all__ = [
    "DegenerateStatisticsError",
    "DegenerateStatisticsWarning",
    "ConvergenceWarning",
    "AmbiguousGraphWarning",
    "NotFittedError",
]


class DegenerateStatisticsError(ValueError):
    """The statistics of the data cannot define an estimate.

    Raised, for example, when the estimated scale $\\theta\\mu$ of the mean
    column is not positive, so that the first moment carries no information.
    """


class DegenerateStatisticsWarning(UserWarning):
    """The statistics of the data make an estimate unreliable.

    Issued, for example, when the radicand $\\sum_i k_i s_i$ of the paper's
    Algorithm 2 is not positive, or when the mean column is nearly equal to its
    value under the current estimate, so that the reflector is fitted to noise.
    """


class ConvergenceWarning(UserWarning):
    """An iterative method stopped before meeting its convergence test."""


class AmbiguousGraphWarning(UserWarning):
    """Another graph, not much denser, has the same eigenvectors as the one inferred.

    Issued, for example, when an unweighted graph is inferred whose complement is
    connected and has at most twice as many edges: a graph with equal weights and
    its complement share their eigenvectors, so no inference from eigenvectors can
    tell them apart, and the sparser one is returned. Also issued when, with noisy
    eigenvectors, a sparser graph fits them to their noise level nearly as well as the
    one inferred.
    """


class NotFittedError(ValueError, AttributeError):
    """An estimator was used before ``fit``.

    It subclasses both `ValueError` and `AttributeError`, as
    scikit-learn's class of the same name does.
    """
