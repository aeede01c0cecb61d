package datasets

import (
	"fmt"
	"math"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"
)

// yaleBLightings are the 64 point-light directions of the cropped Extended
// Yale B files, as the names appear in shared/data/SHA256SUMS
// (yaleBNN_P00<lighting>.pgm).
var yaleBLightings = strings.Fields(`
A+000E+00 A+000E+20 A+000E+45 A+000E+90 A+000E-20 A+000E-35 A+005E+10 A+005E-10
A+010E+00 A+010E-20 A+015E+20 A+020E+10 A+020E-10 A+020E-40 A+025E+00 A+035E+15
A+035E+40 A+035E+65 A+035E-20 A+050E+00 A+050E-40 A+060E+20 A+060E-20 A+070E+00
A+070E+45 A+070E-35 A+085E+20 A+085E-20 A+095E+00 A+110E+15 A+110E+40 A+110E+65
A+110E-20 A+120E+00 A+130E+20 A-005E+10 A-005E-10 A-010E+00 A-010E-20 A-015E+20
A-020E+10 A-020E-10 A-020E-40 A-025E+00 A-035E+15 A-035E+40 A-035E+65 A-035E-20
A-050E+00 A-050E-40 A-060E+20 A-060E-20 A-070E+00 A-070E+45 A-070E-35 A-085E+20
A-085E-20 A-095E+00 A-110E+15 A-110E+40 A-110E+65 A-110E-20 A-120E+00 A-130E+20`)

func yaleBRel(subject int, lighting string) string {
	return fmt.Sprintf("%s/yaleB%02d/yaleB%02d_P00%s.pgm", YaleBDir, subject, subject, lighting)
}

func TestYaleBSubsets(t *testing.T) {
	if len(yaleBLightings) != 64 {
		t.Fatalf("%d lightings listed, want 64", len(yaleBLightings))
	}
	bySubset := make(map[int][]string)
	for _, l := range yaleBLightings {
		img, ok, err := parseYaleBPath(yaleBRel(7, l))
		if err != nil || !ok {
			t.Fatalf("%s: ok = %v, err = %v", l, ok, err)
		}
		bySubset[img.Subset] = append(bySubset[img.Subset], l)
		// No lighting may sit near a subset bound, or rounding in
		// acos could move it: the nearest are 25° and 50° (A±025E+00,
		// A±050E+00), 0.5° below the bounds 25.5 and 50.5.
		for _, m := range yaleBSubsetMax {
			if math.Abs(img.Angle-m) < 0.49 {
				t.Errorf("%s: angle %v is within 0.49° of the bound %v", l, img.Angle, m)
			}
		}
	}
	// PROVENANCE.md, "Quirks worth a test": subset 1 is exactly these 7.
	want1 := []string{"A+000E+00", "A+005E+10", "A+005E-10", "A+010E+00", "A-005E+10", "A-005E-10", "A-010E+00"}
	if !reflect.DeepEqual(bySubset[1], want1) {
		t.Errorf("subset 1 = %v, want %v", bySubset[1], want1)
	}
	// Georghiades et al. (2001) report 7, 12, 12, 14 and 19 lightings in
	// subsets 1–5. The computed angle reproduces 7, 12 and 19, but puts
	// A±035E+40 (arccos(cos 35° cos 40°) = 51.13°) in subset 4 rather than
	// 3, giving 10 and 16: this pins that reading of the rule.
	var counts [6]int
	for s, ls := range bySubset {
		counts[s] = len(ls)
	}
	if want := [6]int{0, 7, 12, 10, 16, 19}; counts != want {
		t.Errorf("lightings per subset = %v, want %v", counts[1:], want[1:])
	}

	for _, c := range []struct {
		name   string
		angle  float64
		subset int
	}{
		// PROVENANCE.md: A+000E±20 is 20° off the axis, subset 2.
		{"A+000E+20", 20, 2},
		{"A+000E-20", 20, 2},
		{"A+000E+00", 0, 1},
		{"A+010E+00", 10, 1},
		// Values below computed with Python 3:
		// math.degrees(math.acos(math.cos(math.radians(a)) *
		// math.cos(math.radians(e)))), printed with 6 decimals.
		{"A+005E-10", 11.168953, 1},
		{"A+025E+00", 25, 2},
		{"A+050E+00", 50, 3},
		{"A+035E+40", 51.133577, 4},
		{"A-070E+45", 76.004555, 4},
		{"A+000E+90", 90, 5},
		// Azimuths beyond 90° put the light behind the face plane.
		{"A-130E+20", 127.158554, 5},
	} {
		img, _, err := parseYaleBPath(yaleBRel(1, c.name))
		if err != nil {
			t.Fatal(err)
		}
		// 1e-6°: the reference values are rounded to 6 decimals.
		if math.Abs(img.Angle-c.angle) > 1e-6 || img.Subset != c.subset {
			t.Errorf("%s: angle %v subset %d, want %v subset %d", c.name, img.Angle, img.Subset, c.angle, c.subset)
		}
	}
}

func TestParseYaleBPath(t *testing.T) {
	img, ok, err := parseYaleBPath(YaleBDir + "/yaleB39/yaleB39_P00A-035E+65.pgm")
	if err != nil || !ok {
		t.Fatalf("ok = %v, err = %v", ok, err)
	}
	if img.Subject != 39 || img.Azimuth != -35 || img.Elevation != 65 {
		t.Errorf("got subject %d A %d E %d, want 39 -35 65", img.Subject, img.Azimuth, img.Elevation)
	}
	for _, skip := range []string{
		YaleBDir + "/yaleB01/yaleB01_P00_Ambient.pgm",
		YaleBDir + "/yaleB11/yaleB11_P00A+050E-40.pgm.bad",
		YaleBDir + "/yaleB01/yaleB01_P00.info",
	} {
		if _, ok, err := parseYaleBPath(skip); ok || err != nil {
			t.Errorf("%s: ok = %v, err = %v, want skipped without error", skip, ok, err)
		}
	}
	for _, bad := range []string{
		YaleBDir + "/yaleB01/yaleB01_P00A+0E+00.pgm",
		YaleBDir + "/yaleB01/yaleB01_P01A+000E+00.pgm",
		YaleBDir + "/yaleB01/face.pgm",
		YaleBDir + "/yaleB02/yaleB01_P00A+000E+00.pgm",
		YaleBDir + "/yaleB01_P00A+000E+00.pgm",
	} {
		_, _, err := parseYaleBPath(bad)
		wantErr(t, err, bad)
	}
}

// yaleBFixture is a tiny Yale B root: 4×3 faces whose first pixel is the
// file's identity id/255 and whose other pixels are 0..10/255.
type yaleBFixture struct {
	files map[string][]byte
	ids   map[string]int // root-relative path → id
}

func tinyFace(id int) []byte {
	b := []byte("P5\n# tiny face\n4 3\n255\n")
	b = append(b, byte(id))
	for j := 1; j < 12; j++ {
		b = append(b, byte(j-1))
	}
	return b
}

func newYaleBFixture() *yaleBFixture {
	f := &yaleBFixture{files: make(map[string][]byte), ids: make(map[string]int)}
	id := 1
	add := func(rel string) {
		f.files[rel] = tinyFace(id)
		f.ids[rel] = id
		id++
	}
	// Subject 3 first, so file order in the map does not help.
	for _, l := range []string{"A+000E+00", "A+025E+00", "A+050E+00"} {
		add(yaleBRel(3, l))
	}
	for _, l := range []string{"A-005E-10", "A+010E+00", "A+000E+00", "A+000E+20", "A-035E+40"} {
		add(yaleBRel(1, l))
	}
	// Files the loader must skip: ambient, marked bad (a valid PGM in
	// subset 1 all the same), the .info list.
	add(YaleBDir + "/yaleB01/yaleB01_P00_Ambient.pgm")
	add(yaleBRel(1, "A+005E+10") + ".bad")
	add(yaleBRel(3, "A-010E+00") + ".bad")
	f.files[YaleBDir+"/yaleB01/yaleB01_P00.info"] = []byte("yaleB01_P00A+000E+00.pgm\n")
	// Unrelated data elsewhere in the root.
	f.files["orl/readme.txt"] = []byte("not Yale B\n")
	return f
}

// root writes the fixture with extra files on disk but not in SHA256SUMS.
func (f *yaleBFixture) root(t *testing.T, unlisted map[string][]byte) string {
	t.Helper()
	all := make(map[string][]byte, len(f.files)+len(unlisted))
	var skip []string
	for p, b := range f.files {
		all[p] = b
	}
	for p, b := range unlisted {
		all[p] = b
		skip = append(skip, p)
	}
	return writeRoot(t, all, skip...)
}

func TestRootList(t *testing.T) {
	f := newYaleBFixture()
	r := mustOpen(t, f.root(t, nil))
	got := r.List("yaleb/CroppedYale/yaleB03")
	want := []string{yaleBRel(3, "A+000E+00"), yaleBRel(3, "A+025E+00"), yaleBRel(3, "A+050E+00"), yaleBRel(3, "A-010E+00") + ".bad"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("List(yaleB03) = %v, want %v", got, want)
	}
	// Spellings of the same folder agree; a prefix of a folder name is not
	// a folder.
	for _, d := range []string{"./yaleb/CroppedYale/yaleB03/", "yaleb//CroppedYale/yaleB03"} {
		if g := r.List(d); !reflect.DeepEqual(g, want) {
			t.Errorf("List(%q) = %v, want %v", d, g, want)
		}
	}
	if g := r.List("yaleb/CroppedYale/yaleB0"); len(g) != 0 {
		t.Errorf("List(yaleB0) = %v, want nothing", g)
	}
	if g := r.List(""); len(g) != len(f.files) || !sort.StringsAreSorted(g) {
		t.Errorf("List(\"\") = %d paths (sorted %v), want all %d sorted", len(g), sort.StringsAreSorted(g), len(f.files))
	}
	if g := r.List("../elsewhere"); g != nil {
		t.Errorf("List outside the root = %v, want nil", g)
	}
	if g := (*Root)(nil).List("yaleb"); g != nil {
		t.Errorf("nil Root: List = %v, want nil", g)
	}
}

func TestLoadYaleBFixture(t *testing.T) {
	f := newYaleBFixture()
	// A subset-1 face on disk without a checksum line: the manifest is the
	// index, so it must not appear.
	stray := yaleBRel(1, "A-005E+10")
	dir := f.root(t, map[string][]byte{stray: tinyFace(99)})
	r := mustOpen(t, dir)

	for _, c := range []struct {
		name string
		o    YaleBOptions
		want []string // lightings as "subject/lighting", in order
	}{
		// By subject, then file name: '+' sorts before '-'.
		{"subset 1", YaleBOptions{Subsets: []int{1}},
			[]string{"1/A+000E+00", "1/A+010E+00", "1/A-005E-10", "3/A+000E+00"}},
		{"subsets 2, 1 of subject 3", YaleBOptions{Subsets: []int{2, 1}, Subjects: []int{3}},
			[]string{"3/A+000E+00", "3/A+025E+00"}},
		{"subjects in any order", YaleBOptions{Subsets: []int{3, 2}, Subjects: []int{3, 1}},
			[]string{"1/A+000E+20", "3/A+025E+00", "3/A+050E+00"}},
		{"subset 4", YaleBOptions{Subsets: []int{4}},
			[]string{"1/A-035E+40"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, imgs, err := LoadYaleB(r, c.o)
			if err != nil {
				t.Fatal(err)
			}
			rows, cols := s.X.Dims()
			if s.Name != "yaleb" || rows != len(c.want) || cols != 12 || s.Width != 4 || s.Height != 3 || len(imgs) != rows || len(s.Labels) != rows {
				t.Fatalf("got %q %d×%d (%d×%d images), %d labels, %d descriptions; want yaleb %d×12 (4×3)",
					s.Name, rows, cols, s.Width, s.Height, len(s.Labels), len(imgs), len(c.want))
			}
			for i, w := range c.want {
				var subj int
				var light string
				fmt.Sscanf(strings.Replace(w, "/", " ", 1), "%d %s", &subj, &light)
				rel := yaleBRel(subj, light)
				img := imgs[i]
				if img.Path != rel || img.Subject != subj || s.Labels[i] != subj {
					t.Errorf("row %d: %s (subject %d, label %d), want %s", i, img.Path, img.Subject, s.Labels[i], rel)
					continue
				}
				if want := yaleBSubset(img.Angle); img.Subset != want || !contains(c.o.Subsets, img.Subset) {
					t.Errorf("row %d: subset %d (angle %v), want %d, one of %v", i, img.Subset, img.Angle, want, c.o.Subsets)
				}
				// Exact: sample/255 as DecodePGM documents.
				row := s.X.RawRowView(i)
				if want := float64(f.ids[rel]) / 255; row[0] != want {
					t.Errorf("row %d: first pixel %v, want %v (file id %d)", i, row[0], want, f.ids[rel])
				}
				if want := float64(10) / 255; row[11] != want {
					t.Errorf("row %d: last pixel %v, want %v", i, row[11], want)
				}
			}
		})
	}
	// Every file read was verified, and none of the skipped ones was read.
	for _, fs := range r.Files() {
		base := path.Base(fs.Path)
		if strings.HasSuffix(base, ".bad") || strings.Contains(base, "Ambient") || fs.Path == stray {
			t.Errorf("%s was read", fs.Path)
		}
	}
}

func contains(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func TestLoadYaleBResize(t *testing.T) {
	f := newYaleBFixture()
	r := mustOpen(t, f.root(t, nil))
	s, imgs, err := LoadYaleB(r, YaleBOptions{Subsets: []int{1, 2}, Width: 2, Height: 2})
	if err != nil {
		t.Fatal(err)
	}
	rows, cols := s.X.Dims()
	if rows != 6 || cols != 4 || s.Width != 2 || s.Height != 2 {
		t.Fatalf("got %d×%d, image %d×%d; want 6×4, image 2×2", rows, cols, s.Width, s.Height)
	}
	// Each row is what Gray.Resize makes of the decoded file.
	for i, img := range imgs {
		g, err := DecodePGM("x", f.files[img.Path])
		if err != nil {
			t.Fatal(err)
		}
		if want := g.Resize(2, 2).Pix; !reflect.DeepEqual(s.X.RawRowView(i), want) {
			t.Errorf("row %d (%s) = %v, want %v", i, img.Path, s.X.RawRowView(i), want)
		}
	}
}

func TestLoadYaleBErrors(t *testing.T) {
	f := newYaleBFixture()
	dir := f.root(t, nil)
	r := mustOpen(t, dir)
	sums := filepath.Join(dir, SumsFile)
	for _, c := range []struct {
		o    YaleBOptions
		want []string
	}{
		{YaleBOptions{}, []string{"no illumination subsets", "subsets: [1]"}},
		{YaleBOptions{Subsets: []int{0}}, []string{"subset 0 is not in 1..5"}},
		{YaleBOptions{Subsets: []int{6}}, []string{"subset 6 is not in 1..5"}},
		{YaleBOptions{Subsets: []int{1, 1}}, []string{"subset 1 listed twice"}},
		{YaleBOptions{Subsets: []int{1}, Subjects: []int{0}}, []string{"subject 0"}},
		{YaleBOptions{Subsets: []int{1}, Subjects: []int{3, 3}}, []string{"subject 3 listed twice"}},
		{YaleBOptions{Subsets: []int{1}, Width: 92}, []string{"92×0", "both"}},
		{YaleBOptions{Subsets: []int{1}, Width: -1, Height: -1}, []string{"-1×-1"}},
		{YaleBOptions{Subsets: []int{1}, Subjects: []int{14}}, []string{"subject 14", sums, "yaleB14", "PROVENANCE.md"}},
		{YaleBOptions{Subsets: []int{5}}, []string{"no images in subsets [5]"}},
	} {
		_, _, err := LoadYaleB(r, c.o)
		wantErr(t, err, c.want...)
	}
	_, _, err := LoadYaleB(nil, YaleBOptions{Subsets: []int{1}})
	wantErr(t, err, "no data root", EnvDataRoot)

	// No Yale B in the root at all.
	empty := writeRoot(t, map[string][]byte{"orl/readme.txt": []byte("x")})
	_, _, err = LoadYaleB(mustOpen(t, empty), YaleBOptions{Subsets: []int{1}})
	wantErr(t, err, filepath.Join(empty, SumsFile), "lists no files", YaleBDir, "PROVENANCE.md")

	// Listed in SHA256SUMS but missing on disk, and changed on disk.
	missing := yaleBRel(1, "A+010E+00")
	full := filepath.Join(dir, filepath.FromSlash(missing))
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	_, _, err = LoadYaleB(r, YaleBOptions{Subsets: []int{1}})
	wantErr(t, err, full, "not found", "PROVENANCE.md")
	if err := os.WriteFile(full, tinyFace(200), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = LoadYaleB(r, YaleBOptions{Subsets: []int{1}})
	wantErr(t, err, full, "checksum mismatch")

	// A face of another size, a malformed PGM and a malformed name, each
	// with a matching checksum line.
	for _, c := range []struct {
		name string
		edit func(files map[string][]byte)
		want []string
	}{
		{"size", func(files map[string][]byte) {
			files[yaleBRel(3, "A+000E+00")] = []byte("P5 3 4 255\n012345678901")
		}, []string{filepath.FromSlash(yaleBRel(3, "A+000E+00")), "is 3×4", "4×3", "168×192"}},
		{"PGM", func(files map[string][]byte) {
			files[yaleBRel(1, "A+000E+00")] = []byte("P5 4 3 255\n\x00")
		}, []string{filepath.FromSlash(yaleBRel(1, "A+000E+00")), "truncated"}},
		{"name", func(files map[string][]byte) {
			files[YaleBDir+"/yaleB01/yaleB01_P00A+000E+00 copy.pgm"] = tinyFace(1)
		}, []string{SumsFile, "yaleB01_P00A+000E+00 copy.pgm", "not named like"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := newYaleBFixture()
			c.edit(g.files)
			_, _, err := LoadYaleB(mustOpen(t, g.root(t, nil)), YaleBOptions{Subsets: []int{1}})
			wantErr(t, err, c.want...)
		})
	}
}

// TestYaleBRealData runs on the real CroppedYale when RUNEXP_DATA names a
// data root (CI: ../shared/data); otherwise it is skipped.
func TestYaleBRealData(t *testing.T) {
	if os.Getenv(EnvDataRoot) == "" {
		t.Skip("RUNEXP_DATA not set; skipping the test on real Yale B data")
	}
	r, err := OpenRoot("")
	if err != nil {
		t.Fatal(err)
	}

	// Per-subset counts from the manifest alone. PROVENANCE.md: 38
	// subjects × 64 lightings = 2432 faces, 18 marked .bad, 2414 valid.
	// The lightings per subset (7, 12, 10, 16, 19; TestYaleBSubsets) times
	// 38, minus the .bad files in each subset (by their names in
	// SHA256SUMS: 3 in subset 1, all A-010E+00 of yaleB16–18; 0 in 2 and 3;
	// 7 in 4; 8 in 5), give the counts below.
	var perSubset [6]int
	var bad []string
	subjects := make(map[int]bool)
	for _, rel := range r.List(YaleBDir) {
		if strings.HasSuffix(rel, ".pgm.bad") {
			img, ok, err := parseYaleBPath(strings.TrimSuffix(rel, ".bad"))
			if err != nil || !ok {
				t.Fatalf("%s: cannot parse: %v", rel, err)
			}
			bad = append(bad, fmt.Sprintf("%s (subset %d)", path.Base(rel), img.Subset))
			continue
		}
		img, ok, err := parseYaleBPath(rel)
		if err != nil {
			t.Fatal(err)
		}
		if ok {
			perSubset[img.Subset]++
			subjects[img.Subject] = true
		}
	}
	t.Logf("images per subset 1..5: %v; %d subjects; %d .bad files skipped: %s", perSubset[1:], len(subjects), len(bad), strings.Join(bad, ", "))
	if want := [6]int{0, 263, 456, 380, 601, 714}; perSubset != want {
		t.Errorf("images per subset = %v, want %v", perSubset[1:], want[1:])
	}
	if len(subjects) != 38 || subjects[14] {
		t.Errorf("%d subjects (yaleB14 present: %v), want 38 without yaleB14", len(subjects), subjects[14])
	}
	if len(bad) != 18 {
		t.Errorf("%d .bad files, want 18 (PROVENANCE.md)", len(bad))
	}

	// Subset 1 at full size: 38 × 7 = 266 lightings, 3 of them .bad.
	s1, imgs1, err := LoadYaleB(r, YaleBOptions{Subsets: []int{1}})
	if err != nil {
		t.Fatal(err)
	}
	rows, cols := s1.X.Dims()
	if rows != 263 || cols != YaleBWidth*YaleBHeight || s1.Width != YaleBWidth || s1.Height != YaleBHeight {
		t.Errorf("subset 1: %d×%d (%d×%d images), want 263×32256 (168×192)", rows, cols, s1.Width, s1.Height)
	}
	have := make(map[string]bool)
	for _, img := range imgs1 {
		have[img.Path] = true
	}
	var missing []string
	for subj := 1; subj <= 39; subj++ {
		if subj == 14 {
			continue
		}
		for _, l := range []string{"A+000E+00", "A+005E+10", "A+005E-10", "A-005E+10", "A-005E-10", "A+010E+00", "A-010E+00"} {
			if rel := yaleBRel(subj, l); !have[rel] {
				missing = append(missing, path.Base(rel))
			}
		}
	}
	t.Logf("subset 1: %d images; missing from 38×7 = 266: %v", rows, missing)
	if want := []string{"yaleB16_P00A-010E+00.pgm", "yaleB17_P00A-010E+00.pgm", "yaleB18_P00A-010E+00.pgm"}; !reflect.DeepEqual(missing, want) {
		t.Errorf("subset 1 lacks %v, want %v (the .bad files)", missing, want)
	}
	// Read from the file: `xxd yaleB01_P00A+000E+00.pgm` shows the header
	// "P5\n168 192\n255\n" and then the bytes 50 50 54 5a 5c.
	if imgs1[0].Path != yaleBRel(1, "A+000E+00") {
		t.Errorf("first image %s, want yaleB01_P00A+000E+00.pgm", imgs1[0].Path)
	}
	if got, want := s1.X.RawRowView(0)[:5], scaled(255, 0x50, 0x50, 0x54, 0x5a, 0x5c); !reflect.DeepEqual(got, want) {
		t.Errorf("first pixels of yaleB01_P00A+000E+00.pgm = %v, want %v", got, want)
	}

	// Subsets 1–2 resized to Zheng & Lai's 92×112.
	start := time.Now()
	s12, imgs12, err := LoadYaleB(r, YaleBOptions{Subsets: []int{1, 2}, Width: 92, Height: 112})
	if err != nil {
		t.Fatal(err)
	}
	elapsed := time.Since(start)
	rows, cols = s12.X.Dims()
	t.Logf("subsets 1–2 resized to 92×112: %d×%d in %v", rows, cols, elapsed)
	if rows != 719 || cols != 10304 || s12.Width != 92 || s12.Height != 112 || len(imgs12) != 719 {
		t.Errorf("subsets 1–2: %d×%d (%d×%d images), want 719×10304 (92×112)", rows, cols, s12.Width, s12.Height)
	}
	for i, l := range s12.Labels {
		if l != imgs12[i].Subject || (i > 0 && l < s12.Labels[i-1]) {
			t.Fatalf("row %d: label %d, subject %d, previous label %d; want labels = subjects, ascending", i, l, imgs12[i].Subject, s12.Labels[i-1])
		}
	}
	data := s12.X.RawMatrix().Data
	lo, hi := data[0], data[0]
	for _, v := range data {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	if lo < 0 || hi > 1 {
		t.Errorf("resized values in [%v, %v], want within [0, 1]", lo, hi)
	}
}
