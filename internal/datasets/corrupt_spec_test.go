package datasets

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func TestOccludeUniform(t *testing.T) {
	// A 2×2 square on a 4×3 image of −1s: by hand, y0 = IntN(3−2+1),
	// x0 = IntN(4−2+1), then 4 values 255·Float64() row by row.
	img := make([]float64, 12)
	for i := range img {
		img[i] = -1
	}
	OccludeUniform(4, 3, 2, 255)(img, rand.New(rand.NewPCG(5, 6)))
	r := rand.New(rand.NewPCG(5, 6))
	y0, x0 := r.IntN(2), r.IntN(3)
	want := make([]float64, 12)
	for i := range want {
		want[i] = -1
	}
	for a := range 2 {
		for b := range 2 {
			want[(y0+a)*4+x0+b] = 255 * r.Float64()
		}
	}
	for i := range img {
		if img[i] != want[i] {
			t.Fatalf("image %v, want %v", img, want)
		}
	}
	// Region draws the same square again from a fresh copy of the stream.
	c := Corruption{Kind: UniformOcclusion, MinSide: 2, Fill: 255}
	reg := c.Region(4, 3, rand.New(rand.NewPCG(5, 6)))
	var n int
	for i, in := range reg {
		if in != (img[i] >= 0) {
			t.Errorf("pixel %d: region %v, value %v", i, in, img[i])
		}
		if in {
			n++
		}
	}
	if n != 4 {
		t.Errorf("region of %d pixels, want 2·2", n)
	}
}

func TestCorruptionFunc(t *testing.T) {
	for _, tc := range []struct {
		c    Corruption
		w, h int
		want string
	}{
		{Corruption{Kind: BlackOcclusion, MinSide: 1, MaxSide: 2}, 0, 0, "no image size"},
		{Corruption{Kind: BlackOcclusion, MinSide: 2, MaxSide: 5}, 4, 4, "do not fit"},
		{Corruption{Kind: UniformOcclusion, MinSide: 2, MaxSide: 3}, 4, 4, "do not fit"},
		{Corruption{Kind: GaussianNoise, Std: -1}, 0, 0, "std"},
		{Corruption{Kind: MissingEntries, P: 2}, 0, 0, "probability"},
		{Corruption{Kind: 99}, 0, 0, "unknown"},
		{Corruption{Kind: GaussianNoise, Std: 0.1, Clip: true, Stretch: true}, 0, 0, "not both"},
	} {
		if _, err := tc.c.Func(tc.w, tc.h); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", tc.c, err, tc.want)
		}
	}
	if (Corruption{Kind: GaussianNoise}).Region(2, 2, nil) != nil {
		t.Error("noise has an occluded region")
	}
}

func TestCorruptionApply(t *testing.T) {
	set := &Set{Name: "s", X: mat.NewDense(3, 4, []float64{0, .1, .2, .3, .4, .5, .6, .7, .8, .9, 1, .5}), Labels: []int{2, 1, 0}, Width: 2, Height: 2}
	// No corruption: copies of the clean rows, labels and sources aligned.
	c, err := Corruption{Kind: NoCorruption, Copies: 2}.Apply(set, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := c.Noisy.Dims(); r != 6 || !mat.Equal(c.Noisy, c.Clean) || c.Source[3] != 1 || c.Labels[5] != 0 {
		t.Errorf("no corruption: %d rows, sources %v, labels %v", r, c.Source, c.Labels)
	}
	// Black occlusion through the description equals CorruptEach with
	// Occlude: the same draws.
	c, err = Corruption{Kind: BlackOcclusion, MinSide: 1, MaxSide: 2, Stretch: true}.Apply(set, 7)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := CorruptEach(set.X, 1, 7, Occlude(2, 2, 1, 2))
	if !mat.Equal(c.Noisy, want) {
		t.Errorf("black occlusion %v, want %v", mat.Formatted(c.Noisy), mat.Formatted(want))
	}
	// Gaussian noise with stretch lands on [0, 1] with min 0 and max 1.
	c, _ = Corruption{Kind: GaussianNoise, Std: 0.3, Stretch: true}.Apply(set, 3)
	for i := range 3 {
		row := c.Noisy.RawRowView(i)
		lo, hi := row[0], row[0]
		for _, v := range row {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if lo != 0 || hi != 1 {
			t.Errorf("row %d spans [%v, %v] after the stretch", i, lo, hi)
		}
	}
	if _, err := (Corruption{Kind: BlackOcclusion, MinSide: 1, MaxSide: 1}).Apply(&Set{Name: "flat", X: set.X}, 1); err == nil || !strings.Contains(err.Error(), "flat") {
		t.Errorf("occlusion of non-images: error %v", err)
	}
}

func TestAddNoiseMatchesAddGaussian(t *testing.T) {
	// One NormFloat64 per entry in order: AddNoise on a row draws what
	// AddGaussian draws on the same row from the same stream.
	x := mat.NewDense(1, 5, []float64{1, 2, 3, 4, 5})
	want := AddGaussian(x, 0.7, rand.New(rand.NewPCG(4, 4)))
	got := CorruptRows(x, AddNoise(0.7), func(int) *rand.Rand { return rand.New(rand.NewPCG(4, 4)) })
	if !mat.Equal(got, want) {
		t.Errorf("AddNoise %v, AddGaussian %v", got.RawRowView(0), want.RawRowView(0))
	}
	if x.At(0, 0) != 1 {
		t.Error("CorruptRows modified its input")
	}
}

func TestDeleteEntries(t *testing.T) {
	// DeleteEntries and MissingMask make the same draws: an entry is NaN
	// exactly where the mask is 0. With p = 0.5 over 1000 entries about
	// half are deleted (binomial std ≈ 16).
	img := make([]float64, 1000)
	mask := make([]float64, 1000)
	DeleteEntries(0.5)(img, rand.New(rand.NewPCG(8, 8)))
	MissingMask(mask, 0.5, rand.New(rand.NewPCG(8, 8)))
	var deleted int
	for j := range img {
		if math.IsNaN(img[j]) != (mask[j] == 0) {
			t.Fatalf("entry %d: value %v, mask %v", j, img[j], mask[j])
		}
		if mask[j] == 0 {
			deleted++
		}
	}
	if deleted < 420 || deleted > 580 {
		t.Errorf("%d of 1000 deleted at p = 0.5", deleted)
	}
	f, err := Corruption{Kind: MissingEntries, P: 0}.Func(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	f(img[:3:3], rand.New(rand.NewPCG(1, 1)))
	MissingMask(mask, 1, rand.New(rand.NewPCG(1, 1)))
	for _, v := range mask {
		if v != 0 {
			t.Fatal("p = 1 kept an entry")
		}
	}
}

func TestClip01(t *testing.T) {
	// By hand: below 0 → 0, above 1 → 1, inside unchanged (the ends
	// included), NaN (a deleted entry) stays NaN.
	x := []float64{-0.3, 0, 0.25, 1, 1.7, math.NaN(), -math.Inf(1), math.Inf(1)}
	Clip01(x)
	want := []float64{0, 0, 0.25, 1, 1, math.NaN(), 0, 1}
	for i := range x {
		if x[i] != want[i] && !(math.IsNaN(x[i]) && math.IsNaN(want[i])) {
			t.Errorf("entry %d: %v, want %v", i, x[i], want[i])
		}
	}
}

func TestCorruptionClip(t *testing.T) {
	// Gaussian noise then clipping, on one row drawn from a fixed stream:
	// the draws are one NormFloat64 per entry in order (AddNoise), replayed
	// here; the clipping is checked by hand on the replayed sums.
	img := []float64{0.1, 0.5, 0.9, 0.5, 0.5, 0.5}
	const std = 0.8
	got := append([]float64(nil), img...)
	f, err := Corruption{Kind: GaussianNoise, Std: std, Clip: true}.Func(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	f(got, rand.New(rand.NewPCG(3, 9)))
	r := rand.New(rand.NewPCG(3, 9))
	var clipped int
	for i, v := range img {
		sum := v + std*r.NormFloat64()
		want := sum
		if sum < 0 {
			want, clipped = 0, clipped+1
		} else if sum > 1 {
			want, clipped = 1, clipped+1
		}
		if got[i] != want {
			t.Errorf("entry %d: %v, want %v (noisy %v)", i, got[i], want, sum)
		}
	}
	if clipped == 0 || clipped == len(img) {
		t.Fatalf("%d of %d entries clipped: the case checks neither branch or only it", clipped, len(img))
	}
	// The same noise stretched instead: the row spans exactly [0, 1], and
	// the entries clipping left inside (0, 1) are moved by the stretch, so
	// the two readings differ.
	st := append([]float64(nil), img...)
	g, _ := Corruption{Kind: GaussianNoise, Std: std, Stretch: true}.Func(0, 0)
	g(st, rand.New(rand.NewPCG(3, 9)))
	same := true
	for i := range st {
		if got[i] > 0 && got[i] < 1 && st[i] != got[i] {
			same = false
		}
	}
	if same {
		t.Errorf("stretch %v equals clip %v on the unsaturated entries", st, got)
	}

	// A hand case with no randomness: std 0 and clip leave an image in
	// [0, 1] as it is, while stretch maps [0.2, 0.6] onto [0, 1]:
	// (0.2, 0.4, 0.6) → (0, 0.5, 1).
	c := []float64{0.2, 0.4, 0.6}
	f0, _ := Corruption{Kind: GaussianNoise, Clip: true}.Func(0, 0)
	f0(c, rand.New(rand.NewPCG(1, 1)))
	if c[0] != 0.2 || c[1] != 0.4 || c[2] != 0.6 {
		t.Errorf("std 0, clip: %v, want [0.2 0.4 0.6]", c)
	}
	s0, _ := Corruption{Kind: GaussianNoise, Stretch: true}.Func(0, 0)
	s0(c, rand.New(rand.NewPCG(1, 1)))
	if math.Abs(c[0]) > 1e-15 || math.Abs(c[1]-0.5) > 1e-15 || math.Abs(c[2]-1) > 1e-15 {
		t.Errorf("std 0, stretch: %v, want [0 0.5 1]", c)
	}
	// Through Apply, every copy of every row is clipped into [0, 1].
	set := &Set{Name: "s", X: mat.NewDense(2, 3, []float64{0, 0.5, 1, 0.2, 0.8, 0.4})}
	cor, err := Corruption{Kind: GaussianNoise, Std: 2, Clip: true, Copies: 3}.Apply(set, 5)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 6 {
		for _, v := range cor.Noisy.RawRowView(i) {
			if v < 0 || v > 1 {
				t.Fatalf("row %d holds %v after clipping", i, v)
			}
		}
	}
}
