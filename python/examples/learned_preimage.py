"""Learned pre-image (Bakir, Weston & Schoelkopf 2004) as an external estimator.

Kernel ridge regression from the kernel PCA coordinates of the training
inputs back to the inputs, applied to the coordinates of each point; the
NumPy twin of runexp's native estimator `learned`
(internal/methods/learned.go), with the same options:

    --alpha A              ridge alpha (default 1e-3)
    --inverse-kernel K     same | gaussian | linear (default same: the model's kernel)
    --inverse-c C          width c of the gaussian inverse kernel (0: the model's c)
    --no-centre            regress X itself, as scikit-learn does, not X - mean(X)

A de-noising batch uses the coordinates on the q components runexp asks
for. A pre-image batch has no q: the coordinates of Psi = sum_n Gamma[m,n]
phi(x_n) are taken on every component with a positive eigenvalue.
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import runexp_estimator as rx  # noqa: E402


def kpca(K):
    """Column means, grand mean and the scaled eigenvectors alpha of the centred K.

    Like runexp's FitKPCA: eigenvalues of the centred Gram matrix in
    decreasing order, those below N*1e-12*max dropped, alpha_i = u_i/sqrt(lambda_i).
    """
    n = K.shape[0]
    col = K.mean(axis=0)
    tot = col.mean()
    kc = K - col[None, :] - col[:, None] + tot
    w, u = np.linalg.eigh(kc)
    w, u = w[::-1], u[:, ::-1]
    keep = w > n * 1e-12 * max(w[0], 0)
    return col, tot, u[:, keep] / np.sqrt(w[keep])


def coordinates(rows, col, tot, alpha):
    """Coordinates on the components of points given by <point, phi(x_n)> rows."""
    rc = rows - rows.mean(axis=1, keepdims=True) - col[None, :] + tot
    return rc @ alpha


def estimate(p):
    ap = argparse.ArgumentParser(prog="learned_preimage.py")
    ap.add_argument("--alpha", type=float, default=1e-3)
    ap.add_argument("--inverse-kernel", choices=["same", "gaussian", "linear"], default="same")
    ap.add_argument("--inverse-c", type=float, default=0.0)
    ap.add_argument("--no-centre", action="store_true")
    opt = ap.parse_args(p.options)

    if p.K is None:
        raise rx.Unsupported("the learned map needs a model (training inputs and their Gram matrix)")
    col, tot, alpha = kpca(p.K)
    if p.capability == "de-noise":
        alpha = alpha[:, : p.q]
        test = coordinates(p.Kx, col, tot, alpha)
    else:
        test = coordinates(p.Gamma @ p.K, col, tot, alpha)
    train = coordinates(p.K, col, tot, alpha)

    if opt.inverse_kernel == "same":
        kinv = p.kernel
    elif opt.inverse_kernel == "linear":
        kinv = {"name": "linear"}
    else:
        c = opt.inverse_c or (p.kernel or {}).get("c")
        if not c:
            raise ValueError("--inverse-c is needed when the model kernel is not Gaussian")
        kinv = {"name": "gaussian", "c": c}

    target = p.X
    mean = p.X.mean(axis=0) if not opt.no_centre else np.zeros(p.d)
    kp = rx.gram(kinv, train, train) + opt.alpha * np.eye(p.n)
    coef = np.linalg.solve(kp, target - mean)
    return rx.gram(kinv, test, train) @ coef + mean


if __name__ == "__main__":
    rx.main(estimate)
