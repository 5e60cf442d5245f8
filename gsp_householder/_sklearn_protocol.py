"""scikit-learn's estimator protocol without importing scikit-learn.

``get_params`` / ``set_params`` / ``repr`` / tags (`ParamsMixin`), methods
that exist only for some parameter values (`available_if`), the checks of
``X`` with scikit-learn's wording (`validate_samples`), and feature names and
dataframe output (`FeatureNamesMixin`: ``feature_names_in_``,
``get_feature_names_out``, ``set_output``), as scikit-learn's ``BaseEstimator``,
``available_if``, ``validate_data``, ``ClassNamePrefixFeaturesOutMixin`` and
``_SetOutputMixin`` provide them.
"""

from __future__ import annotations

import functools
import inspect

import numpy as np

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._validation import raise_not_finite
from gsp_householder.householder import _is_dask

__all__ = ["FeatureNamesMixin", "ParamsMixin", "available_if", "feature_names_of",
           "validate_samples"]


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


# ------------------------------------------------------------------ feature names and output
_OUTPUT_CONTAINERS = ("default", "pandas", "polars")


def feature_names_of(X) -> np.ndarray | None:
    """The string column names of a dataframe ``X`` as an object array, else None.

    Follows scikit-learn: names are kept only when every column name is a
    string; a mix of string and non-string names raises ``TypeError``; arrays
    and dataframes with non-string names have no feature names. Any 2-D object
    with a ``columns`` attribute counts as a dataframe (pandas, polars, ...).
    """
    if isinstance(X, np.ndarray) or _is_dask(X) or len(getattr(X, "shape", ())) != 2:
        return None
    columns = getattr(X, "columns", None)
    if columns is None or isinstance(columns, str):
        return None
    try:
        names = np.asarray(list(columns), dtype=object)
    except TypeError:
        return None
    if names.ndim != 1 or names.size == 0:
        return None
    types = sorted({type(v).__qualname__ for v in names})
    if len(types) > 1 and "str" in types:
        raise TypeError(
            "Feature names are only supported if all input features have string names, "
            f"but your input has {types} as feature name / column name types. Convert them "
            "all to strings (for example X.columns = X.columns.astype(str)) to keep them, or "
            "to a non-string type to drop them")
    return names if types == ["str"] else None


def _library(name: str):
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        raise ImportError(f"Setting output container to {name!r} requires {name} to be "
                          "installed") from None


class FeatureNamesMixin:
    """``feature_names_in_``, ``get_feature_names_out`` and ``set_output`` as scikit-learn has them.

    Output feature names are the lower-cased class name followed by the output
    index (scikit-learn's ``ClassNamePrefixFeaturesOutMixin``); ``set_output``
    returns pandas or polars dataframes from ``transform`` and ``fit_transform``
    (scikit-learn's ``_SetOutputMixin``, including its global
    ``sklearn.set_config(transform_output=...)`` when scikit-learn is
    installed). Neither needs scikit-learn.
    """

    @property
    def _n_features_out(self) -> int:
        return int(self.n_features_in_)

    def _check_feature_names(self, X, *, reset: bool) -> None:
        """Set (``reset``) or check ``feature_names_in_`` against the names of ``X``."""
        names = feature_names_of(X)
        owner = type(self).__name__
        if reset:
            if names is not None:
                self.feature_names_in_ = names
            else:
                self.__dict__.pop("feature_names_in_", None)
            return
        fitted = getattr(self, "feature_names_in_", None)
        if fitted is None and names is None:
            return
        if fitted is None:
            warn_at_caller(f"X has feature names, but {owner} was fitted without feature names",
                           UserWarning)
            return
        if names is None:
            warn_at_caller(f"X does not have valid feature names, but {owner} was fitted with "
                           "feature names", UserWarning)
            return
        if len(fitted) != len(names) or np.any(fitted != names):
            unexpected = sorted(set(names) - set(fitted))[:5]
            missing = sorted(set(fitted) - set(names))[:5]
            detail = ""
            if unexpected:
                detail += f" Feature names unseen at fit time: {unexpected}."
            if missing:
                detail += f" Feature names seen at fit time, yet now missing: {missing}."
            if not detail:
                detail = " Feature names must be in the same order as they were in fit."
            raise ValueError("The feature names should match those that were passed during "
                             f"fit.{detail}")

    def get_feature_names_out(self, input_features=None) -> np.ndarray:
        """Names of the output features: ``"<classname><i>"``, one per atom.

        Parameters
        ----------
        input_features : array_like of str, optional
            Only checked: it must equal ``feature_names_in_`` (when fitted on a
            dataframe) and have ``n_features_in_`` entries.

        Returns
        -------
        ndarray of str objects, shape (n_features_out,)
        """
        self._check_is_fitted()
        if input_features is not None:
            input_features = np.asarray(input_features, dtype=object)
            fitted = getattr(self, "feature_names_in_", None)
            if fitted is not None and not np.array_equal(fitted, input_features):
                raise ValueError("input_features is not equal to feature_names_in_")
            if input_features.ndim != 1 or len(input_features) != self.n_features_in_:
                raise ValueError("input_features should have length equal to number of "
                                 f"features ({self.n_features_in_}), got "
                                 f"{len(np.atleast_1d(input_features))}")
        prefix = type(self).__name__.lower()
        return np.asarray([f"{prefix}{i}" for i in range(self._n_features_out)], dtype=object)

    def set_output(self, *, transform=None):
        """Choose the container of ``transform`` and ``fit_transform`` outputs.

        Parameters
        ----------
        transform : {"default", "pandas", "polars"}, optional
            ``"default"``: numpy arrays; ``"pandas"`` / ``"polars"``: a
            dataframe with columns ``get_feature_names_out()`` (and the index of a
            pandas input); None leaves the setting unchanged.

        Returns
        -------
        self

        Raises
        ------
        ValueError
            For another value of ``transform``.
        ImportError
            If the chosen library is not installed.
        """
        if transform is None:
            return self
        if not isinstance(transform, str) or transform not in _OUTPUT_CONTAINERS:
            raise ValueError(f"transform must be one of {_OUTPUT_CONTAINERS} or None, got "
                             f"{transform!r}")
        if transform != "default":
            _library(transform)
        self._sklearn_output_config = {**getattr(self, "_sklearn_output_config", {}),
                                       "transform": transform}
        return self

    def _output_container(self) -> str:
        config = getattr(self, "_sklearn_output_config", {}).get("transform")
        if config is None:
            try:
                from sklearn import get_config
            except ImportError:
                return "default"
            config = get_config().get("transform_output", "default")
        return config

    def _wrap_output(self, data: np.ndarray, X):
        """``data`` in the container chosen by ``set_output`` (numpy by default)."""
        container = self._output_container()
        if container == "default":
            return data
        columns = self.get_feature_names_out()
        if container == "pandas":
            pd = _library("pandas")
            index = X.index if isinstance(X, pd.DataFrame) else None
            return pd.DataFrame(data, index=index, columns=list(columns), copy=False)
        if container == "polars":
            pl = _library("polars")
            return pl.DataFrame(data, schema=list(columns), orient="row")
        raise ValueError(f"transform output must be one of {_OUTPUT_CONTAINERS}, got "
                         f"{container!r}")
