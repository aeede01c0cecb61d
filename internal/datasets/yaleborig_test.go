package datasets

import (
	"archive/zip"
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"testing"
)

// yaleBOrigLighting lists the fixture's lightings by subset folder, as the
// real archive numbers them: 1–7 in subset0, 8–19 in subset1, 20–31 in
// subset2, 32–45 in subset3, 46–64 in subset4.
func yaleBOrigLighting() map[int][]int {
	m := map[int][]int{}
	l := 1
	for k := 0; k < 5; k++ {
		for i := 0; i < yaleBOrigPerSubset[k+1]; i++ {
			m[k] = append(m[k], l)
			l++
		}
	}
	return m
}

// yaleBOrigPNG is a 50×50 grey PNG whose pixel (0, 0) is the subject s,
// pixel (1, 0) the lighting l and every other pixel (x, y) is x + y, so
// the images are distinct and a row can be traced back to its entry.
func yaleBOrigPNG(t *testing.T, s, l int) []byte {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, YaleBOrigWidth, YaleBOrigHeight))
	for y := 0; y < YaleBOrigHeight; y++ {
		for x := 0; x < YaleBOrigWidth; x++ {
			img.SetGray(x, y, color.Gray{Y: uint8(x + y)})
		}
	}
	img.SetGray(0, 0, color.Gray{Y: uint8(s)})
	img.SetGray(1, 0, color.Gray{Y: uint8(l)})
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// yaleBOrigZip builds an archive of the real one's layout; edit may add,
// drop or replace entries (name → contents, nil drops).
func yaleBOrigZip(t *testing.T, edit map[string][]byte) []byte {
	t.Helper()
	entries := map[string][]byte{}
	var names []string
	for k, ls := range yaleBOrigLighting() {
		for s := 1; s <= YaleBOrigSubjects; s++ {
			for _, l := range ls {
				n := fmt.Sprintf("yaleBfaces/subset%d/person%02d_%02d.png", k, s, l)
				entries[n] = yaleBOrigPNG(t, s, l)
				names = append(names, n)
			}
		}
	}
	for n, b := range edit {
		if _, ok := entries[n]; !ok {
			names = append(names, n)
		}
		entries[n] = b
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	if _, err := zw.Create("yaleBfaces/subset0/"); err != nil { // a folder entry, as in the real archive
		t.Fatal(err)
	}
	for _, n := range names {
		if entries[n] == nil {
			continue
		}
		w, err := zw.Create(n)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(entries[n])
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestYaleBOrigFixture: subsets 1 and 5 of the fixture give 10 × (7 + 19)
// rows ordered by subject then lighting, labelled by subject, each the
// entry's samples / 255 (yaleBOrigPNG: pixels (0, 0), (1, 0) and (3, 2)
// of subject 2 under lighting 46 are 2/255, 46/255 and 5/255).
func TestYaleBOrigFixture(t *testing.T) {
	dir := writeRoot(t, map[string][]byte{YaleBOrigFile: yaleBOrigZip(t, nil)})
	s, err := LoadYaleBOrig(mustOpen(t, dir), YaleBOrigOptions{Subsets: []int{1, 5}})
	if err != nil {
		t.Fatal(err)
	}
	n, d := s.X.Dims()
	if n != 10*26 || d != 2500 || s.Width != 50 || s.Height != 50 || s.Name != "yaleb-orig" {
		t.Fatalf("set %q is %d×%d (%d×%d images), want 260×2500 (50×50), named yaleb-orig", s.Name, n, d, s.Width, s.Height)
	}
	for i, l := range s.Labels {
		if want := i/26 + 1; l != want {
			t.Fatalf("row %d has label %d, want %d", i, l, want)
		}
	}
	// Row 26 + 7 is subject 2's first subset-5 image, lighting 46; row
	// 25 subject 1's last, lighting 64.
	for _, c := range []struct {
		row, col int
		want     float64
	}{{33, 0, 2.0 / 255}, {33, 1, 46.0 / 255}, {33, 2*50 + 3, 5.0 / 255}, {25, 1, 64.0 / 255}, {0, 1, 1.0 / 255}} {
		if got := s.X.At(c.row, c.col); got != c.want {
			t.Errorf("row %d, column %d = %v, want %v", c.row, c.col, got, c.want)
		}
	}
	r, err := LoadYaleBOrig(mustOpen(t, dir), YaleBOrigOptions{Subsets: []int{1}, Width: 30, Height: 40})
	if err != nil {
		t.Fatal(err)
	}
	if n, d := r.X.Dims(); n != 70 || d != 1200 || r.Width != 30 || r.Height != 40 {
		t.Errorf("resized subset 1 is %d×%d (%d×%d), want 70×1200 (30×40)", n, d, r.Width, r.Height)
	}
}

// TestYaleBOrigErrors: bad options, an archive whose checksum does not
// match, a subject short of a lighting, an entry named otherwise, an
// image of another size or colour model and two identical images are
// errors naming the fix or the entry.
func TestYaleBOrigErrors(t *testing.T) {
	all := YaleBOrigOptions{Subsets: []int{1, 2, 3, 4, 5}}
	for _, o := range []YaleBOrigOptions{{}, {Subsets: []int{0}}, {Subsets: []int{1, 1}}, {Subsets: []int{1}, Width: 30}} {
		_, err := LoadYaleBOrig(nil, o)
		wantErr(t, err, "original Yale B")
	}
	good := yaleBOrigZip(t, nil)
	dir := writeRoot(t, map[string][]byte{YaleBOrigFile: good})
	if err := os.WriteFile(dir+"/"+YaleBOrigFile, append(good[:len(good):len(good)], 0), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := LoadYaleBOrig(mustOpen(t, dir), all)
	wantErr(t, err, "SHA256")

	rgba := func() []byte {
		var buf bytes.Buffer
		png.Encode(&buf, image.NewRGBA(image.Rect(0, 0, 50, 50)))
		return buf.Bytes()
	}()
	small := func() []byte {
		var buf bytes.Buffer
		png.Encode(&buf, image.NewGray(image.Rect(0, 0, 40, 50)))
		return buf.Bytes()
	}()
	for _, c := range []struct {
		edit map[string][]byte
		want []string
	}{
		{map[string][]byte{"yaleBfaces/subset4/person03_64.png": nil}, []string{"subject 03 has 18 images in subset4, want 19"}},
		{map[string][]byte{"yaleBfaces/subset4/readme.txt": []byte("x")}, []string{"readme.txt", "not named"}},
		{map[string][]byte{"yaleBfaces/subset1/person03_01.png": yaleBOrigPNG(t, 3, 1)}, []string{"both subject 3 under lighting 1"}},
		{map[string][]byte{"yaleBfaces/subset0/person03_01.png": rgba}, []string{"person03_01.png", "colour model"}},
		{map[string][]byte{"yaleBfaces/subset0/person03_01.png": small}, []string{"person03_01.png", "40×50, want 50×50"}},
		{map[string][]byte{"yaleBfaces/subset0/person03_01.png": yaleBOrigPNG(t, 4, 1)}, []string{"person03_01.png", "person04_01.png", "the same contents"}},
	} {
		dir := writeRoot(t, map[string][]byte{YaleBOrigFile: yaleBOrigZip(t, c.edit)})
		_, err := LoadYaleBOrig(mustOpen(t, dir), all)
		wantErr(t, err, c.want...)
	}
}

// TestYaleBOrigRealData: the real archive holds 10 subjects × 64
// lightings of 50×50 (PROVENANCE.md), in [0, 1].
func TestYaleBOrigRealData(t *testing.T) {
	if os.Getenv(EnvDataRoot) == "" {
		t.Skip("RUNEXP_DATA not set; skipping the test on the real original Yale B archive")
	}
	r, err := OpenRoot("")
	if err != nil {
		t.Fatal(err)
	}
	s, err := LoadYaleBOrig(r, YaleBOrigOptions{Subsets: []int{1, 2, 3, 4, 5}})
	if err != nil {
		t.Fatal(err)
	}
	if n, d := s.X.Dims(); n != 640 || d != 2500 {
		t.Fatalf("original Yale B is %d×%d, want 640×2500", n, d)
	}
	lo, hi := 1.0, 0.0
	for _, v := range s.X.RawMatrix().Data {
		lo, hi = min(lo, v), max(hi, v)
	}
	if lo < 0 || hi > 1 || hi-lo < 0.5 {
		t.Errorf("pixel range [%g, %g], want a spread inside [0, 1]", lo, hi)
	}
}
