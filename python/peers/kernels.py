"""Shared pieces of the NumPy peers: the Gaussian kernel and kernel PCA's
projection coefficients, written from the papers' formulas."""
import numpy as np


def sqdist(a, b):
    """Squared Euclidean distances between the rows of a and of b."""
    d = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2.0 * a @ b.T
    return np.maximum(d, 0.0)


def gauss(a, b, c):
    """k(x, y) = exp(-||x - y||^2 / c) (Abrahamsen & Hansen, eq. 13's kernel)."""
    return np.exp(-sqdist(a, b) / c)


def projection(kx, k_colmean, k_mean, alpha_q):
    """Expansion coefficients gamma of P phi(x) = sum_n gamma_n phi(x_n) for
    kernel rows kx = k(x, X) (M x N): the centred rows
    k~ = kx - rowmean(kx) - colmean(K) + mean(K), beta = k~ alpha_q, and
    gamma = beta alpha_q^T + (1 - sum gamma~)/N, the mean term of
    Abrahamsen & Hansen eq. 10 (alpha_q scaled so lambda ||alpha||^2 = 1)."""
    kc = kx - kx.mean(1)[:, None] - k_colmean[None, :] + k_mean
    g = (kc @ alpha_q) @ alpha_q.T
    n = kx.shape[1]
    return g + ((1.0 - g.sum(1)) / n)[:, None]


def fixed_point(z, step, max_iter, tol):
    """Iterates every row of z as one batch until it converges, fails or
    reaches max_iter: step(active) returns the next iterates of the active
    rows and which of them are valid (a vanishing denominator keeps the row's
    iterate and ends it); a row converges when
    ||z_{t+1} - z_t||^2 <= tol^2 max(1, ||z_t||^2)."""
    active = np.arange(z.shape[0])
    tol2 = tol * tol
    for _ in range(max_iter):
        if active.size == 0:
            break
        za = z[active]
        nxt, ok = step(active)
        step2 = ((nxt - za) ** 2).sum(1)
        scale = np.maximum(1.0, (za * za).sum(1))
        z[active[ok]] = nxt[ok]
        active = active[~(~ok | (step2 <= tol2 * scale))]
    return z
