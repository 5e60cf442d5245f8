"""The last program of a span handed to the next band program of the same span.

``_support_search.PrefixSearch._band_lp`` imposes a noise band on the pairs after the
prefix by constraint generation: each of its rounds is a max-margin program of
``_template_lp.valid_in_span`` over the same span, tolerances and pair rows, with the
band of the round before plus the pairs violating it. Each such program starts its
cutting planes from the pair rows the one before ended with (``cache["rows"]``), in a
presolved cold solve of about a thousand rows (30 to 70 ms at 60 columns: on perturbed
``random_cograph(6, seed=61)`` 692 such first solves took 22 of 53 CPU s). The model the
one before ended with holds those very rows and the smaller band: adding the new band
rows to it and solving from its basis gives the same program.

``record`` keeps that model in the span's ``cache`` (``"band_seed"``), with the pair
rows it holds and its band; ``take`` hands it to the next program, once, when that
program's band holds the recorded one (same pairs, same widths) and it starts from the
same pair rows. Its answer is taken only when it is the program's only optimum
(``WarmProgram.unique_optimum``), as for the later rounds of ``_template_lp._Rounds``;
otherwise the program is solved cold as before.

Internal module: arguments are validated by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class BandSeed:
    """A model of a span's max-margin program (``program``: a ``WarmProgram``) with the
    mask of the pair rows it holds (``rows``) and its band: the codes $i n + j$ of the
    band's pairs and their widths (empty without a band)."""

    program: object
    rows: np.ndarray
    codes: np.ndarray
    widths: np.ndarray


def band_codes(band, n: int) -> tuple[np.ndarray, np.ndarray]:
    """The codes $i n + j$ and the widths of ``band = (I, J, width)`` (None: empty)."""
    if band is None:
        return np.zeros(0, dtype=np.int64), np.zeros(0)
    I, J, width = band
    return (
        np.asarray(I, dtype=np.int64) * n + np.asarray(J, dtype=np.int64),
        np.asarray(width, dtype=float),
    )


def record(cache: dict, program, rows: np.ndarray, band, n: int) -> None:
    """Keep ``program`` (holding the pair rows ``rows`` and the rows of ``band``) in
    ``cache`` for the next program of the span."""
    codes, widths = band_codes(band, n)
    cache["band_seed"] = BandSeed(program, rows.copy(), codes, widths)


def take(cache: dict) -> BandSeed | None:
    """The record of ``cache``, removed (a model serves the next program only)."""
    return cache.pop("band_seed", None)


def fits(seed: BandSeed | None, rows: np.ndarray, band, n: int):
    """The recorded model and the mask of the pairs of ``band`` it lacks, if it holds
    exactly the pair rows ``rows`` and a band that ``band`` holds with the same widths;
    else None."""
    if seed is None or band is None or not np.array_equal(seed.rows, rows):
        return None
    codes, widths = band_codes(band, n)
    if len(np.unique(codes)) != codes.size:
        return None
    position = {int(c): k for k, c in enumerate(codes.tolist())}
    held = np.zeros(codes.size, dtype=bool)
    for c, w in zip(seed.codes.tolist(), seed.widths.tolist(), strict=True):
        k = position.get(int(c))
        if k is None or widths[k] != w:
            return None
        held[k] = True
    return seed.program, ~held
