// Command peerbench times runexp against what a researcher would use
// instead, side by side on the same data and parameters (make
// bench-peers): scikit-learn's KernelPCA, its fit and its learned
// pre-image (fit_inverse_transform=True), SciPy's eigh with a subset for
// LPKPCA's eigenproblem, and NumPy implementations of Mika et al.'s fixed
// point, Kwok & Tsang's distance-constraint pre-image, Nguyen & De la
// Torre's RKPCA fixed point and Algorithm 1 (imputation, on Oil Flow) and
// Abrahamsen & Hansen's Lasso pre-image by GPS (python/peers, written from
// the papers). It draws USPS digits, runs each task in runexp, writes the
// inputs for the peers (raw float64 files and a JSON manifest), runs
// python/peers/bench.py on them, and prints a table: the CPU and wall
// seconds of each side (the best of its repeats), their ratio, and the
// agreement of the outputs. It exits 1 when an output disagrees beyond
// its row's tolerance.
//
// Usage: peerbench [-repeats N] [-python PY] [-keep DIR]
//
// RUNEXP_DATA is the data root; RUNEXP_PYTHON (or -python) the
// interpreter with NumPy and scikit-learn (Debian's python3-numpy and
// python3-sklearn).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
)

func main() {
	repeats := flag.Int("repeats", 3, "times each task runs on each side; the best is kept")
	py := flag.String("python", os.Getenv("RUNEXP_PYTHON"), "the Python interpreter (default python3)")
	keep := flag.String("keep", "", "write the inputs and outputs to `DIR` and keep them")
	flag.Parse()
	if *py == "" {
		*py = "python3"
	}
	dir := *keep
	if dir == "" {
		d, err := os.MkdirTemp("", "peerbench")
		if err != nil {
			fail(err)
		}
		defer os.RemoveAll(d)
		dir = d
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		fail(err)
	}
	rows, env, err := run(dir, *py, *repeats)
	if err != nil {
		fail(err)
	}
	bad := printTable(os.Stdout, rows, env)
	if bad > 0 {
		fmt.Fprintf(os.Stderr, "peerbench: %d outputs disagree beyond their tolerance (inputs and outputs in %s with -keep)\n", bad, filepath.Clean(dir))
		os.Exit(1)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "peerbench:", err)
	os.Exit(2)
}
