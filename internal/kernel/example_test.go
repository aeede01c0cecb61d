package kernel_test

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/kernel"
)

// The three papers write the Gaussian's width three ways; NewGaussian
// turns each into the one form runexp computes with, exp(−‖x−y‖²/c).
func ExampleNewGaussian() {
	for _, w := range []struct {
		param string
		value float64
	}{{"c", 50}, {"gamma", 0.02}, {"sigma", math.Sqrt(50)}} {
		k, err := kernel.NewGaussian(w.param, w.value)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%s = %.4g → c = %.4g\n", w.param, w.value, k.C)
	}
	_, err := kernel.NewGaussian("c", -1)
	fmt.Println(err)
	// Output:
	// c = 50 → c = 50
	// gamma = 0.02 → c = 50
	// sigma = 7.071 → c = 50
	// kernel: Gaussian c = -1, want a positive finite width
}

// Gram fills k(a_i, b_j) for every pair of rows at once; with c = 2 two
// points at squared distance 2 are e⁻¹ apart in the kernel's sense.
func ExampleGram() {
	a := mat.NewDense(2, 2, []float64{
		0, 0,
		1, 1,
	})
	var g mat.Dense
	kernel.Gram(&g, kernel.Gaussian{C: 2}, a, a)
	fmt.Printf("%.4f\n", mat.Formatted(&g))
	fmt.Printf("e⁻¹ = %.4f\n", math.Exp(-1))
	// Output:
	// ⎡1.0000  0.3679⎤
	// ⎣0.3679  1.0000⎦
	// e⁻¹ = 0.3679
}

// SqDist gives ‖a_i − b_j‖² for every pair of rows.
func ExampleSqDist() {
	a := mat.NewDense(2, 2, []float64{0, 0, 3, 4})
	b := mat.NewDense(1, 2, []float64{0, 4})
	var d mat.Dense
	kernel.SqDist(&d, a, b)
	fmt.Println(mat.Formatted(&d))
	// Output:
	// ⎡16⎤
	// ⎣ 9⎦
}
