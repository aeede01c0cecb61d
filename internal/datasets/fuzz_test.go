package datasets

import (
	"archive/zip"
	"bytes"
	"compress/gzip"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fuzz targets below, with FuzzDecodeMAT and FuzzDecodePGM, cover
// every parser of the data root: `go test` runs their seeds, `make fuzz`
// explores each for a while. Each checks that no input panics and that
// what is accepted is consistent.

// FuzzReadCSVMatrix: the CSV reader of runexp denoise.
func FuzzReadCSVMatrix(f *testing.F) {
	for _, s := range []string{"1,2\n3,4\n", "a,b\n1,2\n", "1,2\n3\n", "1,NaN\n", " 1 , 2\n\n3,4", "\"1\",2\n", ""} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, b []byte) {
		p := filepath.Join(dir, "m.csv")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Skip(err)
		}
		m, err := ReadCSVMatrix(p)
		if err != nil {
			return
		}
		r, c := m.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				if v := m.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
					t.Fatalf("accepted %v at (%d, %d)", v, i, j)
				}
			}
		}
	})
}

// FuzzParseUSPS: the decompressed USPS text.
func FuzzParseUSPS(f *testing.F) {
	// Small seeds: Go's fuzzer all but stalls on multi-kilobyte seeds
	// (a full 257-field line), so one seed has a whole line and the
	// others a few fields; the mutator grows them.
	f.Add([]byte("1 -1 0.5 1\n"))
	f.Add([]byte("1 NaN\n"))
	f.Add([]byte("\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := parseUSPS("fuzz", bytes.NewReader(b))
		if err != nil {
			return
		}
		if len(u.pix) != len(u.labels)*uspsPixels {
			t.Fatalf("%d pixels for %d digits", len(u.pix), len(u.labels))
		}
		for _, v := range u.pix {
			if !(v >= -1 && v <= 1) {
				t.Fatalf("pixel %v outside [-1, 1]", v)
			}
		}
	})
}

// FuzzDecodeYaleFace: the Yale faces GIFs.
func FuzzDecodeYaleFace(f *testing.F) {
	pal := color.Palette{color.Gray{0}, color.Gray{128}, color.Gray{255}}
	for _, r := range []image.Rectangle{image.Rect(0, 0, YaleFacesWidth, YaleFacesHeight), image.Rect(0, 0, 2, 2)} {
		var buf bytes.Buffer
		gif.Encode(&buf, image.NewPaletted(r, pal), nil)
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeYaleFace("fuzz", b)
		if err != nil {
			return
		}
		if g.Width != YaleFacesWidth || g.Height != YaleFacesHeight-1 || len(g.Pix) != g.Width*g.Height {
			t.Fatalf("%d×%d with %d values", g.Width, g.Height, len(g.Pix))
		}
	})
}

// FuzzParseSums: SHA256SUMS.
func FuzzParseSums(f *testing.F) {
	h := strings.Repeat("ab", 32)
	for _, s := range []string{h + "  ./usps/zip.train.gz\n", h + " *x\r\n", `\` + h + `  ./a\\b` + "\n", h + "  ../etc/passwd\n", "zz\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		sums, err := parseSums("fuzz", b)
		if err != nil {
			return
		}
		for k, v := range sums {
			if len(v) != 64 {
				t.Fatalf("%s: checksum %q", k, v)
			}
			if _, ok := cleanRel(k); !ok || strings.HasPrefix(k, "/") || k == ".." || strings.HasPrefix(k, "../") {
				t.Fatalf("path %q leaves the root", k)
			}
		}
	})
}

// FuzzParsePIEMap: the PIE within-subject index map.
func FuzzParsePIEMap(f *testing.F) {
	f.Add([]byte("within_subject_index_0based,pose,subset,condition,flash\n0,C27,illum,neutral,3\n1,C27,expr,smile,\n"))
	f.Add([]byte(""))
	f.Add([]byte("x\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parsePIEMap(b)
		if err != nil {
			return
		}
		for i, e := range m {
			if e.Index != i {
				t.Fatalf("row %d has index %d", i, e.Index)
			}
		}
	})
}

// FuzzDecodeUSPS: a USPS file as stored, gzip and all (members, CRC-32,
// and the text's bounds).
func FuzzDecodeUSPS(f *testing.F) {
	for _, s := range []string{"1 -1 0.5 1\n", "\n\n\n", ""} {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write([]byte(s))
		zw.Close()
		f.Add(buf.Bytes())
		f.Add(append(buf.Bytes(), buf.Bytes()...))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		u, err := decodeUSPS("fuzz", b)
		if err != nil {
			return
		}
		if len(u.pix) != len(u.labels)*uspsPixels || len(u.labels) == 0 || len(u.labels) > uspsMaxDigits {
			t.Fatalf("%d pixels for %d digits", len(u.pix), len(u.labels))
		}
	})
}

// FuzzParseNumbers: the Oil Flow text files.
func FuzzParseNumbers(f *testing.F) {
	for _, s := range []string{"1 2 3\n4 5 6\n", "1 0 0\n\n", "1 NaN 2\n", "1e308 -1e308 0x1p3\n", ""} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := parseNumbers("fuzz", b, 3)
		if err != nil {
			return
		}
		r, c := m.Dims()
		if c != 3 || r < 1 || r > oilMaxLines {
			t.Fatalf("%d×%d", r, c)
		}
		for _, v := range m.RawMatrix().Data {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("accepted %v", v)
			}
		}
	})
}

// FuzzDecodeORL: the ORL zip archive (its entries' names, sizes, CRC-32
// and PGMs).
func FuzzDecodeORL(f *testing.F) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("att_faces/s1/1.pgm")
	w.Write([]byte("P5 2 2 255\n\x00\x01\x02\x03"))
	w, _ = zw.Create("att_faces/README")
	w.Write([]byte("x"))
	zw.Close()
	f.Add(buf.Bytes())
	f.Add([]byte("PK\x05\x06" + strings.Repeat("\x00", 18)))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := decodeORL("fuzz.zip", b)
		if err != nil {
			return
		}
		if r, c := s.X.Dims(); r != ORLSubjects*ORLImages || c != ORLWidth*ORLHeight {
			t.Fatalf("%d×%d", r, c)
		}
	})
}

// FuzzDecodeJPEGGray: the Scene-15 JPEGs.
func FuzzDecodeJPEGGray(f *testing.F) {
	for _, r := range []image.Rectangle{image.Rect(0, 0, 8, 8), image.Rect(0, 0, 17, 3)} {
		var buf bytes.Buffer
		jpeg.Encode(&buf, image.NewRGBA(r), &jpeg.Options{Quality: 50})
		f.Add(buf.Bytes())
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := DecodeJPEGGray("fuzz", b)
		if err != nil {
			return
		}
		if g.Width*g.Height != len(g.Pix) || len(g.Pix) > maxJPEGPixels {
			t.Fatalf("%d×%d with %d values", g.Width, g.Height, len(g.Pix))
		}
		for _, v := range g.Pix {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("grey %v outside [0, 1]", v)
			}
		}
	})
}
