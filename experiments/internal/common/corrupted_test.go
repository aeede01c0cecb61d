package common

import (
	"math"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

// These tests exercise Corrupt as the kinds call it; they go with Corrupt
// if it moves to internal/datasets.

func corruptEnv(t *testing.T, corruption string) *runner.Env {
	t.Helper()
	c, err := config.Parse("c.yaml", []byte("title: t\npaper: p\nkind: k\nseed: 3\ndataset: {name: two-rings}\ncorruption: "+corruption+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	return runner.NewEnv(c, "", nil)
}

func imageSet() *datasets.Set {
	x := mat.NewDense(3, 4, nil)
	for i := 0; i < 3; i++ {
		for j := 0; j < 4; j++ {
			x.Set(i, j, 0.1*float64(i+j))
		}
	}
	return &datasets.Set{Name: "tiny", X: x, Labels: []int{7, 8, 9}, Width: 2, Height: 2}
}

// TestCorruptRows: every copy of every image keeps its source row and
// label; none leaves the images as they are; Gaussian noise is reproducible
// and changes every pixel; stretch maps each image onto [0, 1].
func TestCorruptRows(t *testing.T) {
	set := imageSet()
	cor, err := Corrupt(corruptEnv(t, "{type: none, copies: 2}"), set)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := cor.Noisy.Dims(); r != 6 || len(cor.Source) != 6 || len(cor.Labels) != 6 {
		t.Fatalf("%d rows, %d sources, %d labels; want 6", r, len(cor.Source), len(cor.Labels))
	}
	for i, j := range cor.Source {
		if !mat.Equal(cor.Noisy.RowView(i), set.X.RowView(j)) || !mat.Equal(cor.Clean.RowView(i), set.X.RowView(j)) || cor.Labels[i] != set.Labels[j] {
			t.Errorf("row %d from %d: noisy %v clean %v label %d", i, j, cor.Noisy.RawRowView(i), cor.Clean.RawRowView(i), cor.Labels[i])
		}
	}
	a, err := Corrupt(corruptEnv(t, "{type: gaussian, std: 0.5}"), set)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Corrupt(corruptEnv(t, "{type: gaussian, std: 0.5}"), set)
	if !mat.Equal(a.Noisy, b.Noisy) {
		t.Error("the same seed gives other noise")
	}
	for i := 0; i < 3; i++ {
		for j, v := range a.Noisy.RawRowView(i) {
			if v == set.X.At(i, j) {
				t.Errorf("pixel (%d, %d) has no noise", i, j)
			}
		}
	}
	s, err := Corrupt(corruptEnv(t, "{type: gaussian, std: 0.5, stretch: true}"), set)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 3; i++ {
		row := s.Noisy.RawRowView(i)
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range row {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if lo != 0 || hi != 1 {
			t.Errorf("stretched row %d spans [%g, %g]", i, lo, hi)
		}
	}
}

// TestCorruptOcclusion: a rectangle that fits the images is accepted; a
// set without an image size, or a rectangle larger than the images, is an
// error.
func TestCorruptOcclusion(t *testing.T) {
	set := imageSet()
	if _, err := Corrupt(corruptEnv(t, "{type: occlusion, min_side: 1, max_side: 2}"), set); err != nil {
		t.Fatal(err)
	}
	flat := *set
	flat.Width, flat.Height = 0, 0
	if _, err := Corrupt(corruptEnv(t, "{type: occlusion, min_side: 1, max_side: 2}"), &flat); err == nil || !strings.Contains(err.Error(), "no image size") {
		t.Errorf("no image size: %v", err)
	}
	if _, err := Corrupt(corruptEnv(t, "{type: occlusion, min_side: 1, max_side: 3}"), set); err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Errorf("a 3-pixel side on 2×2 images: %v", err)
	}
}
