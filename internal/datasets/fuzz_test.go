package datasets

import (
	"bytes"
	"image"
	"image/color"
	"image/gif"
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
