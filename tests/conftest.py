"""Test configuration: hypothesis runs a fixed sequence of examples (reproducible CI), the
graph searches run with one BLAS thread, and OpenBLAS uses its Haswell kernels unless
``OPENBLAS_CORETYPE`` is set."""

import os
import sys

import pytest

# Which kernels OpenBLAS picks depends on the CPU, and the last bits of its products with
# them. The graph searches decide between graphs that fit the eigenvectors almost equally
# well, and on some of the suite's inputs the graph they return depends on those bits: with
# the SkylakeX kernels (CPUs with AVX-512) 19 tests get another answer or search path
# than with Haswell's, Zen's or SandyBridge's (docs/inference-families.md, "Results that
# depend on the BLAS kernels"). The suite runs on the AVX2 kernels every x86-64 CPU of the
# last decade has, so that its answers are the same on every machine; set
# OPENBLAS_CORETYPE to run it under other kernels. The variable is read when OpenBLAS is
# loaded: it reaches the pytest-xdist workers, which import numpy after this file.
if "numpy" not in sys.modules:
    os.environ.setdefault("OPENBLAS_CORETYPE", "Haswell")
from hypothesis import HealthCheck, settings

settings.register_profile(
    "reproducible", derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("reproducible")


# The graph searches decide between graphs that fit the eigenvectors almost equally well,
# and the last bits of a multithreaded BLAS product depend on how its threads split the
# sums: these modules run with one BLAS thread, so that their answers do not depend on
# the number of cores (the kernels that OpenBLAS picks for the CPU still differ; the
# tests use inputs whose answers hold under every kernel, see docs/inference-families.md,
# "Results that depend on the BLAS kernels").
ONE_BLAS_THREAD_MODULES = frozenset({
    "test_bench_audit", "test_dense_lp", "test_edge_significance", "test_family_doubt",
    "test_family_member", "test_inference_families", "test_laplacian_inference",
    "test_large_inference", "test_learn_graph", "test_local_columns", "test_noise_resolution",
    "test_pair_reuse", "test_polynomial_member", "test_quadratic_doubt", "test_quadratic_family",
    "test_quadratic_root",
    "test_repeated_eigenvalues", "test_kernel_weighted_inference", "test_twin_cliques",
    "test_equal_sparsity",
})


@pytest.fixture(autouse=True)
def _one_blas_thread_for_graph_searches(request):
    if request.module.__name__.rsplit(".", 1)[-1] not in ONE_BLAS_THREAD_MODULES:
        yield
        return
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield
