package datasets

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"

	"gonum.org/v1/gonum/mat"
)

// MATArray is one variable of a level-5 MAT-file.
//
// Numeric variables (double, single and the integer classes) are decoded
// into Data, whatever type the file stores them in: MATLAB may store a
// double matrix as uint8 when every value fits, and the values are then
// converted exactly. Variables of other classes (cell, struct, char,
// sparse, complex) are listed with Unsupported set, so a file holding them
// beside the matrices still loads and asking for one is a clear error.
type MATArray struct {
	// Name is the variable name.
	Name string
	// Class is the MATLAB class, e.g. "double", "uint8", "struct".
	Class string
	// Dims are the dimensions, at least two.
	Dims []int
	// Data holds the values in MATLAB's column-major order; its length is
	// the product of Dims. It is nil when Unsupported is set.
	Data []float64
	// Unsupported says why Data is nil, or is empty.
	Unsupported string
}

// Dense returns a 2-D array as a Dims[0]×Dims[1] matrix, undoing MATLAB's
// column-major order.
func (a *MATArray) Dense() (*mat.Dense, error) {
	if a.Unsupported != "" {
		return nil, fmt.Errorf("mat: variable %q: %s", a.Name, a.Unsupported)
	}
	if len(a.Dims) != 2 {
		return nil, fmt.Errorf("mat: variable %q has %d dimensions, want a 2-D matrix", a.Name, len(a.Dims))
	}
	r, c := a.Dims[0], a.Dims[1]
	if r == 0 || c == 0 {
		return nil, fmt.Errorf("mat: variable %q is empty (%d×%d)", a.Name, r, c)
	}
	d := mat.NewDense(r, c, nil)
	for j := 0; j < c; j++ {
		col := a.Data[j*r : (j+1)*r]
		for i, v := range col {
			d.Set(i, j, v)
		}
	}
	return d, nil
}

// LookupMAT returns the variable called name, or an error listing the
// variables there are.
func LookupMAT(arrs []*MATArray, name string) (*MATArray, error) {
	var names []string
	for _, a := range arrs {
		if a.Name == name {
			return a, nil
		}
		names = append(names, a.Name)
	}
	return nil, fmt.Errorf("mat: no variable %q (the file has %s)", name, strings.Join(names, ", "))
}

// ReadMAT reads a checksum-verified MAT-file from the data root and decodes
// it. Errors name the file.
func (r *Root) ReadMAT(rel string) ([]*MATArray, error) {
	b, err := r.ReadFile(rel)
	if err != nil {
		return nil, err
	}
	arrs, err := DecodeMAT(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return arrs, nil
}

// MAT-file level 5 data types (MATLAB "MAT-File Format", Table 1-1).
const (
	miINT8       = 1
	miUINT8      = 2
	miINT16      = 3
	miUINT16     = 4
	miINT32      = 5
	miUINT32     = 6
	miSINGLE     = 7
	miDOUBLE     = 9
	miINT64      = 12
	miUINT64     = 13
	miMATRIX     = 14
	miCOMPRESSED = 15
)

// MATLAB array classes (ibid., Table 1-3), indexed by class number.
var matClasses = [...]string{
	1: "cell", 2: "struct", 3: "object", 4: "char", 5: "sparse",
	6: "double", 7: "single", 8: "int8", 9: "uint8", 10: "int16",
	11: "uint16", 12: "int32", 13: "uint32", 14: "int64", 15: "uint64",
}

// ErrMAT73 is returned for MAT-files of version 7.3, which are HDF5
// containers rather than level-5 MAT-files.
var ErrMAT73 = errors.New("mat: this is a MATLAB 7.3 (HDF5) MAT-file; only level-5 MAT-files are supported (re-save it in MATLAB with save(..., '-v7'))")

// DecodeMAT decodes a level-5 MAT-file (MATLAB versions 5 to 7): the
// 128-byte header, then a sequence of data elements, each a matrix or a
// zlib-compressed matrix. Both byte orders are accepted.
func DecodeMAT(b []byte) ([]*MATArray, error) {
	if len(b) < 128 {
		return nil, fmt.Errorf("mat: file is %d bytes, shorter than the 128-byte MAT-file header", len(b))
	}
	text := string(b[:116])
	// A 7.3 file has a MAT-style text header and its HDF5 superblock at
	// byte 512.
	if strings.HasPrefix(text, "MATLAB 7.3") || (len(b) >= 520 && bytes.HasPrefix(b[512:], []byte("\x89HDF"))) {
		return nil, ErrMAT73
	}
	if !strings.HasPrefix(text, "MATLAB 5.0 MAT-file") {
		return nil, errors.New("mat: not a MAT-file: the header does not start with \"MATLAB 5.0 MAT-file\"")
	}
	var order binary.ByteOrder
	switch string(b[126:128]) {
	case "IM":
		order = binary.LittleEndian
	case "MI":
		order = binary.BigEndian
	default:
		return nil, fmt.Errorf("mat: bad endian indicator %q in the header", b[126:128])
	}
	if v := order.Uint16(b[124:126]); v != 0x0100 {
		return nil, fmt.Errorf("mat: header version 0x%04x, want 0x0100", v)
	}
	d := &matDecoder{order: order}
	var out []*MATArray
	rest := b[128:]
	off := 128
	for len(rest) > 0 {
		typ, data, next, err := d.element(rest)
		if err != nil {
			return nil, fmt.Errorf("mat: element at byte %d: %w", off, err)
		}
		// Elements at the top level are padded to 8 bytes, except
		// compressed ones, which are not; the padding is clipped at
		// the end of the file.
		if typ == miCOMPRESSED {
			next = 8 + len(data)
		}
		next = min(next, len(rest))
		switch typ {
		case miCOMPRESSED:
			inner, err := d.inflate(data)
			if err != nil {
				return nil, fmt.Errorf("mat: compressed element at byte %d: %w", off, err)
			}
			ityp, idata, _, err := d.element(inner)
			if err != nil {
				return nil, fmt.Errorf("mat: compressed element at byte %d: %w", off, err)
			}
			if ityp != miMATRIX {
				return nil, fmt.Errorf("mat: compressed element at byte %d holds type %d, want a matrix (14)", off, ityp)
			}
			a, err := d.matrix(idata)
			if err != nil {
				return nil, fmt.Errorf("mat: compressed element at byte %d: %w", off, err)
			}
			out = append(out, a)
		case miMATRIX:
			a, err := d.matrix(data)
			if err != nil {
				return nil, fmt.Errorf("mat: matrix at byte %d: %w", off, err)
			}
			out = append(out, a)
		default:
			return nil, fmt.Errorf("mat: top-level element at byte %d has type %d, want a matrix (14) or compressed (15)", off, typ)
		}
		rest = rest[next:]
		off += next
	}
	if len(out) == 0 {
		return nil, errors.New("mat: the file holds no variables")
	}
	return out, nil
}

type matDecoder struct {
	order binary.ByteOrder
}

// Bounds on what a MAT-file may make the decoder allocate. The data
// root's largest variable has under 2 million values.
const (
	// maxMATValues bounds the values of one variable (512 MiB as float64).
	maxMATValues = 1 << 26
	// maxMATHeader bounds the bytes of a matrix's flags, dimensions and
	// name, read before its dimensions are known.
	maxMATHeader = 1 << 12
)

// inflate decompresses a compressed element, reading no more than the
// matrix it holds can need: the inner tag's declared size is checked
// against the variable's dimensions (read from the first bytes) before
// the rest is read, so a small file of compressed zeros cannot expand to
// gigabytes.
//
// The zlib stream is then read to its end, which checks its Adler-32: a
// corrupt stream can inflate to the declared number of bytes with some of
// them wrong (MATLAB's checksum is the only thing that notices once
// SHA256SUMS has been regenerated), so stopping at the declared size would
// accept it. MATLAB writes exactly the matrix element into the stream, so
// inflated bytes after it, or compressed bytes after the stream's end,
// are errors too.
func (d *matDecoder) inflate(data []byte) ([]byte, error) {
	br := bytes.NewReader(data)
	zr, err := zlib.NewReader(br)
	if err != nil {
		return nil, err
	}
	var tag [8]byte
	if _, err := io.ReadFull(zr, tag[:]); err != nil {
		return nil, fmt.Errorf("inflating the tag: %w", err)
	}
	first := d.order.Uint32(tag[:4])
	if first>>16 != 0 || first != miMATRIX {
		return nil, fmt.Errorf("holds type %d, want a matrix (14)", first&0xffff)
	}
	n := uint64(d.order.Uint32(tag[4:8]))
	head := make([]byte, min(n, maxMATHeader))
	if _, err := io.ReadFull(zr, head); err != nil {
		return nil, fmt.Errorf("inflating the matrix header: %w", err)
	}
	h, err := d.header(head)
	if err != nil {
		return nil, err
	}
	// The real part: an 8-byte tag and at most 8 bytes a value, padded
	// to 8 bytes. Other classes are not decoded, but their bytes are
	// read (and dropped) to reach the checksum, within the same bound.
	limit := uint64(h.used) + 8 + uint64(h.size)*8 + 8
	if !h.numeric() {
		limit = maxMATHeader + 8*maxMATValues
	}
	if n > limit {
		return nil, fmt.Errorf("variable %q declares %d bytes, more than its dimensions %v can hold (%d)", h.name, n, h.dims, limit)
	}
	keep := n
	if !h.numeric() {
		keep = uint64(len(head))
	}
	out := make([]byte, 8+keep)
	copy(out, tag[:])
	d.order.PutUint32(out[4:8], uint32(keep))
	copy(out[8:], head)
	if _, err := io.ReadFull(zr, out[8+len(head):]); err != nil {
		return nil, fmt.Errorf("inflating variable %q: %w", h.name, err)
	}
	if rest := int64(n - keep); rest > 0 {
		if got, err := io.CopyN(io.Discard, zr, rest); err != nil {
			return nil, fmt.Errorf("inflating variable %q: %d of its %d bytes: %w", h.name, uint64(len(head))+uint64(got), n, err)
		}
	}
	if err := zlibEnd(zr); err != nil {
		return nil, fmt.Errorf("variable %q: %w", h.name, err)
	}
	if br.Len() > 0 {
		return nil, fmt.Errorf("variable %q: %d bytes after the end of the zlib stream, inside the compressed element", h.name, br.Len())
	}
	return out, nil
}

// zlibEnd reads the end of a zlib stream whose payload has been read: the
// reader must give io.EOF, which it does only once the Adler-32 of
// everything inflated matches the stream's.
func zlibEnd(zr io.Reader) error {
	var b [1]byte
	for {
		n, err := zr.Read(b[:])
		switch {
		case n > 0:
			return errors.New("the zlib stream holds more data after the matrix (MATLAB writes the matrix alone)")
		case errors.Is(err, zlib.ErrChecksum):
			return errors.New("zlib checksum (Adler-32) mismatch: the compressed data is corrupt")
		case err == io.EOF:
			return nil
		case err != nil:
			return fmt.Errorf("reading the end of the zlib stream: %w", err)
		}
	}
}

// matHeader is a matrix's flags, dimensions and name.
type matHeader struct {
	flags    uint32
	classNum int
	class    string
	dims     []int
	size     int // product of dims
	name     string
	used     int // bytes of b the three sub-elements took
}

func (h *matHeader) numeric() bool {
	return h.classNum >= 6 && h.classNum <= 15 && h.flags&0x0800 == 0
}

// header decodes the first three sub-elements of a matrix.
func (d *matDecoder) header(b []byte) (*matHeader, error) {
	var sub [3][]byte
	var types [3]uint32
	used := 0
	for i := range sub {
		typ, data, next, err := d.element(b[used:])
		if err != nil {
			return nil, fmt.Errorf("matrix sub-element %d: %w", i+1, err)
		}
		types[i], sub[i] = typ, data
		used = min(used+next, len(b))
	}
	if types[0] != miUINT32 || len(sub[0]) < 8 {
		return nil, errors.New("matrix: bad array-flags sub-element")
	}
	h := &matHeader{flags: d.order.Uint32(sub[0][:4]), used: used}
	h.classNum = int(h.flags & 0xff)
	h.class = fmt.Sprintf("class %d", h.classNum)
	if h.classNum < len(matClasses) && matClasses[h.classNum] != "" {
		h.class = matClasses[h.classNum]
	}
	if types[1] != miINT32 || len(sub[1])%4 != 0 || len(sub[1]) < 8 {
		return nil, errors.New("matrix: bad dimensions sub-element")
	}
	h.dims = make([]int, len(sub[1])/4)
	h.size = 1
	for i := range h.dims {
		v := int32(d.order.Uint32(sub[1][4*i:]))
		if v < 0 {
			return nil, fmt.Errorf("matrix: negative dimension %d", v)
		}
		h.dims[i] = int(v)
		if h.size > 0 && h.dims[i] > maxMATValues/h.size {
			h.size = maxMATValues + 1
		} else {
			h.size *= h.dims[i]
		}
	}
	if types[2] != miINT8 && types[2] != miUINT8 {
		return nil, errors.New("matrix: bad name sub-element")
	}
	h.name = string(sub[2])
	if h.size > maxMATValues {
		return nil, fmt.Errorf("variable %q: dimensions %v exceed the bound of %d values", h.name, h.dims, maxMATValues)
	}
	return h, nil
}

// element reads one tag and its data. next is the offset of the following
// element, counting the padding to 8 bytes.
func (d *matDecoder) element(b []byte) (typ uint32, data []byte, next int, err error) {
	if len(b) < 8 {
		return 0, nil, 0, fmt.Errorf("truncated: %d bytes left, want an 8-byte tag", len(b))
	}
	first := d.order.Uint32(b[:4])
	if n := first >> 16; n != 0 {
		// Small data element: 2-byte size, 2-byte type, ≤ 4 bytes of data.
		if n > 4 {
			return 0, nil, 0, fmt.Errorf("small element claims %d bytes, at most 4 fit", n)
		}
		return first & 0xffff, b[4 : 4+n], 8, nil
	}
	n := d.order.Uint32(b[4:8])
	if uint64(n) > uint64(len(b)-8) {
		return 0, nil, 0, fmt.Errorf("truncated: element of type %d claims %d bytes, %d left", first, n, len(b)-8)
	}
	next = 8 + int(n)
	if r := next % 8; r != 0 {
		next += 8 - r
	}
	return first, b[8 : 8+n], next, nil
}

// matrix decodes the body of an miMATRIX element: array flags, dimensions,
// name, then the real part.
func (d *matDecoder) matrix(b []byte) (*MATArray, error) {
	// Flags, dimensions and name come first; the real part follows for
	// numeric classes (other classes hold other sub-elements there).
	h, err := d.header(b)
	if err != nil {
		return nil, err
	}
	b = b[h.used:]
	flags, classNum, class, dims, size := h.flags, h.classNum, h.class, h.dims, h.size
	a := &MATArray{Name: h.name, Class: class, Dims: dims}
	switch {
	case classNum < 6 || classNum > 15:
		a.Unsupported = fmt.Sprintf("class %s is not a numeric matrix; only numeric matrices are supported", class)
		return a, nil
	case flags&0x0800 != 0:
		a.Unsupported = "complex matrices are not supported"
		return a, nil
	}
	if size == 0 {
		a.Data = []float64{}
		return a, nil
	}
	typ, data, _, err := d.element(b)
	if err != nil {
		return nil, fmt.Errorf("variable %q: real part: %w", a.Name, err)
	}
	vals, err := d.numbers(typ, data)
	if err != nil {
		return nil, fmt.Errorf("variable %q: %w", a.Name, err)
	}
	if len(vals) != size {
		return nil, fmt.Errorf("variable %q: %d values for dimensions %v (%d)", a.Name, len(vals), dims, size)
	}
	for i, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("variable %q: value %d is %v; a data file must hold finite numbers", a.Name, i, v)
		}
	}
	a.Data = vals
	return a, nil
}

// numbers converts a numeric data element to float64.
func (d *matDecoder) numbers(typ uint32, b []byte) ([]float64, error) {
	var w int
	switch typ {
	case miINT8, miUINT8:
		w = 1
	case miINT16, miUINT16:
		w = 2
	case miINT32, miUINT32, miSINGLE:
		w = 4
	case miDOUBLE, miINT64, miUINT64:
		w = 8
	default:
		return nil, fmt.Errorf("data of type %d is not numeric", typ)
	}
	if len(b)%w != 0 {
		return nil, fmt.Errorf("%d data bytes is not a multiple of the element size %d", len(b), w)
	}
	out := make([]float64, len(b)/w)
	o := d.order
	for i := range out {
		p := b[i*w:]
		switch typ {
		case miINT8:
			out[i] = float64(int8(p[0]))
		case miUINT8:
			out[i] = float64(p[0])
		case miINT16:
			out[i] = float64(int16(o.Uint16(p)))
		case miUINT16:
			out[i] = float64(o.Uint16(p))
		case miINT32:
			out[i] = float64(int32(o.Uint32(p)))
		case miUINT32:
			out[i] = float64(o.Uint32(p))
		case miSINGLE:
			out[i] = float64(math.Float32frombits(o.Uint32(p)))
		case miDOUBLE:
			out[i] = math.Float64frombits(o.Uint64(p))
		case miINT64:
			out[i] = float64(int64(o.Uint64(p)))
		case miUINT64:
			out[i] = float64(o.Uint64(p))
		}
	}
	return out, nil
}
