"""The peers' side of runexp's peer benchmark (cmd/peerbench, make
bench-peers): reads the inputs cmd/peerbench wrote into DIR, times each
peer on them (CPU seconds of every thread, time.process_time, and wall
seconds; the best of the repeats), and writes each output as
out_<task>.f64 and the timings as timings.json. NumPy, SciPy and
scikit-learn from Debian (python3-numpy, python3-scipy, python3-sklearn).

Usage: python3 python/peers/bench.py DIR"""
import json
import os
import sys
import time

import numpy as np
from sklearn.decomposition import KernelPCA

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import kernels  # noqa: E402
import gps  # noqa: E402
import kwoktsang  # noqa: E402
import lpkpca  # noqa: E402
import rkpca_impute  # noqa: E402
import mika  # noqa: E402
import rkpca  # noqa: E402


def load(d, name, rows, cols):
    return np.fromfile(os.path.join(d, name + ".f64"), dtype="<f8").reshape(rows, cols)


def timed(repeats, f):
    best_cpu, best_wall, out = np.inf, np.inf, None
    for _ in range(repeats):
        c0, t0 = time.process_time(), time.perf_counter()
        out = f()
        best_cpu = min(best_cpu, time.process_time() - c0)
        best_wall = min(best_wall, time.perf_counter() - t0)
    return {"cpu": best_cpu, "wall": best_wall}, out


def fit_output(kp, x0):
    """The eigenvalues and the test coordinates, each component's sign making
    its largest coordinate positive (as cmd/peerbench's fitOutput)."""
    beta = kp.transform(x0)
    idx = np.abs(beta).argmax(0)
    beta = beta * np.sign(beta[idx, np.arange(beta.shape[1])])
    return np.vstack([kp.eigenvalues_[None, :], beta])


def main():
    d = sys.argv[1]
    man = json.load(open(os.path.join(d, "manifest.json")))
    n, m, dim, q, c = man["n"], man["m"], man["d"], man["q"], man["c"]
    x, x0 = load(d, "x", n, dim), load(d, "x0", m, dim)
    gamma, alpha_q = load(d, "gamma", m, n), load(d, "alpha_q", n, q)
    r = man["repeats"]
    k = kernels.gauss(x, x, c)
    mk, kt, rk, lp = man["mika"], man["kwok_tsang"], man["rkpca"], man["lpkpca"]
    lp_p, lp_vals = load(d, "lp_p", n, lp["r"]), load(d, "lp_vals", 1, lp["r"])[0]
    lp_adj = load(d, "lp_adj", n, lp["kmax"])
    gp = man["gps"]
    gps_x, gps_gamma = load(d, "gps_x", gp["n"], dim), load(d, "gps_gamma", gp["rows"], gp["n"])
    im = man["rkpca_impute"]
    im_x, im_mask = load(d, "im_x", im["n"], im["d"]), load(d, "im_mask", im["n"], im["d"])
    im_perms = load(d, "im_perms", im["iterations"], im["n"]).astype(int)
    tasks = {
        "kpca-fit": lambda: KernelPCA(n_components=q, kernel="rbf", gamma=1.0 / c, eigen_solver="dense").fit(x),
        "kpca-learned": lambda: KernelPCA(n_components=q, kernel="rbf", gamma=1.0 / c, eigen_solver="dense",
                                          fit_inverse_transform=True, alpha=man["alpha"]).fit(x).inverse_transform,
        "mika": lambda: mika.preimage(x, gamma, x0, c, mk["max_iter"], mk["tol"], mk["eps"]),
        "kwok-tsang": lambda: kwoktsang.preimage(x, k, gamma, c, kt["neighbors"]),
        "rkpca": lambda: rkpca.denoise(x, k.mean(0), k.mean(), alpha_q, x0, c, rk["gamma2"], rk["C"],
                                       rk["max_iter"], rk["tol"], rk["eps"]),
        "lpkpca": lambda: lpkpca.solve(lp_p, lp_vals, lp_adj, lp["lambda"], lp["d"]),
        "lasso-gps": lambda: gps.preimage(gps_x, gps_gamma, gp["c"], gp["step_factor"], gp["tol"], gp["window"], gp["max_steps"]),
        "rkpca-impute": lambda: rkpca_impute.impute(im_x, im_mask, im_perms, im["gamma"], im["gamma"], im["C"], im["energy"],
                                                    im["partitions"], im["max_iter"], im["tol"], im["eps"]),
    }
    times = {}
    for name in man["tasks"]:
        f = tasks[name]
        if name == "kpca-learned":
            def f(kp=None):
                kp = KernelPCA(n_components=q, kernel="rbf", gamma=1.0 / c, eigen_solver="dense",
                               fit_inverse_transform=True, alpha=man["alpha"]).fit(x)
                return kp.inverse_transform(kp.transform(x0))
        times[name], out = timed(r, f)
        if name == "kpca-fit":
            out = fit_output(out, x0)
        np.ascontiguousarray(out, dtype="<f8").tofile(os.path.join(d, "out_" + name + ".f64"))
        print("peer %-13s cpu %.3f s wall %.3f s" % (name, times[name]["cpu"], times[name]["wall"]), file=sys.stderr)
    json.dump({"env": env(), "tasks": times}, open(os.path.join(d, "timings.json"), "w"), indent=1)


def env():
    """The peers' versions and the BLAS NumPy calls (Debian's alternative)."""
    import scipy
    import sklearn
    blas = "libblas.so.3"
    lib = "/usr/lib/x86_64-linux-gnu/libblas.so.3"
    if os.path.exists(lib):
        blas = os.path.realpath(lib)
    return "NumPy %s, SciPy %s, scikit-learn %s, BLAS %s" % (np.__version__, scipy.__version__, sklearn.__version__, blas)


if __name__ == "__main__":
    main()
