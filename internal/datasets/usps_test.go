package datasets

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// imageID recovers the file position k of a fixture image from its first
// pixel, k/100 (see fixturePixels).
func imageID(x *mat.Dense, i int) int { return int(math.Round(x.At(i, 0) * 100)) }

func TestLoadUSPSFixture(t *testing.T) {
	r := mustOpen(t, uspsRoot(t))
	o := USPSOptions{Digits: []int{2, 0}, TrainPerDigit: 4, TestPerDigit: 3}
	train, test, err := LoadUSPS(r, o, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		set      *Set
		name     string
		per      int
		fileLabs []int
	}{
		{train, "usps-train", o.TrainPerDigit, fixtureTrainLabels},
		{test, "usps-test", o.TestPerDigit, fixtureTestLabels},
	} {
		s := c.set
		if s.Name != c.name || s.Width != 16 || s.Height != 16 {
			t.Errorf("%s: Name, Width, Height = %q, %d, %d", c.name, s.Name, s.Width, s.Height)
		}
		rows, cols := s.X.Dims()
		if rows != len(o.Digits)*c.per || cols != 256 || len(s.Labels) != rows {
			t.Fatalf("%s: X is %d×%d with %d labels, want %d×256", c.name, rows, cols, len(s.Labels), len(o.Digits)*c.per)
		}
		seen := make(map[int]bool)
		for i := range rows {
			// Digits come in the order asked for, c.per of each.
			if want := o.Digits[i/c.per]; s.Labels[i] != want {
				t.Errorf("%s: Labels[%d] = %d, want %d", c.name, i, s.Labels[i], want)
			}
			k := imageID(s.X, i)
			if seen[k] {
				t.Errorf("%s: image %d drawn twice", c.name, k)
			}
			seen[k] = true
			if c.fileLabs[k] != s.Labels[i] {
				t.Errorf("%s: row %d is image %d, a %d, labelled %d", c.name, i, k, c.fileLabs[k], s.Labels[i])
			}
			// Exact: strconv.ParseFloat rounds correctly, so "0.0700",
			// "0.07" and float64(7)/100 are the same float64, as are
			// "-0.7500" and "-0.75".
			if got, want := mat.Row(nil, i, s.X), fixturePixels(k); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: row %d (image %d) = %v, want %v", c.name, i, k, got, want)
			}
		}
	}
	if got := r.Files(); len(got) != 2 || got[0].Path != USPSTestFile || got[1].Path != USPSTrainFile {
		t.Errorf("Files() = %v, want the two USPS files", got)
	}
}

func TestLoadUSPSDeterminism(t *testing.T) {
	r := mustOpen(t, uspsRoot(t))
	o := USPSOptions{Digits: []int{0, 2}, TrainPerDigit: 3, TestPerDigit: 2}
	ids := func(seed uint64) []int {
		train, test, err := LoadUSPS(r, o, rand.New(rand.NewPCG(seed, 1)))
		if err != nil {
			t.Fatal(err)
		}
		var out []int
		for _, s := range []*Set{train, test} {
			n, _ := s.X.Dims()
			for i := range n {
				out = append(out, imageID(s.X, i))
			}
		}
		return out
	}
	a, b := ids(1), ids(1)
	if !reflect.DeepEqual(a, b) {
		t.Errorf("same seed, different selections: %v and %v", a, b)
	}
	// There are 6·5·4 · 5·4·3 · 4·3 · 3·2 = 518400 ordered selections, so
	// two seeds agreeing would be a 1 in ~5·10⁵ coincidence; the seeds are
	// fixed, so this cannot flake.
	if c := ids(2); reflect.DeepEqual(a, c) {
		t.Errorf("seeds 1 and 2 gave the same selection %v", a)
	}
}

// TestUSPSDrawUniform checks that each image of a digit is equally likely to
// be drawn first. With 50000 draws of 1 of 5, each frequency has standard
// error sqrt(0.2·0.8/50000) ≈ 0.0018, so the tolerance 0.01 is over 5 standard
// errors; the seed is fixed, so the test is deterministic anyway.
func TestUSPSDrawUniform(t *testing.T) {
	const n, draws = 5, 50000
	f := &uspsFile{pix: make([]float64, n*uspsPixels)}
	for k := range n {
		f.pix[k*uspsPixels] = float64(k)
		f.byDig[3] = append(f.byDig[3], k)
	}
	rnd := rand.New(rand.NewPCG(7, 7))
	var count [n]int
	for range draws {
		s := f.draw("x", []int{3}, 1, rnd)
		count[int(s.X.At(0, 0))]++
	}
	for k, c := range count {
		if p := float64(c) / draws; math.Abs(p-1.0/n) > 0.01 {
			t.Errorf("image %d drawn first with frequency %.4f, want 0.2±0.01", k, p)
		}
	}
}

func TestLoadUSPSTooMany(t *testing.T) {
	dir := uspsRoot(t)
	r := mustOpen(t, dir)
	rnd := rand.New(rand.NewPCG(1, 1))
	// The fixture training file has 3 ones; its test file 3 twos.
	_, _, err := LoadUSPS(r, USPSOptions{Digits: []int{0, 1}, TrainPerDigit: 4, TestPerDigit: 1}, rnd)
	wantErr(t, err, "digit 1", "asked for 4 training", "only 3", filepath.Join(dir, "usps", "zip.train.gz"))
	_, _, err = LoadUSPS(r, USPSOptions{Digits: []int{2}, TrainPerDigit: 1, TestPerDigit: 10}, rnd)
	wantErr(t, err, "digit 2", "asked for 10 test", "only 3", filepath.Join(dir, "usps", "zip.test.gz"))
	// Digit 7 is absent from the fixture.
	_, _, err = LoadUSPS(r, USPSOptions{Digits: []int{7}, TrainPerDigit: 1, TestPerDigit: 1}, rnd)
	wantErr(t, err, "digit 7", "only 0")
}

func TestLoadUSPSBadOptions(t *testing.T) {
	r := mustOpen(t, uspsRoot(t))
	rnd := rand.New(rand.NewPCG(1, 1))
	for _, c := range []struct {
		o    USPSOptions
		want string
	}{
		{USPSOptions{Digits: []int{0, 10}, TrainPerDigit: 1, TestPerDigit: 1}, "digit 10 is not in 0..9"},
		{USPSOptions{Digits: []int{-1}, TrainPerDigit: 1, TestPerDigit: 1}, "digit -1 is not in 0..9"},
		{USPSOptions{Digits: []int{2, 2}, TrainPerDigit: 1, TestPerDigit: 1}, "listed twice"},
		{USPSOptions{TrainPerDigit: 1, TestPerDigit: 1}, "no digits"},
		{USPSOptions{Digits: []int{0}, TrainPerDigit: 0, TestPerDigit: 1}, "TrainPerDigit is 0"},
		{USPSOptions{Digits: []int{0}, TrainPerDigit: 1, TestPerDigit: -3}, "TestPerDigit is -3"},
	} {
		_, _, err := LoadUSPS(r, c.o, rnd)
		wantErr(t, err, c.want)
	}
	_, _, err := LoadUSPS(r, USPSOptions{Digits: []int{0}, TrainPerDigit: 1, TestPerDigit: 1}, nil)
	wantErr(t, err, "nil random generator")
}

func TestLoadUSPSMissingFile(t *testing.T) {
	dir := writeRoot(t, map[string][]byte{
		USPSTrainFile: gz(t, fixtureUSPSText(fixtureTrainLabels, trainStyle)),
	})
	_, _, err := LoadUSPS(mustOpen(t, dir), USPSOptions{Digits: []int{0}, TrainPerDigit: 1, TestPerDigit: 1}, rand.New(rand.NewPCG(1, 1)))
	wantErr(t, err, filepath.Join(dir, "usps", "zip.test.gz"), "not found", "PROVENANCE.md", "RUNEXP_DATA")
}

func TestLoadUSPSChecksumMismatch(t *testing.T) {
	dir := uspsRoot(t)
	// Replace the training file by a valid USPS file with one image fewer:
	// it parses, but it is not the file SHA256SUMS describes.
	short := gz(t, fixtureUSPSText(fixtureTrainLabels[:len(fixtureTrainLabels)-1], trainStyle))
	if err := os.WriteFile(filepath.Join(dir, "usps", "zip.train.gz"), short, 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadUSPS(mustOpen(t, dir), USPSOptions{Digits: []int{0}, TrainPerDigit: 1, TestPerDigit: 1}, rand.New(rand.NewPCG(1, 1)))
	wantErr(t, err, filepath.Join(dir, "usps", "zip.train.gz"), "checksum mismatch")
}

func TestUSPSMalformed(t *testing.T) {
	good := trainStyle(3, fixturePixels(0))
	fields := strings.Fields(testStyle(3, fixturePixels(0)))
	line := func(f []string) string { return strings.Join(f, " ") }
	with := func(i int, v string) string {
		g := append([]string(nil), fields...)
		g[i] = v
		return line(g)
	}
	for _, c := range []struct {
		name, bad string
		want      []string
	}{
		{"short", line(fields[:200]), []string{"want 257 fields", "got 200"}},
		{"long", line(append(append([]string(nil), fields...), "0")), []string{"got 258"}},
		{"label not integer", with(0, "3.5"), []string{`label "3.5"`}},
		{"label out of range", with(0, "10"), []string{`label "10"`}},
		{"label text", with(0, "x"), []string{`label "x"`}},
		{"pixel text", with(5, "abc"), []string{"pixel 5", `"abc"`}},
		{"pixel out of range", with(256, "1.5"), []string{"pixel 256", `"1.5"`}},
		{"pixel NaN", with(1, "NaN"), []string{"pixel 1", `"NaN"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Bad line third, after a good line and a blank one, so the
			// reported number must count every line.
			text := good + "\n\n" + c.bad + "\n" + good + "\n"
			dir := writeRoot(t, map[string][]byte{USPSTrainFile: gz(t, text)})
			_, err := readUSPS(mustOpen(t, dir), USPSTrainFile)
			wantErr(t, err, append([]string{filepath.Join(dir, "usps", "zip.train.gz") + ":3:"}, c.want...)...)
		})
	}

	dir := writeRoot(t, map[string][]byte{
		USPSTrainFile: []byte("not gzip"),
		USPSTestFile:  gz(t, "\n\n"),
	})
	r := mustOpen(t, dir)
	_, err := readUSPS(r, USPSTrainFile)
	wantErr(t, err, filepath.Join(dir, "usps", "zip.train.gz"), "not a gzip file")
	_, err = readUSPS(r, USPSTestFile)
	wantErr(t, err, filepath.Join(dir, "usps", "zip.test.gz"), "no digits")
}

// TestUSPSNumberStyles parses lines written exactly as the two real files
// write them (PROVENANCE.md; the first lines of zip.train.gz and
// zip.test.gz begin "6.0000 -1.0000 … -0.6310 0.8620" and "9 -1 … -0.948
// -0.561 0.148").
func TestUSPSNumberStyles(t *testing.T) {
	pad := func(prefix string, n int, fill string) string {
		return prefix + strings.Repeat(" "+fill, n)
	}
	train := pad("6.0000 -0.6310 0.8620 -0.1670", 253, "-1.0000") + " \n"
	test := pad("9 -0.948 -0.561 0.148", 253, "-1") + "\n"
	for _, c := range []struct {
		text  string
		label int
		first []float64
	}{
		{train, 6, []float64{-0.631, 0.862, -0.167, -1}},
		{test, 9, []float64{-0.948, -0.561, 0.148, -1}},
	} {
		f, err := parseUSPS("fixture", strings.NewReader(c.text))
		if err != nil {
			t.Fatal(err)
		}
		if len(f.labels) != 1 || f.labels[0] != c.label {
			t.Errorf("labels = %v, want [%d]", f.labels, c.label)
		}
		// Exact: ParseFloat("-0.6310") and the literal -0.631 are both the
		// float64 nearest to −0.631.
		if got := f.pix[:4]; !reflect.DeepEqual(got, c.first) {
			t.Errorf("first pixels = %v, want %v", got, c.first)
		}
		if f.pix[255] != -1 {
			t.Errorf("last pixel = %v, want -1", f.pix[255])
		}
	}
}

func TestUSPSCountsFixture(t *testing.T) {
	train, test, err := USPSCounts(mustOpen(t, uspsRoot(t)))
	if err != nil {
		t.Fatal(err)
	}
	// Counted by hand from fixtureTrainLabels and fixtureTestLabels.
	if want := [10]int{6, 3, 5}; train != want {
		t.Errorf("train counts = %v, want %v", train, want)
	}
	if want := [10]int{4, 2, 3}; test != want {
		t.Errorf("test counts = %v, want %v", test, want)
	}
}

// TestUSPSRealData runs on the real files when RUNEXP_DATA names a data root
// (CI: ../shared/data); otherwise it is skipped.
func TestUSPSRealData(t *testing.T) {
	if os.Getenv(EnvDataRoot) == "" {
		t.Skip("RUNEXP_DATA not set; skipping the test on real USPS data")
	}
	r, err := OpenRoot("")
	if err != nil {
		t.Fatal(err)
	}
	train, test, err := USPSCounts(r)
	if err != nil {
		t.Fatal(err)
	}
	// usps/zip.info.txt, shipped with the data, and PROVENANCE.md (digits
	// 0/2/4/9: train 1194/731/652/644, test 359/198/200/177; 7291 and 2007
	// in all).
	wantTrain := [10]int{1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644}
	wantTest := [10]int{359, 264, 198, 166, 200, 160, 170, 147, 166, 177}
	if train != wantTrain {
		t.Errorf("train counts = %v, want %v", train, wantTrain)
	}
	if test != wantTest {
		t.Errorf("test counts = %v, want %v", test, wantTest)
	}

	// The selection used by the USPS denoising tables: digits 0, 2, 4, 9,
	// 100 training and 100 test images each.
	o := USPSOptions{Digits: []int{0, 2, 4, 9}, TrainPerDigit: 100, TestPerDigit: 100}
	tr, te, err := LoadUSPS(r, o, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Set{tr, te} {
		rows, cols := s.X.Dims()
		if rows != 400 || cols != 256 {
			t.Fatalf("%s: X is %d×%d, want 400×256", s.Name, rows, cols)
		}
		// PROVENANCE.md: grey levels in [-1, 1].
		if lo, hi := mat.Min(s.X), mat.Max(s.X); lo < -1 || hi > 1 {
			t.Errorf("%s: values in [%v, %v], want within [-1, 1]", s.Name, lo, hi)
		}
		for i, l := range s.Labels {
			if want := o.Digits[i/100]; l != want {
				t.Fatalf("%s: Labels[%d] = %d, want %d", s.Name, i, l, want)
			}
		}
	}
	if got := r.Files(); len(got) != 2 {
		t.Errorf("Files() = %v, want the two USPS files", got)
	}
}
