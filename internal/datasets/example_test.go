package datasets_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/runexp/runexp/internal/datasets"
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
