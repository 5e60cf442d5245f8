"""Test configuration: hypothesis runs a fixed sequence of examples (reproducible CI),
the graph searches run with one BLAS thread, and the test workers share the cores."""

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "reproducible", derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("reproducible")


# The graph searches decide between graphs that fit the eigenvectors almost equally well,
# and the last bits of a multithreaded BLAS product depend on how its threads split the
# sums: these modules run with one BLAS thread, so that their answers do not depend on
# the number of cores (the kernels that OpenBLAS picks for the CPU still differ; the
# tests use inputs whose answers hold under every kernel, see docs/measurements/families.md,
# "Results that depend on the BLAS kernels").
ONE_BLAS_THREAD_MODULES = frozenset({
    "test_bench_audit", "test_dense_lp", "test_edge_significance", "test_family_doubt",
    "test_family_member", "test_inference_families", "test_laplacian_inference",
    "test_large_inference", "test_learn_graph", "test_local_columns", "test_noise_resolution",
    "test_pair_reuse", "test_polynomial_member", "test_quadratic_doubt", "test_quadratic_family",
    "test_quadratic_root",
    "test_repeated_eigenvalues", "test_kernel_weighted_inference", "test_twin_cliques",
    "test_equal_sparsity", "test_support_refit",
})


@pytest.fixture(autouse=True)
def _one_blas_thread_for_graph_searches(request):
    if request.module.__name__.rsplit(".", 1)[-1] not in ONE_BLAS_THREAD_MODULES:
        yield
        return
    from threadpoolctl import threadpool_limits

    with threadpool_limits(limits=1, user_api="blas"):
        yield


def _blas_threads_per_worker() -> int:
    """The BLAS threads each pytest-xdist worker may use so that the workers' threads do
    not outnumber the cores: the cores available divided by the workers (at least one).
    Without a limit each worker's OpenBLAS starts a thread per core, and two workers on
    two cores run four threads that wait on one another."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return max(1, (cores or 1) // workers)


# The variables that set the BLAS and OpenMP threads of a process started by a test (the
# tutorials run as scripts, each in its own process).
_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")


@pytest.fixture(autouse=True, scope="session")
def _workers_share_the_cores():
    """Each worker's BLAS, and that of the processes its tests start, uses the worker's
    share of the cores (a thread count set by the caller is kept for those processes)."""
    if "PYTEST_XDIST_WORKER" not in os.environ:
        yield
        return
    from threadpoolctl import threadpool_limits

    threads = _blas_threads_per_worker()
    with pytest.MonkeyPatch.context() as patch, threadpool_limits(limits=threads, user_api="blas"):
        for name in _THREAD_VARIABLES:
            if name not in os.environ:
                patch.setenv(name, str(threads))
        yield
