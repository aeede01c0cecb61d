package metrics

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
)

// TestPercentile checks type-7 interpolation against values worked by hand
// (and the same as numpy.percentile / R quantile(type = 7)):
// x sorted = 1 2 3 4 10, n = 5.
//
//	p = 0.05: h = 4·0.05 = 0.2 → 1 + 0.2·(2−1) = 1.2
//	p = 0.5:  h = 2           → 3
//	p = 0.95: h = 3.8         → 4 + 0.8·(10−4) = 8.8
func TestPercentile(t *testing.T) {
	x := []float64{10, 3, 1, 4, 2}
	for _, tc := range []struct{ p, want float64 }{
		{0, 1}, {0.05, 1.2}, {0.5, 3}, {0.95, 8.8}, {1, 10},
	} {
		if got := Percentile(x, tc.p); !scalar.EqualWithinAbs(got, tc.want, 1e-12) {
			t.Errorf("Percentile(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	if x[0] != 10 {
		t.Error("Percentile sorted its input in place")
	}
	if !math.IsNaN(Percentile(nil, 0.5)) {
		t.Error("the percentile of nothing must be NaN")
	}
}

// TestRenormalize: z = (0, 1, 2) onto the range of ref = (−1, 1, 0), i.e.
// [−1, 1]: scale 2/2 = 1, shift −1 → (−1, 0, 1).
func TestRenormalize(t *testing.T) {
	z := []float64{0, 1, 2}
	Renormalize(z, z, []float64{-1, 1, 0})
	for i, want := range []float64{-1, 0, 1} {
		if !scalar.EqualWithinAbs(z[i], want, 1e-15) {
			t.Errorf("z[%d] = %v, want %v", i, z[i], want)
		}
	}
	c := []float64{3, 3}
	Renormalize(c, c, []float64{0, 4})
	if c[0] != 2 || c[1] != 2 {
		t.Errorf("a constant image maps to the middle of the range, got %v", c)
	}
}

// TestMeanPairwiseDistance: the corners (0,0), (3,0), (0,4) have pairwise
// distances 3, 4 and 5, mean 4.
func TestMeanPairwiseDistance(t *testing.T) {
	got := MeanPairwiseDistance([][]float64{{0, 0}, {3, 0}, {0, 4}})
	if !scalar.EqualWithinAbs(got, 4, 1e-15) {
		t.Errorf("got %v, want 4", got)
	}
	if MeanPairwiseDistance([][]float64{{1, 2}}) != 0 {
		t.Error("one solution has no spread")
	}
}

// TestMSE: (1−0)² + (2−4)² over 2 entries = 5/2.
func TestMSE(t *testing.T) {
	if got := MSE([]float64{1, 2}, []float64{0, 4}); got != 2.5 {
		t.Errorf("got %v, want 2.5", got)
	}
}

// TestSummarize: x = 1 2 3 4 10 has mean 4, sample variance
// (9+4+1+0+36)/4 = 12.5.
func TestSummarize(t *testing.T) {
	s := Summarize([]float64{10, 3, 1, 4, 2})
	if s.Mean != 4 || !scalar.EqualWithinAbs(s.Std, math.Sqrt(12.5), 1e-14) || s.Median != 3 || s.Min != 1 || s.Max != 10 {
		t.Errorf("got %+v", s)
	}
}

// TestSummarizeSortsOnce: Summarize reads its three percentiles from one
// sorted copy; they must be Percentile's, bit for bit, whatever the size,
// ties and order of the sample, and the sample must not be modified.
func TestSummarizeSortsOnce(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 5))
	for _, n := range []int{1, 2, 3, 7, 20, 101, 400} {
		x := make([]float64, n)
		for i := range x {
			x[i] = math.Round(rnd.NormFloat64()*4) / 4 // ties
		}
		orig := append([]float64(nil), x...)
		s := Summarize(x)
		for _, c := range []struct {
			got float64
			p   float64
		}{{s.P5, 0.05}, {s.Median, 0.5}, {s.P95, 0.95}} {
			if want := Percentile(x, c.p); math.Float64bits(c.got) != math.Float64bits(want) {
				t.Errorf("n=%d p=%v: Summarize %v, Percentile %v", n, c.p, c.got, want)
			}
		}
		for i := range x {
			if x[i] != orig[i] {
				t.Fatalf("n=%d: Summarize modified its input", n)
			}
		}
	}
}

// TestMeanStdSpreadAreSummarize checks that the sort-free Mean and Std and
// the one-sort Spread, which the claims' bootstrap calls on every
// resample, give Summarize's and Percentile's bits: the claims' intervals
// must not move when a statistic is computed the cheaper way. Samples with
// ties and with NaN (a failed item, which sorts first) are included; the
// documented edge cases are n = 0 (NaN) and n = 1 (Std 0).
func TestMeanStdSpreadAreSummarize(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 9))
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for _, n := range []int{1, 2, 3, 7, 20, 101, 400} {
		for _, withNaN := range []bool{false, true} {
			x := make([]float64, n)
			for i := range x {
				x[i] = math.Round(rnd.NormFloat64()*4) / 4
			}
			if withNaN {
				x[rnd.IntN(n)] = math.NaN()
			}
			s := Summarize(x)
			if !same(Mean(x), s.Mean) || !same(Std(x), s.Std) {
				t.Errorf("n=%d NaN=%v: Mean, Std %v, %v; Summarize %v, %v", n, withNaN, Mean(x), Std(x), s.Mean, s.Std)
			}
			if got, want := Spread(x, 0.05, 0.95), Percentile(x, 0.95)-Percentile(x, 0.05); !same(got, want) {
				t.Errorf("n=%d NaN=%v: Spread %v, Percentile difference %v", n, withNaN, got, want)
			}
		}
	}
	if !math.IsNaN(Mean(nil)) || !math.IsNaN(Std(nil)) || !math.IsNaN(Spread(nil, 0.05, 0.95)) {
		t.Error("empty sample: want NaN")
	}
	if Std([]float64{3}) != 0 {
		t.Error("one value: want Std 0")
	}
}

// BenchmarkSummarize is one bootstrap replicate's summary of 400 values
// (a USPS test set; the claims' bootstrap runs thousands per claim).
func BenchmarkSummarize(b *testing.B) {
	rnd := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 400)
	for i := range x {
		x[i] = rnd.ExpFloat64()
	}
	for b.Loop() {
		Summarize(x)
	}
}
