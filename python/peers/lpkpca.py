"""LPKPCA's eigenproblem (Zheng et al., eqs. 13-17), as runexp solves it
(internal/methods/lpkpca.go): with the kernel PCA components P = V Lambda^(1/2)
(N x r) and the Laplacian L = D - W of the symmetrised kNN graph,
M = Lambda - lambda P^T L P (r x r), and the d leading eigenpairs of M by
SciPy's eigh with subset_by_index (LAPACK dsyevr). Each direction's sign
makes its largest-magnitude coordinate positive, as FitLPKPCA does. The
output is the d eigenvalues (first row) above the r x d directions B."""
import numpy as np
import scipy.linalg


def solve(p, vals, adj, lam, d):
    n, r = p.shape
    deg = (adj >= 0).sum(1).astype(float)
    lp = deg[:, None] * p
    for j in range(adj.shape[1]):
        nb = adj[:, j]
        ok = nb >= 0
        lp[ok] -= p[nb[ok].astype(int)]
    m = np.diag(vals) - lam * (p.T @ lp)
    w, v = scipy.linalg.eigh(m, subset_by_index=[r - d, r - 1])
    w, v = w[::-1], v[:, ::-1]
    idx = np.abs(v).argmax(0)
    v = v * np.sign(v[idx, np.arange(d)])
    return np.vstack([w[None, :], v])
