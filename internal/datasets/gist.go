package datasets

import (
	"fmt"
	"math"
	"sync"
)

// GISTOptions are the parameters of the GIST descriptor (Oliva & Torralba,
// IJCV 2001), named as in the authors' reference MATLAB code LMgist.m
// (param.imageSize, orientationsPerScale, numberBlocks, fc_prefilt,
// boundaryExtension). The zero value means the reference defaults, which
// Zheng et al. (2015) use for Scene 15: 256×256, 8 orientations at each of
// 4 scales, a 4×4 grid, fc = 4, 32 pixels of boundary extension: 512
// values.
// GISTVersion names the descriptor's definition. Caches of descriptors
// (runexp keeps Scene-15's in the run cache) include it in their key, so
// bump it whenever a change alters any descriptor value.
const GISTVersion = "1"

type GISTOptions struct {
	// ImageSize is the side the image is resized to (default 256).
	ImageSize int
	// Orientations lists the orientations per scale (default 8, 8, 8, 8).
	Orientations []int
	// Blocks is the grid size w: w×w averages per filter (default 4).
	Blocks int
	// FcPrefilt is the prefilter's cut-off (default 4).
	FcPrefilt float64
	// BoundaryExtension is the symmetric padding before the Gabor bank
	// (default 32).
	BoundaryExtension int
}

func (o GISTOptions) withDefaults() GISTOptions {
	if o.ImageSize == 0 {
		o.ImageSize = 256
	}
	if len(o.Orientations) == 0 {
		o.Orientations = []int{8, 8, 8, 8}
	}
	if o.Blocks == 0 {
		o.Blocks = 4
	}
	if o.FcPrefilt == 0 {
		o.FcPrefilt = 4
	}
	if o.BoundaryExtension == 0 {
		o.BoundaryExtension = 32
	}
	return o
}

// GIST computes GIST descriptors. A GIST holds the Gabor transfer functions
// and FFT plans and is safe for concurrent use; Descriptor calls reuse
// their FFT work space through a pool.
type GIST struct {
	opt GISTOptions
	// filters are the Gabor transfer functions on the padded size n×n,
	// DC at index 0 (createGabor.m after fftshift).
	filters [][]float64
	// cols[k] lists the columns x of filter k with any value above
	// gaborFloor, zeroCols[k] the others, which the inverse FFT skips.
	cols, zeroCols [][]int
	// ranges[k] are cols[k] as half-open intervals [x0, x1), and
	// compact[k] is filter k on those columns only, n×len(cols[k]).
	ranges  [][][2]int
	compact [][]float64
	// fft is the plan of the Gabor transforms' length nGabor.
	fft *batchFFT
	// pool holds *gistWork buffers, reused across Descriptor calls.
	pool sync.Pool
	// prefilt is the prefilter's Gaussian along one axis of its own padded
	// size: gf(fy, fx) = prefilt[y]·prefilt[x].
	prefilt []float64
	// fftPre is the plan of the prefilter's length nPre.
	fftPre *batchFFT
	nGabor int // ImageSize + 2·BoundaryExtension
	nPre   int // ImageSize + 2·5, rounded up to even (prefilt.m)
}

// gaborFloor is the transfer-function value below which a Gabor filter is
// treated as zero: a column of the filtered spectrum whose filter values
// are all below it contributes at most 1e-14 of the spectrum's magnitude,
// far below the descriptor's other rounding, and its inverse FFT is
// skipped (about a third of the work; BenchmarkGIST).
const gaborFloor = 1e-14

// prefiltPad is prefilt.m's w: 5 pixels of symmetric padding.
const prefiltPad = 5

// NewGIST builds the filter bank. It returns an error for impossible
// options (sizes below 1, a grid finer than the image).
func NewGIST(o GISTOptions) (*GIST, error) {
	o = o.withDefaults()
	if o.ImageSize < 8 || o.Blocks < 1 || o.Blocks > o.ImageSize || o.BoundaryExtension < 0 || !(o.FcPrefilt > 0) {
		return nil, fmt.Errorf("datasets: GIST options %+v are impossible", o)
	}
	for _, k := range o.Orientations {
		if k < 1 {
			return nil, fmt.Errorf("datasets: GIST: %d orientations at a scale; want at least 1", k)
		}
	}
	g := &GIST{opt: o, nGabor: o.ImageSize + 2*o.BoundaryExtension}
	g.nPre = o.ImageSize + 2*prefiltPad
	g.nPre += g.nPre % 2

	// createGabor.m: for scale i (from 1) with or orientations, filter j
	// (from 1) has parameters [0.35, 0.3/1.85^(i−1), 16·or²/32², π/or·(j−1)]
	// and transfer function
	// exp(−10·p1·(fr/n/p2 − 1)² − 2·p3·π·tr²), fr the radial frequency and
	// tr the angle minus the orientation wrapped to (−π, π].
	n := g.nGabor
	for i, or := range o.Orientations {
		for j := 0; j < or; j++ {
			f := gaborFilter(n, i, or, j)
			cols, zero, ranges := support(f, n)
			fc := make([]float64, 0, n*len(cols))
			for y := 0; y < n; y++ {
				for _, x := range cols {
					fc = append(fc, f[y*n+x])
				}
			}
			g.filters = append(g.filters, f)
			g.ranges = append(g.ranges, ranges)
			g.compact = append(g.compact, fc)
			g.cols = append(g.cols, cols)
			g.zeroCols = append(g.zeroCols, zero)
		}
	}
	// prefilt.m: gf = exp(−(fx² + fy²)/s1²), s1 = fc/√log 2, which is
	// exp(−fy²/s1²)·exp(−fx²/s1²): the filter is separable.
	s1 := o.FcPrefilt / math.Sqrt(math.Ln2)
	m := g.nPre
	g.prefilt = make([]float64, m)
	for i := range g.prefilt {
		f := float64(freqIndex(i, m))
		g.prefilt[i] = math.Exp(-(f * f) / (s1 * s1))
	}
	g.fftPre = newBatchFFT(m)
	g.fft = newBatchFFT(n)
	g.pool.New = func() any { return g.newWork() }
	return g, nil
}

// gaborFilter is the n×n transfer function of filter j (from 0) of scale
// i (from 0) with or orientations. createGabor.m: for scale i (from 1)
// with or orientations, filter j (from 1) has parameters [0.35,
// 0.3/1.85^(i−1), 16·or²/32², π/or·(j−1)] and transfer function
// exp(−10·p1·(fr/n/p2 − 1)² − 2·p3·π·tr²), fr the radial frequency and
// tr the angle minus the orientation wrapped to (−π, π].
func gaborFilter(n, i, or, j int) []float64 {
	p1 := 0.35
	p2 := 0.3 / math.Pow(1.85, float64(i))
	p3 := 16 * float64(or*or) / (32 * 32)
	p4 := math.Pi / float64(or) * float64(j)
	f := make([]float64, n*n)
	for y := 0; y < n; y++ {
		fy := float64(freqIndex(y, n))
		for x := 0; x < n; x++ {
			fx := float64(freqIndex(x, n))
			fr := math.Hypot(fx, fy)
			t := math.Atan2(fy, fx) + p4
			if t < -math.Pi {
				t += 2 * math.Pi
			} else if t > math.Pi {
				t -= 2 * math.Pi
			}
			u := fr/float64(n)/p2 - 1
			f[y*n+x] = math.Exp(-10*p1*u*u - 2*p3*math.Pi*t*t)
		}
	}
	return f
}

// support returns the columns of the n×n filter f with an entry above
// gaborFloor, the others, and the supported columns as ranges [from, to).
func support(f []float64, n int) (cols, zero []int, ranges [][2]int) {
	for x := 0; x < n; x++ {
		sup := false
		for y := 0; y < n; y++ {
			if f[y*n+x] > gaborFloor {
				sup = true
				break
			}
		}
		if sup {
			cols = append(cols, x)
		} else {
			zero = append(zero, x)
		}
	}
	for _, x := range cols {
		if l := len(ranges); l > 0 && ranges[l-1][1] == x {
			ranges[l-1][1]++
		} else {
			ranges = append(ranges, [2]int{x, x + 1})
		}
	}
	return cols, zero, ranges
}

// freqIndex is the signed frequency of FFT bin i of n: i for i < n/2,
// i − n otherwise (meshgrid(−n/2:n/2−1) after fftshift).
func freqIndex(i, n int) int {
	if i < n/2 {
		return i
	}
	return i - n
}

// Len returns the descriptor length: Blocks² × the number of filters.
func (g *GIST) Len() int { return g.opt.Blocks * g.opt.Blocks * len(g.filters) }

// symIndex maps a padded coordinate p (may be negative or ≥ n) to the
// source index under MATLAB's padarray 'symmetric' (the edge is repeated:
// −1 → 0, n → n−1).
func symIndex(p, n int) int {
	for p < 0 || p >= n {
		if p < 0 {
			p = -p - 1
		} else {
			p = 2*n - p - 1
		}
	}
	return p
}

// Descriptor returns the GIST of a grey image, following LMgist.m: resize
// to ImageSize × ImageSize (Gray.Resize, Catmull-Rom; the reference uses
// bilinear imresize, and crops non-square images, which Scene 15's 200×200
// re-encodes are not), scale the intensities to [0, 255] (min → 0, max →
// 255), prefilter (log, whitening and local contrast normalisation,
// prefilt.m), then for each Gabor filter average |ifft2(fft2(padded)·G)|
// over a Blocks × Blocks grid (gistGabor.m, downN.m). Values are ordered
// filter by filter, scale-major, each filter's grid column-major (MATLAB's
// v(:)). A constant image, which has no intensity range, gives an error.
func (g *GIST) Descriptor(img *Gray) ([]float64, error) {
	s := g.opt.ImageSize
	if img.Width != img.Height {
		return nil, fmt.Errorf("datasets: GIST of a %d×%d image; only square images are supported (LMgist crops, which this does not)", img.Width, img.Height)
	}
	im := img
	if img.Width != s {
		im = img.Resize(s, s)
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range im.Pix {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if !(hi > lo) {
		return nil, fmt.Errorf("datasets: GIST of a constant image")
	}
	ws := g.pool.Get().(*gistWork)
	defer g.pool.Put(ws)

	// img = 255·(img − min)/(max − min), then prefilt's log(img + 1).
	m := g.nPre
	pre, low, sq, out := ws.pre, ws.low, ws.sq, ws.out
	for y := 0; y < m; y++ {
		sy := symIndex(y-prefiltPad, s)
		for x := 0; x < m; x++ {
			sx := symIndex(x-prefiltPad, s)
			v := 255 * (im.Pix[sy*s+sx] - lo) / (hi - lo)
			pre[y*m+x] = math.Log(v + 1)
		}
	}
	// Whitening: output = img − real(ifft2(fft2(img)·gf)).
	g.lowpass(low, pre, ws)
	for i := range out {
		out[i] = pre[i] - low[i]
		sq[i] = out[i] * out[i]
	}
	// Local contrast normalisation: output/(0.2 + √|ifft2(fft2(output²)·gf)|).
	g.lowpass(low, sq, ws)
	for i := range out {
		out[i] /= 0.2 + math.Sqrt(math.Abs(low[i]))
	}

	// gistGabor.m: pad the cropped prefiltered image (rows and columns
	// prefiltPad … prefiltPad+s−1 of out) symmetrically by be, FFT,
	// filter, |ifft2|, crop, block averages.
	be, n := g.opt.BoundaryExtension, g.nGabor
	spec := ws.spec
	for y := 0; y < n; y++ {
		sy := symIndex(y-be, s) + prefiltPad
		for x := 0; x < n; x++ {
			spec[y*n+x] = complex(out[sy*m+symIndex(x-be, s)+prefiltPad], 0)
		}
	}
	ws.fg.forward(spec)
	w := g.opt.Blocks
	// downN.m: block edges fix(linspace(0, s, w+1)).
	edges := make([]int, w+1)
	for i := range edges {
		edges[i] = int(float64(s) * float64(i) / float64(w))
	}
	desc := make([]float64, 0, g.Len())
	norm := 1 / float64(n*n)
	for k := range g.filters {
		// ifft2 of spec·G, keeping the rows and columns be … be+s−1:
		// first along y for the columns where G has support (gathered
		// into an n×len(cols) matrix), then, transposed, along x for the
		// s rows wanted. T[x·s + r] is then the filtered image at row
		// be+r, column x.
		cols := g.cols[k]
		nc := len(cols)
		c := ws.c[:n*nc]
		fc := g.compact[k]
		for y := 0; y < n; y++ {
			srow, frow, crow := spec[y*n:(y+1)*n], fc[y*nc:(y+1)*nc], c[y*nc:(y+1)*nc]
			j := 0
			for _, rg := range g.ranges[k] {
				src := srow[rg[0]:rg[1]]
				fr, cr := frow[j:j+len(src)], crow[j:j+len(src)]
				for i, v := range src {
					// v·complex(f, 0) without the cross terms (which are
					// exact zeros).
					cr[i] = complex(real(v)*fr[i], imag(v)*fr[i])
				}
				j += len(src)
			}
		}
		ws.fg.f.transform(c, ws.tmp[:2*n*nc], nc, true)
		t := ws.t
		for _, x := range g.zeroCols[k] {
			clear(t[x*s : (x+1)*s])
		}
		// A blocked transpose: 16 rows of c at a time.
		const blk = 16
		for r0 := 0; r0 < s; r0 += blk {
			r1 := min(r0+blk, s)
			for j, x := range cols {
				tcol := t[x*s+r0 : x*s+r1]
				for i := range tcol {
					tcol[i] = c[(r0+i+be)*nc+j]
				}
			}
		}
		ws.fg.f.transform(t, ws.tmp[:2*n*s], s, true)
		// y(xx, yy) averages rows edges[xx]…, columns edges[yy]…; v(:) is
		// column-major: xx fastest.
		for by := 0; by < w; by++ {
			for bx := 0; bx < w; bx++ {
				var sum float64
				for cc := edges[by]; cc < edges[by+1]; cc++ {
					col := t[(cc+be)*s : (cc+be+1)*s]
					for r := edges[bx]; r < edges[bx+1]; r++ {
						v := col[r]
						sum += math.Sqrt(real(v)*real(v) + imag(v)*imag(v))
					}
				}
				desc = append(desc, norm*sum/float64((edges[bx+1]-edges[bx])*(edges[by+1]-edges[by])))
			}
		}
	}
	return desc, nil
}

// lowpass writes into dst real(ifft2(fft2(src)·gf)) for the prefilter's
// Gaussian gf on the nPre×nPre grid. gf is separable, real and even, so
// the filter maps real images to real images one axis at a time, and two
// real columns go through one complex FFT as its real and imaginary parts:
// four batched transforms of nPre/2 columns instead of four of nPre.
func (g *GIST) lowpass(dst, src []float64, ws *gistWork) {
	m := g.nPre
	h := m / 2
	pk, tmp, rt := ws.pk, ws.pktmp, ws.rt
	// filter1 filters the columns of the m×m real matrix a into the
	// transposed b (b[x·m + y] is the result at row y, column x).
	filter1 := func(b, a []float64) {
		for y := 0; y < m; y++ {
			row, prow := a[y*m:(y+1)*m], pk[y*h:(y+1)*h]
			for c := range prow {
				prow[c] = complex(row[2*c], row[2*c+1])
			}
		}
		g.fftPre.transform(pk, tmp, h, false)
		for y := 0; y < m; y++ {
			f := complex(g.prefilt[y]/float64(m), 0)
			prow := pk[y*h : (y+1)*h]
			for c := range prow {
				prow[c] *= f
			}
		}
		g.fftPre.transform(pk, tmp, h, true)
		for y := 0; y < m; y++ {
			for c, v := range pk[y*h : (y+1)*h] {
				b[2*c*m+y] = real(v)
				b[(2*c+1)*m+y] = imag(v)
			}
		}
	}
	filter1(rt, src) // along y; rt is transposed
	filter1(dst, rt) // along x; transposed back
}

// gistWork is one Descriptor call's work space, kept in GIST.pool.
type gistWork struct {
	fg                *fft2
	pre, out, low, sq []float64
	rt                []float64
	pk, pktmp         []complex128
	spec              []complex128
	c, t, tmp         []complex128
}

func (g *GIST) newWork() *gistWork {
	m, n, s := g.nPre, g.nGabor, g.opt.ImageSize
	return &gistWork{
		fg:    &fft2{n: n, f: g.fft, tmp: make([]complex128, 2*n*n), tra: make([]complex128, n*n)},
		pre:   make([]float64, m*m),
		out:   make([]float64, m*m),
		low:   make([]float64, m*m),
		sq:    make([]float64, m*m),
		rt:    make([]float64, m*m),
		pk:    make([]complex128, m*(m/2)),
		pktmp: make([]complex128, 2*m*(m/2)),
		spec:  make([]complex128, n*n),
		c:     make([]complex128, n*n),
		t:     make([]complex128, n*s),
		tmp:   make([]complex128, 2*n*n),
	}
}
