"""The result of Laplacian inference, and its conversion to a networkx graph."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from gsp_householder._validation import check_real_array, check_scalar
from gsp_householder.graphs._complement_graph import complement_laplacian
from gsp_householder.learning.result import DictionaryResult

__all__ = ["InferredLaplacian", "to_networkx"]


@dataclass
class InferredLaplacian:
    """Result of ``infer_laplacian``.

    Attributes
    ----------
    laplacian : scipy.sparse.csr_array of shape (n, n)
        A valid Laplacian of type ``laplacian_type``: for a combinatorial one
        symmetric, off-diagonal $\\le 0$, rows summing to 0, trace ``n * scale``
        (``n`` by default); for a normalized one $I - D^{-1/2} W D^{-1/2}$.
    eigenvalues : ndarray of shape (n,)
        The eigenvalue of every column of the basis given (in its order):
        $\\operatorname{diag}(\\hat V^T L \\hat V)$. Sorted, they are the spectrum
        that ``compare_spectra`` compares with the truth.
    n_edges : int
        Number of edges of the inferred graph.
    residual : float
        $\\|\\hat V^T L \\hat V - \\operatorname{diag}(\\hat V^T L \\hat V)\\|_F /
        \\|L\\|_F$: 0 when $\\hat V$ diagonalises $L$ exactly.
    laplacian_type : str
        ``"combinatorial"`` or ``"normalized"``.
    nodelist : list or None
        Node labels of the rows (from a ``FourierBasis``); None for ``0..n-1``.
    family_dimension : int
        Dimension of the space of eigenvalue vectors whose Laplacians vanish
        wherever the valid graphs found vanish. 1: the graph is determined by the
        eigenvectors (up to scale); above 1: a family of valid graphs shares them
        (repeated eigenvalues, twin nodes) and ``candidates`` lists those found.
    candidates : list of scipy.sparse.csr_array
        The distinct valid connected Laplacians found, sparsest first;
        ``candidates[0]`` is ``laplacian``. For a basis split into components, whole
        graphs made of the components' candidates (``history["candidate_choices"]``:
        the index of each component's candidate in its list, whose lengths are
        ``history["component_candidates"]``): the components' answers, each other
        candidate of one component with the others' answers, and for each rank that two
        components reach their candidates of that rank together.
    complement_twin : bool
        Whether the complement of the inferred graph is a connected graph with the same
        eigenvectors: true for every graph with equal weights (to the noise level, with
        noisy eigenvectors; and regular, for a normalized Laplacian) whose complement is
        connected, from a basis with no eigenvalue order. For such a graph $L$ with
        weight $c$, $c(nI - J) - L$ is the complement's Laplacian (for a normalized
        $I - A/d$, $I - (J - I - A)/(n - 1 - d)$) and is diagonal in the same basis, so
        no inference from eigenvectors tells the two apart: the sparser is returned, a
        prior that answers a graph with more than half of the pairs by its complement.
        Not a warning (it holds for every sparse unweighted answer, as for the truth):
        the complement, built on demand by ``complement()``, is not among the
        ``candidates``, unless it has at most ``COMPLEMENT_RATIO`` (2) times the edges
        (combinatorial), where it is listed and warned of
        (``history["complement_edges"]``).
    learned : DictionaryResult or None
        Set by `gsp_householder.graphs.from_signals.learn_graph`: the learned
        basis (``learned.dictionary``, a HouseholderProduct whose columns are the
        eigenvectors that ``eigenvalues`` refers to) and the codes of the signals.
    history : dict
        Search details: ``"candidate_edges"`` (edges of each candidate),
        ``"complement_sizes"``, ``"n_evaluations"``, ``"vertex_searches"`` (families of
        more than one direction whose linear-program vertices were searched),
        ``"sparser_members"`` (when present: families whose member on the hyperplane of
        the most pair rows was sparser than their vertices and joined the candidates),
        ``"unpolished_vertices"`` (when present: linear-program vertices of noisy seed
        families above 500 nodes left out of the candidates, being far denser than the
        sparsest vertex; module ``_seed_vertices``),
        ``"noise_estimates"`` (one per pair ranking tried), ``"noise"`` (the noise level
        of the search that gave the graph; 0, or the rounding level 1e-11, for exact
        eigenvectors) and, with noise,
        ``"residuals"`` of the graphs the rankings gave, ``"noisy_graphs"`` (for each
        of them: edges, residual, rotation residual, whether its weights are equal to
        the noise level, family dimension) and ``"noise_ratio"``: the
        residual over the smallest noise estimate (about 1 to 3 when the graph fits the
        eigenvectors to their noise; above 5 it does not, and the graph is doubtful).
        ``"found_eigenspaces"``, when the search was repeated with one eigenvalue per
        eigenspace of the graph found: the number of groups, the edges of the graph
        that search gave, with noise ``"fit_ratios"`` (its residual and rotation
        residual per free pair over those of the graph found), and ``"chosen"`` if
        that graph was returned.
        ``"rival_edges"``, when that search gave a sparser graph that fits noisy
        eigenvectors to their noise level but not as well (an
        ``AmbiguousGraphWarning``; it is the last of the candidates).
        ``"undecided_searches"``, when the noisy rankings gave graphs that fit as well
        and lie further apart than their families' dimensions, none with equal
        weights, and the searches were run again with other random objectives: the
        edges of each search's graph and the index of the one returned;
        ``"undecided"`` if every search left the graph so (an
        ``AmbiguousGraphWarning``). ``"superset_edges"``, when twin nodes of the graph
        share an eigenspace whose columns are the eigenvectors of a sparse graph on
        them, so that the graph plus it is valid too (an ``AmbiguousGraphWarning``; it
        is the last of the candidates: the wheel beside the star).
        ``"sparser_rival_edges"`` and ``"sparser_rival_agreement"``, when the rankings
        searched again at the smallest noise estimate give a sparser graph that fits noisy
        eigenvectors as well as the graph returned and whose edges agree with it below
        ``EDGE_AGREEMENT`` in F1 (its edges and that F1; an ``AmbiguousGraphWarning``; it
        is the last of the candidates).
        ``"fitting_rival_edges"``, ``"fitting_rival_agreement"`` and
        ``"fitting_rival_ratio"``, when the noisy rankings gave a sparser graph with
        equal weights to the noise level that fits the eigenvectors (rotation residual
        within ``RESIDUAL_CONSISTENT`` times the graph returned's, that ratio) though not
        as well, and whose edges agree with the graph returned below ``EDGE_AGREEMENT``
        in F1 (its edges and that F1; an ``AmbiguousGraphWarning``; it is the last of
        the candidates).
        ``"equal_weight_rival_edges"``, when that sparser graph has equal weights to the
        noise level while the graph found has not: it is returned (the number of edges
        fewer), and the graph found is the last of the candidates.
        ``"twin_clique_edges"`` and ``"local_rewiring_edges"``, when a sparser graph that
        fits noisy eigenvectors as well is returned in place of the graph found (the
        number of edges fewer; the graph found is the last of the candidates): without
        the cliques on its adjacent twins (module ``_twin_cliques``), or rewired among
        the nodes of columns supported on a few nodes (module ``_local_rewiring``).
        ``"spanning_tree_edges"``, likewise, when the sparser graph is a tree with equal
        weights read from the graph found, a denser one, and refitted (module
        ``_spanning_tree``), or searched on the eigenvectors alone when the graph found
        shows missing edges (module ``_tree_search``). ``"searched_tree"``, when the
        searches ended at the complete graph and a tree searched on the eigenvectors
        that fits them as well was returned (the complete graph, if found, follows it
        among the candidates); ``"tree_search_misfit"``, the misfit of a tree searched.
        ``"fitting_tree"``, when a spanning tree with unit weights that fits noisy
        eigenvectors at the rankings' noise level was returned before any search (the
        rankings' kept pairs leave most eigenvalues free): its residual in units of
        that level; ``"fitting_tree_edges"``, when such a tree was returned in place of
        a weighted member of a large family (the number of edges fewer; the graph found
        is the last of the candidates; module ``_fitting_tree``). ``"exact_tree"``,
        when a spanning tree with unit weights that fits exact eigenvectors to rounding
        was returned where the exact searches gave no graph (before the other searches)
        or where they ended at the complete graph (False when one was searched before
        the other searches and none fitted); ``"exact_tree_edges"``, when such a
        tree was returned in place of a denser member of a family found exact (the
        number of edges fewer; the graph found is the last of the candidates).
        ``"own_noise_tree_edges"``, when a spanning tree with unit weights that fits
        the noise its own non-edges show was returned in place of a weighted graph that
        does not fit at the rankings' level, or fits at it but lacks edges the
        eigenvectors show (a star: module ``_own_noise``): the number
        of edges fewer, ``"noise_ratio"`` then the tree's rotation residual in units of
        the one that noise predicts and ``"searches_noise_ratio"`` the graph found's
        (the last of the candidates).
        ``"disjoint_member_edges"``, when a sparser valid graph with none of the edges
        of the graph found fits the eigenvectors as well and was returned in its place
        (a cubic graph beside its distance-2 graph): its edges and those of the graph
        found, which stays among the candidates. ``"equalised_sparser"``, when exact
        eigenvectors gave weighted graphs with fewer edges than the first found whose
        edges with equal weights fit them exactly (a torus with one weight per
        direction): the edges of the graph that was first and of the sparsest such
        graph, now first. ``"misfit_replaced"``, when exact eigenvectors gave a graph
        that does not fit them to rounding and the rankings searched again at a noise
        level gave one that does, returned in its place even if denser (its weights
        fitted again on its own edges did not fit them either): the edges and
        residual of the graph replaced; ``"misfit_doubt"``, when that graph had fewer
        edges than the one returned and agrees with it below F1 0.95 at most (warned,
        ``AmbiguousGraphWarning``): its edges and that agreement. ``"support_refit"``,
        when the exact searches' graph did not fit exact eigenvectors to rounding and
        its weights fitted again on its own edges did (module ``_support_refit``): its
        edges and residual before and after.
        ``"missing_edge_refit"``, when noisy eigenvectors gave a graph some of whose
        non-edges they show as significantly negative entries (module
        ``_missing_edges``) and that graph refitted by least
        squares with them, the added pairs that are not significant dropped, was put
        first (it fits them to their noise level where the graph did not, or better
        than the graph did), or, above 500 nodes, took the place of a sparser graph of
        the noisy ladder that did not fit as well as the graph taken: the edges of the
        graph found and of the graph refitted.
        ``"hidden_edges"``, when noisy eigenvectors gave a graph that lacks an edge
        whose weight edges around it took, which the edge tests pass, and the edge
        set the edge tests descend to from it with the pair whose addition lowers the
        fit most was put first (it fits better by more than ``RESIDUAL_SLACK``;
        module ``_hidden_edge``): the edges of the graph found and of that graph.
        ``"column_halves_graph"``, when the graph
        found is the complete bipartite graph between the halves of a $\\pm 1$
        eigenvector (a ``ConvergenceWarning``: every basis with that vector
        diagonalises it).
        ``"near_complete"``, when noisy
        eigenvectors gave a member of the constant-diagonal family that misses fewer
        pairs than a connected graph has edges (a ``ConvergenceWarning``).
        ``"regular_equal_weight"``, when noisy eigenvectors searched as exact (few pairs
        per unknown) gave the complete graph or an irregular graph and the sparsest
        regular graph that fits them at the noise level of their constant-diagonal
        family has unequal weights: its edges (``"weighted"``), those of the members
        with equal weights to that level found (``"equal"``, put first, sparsest
        first) and the edge key of the member put first (an
        ``AmbiguousGraphWarning`` when it is the graph returned).
        ``"regular_superset_edges"``, when exact eigenvectors of an irregular graph
        returned with equal weights fit as exactly a regular graph with equal weights
        that holds it (the 3 x 4 torus behind its cylinder, module
        ``_regular_alternatives``): the edges of that graph and of its Cayley twins, among
        the candidates (an ``AmbiguousGraphWarning``).
        ``"regular_twin_edges"``, when noisy eigenvectors gave a regular graph with
        equal weights and other regular graphs with equal weights and as many edges,
        members of their noisy constant-diagonal family, fit them as well (isomorphic
        twins of the Pappus or Heawood graph; module ``_regular_twins``): their edges,
        among the candidates (an ``AmbiguousGraphWarning`` unless another check warned).
        ``"family_doubt"``, when a noisy graph with weights not equal to the noise
        level comes from a family that may hold a member agreeing with it below 0.95
        in F1: that member's fewest edges and that agreement (a
        ``ConvergenceWarning``).
        ``"equally_sparse_edges"``, when other valid graphs with no more edges than the
        graph returned fit the eigenvectors as well (their edges; an
        ``AmbiguousGraphWarning``; they are among the candidates), and
        ``"relabelled_circulant"`` when one of them is the graph returned relabelled
        along a cyclic order of its nodes (the last of the candidates), and
        ``"regular_ties"`` when, from exact eigenvectors, they are regular graphs with
        equal weights beside a regular graph returned (their number; module
        ``_regular_alternatives``: the Heawood graph beside an isomorphic cubic graph).
        ``"weak_edges"``, when some edges of the graph are not significantly nonzero at
        the rotation noise level its non-edges show (a ``ConvergenceWarning``): their
        number, ``"edge_z"`` (the smallest z-score and the threshold, the one-sided
        Bonferroni quantile at family-wise level 0.05) and ``"rotation_noise"``.
        ``"missing_edges"``, when some non-edges of the graph have significantly negative
        entries of $V \\hat\\Lambda V^T$ at that noise level (edge weights the
        eigenvectors show and the graph lacks; module ``_missing_edges``): their
        number, and ``"missing_z"`` (the largest z-score and the threshold, the
        one-sided Bonferroni quantile over the non-edges at family-wise level 0.05, times
        2); a
        ``ConvergenceWarning`` when they are too many for the graph to be within 0.95
        in F1 of a graph that has them.
        ``"pendant_cycle_edges"`` and ``"completed_twin_edges"``, when the graph has
        equal weights and denser graphs with equal weights made from it locally fit the
        eigenvectors as well (no warning; they are the candidates right after it): two
        pendant paths of one length on one node closed into a cycle through it (a
        tadpole beside the spider returned; module ``_pendant_cycles``), and its classes
        of non-adjacent twins joined into cliques (a lollipop beside the tree
        returned); their edge counts. ``"twin_clique_member_edges"``, when those classes
        make two blocks or more that fit joined one by one: the edge counts of the graphs
        with every block joined but one and with one block joined, listed next (a cave
        whose truth joins some classes and not others; module ``_twin_cliques``).
        ``"opened_pendant_cycles"``, when the searches'
        graph, with equal weights, had cycles of $2m + 1 \\ge 5$ nodes hanging off one
        node whose opening into two pendant paths fits as well: the number of cycles
        opened (the graph so made, an edge sparser per cycle, is returned, and the
        closed form listed next). ``"unfolded_path_edges"``, when a cycle with equal
        weights through every node was replaced by a path whose $4L - L^2$ it is (an
        ``AmbiguousGraphWarning``): the edges fewer.
    """

    laplacian: sp.csr_array
    eigenvalues: np.ndarray
    n_edges: int
    residual: float
    laplacian_type: str = "combinatorial"
    nodelist: list | None = None
    family_dimension: int = 1
    candidates: list = field(default_factory=list, repr=False)
    learned: DictionaryResult | None = field(default=None, repr=False)
    history: dict = field(default_factory=dict, repr=False)
    complement_twin: bool = False

    @property
    def n_candidates(self) -> int:
        """Number of distinct valid graphs found."""
        return max(len(self.candidates), 1)

    @property
    def ambiguous(self) -> bool:
        """Whether another valid graph with as few edges was found, a family exists, the
        graph's complement, the graph of its pairs at distance 2 or a valid graph that
        holds it (with the same eigenvectors) is among the candidates, or the searches
        left the graph undecided."""
        edges = self.history.get("candidate_edges", [self.n_edges])
        return (self.family_dimension > 1 or edges.count(self.n_edges) > 1
                or "complement_edges" in self.history or "superset_edges" in self.history
                or "distance_two_edges" in self.history
                or bool(self.history.get("undecided")))

    @property
    def n_complement_edges(self) -> int:
        """Number of edges of the complement of the inferred graph (pairs less edges)."""
        n = self.laplacian.shape[0]
        return n * (n - 1) // 2 - self.n_edges

    def complement(self) -> sp.csr_array:
        """The Laplacian of the complement of the inferred graph, built on demand.

        Unit weights on the pairs that are not edges, $nI - J - L_1$ for the unit-weight
        Laplacian $L_1$ of the graph, scaled to the trace of ``laplacian``: for an
        equal-weight graph this is $c(nI - J) - L$ up to that scale, with the same
        eigenvectors (see ``complement_twin``); for a normalized Laplacian, the
        complement's normalized Laplacian. Formed as an $n \\times n$ matrix
        each time it is asked for, never stored.

        Returns
        -------
        scipy.sparse.csr_array of shape (n, n)

        Raises
        ------
        ValueError
            If ``complement_twin`` is false: the complement is disconnected, the graph
            has unequal weights (or, normalized, is not regular), or the eigenvalue
            order was given, and the complement does not share the eigenvectors as a
            valid graph.
        """
        if not self.complement_twin:
            raise ValueError("the complement of this graph does not share its eigenvectors "
                             "as a connected graph (complement_twin is False)")
        return complement_laplacian(self.laplacian, self.laplacian_type)

    def summary(self) -> str:
        """A few lines on the answer: its size, its fit, the family and candidates found,
        and the complement with the same eigenvectors (``complement_twin``)."""
        n = self.laplacian.shape[0]
        lines = [f"{self.laplacian_type} Laplacian: {n} nodes, {self.n_edges} edges, "
                 f"residual {self.residual:.2e}",
                 f"family dimension {self.family_dimension}, {self.n_candidates} "
                 f"candidate(s)" + ("; ambiguous" if self.ambiguous else "")]
        if self.complement_twin:
            listed = " (among the candidates)" if "complement_edges" in self.history else ""
            lines.append(f"complement: a connected graph with {self.n_complement_edges} "
                         f"edges has the same eigenvectors{listed}; the sparser is "
                         f"returned (complement() builds it)")
        return "\n".join(lines)

    def to_networkx(self, nodelist=None):
        """The inferred graph as a ``networkx.Graph`` with the basis's node labels.

        Parameters
        ----------
        nodelist : list, optional
            Node labels of the rows; default ``self.nodelist`` (the labels of a
            ``FourierBasis`` input), else ``0..n-1``.

        Returns
        -------
        networkx.Graph
        """
        nodes = self.nodelist if nodelist is None else nodelist
        if self.laplacian_type == "normalized":
            return to_networkx(_normalized_weights(self.laplacian), nodes)
        return to_networkx(self.laplacian, nodes)


def _normalized_weights(L):
    """A combinatorial Laplacian with the edge pattern and $D^{-1/2} W D^{-1/2}$ weights."""
    W = -sp.triu(sp.csr_array(L), 1)
    W = W + W.T
    return sp.csr_array(sp.diags_array(np.asarray(W.sum(axis=1)).ravel()) - W)


def to_networkx(L_hat, nodelist=None, *, tol: float = 0.0):
    """The weighted graph of a combinatorial Laplacian.

    Parameters
    ----------
    L_hat : scipy sparse array, array_like of shape (n, n) or InferredLaplacian
        A combinatorial Laplacian; edge weights are $-L_{ij}$. An
        ``InferredLaplacian`` brings its node labels.
    nodelist : list, optional
        Node labels of the rows, distinct; default ``0..n-1``.
    tol : float, default 0.0
        Entries with $-L_{ij} \\le$ ``tol`` are not edges; must be $\\ge 0$.

    Returns
    -------
    networkx.Graph
        With a ``"weight"`` attribute on every edge.

    Raises
    ------
    ValueError
        If the shapes or the node list do not match, the node list repeats a
        label, ``L_hat`` has NaN or infinite entries, ``tol`` is negative, or
        ``L_hat`` looks like an adjacency matrix (zero diagonal, non-negative
        off-diagonal entries).

    Examples
    --------
    >>> import numpy as np
    >>> G = to_networkx(np.array([[1.0, -1.0], [-1.0, 1.0]]), ["a", "b"])
    >>> list(G.edges(data=True))
    [('a', 'b', {'weight': 1.0})]
    """
    import networkx as nx

    if isinstance(L_hat, InferredLaplacian):
        return L_hat.to_networkx(nodelist)
    tol = check_scalar(tol, "tol", low=0.0, low_inclusive=True)
    rows, cols, vals, diag, n = _upper_entries(L_hat)
    _refuse_adjacency(vals, diag)
    nodelist = list(range(n)) if nodelist is None else list(nodelist)
    if len(nodelist) != n:
        raise ValueError(f"nodelist has {len(nodelist)} nodes, L_hat has {n} rows")
    if len(set(nodelist)) != n:
        raise ValueError("nodelist must not repeat a node label, found "
                         f"{n - len(set(nodelist))} duplicates")
    G = nx.Graph()
    G.add_nodes_from(nodelist)
    keep = -vals > tol
    G.add_weighted_edges_from(
        (nodelist[i], nodelist[j], float(-w))
        for i, j, w in zip(rows[keep], cols[keep], vals[keep], strict=True))
    return G


def _upper_entries(L_hat):
    """Strict-upper-triangle entries and the diagonal of a finite square matrix."""
    if sp.issparse(L_hat):
        L = sp.csr_array(L_hat)
        if L.ndim != 2 or L.shape[0] != L.shape[1]:
            raise ValueError(f"L_hat must be square, got shape {L.shape}")
        if not np.isfinite(L.data).all():
            raise ValueError("L_hat must be finite, found a NaN or infinite stored entry")
        A = sp.coo_array(sp.triu(L, k=1))
        return A.row, A.col, A.data, L.diagonal(), L.shape[0]
    Ld = check_real_array(L_hat, "L_hat", ndim=2, allow_float32=False)
    n = Ld.shape[0]
    if Ld.shape != (n, n):
        raise ValueError(f"L_hat must be square, got shape {Ld.shape}")
    rows, cols = np.triu_indices(n, 1)
    return rows, cols, Ld[rows, cols], np.diag(Ld), n


def _refuse_adjacency(vals, diag):
    if vals.size and not np.any(diag) and np.all(vals >= 0) and np.any(vals > 0):
        raise ValueError("L_hat looks like an adjacency matrix (zero diagonal, non-negative "
                         "off-diagonal entries), not a Laplacian; convert it with "
                         "laplacian_matrix(L_hat)")
