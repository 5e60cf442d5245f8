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
# # Scale: streaming, scikit-learn's partial_fit, and dask
#
# The paper's estimators read the signals only through three sufficient statistics: the
# row sums, the row sums of squares and the number of signals. These add up over any split
# of the columns, so the signals never have to be in memory at once:
#
# * a **stream** of column blocks (a generator, a file read block by block) is reduced by
#   `statistics_from_blocks`, in $O(n)$ memory;
# * a `.npy` file is read through a memory map by `statistics_from_npy`;
# * the **scikit-learn estimator** `HouseholderDictionaryLearning` learns with
#   `partial_fit`, one batch at a time;
# * a **dask array** is reduced in one parallel pass, chunk by chunk, and every estimator
#   accepts it directly.
#
# All four give the estimate of the in-memory array, up to the order of floating-point
# additions. The timings printed here are measured when the page is built, on whatever
# machine builds it.

# %%
import os
import tempfile
import time
import warnings

import dask
import dask.array as da
import numpy as np

import gsp_householder as gh
from gsp_householder.estimator import HouseholderDictionaryLearning
from gsp_householder.statistics.streaming import statistics_from_blocks, statistics_from_npy

# %% [markdown]
# ## 1. A stream of signal blocks
#
# A generator stands for a source that delivers signals in batches (a sensor network, a
# simulation, a file). Each batch is drawn from the same model; the generator never holds
# more than one batch.

# %%
n, m = 1000, 1
block_size, n_blocks = 1000, 20
V = gh.random_householder_product(n, m, rng=0)
model = gh.BernoulliUniform(0.5)


def signal_blocks(seed=1):
    """Yield ``n_blocks`` blocks of shape (n, block_size) from independent streams."""
    for child in np.random.default_rng(seed).bit_generator.seed_seq.spawn(n_blocks):
        Y_block, _ = gh.make_signals(V, block_size, model, rng=np.random.default_rng(child))
        yield Y_block


t0 = time.perf_counter()
stats = statistics_from_blocks(signal_blocks())
t_stream = time.perf_counter() - t0
H_stream = gh.estimate_householder(stats)

print(stats)
print(f"streamed {stats.count} signals in {t_stream:.2f} s (generation included); "
      f"statistics hold {2 * n + 1} numbers, the signals {n * stats.count:,}")
print(f"l_inf error of u_hat: {gh.vector_error(V.vectors[:, 0], H_stream.vectors[:, 0]):.5f}")

# %% [markdown]
# The same signals in memory give the same estimate:

# %%
Y = np.hstack(list(signal_blocks()))
t0 = time.perf_counter()
H_memory = gh.estimate_householder(Y)
t_memory = time.perf_counter() - t0
print(f"in memory: Y is {Y.shape}, {Y.nbytes / 2**20:.0f} MiB, estimate in {t_memory:.3f} s")
print("max |u_stream - u_memory| =", np.abs(H_stream.vectors - H_memory.vectors).max())

# %% [markdown]
# ## 2. A file of signals, through a memory map
#
# Store signals one per **row** (`Y.T`, shape `(p, n)`): then a block of signals is a
# contiguous slice of the file. `statistics_from_npy` maps the file and reads
# `block_size` signals at a time.

# %%
with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "signals.npy")
    np.save(path, np.ascontiguousarray(Y.T))
    t0 = time.perf_counter()
    stats_file = statistics_from_npy(path, block_size=2000)
    t_file = time.perf_counter() - t0
print(f"from the file: {stats_file.count} signals in {t_file:.3f} s; same row sums: "
      f"{np.allclose(stats_file.row_sums, stats.row_sums, rtol=1e-12)}")

# %% [markdown]
# ## 3. scikit-learn: `fit` and `partial_fit`
#
# The estimator follows scikit-learn's orientation: it is given `Y.T`, shape
# `(n_samples, n_features)` = `(n_signals, n_nodes)` (see
# [Conventions](../../conventions/)). `partial_fit` adds one batch of samples to the
# statistics and re-estimates.

# %%
batch_est = HouseholderDictionaryLearning(n_reflectors=1)
for Y_block in signal_blocks():
    batch_est.partial_fit(Y_block.T)
full_est = HouseholderDictionaryLearning(n_reflectors=1).fit(Y.T)

print("signals seen by partial_fit:", batch_est.statistics_.count)
print("basis difference partial_fit vs fit:",
      gh.basis_error(batch_est.dictionary_, full_est.dictionary_))
codes = full_est.transform(Y.T[:5])
print("codes of 5 signals:", codes.shape, " non-zeros per signal:", (codes != 0).sum(axis=1))

# %% [markdown]
# ## 4. dask
#
# A dask array chunked along the signals is reduced in one parallel pass: each chunk
# contributes two length-$n$ vectors. The estimators accept the dask array as they accept a
# NumPy array. The blocks below are built lazily, so the array never exists in memory as a
# whole.

# %%
delayed_blocks = [dask.delayed(gh.make_signals)(V, block_size, model, rng=seed)[0]
                  for seed in range(n_blocks)]
Y_dask = da.concatenate([da.from_delayed(b, shape=(n, block_size), dtype=np.float64)
                         for b in delayed_blocks], axis=1)
print(Y_dask)

t0 = time.perf_counter()
with dask.config.set(scheduler="threads", num_workers=2):
    H_dask = gh.estimate_householder(Y_dask)
t_dask = time.perf_counter() - t0
print(f"dask, 2 threads: {Y_dask.shape[1]} signals generated and reduced in {t_dask:.2f} s")
print(f"l_inf error of u_hat: {gh.vector_error(V.vectors[:, 0], H_dask.vectors[:, 0]):.5f}")

# %% [markdown]
# With a `distributed` cluster the same call runs on its workers (here an in-process
# cluster; on a real one, pass the scheduler's address to `Client`):

# %%
from distributed import Client, LocalCluster

with warnings.catch_warnings():
    # a local cluster may warn about ports or memory limits on a shared machine
    warnings.simplefilter("ignore")
    cluster = LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                           dashboard_address=None)
    client = Client(cluster)
    try:
        t0 = time.perf_counter()
        H_distributed = gh.estimate_householder(Y_dask)
        t_distributed = time.perf_counter() - t0
    finally:
        client.close()
        cluster.close()
print(f"distributed: {t_distributed:.2f} s; same estimate as the threaded scheduler: "
      f"{np.allclose(H_distributed.vectors, H_dask.vectors, atol=1e-12)}")

# %% [markdown]
# ## 5. What scales and what does not
#
# Everything above is one pass over the data followed by $O(n)$ work: the memory is that
# of one block, and the time is that of reading the signals. This holds for the paper's
# estimators (`method="paper"` in the estimator), which is also why they learn no more than
# one reflector (tutorial 2). The structured refinement of tutorial 3 needs the signals
# themselves, not only their statistics: it runs on an in-memory array, and the estimator
# with `method="refine"` has no `partial_fit`.

# %%
print("partial_fit with method='paper': ",
      hasattr(HouseholderDictionaryLearning(method="paper"), "partial_fit"))
print("partial_fit with method='refine':",
      hasattr(HouseholderDictionaryLearning(method="refine"), "partial_fit"))
