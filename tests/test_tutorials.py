"""Every tutorial runs to the end as a plain script, each in its own process.

The docs build executes the same files as notebooks (mkdocs-jupyter, ``allow_errors:
false``); this test catches a broken tutorial without building the site. Warnings are
errors here, as in the rest of the suite, except deprecations raised by other libraries.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TUTORIALS = sorted((ROOT / "tutorials").glob("[0-9]*.py"))

# A guard against a hung process, not a speed check (each tutorial targets < 2 min).
TIMEOUT_S = 600


def test_tutorials_exist():
    assert TUTORIALS, "no tutorials/NN_*.py found"


@pytest.mark.parametrize("path", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_is_jupytext_percent_with_a_title(path):
    text = path.read_text(encoding="utf-8")
    assert "# %% [markdown]" in text and "\n# %%\n" in text, (
        f"{path.name} must use jupytext percent cells ('# %%' and '# %% [markdown]')")
    first_markdown = text.split("# %% [markdown]", 1)[1].lstrip("\n")
    assert first_markdown.startswith("# # "), (
        f"{path.name}: the first markdown cell must open with a '# # Title' heading "
        "(it is the page title on the site)")
    jupytext = pytest.importorskip("jupytext")
    notebook = jupytext.read(path)
    kinds = {cell.cell_type for cell in notebook.cells}
    assert kinds == {"markdown", "code"}, f"{path.name}: cell types {kinds}"


@pytest.mark.parametrize("path", TUTORIALS, ids=[p.stem for p in TUTORIALS])
def test_tutorial_runs(path, tmp_path):
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONHASHSEED="0")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    cmd = [sys.executable,
           "-W", "error",
           "-W", "ignore::DeprecationWarning",
           "-W", "ignore::PendingDeprecationWarning",
           str(path)]
    proc = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT_S, check=False)
    assert proc.returncode == 0, (
        f"{path.name} failed (exit {proc.returncode}):\n--- stderr ---\n{proc.stderr[-4000:]}"
        f"\n--- stdout (tail) ---\n{proc.stdout[-2000:]}")


def _python_blocks(page: Path) -> list[str]:
    text = page.read_text(encoding="utf-8")
    blocks, inside, current = [], False, []
    for line in text.splitlines():
        if not inside and line.strip() == "```python":
            inside, current = True, []
        elif inside and line.strip() == "```":
            inside = False
            blocks.append("\n".join(current))
        elif inside:
            current.append(line)
    return blocks


def test_home_page_example_runs(capsys):
    """The Python example on the home page runs and prints two small errors."""
    blocks = _python_blocks(ROOT / "docs" / "index.md")
    assert blocks, "docs/index.md has no ```python example"
    for code in blocks:
        exec(compile(code, "docs/index.md", "exec"), {})
    basis_err, code_err = map(float, capsys.readouterr().out.split())
    assert 0 < basis_err < 1 and 0 < code_err < 0.5
