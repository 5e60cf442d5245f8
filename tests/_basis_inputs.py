"""Inputs of the inference tests: shuffled and perturbed eigenvector matrices."""

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
