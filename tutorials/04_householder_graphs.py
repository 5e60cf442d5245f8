# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # Graphs whose Fourier bases are Householder products
#
# The Fourier basis of a graph is an orthonormal eigenbasis $V$ of its Laplacian
# $L = V\Lambda V^T$; the graph Fourier transform of a signal $x$ is $V^T x$. A dense $V$
# costs $O(n^2)$ per signal. If $V$ is a product of $m$ reflectors, the transform costs
# $O(mn)$. This tutorial asks which graphs have such a basis, builds it, measures the fast
# transform, and shows what happens for ordinary graphs.
#
# The count is exact: an orthogonal $Q$ is a product of $\operatorname{rank}(Q - I)$
# reflectors and of no fewer. An eigenbasis is not unique (column order, signs and the
# basis inside each repeated eigenspace are free), and `householder_fourier_basis` uses the
# freedom inside repeated eigenspaces to bring $Q$ close to $I$, keeping the columns in
# ascending order of eigenvalue (`order="fewest"` also frees the column order).

# %%
import time

import matplotlib.pyplot as plt
import numpy as np

import gsp_householder as gh
from gsp_householder.graphs.datasets import list_graphs, load_graph
from gsp_householder.graphs.fourier import fourier_basis, gft, igft, laplacian_matrix
from gsp_householder.graphs.householder_basis import (
    aligned_eigenbasis,
    approximate_householder,
    householder_fourier_basis,
)

# %% [markdown]
# ## 1. A graph's Fourier basis
#
# `fourier_basis` accepts a networkx graph (or a PyGSP graph, or an adjacency matrix) and
# returns ascending eigenvalues, eigenvectors with deterministic signs, the node order and
# the eigenspaces of repeated eigenvalues. A complete multipartite graph (four groups of 8
# nodes, every pair of nodes in different groups joined) has only three distinct
# eigenvalues:

# %%
G = load_graph("complete_multipartite")
B = fourier_basis(G)
print(f"n = {G.number_of_nodes()}, edges = {G.number_of_edges()}")
values = [B.eigenvalues[group[0]] for group in B.eigenspaces]
sizes = [len(group) for group in B.eigenspaces]
print("distinct eigenvalues:", np.round(values, 6), " multiplicities:", sizes)

# %% [markdown]
# ## 2. The same basis as a few reflectors
#
# `householder_fourier_basis` returns a `HouseholderProduct` whose columns are Laplacian
# eigenvectors, column $k$ for the $k$-th smallest eigenvalue. The canonical basis above
# needs $\operatorname{rank}(V - I)$ reflectors (computed exactly by
# `HouseholderProduct.from_orthogonal(..., method="minimal")`); the one found inside the
# repeated eigenspaces needs far fewer:

# %%
V, eigenvalues = householder_fourier_basis(G, return_eigenvalues=True)
L = laplacian_matrix(G)
V_dense = V.to_dense()
canonical = gh.HouseholderProduct.from_orthogonal(B.eigenvectors, method="minimal")
print(f"reflectors: canonical eigenbasis {canonical.m}, searched eigenbasis {V.m}")
print(f"eigenvector residual ||L V - V Lambda||_F = "
      f"{np.linalg.norm(L @ V_dense - V_dense * eigenvalues):.1e}")

# %% [markdown]
# Across graph families (the `datasets` module builds each one with a fixed seed):

# %%
print(f"{'graph':>22} {'n':>5} {'reflectors m':>13} {'m / n':>6}  description")
families = ["complete", "cliques", "complete_multipartite", "sbm", "ring", "grid", "karate"]
descriptions = list_graphs()
counts = {}
for name in families:
    G_f = load_graph(name)
    V_f = householder_fourier_basis(G_f)
    counts[name] = (V_f.n, V_f.m)
    print(f"{name:>22} {V_f.n:5d} {V_f.m:13d} {V_f.m / V_f.n:6.2f}  {descriptions[name]}")

# %% [markdown]
# Graphs whose spectrum is mostly a few large eigenspaces (complete graphs, disjoint
# cliques, complete multipartite graphs) are products of a handful of reflectors. Graphs
# with simple spectra (the ring up to its pairs of equal eigenvalues, the grid, a
# stochastic block model with sparse random blocks, karate) need about $n$: their bases
# leave no freedom to exploit.
#
# ## 3. The fast graph Fourier transform
#
# `gft(V, Y)` and `igft(V, X)` accept a `HouseholderProduct`, a `FourierBasis` or a dense
# matrix. With $m$ reflectors one signal costs $O(mn)$ instead of $O(n^2)$; a block of
# signals costs two matrix products with the thin $n \times m$ factor. Timed here on a
# complete multipartite graph with $n = 200$, against the dense eigenvector matrix:

# %%
G_big = load_graph("complete_multipartite", sizes=(50, 50, 50, 50))
V_big = householder_fourier_basis(G_big)
D_big = V_big.to_dense()
rng = np.random.default_rng(0)


def best_time(f, repeat=7):
    f()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        f()
        times.append(time.perf_counter() - t0)
    return min(times)


V_big_T = V_big.T  # the transpose as a HouseholderProduct, built once and reused
print(f"n = {V_big.n}, m = {V_big.m} reflectors; times in ms (best of 7)")
print(f"{'signals p':>10} {'gft(V, Y)':>10} {'V.T once, then @':>17} {'dense':>8} "
      f"{'dense / (V.T @)':>16}")
for p in (1, 100, 2000):
    Y = rng.standard_normal((V_big.n, p)) if p > 1 else rng.standard_normal(V_big.n)
    t_gft = best_time(lambda Y=Y: gft(V_big, Y))
    t_h = best_time(lambda Y=Y: V_big_T @ Y)
    t_d = best_time(lambda Y=Y: gft(D_big, Y))
    print(f"{p:10d} {1e3 * t_gft:10.3f} {1e3 * t_h:17.3f} {1e3 * t_d:8.3f} {t_d / t_h:16.2f}")
Y = rng.standard_normal((V_big.n, 10))
print("round trip max |igft(gft(Y)) - Y| =", np.abs(igft(V_big, gft(V_big, Y)) - Y).max())
print("max |gft with V - gft with dense| =", np.abs(gft(V_big, Y) - gft(D_big, Y)).max())

# %% [markdown]
# These are the times this machine measured when the page was built. The flop count
# favours the product by about $n / (4m)$, but at this small $n$ the dense product is a
# single call to an optimised BLAS kernel, while the product makes several small ones, so
# the constant factors decide; measure on your own sizes. `gft(V, Y)` also rebuilds the
# transposed product (and its small triangular WY factor) on every call: for repeated
# transforms, build `V.T` once, as in the middle column. The memory saving does not depend
# on the machine: the product stores $nm$ numbers instead of $n^2$.
#
# ## 4. Ordinary graphs: approximating a basis by fewer reflectors
#
# For a basis that needs about $n$ reflectors, `approximate_householder` fits the best
# product of $m$ reflectors it finds greedily (after choosing column signs and order). The
# relative error $\|QP - H_1 \cdots H_m\|_F / \|QP - I\|_F$ against $m / n$:

# %%
fig, ax = plt.subplots(figsize=(6, 3.6))
for name in ("karate", "grid"):
    Q, _ = aligned_eigenbasis(fourier_basis(load_graph(name)))
    n_q = Q.shape[0]
    _, errors, _, _ = approximate_householder(Q, n_q - 1)
    rel = errors / errors[0]
    ax.plot(np.arange(n_q) / n_q, rel, label=f"{name} (n = {n_q})")
    half = rel[n_q // 2]
    print(f"{name}: relative error with m = n/4: {rel[n_q // 4]:.2f}, m = n/2: {half:.2f}, "
          f"m = n - 1: {rel[-1]:.2f}")
ax.set_xlabel("reflectors m / n")
ax.set_ylabel("relative approximation error")
ax.set_title("Greedy Householder approximation of a Laplacian eigenbasis")
ax.legend()
fig.tight_layout()

# %% [markdown]
# Half as many reflectors as nodes still leave well over half of the distance to the
# identity: an ordinary graph's Fourier basis is not a short product of reflectors, and a
# truncated product is not an approximate eigenbasis. The structure the paper assumes
# ($V$ a product of few reflectors) fits graphs with large repeated eigenspaces, such as
# dense-block graphs, and those are the graphs where tutorial 5 learns the basis from
# signals.
