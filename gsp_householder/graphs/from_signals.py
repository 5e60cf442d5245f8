"""A graph learned from signals on it: signals -> whole Fourier basis -> Laplacian.

`learn_graph` is the toolkit's pipeline in one call. Signals $Y = VX$ on a graph,
with $V$ the graph's Fourier basis and $X$ sparse, give $V$ up to the order and
the signs of its columns (`gsp_householder.learning.whole_basis.learn_orthogonal_basis`);
the eigenvalue order is not identifiable from such signals, so the Laplacian is
then inferred without it (`gsp_householder.graphs.laplacian_inference.infer_laplacian`).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder._validation import check_rng
from gsp_householder.exceptions import ConvergenceWarning
from gsp_householder.graphs._basis_input import MIN_COS
from gsp_householder.graphs._inference_options import check_inference_options
from gsp_householder.graphs.inferred import InferredLaplacian
from gsp_householder.graphs.laplacian_inference import infer_laplacian
from gsp_householder.graphs.signals import GraphSignals
from gsp_householder.learning._code_density import dense_codes_hint
from gsp_householder.learning.whole_basis import learn_orthogonal_basis

__all__ = ["learn_graph"]


def learn_graph(Y, *, theta: float | None = None, low: float | None = None,
                high: float | None = None, nodelist=None, laplacian: str = "combinatorial",
                scale: float | None = None, rng=None,
                progress: bool | None = None) -> InferredLaplacian:
    """Learn a graph from signals on it: its Fourier basis, then its Laplacian.

    Parameters
    ----------
    Y : array_like of shape (n, p) or GraphSignals
        Signals as columns, one row per node, $p \\ge n$ (a few times $n$: see
        `gsp_householder.learning.whole_basis.learn_orthogonal_basis` for the
        measured needs). What `make_graph_signals` returns is taken as it is: its
        ``Y``, and its ``nodelist`` unless ``nodelist`` is given.
    theta : float in (0, 1], optional
        Probability of a non-zero code, if known.
    low, high : float, optional
        Value range of the non-zero codes, if known (both or neither).
    nodelist : sequence, optional
        Labels of the rows of ``Y`` (distinct); default ``0..n-1`` (or the labels of
        a ``GraphSignals``). They label the nodes of ``to_networkx()``.
    laplacian : {"combinatorial", "normalized"}, default "combinatorial"
        The Laplacian whose eigenvectors the signals are built on.
    scale : float, optional
        Mean degree of the returned combinatorial Laplacian (the eigenvectors fix
        the Laplacian up to this factor); default 1.
    rng : None, int or numpy.random.Generator
        Randomness of the learner's starts and of the candidate search.
    progress : bool, optional
        Show tqdm bars for the basis learning and the inference (default: on a
        terminal, for long runs).

    Returns
    -------
    InferredLaplacian
        The inferred graph; ``learned`` holds the learned basis and codes, and
        ``eigenvalues[k]`` is the eigenvalue of column ``k`` of
        ``learned.dictionary``. Where several graphs share the learned
        eigenvectors, ``family_dimension`` and ``candidates`` say so.

    Raises
    ------
    ValueError, TypeError
        For invalid signals or parameters (named in the message), or a
        ``nodelist`` that is not a sequence of labels, whose length differs from
        the number of rows of ``Y`` or that repeats a label (these, ``laplacian``
        and ``scale`` are checked before the basis is learned); also when the
        basis learned from ``Y`` has no column close to the zero-eigenvalue vector
        of the Laplacian (signals that do not come from a graph, or a learner that
        did not settle), nor two columns whose plane holds it (see Warns): the
        message says so and quotes `infer_laplacian`'s reason.

    Warns
    -----
    ConvergenceWarning
        When the basis learner does not settle (too few signals), or when the
        graph inferred does not fit the learned eigenvectors to their noise level
        (noisy signals: at 20-30 dB on karate from $p = 5n$ the learned basis is
        off by 0.07-0.2 and the graph's edge F1 is 0.55-0.94): the inferred graph
        is then unreliable. Also when no column of the learned basis is close to the
        constant vector but two columns together hold it: they are rotated in their
        plane so that one is constant (``history["constant_plane"]``: their indices),
        when `infer_laplacian` refuses the learned basis as it is.

    Examples
    --------
    >>> import networkx as nx
    >>> from gsp_householder import BernoulliUniform, compare_graphs, make_graph_signals
    >>> G = nx.karate_club_graph()
    >>> Y, X, V = make_graph_signals(G, 20 * 34, BernoulliUniform(0.5), rng=0)
    >>> learned = learn_graph(Y, rng=0)
    >>> round(compare_graphs(G, learned)["f1"], 3)
    1.0
    >>> learned.learned.dictionary.m
    33
    """
    Y, nodes = _signals_and_labels(Y, nodelist)
    laplacian = "combinatorial" if laplacian is None else laplacian
    check_inference_options(laplacian, scale)
    rng = check_rng(rng)
    result = learn_orthogonal_basis(Y, theta=theta, low=low, high=high, rng=rng,
                                    progress=progress)
    plane = None
    try:
        try:
            inferred = infer_laplacian(result.dictionary, laplacian=laplacian, scale=scale,
                                       rng=rng, progress=progress)
        except ValueError:
            # refused: no column close to the zero-eigenvalue vector; it may lie in the
            # plane of two columns
            V, plane = (_constant_plane(result.dictionary.to_dense())
                        if laplacian == "combinatorial" else (None, None))
            if plane is None:
                raise
            warn_at_caller(f"the learned basis holds the constant vector (the zero-eigenvalue "
                           f"eigenvector of a combinatorial Laplacian) only across its "
                           f"columns {plane[0]} and {plane[1]} (|cos| {plane[2]:.3g} and "
                           f"{plane[3]:.3g}): the learner did not separate them; they are "
                           f"rotated in their plane so that one is constant, and the graph "
                           f"is inferred from that basis (eigenvalues of those two columns "
                           f"refer to the rotated ones)", ConvergenceWarning)
            inferred = infer_laplacian(V, laplacian=laplacian, scale=scale, rng=rng,
                                       progress=progress)
    except ValueError as exc:
        hint = dense_codes_hint(*np.shape(Y), result.history["code_density"][0])
        why = ("" if result.converged else
               "the learner did not settle (see its ConvergenceWarning"
               + (f": {hint}" if hint else "") + "), and ")
        raise ValueError(f"no {laplacian} Laplacian fits the basis learned from Y: {why}"
                         f"infer_laplacian refused it as V_hat: {exc}") from exc
    inferred.nodelist = nodes
    inferred.learned = result
    if plane is not None:
        inferred.history["constant_plane"] = plane[:2]
    return inferred


def _signals_and_labels(Y, nodelist) -> tuple:
    """The signals and their node labels (a list or None), checked before any learning.

    A `GraphSignals` (what `make_graph_signals` returns) gives its ``Y`` and, unless
    ``nodelist`` is given, its ``nodelist``. The labels must be distinct, one per row.
    """
    if isinstance(Y, GraphSignals):
        nodelist = Y.nodelist if nodelist is None else nodelist
        Y = Y.Y
    if nodelist is None:
        return Y, None
    if isinstance(nodelist, str) or not isinstance(nodelist, Iterable):
        raise TypeError("nodelist must be a sequence of node labels, one per row of Y, "
                        f"got {type(nodelist).__name__}")
    nodes = list(nodelist)
    if np.ndim(Y) == 2:
        n = np.shape(Y)[0]
        if len(nodes) != n or len(set(nodes)) != n:
            raise ValueError(f"nodelist must hold {n} distinct labels, one per row of Y, "
                             f"got {len(nodes)} labels ({len(set(nodes))} distinct)")
    return Y, nodes


def _constant_plane(V) -> tuple[np.ndarray, tuple | None]:
    """The basis ``V`` with the constant vector made one of its columns when no column
    is within ``MIN_COS`` of it but two columns together are (the sum of their squared
    cosines with it at least ``MIN_COS ** 2``): the two columns are replaced by the
    constant vector and its orthogonal complement in their plane, the only rotation in
    that plane that a combinatorial Laplacian's eigenvectors can have. Returns the basis
    and ``(i, j, |cos_i|, |cos_j|)`` (``i`` the column made constant), or ``V`` and
    None if no rotation is needed or none suffices.

    The learner can return the constant vector mixed at 45 degrees with another column
    (Petersen graph from 50 signals at 30 dB, seed 0: |cos| 0.708 and 0.706, the next
    0.005); without the rotation no combinatorial Laplacian fits. The caller rotates
    only a basis that `infer_laplacian` refuses: the zero-eigenvalue columns of two
    components also hold the constant vector (|cos| 0.707 each for two components of
    30 nodes), and their basis is split into its components as it is.
    """
    n = V.shape[0]
    cos = V.sum(axis=0) / np.sqrt(n)
    i, j = np.argsort(-np.abs(cos))[:2]
    if abs(cos[i]) >= MIN_COS or cos[i] ** 2 + cos[j] ** 2 < MIN_COS ** 2:
        return V, None
    a = np.array([cos[i], cos[j]]) / np.hypot(cos[i], cos[j])
    plane = V[:, [i, j]]
    V = V.copy()
    V[:, i] = plane @ a
    V[:, j] = plane @ np.array([-a[1], a[0]])
    return V, (int(i), int(j), float(abs(cos[i])), float(abs(cos[j])))
