package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// hashes memoises Hash per matrix. It is keyed by the matrix itself, not
// by a string naming its content (the hash is that name), and it holds the
// matrix, so its address can never be reused by another matrix while the
// entry lives.
var hashes sync.Map // *mat.Dense → string

// Hash returns a hex SHA-256 (its first 16 bytes) of x's shape and values,
// which names a data matrix by content in shared-value keys (the kernel PCA
// fit of a training set). It is computed once per matrix and process: the
// data of a run is never modified after loading, and a caller that changes
// x in place after hashing it must not hash it again.
func Hash(x *mat.Dense) string {
	if h, ok := hashes.Load(x); ok {
		return h.(string)
	}
	r, c := x.Dims()
	h := sha256.New()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(r))
	h.Write(b[:])
	binary.LittleEndian.PutUint64(b[:], uint64(c))
	h.Write(b[:])
	for i := 0; i < r; i++ {
		for _, v := range x.RawRowView(i) {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	s := hex.EncodeToString(h.Sum(nil)[:16])
	hashes.Store(x, s)
	return s
}
