package methods_test

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

// nearestInput is the estimator of the package doc's "Adding an
// estimator": the pre-image of Ψ_m is the training input nearest to it in
// feature space, argmin_n K_nn − 2(ΓK)_mn (‖Ψ_m‖² is the same for every
// n), so Ψ = φ(x_j) gives x_j back exactly.
type nearestInput struct{}

var _ methods.PreImager = nearestInput{}

func (nearestInput) PreImage(dst *mat.Dense, p *methods.Problem) ([]methods.Status, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	n, d := p.Basis.X.Dims()
	if dst.IsEmpty() {
		dst.ReuseAs(p.M(), d)
	}
	for m := 0; m < p.M(); m++ {
		best := 0
		for i := 1; i < n; i++ {
			if p.Basis.Diag[i]-2*p.Terms.GK.At(m, i) < p.Basis.Diag[best]-2*p.Terms.GK.At(m, best) {
				best = i
			}
		}
		dst.SetRow(m, p.Basis.X.RawRowView(best))
	}
	return make([]methods.Status, p.M()), nil
}

// Example_addingAnEstimator is the package doc's "Adding an estimator",
// compiled and run: a Spec with every field Register asks for (Does
// included: Register panics without it), registered, then built by name
// as a config's methods entry would be.
func Example_addingAnEstimator() {
	spec := methods.Spec{
		Name:    "nearest-input",
		Title:   "Nearest input",
		Doc:     "the training input nearest to Ψ in feature space",
		Source:  "the package doc's example",
		Does:    methods.PreImages,
		Kernels: methods.AnyKernel,
		Params:  []methods.Param{methods.IntParam("unused", 1, 0, methods.Inf, "a parameter, to show one")},
		New:     func(methods.Params) (any, error) { return nearestInput{}, nil },
	}
	if _, dup := methods.Lookup(spec.Name); !dup { // go test -count=2 runs an example twice
		methods.Register(spec)
	}
	est, params, err := methods.New("nearest-input", map[string]any{"unused": 2})
	if err != nil {
		fmt.Println(err)
		return
	}
	x := mat.NewDense(3, 1, []float64{0, 1, 3})
	b := methods.NewBasis(x, kernel.Gaussian{C: 1})
	gamma := mat.NewDense(1, 3, []float64{0, 0, 1}) // Ψ = φ(x_3)
	var z mat.Dense
	if _, err := est.(methods.PreImager).PreImage(&z, methods.NewProblem(b, gamma, nil)); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("params:", params, "pre-image:", z.At(0, 0))
	// Output:
	// params: map[unused:2] pre-image: 3
}
