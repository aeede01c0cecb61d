"""Kwok & Tsang (2004)'s distance-constraint pre-image, eq. 16, for the
Gaussian kernel: for each feature-space point Psi = sum_n gamma_n phi(x_n)
take the n training images nearest in feature space,
f_i = ||Psi - phi(x_i)||^2 = gamma^T K gamma - 2 (K gamma)_i + 1, map them to
input-space distances d_i^2 = -c log(1 - f_i / 2) (dropping neighbours with
f_i >= 2, which no input distance matches), centre the neighbours at their
mean, H = [x_1 - xbar, ..., x_n - xbar] = U S V^T, Z = S V^T, d0_i^2 = ||z_i||^2,
and solve z = -1/2 S^-1 V^T (d^2 - d0^2); the pre-image is U z + xbar (only
singular values above max(n, D) eps s_max enter S^-1)."""
import numpy as np


def preimage(x, k, gamma, c, neighbors):
    gk = gamma @ k
    norm2 = (gamma * gk).sum(1)
    f = norm2[:, None] - 2.0 * gk + 1.0
    n, d = x.shape
    nb = min(neighbors, n)
    out = np.full((gamma.shape[0], d), np.nan)
    for m in range(gamma.shape[0]):
        idx = np.argsort(f[m], kind="stable")[:nb]
        idx = idx[f[m, idx] < 2.0]
        if idx.size == 0:
            continue
        if idx.size == 1:
            out[m] = x[idx[0]]
            continue
        d2 = -c * np.log(1.0 - f[m, idx] / 2.0)
        xs = x[idx]
        xbar = xs.mean(0)
        u, s, vt = np.linalg.svd((xs - xbar).T, full_matrices=False)
        keep = s > max(idx.size, d) * np.finfo(float).eps * s[0]
        u, s, vt = u[:, keep], s[keep], vt[keep]
        zn = s[:, None] * vt
        d0 = (zn * zn).sum(0)
        z = -0.5 * (vt @ (d2 - d0)) / s
        out[m] = u @ z + xbar
    return out
