package datasets

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats/scalar"
	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"
)

func TestTwoRingsNoiseless(t *testing.T) {
	o := RingsOptions{
		N:        501,
		Radii:    [2]float64{1, 2},
		ArcStart: [2]float64{-30, 90},
		ArcEnd:   [2]float64{200, 450},
		Centre:   [2]float64{0.5, -3},
	}
	s, err := TwoRings(o, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	rows, cols := s.X.Dims()
	if rows != 501 || cols != 2 || s.Name != "two-rings" || s.Width != 0 || s.Height != 0 {
		t.Fatalf("got %q %d×%d %d×%d, want two-rings 501×2 with no image size", s.Name, rows, cols, s.Width, s.Height)
	}
	var count [2]int
	for i, l := range s.Labels {
		count[l]++
		dx, dy := s.X.At(i, 0)-o.Centre[0], s.X.At(i, 1)-o.Centre[1]
		// cos²+sin² = 1 up to a few ulps, so with radius ≤ 2 and centre
		// coordinates ≤ 3 the distance is exact to well within 1e-12.
		if r := math.Hypot(dx, dy); math.Abs(r-o.Radii[l]) > 1e-12 {
			t.Errorf("point %d (ring %d) at radius %v, want %v", i, l, r, o.Radii[l])
		}
		// Angle in degrees, shifted into [start, start+360) to compare
		// with the arc; 1e-9 degrees of slack absorbs atan2 rounding.
		a := math.Atan2(dy, dx) * 180 / math.Pi
		a = o.ArcStart[l] + math.Mod(math.Mod(a-o.ArcStart[l], 360)+360, 360)
		if a > o.ArcEnd[l]+1e-9 {
			t.Errorf("point %d (ring %d) at angle %v°, outside [%v, %v)", i, l, a, o.ArcStart[l], o.ArcEnd[l])
		}
	}
	// N odd: ring 0 gets the extra point (documented on RingsOptions.N).
	if count != [2]int{251, 250} {
		t.Errorf("label counts = %v, want [251 250]", count)
	}
	for i := 1; i < rows; i++ {
		if s.Labels[i] < s.Labels[i-1] {
			t.Fatalf("ring 0 points must come first; Labels[%d] = %d after %d", i, s.Labels[i], s.Labels[i-1])
		}
	}
}

func TestTwoRingsNoise(t *testing.T) {
	const sigma = 0.05
	o := RingsOptions{N: 4000, Radii: [2]float64{1, 2}, Noise: sigma,
		ArcStart: [2]float64{0, 0}, ArcEnd: [2]float64{360, 360}}
	s, err := TwoRings(o, rand.New(rand.NewPCG(2, 3)))
	if err != nil {
		t.Fatal(err)
	}
	resid := make([]float64, len(s.Labels))
	for i, l := range s.Labels {
		resid[i] = math.Hypot(s.X.At(i, 0), s.X.At(i, 1)) - o.Radii[l]
		// The distance to the circle is at most the noise's length, which
		// is Rayleigh(σ): P(> 6σ) = exp(−18) ≈ 1.5e-8 per point.
		if math.Abs(resid[i]) > 6*sigma {
			t.Errorf("point %d is %v from ring %d, more than 6σ", i, resid[i], l)
		}
	}
	// For σ ≪ r the radial residual is ≈ N(0, σ²) (the tangential part
	// adds O(σ²/r)); with 4000 points the standard error of the sample std
	// is σ/sqrt(8000) ≈ 1.1% of σ, so 5% is over 4 standard errors.
	if sd := stat.StdDev(resid, nil); !scalar.EqualWithinRel(sd, sigma, 0.05) {
		t.Errorf("radial residual std = %v, want %v within 5%%", sd, sigma)
	}
}

func TestTwoRingsDeterminism(t *testing.T) {
	o := RingsOptions{N: 50, Radii: [2]float64{1, 2}, Noise: 0.1,
		ArcStart: [2]float64{0, 0}, ArcEnd: [2]float64{360, 360}}
	draw := func(o RingsOptions, seed uint64) *mat.Dense {
		s, err := TwoRings(o, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return s.X
	}
	if a, b := draw(o, 1), draw(o, 1); !mat.Equal(a, b) {
		t.Error("same seed gave different points")
	}
	if a, b := draw(o, 1), draw(o, 2); mat.Equal(a, b) {
		t.Error("seeds 1 and 2 gave the same points")
	}

	// The noise is drawn even at Noise 0 (documented on TwoRings), so with
	// one seed X(σ) − X(0) is σ times the same normal draws: doubling σ
	// doubles the displacement. Tolerance: a few ulps of values ≤ 3.
	o0, o1, o2 := o, o, o
	o0.Noise, o1.Noise, o2.Noise = 0, 0.1, 0.2
	x0, x1, x2 := draw(o0, 5), draw(o1, 5), draw(o2, 5)
	var d1, d2 mat.Dense
	d1.Sub(x1, x0)
	d2.Sub(x2, x0)
	d1.Scale(2, &d1)
	if !mat.EqualApprox(&d1, &d2, 1e-12) {
		t.Error("doubling Noise did not double the displacement: the draw order depends on Noise")
	}
}

func TestTwoRingsInvalid(t *testing.T) {
	valid := RingsOptions{N: 10, Radii: [2]float64{1, 2}, Noise: 0.1,
		ArcStart: [2]float64{0, 0}, ArcEnd: [2]float64{360, 360}}
	rnd := rand.New(rand.NewPCG(1, 1))
	if _, err := TwoRings(valid, rnd); err != nil {
		t.Fatalf("valid options: %v", err)
	}
	for _, c := range []struct {
		name string
		edit func(*RingsOptions)
		want string
	}{
		{"N 1", func(o *RingsOptions) { o.N = 1 }, "N is 1"},
		{"N 0", func(o *RingsOptions) { o.N = 0 }, "N is 0"},
		{"radius 0", func(o *RingsOptions) { o.Radii[1] = 0 }, "radius of ring 1"},
		{"radius negative", func(o *RingsOptions) { o.Radii[0] = -1 }, "radius of ring 0"},
		{"radius NaN", func(o *RingsOptions) { o.Radii[0] = math.NaN() }, "radius of ring 0"},
		{"radius Inf", func(o *RingsOptions) { o.Radii[0] = math.Inf(1) }, "radius of ring 0"},
		{"noise negative", func(o *RingsOptions) { o.Noise = -0.1 }, "noise"},
		{"noise NaN", func(o *RingsOptions) { o.Noise = math.NaN() }, "noise"},
		{"empty arc", func(o *RingsOptions) { o.ArcEnd[0] = 0 }, "arc of ring 0"},
		{"reversed arc", func(o *RingsOptions) { o.ArcStart[1], o.ArcEnd[1] = 90, 10 }, "arc of ring 1"},
		{"arc over 360", func(o *RingsOptions) { o.ArcEnd[1] = 360.5 }, "arc of ring 1"},
		{"arc NaN", func(o *RingsOptions) { o.ArcStart[0] = math.NaN() }, "arc of ring 0"},
		{"centre Inf", func(o *RingsOptions) { o.Centre[1] = math.Inf(-1) }, "centre"},
		{"zero value", func(o *RingsOptions) { *o = RingsOptions{} }, "N is 0"},
	} {
		o := valid
		c.edit(&o)
		_, err := TwoRings(o, rnd)
		wantErr(t, err, c.want)
	}
	_, err := TwoRings(valid, nil)
	wantErr(t, err, "nil random generator")
}
