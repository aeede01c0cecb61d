package datasets

import (
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"
)

// TestSyntheticImages checks the layout (class-major rows, labels, info),
// the range, determinism under a seed, and that classes are told apart:
// every image is nearer its own class mean than any other's, which the
// blob prototypes guarantee at this noise level.
func TestSyntheticImages(t *testing.T) {
	o := SyntheticImagesOptions{Classes: 4, Groups: 3, PerCell: 2, Width: 12, Height: 10, Noise: 0.02}
	set, info, err := SyntheticImages(o, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	n, d := set.X.Dims()
	if n != 24 || d != 120 || set.Width != 12 || set.Height != 10 || len(info) != 24 {
		t.Fatalf("got %d×%d (%d×%d), %d infos", n, d, set.Width, set.Height, len(info))
	}
	if info[7] != (SyntheticInfo{Class: 1, Group: 0}) || set.Labels[7] != 1 {
		t.Errorf("row 7 = %+v, label %d; want class 1 group 0", info[7], set.Labels[7])
	}
	if lo, hi := floats.Min(set.X.RawMatrix().Data), floats.Max(set.X.RawMatrix().Data); lo < 0 || hi > 1 {
		t.Errorf("values in [%v, %v], want within [0, 1]", lo, hi)
	}
	again, _, _ := SyntheticImages(o, rand.New(rand.NewPCG(1, 2)))
	if !floats.Equal(set.X.RawMatrix().Data, again.X.RawMatrix().Data) {
		t.Error("same seed, different images")
	}
	means := make([][]float64, o.Classes)
	per := float64(o.Groups * o.PerCell)
	for i := 0; i < n; i++ {
		c := set.Labels[i]
		if means[c] == nil {
			means[c] = make([]float64, d)
		}
		floats.AddScaled(means[c], 1/per, set.X.RawRowView(i))
	}
	for i := 0; i < n; i++ {
		own := floats.Distance(set.X.RawRowView(i), means[set.Labels[i]], 2)
		for c := range means {
			if c != set.Labels[i] && floats.Distance(set.X.RawRowView(i), means[c], 2) <= own {
				t.Errorf("image %d (class %d) is no nearer its class mean than class %d's", i, set.Labels[i], c)
			}
		}
	}
}

func TestSyntheticImagesBounds(t *testing.T) {
	for _, o := range []SyntheticImagesOptions{
		{Classes: 0, Groups: 1, PerCell: 1, Width: 4, Height: 4},
		{Classes: 1, Groups: 1, PerCell: 1, Width: 1, Height: 4},
		{Classes: 1, Groups: 1, PerCell: 1, Width: 4, Height: 4, Noise: -1},
		{Classes: 1000, Groups: 1000, PerCell: 10, Width: 32, Height: 32},
	} {
		if _, _, err := SyntheticImages(o, rand.New(rand.NewPCG(1, 2))); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}
