package datasets_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/runexp/runexp/internal/datasets"
	"gonum.org/v1/gonum/mat"
)

func ExampleTwoRings() {
	// Two full rings of radius 1 and 2 with a little noise, as in
	// Abrahamsen & Hansen's Fig. 2. The data need no data root.
	o := datasets.RingsOptions{
		N:        301,
		Radii:    [2]float64{1, 2},
		Noise:    0.05,
		ArcStart: [2]float64{0, 0},
		ArcEnd:   [2]float64{360, 360},
	}
	set, err := datasets.TwoRings(o, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		log.Fatal(err)
	}
	rows, cols := set.X.Dims()
	var count [2]int
	for _, l := range set.Labels {
		count[l]++
	}
	fmt.Printf("%s: %d×%d\n", set.Name, rows, cols)
	fmt.Printf("ring 0: %d points, ring 1: %d points\n", count[0], count[1])

	// Corrupt a copy with more noise; the clean set is left as it was.
	noisy := datasets.AddGaussian(set.X, 0.1, rand.New(rand.NewPCG(2, 2)))
	r, c := noisy.Dims()
	fmt.Printf("noisy copy: %d×%d\n", r, c)

	// Output:
	// two-rings: 301×2
	// ring 0: 151 points, ring 1: 150 points
	// noisy copy: 301×2
}

func ExampleCorruptEach() {
	// Three 4×3 "faces"; Zheng & Lai make two noisy and two occluded
	// copies of each, every one stretched to [0, 1].
	faces := mat.NewDense(3, 12, nil)
	for i := range 3 {
		for j := range 12 {
			faces.Set(i, j, float64(i+j)/14)
		}
	}
	const seed = 7 // in a run: derived from the cell's stream
	noisy, src := datasets.CorruptEach(faces, 2, seed, datasets.GaussianStretch(0.5))
	occluded, _ := datasets.CorruptEach(faces, 2, seed, datasets.Occlude(4, 3, 1, 2))
	r, c := noisy.Dims()
	fmt.Printf("noisy: %d×%d, sources %v, values in [%g, %g]\n", r, c, src, mat.Min(noisy), mat.Max(noisy))

	// The rectangle of occluded row 5 (copy 1 of face 2), drawn again.
	x0, y0, w, h := datasets.OcclusionRect(4, 3, 1, 2, datasets.CorruptionRand(seed, src[5], 5%2))
	black := 0
	for _, v := range occluded.RawRowView(5) {
		if v == 0 {
			black++
		}
	}
	fmt.Printf("row 5: %d×%d rectangle at (%d, %d), %d black pixels\n", w, h, x0, y0, black)

	// Output:
	// noisy: 6×12, sources [0 0 1 1 2 2], values in [0, 1]
	// row 5: 2×1 rectangle at (2, 1), 2 black pixels
}
