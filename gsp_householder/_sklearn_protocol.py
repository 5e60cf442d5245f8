"""scikit-learn's estimator protocol without importing scikit-learn.

``get_params`` / ``set_params`` / ``repr`` / tags (`ParamsMixin`), methods
that exist only for some parameter values (`available_if`), and the checks of
``X`` with scikit-learn's wording (`validate_samples`), as scikit-learn's
``BaseEstimator``, ``available_if`` and ``validate_data`` provide them.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from gsp_householder._validation import raise_not_finite
from gsp_householder.householder import _is_dask

__all__ = ["ParamsMixin", "available_if", "validate_samples"]


class available_if:
    """A method that exists only when ``check(self)`` holds (as scikit-learn's ``available_if``)."""

    def __init__(self, check, reason: str):
        self.check = check
        self.reason = reason

    def __call__(self, fn):
        self.fn = fn
        functools.update_wrapper(self, fn)
        return self

    def __get__(self, obj, owner=None):
        if obj is None:
            return self.fn
        if not self.check(obj):
            raise AttributeError(f"{type(obj).__name__} has no attribute {self.fn.__name__!r} "
                                 f"{self.reason(obj)}")
        return self.fn.__get__(obj, owner)


class ParamsMixin:
    """``get_params`` / ``set_params`` / ``repr`` and scikit-learn tags, without scikit-learn."""

    @classmethod
    def _get_param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return sorted(p.name for p in sig.parameters.values()
                      if p.name != "self" and p.kind != p.VAR_KEYWORD)

    def get_params(self, deep: bool = True) -> dict:
        """The constructor parameters as a dict (scikit-learn's protocol)."""
        out = {}
        for key in self._get_param_names():
            value = getattr(self, key)
            if deep and hasattr(value, "get_params") and not isinstance(value, type):
                out.update((f"{key}__{k}", v) for k, v in value.get_params().items())
            out[key] = value
        return out

    def set_params(self, **params):
        """Set constructor parameters; unknown names raise ``ValueError``. Returns ``self``."""
        valid = self._get_param_names()
        for key, value in params.items():
            if key not in valid:
                raise ValueError(f"Invalid parameter {key!r} for estimator "
                                 f"{type(self).__name__}; valid parameters are {valid}")
            setattr(self, key, value)
        return self

    def __repr__(self) -> str:
        sig = inspect.signature(type(self).__init__)
        parts = []
        for name in self._get_param_names():
            default = sig.parameters[name].default
            value = getattr(self, name)
            if not (value is default or (isinstance(value, str | int | float)
                                         and type(value) is type(default)
                                         and value == default)):
                parts.append(f"{name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def __sklearn_tags__(self):
        from sklearn.utils import InputTags, Tags, TargetTags, TransformerTags

        return Tags(estimator_type=None, target_tags=TargetTags(required=False),
                    transformer_tags=TransformerTags(preserves_dtype=["float64", "float32"]),
                    input_tags=InputTags())


def validate_samples(X, *, n_features: int | None, owner: str, allow_dask: bool = False,
                     name: str = "X", check_finite: bool = True):
    """Dense real 2-D samples ``(n_samples, n_features)``, finite (or a dask array).

    ``n_features=None`` at fit time (at least 2 features needed), else the number
    seen by ``fit``. ``check_finite=False`` leaves the check to
    `gsp_householder.statistics.block_sums`, which detects non-finite entries
    from the sums without a second pass. ``owner`` names the estimator in messages.
    """
    if allow_dask and _is_dask(X):
        return _validate_dask(X, n_features=n_features, owner=owner, name=name)
    if hasattr(X, "toarray") and not isinstance(X, np.ndarray):
        raise TypeError(f"{name} is a sparse {type(X).__name__}; "
                        f"{owner} needs dense data (call .toarray())")
    if _is_dask(X):
        raise TypeError(f"{name} is a dask array; only fit and partial_fit with "
                        "method='paper' accept dask arrays")
    arr = np.asarray(X)
    if arr.dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} has dtype {arr.dtype}")
    if arr.dtype.kind in "OUSV":
        arr = arr.astype(np.float64)  # numbers stored as objects; others raise here
    if arr.dtype.kind not in "fiub":
        raise TypeError(f"{name} must hold real numbers, got dtype {arr.dtype}")
    if arr.dtype not in (np.float32, np.float64):
        arr = arr.astype(np.float64)
    if arr.ndim != 2:
        raise ValueError(f"Expected a 2-D array for {name} (n_samples, n_features), got "
                         f"shape {arr.shape}. Reshape your data with .reshape(1, -1) if it "
                         "is one signal")
    _check_shape(arr.shape, n_features=n_features, owner=owner, name=name)
    if check_finite and not np.isfinite(arr).all():
        raise_not_finite(arr, name)
    return arr


def _validate_dask(X, *, n_features: int | None, owner: str, name: str):
    dtype = np.dtype(X.dtype)
    if dtype.kind == "c":
        raise ValueError(f"Complex data not supported: {name} has dtype {dtype}")
    if dtype.kind not in "fiu":
        raise TypeError(f"{name} must hold real numbers, got dtype {dtype}")
    if X.ndim != 2:
        raise ValueError(f"Expected a 2-D array for {name} (n_samples, n_features), got "
                         f"shape {X.shape}")
    _check_shape(X.shape, n_features=n_features, owner=owner, name=name)
    return X


def _check_shape(shape, *, n_features: int | None, owner: str, name: str) -> None:
    n_samples, n_cols = shape
    if n_features is not None:
        if n_cols != n_features:
            raise ValueError(f"{name} has {n_cols} features, but {owner} "
                             f"is expecting {n_features} features as input")
    elif n_cols < 2:
        raise ValueError(f"{name} has {n_cols} feature(s) (shape={tuple(shape)}) while a "
                         "minimum of 2 is required: features are graph nodes "
                         f"(n_features = {n_cols})")
    if n_samples < 1:
        raise ValueError(f"{name} has 0 sample(s) (shape={tuple(shape)}) while a minimum "
                         "of 1 is required")
