package datasets

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"image"
	"image/color"
	"image/gif"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
)

// compressedMAT wraps an inner matrix element, whose tag may declare
// more bytes than it holds, followed by extra zero bytes, in a
// compressed element of a MAT-file.
func compressedMAT(w matWriter, inner []byte, zeros int) []byte {
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write(inner)
	chunk := make([]byte, 1<<20)
	for zeros > 0 {
		n := min(zeros, len(chunk))
		zw.Write(chunk[:n])
		zeros -= n
	}
	zw.Close()
	head := w.file()[:128]
	var tag [8]byte
	w.o.PutUint32(tag[:4], miCOMPRESSED)
	w.o.PutUint32(tag[4:], uint32(z.Len()))
	return append(append(head, tag[:]...), z.Bytes()...)
}

// TestMATBombs: compressed MAT elements that would expand far beyond what
// their dimensions hold fail before the memory is allocated.
func TestMATBombs(t *testing.T) {
	w := matWriter{binary.LittleEndian}
	small := w.matrix(matVar{name: "fea", class: 6, dims: []int32{2, 3}, store: miDOUBLE, colMajor: m23})

	// The tag of a 2×3 double matrix claiming 3 GiB, followed by 64 MiB
	// of zeros (the real attack had 3 GiB of zeros in 5.7 MB).
	claim := append([]byte{}, small...)
	w.o.PutUint32(claim[4:8], 3<<30)
	bomb := compressedMAT(w, claim, 64<<20)

	// A matrix declaring dimensions of 10⁵ × 10⁵ doubles.
	huge := w.matrix(matVar{name: "fea", class: 6, dims: []int32{100000, 100000}, store: miDOUBLE})

	var before runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"declared 3 GiB", bomb, "more than its dimensions [2 3] can hold"},
		{"10¹⁰ values, compressed", compressedMAT(w, huge, 0), "exceed the bound"},
		{"10¹⁰ values, plain", w.file(matVar{name: "fea", class: 6, dims: []int32{100000, 100000}, store: miDOUBLE}), "exceed the bound"},
	} {
		_, err := DecodeMAT(tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want %q", tc.name, err, tc.want)
		}
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
		t.Errorf("decoding allocated %d MB", grew>>20)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("took %v", d)
	}
	// The unbombed compressed matrix still decodes.
	arrs, err := DecodeMAT(compressedMAT(w, small, 0))
	if err != nil || len(arrs) != 1 || len(arrs[0].Data) != 6 {
		t.Fatalf("plain compressed matrix: %v", err)
	}
}

// TestLoadersRejectNonFinite: NaN and ±Inf in a MAT-file or an Oil Flow
// text file are errors naming the file, as in USPS and CSV.
func TestLoadersRejectNonFinite(t *testing.T) {
	w := matWriter{binary.LittleEndian}
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		for _, store := range []uint32{miDOUBLE, miSINGLE} {
			b := w.file(matVar{name: "fea", class: 6, dims: []int32{1, 2}, store: store, colMajor: []float64{1, v}})
			if _, err := DecodeMAT(b); err == nil || !strings.Contains(err.Error(), "finite") {
				t.Errorf("MAT with %v stored as %d: err %v", v, store, err)
			}
		}
	}
	line := strings.Repeat("1 ", 11)
	for _, bad := range []string{"NaN", "Inf", "-inf", "+Inf"} {
		dir := writeRoot(t, map[string][]byte{
			"oilflow/DataTrn.txt":     []byte(line + bad + "\n"),
			"oilflow/DataTrnLbls.txt": []byte("1 0 0\n"),
		})
		_, err := LoadOilFlow(mustOpen(t, dir), "trn")
		wantErr(t, err, "oilflow/DataTrn.txt:1", "not a finite number")
	}
}

// TestUSPSTwoMembers: a USPS file holding two gzip members (the file
// appended to itself) is an error, not a doubled dataset.
func TestUSPSTwoMembers(t *testing.T) {
	text := fixtureUSPSText([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, trainStyle)
	one := gz(t, text)
	two := append(append([]byte{}, one...), one...)
	// encoding/gzip alone would read both members as one stream.
	zr, _ := gzip.NewReader(bytes.NewReader(two))
	var all bytes.Buffer
	all.ReadFrom(zr)
	if all.Len() != 2*len(text) {
		t.Fatalf("fixture: multistream read %d bytes, want %d", all.Len(), 2*len(text))
	}
	dir := writeRoot(t, map[string][]byte{USPSTrainFile: two, USPSTestFile: gz(t, fixtureUSPSText([]int{0, 1}, testStyle))})
	_, _, err := USPSCounts(mustOpen(t, dir))
	wantErr(t, err, "more than one gzip member", USPSTrainFile)
}

// TestKnownRows: files of known size with rows missing (or added) are
// errors, checked against PROVENANCE.md's counts.
func TestKnownRows(t *testing.T) {
	dir := writeRoot(t, map[string][]byte{
		USPSTrainFile:             gz(t, fixtureUSPSText([]int{0, 1, 2}, trainStyle)),
		USPSTestFile:              gz(t, fixtureUSPSText([]int{0, 1}, testStyle)),
		"oilflow/DataTrn.txt":     []byte(strings.Repeat(strings.Repeat("0.5 ", 12)+"\n", 3)),
		"oilflow/DataTrnLbls.txt": []byte(strings.Repeat("1 0 0\n", 3)),
	})
	knownRows = map[string]int{USPSTrainFile: 7291, USPSTestFile: 2007, OilFlowTrainFile: 1000} // writeRoot cleared it
	r := mustOpen(t, dir)
	_, _, err := USPSCounts(r)
	wantErr(t, err, "3 digits, want 7291")
	_, err = LoadOilFlow(r, "trn")
	wantErr(t, err, "3 rows, want 1000")

	// Two PIE images where PROVENANCE.md has 1700.
	w := matWriter{binary.LittleEndian}
	fea := make([]float64, 2*1024)
	pie := w.file(
		matVar{name: "fea", class: 6, dims: []int32{2, 1024}, store: miUINT8, colMajor: fea},
		matVar{name: "gnd", class: 6, dims: []int32{2, 1}, store: miDOUBLE, colMajor: []float64{1, 1}},
	)
	dir = writeRoot(t, map[string][]byte{PIE10File: pie})
	knownRows = map[string]int{PIE10File: 1700}
	_, _, err = LoadPIE10(mustOpen(t, dir))
	wantErr(t, err, "2 images, want 1700")
}

// TestPIEMapEmpty: an empty index map is an error, not a panic.
func TestPIEMapEmpty(t *testing.T) {
	for _, b := range []string{"", "\n", "within_subject_index_0based,pose,subset,condition,flash\n"} {
		m, err := parsePIEMap([]byte(b))
		if b == "" || b == "\n" {
			if err == nil {
				t.Errorf("%q: no error", b)
			}
			continue
		}
		if err != nil || len(m) != 0 {
			t.Errorf("header only: %v, %d rows", err, len(m))
		}
	}
}

// TestGIFHugeHeader: a GIF whose header claims 65535×65535 pixels is
// refused from its header.
func TestGIFHugeHeader(t *testing.T) {
	pal := color.Palette{color.Gray{0}, color.Gray{255}}
	var buf bytes.Buffer
	gif.Encode(&buf, image.NewPaletted(image.Rect(0, 0, 1, 1), pal), nil)
	b := buf.Bytes()
	// Logical screen width and height are bytes 6–9.
	binary.LittleEndian.PutUint16(b[6:], 65535)
	binary.LittleEndian.PutUint16(b[8:], 65535)
	if _, err := DecodeYaleFace("huge.gif", b); err == nil || !strings.Contains(err.Error(), "65535×65535") {
		t.Errorf("err %v", err)
	}
}
