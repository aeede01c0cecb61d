package datasets

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// RingsOptions describes the two-ring data of Abrahamsen & Hansen, Figs. 2
// and 3. The per-ring fields are fixed-size arrays indexed by ring (0 and 1)
// so a config cannot give three radii and two arcs.
type RingsOptions struct {
	// N is the total number of points, at least 2. Ring 0 gets N−N/2
	// points and ring 1 gets N/2, so ring 0 has the extra point when N is
	// odd.
	N int
	// Radii are the ring radii, e.g. {1, 2}; both must be positive.
	Radii [2]float64
	// Noise is the standard deviation of the isotropic Gaussian noise
	// added to each point; 0 puts the points exactly on the circles.
	Noise float64
	// ArcStart and ArcEnd are, in degrees, the start and end angles of
	// each ring's arc; angles are drawn uniformly in [ArcStart, ArcEnd).
	// ArcEnd−ArcStart must be in (0, 360]; 360 gives a full ring.
	ArcStart, ArcEnd [2]float64
	// Centre is the common centre of both rings; the zero value is the
	// origin.
	Centre [2]float64
}

func (o RingsOptions) validate() error {
	if o.N < 2 {
		return fmt.Errorf("datasets: two rings: N is %d; it must be at least 2 (one point per ring)", o.N)
	}
	for i, r := range o.Radii {
		if !(r > 0) || math.IsInf(r, 0) {
			return fmt.Errorf("datasets: two rings: radius of ring %d is %v; it must be positive and finite", i, r)
		}
	}
	if !(o.Noise >= 0) || math.IsInf(o.Noise, 0) {
		return fmt.Errorf("datasets: two rings: noise is %v; it must be a finite standard deviation >= 0", o.Noise)
	}
	for i := range 2 {
		s, e := o.ArcStart[i], o.ArcEnd[i]
		if math.IsNaN(s) || math.IsInf(s, 0) || math.IsNaN(e) || math.IsInf(e, 0) {
			return fmt.Errorf("datasets: two rings: arc of ring %d is [%v, %v); both ends must be finite", i, s, e)
		}
		if l := e - s; !(l > 0 && l <= 360) {
			return fmt.Errorf("datasets: two rings: arc of ring %d is [%v, %v) degrees, %v long; the length must be in (0, 360], 360 for a full ring", i, s, e, l)
		}
	}
	for i, c := range o.Centre {
		if math.IsNaN(c) || math.IsInf(c, 0) {
			return fmt.Errorf("datasets: two rings: centre coordinate %d is %v; it must be finite", i, c)
		}
	}
	return nil
}

// TwoRings draws the two-ring data set: N×2 points, Labels the ring index
// (0 or 1), Name "two-rings". It needs no data root.
//
// Points are generated ring 0 first, then ring 1. For each point rnd is used
// three times, in this order: the angle θ = start + (end−start)·rnd.Float64(),
// then the x and y noise as Noise·rnd.NormFloat64(). The noise is drawn even
// when Noise is 0, so for a given seed the angles do not depend on the noise
// level and a sweep over Noise perturbs the same underlying points.
//
// Invalid options are returned as an error.
func TwoRings(o RingsOptions, rnd *rand.Rand) (*Set, error) {
	if err := o.validate(); err != nil {
		return nil, err
	}
	if rnd == nil {
		return nil, errors.New("datasets: two rings: nil random generator")
	}
	counts := [2]int{o.N - o.N/2, o.N / 2}
	x := mat.NewDense(o.N, 2, nil)
	labels := make([]int, 0, o.N)
	row := 0
	for ring, n := range counts {
		r := o.Radii[ring]
		start := o.ArcStart[ring] * math.Pi / 180
		length := (o.ArcEnd[ring] - o.ArcStart[ring]) * math.Pi / 180
		for range n {
			theta := start + length*rnd.Float64()
			ex := o.Noise * rnd.NormFloat64()
			ey := o.Noise * rnd.NormFloat64()
			x.Set(row, 0, o.Centre[0]+r*math.Cos(theta)+ex)
			x.Set(row, 1, o.Centre[1]+r*math.Sin(theta)+ey)
			labels = append(labels, ring)
			row++
		}
	}
	return &Set{Name: "two-rings", X: x, Labels: labels}, nil
}
