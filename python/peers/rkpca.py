"""Nguyen & De la Torre (2008)'s robust KPCA reconstruction with the l2
closeness term (section 3.2, no missing entries): z minimises
E0(x, z) + C ||phi(z) - P phi(z)||^2 with E0 = -exp(-gamma2 ||x - z||^2), the
fixed point of eq. 6 for a Gaussian kernel exp(-gamma ||x - y||^2),
gamma = 1/c, derived for the centred model (internal/methods/rkpca.go):

    w_n = Gamma_n(z) k(z, x_n),  a = gamma2 e / (2 C gamma),  e = exp(-gamma2 ||x - z||^2),
    z_j <- (a x_j + sum_n w_n x_nj) / (a + sum_n w_n),

where Gamma(z) are the projection coefficients of phi(z) on the q kept
components. Started from x, all rows as one batch; a row stops when
||z_{t+1} - z_t||^2 <= tol^2 max(1, ||z_t||^2), after max_iter steps, or when
a denominator vanishes (|a + sum w| <= eps (a + sum |w|))."""
import numpy as np

from kernels import fixed_point, gauss, projection


def denoise(x, k_colmean, k_mean, alpha_q, x0, c, gamma2, C, max_iter, tol, eps):
    gamma = 1.0 / c
    z = x0.copy()

    def step(active):
        za, xa = z[active], x0[active]
        kz = gauss(za, x, c)
        w = projection(kz, k_colmean, k_mean, alpha_q) * kz
        s, sabs = w.sum(1), np.abs(w).sum(1)
        e = np.exp(-gamma2 * ((za - xa) ** 2).sum(1))
        a = gamma2 * e / (2.0 * C * gamma)
        den = a + s
        ok = np.abs(den) > eps * (a + sabs)
        return (a[:, None] * xa + w @ x) / np.where(ok, den, 1.0)[:, None], ok

    return fixed_point(z, step, max_iter, tol)
