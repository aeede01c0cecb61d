package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/experiments/setup"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

// paramFlags collects repeated --param name=value flags.
type paramFlags map[string]any

func (p paramFlags) String() string { return config.CanonicalKey(p) }

func (p paramFlags) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("want name=value, got %q", s)
	}
	p[k] = parseScalar(v)
	return nil
}

// parseScalar reads a flag value as YAML would: integer, number, boolean,
// else string.
func parseScalar(v string) any {
	if i, err := strconv.Atoi(v); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		return f
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return v
}

// DenoiseOptions is what `runexp denoise` does, as a library call would.
type DenoiseOptions struct {
	Kernel config.ModelPoint
	Method string
	Params map[string]any
	// Components or Energy (exactly one) is the subspace size, by the
	// experiment kinds' component rule (package setup).
	Components int
	Energy     float64
	Seed       uint64
}

// Denoise fits kernel PCA on train and applies the estimator to input
// through the path the denoise kind takes (setup.Denoiser): the same fit,
// the same component rule, the estimator built through its declared
// capability after checking it takes the kernel.
func Denoise(train, input *mat.Dense, o DenoiseOptions) (*mat.Dense, []methods.Status, error) {
	if (o.Components > 0) == (o.Energy > 0) {
		return nil, nil, fmt.Errorf("give exactly one of --components and --energy")
	}
	k, err := runner.KernelFor(o.Kernel)
	if err != nil {
		return nil, nil, err
	}
	if k == nil {
		return nil, nil, fmt.Errorf("--kernel is required")
	}
	bm, err := setup.Method(o.Method, o.Params)
	if err != nil {
		return nil, nil, err
	}
	if _, d := input.Dims(); d != train.RawMatrix().Cols {
		return nil, nil, fmt.Errorf("input has %d columns, training data %d", d, train.RawMatrix().Cols)
	}
	mp := o.Kernel
	mp.Components, mp.Energy = o.Components, o.Energy
	cell := &runner.Cell{Model: mp, Kernel: k, Method: bm}
	m, q, den, err := setup.Denoiser(nil, "train", train, cell)
	if err != nil {
		return nil, nil, err
	}
	var out mat.Dense
	st, err := den.Denoise(&out, &methods.DenoiseInput{Model: m, Q: q, X0: input, Rand: runner.NewRand(o.Seed, "denoise")})
	if err != nil {
		return nil, nil, err
	}
	return &out, st, nil
}

const denoiseDoc = `Fits kernel PCA on the training rows and maps every input row back to input
space with the estimator, exactly as the denoise experiment kind does.

Subspace size (the experiment kinds' one component rule): give exactly one of
  --components q   keep q principal components, 1 ≤ q ≤ the numerical rank
                   of the centred kernel matrix (more is an error);
  --energy f       keep the fewest components whose eigenvalues hold the
                   fraction f in (0, 1] of their sum.
There is no default: neither or both is a usage error.

A row the estimator fails on is written back unchanged and reported (exit 1).`

func cmdDenoise(args []string, stdout, stderr io.Writer) int {
	cmd := newCommand("denoise", []string{"runexp denoise --train T.csv --input X.csv --output Z.csv [flags]"}, denoiseDoc)
	fs := cmd.flags
	train := fs.String("train", "", "the training data, a `CSV` file (one sample a row)")
	input := fs.String("input", "", "the noisy inputs, a `CSV` file (one sample a row)")
	output := fs.String("output", "", "the `CSV` file to write the pre-images to")
	kern := fs.String("kernel", "gaussian", "the `KERNEL`: gaussian, linear or polynomial")
	c := fs.Float64("c", 0, "Gaussian width: exp(-||x-y||^2/c)")
	gamma := fs.Float64("gamma", 0, "Gaussian width: exp(-gamma ||x-y||^2)")
	sigma := fs.Float64("sigma", 0, "Gaussian width: exp(-||x-y||^2/sigma^2)")
	degree := fs.Int("degree", 2, "polynomial degree")
	offset := fs.Float64("offset", 1, "polynomial offset")
	comps := fs.Int("components", 0, "keep this many principal components, 1 to the kernel matrix's rank (give it or --energy)")
	energy := fs.Float64("energy", 0, "keep the fewest components whose eigenvalues hold this fraction in (0, 1] (instead of --components)")
	method := fs.String("method", "mika", "the estimator `NAME` (runexp list estimators)")
	seed := fs.Uint64("seed", 1, "seed for estimators that draw")
	params := paramFlags{}
	fs.Var(params, "param", "an estimator parameter `name=value` (repeatable)")
	e := newErrOut(stderr, "runexp denoise", false)
	pos, code, done := cmd.start(args, stdout, e)
	if done {
		return code
	}
	fail := func(format string, a ...any) int { return e.fail(exitUsage, format, a...) }
	if len(pos) > 0 {
		return fail("unexpected argument %q: every input is a flag; see runexp denoise --help", pos[0])
	}
	if *train == "" || *input == "" || *output == "" {
		return fail("--train, --input and --output are required")
	}
	mp, err := kernelFlags(*kern, map[string]float64{"c": *c, "gamma": *gamma, "sigma": *sigma}, *degree, *offset)
	if err != nil {
		return fail("%v", err)
	}
	if *energy < 0 || *energy > 1 {
		return fail("--energy %g: want a fraction in (0, 1]", *energy)
	}
	if *comps < 0 {
		return fail("--components %d: want a count ≥ 1", *comps)
	}
	if (*comps > 0) == (*energy > 0) {
		return fail("give exactly one of --components and --energy (there is no default subspace size)")
	}
	xt, err := datasets.ReadCSVMatrix(*train)
	if err != nil {
		return fail("%v", err)
	}
	x0, err := datasets.ReadCSVMatrix(*input)
	if err != nil {
		return fail("%v", err)
	}
	z, st, err := Denoise(xt, x0, DenoiseOptions{Kernel: mp, Method: *method, Params: params, Components: *comps, Energy: *energy, Seed: *seed})
	if err != nil {
		return fail("%v", err)
	}
	bad := 0
	for i, s := range st {
		if s.Err != nil {
			bad++
			fmt.Fprintf(stderr, "runexp denoise: row %d: %v\n", i+1, s.Err)
			// A failed row must not pass for a result: write the noisy
			// input back unchanged and say so.
			z.SetRow(i, x0.RawRowView(i))
		}
	}
	if err := datasets.WriteCSVMatrix(*output, z); err != nil {
		return fail("%v", err)
	}
	r, _ := z.Dims()
	fmt.Fprintf(stdout, "%d pre-images written to %s (%d failed)\n", r, *output, bad)
	if bad > 0 {
		return exitClaim
	}
	return exitOK
}

// kernelFlags turns the kernel flags into a model point: a Gaussian kernel
// takes exactly one positive width among widths (c, gamma, sigma).
func kernelFlags(kern string, widths map[string]float64, degree int, offset float64) (config.ModelPoint, error) {
	mp := config.ModelPoint{Kernel: kern}
	switch kern {
	case "gaussian":
		set := 0
		for name, v := range widths {
			if v != 0 {
				set++
				mp.WidthName, mp.Width = name, v
			}
		}
		if set != 1 || mp.Width <= 0 {
			return mp, fmt.Errorf("a gaussian kernel needs exactly one positive --c, --gamma or --sigma")
		}
	case "polynomial":
		mp.Degree, mp.Offset = degree, offset
	case "linear":
	default:
		return mp, fmt.Errorf("--kernel %q: want gaussian, linear or polynomial", kern)
	}
	return mp, nil
}
