"""Abrahamsen & Hansen (2011)'s sparse pre-image, eqs. 21-24, traced by
Friedman's generalized path seeking (GPS) from z = 0, written from the
papers with every gradient component evaluated at every step (what runexp's
lazy evaluation is certified to reproduce, internal/methods/lasso.go):

    w_n = gamma_n k(z, x_n),  lambda_j = sum_n w_n (x_jn - z_j)  (eq. 23 up to 4/c),
    S = {j : lambda_j z_j < 0},  j* = argmax_{j in S} |lambda_j| (S empty: over all j),
    z_j* <- z_j* + Delta sign(lambda_j*),  Delta = step_factor max|X|,

ties to the lower index, with lambda_j read as 0 within its rounding error
2(N+1)eps(max_n|x_jn| + |z_j|) sum_n |w_n| for S. A path stops before a step
when max_j |lambda_j| <= N eps sum_n|w_n| (max|X| + max_j|z_j|) (a stationary
point), when over the last `window` steps the best sum_n gamma_n k(z, x_n)
(the smallest cost R) improved by at most tol times its improvement since
z = 0, or after max_steps steps. The weights are recomputed from the
distances at every step, with the factor exp(-min_n ||z - x_n||^2 / c) kept
apart so that they do not underflow. Rows run one after another."""
import numpy as np

EPS = 2.0 ** -52


def row(x, xt, gam, c, delta, tol, window, max_steps):
    n, d = x.shape
    xabs = np.abs(x).max(0)
    xmax = xabs.max()
    cnt = np.zeros(d, np.int64)
    nz = gam != 0
    best = []  # (m, e): the best sum gamma k so far, as m * exp(e)

    def on(a, top):
        return 0.0 if a[0] == 0 else a[0] * np.exp(a[1] - top)

    g0 = None
    for t in range(max_steps + 1):
        z = cnt * delta
        d2 = ((x - z) ** 2).sum(1)
        dmin = d2[nz].min() if nz.any() else 0.0
        w = np.where(nz, gam * np.exp(-(d2 - dmin) / c), 0.0)
        cur = (w.sum(), -dmin / c)
        if g0 is None:
            g0 = cur
        if best:
            prev = best[-1]
            top = max(cur[1], prev[1])
            if on(prev, top) > on(cur, top):
                cur = prev
        best.append(cur)
        absw = np.abs(w).sum()
        lam = xt @ w - z * w.sum()
        m = np.abs(lam).max()
        if m <= n * EPS * absw * (xmax + np.abs(z).max()):
            return z, t
        if t >= window:
            then = best[t - window]
            top = max(cur[1], then[1], g0[1])
            now = on(cur, top)
            if now - on(then, top) <= tol * (now - on(g0, top)):
                return z, t
        if t >= max_steps:
            return z, t
        rho = 2 * (n + 1) * EPS * (xabs + np.abs(z)) * absw
        ins = lam * np.sign(cnt) < -rho
        if ins.any():
            j = int(np.flatnonzero(ins)[np.abs(lam[ins]).argmax()])
        else:
            j = int(np.abs(lam).argmax())
        cnt[j] += 1 if lam[j] > 0 else -1
    return cnt * delta, max_steps


def preimage(x, gamma, c, step_factor, tol, window, max_steps):
    delta = step_factor * np.abs(x).max()
    xt = np.ascontiguousarray(x.T)
    return np.vstack([row(x, xt, g, c, delta, tol, window, max_steps)[0] for g in gamma])
