"""The regression comparison of two benchmark outputs (``benchmarks/compare_tables.py``)."""

import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"

BEFORE = """# title
| graph | n | F1 | edges | s | cpu s |
|---|---|---|---|---|---|
| karate | 34 | 1.0000 | 78 / 78 | 0.03 | 0.01 |
2026-01-01 DEBUG pygsp: a log line inside the table
| sensor | 200 | 0.9817 | 697 / 723 | 0.84 | 0.66 (warned) |

| other | cpu s |
|---|---|
| x | 1.5 / 2.5 |
"""

AFTER = """# title
| graph | n | F1 | edges | s | cpu s |
|---|---|---|---|---|---|
| karate | 34 | 1.0000 | 78 / 78 | 0.09 | 0.05 |
2026-01-01 DEBUG pygsp: a log line inside the table
| sensor | 200 | 0.9900 | 700 / 723 | 0.80 | 0.70 (warned) |

| other | cpu s |
|---|---|
| x | 2.0 / 2.0 |
"""


@pytest.fixture()
def compare_tables(monkeypatch):
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    import compare_tables

    return compare_tables


@pytest.fixture()
def outputs(tmp_path):
    """The two benchmark outputs, written to files."""
    before, after = tmp_path / "before.txt", tmp_path / "after.txt"
    before.write_text(BEFORE)
    after.write_text(AFTER)
    return str(before), str(after)


def test_rows_are_read_across_log_lines_and_times_are_dropped(compare_tables, outputs):
    rows = compare_tables.table_rows(outputs[0])
    assert [cells[0] for _, cells in rows] == ["karate", "sensor", "x"]
    keys = [compare_tables.row_key(h, c) for h, c in rows]
    assert keys[0] == (("karate", "34", "1.0000", "78 / 78", "", ""), 0.01)
    assert keys[1][0][-1] == "(warned)" and keys[1][1] == pytest.approx(0.66)
    assert keys[2] == (("x", ""), 4.0)


def test_only_non_time_columns_count_as_changes(compare_tables, outputs, capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["compare_tables.py", *outputs])
    compare_tables.main()
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "rows 3 / 3, changed 1, CPU sum 4.7 / 4.8"
    assert out[0].startswith("BEFORE: sensor") and "0.9817" in out[0]
    assert out[1].startswith("AFTER:  sensor") and "0.9900" in out[1]
