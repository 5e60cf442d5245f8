"""Thresholds shared by the modules of the order-free Laplacian inference.

Noise levels of the rankings (rounding level, largest noise searched at, the level above
which no edge leaves the noise band), the factors and slacks by which a graph's residual
is compared with the noise and with other graphs' residuals, and the basis sizes above
which the family searches and the exact rankings give way to faster ones.
"""

from __future__ import annotations

#: Largest standardised residual of a clean set of non-edges, in noise units.
CLEAN_FACTOR = 30.0
#: Noise level (standardised residual of the pairs a ranking keeps) below which the
#: eigenvectors are taken as exact (rounding level).
EXACT_LEVEL = 1e-9
#: A noisy graph is accepted when its residual is within this factor of the noise
#: level; otherwise the remaining rankings are searched as exact first, then at the
#: largest noise estimate.
RESIDUAL_CONSISTENT = 5.0
#: Largest noise level (standardised residual of the least edge-like pairs) searched at:
#: above it those pairs are not non-edges, and no graph is claimed.
MAX_NOISE = 0.05
#: Noise level above which no edge can be told from a non-edge: a standardised entry
#: $|L_{ij}| / (s_i + s_j)$ is at most 1/2 ($s_i \ge d_i \ge w_{ij}$), and a pair within
#: ``CLEAN_FACTOR`` times the noise is taken as a non-edge.
UNRESOLVABLE_NOISE = 0.5 / CLEAN_FACTOR
#: Above this many nodes the extra family searches of unsettled graphs (next ranking,
#: consensus, weakest edges) are skipped: on RGG(1000, 0.06) they doubled the time (46 to
#: 91 CPU s) and changed no edge; sensor, WS and BA at n = 1000 are the same without them.
FAMILY_SEARCH_MAX_N = 500
#: Above this many nodes the rankings trim a random sample of pairs
#: (``sampled_leverage_ranking``) and are those of ``LARGE_RANKINGS``.
LADDER_MAX_N = 500
#: A graph fits exact eigenvectors when its residual (``_diagonal_fit``) is below this;
#: above, the eigenvectors are noisy (or the graph is wrong).
FITS_EXACTLY = 1e-6
#: Graphs of the noisy rankings whose rotation residual (``_residuals``) is within this
#: factor of the smallest one found are compared by sparsity.
RESIDUAL_SLACK = 1.25
#: ... provided their residual (``_residual``) is also within this factor of that
#: graph's (``_fits_as_well``).
PLAIN_SLACK = 2.0
#: A graph fits exact eigenvectors to rounding when its residual is below this
#: (``_refit_misfit``, ``_exact_misfit``): the graphs that share them fit to 1e-12 and
#: less, while a 717-edge member of a 60-node path's family fitted to 2.3e-7.
ROUNDING_FIT = 1e-9

#: Above this many nodes a grouped search (``character_groups``) that gives a graph is
#: not followed by the ungrouped one; below, both run and their graphs are compared.
GROUPED_ONLY_MIN_N = 64
