"""The catalogue of bad inputs: each raises a clear exception whose message names the argument.

The same catalogue is the table of ``docs/input-errors.md``; a test keeps the two in step.
Also here: float32 in gives float32 out, and the same seed gives bit-identical outputs.
"""

from __future__ import annotations

import pathlib
import re

import numpy as np
import pytest
import scipy.sparse
from _dataframe import Frame

from gsp_householder import (
    BernoulliUniform,
    HouseholderProduct,
    SignalStatistics,
    basis_error,
    coefficient_error,
    estimate_householder,
    estimate_householder_given,
    estimate_householder_product,
    estimate_scale,
    learn_orthogonal_basis,
    make_signals,
    random_householder_product,
    sparse_code,
    vector_error,
)
from gsp_householder.estimator import HouseholderDictionaryLearning
from gsp_householder.statistics.streaming import iter_column_blocks, statistics_from_blocks

_rng = np.random.default_rng(0)
Y = _rng.random((6, 20)) + 0.5            # a valid signal matrix, n = 6, p = 20
V = HouseholderProduct(_rng.random(6))    # a valid 6 x 6 dictionary
MODEL = BernoulliUniform(0.5)


def _with(value, i=0, j=0):
    out = Y.copy()
    out[i, j] = value
    return out


_NODES = [f"node{i}" for i in range(6)]
_EXISTING_FILE = pathlib.Path(__file__)      # an ``--out`` / ``out_dir`` that is a file


def _cli(*argv):
    """Run the command line; a non-zero exit raises SystemExit with what it printed."""
    import contextlib
    import io

    from gsp_householder.cli import main

    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:   # argparse's own errors
            code = exc.code
    if code:
        lines = err.getvalue().splitlines()
        assert len(lines) == 1 and "Traceback" not in err.getvalue(), err.getvalue()
        raise SystemExit(f"exit {code}: {lines[0]}")


def _experiment_entries():
    """The demo, the reproduction and the command line (their ``--out`` and ``--graph``)."""
    from gsp_householder.experiments.demo import run_demo
    from gsp_householder.experiments.reproduce import run_reproduction

    return [
        ("demo-graph", "run_demo('petersen')", lambda: run_demo("petersen", "unused"),
         ValueError, r"graph must be one of \[.*'karate'"),
        ("demo-out-file", "run_demo('complete', out_dir=<an existing file>)",
         lambda: run_demo("complete", _EXISTING_FILE), ValueError,
         r"out_dir must be a directory, but .* is an existing file"),
        ("demo-out-uncreatable", "run_demo('complete', out_dir=<a file>/'sub')",
         lambda: run_demo("complete", _EXISTING_FILE / "sub"), ValueError,
         r"out_dir: cannot create directory .*Not a directory"),
        ("demo-rows", "run_demo('complete', rows=[a function])",
         lambda: run_demo("complete", "unused", rows=[np.eye]), TypeError,
         r"rows must be DemoRow instances"),
        ("demo-n-signals", "run_demo('complete', n_signals=0)",
         lambda: run_demo("complete", "unused", n_signals=0), ValueError,
         r"n_signals must be >= 1"),
        ("reproduce-out-file", "run_reproduction('fig1', <an existing file>)",
         lambda: run_reproduction("fig1", _EXISTING_FILE), ValueError,
         r"out_dir must be a directory, but .* is an existing file"),
        ("cli-demo-out-file", "gsp-householder demo --out <an existing file>",
         lambda: _cli("demo", "--out", str(_EXISTING_FILE)), SystemExit,
         r"exit 2: gsp-householder demo: error: --out must be a directory, but .* is an "
         r"existing file"),
        ("cli-demo-out-readonly", "gsp-householder demo --out /proc/results",
         lambda: _cli("demo", "--out", "/proc/results"), SystemExit,
         r"exit 2: gsp-householder demo: error: --out: cannot create directory "
         r"'/proc/results'"),
        ("cli-demo-out-not-writable", "gsp-householder demo --out /proc",
         lambda: _cli("demo", "--out", "/proc"), SystemExit,
         r"exit 2: gsp-householder demo: error: --out: directory '/proc' is not writable"),
        ("cli-reproduce-out-file", "gsp-householder reproduce fig1 --out <an existing file>",
         lambda: _cli("reproduce", "fig1", "--out", str(_EXISTING_FILE)), SystemExit,
         r"exit 2: gsp-householder reproduce: error: --out must be a directory"),
        ("cli-demo-theta", "gsp-householder demo --theta 1.5",
         lambda: _cli("demo", "--theta", "1.5"), SystemExit,
         r"exit 2: gsp-householder demo: error: argument --theta: must be in \(0, 1\], "
         r"got 1.5"),
        ("cli-demo-graph", "gsp-householder demo --graph petersen",
         lambda: _cli("demo", "--graph", "petersen"), SystemExit,
         r"exit 2: gsp-householder demo: error: argument --graph: invalid choice: "
         r"'petersen' \(choose from karate, les_miserables, .*sensor\)"),
    ]


def _graph_entries():
    """Graph inputs, when gsp_householder.graphs.fourier provides fourier_basis."""
    try:
        from gsp_householder.graphs.fourier import fourier_basis
    except ImportError:
        return []
    import networkx as nx

    directed = nx.DiGraph([(0, 1), (1, 2), (2, 0)])
    nan_w = nx.path_graph(4)
    nan_w[1][2]["weight"] = float("nan")
    neg_w = nx.path_graph(4)
    neg_w[1][2]["weight"] = -1.0
    loop = nx.path_graph(4)
    loop.add_edge(2, 2)
    A_asym = np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]])
    return [
        ("graph-directed", "fourier_basis(nx.DiGraph)", lambda: fourier_basis(directed),
         ValueError, r"G must be undirected"),
        ("graph-nan-weight", "fourier_basis(G with a NaN weight)", lambda: fourier_basis(nan_w),
         ValueError, r"(G|weight).*(finite|NaN|nan)"),
        ("graph-negative-weight", "fourier_basis(G with a negative weight)",
         lambda: fourier_basis(neg_w), ValueError, r"(G|weight).*negative"),
        ("graph-self-loop", "fourier_basis(G with a self-loop)", lambda: fourier_basis(loop),
         ValueError, r"G\b.*self-loop"),
        ("graph-asymmetric-adjacency", "fourier_basis(non-symmetric adjacency)",
         lambda: fourier_basis(A_asym), ValueError, r"(G|adjacency).*symmetric"),
    ]


def _graph_signal_entries():
    """Transforms, signals on graphs, graph comparison: bad inputs named by argument."""
    import networkx as nx

    from gsp_householder.graphs.comparison import compare_graphs, compare_spectra
    from gsp_householder.graphs.fourier import fourier_basis, gft, laplacian_matrix
    from gsp_householder.graphs.householder_basis import (
        approximate_householder,
        householder_fourier_basis,
    )
    from gsp_householder.graphs.signals import make_graph_signals

    G = nx.path_graph(6)
    B = fourier_basis(G)
    L = laplacian_matrix(G)
    W = nx.to_numpy_array(G)
    x_nan = np.arange(6.0)
    x_nan[2] = np.nan
    str_w = nx.path_graph(4)
    str_w[1][2]["weight"] = "heavy"
    return [
        ("graph-string-weight", "fourier_basis(G with weight 'heavy' on edge (1, 2))",
         lambda: fourier_basis(str_w), TypeError, r"G's edge \(1, 2\) has 'weight' = 'heavy'"),
        ("gft-nan", "gft(fourier_basis(G), x with a NaN)", lambda: gft(B, x_nan), ValueError,
         r"signals must be finite, found NaN"),
        ("gft-scalar", "gft(fourier_basis(G), 3.0)", lambda: gft(B, 3.0), ValueError,
         r"signals must be an array of shape \(6,\) or \(6, p\)"),
        ("gft-dict-missing-node", "gft(fourier_basis(G), {0: 1.0})", lambda: gft(B, {0: 1.0}),
         ValueError, r"signals has no value for node 1"),
        ("gft-dict-product", "gft(householder_fourier_basis(G), {node: value})",
         lambda: gft(householder_fourier_basis(G), dict.fromkeys(G, 1.0)), TypeError,
         r"signals is a dict keyed by node, which needs a FourierBasis"),
        ("graph-signals-basis-not-orthogonal", "make_graph_signals(G, 5, model, basis=2 * I)",
         lambda: make_graph_signals(G, 5, MODEL, basis=2 * np.eye(6)), ValueError,
         r"basis must be orthogonal"),
        ("graph-signals-basis-shape", "make_graph_signals(G, 5, model, basis=np.eye(4))",
         lambda: make_graph_signals(G, 5, MODEL, basis=np.eye(4)), ValueError,
         r"basis must have shape \(6, 6\) to match G"),
        ("graph-signals-basis-type", "make_graph_signals(G, 5, model, basis='fourier')",
         lambda: make_graph_signals(G, 5, MODEL, basis="fourier"), TypeError,
         r"basis must be a FourierBasis, a HouseholderProduct or an orthogonal array"),
        ("graph-basis-order", "householder_fourier_basis(G, order='random')",
         lambda: householder_fourier_basis(G, order="random"), ValueError,
         r"order must be 'frequency' or 'fewest'"),
        ("approximate-too-many-reflectors", "approximate_householder(Q, 10**7)",
         lambda: approximate_householder(B.eigenvectors, 10**7), ValueError,
         r"n_reflectors must be at most n = 6"),
        ("compare-adjacency", "compare_graphs(W, L) with W an adjacency matrix",
         lambda: compare_graphs(W, L), ValueError, r"L_true looks like an adjacency matrix"),
        ("compare-not-laplacian", "compare_graphs(L, L + 0.5)",
         lambda: compare_graphs(L, L.toarray() + 0.5), ValueError,
         r"L_hat must be a Laplacian \(off-diagonal entries <= 0\)"),
        ("compare-type", "compare_graphs('karate', L)", lambda: compare_graphs("karate", L),
         TypeError, r"L_true must be a Laplacian matrix, a networkx or PyGSP graph"),
        ("compare-eigenspaces-range", "compare_spectra(L, L, eigenspaces=[[0, 99]])",
         lambda: compare_spectra(L, L, eigenspaces=[[0, 99]]), ValueError,
         r"eigenspaces\[0\] has column index 99, outside 0..5"),
    ]


def _repeated_column(V):
    """``V`` with column 6 replaced by column 5: singular, though
    ``||V^T V - I||_F / sqrt(n)`` is only 0.24 for karate."""
    W = V.copy()
    W[:, 6] = W[:, 5]
    return W


def _inference_entries():
    """Laplacian inference and to_networkx inputs."""
    try:
        from gsp_householder.graphs.fourier import fourier_basis
        from gsp_householder.graphs.inferred import to_networkx
        from gsp_householder.graphs.laplacian_inference import infer_laplacian
    except ImportError:
        return []
    import networkx as nx
    import scipy.sparse as sp

    karate = nx.karate_club_graph()
    B_norm = fourier_basis(karate, laplacian="normalized")
    L = sp.csr_array(nx.laplacian_matrix(nx.path_graph(4)).astype(float))
    L_nan = L.copy()
    L_nan.data[0] = np.nan
    A = nx.to_scipy_sparse_array(nx.path_graph(4), dtype=float)
    return [
        ("infer-no-constant-column", "infer_laplacian(Q)  (Q: random orthogonal 6 x 6)",
         lambda: infer_laplacian(np.linalg.qr(np.random.default_rng(0).standard_normal(
             (6, 6)))[0]), ValueError, r"V_hat has no column close to the "
         r"constant vector"),
        ("infer-normalized-basis", "infer_laplacian(fourier_basis(G, 'normalized').eigenvectors)",
         lambda: infer_laplacian(B_norm.eigenvectors), ValueError,
         r"V_hat .*laplacian='normalized'"),
        ("infer-repeated-column", "infer_laplacian(V) with column 6 a copy of column 5",
         lambda: infer_laplacian(_repeated_column(fourier_basis(karate).eigenvectors)),
         ValueError, r"V_hat must be close to orthogonal .*columns 5 and 6 have inner "
         r"product 1"),
        ("infer-laplacian-kind", "infer_laplacian(B, laplacian='random-walk')",
         lambda: infer_laplacian(B_norm, laplacian="random-walk"), ValueError,
         r"laplacian must be one of"),
        ("infer-tol-negative", "infer_laplacian(B, tol=-1)",
         lambda: infer_laplacian(B_norm, tol=-1.0), ValueError, r"tol"),
        ("infer-type", "infer_laplacian('basis')", lambda: infer_laplacian("basis"), TypeError,
         r"V_hat must be"),
        ("to-networkx-duplicate-labels", "to_networkx(L, ['a', 'a', 'b', 'c'])",
         lambda: to_networkx(L, ["a", "a", "b", "c"]), ValueError, r"nodelist must not repeat"),
        ("to-networkx-sparse-nan", "to_networkx(sparse L with a NaN)",
         lambda: to_networkx(L_nan), ValueError, r"L_hat must be finite"),
        ("to-networkx-tol-negative", "to_networkx(L, tol=-0.5)",
         lambda: to_networkx(L, tol=-0.5), ValueError, r"tol"),
        ("to-networkx-adjacency", "to_networkx(adjacency matrix)",
         lambda: to_networkx(A), ValueError, r"L_hat looks like an adjacency matrix"),
    ]


# (id, call shown in the docs, call, exception type(s), regex the message must match)
CATALOGUE = [
    # -- signals Y
    ("Y-nan", "estimate_householder(Y with a NaN)", lambda: estimate_householder(_with(np.nan)),
     ValueError, r"Y must be finite, found NaN"),
    ("Y-inf", "estimate_householder(Y with an inf)", lambda: estimate_householder(_with(np.inf)),
     ValueError, r"Y must be finite, found inf"),
    ("Y-1d", "estimate_householder(Y[:, 0])", lambda: estimate_householder(Y[:, 0]),
     ValueError, r"Y must be 2-D"),
    ("Y-3d", "estimate_householder(Y[None])", lambda: estimate_householder(Y[None]),
     ValueError, r"Y must be 2-D"),
    ("Y-empty", "estimate_householder(np.empty((0, 0)))",
     lambda: estimate_householder(np.empty((0, 0))), ValueError, r"Y must not be empty"),
    ("Y-n1", "estimate_householder(Y[:1])  (n = 1)", lambda: estimate_householder(Y[:1]),
     ValueError, r"Y must have at least 2 rows"),
    ("Y-p0", "estimate_householder(Y[:, :0])  (p = 0)", lambda: estimate_householder(Y[:, :0]),
     ValueError, r"Y must not be empty"),
    ("Y-complex", "estimate_householder(Y + 1j)", lambda: estimate_householder(Y + 1j),
     TypeError, r"Y must be real, got complex"),
    ("Y-object", "estimate_householder(Y.astype(object))",
     lambda: estimate_householder(Y.astype(object)), TypeError, r"Y must hold real numbers"),
    ("Y-string", "estimate_householder(Y.astype(str))",
     lambda: estimate_householder(Y.astype(str)), TypeError, r"Y must hold real numbers"),
    ("Y-bool", "estimate_householder(Y > 1)", lambda: estimate_householder(Y > 1),
     TypeError, r"Y must hold real numbers, got boolean"),
    ("Y-sparse", "estimate_householder(scipy.sparse.csr_array(Y))",
     lambda: estimate_householder(scipy.sparse.csr_array(Y)), TypeError,
     r"Y must be a dense array"),
    ("Y-ragged", "estimate_householder([[1, 2], [3]])",
     lambda: estimate_householder([[1.0, 2.0], [3.0]]), (TypeError, ValueError), r"Y\b"),
    ("Y-mean-zero", "estimate_householder(Y - Y.mean(axis=1))  (blind, centred)",
     lambda: estimate_householder(Y - Y.mean(axis=1, keepdims=True)), ValueError,
     r"theta\*mu is not positive"),
    ("Y-stats-empty", "estimate_householder(SignalStatistics(6))",
     lambda: estimate_householder(SignalStatistics(6)), ValueError,
     r"Y is a SignalStatistics with no columns"),
    # -- model parameters
    ("theta-zero", "estimate_householder(Y, theta=0, mu=1.5)",
     lambda: estimate_householder(Y, theta=0.0, mu=1.5), ValueError, r"theta must be in \(0, 1\]"),
    ("theta-above-one", "BernoulliUniform(1.5)", lambda: BernoulliUniform(1.5), ValueError,
     r"theta must be in \(0, 1\], got 1.5"),
    ("theta-nan", "BernoulliUniform(nan)", lambda: BernoulliUniform(float("nan")), ValueError,
     r"theta must be a real number"),
    ("theta-string", "BernoulliUniform('0.5')", lambda: BernoulliUniform("0.5"), ValueError,
     r"theta must be a real number"),
    ("mu-zero", "estimate_householder(Y, theta=0.5, mu=0)",
     lambda: estimate_householder(Y, theta=0.5, mu=0.0), ValueError, r"mu must be > 0"),
    ("mu-negative", "estimate_householder(Y, theta=0.5, mu=-1)",
     lambda: estimate_householder(Y, theta=0.5, mu=-1.0), ValueError, r"mu must be > 0"),
    ("theta-without-mu", "estimate_householder(Y, theta=0.5)",
     lambda: estimate_householder(Y, theta=0.5), ValueError, r"give both theta and mu"),
    ("low-above-high", "BernoulliUniform(0.5, low=2, high=1)",
     lambda: BernoulliUniform(0.5, low=2.0, high=1.0), ValueError,
     r"low must be smaller than high"),
    ("low-equals-high", "BernoulliUniform(0.5, low=1, high=1)",
     lambda: BernoulliUniform(0.5, low=1.0, high=1.0), ValueError,
     r"low must be smaller than high"),
    ("low-inf", "BernoulliUniform(0.5, low=-inf)",
     lambda: BernoulliUniform(0.5, low=-np.inf), ValueError, r"low must be finite"),
    # -- number of reflectors
    ("m-zero", "estimate_householder_product(Y, 0)",
     lambda: estimate_householder_product(Y, 0), ValueError, r"n_reflectors must be >= 1"),
    ("m-above-n", "estimate_householder_product(Y, 7)  (n = 6)",
     lambda: estimate_householder_product(Y, 7), ValueError,
     r"n_reflectors must be at most n = 6"),
    ("m-float", "estimate_householder_product(Y, 1.5)",
     lambda: estimate_householder_product(Y, 1.5), TypeError, r"n_reflectors must be an integer"),
    ("m-random-zero", "random_householder_product(6, 0)",
     lambda: random_householder_product(6, 0), ValueError, r"m must be >= 1"),
    ("n-random-one", "random_householder_product(1, 1)",
     lambda: random_householder_product(1, 1), ValueError, r"n must be >= 2"),
    ("init-shape", "estimate_householder_product(Y, 2, init=np.ones((5, 2)))",
     lambda: estimate_householder_product(Y, 2, init=np.ones((5, 2))), ValueError,
     r"init must have 6 rows"),
    ("method-unknown", "estimate_householder_product(Y, 1, method='fast')",
     lambda: estimate_householder_product(Y, 1, method="fast"), ValueError,
     r"method must be 'statistics' or 'paper-loop'"),
    ("distribution-unknown", "random_householder_product(6, 1, distribution='cauchy')",
     lambda: random_householder_product(6, 1, distribution="cauchy"), ValueError,
     r"distribution must be"),
    # -- orthogonal factors and Householder products
    ("Q-not-orthogonal", "estimate_householder_given(Y, 2 * np.eye(6))",
     lambda: estimate_householder_given(Y, 2 * np.eye(6)), ValueError, r"Q must be orthogonal"),
    ("Q-wrong-shape", "estimate_householder_given(Y, np.eye(5))",
     lambda: estimate_householder_given(Y, np.eye(5)), ValueError, r"Q must have shape \(6, 6\)"),
    ("from-orthogonal-not-orthogonal", "HouseholderProduct.from_orthogonal(np.ones((3, 3)))",
     lambda: HouseholderProduct.from_orthogonal(np.ones((3, 3))), ValueError,
     r"Q must be orthogonal"),
    ("from-orthogonal-not-square", "HouseholderProduct.from_orthogonal(np.eye(3)[:, :2])",
     lambda: HouseholderProduct.from_orthogonal(np.eye(3)[:, :2]), ValueError,
     r"Q must be square"),
    ("vectors-zero-column", "HouseholderProduct(np.zeros((4, 1)))",
     lambda: HouseholderProduct(np.zeros((4, 1))), ValueError,
     r"vectors must have non-zero columns"),
    ("vectors-nan", "HouseholderProduct([1, nan, 0])",
     lambda: HouseholderProduct([1.0, np.nan, 0.0]), ValueError, r"vectors must be finite"),
    ("vectors-complex", "HouseholderProduct([1j, 1])",
     lambda: HouseholderProduct(np.array([1j, 1.0])), TypeError, r"vectors must be real"),
    ("signs-not-unit", "HouseholderProduct(np.ones(3), signs=[1, 0, 1])",
     lambda: HouseholderProduct(np.ones(3), signs=[1.0, 0.0, 1.0]), ValueError,
     r"signs must contain only \+1 and -1"),
    ("signs-wrong-length", "HouseholderProduct(np.ones(3), signs=[1, 1])",
     lambda: HouseholderProduct(np.ones(3), signs=[1.0, 1.0]), ValueError,
     r"signs must have shape \(3,\)"),
    ("matmul-mismatch", "V @ np.ones((5, 2))  (V is 6 x 6)", lambda: V @ np.ones((5, 2)),
     ValueError, r"shape mismatch: Y has shape \(5, 2\)"),
    ("rmatmul-mismatch", "np.ones((2, 5)) @ V", lambda: np.ones((2, 5)) @ V, ValueError,
     r"shape mismatch: Y has shape \(2, 5\)"),
    ("compose-mismatch", "V @ HouseholderProduct(np.ones(5))",
     lambda: V @ HouseholderProduct(np.ones(5)), ValueError, r"shape mismatch: cannot compose"),
    ("matmul-complex", "V @ (np.ones(6) * 1j)", lambda: V @ (np.ones(6) * 1j), TypeError,
     r"Y must be real"),
    ("matmul-nan", "V @ (Y with a NaN)", lambda: V @ _with(np.nan), ValueError,
     r"Y must be finite, found NaN"),
    ("matmul-float32-overflow", "V @ np.full((6, 2), 3e38, dtype=np.float32)",
     lambda: V @ np.full((6, 2), 3e38, dtype=np.float32), ValueError,
     r"Y is too large in magnitude for float32"),
    ("reflector-index", "V.reflector(3)  (m = 1)", lambda: V.reflector(3), IndexError,
     r"i must be in \[0, 1\)"),
    # -- signal generation
    ("snr-string", "make_signals(V, 10, model, snr_db='high')",
     lambda: make_signals(V, 10, MODEL, snr_db="high"), TypeError, r"snr_db must be a real"),
    ("snr-nan", "make_signals(V, 10, model, snr_db=nan)",
     lambda: make_signals(V, 10, MODEL, snr_db=float("nan")), ValueError,
     r"snr_db must be finite"),
    ("model-type", "make_signals(V, 10, model=0.5)", lambda: make_signals(V, 10, 0.5),
     TypeError, r"model must be a BernoulliUniform"),
    ("n-signals-zero", "make_signals(V, 0, model)", lambda: make_signals(V, 0, MODEL),
     ValueError, r"n_signals must be >= 1"),
    ("V-not-square", "make_signals(np.ones((3, 4)), 10, model)",
     lambda: make_signals(np.ones((3, 4)), 10, MODEL), ValueError, r"V must be square"),
    ("rng-negative", "make_signals(V, 10, model, rng=-1)",
     lambda: make_signals(V, 10, MODEL, rng=-1), ValueError, r"rng must be a non-negative seed"),
    ("rng-type", "make_signals(V, 10, model, rng='seed')",
     lambda: make_signals(V, 10, MODEL, rng="seed"), TypeError, r"rng must be None, an int"),
    # -- sparse coding
    ("threshold-negative", "sparse_code(V, Y, threshold=-1)",
     lambda: sparse_code(V, Y, threshold=-1.0), ValueError, r"threshold must be >= 0"),
    ("threshold-and-sparsity", "sparse_code(V, Y, threshold=1, sparsity=2)",
     lambda: sparse_code(V, Y, threshold=1.0, sparsity=2), ValueError,
     r"give threshold or sparsity, not both"),
    ("sparsity-above-n", "sparse_code(V, Y, sparsity=7)",
     lambda: sparse_code(V, Y, sparsity=7), ValueError, r"sparsity must be at most"),
    ("sparse-code-mismatch", "sparse_code(V, Y[:5])", lambda: sparse_code(V, Y[:5]),
     ValueError, r"shape mismatch: V is 6 x 6, Y has shape \(5, 20\)"),
    # -- metrics
    ("u-shapes", "vector_error(np.ones(3), np.ones(4))",
     lambda: vector_error(np.ones(3), np.ones(4)), ValueError, r"u and u_hat must have equal"),
    ("basis-sizes", "basis_error(V, np.eye(5))", lambda: basis_error(V, np.eye(5)),
     ValueError, r"V and V_hat must have equal shapes"),
    ("X-shapes", "coefficient_error(np.ones((2, 3)), np.ones((3, 2)))",
     lambda: coefficient_error(np.ones((2, 3)), np.ones((3, 2))), ValueError,
     r"X and X_hat must have equal shapes"),
    # -- statistics and streaming
    ("n-nodes-one", "SignalStatistics(1)", lambda: SignalStatistics(1), ValueError,
     r"n_nodes must be at least 2"),
    ("update-rows", "SignalStatistics(6).update(np.ones((5, 2)))",
     lambda: SignalStatistics(6).update(np.ones((5, 2))), ValueError,
     r"Y_block must have 6 rows"),
    ("merge-type", "SignalStatistics(6).merge(Y)", lambda: SignalStatistics(6).merge(Y),
     TypeError, r"other must be a SignalStatistics"),
    ("blocks-none", "statistics_from_blocks([])", lambda: statistics_from_blocks([]),
     ValueError, r"blocks must hold at least one block"),
    ("blocks-nan", "statistics_from_blocks([Y with a NaN])",
     lambda: statistics_from_blocks([_with(np.nan)]), ValueError, r"Y_block must be finite"),
    ("block-size-zero", "next(iter_column_blocks(Y, 0))",
     lambda: next(iter_column_blocks(Y, 0)), ValueError, r"block_size must be >= 1"),
    # -- estimator (scikit-learn orientation: X = Y.T)
    ("est-theta", "HouseholderDictionaryLearning(theta=2, mu=1).fit(Y.T)",
     lambda: HouseholderDictionaryLearning(theta=2.0, mu=1.0).fit(Y.T), ValueError,
     r"theta must be in \(0, 1\]"),
    ("est-features", "est.transform(Y.T[:, :5])  (fitted on 6 features)",
     lambda: HouseholderDictionaryLearning().fit(Y.T).transform(Y.T[:, :5]), ValueError,
     r"X has 5 features, but HouseholderDictionaryLearning is expecting 6"),
    ("est-complex", "HouseholderDictionaryLearning().fit(Y.T + 1j)",
     lambda: HouseholderDictionaryLearning().fit(Y.T + 1j), ValueError,
     r"Complex data not supported: X"),
    ("est-one-feature", "HouseholderDictionaryLearning().fit(Y.T[:, :1])",
     lambda: HouseholderDictionaryLearning().fit(Y.T[:, :1]), ValueError,
     r"X has 1 feature\(s\)"),
    ("est-1d", "est.transform(Y[:, 0])",
     lambda: HouseholderDictionaryLearning().fit(Y.T).transform(Y[:, 0]), ValueError,
     r"Expected a 2-D array for X"),
    ("est-nan", "HouseholderDictionaryLearning().fit(Y.T with a NaN)",
     lambda: HouseholderDictionaryLearning().fit(_with(np.nan).T), ValueError,
     r"X must be finite, found NaN"),
    ("est-method", "HouseholderDictionaryLearning(method='fast').fit(Y.T)",
     lambda: HouseholderDictionaryLearning(method="fast").fit(Y.T), ValueError,
     r"method must be one of"),
    ("est-feature-names-mixed", "est.fit(DataFrame with columns [0, 'node1', ...])",
     lambda: HouseholderDictionaryLearning().fit(Frame(Y.T, [0, *_NODES[1:]])), TypeError,
     r"Feature names are only supported if all input features have string names"),
    ("est-feature-names-differ", "est.transform(df[reversed columns])  (fitted on df)",
     lambda: HouseholderDictionaryLearning().fit(Frame(Y.T, _NODES)).transform(
         Frame(Y.T, _NODES[::-1])), ValueError,
     r"The feature names should match those that were passed during fit"),
    ("est-input-features-length", "est.get_feature_names_out(['a', 'b'])  (6 features)",
     lambda: HouseholderDictionaryLearning().fit(Y.T).get_feature_names_out(["a", "b"]),
     ValueError, r"input_features should have length equal to number of features \(6\)"),
    ("est-input-features-names", "est.get_feature_names_out(other names)  (fitted on df)",
     lambda: HouseholderDictionaryLearning().fit(Frame(Y.T, _NODES)).get_feature_names_out(
         _NODES[::-1]), ValueError, r"input_features is not equal to feature_names_in_"),
    ("est-set-output", "est.set_output(transform='arrow')",
     lambda: HouseholderDictionaryLearning().set_output(transform="arrow"), ValueError,
     r"transform must be one of \('default', 'pandas', 'polars'\) or None"),
    # -- whole-basis learner
    ("wb-nan", "learn_orthogonal_basis(Y with a NaN)",
     lambda: learn_orthogonal_basis(_with(np.nan)), ValueError, r"Y must be finite, found NaN"),
    ("wb-few-signals", "learn_orthogonal_basis(Y[:, :4])  (p < n)",
     lambda: learn_orthogonal_basis(Y[:, :4]), ValueError,
     r"Y has 4 signals \(columns\) for 6 nodes"),
    ("wb-theta", "learn_orthogonal_basis(Y, theta=0)",
     lambda: learn_orthogonal_basis(Y, theta=0), ValueError, r"theta must be in \(0, 1\]"),
    ("wb-low-alone", "learn_orthogonal_basis(Y, low=1)",
     lambda: learn_orthogonal_basis(Y, low=1), ValueError, r"give both low and high"),
    ("wb-low-high", "learn_orthogonal_basis(Y, low=2, high=1)",
     lambda: learn_orthogonal_basis(Y, low=2, high=1), ValueError,
     r"low must be smaller than high"),
    ("wb-range-sign", "learn_orthogonal_basis(Y, low=-1, high=2)",
     lambda: learn_orthogonal_basis(Y, low=-1, high=2), ValueError,
     r"the non-zero codes must have one sign"),
    ("wb-max-iter", "learn_orthogonal_basis(Y, max_iter=0)",
     lambda: learn_orthogonal_basis(Y, max_iter=0), ValueError, r"max_iter must be >= 1"),
    ("wb-momentum", "learn_orthogonal_basis(Y, momentum=1)",
     lambda: learn_orthogonal_basis(Y, momentum=1), ValueError, r"momentum must be < 1"),
    ("wb-rank", "learn_orthogonal_basis(np.ones((6, 20)))  (rank 1)",
     lambda: learn_orthogonal_basis(np.ones((6, 20))), ValueError,
     r"Y has rank 1 for 6 rows \(nodes\)"),
    ("est-ica-samples", "HouseholderDictionaryLearning(method='ica').fit(Y.T[:4])",
     lambda: HouseholderDictionaryLearning(method="ica").fit(Y.T[:4]), ValueError,
     r"X has 4 sample\(s\) for 6 features"),
    ("est-ica-rank", "HouseholderDictionaryLearning(method='ica').fit(np.ones((20, 6)))  (rank 1)",
     lambda: HouseholderDictionaryLearning(method="ica").fit(np.ones((20, 6))), ValueError,
     r"X has rank 1 for 6 features \(columns\).*the codes \(what transform returns\) "
     r"have rank 1"),
    *_graph_entries(),
    *_experiment_entries(),
    *_graph_signal_entries(),
    *_inference_entries(),
]

IDS = [entry[0] for entry in CATALOGUE]


def test_catalogue_is_large_and_unique():
    assert len(CATALOGUE) >= 25
    assert len(set(IDS)) == len(IDS)


@pytest.mark.parametrize("call, exc, match", [entry[2:] for entry in CATALOGUE], ids=IDS)
def test_bad_input(call, exc, match):
    with pytest.raises(exc, match=match):
        call()


def test_docs_table_lists_the_catalogue():
    doc = pathlib.Path(__file__).parents[1] / "docs" / "input-errors.md"
    if not doc.exists():
        pytest.skip("docs/input-errors.md is not in this checkout")
    text = doc.read_text()
    listed = set(re.findall(r"^\|\s*`([\w-]+)`\s*\|", text, flags=re.MULTILINE))
    assert set(IDS) <= listed, f"missing from the docs table: {sorted(set(IDS) - listed)}"


# ----------------------------------------------------------------- dtypes and determinism
def test_float32_in_float32_out():
    """Operators and codes keep float32; estimators work in float64 (statistics accumulate
    in float64) and return HouseholderProducts, whose vectors are float64."""
    Y32 = Y.astype(np.float32)
    assert (V @ Y32).dtype == np.float32
    assert (V.T @ Y32).dtype == np.float32
    assert (Y32.T @ V).dtype == np.float32
    assert sparse_code(V, Y32, threshold=0.1).dtype == np.float32
    assert sparse_code(V, Y32, sparsity=2).dtype == np.float32
    est = HouseholderDictionaryLearning().fit(Y32.T)
    assert est.transform(Y32.T).dtype == np.float32
    assert est.inverse_transform(est.transform(Y32.T)).dtype == np.float32
    # the statistics of float32 data equal those of the same values in float64
    s32 = SignalStatistics.from_array(Y32)
    s64 = SignalStatistics.from_array(Y32.astype(np.float64))
    np.testing.assert_array_equal(s32.row_sums, s64.row_sums)
    V32 = estimate_householder(Y32)
    np.testing.assert_array_equal(V32.vectors, estimate_householder(Y32.astype(np.float64)).vectors)


def test_same_seed_bit_identical_outputs():
    def run(seed):
        Vt = random_householder_product(30, 3, rng=seed)
        Ys, Xs = make_signals(Vt, 40, BernoulliUniform(0.3, 0.5, 2.0), snr_db=10, rng=seed)
        scale = estimate_scale(Ys)
        Vh = estimate_householder(Ys)
        codes = sparse_code(Vh, Ys)
        return Vt.vectors, Ys, Xs, np.array([scale]), Vh.vectors, codes

    a, b, c = run(11), run(11), run(12)
    for x, y in zip(a, b, strict=True):
        np.testing.assert_array_equal(x, y)
    assert not np.array_equal(a[1], c[1])
    g1 = np.random.default_rng(5)
    g2 = np.random.default_rng(5)
    np.testing.assert_array_equal(MODEL.sample((4, 7), g1), MODEL.sample((4, 7), g2))
