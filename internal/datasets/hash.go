package datasets

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"io"
	"math"
	"runtime"
	"sync"
	"weak"

	"gonum.org/v1/gonum/mat"
)

// hashes memoises Hash per matrix. It is keyed by a weak pointer to the
// matrix, not by a string naming its content (the hash is that name), so
// it does not keep the matrix alive: the entry is deleted when the matrix
// is collected, and a matrix later allocated at the same address has
// another weak pointer.
var hashes sync.Map // weak.Pointer[mat.Dense] → string

// Hash returns a hex SHA-256 (its first 16 bytes) of x's shape and values,
// which names a data matrix by content in shared-value keys (the kernel PCA
// fit of a training set). It is computed once per matrix while the matrix
// lives: the data of a run is never modified after loading, and a caller
// that changes x in place after hashing it must not hash it again.
func Hash(x *mat.Dense) string {
	wp := weak.Make(x)
	if h, ok := hashes.Load(wp); ok {
		return h.(string)
	}
	h := sha256.New()
	WriteDense(h, x)
	s := hex.EncodeToString(h.Sum(nil)[:16])
	if _, loaded := hashes.LoadOrStore(wp, s); !loaded {
		runtime.AddCleanup(x, func(wp weak.Pointer[mat.Dense]) { hashes.Delete(wp) }, wp)
	}
	return s
}

// WriteDense writes x's shape and values, little-endian, to h: the bytes
// Hash digests, for callers that hash a matrix together with other inputs.
//
// The bytes go to h a few kilobytes at a time: a hash's Write costs a
// call per call, and eight bytes a call made hashing the classifiers'
// splits most of some configs' CPU time.
func WriteDense(h io.Writer, x *mat.Dense) {
	r, c := x.Dims()
	var buf [4096]byte
	b := binary.LittleEndian.AppendUint64(buf[:0], uint64(r))
	b = binary.LittleEndian.AppendUint64(b, uint64(c))
	for i := 0; i < r; i++ {
		for _, v := range x.RawRowView(i) {
			if len(b)+8 > len(buf) {
				h.Write(b)
				b = buf[:0]
			}
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		}
	}
	h.Write(b)
}
