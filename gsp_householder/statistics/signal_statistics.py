"""Sufficient statistics of a signal matrix: row sums, row sums of squares, count.

The paper's Algorithms 1-3 read $Y$ only through its row sums $Y\\mathbf 1$, and
the blind scale estimate needs the row sums of squares too. One pass over the
data (in memory, streamed in column blocks, or in parallel over chunks) gives
everything; every estimator then costs $O(n)$ or $O(mn)$.
"""

from __future__ import annotations

import numpy as np

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._validation import check_signals
from gsp_householder.exceptions import DegenerateStatisticsError, DegenerateStatisticsWarning
from gsp_householder.statistics._kernels import row_sums_and_squares, sums_moments, vector_dot

__all__ = ["SignalStatistics"]

class SignalStatistics:
    """Row sums, row sums of squares and column count of signals ``Y`` (n, p).

    Accumulates column blocks in $O(n)$ memory, always in float64.

    Parameters
    ----------
    n_nodes : int
        Number of rows $n$ of the signals.

    Attributes
    ----------
    row_sums : ndarray of shape (n,)
        $\\sum_j Y_{ij}$.
    row_sq_sums : ndarray of shape (n,)
        $\\sum_j Y_{ij}^2$.
    count : int
        Number of columns seen, $p$.

    Examples
    --------
    >>> import numpy as np
    >>> from gsp_householder import SignalStatistics
    >>> Y = np.arange(12.0).reshape(3, 4)
    >>> stats = SignalStatistics(3).update(Y[:, :2]).update(Y[:, 2:])
    >>> stats.count, stats.mean.tolist()
    (4, [1.5, 5.5, 9.5])
    >>> np.allclose(stats.row_sums, SignalStatistics.from_array(Y).row_sums)
    True
    """

    def __init__(self, n_nodes: int):
        if isinstance(n_nodes, bool) or not isinstance(n_nodes, int | np.integer):
            raise TypeError(f"n_nodes must be an integer, got {n_nodes!r}")
        if n_nodes < 2:
            raise ValueError(f"n_nodes must be at least 2, got {n_nodes}")
        self.row_sums = np.zeros(int(n_nodes))
        self.row_sq_sums = np.zeros(int(n_nodes))
        self.count = 0

    @property
    def n_nodes(self) -> int:
        """Number of rows $n$."""
        return self.row_sums.shape[0]

    def __repr__(self) -> str:
        return f"SignalStatistics(n_nodes={self.n_nodes}, count={self.count})"

    @classmethod
    def from_array(cls, Y, *, block_size: int | None = None) -> SignalStatistics:
        """Statistics of an in-memory array ``Y`` of shape (n, p).

        Parameters
        ----------
        Y : array_like of shape (n, p)
            Signals as columns; must be finite.
        block_size : int, optional
            Number of columns read at a time (bounds the float64 temporary of the
            squares); default: all at once up to 2**26 entries.
        """
        return statistics_of_validated(check_signals(Y, check_finite=False),
                                       block_size=block_size)

    def update(self, Y_block) -> SignalStatistics:
        """Add a block of columns (n, p_block); returns ``self`` for chaining."""
        block = check_signals(Y_block, "Y_block", check_finite=False)
        if block.shape[0] != self.n_nodes:
            raise ValueError(
                f"Y_block must have {self.n_nodes} rows to match the statistics, "
                f"got shape {block.shape}")
        self._accumulate(block, "Y_block")
        return self

    def _accumulate(self, block: np.ndarray, name: str) -> None:
        """One fused pass: row sums and row sums of squares (`row_sums_and_squares`).

        Finiteness is checked on the sums (a NaN or inf entry makes its row's sums
        non-finite), so the data are read once; the entries are inspected only
        when a sum is not finite, to say why.
        """
        sums, squares = row_sums_and_squares(block, name)
        p = block.shape[1]
        if self.count == 0:  # nothing to add to: the block's sums are the statistics
            self.row_sums, self.row_sq_sums = sums, squares
            self.count = p
            return
        with np.errstate(over="ignore", invalid="ignore"):
            sums += self.row_sums
            squares += self.row_sq_sums
            total = np.add.reduce(sums) + np.add.reduce(squares)  # NaN and inf propagate
        if not np.isfinite(total) and not (np.isfinite(sums).all() and np.isfinite(squares).all()):
            raise ValueError(f"{name}: the accumulated sums overflow float64; rescale the signals")
        self.row_sums, self.row_sq_sums = sums, squares
        self.count += p

    def merge(self, other: SignalStatistics) -> SignalStatistics:
        """Return the statistics of the union of two column sets (a new object)."""
        if not isinstance(other, SignalStatistics):
            raise TypeError(f"other must be a SignalStatistics, got {type(other).__name__}")
        if other.n_nodes != self.n_nodes:
            raise ValueError(f"other has n_nodes={other.n_nodes}, expected {self.n_nodes}")
        out = SignalStatistics(self.n_nodes)
        with np.errstate(over="ignore"):
            out.row_sums = self.row_sums + other.row_sums
            out.row_sq_sums = self.row_sq_sums + other.row_sq_sums
        if not (np.isfinite(out.row_sums).all() and np.isfinite(out.row_sq_sums).all()):
            raise ValueError("other: the merged sums overflow float64; rescale the signals")
        out.count = self.count + other.count
        return out

    @classmethod
    def from_sums(cls, row_sums, row_sq_sums, count: int) -> SignalStatistics:
        """Build from precomputed sums (for example reduced by dask)."""
        row_sums = np.asarray(row_sums, dtype=np.float64)
        row_sq_sums = np.asarray(row_sq_sums, dtype=np.float64)
        if row_sums.ndim != 1 or row_sums.shape != row_sq_sums.shape:
            raise ValueError("row_sums and row_sq_sums must be 1-D of equal length, got "
                             f"{row_sums.shape} and {row_sq_sums.shape}")
        if not (np.isfinite(row_sums).all() and np.isfinite(row_sq_sums).all()):
            raise ValueError("row_sums and row_sq_sums must be finite")
        stats = cls(row_sums.shape[0])
        stats.row_sums = row_sums.copy()
        stats.row_sq_sums = row_sq_sums.copy()
        stats.count = int(count)
        return stats

    def _require_data(self) -> None:
        if self.count == 0:
            raise ValueError("the statistics are empty: update them with at least one column")

    @property
    def mean(self) -> np.ndarray:
        """Mean column $\\bar y = Y \\mathbf 1 / p$, shape (n,)."""
        self._require_data()
        return self.row_sums / self.count

    @property
    def variance(self) -> np.ndarray:
        """Unbiased sample variance of each row, shape (n,); needs ``count >= 2``."""
        self._require_data()
        if self.count < 2:
            raise ValueError("the row variances need at least 2 columns, got 1")
        var = self.row_sums / self.count  # the mean, then, in place, the variance
        np.multiply(var, var, out=var)
        var *= self.count
        np.subtract(self.row_sq_sums, var, out=var)
        var /= self.count - 1
        return np.maximum(var, 0.0, out=var)

    def scale_estimate(self) -> float:
        """Blind estimate of $a = \\theta\\mu$ from $\\|V\\mathbf 1\\| = \\sqrt n$.

        Since $E[\\bar y] = a V \\mathbf 1$ and $V$ is orthogonal,
        $E\\|\\bar y\\|^2 = a^2 n + \\sum_i \\operatorname{Var}(Y_{ij}) / p$, so
        $$\\hat a^2 = \\Big(\\|\\bar y\\|^2 - \\tfrac1p \\sum_i s_i^2\\Big) / n$$
        is unbiased, with $s_i^2$ the sample variance of row $i$. With one column
        the variance is unknown and the estimate is not debiased (a warning says so).

        Raises
        ------
        DegenerateStatisticsError
            If $\\hat a^2 \\le 0$: the mean column is indistinguishable from zero,
            so the first moment carries no information about $V$.
        """
        return self._blind_scale()[0]

    def _variance_sum(self, out: np.ndarray | None = None) -> float:
        """$\\sum_i s_i^2$, the sum of the row variances (``count >= 2``); ``out`` as in
        `_scaled_variance`."""
        return float(np.add.reduce(self._scaled_variance(out))) / (self.count - 1)

    def _scaled_variance(self, out: np.ndarray | None = None) -> np.ndarray:
        """$(p - 1) s_i^2$ for every row, as `variance` but in four passes over one
        n-vector instead of six: ``out`` (float64, shape (n,)) if given, so that a
        caller with a buffer to spare allocates nothing. ``out`` may be
        ``row_sq_sums`` itself (the statistics are then lost): the rows are then
        taken in blocks of 8192 through a small temporary."""
        if out is not None and np.shares_memory(out, self.row_sq_sums):
            block = 1 << 13
            part = np.empty(min(block, out.shape[0]))
            for lo in range(0, out.shape[0], block):
                hi = min(out.shape[0], lo + block)
                chunk = part[:hi - lo]
                with np.errstate(over="ignore", invalid="ignore"):  # as `variance`
                    np.multiply(self.row_sums[lo:hi], self.row_sums[lo:hi], out=chunk)
                    chunk *= 1.0 / self.count
                    np.subtract(self.row_sq_sums[lo:hi], chunk, out=out[lo:hi])
                np.maximum(out[lo:hi], 0.0, out=out[lo:hi])
            return out
        with np.errstate(over="ignore", invalid="ignore"):  # as `variance` on huge rows
            part = np.multiply(self.row_sums, self.row_sums, out=out)
            part *= 1.0 / self.count
            np.subtract(self.row_sq_sums, part, out=part)
        return np.maximum(part, 0.0, out=part)

    def _moments(self, scratch: np.ndarray | None = None
                 ) -> tuple[float, float | None, float | None]:
        """What the blind scale and the noise level read from the statistics, in one pass.

        Returns $\\|\\bar y\\|^2$, $\\sum_i s_i^2$ (row variances) and $\\|v\\|$ with
        $v_i = (p - 1) s_i^2$; the two variance terms are ``None`` with one column.
        One compiled pass over the sums when the numba backend is active
        (`_kernels.sums_moments`), else numpy passes through ``scratch`` as ``out`` in
        `_scaled_variance` (they also handle squares that overflow float64).
        """
        p = self.count
        sums = self.row_sums
        fast = sums_moments(sums, self.row_sq_sums, p)
        if fast is not None:
            s2, v1, v2 = fast
            if p < 2:
                return s2 / (p * p), None, None
            return s2 / (p * p), v1 / (p - 1), float(np.sqrt(v2))
        # ||mean||^2 in one pass, no threaded BLAS call and no n-vector temporary
        sq = float(vector_dot(sums, sums)) / (p * p)
        if not np.isfinite(sq):  # the squares of the sums overflow: those of the mean may not
            ybar = self.mean
            sq = float(vector_dot(ybar, ybar))
        if p < 2:
            return sq, None, None
        scaled_var = self._scaled_variance(scratch)
        variance_sum = float(np.add.reduce(scaled_var)) / (p - 1)
        norm = float(np.sqrt(vector_dot(scaled_var, scaled_var)))
        if not np.isfinite(norm):  # the squares overflow: scale by the largest first
            top = float(scaled_var.max())
            scaled_var /= top
            norm = top * float(np.sqrt(vector_dot(scaled_var, scaled_var)))
        return sq, variance_sum, norm

    def _blind_scale(self, scratch: np.ndarray | None = None,
                     moments: tuple | None = None) -> tuple[float, float | None]:
        """`scale_estimate` and the sum of the row variances it used (``None`` with one
        column), so that a caller needing both computes the variances once; ``scratch``
        as ``out`` in `_scaled_variance`; ``moments``: `_moments`, if the caller has them."""
        self._require_data()
        p = self.count
        sq, variance_sum, norm = self._moments(scratch) if moments is None else moments
        null_sd = None
        if p >= 2:
            sq -= variance_sum / p
            # sd of ||mean||^2 - sum(var)/p when the true mean is zero (Gaussian rows)
            null_sd = np.sqrt(2.0) * norm / (p - 1) / p
        else:
            warn_at_caller("with a single signal the blind scale cannot be debiased; "
                           "pass theta and mu, or give more signals",
                           DegenerateStatisticsWarning)
        if not sq > 0:
            raise DegenerateStatisticsError(
                "the blind scale estimate theta*mu is not positive (radicand "
                f"||mean||^2 - sum(var)/p = {sq:.3g}): the mean column is indistinguishable "
                "from zero; pass theta and mu, or give more signals")
        if null_sd is not None and sq < 3.0 * null_sd:
            warn_at_caller(
                "the mean column is not significantly different from zero "
                f"(z = {sq / null_sd:.2f} < 3): the blind scale theta*mu, and every estimate "
                "built on it, is unreliable; pass theta and mu, or give more signals",
                DegenerateStatisticsWarning)
        return float(np.sqrt(sq / self.n_nodes)), variance_sum


def statistics_of_validated(Y: np.ndarray, *, block_size: int | None = None,
                            name: str = "Y") -> SignalStatistics:
    """`SignalStatistics.from_array` for a real 2-D array already validated by the caller.

    Finiteness is still detected (from the sums, without a second pass), so a
    caller may validate with ``check_finite=False``.
    """
    if Y.shape[0] >= 2 and Y.shape[1] >= 1:
        # the first block's sums become the statistics (`_accumulate`): no zero vectors
        # to allocate and throw away
        stats = SignalStatistics.__new__(SignalStatistics)
        stats.count = 0
    else:
        stats = SignalStatistics(Y.shape[0])  # raises on fewer than 2 rows
    if block_size is None:
        block_size = Y.shape[1]
    for start in range(0, Y.shape[1], block_size):
        stats._accumulate(Y[:, start:start + block_size], name)
    return stats
