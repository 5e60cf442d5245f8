"""A minimal dataframe for tests: 2-D values with column names, as pandas and polars expose."""

import numpy as np


class Frame:
    """What the estimator reads of a dataframe: values, columns, shape and ``__array__``."""

    def __init__(self, values, columns):
        self.values = np.asarray(values)
        self.columns = list(columns)
        self.shape = self.values.shape

    def __array__(self, dtype=None, copy=None):
        return self.values if dtype is None else self.values.astype(dtype)
