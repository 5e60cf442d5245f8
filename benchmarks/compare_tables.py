"""Compare two benchmark outputs' markdown tables on every column that is not a time.

Run ``python benchmarks/compare_tables.py BEFORE.txt AFTER.txt``: the rows of every table
(a header line followed by a ``|---|`` line) are read in order from both files; a column
whose header is ``s``, ``cpu s``, ``time`` or contains ``time`` / ``cpu`` is a time, whose
leading number(s) are dropped (a note after them is compared) and whose CPU seconds are
summed. Prints each changed row of both files, then the row counts, the number of changed
rows and the CPU sums. A table ends at a blank line or a title (``#``); other lines between
its rows (log lines of the libraries the benchmark runs) are skipped.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

_SEPARATOR = re.compile(r"^\|[-| :]+\|$")
_TIME_CELL = re.compile(r"^\*?\*?([0-9.]+)((?:\s*/\s*[0-9.]+)*)\*?\*?(.*)$")


def table_rows(path: str) -> list[tuple[tuple[str, ...], list[str]]]:
    """Every table row of the file as ``(header, cells)``, in order."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    rows, header = [], None
    for i, line in enumerate(lines):
        if not line.startswith("|"):
            if not line.strip() or line.startswith("#"):
                header = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if i + 1 < len(lines) and _SEPARATOR.match(lines[i + 1].strip()):
            header = tuple(cells)
            continue
        if _SEPARATOR.match(line.strip()) or header is None:
            continue
        rows.append((header, cells))
    return rows


def is_time(header: str) -> bool:
    """Whether a column holds times."""
    h = header.lower()
    return h in ("s", "cpu s", "wall s", "time") or "time" in h or "cpu" in h or h.endswith(" s")


def row_key(header: tuple[str, ...], cells: list[str]) -> tuple[tuple[str, ...], float]:
    """The row's cells with the times' numbers dropped, and its CPU seconds."""
    key, cpu = [], 0.0
    has_cpu = any(h.lower() == "cpu s" for h in header)
    for h, c in zip(header, cells, strict=False):
        m = _TIME_CELL.match(c) if is_time(h) else None
        if m is None:
            key.append(c)
            continue
        if "cpu" in h.lower() or (h.lower() == "s" and not has_cpu):
            numbers = [m.group(1)] + [x for x in m.group(2).split("/") if x.strip()]
            try:
                cpu += sum(float(x) for x in numbers)
            except ValueError:
                pass
        key.append(m.group(3).strip())
    return tuple(key), cpu


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    args = ap.parse_args()
    before = [row_key(h, c) for h, c in table_rows(args.before)]
    after = [row_key(h, c) for h, c in table_rows(args.after)]
    changed = 0
    for i in range(max(len(before), len(after))):
        x = before[i][0] if i < len(before) else None
        y = after[i][0] if i < len(after) else None
        if x != y:
            changed += 1
            print("BEFORE:", " | ".join(x) if x else None)
            print("AFTER: ", " | ".join(y) if y else None)
    print(f"rows {len(before)} / {len(after)}, changed {changed}, CPU sum "
          f"{sum(c for _, c in before):.1f} / {sum(c for _, c in after):.1f}")


if __name__ == "__main__":
    main()
