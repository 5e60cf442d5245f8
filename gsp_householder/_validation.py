"""Input validation shared by the public functions (private module)."""

from __future__ import annotations

import numbers

import numpy as np

_FLOATS = (np.float32, np.float64)


def check_rng(rng) -> np.random.Generator:
    """Return a Generator from ``None``, an int seed, a SeedSequence or a Generator."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, numbers.Integral | np.random.SeedSequence):
        if isinstance(rng, numbers.Integral) and not isinstance(rng, bool) and rng < 0:
            raise ValueError(f"rng must be a non-negative seed, got {rng}")
        if isinstance(rng, bool):
            raise TypeError(f"rng must be None, an int seed or a numpy Generator, got {rng!r}")
        return np.random.default_rng(rng)
    raise TypeError(f"rng must be None, an int seed or a numpy Generator, got {type(rng).__name__}")


def check_real_array(a, name: str, *, ndim: int | tuple[int, ...] | None = None,
                     allow_float32: bool = True, check_finite: bool = True) -> np.ndarray:
    """Convert to a finite real floating array, naming ``name`` in every error."""
    if hasattr(a, "toarray") and not isinstance(a, np.ndarray):
        raise TypeError(f"{name} must be a dense array, got a sparse {type(a).__name__}; "
                        "call .toarray() first")
    try:
        arr = np.asarray(a)
    except Exception as exc:  # pragma: no cover - numpy's own conversion errors
        raise TypeError(f"{name} could not be converted to an array: {exc}") from exc
    if arr.dtype == object or arr.dtype.kind in "USVOMm":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.dtype.kind == "c":
        raise TypeError(f"{name} must be real, got complex dtype {arr.dtype}")
    if arr.dtype.kind == "b":
        raise TypeError(f"{name} must hold real numbers, got boolean dtype")
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else ndim
        if arr.ndim not in allowed:
            want = " or ".join(f"{d}-D" for d in allowed)
            raise ValueError(f"{name} must be {want}, got an array of shape {arr.shape}")
    if not (allow_float32 and arr.dtype in _FLOATS):
        arr = arr.astype(np.float64)
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if check_finite and not np.isfinite(arr).all():
        raise_not_finite(arr, name)
    return arr


def raise_not_finite(arr: np.ndarray, name: str):
    """Raise the ValueError for an array with a NaN or an infinite entry."""
    bad = "NaN" if np.isnan(arr).any() else "inf"
    raise ValueError(f"{name} must be finite, found {bad}")


def check_signals(Y, name: str = "Y", *, min_rows: int = 2,
                  check_finite: bool = True) -> np.ndarray:
    """Validate a signal matrix of shape ``(n_nodes, n_signals)``."""
    arr = check_real_array(Y, name, ndim=2, check_finite=check_finite)
    n, p = arr.shape
    if n < min_rows:
        raise ValueError(
            f"{name} must have at least {min_rows} rows (nodes), got shape {arr.shape}")
    if p < 1:  # pragma: no cover - caught by the empty check
        raise ValueError(f"{name} must have at least one column (signal), got shape {arr.shape}")
    return arr


def check_scalar(x, name: str, *, low=None, high=None, low_inclusive=False,
                 high_inclusive=True, integer=False):
    """Validate a real (or integer) scalar lying in an interval."""
    if isinstance(x, bool) or not isinstance(x, numbers.Real):
        kind = "an integer" if integer else "a real number"
        raise TypeError(f"{name} must be {kind}, got {x!r}")
    if integer and not isinstance(x, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {x!r}")
    if not np.isfinite(x):
        raise ValueError(f"{name} must be finite, got {x}")
    if low is not None and (x < low or (x == low and not low_inclusive)):
        raise ValueError(f"{name} must be {'>=' if low_inclusive else '>'} {low}, got {x}")
    if high is not None and (x > high or (x == high and not high_inclusive)):
        raise ValueError(f"{name} must be {'<=' if high_inclusive else '<'} {high}, got {x}")
    return int(x) if integer else float(x)


def check_theta(theta) -> float:
    """``theta`` must lie in (0, 1]."""
    if isinstance(theta, bool) or not isinstance(theta, numbers.Real) or not np.isfinite(theta):
        raise ValueError(f"theta must be a real number in (0, 1], got {theta!r}")
    if not 0 < theta <= 1:
        raise ValueError(f"theta must be in (0, 1], got {theta}")
    return float(theta)
