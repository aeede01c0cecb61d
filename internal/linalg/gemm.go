package linalg

import (
	"sync"

	"github.com/runexp/runexp/internal/par"
)

// The product's rounding, fixed by definition rather than by the code
// that computes it. Gemm sets, for every element of C,
//
//	s ← β·c_ij              (β = 1: s ← c_ij; β = 0: s ← +0, whatever c_ij was)
//	s ← fma(α·a_il, b_lj, s)  for l = 0, 1, …, k−1 in this order
//	c_ij ← s
//
// with op(A) = (a_il) and op(B) = (b_lj), α·a_il rounded once (α = 1:
// a_il itself, α = −1: its negation, both exact), and fma the fused
// multiply-add, correctly rounded (IEEE 754 fusedMultiplyAdd, Go's
// math.FMA). α = 0 or k = 0 leaves c_ij ← β·c_ij (β = 0: +0) without
// reading A or B, as BLAS does.
//
// One chain of fused multiply-adds per element, in the order of l: that
// is exactly what a register-blocked micro-kernel does (each accumulator
// register holds elements of C and takes one FMA per step of the inner
// dimension), and it does not depend on how the product is cut into
// blocks. A block of the inner dimension leaves its partial sums in C and
// the next block continues from them; the sums are float64 either way,
// so nothing is rounded twice. So the bits of C depend on neither the
// block sizes, nor the shape of the micro-kernel, nor the vector width
// (AVX2 or AVX-512 or scalar), nor the number of goroutines, nor the
// order in which the tiles are computed: the AVX2 kernel, the AVX-512
// kernel and the pure-Go kernel (math.FMA) give the same bits on every
// machine, which TestGemmKernelsAgree checks on shapes that exercise
// every edge. The block sizes below are constants all the same, so that
// the memory a product needs does not depend on the machine either.
//
// Its error is that of any recursive summation with one rounding per
// term: |ĉ_ij − c_ij| ≤ γ_k Σ_l |a_il||b_lj| with γ_k = k·u/(1 − k·u),
// u = 2⁻⁵³ (Higham, Accuracy and Stability of Numerical Algorithms, 2nd
// ed., §3.1, eq. 3.5; a fused multiply-add rounds once where a product
// and a sum round twice, so the bound holds with room to spare).

// Block sizes of the packed product (Goto & van de Geijn, "Anatomy of
// high-performance matrix multiplication", ACM TOMS 34(3), 2008): a
// gemmKC-deep micro-panel of op(B) (gemmKC·nr doubles, 16 KiB for nr =
// 8) stays in the L1 cache while the micro-kernel runs down a packed
// gemmMC×gemmKC block of op(A) (288 KiB, in L2); a task computes one
// gemmMC×gemmNC block of C. gemmMC is a multiple of every micro-kernel's
// row count (4, 6, 8, 12, 16).
const (
	gemmKC = 256
	gemmMC = 192
	gemmNC = 3072
)

// gemmMinPar is the number of multiply-adds below which a product runs on
// the calling goroutine: starting helpers costs more than it saves.
const gemmMinPar = 1 << 18

// microKernel computes one mr×nr tile: c (row stride ldc) ← c (load) or
// 0 (!load), then kc fused multiply-adds per element from the packed
// micro-panels a (kc×mr: a[l·mr+r] = α·a_{r,l}) and b (kc×nr: b[l·nr+j]).
type microKernel struct {
	mr, nr int
	name   string
	tile   func(kc int, a, b, c []float64, ldc int, load bool)
	pools  *kernelPools // its packing buffers
}

// goKernel is the pure-Go micro-kernel, used where no assembly kernel
// runs (another architecture, no AVX2 and FMA, the noasm build tag, or
// RUNEXP_NOASM=1).
var goKernel = microKernel{mr: 4, nr: 4, name: "go", tile: tileGo4x4, pools: newKernelPools(4, 4)}

// gemmKernel is the micro-kernel Gemm uses; the assembly kernels replace
// goKernel at init where the CPU has them (gemm_amd64.go).
var gemmKernel = goKernel

// KernelName names the micro-kernel products use on this machine: "avx2",
// "avx512" or "go". The bits are the same whichever it is.
func KernelName() string { return gemmKernel.name }

// Gemm computes C = α·op(A)·op(B) + β·C under the rounding contract above
// for row-major matrices: op(A) is m×k (A itself with leading dimension
// lda, or Aᵀ for tA), op(B) is k×n, C is m×n with leading dimension ldc.
// The arguments must be valid (Implementation.Dgemm checks them).
func Gemm(tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	gemmWith(gemmKernel, tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func gemmWith(kern microKernel, tA, tB bool, m, n, k int, alpha float64, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	op := gemmOp{kern: kern, tA: tA, tB: tB, alpha: alpha, a: a, lda: lda, b: b, ldb: ldb, c: c, ldc: ldc}
	op.run(m, n, k, beta, nil)
}

// run computes the product, with op(B)'s panels from pre (PackB), or
// packed here when pre is nil.
func (op *gemmOp) run(m, n, k int, beta float64, pre *PackedB) {
	if m == 0 || n == 0 {
		return
	}
	if op.alpha == 0 || k == 0 {
		scaleC(m, n, beta, op.c, op.ldc)
		return
	}
	if beta != 1 && beta != 0 {
		scaleC(m, n, beta, op.c, op.ldc)
	}
	kern := op.kern
	parallel := m*n*k >= gemmMinPar && m > gemmMC
	var pb *panels
	if pre == nil {
		pb = kern.pools.b.Get().(*panels)
		defer kern.pools.b.Put(pb)
	}
	bm := (m + gemmMC - 1) / gemmMC
	for j0, jb := 0, 0; j0 < n; j0, jb = j0+gemmNC, jb+1 {
		nc := min(gemmNC, n-j0)
		for p0, pbk := 0, 0; p0 < k; p0, pbk = p0+gemmKC, pbk+1 {
			kc := min(gemmKC, k-p0)
			var bpanel []float64
			if pre != nil {
				bpanel = pre.panel(jb, pbk)
			} else {
				bpanel = pb.sized(kc * roundUp(nc, kern.nr))
				op.packB(bpanel, p0, j0, kc, nc)
			}
			blk := gemmBlock{bpanel: bpanel, j0: j0, nc: nc, p0: p0, kc: kc, m: m, load: beta != 0 || p0 > 0}
			if !parallel {
				pa := kern.pools.a.Get().(*panels)
				for t := range bm {
					op.rows(pa, &blk, t)
				}
				kern.pools.a.Put(pa)
				continue
			}
			// The helpers get copies of op and blk, so that the
			// serial path, which the fixed points' small products
			// take at every step, allocates neither.
			pop, pblk := *op, blk
			par.Run(bm, func(next func() (int, bool)) {
				pa := kern.pools.a.Get().(*panels)
				defer kern.pools.a.Put(pa)
				for t, ok := next(); ok; t, ok = next() {
					pop.rows(pa, &pblk, t)
				}
			})
		}
	}
}

// gemmBlock is one packed block of op(B) and where it sits in the product.
type gemmBlock struct {
	bpanel []float64
	j0, nc int // its columns
	p0, kc int // its rows (the inner dimension)
	m      int // the product's rows
	load   bool
}

// rows computes the t-th block of gemmMC rows of C against blk with A's
// packing buffer pa.
func (op *gemmOp) rows(pa *panels, blk *gemmBlock, t int) {
	i0 := t * gemmMC
	mc := min(gemmMC, blk.m-i0)
	buf := pa.sized(blk.kc * roundUp(mc, op.kern.mr))
	op.packA(buf, i0, blk.p0, mc, blk.kc)
	op.macro(buf, blk.bpanel, pa.tile, i0, blk.j0, mc, blk.nc, blk.kc, blk.load)
}

// PackedB is the right operand op(B) (k×n) of products packed once, for a
// caller that multiplies many left operands by the same matrix (the fixed
// points' kernel rows z·Xᵀ against the training set X, at every step):
// packing op(B) costs as much as a product with a few rows. The panels
// are those Gemm would pack, so GemmPacked gives Gemm's bits. A PackedB
// is for the micro-kernel in use when it was packed.
type PackedB struct {
	kern   microKernel
	k, n   int
	panels [][]float64 // one per (block of gemmNC columns, block of gemmKC rows)
	kb     int         // blocks of gemmKC rows
}

// PackB packs op(B), k×n: B itself (row-major, leading dimension ldb), or
// Bᵀ for tB (B n×k).
func PackB(tB bool, k, n int, b []float64, ldb int) *PackedB {
	return PackBTo(nil, tB, k, n, b, ldb)
}

// PackBTo is PackB into p, whose panels it reuses where they are large
// enough (a caller packing one operand after another, such as a fit per
// partition, allocates once); p nil allocates a new PackedB. It returns
// the packed operand, p unless p is nil.
func PackBTo(p *PackedB, tB bool, k, n int, b []float64, ldb int) *PackedB {
	if p == nil {
		p = new(PackedB)
	}
	op := gemmOp{kern: gemmKernel, tB: tB, b: b, ldb: ldb}
	old := p.panels
	*p = PackedB{kern: gemmKernel, k: k, n: n, kb: (k + gemmKC - 1) / gemmKC, panels: old[:0]}
	i := 0
	for j0 := 0; j0 < n; j0 += gemmNC {
		nc := min(gemmNC, n-j0)
		for p0 := 0; p0 < k; p0 += gemmKC {
			kc := min(gemmKC, k-p0)
			size := kc * roundUp(nc, gemmKernel.nr)
			var buf []float64
			if i < len(old) && cap(old[i]) >= size {
				buf = old[i][:size] // packB writes every element, padding included
			} else {
				buf = make([]float64, size)
			}
			op.packB(buf, p0, j0, kc, nc)
			p.panels = append(p.panels, buf) // at index i: old[i] was read
			i++
		}
	}
	return p
}

// Dims returns op(B)'s dimensions k×n.
func (p *PackedB) Dims() (k, n int) { return p.k, p.n }

func (p *PackedB) panel(jb, pbk int) []float64 { return p.panels[jb*p.kb+pbk] }

// GemmPacked computes C = α·op(A)·op(B) + β·C as Gemm does, with op(B)
// packed by PackB: op(A) is m×k, C m×n, k×n being pb's dimensions.
func GemmPacked(tA bool, m int, alpha float64, a []float64, lda int, pb *PackedB, beta float64, c []float64, ldc int) {
	if pb.kern.name != gemmKernel.name {
		panic("linalg: a PackedB used with another micro-kernel than it was packed for")
	}
	op := gemmOp{kern: pb.kern, tA: tA, alpha: alpha, a: a, lda: lda, c: c, ldc: ldc}
	op.run(m, pb.n, pb.k, beta, pb)
}

func roundUp(x, to int) int { return (x + to - 1) / to * to }

// panels is a packing buffer and an edge tile.
type panels struct {
	buf, tile []float64
}

// kernelPools are a micro-kernel's pools of packing buffers, for blocks
// of op(A) (a) and of op(B) (b).
type kernelPools struct{ a, b sync.Pool }

// newKernelPools returns the pools for micro-kernels of shape mr×nr.
func newKernelPools(mr, nr int) *kernelPools {
	p := &kernelPools{}
	p.a.New = func() any { return &panels{tile: make([]float64, mr*nr)} }
	p.b.New = func() any { return new(panels) }
	return p
}

// sized returns p's buffer with room for n elements: sized by what a
// product needs, not by the largest block, because a pool is emptied at
// every garbage collection and the fixed points' small products would
// otherwise allocate (and clear) megabytes again each time.
func (p *panels) sized(n int) []float64 {
	if cap(p.buf) < n {
		p.buf = make([]float64, n)
	}
	return p.buf[:n]
}

// scaleC sets C ← β·C, and C ← +0 for β = 0 (NaNs in C included).
func scaleC(m, n int, beta float64, c []float64, ldc int) {
	if beta == 1 {
		return
	}
	for i := range m {
		row := c[i*ldc : i*ldc+n]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

// gemmOp is one product's operands.
type gemmOp struct {
	kern   microKernel
	tA, tB bool
	alpha  float64
	a      []float64
	lda    int
	b      []float64
	ldb    int
	c      []float64
	ldc    int
}

// macro runs the micro-kernel over an mc×nc block of C from packed
// panels of depth kc.
func (op *gemmOp) macro(pa, pb, tile []float64, i0, j0, mc, nc, kc int, load bool) {
	mr, nr := op.kern.mr, op.kern.nr
	c, ldc := op.c, op.ldc
	bpanels, apanels := pb, pa
	for jr := 0; jr < nc; jr += nr {
		pb := bpanels[jr*kc : (jr+nr)*kc]
		cols := min(nr, nc-jr)
		for ir := 0; ir < mc; ir += mr {
			pa := apanels[ir*kc : (ir+mr)*kc]
			rows := min(mr, mc-ir)
			off := (i0+ir)*ldc + j0 + jr
			if rows == mr && cols == nr {
				op.kern.tile(kc, pa, pb, c[off:off+(mr-1)*ldc+nr], ldc, load)
				continue
			}
			// An edge tile: through a full one, whose extra rows and
			// columns (from the zero padding of the panels) are dropped.
			if load {
				clear(tile)
				for r := range rows {
					copy(tile[r*nr:r*nr+cols], c[off+r*ldc:off+r*ldc+cols])
				}
			}
			op.kern.tile(kc, pa, pb, tile, nr, load)
			for r := range rows {
				copy(c[off+r*ldc:off+r*ldc+cols], tile[r*nr:r*nr+cols])
			}
		}
	}
}

// packA packs the mc×kc block of α·op(A) at (i0, p0) into micro-panels
// of mr rows, each kc×mr (a[l·mr+r]), the last padded with zeros.
func (op *gemmOp) packA(dst []float64, i0, p0, mc, kc int) {
	mr := op.kern.mr
	a, lda, alpha := op.a, op.lda, op.alpha
	for ir := 0; ir < mc; ir += mr {
		panel := dst[ir*kc : (ir+mr)*kc]
		rows := min(mr, mc-ir)
		if !op.tA && mr == 8 && alpha == 1 {
			packA8(panel, a, (i0+ir)*lda+p0, lda, rows, kc)
			continue
		}
		if rows < mr {
			clear(panel)
		}
		if op.tA {
			// a_il = A[l, i]: row l of A holds the panel's step l.
			for l := range kc {
				src := a[(p0+l)*lda+i0+ir : (p0+l)*lda+i0+ir+rows]
				d := panel[l*mr : l*mr+rows]
				if alpha == 1 {
					copy(d, src)
					continue
				}
				for r, v := range src {
					d[r] = alpha * v
				}
			}
			continue
		}
		for r := range rows {
			src := a[(i0+ir+r)*lda+p0 : (i0+ir+r)*lda+p0+kc]
			if alpha == 1 {
				for l, v := range src {
					panel[l*mr+r] = v
				}
				continue
			}
			for l, v := range src {
				panel[l*mr+r] = alpha * v
			}
		}
	}
}

// packA8 is packA's copy of rows (≤ 8) rows of A, each kc long, the
// first at a[off:] and the next lda further on, into an 8-row micro-panel
// (panel[l·8+r] = a_{r,l}), the rows beyond the last set to 0: eight
// stores of one step l at a time, where packA's loop stores one
// element per row and step, as the small products of the fixed points,
// which pack A at every step, need.
func packA8(panel, a []float64, off, lda, rows, kc int) {
	var src [8][]float64
	for r := range src {
		if r < rows {
			src[r] = a[off+r*lda : off+r*lda+kc]
		} else {
			src[r] = zeroRow[:kc]
		}
	}
	r0, r1, r2, r3 := src[0][:kc], src[1][:kc], src[2][:kc], src[3][:kc]
	r4, r5, r6, r7 := src[4][:kc], src[5][:kc], src[6][:kc], src[7][:kc]
	panel = panel[:8*kc]
	for l := range kc {
		d := (*[8]float64)(panel[8*l : 8*l+8])
		d[0], d[1], d[2], d[3] = r0[l], r1[l], r2[l], r3[l]
		d[4], d[5], d[6], d[7] = r4[l], r5[l], r6[l], r7[l]
	}
}

// zeroRow is the padding rows of packA8 (never written).
var zeroRow = make([]float64, gemmKC)

// packB packs the kc×nc block of op(B) at (p0, j0) into micro-panels of
// nr columns, each kc×nr (b[l·nr+j]), the last padded with zeros.
func (op *gemmOp) packB(dst []float64, p0, j0, kc, nc int) {
	nr := op.kern.nr
	b, ldb := op.b, op.ldb
	for jr := 0; jr < nc; jr += nr {
		panel := dst[jr*kc : (jr+nr)*kc]
		cols := min(nr, nc-jr)
		if cols < nr {
			clear(panel)
		}
		if op.tB {
			// b_lj = B[j, l]: row j of B is the panel's column j.
			for j := range cols {
				src := b[(j0+jr+j)*ldb+p0 : (j0+jr+j)*ldb+p0+kc]
				for l, v := range src {
					panel[l*nr+j] = v
				}
			}
			continue
		}
		for l := range kc {
			src := b[(p0+l)*ldb+j0+jr : (p0+l)*ldb+j0+jr+cols]
			d := panel[l*nr : l*nr+cols]
			for j, v := range src {
				d[j] = v
			}
		}
	}
}

// vecPool holds the scratch vectors and matrices of the level-2 and
// level-3 wrappers: LAPACK's blocked routines call them at every panel,
// and allocating each time kept the garbage collector busy in the fits
// of RKPCA's imputation (250 small eigenproblems a repetition).
var vecPool = sync.Pool{New: func() any { return new([]float64) }}

// scratch returns a pooled buffer of at least n elements and its first n;
// the caller puts the buffer back.
func scratch(n int) (*[]float64, []float64) {
	buf := vecPool.Get().(*[]float64)
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	return buf, (*buf)[:n]
}
