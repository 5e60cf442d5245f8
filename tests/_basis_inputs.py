"""Inputs of the inference tests: shuffled, perturbed and rotated eigenvector matrices."""

from __future__ import annotations

import numpy as np


def shuffled(V, seed):
    """The columns of ``V`` in a random order, with random signs."""
    rng = np.random.default_rng(seed)
    n = V.shape[1]
    return V[:, rng.permutation(n)] * rng.choice([-1.0, 1.0], n)


def perturbed(V, rel, seed):
    """``V`` plus noise of relative Frobenius size ``rel``, re-orthonormalised."""
    E = np.random.default_rng(seed).standard_normal(V.shape)
    U, _, Wt = np.linalg.svd(V + rel * np.linalg.norm(V) * E / np.linalg.norm(E))
    return U @ Wt


def rotated(B, rng):
    """The eigenvectors of the ``FourierBasis`` ``B`` with a random rotation inside every
    repeated eigenspace, drawn from ``rng`` (any basis of an eigenspace is a valid one; a
    learned basis gives an arbitrary one)."""
    V = B.eigenvectors.copy()
    for g in B.eigenspaces:
        if len(g) > 1:
            Q, R = np.linalg.qr(rng.standard_normal((len(g), len(g))))
            V[:, g] = V[:, g] @ (Q * np.sign(np.diag(R)))
    return V
