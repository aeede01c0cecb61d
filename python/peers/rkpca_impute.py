"""Nguyen & De la Torre (2008)'s Algorithm 1 ("RKPCA for missing attribute
values in training data", section 3.4), as runexp reads it
(internal/methods/rkpca_impute.go): the missing entries start at the
observed column means; for each outer iteration the points are divided into
k partitions by the permutation cmd/peerbench drew (runexp's random
stream); for each partition, kernel PCA on the other points (Gaussian
kernel exp(-gamma ||x - y||^2), the fewest components holding the fraction
`energy` of the positive eigenvalues' sum) and the masked RKPCA fixed point
of eq. 6 (l2 E0 with W the mask, started from the current estimates) on the
partition's points with missing entries; the missing entries are updated
together at the end of the outer iteration. A fit whose denominator
vanishes (|a + sum w| <= eps (a + sum |w|)) or whose iterate is not finite
keeps the point's previous estimates; a fit stops when
||z_{t+1} - z_t||^2 <= tol^2 max(1, ||z_t||^2) or after max_iter steps."""
import numpy as np

from kernels import gauss, projection


def kpca(xt, gamma, energy):
    """alpha_q (n x q), the column means and the mean of the Gram matrix."""
    n = xt.shape[0]
    k = gauss(xt, xt, 1.0 / gamma)
    cm = k.mean(0)
    km = cm.mean()
    kc = k - cm[:, None] - cm[None, :] + km
    w, v = np.linalg.eigh(kc)
    w, v = w[::-1], v[:, ::-1]
    tol = n * 1e-12 * max(w[0], 0.0)
    pos = w > tol
    w, v = w[pos], v[:, pos]
    total = w.sum()
    q = int(np.argmax(np.cumsum(w) >= energy * total * (1 - 1e-12))) + 1
    return v[:, :q] / np.sqrt(w[:q]), cm, km


def fit(xt, alpha_q, cm, km, x, obs, gamma, gamma2, C, max_iter, tol, eps):
    """The masked RKPCA fixed point for the rows of x; returns the final
    iterates and which rows failed."""
    c = 1.0 / gamma
    z = x.copy()
    failed = np.zeros(len(x), bool)
    active = np.arange(len(x))
    tol2 = tol * tol
    for _ in range(max_iter):
        if active.size == 0:
            break
        za, xa, oa = z[active], x[active], obs[active]
        kz = gauss(za, xt, c)
        w = projection(kz, cm, km, alpha_q) * kz
        s, sabs = w.sum(1), np.abs(w).sum(1)
        e2 = (((za - xa) ** 2) * oa).sum(1)
        a = (gamma2 * np.exp(-gamma2 * e2) / (2.0 * C * gamma))[:, None] * oa
        den = a + s[:, None]
        ok = (np.abs(den) > eps * (a + sabs[:, None])).all(1)
        nxt = (a * xa + w @ xt) / np.where(den == 0, 1.0, den)
        ok &= np.isfinite(nxt).all(1)
        step2 = ((nxt - za) ** 2).sum(1)
        scale = np.maximum(1.0, (za * za).sum(1))
        failed[active[~ok]] = True
        z[active[ok]] = nxt[ok]
        done = ~ok | (step2 <= tol2 * scale)
        active = active[~done]
    return z, failed


def impute(x0, mask, perms, gamma, gamma2, C, energy, partitions, max_iter, tol, eps):
    n, d = x0.shape
    obs = mask != 0
    mu = np.array([x0[obs[:, j], j].mean() for j in range(d)])
    cur = np.where(obs, x0, mu[None, :])
    missing = ~obs.all(1)
    for perm in perms:
        dst = cur.copy()
        for p in range(partitions):
            part = perm[p * n // partitions:(p + 1) * n // partitions]
            inpart = np.zeros(n, bool)
            inpart[part] = True
            rows = np.array([i for i in part if missing[i]], int)
            if rows.size == 0:
                continue
            xt = cur[~inpart]
            alpha_q, cm, km = kpca(xt, gamma, energy)
            z, failed = fit(xt, alpha_q, cm, km, cur[rows], obs[rows].astype(float), gamma, gamma2, C, max_iter, tol, eps)
            for a, i in enumerate(rows):
                if not failed[a]:
                    dst[i, ~obs[i]] = z[a, ~obs[i]]
        cur = dst
    return cur
