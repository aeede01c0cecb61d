package datasets

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// writeRoot creates a data root in a temporary directory holding files
// (root-relative path → contents) and a SHA256SUMS in the format of
// shared/data/SHA256SUMS ("<hex>  ./path"). Files named in unlisted are
// written but get no checksum line.
func writeRoot(t *testing.T, files map[string][]byte, unlisted ...string) string {
	t.Helper()
	// Fixtures are small stand-ins for the real files: the known row
	// counts do not apply (TestKnownRows checks them).
	saved := knownRows
	knownRows = nil
	t.Cleanup(func() { knownRows = saved })
	dir := t.TempDir()
	skip := make(map[string]bool)
	for _, u := range unlisted {
		skip[u] = true
	}
	var paths []string
	for p, b := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, b, 0o644); err != nil {
			t.Fatal(err)
		}
		if !skip[p] {
			paths = append(paths, p)
		}
	}
	sort.Strings(paths)
	var sums strings.Builder
	for _, p := range paths {
		h := sha256.Sum256(files[p])
		fmt.Fprintf(&sums, "%s  ./%s\n", hex.EncodeToString(h[:]), p)
	}
	if err := os.WriteFile(filepath.Join(dir, SumsFile), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func gz(t *testing.T, text string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write([]byte(text)); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// fixturePixels returns the 256 grey levels of the k-th image of a fixture
// file. Pixel 0 is k/100, which identifies the image; the rest step through
// multiples of 0.25 in [-1, 1], which both USPS number styles print exactly.
func fixturePixels(k int) []float64 {
	p := make([]float64, uspsPixels)
	p[0] = float64(k) / 100
	for j := 1; j < uspsPixels; j++ {
		p[j] = float64((k*7+j)%9)/4 - 1
	}
	return p
}

// trainStyle formats a line as zip.train.gz does: four decimals everywhere,
// the label too, and a trailing space ("6.0000 -1.0000 -0.6310 … ").
func trainStyle(label int, pix []float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%.4f ", float64(label))
	for _, v := range pix {
		fmt.Fprintf(&b, "%.4f ", v)
	}
	return b.String()
}

// testStyle formats a line as zip.test.gz does: shortest form, no trailing
// space ("9 -1 -0.948 …").
func testStyle(label int, pix []float64) string {
	f := make([]string, 0, 1+len(pix))
	f = append(f, strconv.Itoa(label))
	for _, v := range pix {
		f = append(f, strconv.FormatFloat(v, 'g', -1, 64))
	}
	return strings.Join(f, " ")
}

// Fixture files: labels of the images in file order. The training file has
// 6 zeros, 3 ones and 5 twos, interleaved as in the real file; the test file
// 4 zeros, 2 ones and 3 twos.
var (
	fixtureTrainLabels = []int{0, 1, 2, 0, 0, 2, 1, 0, 2, 2, 0, 1, 0, 2}
	fixtureTestLabels  = []int{2, 0, 1, 0, 2, 0, 1, 2, 0}
)

func fixtureUSPSText(labels []int, style func(int, []float64) string) string {
	var b strings.Builder
	for k, l := range labels {
		b.WriteString(style(l, fixturePixels(k)))
		b.WriteByte('\n')
	}
	return b.String()
}

// uspsRoot writes a data root with fixture USPS files in the two styles.
func uspsRoot(t *testing.T) string {
	t.Helper()
	return writeRoot(t, map[string][]byte{
		USPSTrainFile: gz(t, fixtureUSPSText(fixtureTrainLabels, trainStyle)),
		USPSTestFile:  gz(t, fixtureUSPSText(fixtureTestLabels, testStyle)),
	})
}

func mustOpen(t *testing.T, dir string) *Root {
	t.Helper()
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatalf("OpenRoot(%q): %v", dir, err)
	}
	return r
}

// wantErr fails the test unless err is non-nil and its message contains
// every one of subs.
func wantErr(t *testing.T, err error, subs ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want one containing %q", subs)
	}
	for _, s := range subs {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("error %q does not contain %q", err, s)
		}
	}
}
