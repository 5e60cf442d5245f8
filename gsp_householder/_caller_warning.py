"""Warnings that point at the user's call: the first frame outside the package."""

from __future__ import annotations

import os
import sys
import warnings

#: The package's folder (as its modules' code objects name their files): frames of
#: files under it are the library's own.
PACKAGE_FOLDER = os.path.dirname(os.path.abspath(__file__))


def warn_at_caller(message: str, category: type[Warning]) -> None:
    """Issue ``warnings.warn(message, category)`` at the first frame of the call stack
    whose file is outside the package, the line of user code that called into it.

    A fixed ``stacklevel`` is right for one call path only: the same warning can be
    raised through a public function directly or through another one that calls it
    (`learn_graph` calls `infer_laplacian`; an inference can run a second inference on
    the same eigenvectors), and the frames in between differ.

    Parameters
    ----------
    message : str
        The warning's text.
    category : type of Warning
        Its class.

    Examples
    --------
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     warn_at_caller("a doubt", UserWarning)
    >>> caught[0].filename.startswith(PACKAGE_FOLDER)
    False
    """
    frame, level = sys._getframe(1), 2
    inside = PACKAGE_FOLDER + os.sep
    while frame is not None and frame.f_code.co_filename.startswith(inside):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)
