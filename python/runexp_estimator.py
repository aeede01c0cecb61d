"""Read and write runexp's external estimator protocol (version 1).

runexp runs an external estimator once per batch as

    COMMAND... DIR

where DIR (also in the environment as RUNEXP_ESTIMATOR_DIR) holds
manifest.json and the problem as float64 .npy files. The estimator writes
the M×D result to DIR/Z.npy and, optionally, DIR/status.json. The protocol
is documented in docs/external-estimators.md; this module makes an
estimator one function:

    import runexp_estimator as rx

    def estimate(p):          # p is a Problem
        return p.X0           # an M×D array (or (Z, rows), see write)

    rx.main(estimate)

NumPy is the only dependency.
"""

import json
import os
import sys

import numpy as np

PROTOCOL = 1

# Exit statuses of main: any non-zero status fails the batch in runexp,
# which quotes the tail of standard error.
EXIT_ERROR = 1        # the estimator raised
EXIT_USAGE = 2        # no directory, unreadable manifest, other protocol
EXIT_UNSUPPORTED = 3  # the estimator declines the batch (rx.Unsupported)


class Unsupported(Exception):
    """Raise it for a batch the estimator was not built for: a capability,
    a kernel, a problem without X0. runexp's conformance kit counts exit
    status 3 as declining; any other failure is a crash."""


class Params(dict):
    """The estimator's own parameters (the manifest's "params"), recording
    each one the estimator reads with the value it got: p.params.get("k", 5)
    records k = 5 when runexp gave no k. write() reports them to runexp in
    params.json, and runexp shows them as the parameters that ran (its
    pages, tables and manifest.json), so a script's defaults are never
    unnamed. Defaults declared with main(estimate, defaults={...}) are
    reported whether or not the estimator reads them."""

    def __init__(self, given=(), defaults=None):
        super().__init__(defaults or {})
        self.update(given)
        self.used = {k: self[k] for k in (defaults or {})}

    def __getitem__(self, key):
        value = super().__getitem__(key)
        self.used[key] = value
        return value

    def get(self, key, default=None):
        value = super().get(key, default)
        self.used[key] = value
        return value

    def setdefault(self, key, default=None):
        value = super().setdefault(key, default)
        self.used[key] = value
        return value


class Problem:
    """One batch, as runexp wrote it.

    Attributes: capability ("pre-image" or "de-noise"), kernel (a dict:
    name "gaussian" with c and gamma, k = exp(-|x-y|^2/c); "linear";
    "polynomial" with degree and offset; or another description, None
    without a model), seed (an int or None), q (components of a de-noising
    batch, or None), m, n, d (batch size, training inputs, dimension),
    params (a dict, Params: the estimator's own parameters, the external
    estimator's params parameter, a JSON object, over the defaults given to
    main; every one read is reported back to runexp as a parameter that ran),
    options (the command's arguments before DIR), manifest (the raw dict),
    and one NumPy array or None per input: X (N×D training inputs), K (N×N
    Gram matrix), Gamma (M×N: the points Psi_m = sum_n Gamma[m,n] phi(x_n)
    whose pre-images are sought; in a de-noising batch the projection of X0
    on q components), X0 (M×D observed inputs), Start (M×D starting
    points), Kx (M×N: k(X0[m], X[n]), de-noising only), Mask (M×D, 1 where
    X0 is observed).
    """

    NAMES = ("X", "K", "Gamma", "X0", "Start", "Kx", "Mask")

    def __init__(self, directory, options=(), defaults=None):
        self.directory = directory
        self.options = list(options)
        with open(os.path.join(directory, "manifest.json")) as f:
            self.manifest = json.load(f)
        man = self.manifest
        if man.get("protocol") != PROTOCOL:
            raise ValueError("manifest protocol %r, this helper reads %d" % (man.get("protocol"), PROTOCOL))
        self.capability = man["capability"]
        self.kernel = man["kernel"]
        self.seed = man["seed"]
        self.q = man["q"]
        self.m, self.n, self.d = man["m"], man["n"], man["d"]
        self.params = Params(man.get("params") or {}, defaults)
        for name in self.NAMES:
            setattr(self, name, None)
        for name, spec in man["inputs"].items():
            a = np.load(os.path.join(directory, spec["file"]), allow_pickle=False)
            if list(a.shape) != spec["shape"]:
                raise ValueError("%s has shape %s, manifest says %s" % (spec["file"], a.shape, spec["shape"]))
            setattr(self, name, a)

    def rng(self):
        """A NumPy generator seeded from the cell's seed (fresh entropy without one)."""
        return np.random.default_rng(self.seed)

    def gram(self, a, b):
        """The model's kernel between the rows of a and of b."""
        return gram(self.kernel, a, b)


def gram(kernel, a, b):
    """k(a_i, b_j) for a kernel dict of the manifest (gaussian, linear, polynomial)."""
    a = np.atleast_2d(np.asarray(a, dtype=np.float64))
    b = np.atleast_2d(np.asarray(b, dtype=np.float64))
    name = kernel["name"] if kernel else None
    if name == "linear":
        return a @ b.T
    if name == "polynomial":
        return (a @ b.T + kernel["offset"]) ** kernel["degree"]
    if name == "gaussian":
        d2 = (a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * (a @ b.T)
        return np.exp(-np.maximum(d2, 0) / kernel["c"])
    raise ValueError("no closed form for kernel %r; use the Gram matrices K and Kx" % (kernel,))


def write(problem, result):
    """Write Z.npy (and status.json) for problem.

    result is an M×D array, or a pair (Z, rows) where rows has one entry per
    row: None (the row went well), a string (the row failed for that
    reason) or a dict with any of error, iterations, converged, diag.
    """
    rows = None
    if isinstance(result, tuple):
        result, rows = result
    z = np.ascontiguousarray(result, dtype=np.float64)
    if z.shape != (problem.m, problem.d):
        raise ValueError("result has shape %s, want (%d, %d)" % (z.shape, problem.m, problem.d))
    out = os.path.join(problem.directory, problem.manifest["output"])
    np.save(out + ".tmp.npy", z, allow_pickle=False)
    os.replace(out + ".tmp.npy", out)
    report = problem.manifest.get("params_out")
    if report and isinstance(problem.params, Params) and problem.params.used:
        with open(os.path.join(problem.directory, report), "w") as f:
            json.dump(problem.params.used, f, allow_nan=False, default=str)
    modules = problem.manifest.get("modules_out")
    if modules:
        with open(os.path.join(problem.directory, modules), "w") as f:
            json.dump(loaded_files(), f)
    if rows is not None:
        if len(rows) != problem.m:
            raise ValueError("%d status rows for %d results" % (len(rows), problem.m))
        rows = [{"error": r} if isinstance(r, str) else r for r in rows]
        with open(os.path.join(problem.directory, problem.manifest["status"]), "w") as f:
            json.dump(rows, f, allow_nan=False)


def loaded_files():
    """The files of the modules this process has loaded (sys.modules, the
    estimator's own script among them), links resolved, but those of the
    interpreter's standard library: runexp keys the batch's cell by their
    contents, so that an edit of any of them, however it was imported,
    computes the cell again. Installed packages (NumPy) count: they are
    what ran too."""
    import sysconfig

    paths = sysconfig.get_paths()
    stdlib = {os.path.realpath(paths[k]) for k in ("stdlib", "platstdlib") if paths.get(k)}
    installed = {os.path.realpath(paths[k]) for k in ("purelib", "platlib") if paths.get(k)}

    def under(f, dirs):
        return any(f == d or f.startswith(d + os.sep) for d in dirs)

    files = set()
    for m in list(sys.modules.values()):
        f = getattr(m, "__file__", None)
        if not isinstance(f, str) or not f:
            continue
        f = os.path.realpath(f)
        parts = f.split(os.sep)
        if under(f, stdlib) and not under(f, installed) and "site-packages" not in parts and "dist-packages" not in parts:
            continue
        if os.path.isfile(f):
            files.add(f)
    return sorted(files)


def main(estimate, argv=None, defaults=None):
    """Run estimate on the batch in the directory given as the last argument.

    defaults, a dict, are the estimator's parameters with their default
    values: p.params holds them where runexp gave none, and they are
    reported back as parameters that ran."""
    argv = sys.argv[1:] if argv is None else list(argv)
    directory = argv[-1] if argv else os.environ.get("RUNEXP_ESTIMATOR_DIR")
    if not directory:
        print("usage: %s [OPTIONS...] DIR" % sys.argv[0], file=sys.stderr)
        sys.exit(EXIT_USAGE)
    try:
        problem = Problem(directory, argv[:-1], defaults)
    except (OSError, ValueError, KeyError) as e:
        print("runexp_estimator: reading %s: %s" % (directory, e), file=sys.stderr)
        sys.exit(EXIT_USAGE)
    try:
        result = estimate(problem)
    except Unsupported as e:
        print("runexp_estimator: %s is not supported: %s" % (problem.capability, e), file=sys.stderr)
        sys.exit(EXIT_UNSUPPORTED)
    write(problem, result)
