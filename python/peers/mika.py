"""Mika et al.'s fixed-point pre-image for the Gaussian kernel, as written by
Abrahamsen & Hansen (2011), eq. 13:

    z_{t+1} = sum_n gamma_n k(z_t, x_n) x_n / sum_n gamma_n k(z_t, x_n),

started from the noisy input, every row iterated as one batch. A row stops
when ||z_{t+1} - z_t||^2 <= tol^2 max(1, ||z_t||^2) or after max_iter steps;
the common factor exp(-min_n ||z - x_n||^2 / c) is divided out of numerator
and denominator (it cancels) so that far iterates do not underflow, and a
row whose denominator vanishes (|sum| <= eps sum |.|) keeps its iterate."""
import numpy as np

from kernels import fixed_point, sqdist


def preimage(x, gamma, x0, c, max_iter, tol, eps):
    z = x0.copy()

    def step(active):
        za, ga = z[active], gamma[active]
        d2 = sqdist(za, x)
        dmin = np.where(ga != 0, d2, np.inf).min(1)
        w = ga * np.exp(-(d2 - dmin[:, None]) / c)
        den = w.sum(1)
        ok = np.abs(den) > eps * np.abs(w).sum(1)
        return (w @ x) / np.where(ok, den, 1.0)[:, None], ok

    return fixed_point(z, step, max_iter, tol)
