package methods

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestMulNTIsMul: mulNT is gonum's a·bᵀ bit for bit, on both dot4 paths
// (AVX2 and pure Go), at inner dimensions up to 64 and output sizes on
// both sides of gonum's threshold for its parallel product (4 blocks of
// 64×64), with signed zeros, NaN and ±Inf; and above 64 it is Mul itself.
// It fails if the entries are summed in another order than DotUnitary's
// (one chain from the first term to the last).
func TestMulNTIsMul(t *testing.T) {
	rnd := rand.New(rand.NewPCG(4, 8))
	defer func(v bool) { useAVX2 = v }(useAVX2)
	for _, avx := range []bool{false, useAVX2} {
		useAVX2 = avx
		for _, sz := range [][3]int{{1, 1, 1}, {3, 7, 12}, {100, 90, 12}, {65, 130, 64}, {200, 300, 33}, {10, 5, 65}, {5, 9, 0}} {
			m, n, k := sz[0], sz[1], sz[2]
			a, b := randNT(rnd, m, k), randNT(rnd, n, k)
			if k > 0 {
				for l := range k { // a row of signed zeros
					a.Set(0, l, math.Copysign(0, float64(l%2)-0.5))
				}
			}
			want := mat.NewDense(m, n, nil)
			want.Mul(a, b.T())
			got := mat.NewDense(m, n, nil)
			for i := range got.RawMatrix().Data {
				got.RawMatrix().Data[i] = math.NaN()
			}
			mulNT(got, a, b)
			name := fmt.Sprintf("avx2 %v, %d×%d·%d", avx, m, n, k)
			for i := range m {
				for j := range n {
					if math.Float64bits(got.At(i, j)) != math.Float64bits(want.At(i, j)) {
						t.Fatalf("%s: entry (%d, %d) = %v, Mul gives %v", name, i, j, got.At(i, j), want.At(i, j))
					}
				}
			}
		}
	}
}

func randNT(rnd *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(max(r, 1), max(c, 1), nil).Slice(0, r, 0, c).(*mat.Dense)
	if r == 0 || c == 0 {
		return mat.NewDense(r+1, c+1, nil).Slice(0, r, 0, c).(*mat.Dense)
	}
	for i := range r {
		for j := range c {
			v := rnd.NormFloat64() * math.Ldexp(1, rnd.IntN(30)-15)
			switch rnd.IntN(3000) {
			case 0:
				v = math.NaN()
			case 1:
				v = math.Inf(1)
			}
			m.Set(i, j, v)
		}
	}
	return m
}
