package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// SyntheticImagesOptions describes a small seeded labelled image set that
// stands in for a face database in tests: Classes "subjects" each seen
// under Groups "conditions" (a lighting direction and a shift), PerCell
// images of each subject under each condition. It exists so that every
// experiment kind runs end to end without a data root; it is not a model
// of any real data set.
type SyntheticImagesOptions struct {
	Classes, Groups, PerCell int
	Width, Height            int
	// Noise is the standard deviation of the per-image pixel noise, in
	// the [0, 1] intensity scale.
	Noise float64
}

// SyntheticInfo gives, for each image of a synthetic set, its class
// (subject) and group (condition).
type SyntheticInfo struct {
	Class, Group int
}

// MaxSyntheticValues bounds Classes·Groups·PerCell·Width·Height, so a
// config cannot ask for more memory than a test machine has.
const MaxSyntheticValues = 1 << 24

func (o SyntheticImagesOptions) validate() error {
	switch {
	case o.Classes < 1 || o.Groups < 1 || o.PerCell < 1:
		return fmt.Errorf("datasets: synthetic images: classes %d, groups %d, per cell %d; each must be at least 1", o.Classes, o.Groups, o.PerCell)
	case o.Width < 2 || o.Height < 2:
		return fmt.Errorf("datasets: synthetic images: %d×%d pixels; each side must be at least 2", o.Width, o.Height)
	case !(o.Noise >= 0) || math.IsInf(o.Noise, 0):
		return fmt.Errorf("datasets: synthetic images: noise %v; want a finite standard deviation ≥ 0", o.Noise)
	}
	n := float64(o.Classes) * float64(o.Groups) * float64(o.PerCell) * float64(o.Width) * float64(o.Height)
	if n > MaxSyntheticValues {
		return fmt.Errorf("datasets: synthetic images: %g pixel values in all, above the limit %d", n, MaxSyntheticValues)
	}
	return nil
}

// SyntheticImages draws the set from rnd. Each class is a sum of three
// Gaussian blobs at class-specific places; each group multiplies it by a
// linear lighting ramp in a group-specific direction and shifts it by up
// to one pixel; each image adds independent noise and is clipped to
// [0, 1]. Rows are ordered class-major, then group, then copy; Labels
// hold the class, and the returned info both class and group.
func SyntheticImages(o SyntheticImagesOptions, rnd *rand.Rand) (*Set, []SyntheticInfo, error) {
	if err := o.validate(); err != nil {
		return nil, nil, err
	}
	w, h := o.Width, o.Height
	type blob struct{ x, y, s, a float64 }
	protos := make([][3]blob, o.Classes)
	for c := range protos {
		for b := range protos[c] {
			protos[c][b] = blob{
				x: (0.2 + 0.6*rnd.Float64()) * float64(w),
				y: (0.2 + 0.6*rnd.Float64()) * float64(h),
				s: (0.12 + 0.1*rnd.Float64()) * float64(min(w, h)),
				a: 0.4 + 0.5*rnd.Float64(),
			}
		}
	}
	type light struct{ dx, dy, sx, sy float64 }
	lights := make([]light, o.Groups)
	for g := range lights {
		th := 2 * math.Pi * float64(g) / float64(o.Groups)
		lights[g] = light{dx: math.Cos(th), dy: math.Sin(th), sx: rnd.Float64()*2 - 1, sy: rnd.Float64()*2 - 1}
	}
	n := o.Classes * o.Groups * o.PerCell
	x := mat.NewDense(n, w*h, nil)
	labels := make([]int, n)
	info := make([]SyntheticInfo, n)
	row := 0
	for c := 0; c < o.Classes; c++ {
		for g := 0; g < o.Groups; g++ {
			l := lights[g]
			for k := 0; k < o.PerCell; k++ {
				img := x.RawRowView(row)
				for i := 0; i < h; i++ {
					for j := 0; j < w; j++ {
						px, py := float64(j)-l.sx, float64(i)-l.sy
						var v float64
						for _, b := range protos[c] {
							d2 := (px-b.x)*(px-b.x) + (py-b.y)*(py-b.y)
							v += b.a * math.Exp(-d2/(2*b.s*b.s))
						}
						ramp := 0.75 + 0.25*(l.dx*(2*float64(j)/float64(w-1)-1)+l.dy*(2*float64(i)/float64(h-1)-1))
						v = v*ramp + o.Noise*rnd.NormFloat64()
						img[i*w+j] = min(1, max(0, v))
					}
				}
				labels[row] = c
				info[row] = SyntheticInfo{Class: c, Group: g}
				row++
			}
		}
	}
	names := make([]string, o.Classes)
	for c := range names {
		names[c] = fmt.Sprintf("class%02d", c)
	}
	return &Set{Name: "synthetic-images", X: x, Labels: labels, LabelNames: names, Width: w, Height: h}, info, nil
}
