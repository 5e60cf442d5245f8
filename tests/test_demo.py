"""The end-to-end demo and the command line, on tiny graphs."""

import csv
import types

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pytest

from gsp_householder import cli
from gsp_householder.experiments import demo
from gsp_householder.experiments.demo import DemoRow, run_demo


def _table_line(text, start):
    return next(ln for ln in text.splitlines() if ln.startswith(start))


def test_demo_writes_report(tmp_path):
    """The default demo: karate learned from its signals, the complete graph as contrast."""
    path = run_demo(out_dir=tmp_path / "out", seed=0)
    text = path.read_text()
    assert path.name == "report.md"
    assert "## karate" in text and "## complete" in text
    assert "structured refinement" in text and "paper, Algorithm 3" in text
    assert (tmp_path / "out" / "karate_graphs.png").stat().st_size > 0
    assert (tmp_path / "out" / "complete_errors.png").stat().st_size > 0
    karate = text.split("## complete")[0]
    # learn_graph gives karate back from p = 20 n signals at theta = 0.5 ...
    line = _table_line(karate, "| learn_graph (whole basis, no eigenvalue order) | learned")
    assert "| 78 / 78 | 1.000 | 1.000 | 1.000 |" in line
    assert float(_table_line(karate, "| learn_graph").split("|")[2]) < 1e-8
    # ... where the paper's estimator stays as far from the basis as the identity
    assert float(_table_line(karate, "| paper, Algorithm 3 |").split("|")[2]) > 4
    # The exact basis with its eigenvalue order always gives the true graph.
    line = _table_line(karate, "| exact basis | eigenvalue order known")
    assert "| 1.000 | 1.000 | 1.000 |" in line
    # The structured refinement recovers the complete graph's single reflector.
    complete = text.split("## complete")[1]
    err = float(_table_line(complete, "| structured refinement |").split("|")[2])
    assert err < 1e-8
    # No time in the report: every time is in timings.csv.
    assert "run time" not in text.lower() and " s |" not in text and "seconds" not in text
    with (tmp_path / "out" / "timings.csv").open() as fh:
        rows = list(csv.DictReader(fh))
    assert {r["graph"] for r in rows} == {"complete", "karate", "all"}
    assert all(float(r["seconds"]) >= 0 for r in rows)
    assert any(r["step"] == "structured refinement" for r in rows)


def test_demo_outputs_are_byte_identical(tmp_path):
    """Same seed, same bytes: report.md and every PNG; only timings.csv may differ."""
    a = run_demo("florentine_families", tmp_path / "a", seed=3, contrast=None, progress=False)
    b = run_demo("florentine_families", tmp_path / "b", seed=3, contrast=None, progress=False)
    files = sorted(p.name for p in a.parent.iterdir())
    assert files == sorted(p.name for p in b.parent.iterdir())
    assert {"report.md", "timings.csv", "florentine_families_errors.png"} <= set(files)
    for name in files:
        if name != "timings.csv":
            assert (a.parent / name).read_bytes() == (b.parent / name).read_bytes(), name
    # another seed gives other signals, hence another report
    c = run_demo("florentine_families", tmp_path / "c", seed=4, contrast=None, progress=False)
    assert c.read_bytes() != a.read_bytes()


def test_demo_rows_are_pluggable(tmp_path):
    """A row may return a basis or a learned graph (an object with a ``laplacian``)."""
    calls = []

    def true_graph(ctx):
        calls.append((ctx.name, ctx.n, ctx.Y.shape))
        return types.SimpleNamespace(laplacian=ctx.basis.laplacian)

    def exact_basis(ctx):
        return ctx.V

    def family(ctx):
        wrong = ctx.basis.laplacian.toarray().copy()
        wrong[0, 1] = wrong[1, 0] = 0.0                 # one edge fewer
        return types.SimpleNamespace(laplacian=wrong, ambiguous=True, family_dimension=3,
                                     candidates=[wrong, ctx.basis.laplacian])

    rows = [DemoRow("true graph (learned-graph row)", true_graph),
            DemoRow("family row", family),
            DemoRow("exact basis row", exact_basis),
            DemoRow("Fourier basis row", lambda ctx: ctx.basis),
            DemoRow("too big", exact_basis, max_nodes=3, reason="a test limit")]
    text = run_demo("ring", tmp_path, n_signals=40, rows=rows, contrast=None).read_text()
    assert calls == [("ring", 50, (50, 40))]
    # 50 nodes: sparse codes by default, and the report says so
    assert "## ring: n = 50 nodes, 49 reflector(s), p = 40 signals, theta = 0.1" in text
    assert "Codes: theta = 0.1 (the default above 40 nodes" in text
    dense = run_demo("ring", tmp_path / "dense", n_signals=40, theta=0.5, rows=rows[:1],
                     contrast=None).read_text()
    assert "theta = 0.5" in dense and "Codes: theta" not in dense
    line = _table_line(text, "| true graph (learned-graph row) | learned graph |")
    assert "| 50 / 50 | 1.000 | 1.000 | 1.000 |" in line
    assert float(_table_line(text, "| exact basis row |").split("|")[2]) < 1e-10
    # a FourierBasis is used as a basis (ring's repeated eigenvalues: another basis inside
    # each eigenspace than the Householder one, so the error is not zero)
    from gsp_householder import fourier_basis, householder_fourier_basis, load_graph
    from gsp_householder.metrics import matched_basis_error

    ring = load_graph("ring")
    expected = matched_basis_error(householder_fourier_basis(ring).to_dense(),
                                   fourier_basis(ring).eigenvectors)
    assert _table_line(text, "| Fourier basis row |").startswith(
        f"| Fourier basis row | {expected:.3g} |")
    assert "| Fourier basis row | learned graph |" not in text
    assert "- too big: skipped (n = 50 > 3): a test limit." in text
    assert ("- family row: the eigenvectors do not determine the graph (a family of "
            "dimension 3; 2 candidate(s) found, the table shows the first); the best "
            "candidate, scored against the true graph that the signals do not give, has F1 "
            "1.000") in text
    assert "| too big |" not in text and "paper, Algorithm 3" not in text
    with pytest.raises(TypeError, match="rows must be DemoRow instances"):
        run_demo("ring", tmp_path, rows=[exact_basis])


def test_demo_skips_steps_beyond_their_size_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setitem(demo.LIMITS, "inference_order_free", (10, "reason A"))
    monkeypatch.setitem(demo.LIMITS, "inference_ordered", (10, "reason B"))
    monkeypatch.setitem(demo.LIMITS, "householder_search", (10, "reason C"))
    monkeypatch.setattr(demo, "MAX_SIGNAL_ENTRIES", 20 * 30)
    rows = [DemoRow(r.name, r.estimate, max_nodes=10, reason="reason D")
            if r.name.startswith("learn_graph") else r
            for r in demo.DEFAULT_ROWS if r.name != "structured refinement"]
    text = run_demo("complete", tmp_path, rows=rows, contrast=None).read_text()
    assert "Inference without eigenvalue order skipped (n = 20 > 10): reason A." in text
    assert "Inference with the eigenvalue order skipped (n = 20 > 10): reason B." in text
    assert "Fewest-reflector search skipped (n = 20 > 10): reason C." in text
    assert "p = 30 instead of 20 n = 400" in text and "p = 30 signals" in text
    assert "order): skipped (n = 20 > 10): reason D." in text
    assert "No graph was inferred on this graph" in text
    assert "### Inferred graphs" not in text
    # the QR basis has n - 1 reflectors where the search finds one
    assert "## complete: n = 20 nodes, 19 reflector(s)" in text
    assert not (tmp_path / "complete_graphs.png").exists()


def test_demo_progress_callback(tmp_path):
    seen = []
    run_demo("complete", tmp_path, n_signals=40, contrast=None, progress=seen.append,
             rows=demo.DEFAULT_ROWS[:1])
    assert seen[0] == "[complete] load graph" and seen[-1] == "[all] report and figures"
    assert f"[complete] {demo.DEFAULT_ROWS[0].name}" in seen


def test_demo_bad_arguments(tmp_path):
    with pytest.raises(ValueError, match="graph must be one of"):
        run_demo("nope", tmp_path)
    with pytest.raises(ValueError, match="contrast must be None or one of"):
        run_demo("complete", tmp_path, contrast="nope")
    with pytest.raises(ValueError, match="n_signals"):
        run_demo("complete", tmp_path, n_signals=0)
    (tmp_path / "f").write_text("x")
    with pytest.raises(ValueError, match=r"out_dir must be a directory, but .* is an "
                                         r"existing file"):
        run_demo("complete", tmp_path / "f")


# ---------------------------------------------------------------- the command line
def _run(capsys, argv):
    try:
        code = cli.main(argv)
    except SystemExit as exc:      # argparse's own errors
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", [["demo"], ["reproduce", "fig1"]])
def test_cli_out_is_a_file(tmp_path, capsys, command):
    target = tmp_path / "report.txt"
    target.write_text("keep me")
    code, out, err = _run(capsys, [*command, "--out", str(target)])
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"gsp-householder {command[0]}: error: --out must be a directory")
    assert target.read_text() == "keep me"


@pytest.mark.parametrize("command", [["demo"], ["reproduce", "fig1"]])
@pytest.mark.parametrize("where", ["/proc/gsp_householder_out", "{file}/sub"])
def test_cli_out_cannot_be_created(tmp_path, capsys, command, where):
    (tmp_path / "file").write_text("")
    path = where.format(file=tmp_path / "file")
    code, out, err = _run(capsys, [*command, "--out", path])
    assert code == 2 and out == "" and "Traceback" not in err
    assert err.count("\n") == 1
    assert f"error: --out: cannot create directory {path!r}" in err


def test_cli_out_not_writable(capsys):
    code, _, err = _run(capsys, ["demo", "--out", "/proc"])
    assert code == 2 and err.count("\n") == 1
    assert "error: --out: directory '/proc' is not writable" in err


def test_cli_unknown_graph(capsys):
    code, out, err = _run(capsys, ["demo", "--graph", "petersen"])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "error: argument --graph: invalid choice: 'petersen' (choose from karate, " in err
    assert "sensor" in err and "minnesota" in err


def test_cli_argparse_errors_exit_2(capsys):
    code, _, err = _run(capsys, ["reproduce", "fig9"])
    assert code == 2 and "invalid choice: 'fig9'" in err
    code, _, err = _run(capsys, ["demo", "--progress", "loud"])
    assert code == 2 and "--progress" in err


def test_cli_demo_prints_flushed_progress_lines(tmp_path, capsys, monkeypatch):
    # a small contrast graph keeps the test fast; the command line runs the library's demo
    monkeypatch.setattr(demo, "CONTRAST_GRAPH", "florentine_families")
    real = demo.run_demo
    monkeypatch.setattr(demo, "run_demo",
                        lambda *a, **k: real(*a, contrast=demo.CONTRAST_GRAPH, **k))
    code, out, err = _run(capsys, ["demo", "--graph", "complete", "--out", str(tmp_path),
                                   "--progress", "lines"])
    assert code == 0
    assert out == f"report written to {tmp_path / 'report.md'}\n"
    lines = err.splitlines()
    assert lines[0] == "[complete] load graph" and "[florentine_families] load graph" in lines
    assert (tmp_path / "report.md").exists()
    # quiet when stderr is not a terminal (the default)
    code, out, err = _run(capsys, ["demo", "--graph", "florentine_families", "--out",
                                   str(tmp_path / "quiet")])
    assert code == 0 and err == ""


def test_cli_graphs_lists_every_graph(capsys):
    from gsp_householder.graphs.datasets import list_graphs

    code, out, _ = _run(capsys, ["graphs"])
    assert code == 0 and out.split() == list(list_graphs())
    assert np.all([name in out for name in ("sensor", "minnesota")])
