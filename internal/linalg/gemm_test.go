package linalg

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"runtime"
	"testing"
)

// gemmRef is the contract written out, element by element: the reference
// every kernel is tested against bit for bit.
func gemmRef(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	for i := range m {
		for j := range n {
			var s float64
			switch {
			case beta == 1:
				s = c[i*ldc+j]
			case beta != 0:
				s = beta * c[i*ldc+j]
			}
			if alpha != 0 {
				for l := range k {
					var ail, blj float64
					if tA {
						ail = a[l*lda+i]
					} else {
						ail = a[i*lda+l]
					}
					if tB {
						blj = b[j*ldb+l]
					} else {
						blj = b[l*ldb+j]
					}
					if alpha != 1 {
						ail *= alpha
					}
					s = math.FMA(ail, blj, s)
				}
			}
			c[i*ldc+j] = s
		}
	}
}

// kernels returns every micro-kernel this machine can run: the pure-Go
// one always, the assembly ones where the CPU has them (whatever
// RUNEXP_NOASM says, so the test compares them even when the process
// uses the fallback).
func kernels() []microKernel { return append([]microKernel{goKernel}, asmKernels()...) }

// gemmShapes are m, n, k triples around every block size: 1, odd, below
// and above a micro-tile (4, 6, 8, 12, 16), gemmMC (96), gemmKC (256) and
// gemmNC (768), and sizes that cross the parallel threshold.
var gemmShapes = [][3]int{
	{1, 1, 1}, {1, 7, 3}, {5, 1, 9}, {3, 5, 0}, {6, 8, 1}, {7, 9, 13}, {12, 16, 5}, {13, 17, 31},
	{95, 97, 255}, {97, 33, 257}, {100, 770, 40}, {193, 65, 513}, {2, 800, 300}, {301, 3, 260},
}

// TestGemmKernelsAgree: every micro-kernel, through the packed product,
// gives exactly the contract's bits (gemmRef: one math.FMA chain per
// element in the order of the inner dimension), for every transpose,
// special and general α and β, leading dimensions wider than the
// matrices and entries of mixed magnitude with a few NaN and ±Inf. NaNs
// must be NaN in both (their payload is the hardware's).
func TestGemmKernelsAgree(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 1))
	for _, kern := range kernels() {
		for _, sz := range gemmShapes {
			for _, tA := range []bool{false, true} {
				for _, tB := range []bool{false, true} {
					for _, ab := range [][2]float64{{1, 0}, {1, 1}, {-1, 1}, {-2.5, 0.5}, {0, 0.5}, {0.3, 0}} {
						m, n, k := sz[0], sz[1], sz[2]
						name := fmt.Sprintf("%s m%d n%d k%d tA %v tB %v α %g β %g", kern.name, m, n, k, tA, tB, ab[0], ab[1])
						checkGemm(t, name, rnd, kern, tA, tB, m, n, k, ab[0], ab[1])
					}
				}
			}
		}
	}
}

func checkGemm(t *testing.T, name string, rnd *rand.Rand, kern microKernel, tA, tB bool, m, n, k int, alpha, beta float64) {
	t.Helper()
	ar, ac := m, k
	if tA {
		ar, ac = k, m
	}
	br, bc := k, n
	if tB {
		br, bc = n, k
	}
	lda, ldb, ldc := ac+3, bc+1, n+2
	a := fill(rnd, max(ar, 1)*lda)
	b := fill(rnd, max(br, 1)*ldb)
	c := fill(rnd, max(m, 1)*ldc)
	want := append([]float64(nil), c...)
	got := append([]float64(nil), c...)
	gemmRef(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, want, ldc)
	gemmWith(kern, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, got, ldc)
	for i := range want {
		if !sameBits(want[i], got[i]) {
			t.Fatalf("%s: c[%d] = %v, the contract gives %v", name, i, got[i], want[i])
		}
	}
}

func sameBits(x, y float64) bool {
	return math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y)
}

// TestGemmGoroutines: the parallel product gives the same bits at any
// GOMAXPROCS (tiles are computed whole by whichever goroutine takes them).
func TestGemmGoroutines(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 2))
	const m, n, k = 300, 1600, 270
	a, b := fill(rnd, m*k), fill(rnd, k*n)
	var first []float64
	for _, procs := range []int{1, 2, 5} {
		old := runtime.GOMAXPROCS(procs)
		c := make([]float64, m*n)
		Gemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
		runtime.GOMAXPROCS(old)
		if first == nil {
			first = c
			continue
		}
		for i := range c {
			if !sameBits(c[i], first[i]) {
				t.Fatalf("GOMAXPROCS %d: c[%d] = %v, GOMAXPROCS 1 gave %v", procs, i, c[i], first[i])
			}
		}
	}
}

// TestGemmAccuracy: the product is within Higham's bound for recursive
// summation of the exact one (computed in big.Float at 2000 bits):
// |ĉ_ij − c_ij| ≤ γ_k Σ_l |a_il||b_lj|, γ_k = k·u/(1 − k·u), u = 2⁻⁵³
// (Accuracy and Stability of Numerical Algorithms, 2nd ed., eq. 3.5).
func TestGemmAccuracy(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 3))
	const m, n, k = 20, 23, 700
	a, b := make([]float64, m*k), make([]float64, k*n)
	for i := range a {
		a[i] = rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(20)-10)
	}
	for i := range b {
		b[i] = rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(20)-10)
	}
	c := make([]float64, m*n)
	Gemm(false, false, m, n, k, 1, a, k, b, n, 0, c, n)
	u := math.Ldexp(1, -53)
	gamma := float64(k) * u / (1 - float64(k)*u)
	worst := 0.0
	for i := range m {
		for j := range n {
			exact := new(big.Float).SetPrec(2000)
			var abs float64
			for l := range k {
				p := new(big.Float).SetPrec(2000).SetFloat64(a[i*k+l])
				p.Mul(p, new(big.Float).SetPrec(2000).SetFloat64(b[l*n+j]))
				exact.Add(exact, p)
				abs += math.Abs(a[i*k+l] * b[l*n+j])
			}
			e, _ := exact.Float64()
			err := math.Abs(c[i*n+j] - e)
			if err > gamma*abs {
				t.Fatalf("c[%d,%d] = %v, exact %v: error %g above γ_k Σ|a||b| = %g", i, j, c[i*n+j], e, err, gamma*abs)
			}
			worst = max(worst, err/(gamma*abs))
		}
	}
	t.Logf("largest error %.3g of the bound", worst)
}

// fill returns n entries of mixed magnitude, a few of them NaN or ±Inf.
func fill(rnd *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(40)-20)
		switch rnd.IntN(5000) {
		case 0:
			v[i] = math.NaN()
		case 1:
			v[i] = math.Inf(1)
		case 2:
			v[i] = math.Inf(-1)
		}
	}
	return v
}

// symvRef is symv.go's contract written out element by element, with no
// lanes in common with the kernels: the dot product of row i's stored
// part in its own eight chains.
func symvRef(upper bool, n int, alpha float64, a []float64, lda int, x []float64, beta float64, y []float64) {
	for i := range n {
		switch {
		case beta == 0:
			y[i] = 0
		case beta != 1:
			y[i] *= beta
		}
	}
	if alpha == 0 {
		return
	}
	for i := range n {
		xv := alpha * x[i]
		lo, hi := 0, i
		if upper {
			lo, hi = i+1, n
		}
		var lane [8]float64
		for j := lo; j < hi; j++ {
			lane[(j-lo)%8] = math.FMA(a[i*lda+j], x[j], lane[(j-lo)%8])
			y[j] = math.FMA(xv, a[i*lda+j], y[j])
		}
		s := ((lane[0] + lane[4]) + (lane[2] + lane[6])) + ((lane[1] + lane[5]) + (lane[3] + lane[7]))
		y[i] = math.FMA(alpha, math.FMA(a[i*lda+i], x[i], s), y[i])
	}
}

// TestSymvKernelsAgree: symv with every row kernel this machine runs (the
// pure-Go one and the assembly ones) gives the contract's bits, for both
// triangles, sizes around the lanes' block of 8, special and general α
// and β and entries with a few NaN and ±Inf.
func TestSymvKernelsAgree(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 5))
	rows := append([]symvRowKernel{symvRowGo}, asmSymvRows()...)
	for ki, row := range rows {
		for _, n := range []int{1, 2, 7, 8, 9, 16, 17, 63, 100, 257} {
			for _, upper := range []bool{false, true} {
				for _, ab := range [][2]float64{{1, 0}, {1, 1}, {-0.7, 0.3}, {0, 2}} {
					lda := n + 3
					a, x, y := fill(rnd, n*lda), fill(rnd, n), fill(rnd, n)
					want, got := append([]float64(nil), y...), append([]float64(nil), y...)
					symvRef(upper, n, ab[0], a, lda, x, ab[1], want)
					symv(row, upper, n, ab[0], a, lda, x, ab[1], got)
					for i := range want {
						if !sameBits(want[i], got[i]) {
							t.Fatalf("kernel %d, n=%d upper %v α %g β %g: y[%d] = %v, want %v", ki, n, upper, ab[0], ab[1], i, got[i], want[i])
						}
					}
				}
			}
		}
	}
}

// TestGemmPacked: a product with op(B) packed once (PackB, GemmPacked)
// gives Gemm's bits, for both layouts of B, across the block sizes, and
// the same PackedB serves several left operands. The operands are packed
// a second time by PackBTo into one PackedB that held the previous
// operand (larger, smaller, with other edges), which must not leave
// anything of it behind.
func TestGemmPacked(t *testing.T) {
	rnd := rand.New(rand.NewPCG(52, 13))
	var reused *PackedB
	for _, sz := range [][3]int{{1, 1, 1}, {3, 50, 7}, {10, 800, 300}, {200, 90, 12}, {7, 3100, 40}} {
		m, n, k := sz[0], sz[1], sz[2]
		for _, tB := range []bool{false, true} {
			br, bc := k, n
			if tB {
				br, bc = n, k
			}
			ldb := bc + 1
			b := fill(rnd, br*ldb)
			pb := PackB(tB, k, n, b, ldb)
			if reused != nil {
				// Stale values in the panels PackBTo reuses.
				for _, panel := range reused.panels {
					for i := range panel {
						panel[i] = math.NaN()
					}
				}
			}
			reused = PackBTo(reused, tB, k, n, b, ldb)
			for rep := range 3 {
				if rep == 2 {
					pb = reused
				}
				a, c := fill(rnd, m*(k+2)), fill(rnd, m*(n+1))
				want, got := append([]float64(nil), c...), append([]float64(nil), c...)
				Gemm(false, tB, m, n, k, 1.5, a, k+2, b, ldb, 0.5, want, n+1)
				GemmPacked(false, m, 1.5, a, k+2, pb, 0.5, got, n+1)
				for i := range want {
					if !sameBits(want[i], got[i]) {
						t.Fatalf("m%d n%d k%d tB %v rep %d: c[%d] = %v, Gemm gives %v", m, n, k, tB, rep, i, got[i], want[i])
					}
				}
			}
		}
	}
}
