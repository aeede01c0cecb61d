"""Pre-image as the mean of the 5 training inputs nearest to Psi in feature space.

The example of docs/external-estimators.md: a complete external estimator.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import runexp_estimator as rx  # noqa: E402


def estimate(p):
    # |Psi_m - phi(x_n)|^2 = K_nn - 2 (Gamma K)_mn + |Psi_m|^2; the last term
    # is the same for every n, so it does not change the ranking.
    d2 = np.diag(p.K)[None, :] - 2 * p.Gamma @ p.K
    nearest = np.argsort(d2, axis=1, kind="stable")[:, :5]
    return p.X[nearest].mean(axis=1)


rx.main(estimate)
