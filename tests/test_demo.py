"""The end-to-end demo on a small graph."""

import matplotlib

matplotlib.use("Agg")

import pytest

from gsp_householder.experiments.demo import run_demo


def test_demo_writes_report(tmp_path):
    path = run_demo("complete", tmp_path / "out", seed=0, n_signals=100)
    text = path.read_text()
    assert path.name == "report.md"
    assert "## complete" in text and "## karate" in text
    assert "structured refinement" in text and "paper, Algorithm 3" in text
    assert (tmp_path / "out" / "complete_graphs.png").stat().st_size > 0
    assert (tmp_path / "out" / "karate_errors.png").stat().st_size > 0
    # The exact basis with its eigenvalue order always gives the true graph.
    line = next(ln for ln in text.splitlines()
                if ln.startswith("| exact basis, eigenvalue order known"))
    assert "| 1.000 | 1.000 | 1.000 |" in line


def test_demo_unknown_graph(tmp_path):
    with pytest.raises(ValueError, match="graph must be one of"):
        run_demo("nope", tmp_path)
