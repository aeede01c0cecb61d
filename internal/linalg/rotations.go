package linalg

// rotations records the plane rotations a QL/QR iteration applies to the
// columns of Z (gonum's Dlasr with side Right and pivot Variable) so that
// they can be applied later, a block of rows at a time: gonum applies each
// sweep to all n rows, streaming Z through the cache once per sweep (about
// 2n sweeps), where a block of rows stays in the cache for all of them.
type rotations struct {
	ops []rotOp
	cs  []float64 // c and s of every rotation, interleaved
}

// rotOp is one Dlasr call: rotations j = 0…mm−2 (forward) or mm−2…0
// (backward) of columns col+j and col+j+1, with c_j, s_j at cs[off+2j:].
type rotOp struct {
	col, mm, off int
	forward      bool
}

// add records Dlasr(Right, Variable, forward or backward, n, mm, c, s,
// z[col:], ldz).
func (r *rotations) add(forward bool, col, mm int, c, s []float64) {
	r.ops = append(r.ops, rotOp{col: col, mm: mm, off: len(r.cs), forward: forward})
	for j := range mm - 1 {
		r.cs = append(r.cs, c[j], s[j])
	}
}

// rotRows is the number of rows of Z a block holds while every recorded
// rotation is applied to it: 32 rows of n = 1000 columns are 256 KiB, in
// the L2 cache.
const rotRows = 32

// apply applies the recorded rotations to Z (n columns, leading dimension
// ldz, rows of n), in order, and forgets them. Each row is independent, so
// rows are taken rotRows at a time, transposed into a panel in which a
// column's entries for the block are contiguous, rotated there and copied
// back; every element gets gonum's Dlasr operations in gonum's order:
//
//	tmp := z[i][j+1]; tmp2 := z[i][j]
//	z[i][j+1] = c·tmp − s·tmp2;  z[i][j] = s·tmp + c·tmp2
//
// each product rounded before the sum (no fused multiply-add), and a
// rotation with c = 1 and s = 0 skipped, as Dlasr skips it.
func (r *rotations) apply(n int, z []float64, ldz int) {
	if len(r.ops) == 0 {
		return
	}
	buf, panel := scratch(n * rotRows)
	defer vecPool.Put(buf)
	for r0 := 0; r0 < n; r0 += rotRows {
		rows := min(rotRows, n-r0)
		p := panel[:n*rows]
		for i := range rows {
			for j, v := range z[(r0+i)*ldz : (r0+i)*ldz+n] {
				p[j*rows+i] = v
			}
		}
		if rows == rotRows && rotPanel32 != nil {
			for _, op := range r.ops {
				rotPanel32(p, op, r.cs)
			}
		} else {
			for _, op := range r.ops {
				rotPanel(p, rows, op, r.cs)
			}
		}
		for i := range rows {
			row := z[(r0+i)*ldz : (r0+i)*ldz+n]
			for j := range row {
				row[j] = p[j*rows+i]
			}
		}
	}
	r.ops, r.cs = r.ops[:0], r.cs[:0]
}

// rotPanel32 is rotPanel for full blocks of rotRows rows in assembly
// (AVX-512), where the CPU has it: the same operations, the same bits.
var rotPanel32 func(p []float64, op rotOp, cs []float64)

// rotPanel applies one recorded Dlasr call to a panel of rows rows (column
// j's entries at p[j·rows:(j+1)·rows]).
func rotPanel(p []float64, rows int, op rotOp, cs []float64) {
	for t := range op.mm - 1 {
		j := t
		if !op.forward {
			j = op.mm - 2 - t
		}
		c, s := cs[op.off+2*j], cs[op.off+2*j+1]
		if c == 1 && s == 0 {
			continue
		}
		col := op.col + j
		rotCols(p[col*rows:(col+1)*rows], p[(col+1)*rows:(col+2)*rows], c, s)
	}
}

// rotCols rotates the pair of columns x (j) and y (j+1) of a panel as
// Dlasr does: y ← c·y − s·x, x ← s·y + c·x (with the old y), each product
// rounded (float64(…) keeps the compiler from fusing them at GOAMD64=v3).
func rotCols(x, y []float64, c, s float64) {
	y = y[:len(x)]
	for i, tmp2 := range x {
		tmp := y[i]
		y[i] = float64(c*tmp) - float64(s*tmp2)
		x[i] = float64(s*tmp) + float64(c*tmp2)
	}
}

// swapCols swaps columns i and k of the n×n matrix z.
func swapCols(n int, z []float64, ldz, i, k int) {
	for r := range n {
		z[r*ldz+i], z[r*ldz+k] = z[r*ldz+k], z[r*ldz+i]
	}
}
