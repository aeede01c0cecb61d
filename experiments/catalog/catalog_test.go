package catalog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/runner"
)

// parseDataset returns a config whose dataset section is opts (YAML flow
// mapping entries) for the named dataset.
func parseDataset(t *testing.T, name, opts string) *config.Config {
	t.Helper()
	src := fmt.Sprintf("title: t\npaper: p\nkind: k\ndataset: {name: %s%s}\n", name, opts)
	c, err := config.Parse("data.yaml", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return c
}

// optionCases lists, for every registered dataset, option sets that Check
// accepts (want "") and rejects (want names the error).
var optionCases = []struct{ name, opts, want string }{
	{"two-rings", "", ""},
	{"two-rings", ", n: 10, radii: [0.5, 3], noise: 0, arc_start: [0, 90], arc_end: [180, 360], centre: [1, 1]", ""},
	{"two-rings", ", radii: [0, 1]", "want radii > 0"},
	{"two-rings", ", arc_start: [10, 0], arc_end: [10, 360]", "ring 0 arc from 10° to 10°"},
	{"two-rings", ", arc_end: [360, 400]", "ring 1 arc"},
	{"two-rings", ", noise: -1", "dataset.noise"},
	{"two-rings", ", radius: 1", `unknown key "radius"`},
	{"usps", "", ""},
	{"usps", ", digits: [3], train_per_digit: 5, test_per_digit: 2, scale: [0, 1]", ""},
	{"usps", ", digits: [1, 1]", "want distinct digits 0–9"},
	{"usps", ", digits: [10]", "want distinct digits 0–9"},
	{"usps", ", digits: [1.5]", "want distinct digits 0–9"},
	{"usps", ", scale: [1, 0]", "low < high"},
	{"usps", ", train_per_digit: 0", "dataset.train_per_digit"},
	{"yaleb", "", ""},
	{"yaleb", ", subsets: [1, 2], subjects: [1, 39], width: 8, height: 10", ""},
	{"yaleb", ", subsets: [6]", "want integers in [1, 5]"},
	{"yaleb", ", subjects: [0]", "want integers in [1, 39]"},
	{"yaleb", ", subsets: [1.5]", "want integers in [1, 5]"},
	{"yaleb", ", width: 8", "give both width and height"},
	{"yalefaces", "", ""},
	{"yalefaces", ", width: 8, height: 8, dedupe: false, labels: subject", ""},
	{"yalefaces", ", labels: pose", "dataset.labels"},
	{"yalefaces", ", height: 8", "give both width and height"},
	{"pie10", "", ""},
	{"pie10", ", subset: poses, labels: subject, subjects: [0, 9]", ""},
	{"pie10", ", subset: poses, labels: expression", "expression labels need subset: expression"},
	{"pie10", ", subjects: [10]", "want integers in [0, 9]"},
	{"pie10", ", subset: talking", "dataset.subset"},
	{"pie68", "", ""},
	{"pie68", ", subjects: 3", `unknown key "subjects"`},
	{"oilflow", "", ""},
	{"oilflow", ", split: vdn", ""},
	{"oilflow", ", split: all", "dataset.split"},
	{"orl", "", ""},
	{"orl", ", size: 3", `unknown key "size"`},
	{"scene15", "", ""},
	{"scene15", ", gist_size: 64", ""},
	{"scene15", ", gist_size: 4", "dataset.gist_size"},
	{"synthetic-images", "", ""},
	{"synthetic-images", ", classes: 2, groups: 2, per_cell: 3, test_per_cell: 2, labels: group, scale: [-1, 1], noise: 0", ""},
	{"synthetic-images", ", per_cell: 2, test_per_cell: 2", "leaves no training image"},
	{"synthetic-images", ", scale: [1, 1]", "low < high"},
	{"synthetic-images", ", labels: subject", "dataset.labels"},
	{"synthetic-images", ", width: 1", "dataset.width"},
}

// TestDatasetOptions checks every registered dataset's option parser
// without data: good options pass, each bad one is an error at its line
// naming the problem, and every dataset has cases here.
func TestDatasetOptions(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range optionCases {
		covered[tc.name] = true
		spec, ok := runner.LookupDataset(tc.name)
		if !ok {
			t.Fatalf("dataset %s is not registered", tc.name)
		}
		_, err := spec.Parse(parseDataset(t, tc.name, tc.opts).Dataset.Options)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s%s: %v", tc.name, tc.opts, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "data.yaml:")):
			t.Errorf("%s%s: error %v, want %q at a line", tc.name, tc.opts, err, tc.want)
		}
	}
	for _, d := range runner.Datasets() {
		if !covered[d.Name] {
			t.Errorf("dataset %s has no option cases", d.Name)
		}
		if d.Doc == "" {
			t.Errorf("dataset %s has no doc", d.Name)
		}
	}
}

// TestParsedOptions checks what the parsers hand the loaders: defaults
// and the conversions (PIE's default labels, USPS's pixel range).
func TestParsedOptions(t *testing.T) {
	pie, err := pieOptions(parseDataset(t, "pie10", ", subset: poses").Dataset.Options)
	if err != nil || pie.Labels != "pose" || pie.Subset != "poses" || pie.Subjects != nil {
		t.Errorf("pie10 poses: %+v, %v; want pose labels of every subject", pie, err)
	}
	us, err := uspsOptions(parseDataset(t, "usps", "").Dataset.Options)
	if err != nil || us.lo != -1 || us.hi != 1 || fmt.Sprint(us.Digits) != "[0 2 4 9]" || us.TrainPerDigit != 100 {
		t.Errorf("usps defaults: %+v, %v", us, err)
	}
	yb, err := yalebOptions(parseDataset(t, "yaleb", "").Dataset.Options)
	if err != nil || fmt.Sprint(yb.Subsets) != "[1]" || yb.Width != 0 {
		t.Errorf("yaleb defaults: %+v, %v", yb, err)
	}
	yf, err := yaleFacesOptions(parseDataset(t, "yalefaces", "").Dataset.Options)
	if err != nil || yf.labels != "condition" || !yf.Dedupe {
		t.Errorf("yalefaces defaults: %+v, %v", yf, err)
	}
	rings, err := ringsOptions(parseDataset(t, "two-rings", "").Dataset.Options)
	if err != nil || rings.N != 500 || rings.Radii != [2]float64{1, 2} || rings.ArcEnd != [2]float64{360, 360} {
		t.Errorf("two-rings defaults: %+v, %v", rings, err)
	}
}

// TestLoadNeedsRoot: every dataset that reads files says, without a data
// root, how to give one; with a root that lacks its files, it names the
// root's SHA256SUMS or the missing file; and bad options fail first.
func TestLoadNeedsRoot(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	empty := t.TempDir()
	if err := os.WriteFile(filepath.Join(empty, datasets.SumsFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, d := range runner.Datasets() {
		if !d.NeedsRoot {
			continue
		}
		c := parseDataset(t, d.Name, "")
		_, err := runner.NewEnv(c, "", nil).LoadData()
		if err == nil || !strings.Contains(err.Error(), "no data root") {
			t.Errorf("%s without a data root: %v", d.Name, err)
		}
		_, err = runner.NewEnv(c, empty, nil).LoadData()
		if err == nil || !strings.Contains(err.Error(), empty) && !strings.Contains(err.Error(), datasets.SumsFile) {
			t.Errorf("%s with an empty data root: %v", d.Name, err)
		}
	}
	for _, tc := range optionCases {
		if tc.want == "" {
			continue
		}
		c := parseDataset(t, tc.name, tc.opts)
		if _, err := runner.NewEnv(c, empty, nil).LoadData(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Load %s%s: %v, want %q", tc.name, tc.opts, err, tc.want)
		}
	}
}

// TestSyntheticLoad: 2 classes × 2 groups × 3 images with one of each cell
// held out give 8 training and 4 test images, labelled by group when asked,
// in the requested pixel range, and the same images for the same seed.
func TestSyntheticLoad(t *testing.T) {
	c := parseDataset(t, "synthetic-images", ", classes: 2, groups: 2, per_cell: 3, test_per_cell: 1, labels: group, scale: [-1, 1], width: 3, height: 2")
	data, err := runner.NewEnv(c, "", nil).LoadData()
	if err != nil {
		t.Fatal(err)
	}
	tr, te := data.Train, data.Test
	if r, cols := tr.X.Dims(); r != 8 || cols != 6 || te.X.RawMatrix().Rows != 4 || tr.Width != 3 || tr.Height != 2 {
		t.Fatalf("train %d×%d, test %d rows, images %d×%d", r, cols, te.X.RawMatrix().Rows, tr.Width, tr.Height)
	}
	if strings.Join(tr.LabelNames, ",") != "groupA,groupB" || tr.Name != "synthetic-train" || te.Name != "synthetic-test" {
		t.Errorf("label names %v, names %s %s", tr.LabelNames, tr.Name, te.Name)
	}
	groups := map[int]int{}
	for _, l := range te.Labels {
		groups[l]++
	}
	if groups[0] != 2 || groups[1] != 2 {
		t.Errorf("test labels %v, want two of each group", te.Labels)
	}
	lo, hi := mat.Min(tr.X), mat.Max(tr.X)
	if lo < -1 || hi > 1 || hi-lo < 0.5 {
		t.Errorf("pixels in [%g, %g], want a spread inside [−1, 1]", lo, hi)
	}
	again, err := runner.NewEnv(c, "", nil).LoadData()
	if err != nil || !mat.Equal(again.Train.X, tr.X) || !mat.Equal(again.Test.X, te.X) {
		t.Errorf("a second load with the same seed differs (%v)", err)
	}
	c = parseDataset(t, "two-rings", ", n: 12")
	data, err = runner.NewEnv(c, "", nil).LoadData()
	if err != nil || data.Train.X.RawMatrix().Rows != 12 || data.Test != nil {
		t.Errorf("two-rings n = 12: %v, %v", data, err)
	}
}

// writeScene15 builds a data root with one 12×12 grey JPEG per Scene-15
// class and its SHA256SUMS.
func writeScene15(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	rnd := rand.New(rand.NewPCG(1, 2))
	var sums strings.Builder
	var paths []string
	files := map[string][]byte{}
	for _, cl := range datasets.Scene15Classes {
		img := image.NewGray(image.Rect(0, 0, 12, 12))
		for i := range img.Pix {
			img.Pix[i] = uint8(rnd.IntN(256))
		}
		img.SetGray(0, 0, color.Gray{Y: 255})
		var buf bytes.Buffer
		if err := jpeg.Encode(&buf, img, nil); err != nil {
			t.Fatal(err)
		}
		p := datasets.Scene15Dir + "/train/" + cl + "/image_0001.jpg"
		files[p] = buf.Bytes()
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, files[p], 0o644); err != nil {
			t.Fatal(err)
		}
		h := sha256.Sum256(files[p])
		fmt.Fprintf(&sums, "%s  ./%s\n", hex.EncodeToString(h[:]), p)
	}
	if err := os.WriteFile(filepath.Join(dir, datasets.SumsFile), []byte(sums.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestScene15Cache: the GIST descriptors of a fixture root are computed
// once, written to the run cache, and read back identical by the next run;
// a run that finds them cached still reads every image, so a changed image
// is an error, not stale descriptors. Loading through the registry gives
// the same set, shared by every load in the process.
func TestScene15Cache(t *testing.T) {
	dir := writeScene15(t)
	c := parseDataset(t, "scene15", ", gist_size: 16")
	env := runner.NewEnv(c, dir, nil)
	env.CacheDir = t.TempDir()
	root, err := env.Root()
	if err != nil {
		t.Fatal(err)
	}
	o := datasets.GISTOptions{ImageSize: 16}
	first, err := loadScene15(env, root, o)
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := first.X.Dims(); r != 15 || len(first.Labels) != 15 {
		t.Fatalf("%d descriptors, %d labels; want one per class", r, len(first.Labels))
	}
	files, _ := filepath.Glob(filepath.Join(env.CacheDir, "features", "scene15-gist-*.gob"))
	if len(files) != 1 {
		t.Fatalf("cache holds %v, want one feature file", files)
	}
	second, err := loadScene15(env, root, o)
	if err != nil || !mat.Equal(first.X, second.X) {
		t.Fatalf("cached descriptors differ from the computed ones (%v)", err)
	}
	a, err := env.LoadData()
	if err != nil {
		t.Fatal(err)
	}
	b, err := runner.NewEnv(c, dir, nil).LoadData()
	if err != nil || a.Train != b.Train || !mat.Equal(a.Train.X, first.X) {
		t.Errorf("registry loads: shared %v, equal to the direct load %v (%v)", a.Train == b.Train, mat.Equal(a.Train.X, first.X), err)
	}
	p := filepath.Join(dir, datasets.Scene15Dir, "train", datasets.Scene15Classes[0], "image_0001.jpg")
	if err := os.WriteFile(p, []byte("not a jpeg"), 0o644); err != nil {
		t.Fatal(err)
	}
	env2 := runner.NewEnv(c, dir, nil)
	env2.CacheDir = env.CacheDir
	root2, err := env2.Root()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := loadScene15(env2, root2, o); err == nil {
		t.Error("a changed image was not noticed when the descriptors were cached")
	}
}
