"""scikit-learn's KernelPCA.inverse_transform as an external estimator.

De-noises with KernelPCA(n_components=q, kernel=..., gamma=1/c,
alpha=ALPHA, fit_inverse_transform=True) fitted on the training inputs:
inverse_transform(transform(X0)). Under the correspondence documented in
internal/methods/learned.go it equals runexp's `learned` with
centre: false and the same alpha. Needs scikit-learn (Debian:
python3-sklearn) besides NumPy.

    --alpha A    the ridge alpha (default 1e-3)
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import runexp_estimator as rx  # noqa: E402
from sklearn.decomposition import KernelPCA  # noqa: E402


def estimate(p):
    ap = argparse.ArgumentParser(prog="sklearn_kpca.py")
    ap.add_argument("--alpha", type=float, default=1e-3)
    opt = ap.parse_args(p.options)
    if p.capability != "de-noise" or p.X is None:
        raise rx.Unsupported("KernelPCA.inverse_transform de-noises with a model")
    k = p.kernel["name"]
    if k == "gaussian":
        # gamma explicitly: scikit-learn 1.2 would otherwise take 1/n_features
        # of each kernel's own arguments (1/D forward, 1/q inverse).
        kw = dict(kernel="rbf", gamma=p.kernel["gamma"])
    elif k == "linear":
        kw = dict(kernel="linear")
    else:
        raise rx.Unsupported("kernel %s" % k)
    kpca = KernelPCA(n_components=p.q, alpha=opt.alpha, fit_inverse_transform=True,
                     eigen_solver="dense", **kw)
    kpca.fit(p.X)
    return kpca.inverse_transform(kpca.transform(p.X0))


if __name__ == "__main__":
    rx.main(estimate)
