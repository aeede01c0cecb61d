package classify

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestL2SVMHand: two points x = +1 (y = +1) and x = −1 (y = −1), no bias.
// Both margins are w, so for w < 1 the objective is ½w² + 2C(1 − w)²,
// stationary at w* = 4C/(1 + 4C): 0.8 at C = 1, 40/41 at C = 10 (by hand).
// ‖∇f(0)‖ = |−4C| = 4C.
func TestL2SVMHand(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{1, -1})
	for _, c := range []float64{1, 10} {
		res, err := TrainBinary(x, []float64{1, -1}, LogRegOptions{Loss: L2SVM, C: c, Eps: 1e-12})
		if err != nil {
			t.Fatal(err)
		}
		if want := 4 * c / (1 + 4*c); math.Abs(res.W[0]-want) > 1e-12 {
			t.Errorf("C = %g: w = %.15g, want %.15g", c, res.W[0], want)
		}
		if !res.Converged || math.Abs(res.GradNorm0-4*c) > 1e-12 {
			t.Errorf("C = %g: converged %v, ‖∇f(0)‖ = %g, want %g", c, res.Converged, res.GradNorm0, 4*c)
		}
	}
}

// svmRef is ½wᵀw + C Σ max(0, 1 − y wᵀx)² and its gradient, written row by
// row, independently of the solver.
func svmRef(x *mat.Dense, y []float64, c float64, w, g []float64) float64 {
	l, n := x.Dims()
	v := 0.0
	for j := range w {
		v += 0.5 * w[j] * w[j]
		if g != nil {
			g[j] = w[j]
		}
	}
	for i := 0; i < l; i++ {
		z := 0.0
		for j := 0; j < n; j++ {
			z += w[j] * x.At(i, j)
		}
		if d := 1 - y[i]*z; d > 0 {
			v += c * d * d
			if g != nil {
				for j := 0; j < n; j++ {
					g[j] += -2 * c * d * y[i] * x.At(i, j)
				}
			}
		}
	}
	return v
}

// svmFiniteNewton is the optimum by the finite Newton method (Keerthi &
// DeCoste, JMLR 2005): for the rows I whose margin is under 1, solve
// (I + 2C X_IᵀX_I) w = 2C X_Iᵀ y_I by Cholesky, and repeat until I no
// longer changes.
func svmFiniteNewton(x *mat.Dense, y []float64, c float64) []float64 {
	l, n := x.Dims()
	w := make([]float64, n)
	prev := ""
	for it := 0; it < 100; it++ {
		a := mat.NewSymDense(n, nil)
		b := make([]float64, n)
		set := make([]byte, l)
		for j := 0; j < n; j++ {
			a.SetSym(j, j, 1)
		}
		for i := 0; i < l; i++ {
			z := 0.0
			for j := 0; j < n; j++ {
				z += w[j] * x.At(i, j)
			}
			set[i] = '0'
			if y[i]*z < 1 {
				set[i] = '1'
				for j := 0; j < n; j++ {
					b[j] += 2 * c * y[i] * x.At(i, j)
					for k := j; k < n; k++ {
						a.SetSym(j, k, a.At(j, k)+2*c*x.At(i, j)*x.At(i, k))
					}
				}
			}
		}
		if string(set) == prev {
			break
		}
		prev = string(set)
		var ch mat.Cholesky
		if !ch.Factorize(a) {
			panic("not positive definite")
		}
		var sol mat.VecDense
		if err := ch.SolveVecTo(&sol, mat.NewVecDense(n, b)); err != nil {
			panic(err)
		}
		w = sol.RawVector().Data
	}
	return w
}

// TestL2SVMRandom: on a random non-separable problem the solver stops by
// LIBLINEAR's rule (checked with an independently computed gradient), and
// with a tight ε it reaches the finite-Newton optimum of the same
// objective.
func TestL2SVMRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	x, y := noisyProblem(rng, 300, 12)
	var pos int
	for _, v := range y {
		if v > 0 {
			pos++
		}
	}
	res, err := TrainBinary(x, y, LogRegOptions{Loss: L2SVM, C: 10, Eps: 0.01})
	if err != nil {
		t.Fatal(err)
	}
	g, g0 := make([]float64, 12), make([]float64, 12)
	svmRef(x, y, 10, res.W, g)
	svmRef(x, y, 10, make([]float64, 12), g0)
	tol := 0.01 * float64(min(pos, 300-pos)) / 300
	if !res.Converged || norm(g) > tol*norm(g0)*(1+1e-9) {
		t.Errorf("‖∇f‖ = %g > %g·‖∇f(0)‖ (converged %v)", norm(g), tol, res.Converged)
	}
	tight, err := TrainBinary(x, y, LogRegOptions{Loss: L2SVM, C: 10, Eps: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	opt := svmFiniteNewton(x, y, 10)
	if fT, fO := svmRef(x, y, 10, tight.W, nil), svmRef(x, y, 10, opt, nil); fT > fO+1e-9*math.Abs(fO) {
		t.Errorf("f(w_tron) = %.12g above the finite Newton's %.12g", fT, fO)
	}
	for j := range tight.W {
		if d := math.Abs(tight.W[j] - opt[j]); d > 1e-6*math.Max(1, math.Abs(opt[j])) {
			t.Errorf("w[%d] = %.10g, finite Newton %.10g", j, tight.W[j], opt[j])
		}
	}
	// The SVM is not the logistic fit: the two losses give other weights.
	lr, err := TrainBinary(x, y, LogRegOptions{C: 10, Eps: 1e-12})
	if err != nil {
		t.Fatal(err)
	}
	same := true
	for j := range lr.W {
		same = same && math.Abs(lr.W[j]-tight.W[j]) < 1e-6
	}
	if same {
		t.Error("the L2-loss SVM returned the logistic regression's weights")
	}
}

// TestUnknownLoss: a loss the package does not have is refused, not
// fitted as another.
func TestUnknownLoss(t *testing.T) {
	x := mat.NewDense(2, 1, []float64{1, -1})
	if _, err := TrainBinary(x, []float64{1, -1}, LogRegOptions{Loss: Loss(7), C: 1}); err == nil {
		t.Error("loss 7 was fitted")
	}
}
