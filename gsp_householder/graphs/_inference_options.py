"""The options of a Laplacian inference that do not depend on the basis: kind and scale.

Checked by `infer_laplacian` and, before any learning, by `learn_graph`, so that a bad
option is named at once rather than after the basis has been learned.
"""

from __future__ import annotations

from gsp_householder._validation import check_scalar

#: The Laplacians the inference fits.
LAPLACIAN_KINDS = ("combinatorial", "normalized")


def check_inference_options(laplacian, scale) -> float | None:
    """The validated ``scale`` for a Laplacian of kind ``laplacian``.

    Raises ``ValueError`` naming the argument: ``laplacian`` not one of
    ``("combinatorial", "normalized")``, or ``scale`` given for a normalized Laplacian
    (unit diagonal) or not a positive finite number.

    Examples
    --------
    >>> from gsp_householder.graphs._inference_options import check_inference_options
    >>> check_inference_options("combinatorial", 2)
    2.0
    >>> check_inference_options("normalized", None) is None
    True
    """
    if not isinstance(laplacian, str) or laplacian not in LAPLACIAN_KINDS:
        raise ValueError(f"laplacian must be one of {LAPLACIAN_KINDS}, got {laplacian!r}")
    if scale is None:
        return None
    if laplacian == "normalized":
        raise ValueError("scale applies to combinatorial Laplacians only; a normalized "
                         "Laplacian has unit diagonal")
    return check_scalar(scale, "scale", low=0.0)
