"""Exact eigenvectors answered by a graph far denser than the misfit it replaced.

When the exact searches' graph does not fit exact eigenvectors to rounding, not even
with its weights fitted again on its own edges (``_support_refit``), a graph that does,
found by the rankings at a noise level, takes its place however dense, up to half the
pairs (``_rounding_level_fit.fit_replaces_misfit``). The misfit is usually a vertex
that zeroes a few entries of the family its answer belongs to (an RGG of 300 nodes:
1268 edges replaced by 1276, which agree at F1 0.997 at most), but it can be far
sparser than the answer: PyGSP ``Comet(100, 20)``, draw 1 of ``bench_inference.py``'s
exact input, gave 149 edges (residual 1.6e-6) replaced by a member of 767 edges (F1
0.22 with the tree of 99 edges), which no search had a reason to doubt. The answer is
then one member of a family of graphs that the searches reached far sparser ones
beside: that is warned of, with the bound on their agreement, $2 m / (m + e)$ for a
misfit of $m$ edges beside an answer of $e$, below ``EDGE_AGREEMENT`` (the accuracy
the noisy family doubt holds graphs to, ``_family_doubt``).

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from gsp_householder._caller_warning import warn_at_caller
from gsp_householder.exceptions import AmbiguousGraphWarning
from gsp_householder.graphs._family_doubt import EDGE_AGREEMENT


def misfit_agreement(misfit_edges: int, edges: int) -> float:
    """The most an answer of ``edges`` edges and a misfit of ``misfit_edges`` edges can
    agree in F1, were the misfit's edges a subset of the answer's: $2 m / (m + e)$."""
    return 2.0 * misfit_edges / (misfit_edges + edges)


def replaced_misfit_warning(edges: int, history: dict) -> None:
    """Warn (``AmbiguousGraphWarning``) when the answer, of ``edges`` edges, took the
    place of a misfit of the exact searches (``history["misfit_replaced"]``) with fewer
    edges that it agrees with below ``EDGE_AGREEMENT`` at most (``misfit_agreement``);
    ``history["misfit_doubt"]`` is then the misfit's edges and that agreement.

    Parameters
    ----------
    edges : int
        Edges of the graph returned.
    history : dict
        The inference's history.
    """
    replaced = history.get("misfit_replaced")
    if replaced is None or replaced[0] >= edges:
        return
    agreement = misfit_agreement(int(replaced[0]), edges)
    if agreement >= EDGE_AGREEMENT:
        return
    history["misfit_doubt"] = (int(replaced[0]), agreement)
    warn_at_caller(
        f"the inferred graph ({edges} edges) fits these exact eigenvectors, but "
        f"the exact searches reached a graph of {replaced[0]} edges that fits "
        f"them to {replaced[1]:.1e} only, and agrees with it at F1 "
        f"{agreement:.3f} at most (below {EDGE_AGREEMENT:g}): the answer is one "
        f"member of a family of valid graphs, and the graph sought may be a "
        f"sparser member that the search did not reach",
        AmbiguousGraphWarning,
    )
