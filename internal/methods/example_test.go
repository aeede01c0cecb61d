package methods_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
	"github.com/runexp/runexp/internal/methods"
)

func ExampleFitKPCA() {
	// Four corners of the unit square. With a Gaussian kernel the four
	// images are linearly independent, so the centred Gram matrix has
	// rank N−1 = 3.
	x := mat.NewDense(4, 2, []float64{
		0, 0,
		1, 0,
		0, 1,
		1, 1,
	})
	m, err := methods.FitKPCA(x, kernel.Gaussian{C: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("components:", m.Rank())
	fmt.Println("for 50% of the energy:", m.Components(0.5))
	// Output:
	// components: 3
	// for 50% of the energy: 2
}

func ExampleMika() {
	// Two training points on a line and Ψ = ½φ(0) + ½φ(1). Eq. 13 maps z
	// to 1/(1 + e^{1−2z}), whose fixed point is the midpoint.
	x := mat.NewDense(2, 1, []float64{0, 1})
	b := methods.NewBasis(x, kernel.Gaussian{C: 1})
	gamma := mat.NewDense(1, 2, []float64{0.5, 0.5})
	p := methods.NewProblem(b, gamma, mat.NewDense(1, 1, []float64{0.25}))

	est := &methods.Mika{MaxIter: 100, Tol: 1e-9, Start: methods.StartNoisy, Eps: 1e-12}
	var z mat.Dense
	st, err := est.PreImage(&z, p)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("z = %.6f, converged: %v\n", z.At(0, 0), st[0].Converged)
	// Output:
	// z = 0.500000, converged: true
}

func ExampleProjectThenPreImage() {
	// Training points on the unit circle. Noisy points off the circle are
	// projected onto 8 kernel principal components and mapped back by
	// Mika et al.'s iteration, built by name as an experiment config would.
	const n = 16
	x := mat.NewDense(n, 2, nil)
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / n
		x.Set(i, 0, math.Cos(a))
		x.Set(i, 1, math.Sin(a))
	}
	m, err := methods.FitKPCA(x, kernel.Gaussian{C: 0.5})
	if err != nil {
		fmt.Println(err)
		return
	}
	est, _, err := methods.New("mika", map[string]any{"start": "noisy"})
	if err != nil {
		fmt.Println(err)
		return
	}
	den, _ := methods.AsDenoiser(est) // a PreImager: project, then pre-image
	noisy := mat.NewDense(2, 2, []float64{
		1.3, 0,
		0.5, 0.6,
	})
	var z mat.Dense
	st, err := den.Denoise(&z, &methods.DenoiseInput{Model: m, Q: 8, X0: noisy})
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := range st {
		fmt.Printf("radius %.2f → %.2f (converged: %v)\n",
			math.Hypot(noisy.At(i, 0), noisy.At(i, 1)), math.Hypot(z.At(i, 0), z.At(i, 1)), st[i].Converged)
	}
	// Output:
	// radius 1.30 → 0.99 (converged: true)
	// radius 0.78 → 0.97 (converged: true)
}
