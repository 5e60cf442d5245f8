"""The graphs that the inference benchmarks list (the held-out audits' tests check that
theirs are not among them); the benchmarks folder must be on ``sys.path``."""

from __future__ import annotations


def listed_graphs(*extra: dict) -> set[str]:
    """The names of the graphs of the inference benchmarks and audits, and of ``extra``,
    with underscores as spaces."""
    import bench_audit
    import bench_audit_wider
    import bench_inference
    import bench_inference_cubic
    import bench_inference_sweep
    import bench_inference_symmetric

    listed = {
        *bench_inference.graphs(large=True, extra=True, heldout=True),
        *bench_inference.REPEATED,
        *bench_inference_symmetric.GRAPHS,
        *bench_inference_symmetric.EXTRA,
        *bench_inference_sweep.FAMILIES,
        *bench_inference_cubic.GRAPHS,
        *bench_inference_cubic.HELDOUT,
        *bench_audit.GRAPHS,
        *bench_audit_wider.GRAPHS,
    }
    for graphs in extra:
        listed |= set(graphs)
    return plain(listed)


def plain(names) -> set[str]:
    """``names`` with underscores as spaces."""
    return {name.replace("_", " ") for name in names}


#: The held-out audits in the order they were made: a generator an audit introduced is
#: called by no benchmark but the audits after it (which draw other graphs from it).
AUDITS = (
    "bench_audit.py",
    "bench_audit_wider.py",
    "bench_audit_third.py",
    "bench_audit_fourth.py",
    "bench_audit_fifth.py",
    "bench_audit_sixth.py",
    "bench_audit_seventh.py",
    "bench_audit_eighth.py",
    "bench_audit_ninth.py",
    "bench_audit_tenth.py",
)


def other_sources(own: str) -> str:
    """The source of every benchmark but ``own`` (an audit's file name) and the audits
    made after it (``AUDITS``)."""
    from pathlib import Path

    import bench_inference

    later = set(AUDITS[AUDITS.index(own) + 1 :])
    return "".join(
        p.read_text()
        for p in Path(bench_inference.__file__).parent.glob("*.py")
        if p.name != own and p.name not in later
    )


def connected_simple_sized(graphs: dict, names, low: int, high: int) -> list[str]:
    """The ``names`` of ``graphs`` (name -> constructor) whose graph is disconnected, has
    a self-loop or has fewer than ``low`` or more than ``high`` nodes."""
    import networkx as nx

    bad = []
    for name in names:
        G = graphs[name]()
        n = G.number_of_nodes()
        if not nx.is_connected(G) or nx.number_of_selfloops(G) or not low <= n <= high:
            bad.append(name)
    return bad


def assert_held_out(
    audit, earlier, min_graphs: int, min_laplacians: int, last_seed: int, generators
) -> None:
    """Assert that the audit module ``audit`` is held out: none of its graphs among the
    benchmarks' and the ``earlier`` audits' (their ``GRAPHS``), at least ``min_graphs``
    graphs and ``min_laplacians`` with a Laplacian of their own, its signals and
    Laplacians named among its graphs, its ``SEED`` above ``last_seed`` (the earlier
    audits' last) and none of its ``generators`` in another benchmark's source but the
    later audits' (``other_sources``)."""
    from pathlib import Path

    assert not listed_graphs(*(m.GRAPHS for m in earlier)) & plain(audit.GRAPHS)
    assert len(audit.GRAPHS) >= min_graphs
    assert set(audit.SIGNALS) <= set(audit.GRAPHS)
    assert set(audit.LAPLACIANS) <= set(audit.GRAPHS)
    assert len(audit.LAPLACIANS) >= min_laplacians
    assert audit.SEED > last_seed
    others = other_sources(Path(audit.__file__).name)
    for generator in generators:
        assert generator not in others, generator
