package metrics

import "fmt"

// GradientEnergy returns the energy of an image's fine detail: the sum of
// its squared forward differences along rows and columns,
//
//	Σ_{r,c} (x[r][c+1] − x[r][c])² + (x[r+1][c] − x[r][c])²,
//
// differences taken inside the w×h image (x row-major: pixel (r, c) at
// r·w + c, as datasets store images). Edges, texture and noise all add to
// it; a smooth image has little.
func GradientEnergy(x []float64, w, h int) float64 {
	checkImage(len(x), w, h)
	var s float64
	for r := range h {
		for c := range w {
			v := x[r*w+c]
			if c+1 < w {
				d := x[r*w+c+1] - v
				s += d * d
			}
			if r+1 < h {
				d := x[(r+1)*w+c] - v
				s += d * d
			}
		}
	}
	return s
}

// DetailRatio returns GradientEnergy(z)/GradientEnergy(x), the fine detail
// of a reconstruction z relative to that of the clean image x: below 1, z
// is smoother than x (over-smoothed: edges and texture lost); above 1, it
// is rougher (noise left in or added). NaN when x is constant.
func DetailRatio(z, x []float64, w, h int) float64 {
	return GradientEnergy(z, w, h) / GradientEnergy(x, w, h)
}

// DetailError returns ‖∇z − ∇x‖²/‖∇x‖², the squared error of z's forward
// differences against the clean image x's, relative to x's detail
// energy: how much of x's fine detail z gets wrong, whether it smoothed
// the detail away or left noise on it (0 when z's differences are x's;
// 1 for a constant z). NaN when x is constant.
func DetailError(z, x []float64, w, h int) float64 {
	checkImage(len(z), w, h)
	d := make([]float64, len(z))
	for i := range d {
		d[i] = z[i] - x[i]
	}
	return GradientEnergy(d, w, h) / GradientEnergy(x, w, h)
}

func checkImage(n, w, h int) {
	if w < 1 || h < 1 || n != w*h {
		panic(fmt.Sprintf("metrics: %d pixels for a %d×%d image", n, w, h))
	}
}
