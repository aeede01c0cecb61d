"""Pre-image as the mean of the k training inputs nearest to Psi in feature space.

The example of docs/external-estimators.md: a complete external estimator,
with one parameter of its own, k (default 5), read from the manifest's
params (the external estimator's params parameter):

    params: '{"k": 1}'      in a config's methods[i].params
    params='{"k": 1}'       in --with or check-estimator --param

With k = 1 the pre-image of phi(x_n) is x_n itself, an exact pre-image.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import runexp_estimator as rx  # noqa: E402


def estimate(p):
    k = p.params.get("k", 5)
    if not isinstance(k, int) or isinstance(k, bool) or k < 1:
        raise ValueError("params.k: want an integer >= 1, got %r" % (k,))
    # |Psi_m - phi(x_n)|^2 = K_nn - 2 (Gamma K)_mn + |Psi_m|^2; the last term
    # is the same for every n, so it does not change the ranking.
    d2 = np.diag(p.K)[None, :] - 2 * p.Gamma @ p.K
    nearest = np.argsort(d2, axis=1, kind="stable")[:, :k]
    return p.X[nearest].mean(axis=1)


rx.main(estimate)
