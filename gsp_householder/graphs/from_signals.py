"""A graph learned from signals on it: signals -> whole Fourier basis -> Laplacian.

`learn_graph` is the toolkit's pipeline in one call. Signals $Y = VX$ on a graph,
with $V$ the graph's Fourier basis and $X$ sparse, give $V$ up to the order and
the signs of its columns (`gsp_householder.learning.whole_basis.learn_orthogonal_basis`);
the eigenvalue order is not identifiable from such signals, so the Laplacian is
then inferred without it (`gsp_householder.graphs.laplacian_inference.infer_laplacian`).
"""

from __future__ import annotations

import numpy as np

from gsp_householder._validation import check_rng
from gsp_householder.graphs.inferred import InferredLaplacian
from gsp_householder.graphs.laplacian_inference import infer_laplacian
from gsp_householder.learning.whole_basis import learn_orthogonal_basis

__all__ = ["learn_graph"]


def learn_graph(Y, *, theta: float | None = None, low: float | None = None,
                high: float | None = None, nodelist=None, laplacian: str = "combinatorial",
                scale: float | None = None, rng=None,
                progress: bool | None = None) -> InferredLaplacian:
    """Learn a graph from signals on it: its Fourier basis, then its Laplacian.

    Parameters
    ----------
    Y : array_like of shape (n, p)
        Signals as columns, one row per node, $p \\ge n$ (a few times $n$: see
        `gsp_householder.learning.whole_basis.learn_orthogonal_basis` for the
        measured needs).
    theta : float in (0, 1], optional
        Probability of a non-zero code, if known.
    low, high : float, optional
        Value range of the non-zero codes, if known (both or neither).
    nodelist : sequence, optional
        Labels of the rows of ``Y`` (distinct); default ``0..n-1``. They label the
        nodes of ``to_networkx()``.
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
        ``nodelist`` whose length differs from the number of rows of ``Y`` or
        that repeats a label; also when the basis learned from ``Y`` has no
        column close to the zero-eigenvalue vector of the Laplacian (signals that
        do not come from a graph, or a learner that did not settle): the message
        says so and quotes `infer_laplacian`'s reason.

    Warns
    -----
    ConvergenceWarning
        When the basis learner does not settle (too few signals), or when the
        graph inferred does not fit the learned eigenvectors to their noise level
        (noisy signals: at 20-30 dB on karate from $p = 5n$ the learned basis is
        off by 0.07-0.2 and the graph's edge F1 is 0.55-0.94): the inferred graph
        is then unreliable.

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
    nodes = None if nodelist is None else list(nodelist)
    if nodes is not None and np.ndim(Y) == 2:
        n = np.shape(Y)[0]
        if len(nodes) != n or len(set(nodes)) != n:
            raise ValueError(f"nodelist must hold {n} distinct labels, one per row of Y, "
                             f"got {len(nodes)} labels ({len(set(nodes))} distinct)")
    rng = check_rng(rng)
    result = learn_orthogonal_basis(Y, theta=theta, low=low, high=high, rng=rng,
                                    progress=progress)
    try:
        inferred = infer_laplacian(result.dictionary, laplacian=laplacian, scale=scale,
                                   rng=rng, progress=progress)
    except ValueError as exc:
        why = ("" if result.converged else
               "the learner did not settle (see its ConvergenceWarning), and ")
        raise ValueError(f"no {laplacian} Laplacian fits the basis learned from Y: {why}"
                         f"infer_laplacian refused it as V_hat: {exc}") from exc
    inferred.nodelist = nodes
    inferred.learned = result
    return inferred
