"""Cold programs of many rows solved by HiGHS's interior point method, then crossover.

The max-margin rounds of exact spans at $n \\approx 1000$ (``_template_lp.valid_in_span``:
thousands of dense pair rows, entries up to 500, bounds 0 to 1.6e-5, about 150 to 180
columns) are the programs on which HiGHS's dual simplex can spend 0.1 CPU s an
iteration in its small-pivot refinement and failed proofs of infeasibility: on
RGG(1000, 0.055, seed 31), exact, a presolved round of 6999 rows and 179 columns ran
for over 180 CPU s without an answer, with or without presolve. The interior point
method needs a few dozen iterations (38 to 59 on that row's rounds of 4999 to 6999
rows, 2 to 4 CPU s) and found that round infeasible; it is: no point comes within
5.3e-7 of every row (the least uniform violation, by the dual simplex; 1.5e-6 by the
interior point method), above HiGHS's feasibility tolerance (1e-7) and 40 times the
median pair bound. Its crossover ends at a basis, from which HiGHS computes the vertex:
where that basis is the dual simplex's optimal basis (a program with one optimal
vertex), the vertex is the dual simplex's, bit for bit (that row's rounds of 3999, 4999
and 5999 rows). Internal module: the policy (which programs, which options);
``_dense_lp.interior_solve`` runs it, called by ``_dense_lp._cold_solve``.
"""

from __future__ import annotations

#: Programs of at least this many rows (pair rows and the fixed rows) and ``MIN_COLUMNS``
#: columns are solved by the interior point method first (``applies``).
MIN_ROWS = 4000
#: The dual simplex's iterations grow with the columns (at most 8.7 per column on the
#: benchmark rows' presolved cold solves above 10 columns;
#: docs/measurements/speed-and-scale.md, "Stalled presolved solves"): programs of fewer
#: columns end in a few hundred iterations.
MIN_COLUMNS = 100
#: The interior point method stops after this many iterations (a deterministic bound on
#: its work; the programs above needed 38 to 59).
IPM_ITERATIONS = 200


def applies(n_rows: int, n_columns: int) -> bool:
    """Whether a cold program of ``n_rows`` rows and ``n_columns`` columns is solved by
    the interior point method first (``_dense_lp.interior_solve``)."""
    return n_rows >= MIN_ROWS and n_columns >= MIN_COLUMNS


def interior_options() -> dict[str, object]:
    """HiGHS options of the interior point solve of a program that ``applies``: the
    interior point method with crossover, presolved, at most ``IPM_ITERATIONS``
    iterations (``_dense_lp.interior_solve`` runs it)."""
    return {"solver": "ipm", "run_crossover": "on", "ipm_iteration_limit": IPM_ITERATIONS}
