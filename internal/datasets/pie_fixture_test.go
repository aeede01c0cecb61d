package datasets

import (
	"encoding/binary"
	"fmt"
	"strings"
	"testing"
)

// piePixel is the grey level of pixel (row y, column x) of the k-th image
// of a PIE fixture: distinct for neighbouring rows and columns, so that a
// transpose or a shifted image changes it, and below 256 so that uint8
// storage holds it exactly.
func piePixel(k, y, x int) float64 {
	return float64((k*3 + y*5 + x*11) % 256)
}

// pieColumnMajor is image k as MATLAB stores it: pixel (y, x) at x*32 + y.
func pieColumnMajor(k int) []float64 {
	p := make([]float64, pieSide*pieSide)
	for y := 0; y < pieSide; y++ {
		for x := 0; x < pieSide; x++ {
			p[x*pieSide+y] = piePixel(k, y, x)
		}
	}
	return p
}

// pie68MAT writes a PIE68-style file: fea 1024×n, one column-major image
// per column, gnd the subjects (1-based) as n×1 doubles.
func pie68MAT(gnd []float64, pixels int) []byte {
	var fea []float64
	for k := range gnd {
		fea = append(fea, pieColumnMajor(k)[:pixels]...)
	}
	w := matWriter{binary.LittleEndian}
	return w.file(
		matVar{name: "fea", class: 6, dims: []int32{int32(pixels), int32(len(gnd))}, store: miDOUBLE, colMajor: fea},
		matVar{name: "gnd", class: 6, dims: []int32{int32(len(gnd)), 1}, store: miDOUBLE, colMajor: gnd},
	)
}

// pie10MAT writes a PIE10-style file: fea n×1024 (an image a row, each
// column-major) stored as uint8 in a double array, as Deng Cai's file is.
func pie10MAT(gnd []float64) []byte {
	n := len(gnd)
	fea := make([]float64, n*pieSide*pieSide)
	for k := 0; k < n; k++ {
		for p, v := range pieColumnMajor(k) {
			fea[p*n+k] = v // element (k, p) of an n×1024 matrix, column-major
		}
	}
	w := matWriter{binary.LittleEndian}
	return w.file(
		matVar{name: "fea", class: 6, dims: []int32{int32(n), pieSide * pieSide}, store: miUINT8, colMajor: fea},
		matVar{name: "gnd", class: 6, dims: []int32{int32(n), 1}, store: miDOUBLE, colMajor: gnd},
	)
}

// pieMapCSV is a within-subject index map of rows rows: pose C05 for the
// first half, C27 after; flash i%22 except every fifth row, which has none.
func pieMapCSV(rows int) []byte {
	var b strings.Builder
	b.WriteString("within_subject_index_0based,pose,subset,condition,flash\n")
	for i := 0; i < rows; i++ {
		pose := "C05"
		if i >= rows/2 {
			pose = "C27"
		}
		flash := fmt.Sprint(i % 22)
		if i%5 == 0 {
			flash = ""
		}
		fmt.Fprintf(&b, "%d,%s,illum_roomlights_off,flash,%s\n", i, pose, flash)
	}
	return []byte(b.String())
}

// checkPIEImages fails unless row i of set is image k = order[i] of the
// fixture in row-major order, exactly.
func checkPIEImages(t *testing.T, set *Set, order []int) {
	t.Helper()
	for i, k := range order {
		row := set.X.RawRowView(i)
		for y := 0; y < pieSide; y++ {
			for x := 0; x < pieSide; x++ {
				if got, want := row[y*pieSide+x], piePixel(k, y, x); got != want {
					t.Fatalf("image %d pixel (%d, %d) = %g, want %g (column-major not transposed?)", i, y, x, got, want)
				}
			}
		}
	}
}

// TestLoadPIE68Fixture loads a PIE68 file of two subjects of 42 images,
// interleaved: every image comes back in row-major order, the subjects
// 0-based, and each image numbered within its subject in file order.
func TestLoadPIE68Fixture(t *testing.T) {
	gnd := make([]float64, 84)
	order := make([]int, 84)
	for i := range gnd {
		gnd[i] = float64(1 + i%2) // subjects 1, 2, 1, 2, …
		order[i] = i
	}
	dir := writeRoot(t, map[string][]byte{PIE68File: pie68MAT(gnd, pieSide*pieSide)})
	set, index, err := LoadPIE68(mustOpen(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if n, d := set.X.Dims(); n != 84 || d != 1024 || set.Width != 32 || set.Height != 32 || set.Name != "pie68" {
		t.Fatalf("set %q is %d×%d of %d×%d images, want pie68, 84×1024 of 32×32", set.Name, n, d, set.Width, set.Height)
	}
	checkPIEImages(t, set, order)
	for i := range gnd {
		if set.Labels[i] != i%2 || index[i] != i/2 {
			t.Fatalf("image %d: subject %d index %d, want %d and %d", i, set.Labels[i], index[i], i%2, i/2)
		}
	}
}

// TestLoadPIE10Fixture loads a PIE10 file of one subject's 170 images (an
// image a row, uint8) with its index map: the images transposed into
// row-major order, and each image's map row by its position within the
// subject.
func TestLoadPIE10Fixture(t *testing.T) {
	gnd := make([]float64, 170)
	order := make([]int, 170)
	for i := range gnd {
		gnd[i] = 3 // subject 3 → label 2
		order[i] = i
	}
	dir := writeRoot(t, map[string][]byte{PIE10File: pie10MAT(gnd), PIE10MapFile: pieMapCSV(170)})
	set, info, err := LoadPIE10(mustOpen(t, dir))
	if err != nil {
		t.Fatal(err)
	}
	if n, _ := set.X.Dims(); n != 170 || set.Name != "pie10" || len(info) != 170 {
		t.Fatalf("set %q of %d images and %d infos, want pie10, 170 and 170", set.Name, n, len(info))
	}
	checkPIEImages(t, set, order)
	for i, in := range info {
		wantPose, wantFlash := "C05", i%22
		if i >= 85 {
			wantPose = "C27"
		}
		if i%5 == 0 {
			wantFlash = -1 // an empty flash column
		}
		if set.Labels[i] != 2 || in.Index != i || in.Pose != wantPose || in.Flash != wantFlash ||
			in.Subset != "illum_roomlights_off" || in.Condition != "flash" {
			t.Fatalf("image %d: label %d, info %+v; want label 2, index %d, pose %s, flash %d",
				i, set.Labels[i], in, i, wantPose, wantFlash)
		}
	}
}

// TestLoadPIERefusals: each defect of a PIE file or its map is an error
// naming the file and what is wrong, never a panic or a silent shift.
func TestLoadPIERefusals(t *testing.T) {
	ones := func(n int) []float64 {
		g := make([]float64, n)
		for i := range g {
			g[i] = 1
		}
		return g
	}
	w := matWriter{binary.LittleEndian}
	noGnd := w.file(matVar{name: "fea", class: 6, dims: []int32{1024, 1}, store: miDOUBLE, colMajor: make([]float64, 1024)})
	noFea := w.file(matVar{name: "gnd", class: 6, dims: []int32{1, 1}, store: miDOUBLE, colMajor: []float64{1}})
	shortGnd := w.file(
		matVar{name: "fea", class: 6, dims: []int32{1024, 2}, store: miDOUBLE, colMajor: make([]float64, 2048)},
		matVar{name: "gnd", class: 6, dims: []int32{1, 1}, store: miDOUBLE, colMajor: []float64{1}},
	)
	for _, c := range []struct {
		name string
		mat  []byte
		want []string
	}{
		{"no fea", noFea, []string{PIE68File, `no variable "fea"`, "gnd"}},
		{"no gnd", noGnd, []string{PIE68File, `no variable "gnd"`, "fea"}},
		{"1023 pixels", pie68MAT(ones(42), 1023), []string{PIE68File, "1023 pixels, want 1024"}},
		{"gnd short", shortGnd, []string{PIE68File, "gnd has 1 labels for 2 images"}},
		{"subject 0", pie68MAT(append(ones(41), 0), 1024), []string{PIE68File, "gnd[41] = 0, want a subject number ≥ 1"}},
		{"subject 1.5", pie68MAT(append(ones(41), 1.5), 1024), []string{"gnd[41] = 1.5"}},
		{"41 images", pie68MAT(ones(41), 1024), []string{PIE68File, "subject 1 has 41 images, want 42"}},
		{"43 images", pie68MAT(append(ones(42), 2), 1024), []string{"subject 2 has 1 images, want 42"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeRoot(t, map[string][]byte{PIE68File: c.mat})
			set, index, err := LoadPIE68(mustOpen(t, dir))
			if set != nil || index != nil {
				t.Errorf("a set and index with the error")
			}
			wantErr(t, err, c.want...)
		})
	}

	gnd := ones(170)
	for _, c := range []struct {
		name  string
		files map[string][]byte
		want  []string
	}{
		{"no map", map[string][]byte{PIE10File: pie10MAT(gnd)}, []string{PIE10MapFile, "not found"}},
		{"169 map rows", map[string][]byte{PIE10File: pie10MAT(gnd), PIE10MapFile: pieMapCSV(169)}, []string{PIE10MapFile, "169 rows, want 170"}},
		{"bad header", map[string][]byte{PIE10File: pie10MAT(gnd), PIE10MapFile: []byte("index,pose\n0,C05\n")},
			[]string{PIE10MapFile, "unexpected header"}},
		{"169 images", map[string][]byte{PIE10File: pie10MAT(gnd[:169]), PIE10MapFile: pieMapCSV(170)},
			[]string{PIE10File, "subject 1 has 169 images, want 170"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := LoadPIE10(mustOpen(t, writeRoot(t, c.files)))
			wantErr(t, err, c.want...)
		})
	}
}

// TestParsePIEMapRows: the map's rows must be numbered 0, 1, … in order
// and the flash column must be empty or an integer; the line named is the
// file's (the header is line 1).
func TestParsePIEMapRows(t *testing.T) {
	head := "within_subject_index_0based,pose,subset,condition,flash\n"
	for _, c := range []struct{ body, want string }{
		{"0,C05,expression,smile,\n2,C05,expression,blink,\n", `line 3: index "2", want 1`},
		{"zero,C05,expression,smile,\n", `line 2: index "zero", want 0`},
		{"0,C05,illum,flash,3.5\n", `line 2: flash "3.5" is not an integer`},
		{"0,C05,illum,flash\n", "wrong number of fields"},
	} {
		_, err := parsePIEMap([]byte(head + c.body))
		wantErr(t, err, c.want)
	}
	m, err := parsePIEMap([]byte(head + "0,C29,talking,talk,17\n1,C07,expression,neutral,\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []PIEInfo{{0, "C29", "talking", "talk", 17}, {1, "C07", "expression", "neutral", -1}}
	if len(m) != 2 || m[0] != want[0] || m[1] != want[1] {
		t.Errorf("map %+v, want %+v", m, want)
	}
}
