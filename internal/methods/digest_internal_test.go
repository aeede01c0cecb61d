package methods

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"
)

// resultDigest is the SHA-256, cut to 16 hex digits, of everything an
// estimator returns for z's rows: every entry's bits and, per row, its
// step count, its convergence when converged is set, and the bits of
// the diagnostics named by diag. The bit-pinning tests compare it with
// the digest the implementation gave before a change meant to keep
// every bit.
func resultDigest(z *mat.Dense, st []Status, converged bool, diag ...string) string {
	h := sha256.New()
	var b [8]byte
	put := func(v uint64) {
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	for i, s := range st {
		for _, v := range z.RawRowView(i) {
			put(math.Float64bits(v))
		}
		put(uint64(s.Iterations))
		if converged {
			if s.Converged {
				put(1)
			} else {
				put(0)
			}
		}
		for _, k := range diag {
			put(math.Float64bits(s.Diag[k]))
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// fillNormal fills each of ms with standard normal draws from rng, row by
// row, rounded to a multiple of 1/4 when grid is set (data on a coarse
// grid, where components tie exactly).
func fillNormal(rng *rand.Rand, grid bool, ms ...*mat.Dense) {
	for _, m := range ms {
		r, c := m.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				v := rng.NormFloat64()
				if grid {
					v = math.Round(4*v) / 4
				}
				m.Set(i, j, v)
			}
		}
	}
}

// RandomMask returns an r×c mask with each entry missing with probability
// p, keeping at least one observed entry per row. It is declared here, in
// the package's own tests, so that its internal and external tests draw
// the same masks from one definition.
func RandomMask(rng *rand.Rand, r, c int, p float64) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if rng.Float64() >= p {
				m.Set(i, j, 1)
			}
		}
		m.Set(i, rng.IntN(c), 1)
	}
	return m
}
