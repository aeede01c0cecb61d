package config_test

import (
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// head is the smallest valid config: the four required keys on lines 1–4,
// so a snippet appended to it starts on line 5.
const head = "title: t\npaper: p\nkind: k\ndataset: {name: d}\n"

// mustParse parses src as f.yaml and fails the test on error.
func mustParse(t *testing.T, src string) *config.Config {
	t.Helper()
	c, err := config.Parse("f.yaml", []byte(src))
	if err != nil {
		t.Fatalf("Parse:\n%s\nunexpected error: %v", src, err)
	}
	return c
}

func TestParseRealConfigs(t *testing.T) {
	// Every expected value below is copied from the YAML file named in the
	// case; the comparisons are exact because YAML decimal literals and
	// Go float64 literals round to the same binary64 value.
	for _, tc := range []struct {
		file       string
		kind       string
		seed       uint64
		widthName  string
		widths     []float64
		components []int
		methods    []string // labels
		claims     []string // ids
		gridPoints int      // len(widths) × len(components)
	}{
		{
			file:       "abrahamsen-hansen-fig2.yaml",
			kind:       "distortion",
			seed:       1,
			widthName:  "c",
			widths:     []float64{0.02, 0.05, 0.1, 0.2, 0.5, 1, 2},
			components: []int{2, 3, 5, 10, 20, 50},
			claims:     []string{"c9-nonlinearity", "c9-dimension"},
			gridPoints: 7 * 6,
		},
		{
			file:       "abrahamsen-hansen-fig3.yaml",
			kind:       "local-minima",
			seed:       1,
			widthName:  "c",
			widths:     []float64{0.05, 0.1, 0.2, 0.5, 1, 2, 5},
			components: []int{50},
			methods:    []string{"Mika et al."},
			claims:     []string{"c8-many-minima", "c8-unique-when-linear", "c8-not-denoised-when-linear"},
			gridPoints: 7 * 1,
		},
	} {
		t.Run(tc.file, func(t *testing.T) {
			c, err := config.Load(filepath.Join("..", "..", "configs", tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if c.Name != strings.TrimSuffix(tc.file, ".yaml") {
				t.Errorf("Name = %q, want %q", c.Name, strings.TrimSuffix(tc.file, ".yaml"))
			}
			if len(c.SHA256) != 64 {
				t.Errorf("SHA256 = %q, want 64 hex digits", c.SHA256)
			}
			if c.Kind != tc.kind {
				t.Errorf("Kind = %q, want %q", c.Kind, tc.kind)
			}
			if c.Seed != tc.seed {
				t.Errorf("Seed = %d, want %d", c.Seed, tc.seed)
			}
			if c.Paper != "abrahamsen-hansen-regularized-preimage" {
				t.Errorf("Paper = %q", c.Paper)
			}
			if c.Dataset.Name != "two-rings" {
				t.Errorf("Dataset.Name = %q, want two-rings", c.Dataset.Name)
			}
			if c.Dataset.Options.Has("name") {
				t.Errorf("dataset name left among the dataset options")
			}
			// Both files: "n: 500" and "radii: [1, 2]".
			if got := c.Dataset.Options.Values["n"]; got != 500 {
				t.Errorf("dataset n = %#v, want int 500", got)
			}
			if got, want := c.Dataset.Options.Values["radii"], []any{1, 2}; !reflect.DeepEqual(got, want) {
				t.Errorf("dataset radii = %#v, want %#v", got, want)
			}
			if c.Corruption.Type != "none" {
				t.Errorf("Corruption.Type = %q, want none (no corruption section)", c.Corruption.Type)
			}
			if c.Model.Kernel != "gaussian" || c.Model.WidthName != tc.widthName {
				t.Errorf("kernel %q width %q, want gaussian %q", c.Model.Kernel, c.Model.WidthName, tc.widthName)
			}
			if !reflect.DeepEqual(c.Model.Widths, tc.widths) {
				t.Errorf("Widths = %v, want %v", c.Model.Widths, tc.widths)
			}
			if !reflect.DeepEqual(c.Model.Components, tc.components) {
				t.Errorf("Components = %v, want %v", c.Model.Components, tc.components)
			}
			if c.Model.Energy != nil {
				t.Errorf("Energy = %v, want none", c.Model.Energy)
			}
			if n := len(c.ModelGrid()); n != tc.gridPoints {
				t.Errorf("len(ModelGrid()) = %d, want %d", n, tc.gridPoints)
			}
			var labels []string
			for _, m := range c.Methods {
				labels = append(labels, m.Label)
			}
			if !reflect.DeepEqual(labels, tc.methods) {
				t.Errorf("method labels = %q, want %q", labels, tc.methods)
			}
			var ids []string
			for _, cl := range c.Claims {
				ids = append(ids, cl.ID)
				if cl.Line == 0 || cl.Source == "" || cl.Statement == "" {
					t.Errorf("claim %s: line %d, source %q, statement %q", cl.ID, cl.Line, cl.Source, cl.Statement)
				}
			}
			if !reflect.DeepEqual(ids, tc.claims) {
				t.Errorf("claim ids = %q, want %q", ids, tc.claims)
			}
		})
	}
}

func TestParseFig3Details(t *testing.T) {
	c, err := config.Load(filepath.Join("..", "..", "configs", "abrahamsen-hansen-fig3.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// methods: - name: mika, params: {max_iter: 1000, tol: 1.0e-9}.
	m := c.Methods[0]
	if m.Name != "mika" {
		t.Errorf("method name %q, want mika", m.Name)
	}
	want := map[string]any{"max_iter": 1000, "tol": 1e-9}
	if !reflect.DeepEqual(m.Params.Values, want) {
		t.Errorf("params = %#v, want %#v", m.Params.Values, want)
	}
	// outputs: width 5.5, height 5.5; dir not given.
	if c.Outputs != (config.Outputs{Width: 5.5, Height: 5.5}) {
		t.Errorf("Outputs = %+v, want 5.5×5.5 cm and no dir", c.Outputs)
	}
	// experiment: point [0, 0], distinct_tol 1.0e-3, columns 4.
	r := c.Experiment.Reader("experiment")
	if p := r.Floats("point", nil, 2); !reflect.DeepEqual(p, []float64{0, 0}) {
		t.Errorf("experiment.point = %v, want [0 0]", p)
	}
	if tol := r.Float("distinct_tol", 0, nil, "a number"); tol != 1e-3 {
		t.Errorf("experiment.distinct_tol = %v, want 1e-3", tol)
	}
	if cols := r.Int("columns", 0, 1); cols != 4 {
		t.Errorf("experiment.columns = %d, want 4", cols)
	}
	if err := r.Err(); err != nil {
		t.Errorf("experiment: %v", err)
	}
}

// TestParseErrors checks that each mistake is reported at the line of the
// offending key or value (counted by hand in the snippet) and that the
// message says what was expected.
func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  string
		line int      // 0: the error has no line
		want []string // substrings of the message
	}{
		{
			name: "unknown top-level key",
			src:  head + "colour: red\n",
			line: 5,
			want: []string{`config: unknown key "colour"`, "expected one of: title, paper, kind, seed, repeats, notes, reading, variant_of, diagnostic, reads, post_hoc, moves, ambiguities, stand_in, dataset, corruption, model, methods, experiment, outputs, paper_table, reference, claims"},
		},
		{
			name: "unknown key in model",
			src:  head + "model:\n  kernel: linear\n  colour: red\n",
			line: 7,
			want: []string{`model: unknown key "colour"`, "expected one of: kernel, c, gamma, sigma, degree, offset, components, energy"},
		},
		{
			name: "duplicate top-level key",
			src:  "title: a\ntitle: b\npaper: p\nkind: k\ndataset: {name: d}\n",
			line: 2,
			want: []string{`config: key "title" appears twice`},
		},
		{
			name: "duplicate key in model",
			src:  head + "model:\n  kernel: linear\n  components: 2\n  kernel: gaussian\n",
			line: 8,
			want: []string{`model: key "kernel" appears twice`},
		},
		{
			name: "duplicate key in free-form section",
			src:  head + "experiment:\n  a: 1\n  a: 2\n",
			line: 7,
			want: []string{`experiment: key "a" appears twice`},
		},
		{
			name: "title is a list",
			src:  "title: [1, 2]\npaper: p\nkind: k\ndataset: {name: d}\n",
			line: 1,
			want: []string{"title: want a string, got a list"},
		},
		{
			name: "seed is a string",
			src:  head + "seed: \"abc\"\n",
			line: 5,
			want: []string{`seed: want an integer, got the string "abc"`},
		},
		{
			name: "components not an integer",
			src:  head + "model:\n  components: 2.5\n",
			line: 6,
			want: []string{"model.components: want an integer, got 2.5"},
		},
		{
			name: "negative seed",
			src:  head + "seed: -1\n",
			line: 5,
			want: []string{"seed: -1 is impossible, want an integer ≥ 0"},
		},
		{
			name: "zero components",
			src:  head + "model:\n  components: 0\n",
			line: 6,
			want: []string{"model.components: 0 is impossible, want an integer ≥ 1"},
		},
		{
			name: "zero components inside a list points at the item",
			src:  head + "model:\n  components: [1,\n    0]\n",
			line: 7,
			want: []string{"model.components: 0 is impossible"},
		},
		{
			name: "empty components list",
			src:  head + "model:\n  components: []\n",
			line: 6,
			want: []string{"model.components: empty list"},
		},
		{
			name: "energy above one",
			src:  head + "model:\n  energy: 1.5\n",
			line: 6,
			want: []string{"model.energy: 1.5 is impossible, want a fraction in (0, 1]"},
		},
		{
			name: "negative width",
			src:  head + "model:\n  kernel: gaussian\n  c: -1\n",
			line: 7,
			want: []string{"model.c: -1 is impossible, want a width > 0"},
		},
		{
			name: "negative width inside a list points at the item",
			src:  head + "model:\n  kernel: gaussian\n  c: [0.1,\n      -1]\n",
			line: 8,
			want: []string{"model.c: -1 is impossible, want a width > 0"},
		},
		{
			name: "width not a number",
			src:  head + "model:\n  kernel: gaussian\n  sigma: wide\n",
			line: 7,
			want: []string{`model.sigma: want a number, got the string "wide"`},
		},
		{
			name: "negative variance",
			src:  head + "corruption:\n  type: gaussian\n  variance: -0.1\n",
			line: 7,
			want: []string{"corruption.variance: -0.1 is impossible, want a variance ≥ 0"},
		},
		{
			// The error sits on the mapping, whose line is its first key's.
			name: "missing required key",
			src:  "title: t\npaper: p\ndataset: {name: d}\n",
			line: 1,
			want: []string{`config: missing required key "kind"`},
		},
		{
			name: "dataset without name",
			src:  "title: t\npaper: p\nkind: k\ndataset:\n  n: 5\n",
			line: 5,
			want: []string{"dataset: want a name: string"},
		},
		{
			name: "root is not a mapping",
			src:  "- title: t\n",
			line: 1,
			want: []string{"config: want a mapping", "got a list"},
		},
		{
			name: "gaussian without width",
			src:  head + "model:\n  kernel: gaussian\n  components: 3\n",
			line: 6,
			want: []string{"model: a gaussian kernel needs exactly one of c", "gamma", "sigma"},
		},
		{
			name: "gaussian with two widths",
			src:  head + "model:\n  kernel: gaussian\n  c: 1\n  sigma: 1\n",
			line: 6,
			want: []string{"model: a gaussian kernel needs exactly one of c"},
		},
		{
			name: "unknown kernel",
			src:  head + "model:\n  kernel: laplacian\n",
			line: 6,
			want: []string{`model.kernel: want gaussian, linear or polynomial, got "laplacian"`},
		},
		{
			name: "components and energy",
			src:  head + "model:\n  components: 3\n  energy: 0.9\n",
			line: 7,
			want: []string{"model: give components or energy, not both"},
		},
		{
			name: "width for a linear kernel",
			src:  head + "model:\n  kernel: linear\n  gamma: 0.5\n",
			line: 7,
			want: []string{`model.gamma: only a gaussian kernel has a width (kernel is "linear")`},
		},
		{
			name: "polynomial without degree",
			src:  head + "model:\n  kernel: polynomial\n",
			line: 6,
			want: []string{"model: a polynomial kernel needs degree"},
		},
		{
			name: "degree for a gaussian kernel",
			src:  head + "model:\n  kernel: gaussian\n  c: 1\n  degree: 2\n",
			line: 8,
			want: []string{"model.degree: only a polynomial kernel has a degree"},
		},
		{
			name: "corruption with std and variance",
			src:  head + "corruption:\n  type: gaussian\n  std: 0.5\n  variance: 0.25\n",
			line: 7,
			want: []string{"corruption: gaussian noise needs exactly one of std or variance"},
		},
		{
			name: "corruption without type",
			src:  head + "corruption:\n  std: 0.5\n",
			line: 6,
			want: []string{"corruption: want type: none | gaussian"},
		},
		{
			name: "corruption of an unknown type",
			src:  head + "corruption:\n  type: salt\n",
			line: 6,
			want: []string{`corruption.type: want one of none, gaussian, occlusion, got "salt"`},
		},
		{
			name: "unknown key in gaussian corruption",
			src:  head + "corruption:\n  type: gaussian\n  std: 0.1\n  rate: 3\n",
			line: 8,
			want: []string{`corruption: unknown key "rate"`},
		},
		{
			name: "methods not a list",
			src:  head + "methods: {name: mika}\n",
			line: 5,
			want: []string{"methods: want a list of estimators", "got a mapping"},
		},
		{
			name: "method without name",
			src:  head + "methods:\n  - name: mika\n  - label: Kwok\n",
			line: 7,
			want: []string{"methods[1]: missing name"},
		},
		{
			name: "unknown key in method",
			src:  head + "methods:\n  - name: mika\n    lambda: 1\n",
			line: 7,
			want: []string{`methods[0]: unknown key "lambda"`, "expected one of: name, label, params"},
		},
		{
			name: "duplicate method labels",
			src:  head + "methods:\n  - name: mika\n  - name: kwok\n    label: mika\n",
			line: 7,
			want: []string{`methods[1]: "mika" already used by methods[0]`},
		},
		{
			name: "duplicate method names without labels",
			src:  head + "methods:\n  - name: mika\n  - name: mika\n",
			line: 7,
			want: []string{`methods[1]: "mika" already used by methods[0]`},
		},
		{
			name: "claim without check",
			src:  head + "claims:\n  - id: a\n    statement: s\n",
			line: 6,
			want: []string{"claims[0]: a claim needs an id and a check"},
		},
		{
			name: "duplicate claim ids",
			src:  head + "claims:\n  - id: a\n    check: {type: value}\n  - statement: s\n    id: a\n    check: {type: value}\n",
			line: 9,
			want: []string{`claims[1]: claim id "a" used twice`},
		},
		{
			name: "reference missing value",
			src:  head + "reference:\n  - source: Table 1\n    metric: mse\n",
			line: 6,
			want: []string{"reference[0]: missing value"},
		},
		{
			name: "reference value not a number",
			src:  head + "reference:\n  - source: Table 1\n    metric: mse\n    value: high\n",
			line: 8,
			want: []string{`reference[0].value: want a number, got the string "high"`},
		},
		{
			name: "outputs width zero",
			src:  head + "outputs:\n  width: 0\n",
			line: 6,
			want: []string{"outputs.width: 0 is impossible, want a size in cm in (0, 100]"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse("f.yaml", []byte(tc.src))
			if err == nil {
				t.Fatalf("Parse:\n%s\nno error, want one at line %d", tc.src, tc.line)
			}
			var e *config.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %v (%T) is not a *config.Error", err, err)
			}
			if e.File != "f.yaml" || e.Line != tc.line {
				t.Errorf("error at %s:%d, want f.yaml:%d (%v)", e.File, e.Line, tc.line, err)
			}
			if prefix := fmt.Sprintf("f.yaml:%d: ", tc.line); !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q does not start with %q", err, prefix)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

// TestParseNotYAML covers input that never reaches the schema: the error
// names the file, and for a syntax error the line yaml.v3 reports.
func TestParseNotYAML(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		// "  paper: p" is indented under a scalar: a scanner error on line 2,
		// which yaml.v3 numbers correctly (its parser errors are 0-based).
		{"syntax error", "title: x\n  paper: p\n", "f.yaml:2: not valid YAML: mapping values are not allowed in this context"},
		{"empty file", "", "f.yaml: empty config"},
		{"only a comment", "# nothing yet\n", "f.yaml: empty config"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse("f.yaml", []byte(tc.src))
			if err == nil || err.Error() != tc.want {
				t.Errorf("Parse(%q) error %v, want %q", tc.src, err, tc.want)
			}
		})
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := config.Load(filepath.Join(t.TempDir(), "nope.yaml"))
	if err == nil || !strings.Contains(err.Error(), "nope.yaml") {
		t.Errorf("Load of a missing file: error %v, want one naming the file", err)
	}
}

func TestParseDefaults(t *testing.T) {
	c := mustParse(t, head)
	// doc.go: seed defaults to 1; no corruption section means type none.
	if c.Seed != 1 {
		t.Errorf("default Seed = %d, want 1", c.Seed)
	}
	if c.Corruption.Type != "none" || c.Corruption.Std != 0 {
		t.Errorf("default corruption %+v, want none with std 0", c.Corruption)
	}
	if c.Model.Kernel != "" || len(c.Methods) != 0 || len(c.Claims) != 0 || len(c.Reference) != 0 {
		t.Errorf("optional sections not empty: %+v", c)
	}
	if c.Experiment.Values == nil {
		t.Errorf("Experiment.Values is nil; want an empty section a kind can read")
	}
	if err := c.Experiment.Reader("experiment").Err(); err != nil {
		t.Errorf("reading an absent experiment section: %v", err)
	}
	if c.Name != "f" {
		t.Errorf("Name = %q, want f (f.yaml without extension)", c.Name)
	}
}

func TestCorruption(t *testing.T) {
	for _, tc := range []struct {
		src     string
		std     float64
		printed string
	}{
		// √0.25 = 0.5 exactly in binary64, so the comparison is exact.
		{"corruption:\n  type: gaussian\n  variance: 0.25\n", 0.5, "variance 0.25 (std 0.5)"},
		{"corruption:\n  type: gaussian\n  std: 0.3\n", 0.3, "std 0.3"},
		{"corruption:\n  type: none\n", 0, ""},
	} {
		c := mustParse(t, head+tc.src)
		if c.Corruption.Std != tc.std || c.Corruption.Printed != tc.printed {
			t.Errorf("%q: Std %v Printed %q, want %v %q", tc.src, c.Corruption.Std, c.Corruption.Printed, tc.std, tc.printed)
		}
	}
}

func TestReference(t *testing.T) {
	c := mustParse(t, head+"reference:\n  - source: Table 2, row λ=0.001\n    cell: {method: mika, c: 5e-1}\n    metric: mse\n    value: 12\n")
	if len(c.Reference) != 1 {
		t.Fatalf("got %d references, want 1", len(c.Reference))
	}
	r := c.Reference[0]
	// The integer literal 12 is read as the float 12; 5e-1 is the float 0.5.
	want := config.Reference{Source: "Table 2, row λ=0.001", Cell: map[string]any{"method": "mika", "c": 0.5}, Metric: "mse", Value: 12, Line: 6}
	if !reflect.DeepEqual(r, want) {
		t.Errorf("reference = %+v, want %+v", r, want)
	}
}

// readerConfig has an experiment section with one key of each kind; the
// line of each key is given beside it.
const readerConfig = head + `experiment:
  x: 0.5          # line 6
  n: 3            # line 7
  name: usps      # line 8
  flag: true      # line 9
  pair: [1, 2.5]  # line 10
  one: 7          # line 11
  empty: []       # line 12
`

func TestReaderValues(t *testing.T) {
	c := mustParse(t, readerConfig)
	r := c.Experiment.Reader("experiment")
	if got := r.Float("x", 0, nil, ""); got != 0.5 {
		t.Errorf("Float(x) = %v, want 0.5", got)
	}
	// An integer is a number too.
	if got := r.Float("n", 0, nil, ""); got != 3 {
		t.Errorf("Float(n) = %v, want 3", got)
	}
	if got := r.Int("n", 0, 1); got != 3 {
		t.Errorf("Int(n) = %v, want 3", got)
	}
	if got := r.String("name", "", "usps", "mnist"); got != "usps" {
		t.Errorf("String(name) = %q, want usps", got)
	}
	if got := r.Bool("flag", false); !got {
		t.Errorf("Bool(flag) = false, want true")
	}
	if got := r.Floats("pair", nil, 2); !reflect.DeepEqual(got, []float64{1, 2.5}) {
		t.Errorf("Floats(pair, 2) = %v, want [1 2.5]", got)
	}
	// A scalar is a list of one.
	if got := r.Floats("one", nil, -1); !reflect.DeepEqual(got, []float64{7}) {
		t.Errorf("Floats(one, -1) = %v, want [7]", got)
	}
	r.Touch("empty")
	if err := r.Err(); err != nil {
		t.Errorf("Err after reading every key: %v", err)
	}
}

func TestReaderDefaults(t *testing.T) {
	c := mustParse(t, head)
	r := c.Experiment.Reader("experiment")
	if got := r.Float("x", 0.25, func(v float64) bool { return v > 1 }, "> 1"); got != 0.25 {
		t.Errorf("Float default = %v, want 0.25 (the range check applies to given values only)", got)
	}
	if got := r.Int("n", 4, 10); got != 4 {
		t.Errorf("Int default = %v, want 4", got)
	}
	if got := r.String("s", "abc", "x", "y"); got != "abc" {
		t.Errorf("String default = %q, want abc", got)
	}
	if got := r.Bool("b", true); !got {
		t.Errorf("Bool default = false, want true")
	}
	if got := r.Floats("f", []float64{1, 2}, 2); !reflect.DeepEqual(got, []float64{1, 2}) {
		t.Errorf("Floats default = %v, want [1 2]", got)
	}
	if err := r.Err(); err != nil {
		t.Errorf("Err with every key absent: %v", err)
	}
}

// TestReaderErrors checks each accessor's complaint, its line in
// readerConfig, and that only the first error is kept.
func TestReaderErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		read func(r *config.Reader)
		line int
		want string
	}{
		{"Float of a string", func(r *config.Reader) { r.Float("name", 0, nil, "a rate") }, 8, `experiment.name: want a number (a rate), got usps`},
		{"Float out of range", func(r *config.Reader) { r.Float("x", 0, func(v float64) bool { return v > 1 }, "a rate > 1") }, 6, "experiment.x: 0.5 is impossible, want a rate > 1"},
		{"Int of a float", func(r *config.Reader) { r.Int("x", 0, 0) }, 6, "experiment.x: want an integer ≥ 0, got 0.5"},
		{"Int below min", func(r *config.Reader) { r.Int("n", 0, 5) }, 7, "experiment.n: 3 is impossible, want an integer ≥ 5"},
		{"String of a number", func(r *config.Reader) { r.String("n", "") }, 7, "experiment.n: want a string, got 3"},
		{"String outside enum", func(r *config.Reader) { r.String("name", "", "mnist", "rings") }, 8, `experiment.name: want one of mnist, rings, got "usps"`},
		{"Bool of a string", func(r *config.Reader) { r.Bool("name", false) }, 8, "experiment.name: want true or false, got usps"},
		{"Floats of wrong length", func(r *config.Reader) { r.Floats("pair", nil, 3) }, 10, "experiment.pair: want a list of 3 numbers, got [1 2.5]"},
		{"Floats of a scalar where two are needed", func(r *config.Reader) { r.Floats("one", nil, 2) }, 11, "experiment.one: want a list of 2 numbers, got 7"},
		{"Floats of an empty list", func(r *config.Reader) { r.Floats("empty", nil, -1) }, 12, "experiment.empty: want a list of numbers, got []"},
		{"Floats of strings", func(r *config.Reader) { r.Floats("name", nil, 1) }, 8, "experiment.name: want numbers, got usps"},
		{"Fail", func(r *config.Reader) { r.Fail("flag", "not with %s", "usps") }, 9, "experiment.flag: not with usps"},
		{"Fail at an absent key uses the section line", func(r *config.Reader) { r.Fail("nope", "needed") }, 6, "experiment.nope: needed"},
		{"first error wins", func(r *config.Reader) { r.Int("n", 0, 5); r.String("n", "") }, 7, "experiment.n: 3 is impossible"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, readerConfig)
			r := c.Experiment.Reader("experiment")
			tc.read(r)
			for _, k := range c.Experiment.Keys() {
				r.Touch(k) // only the accessor's error, not unknown keys
			}
			err := r.Err()
			if err == nil {
				t.Fatalf("no error, want %q", tc.want)
			}
			if prefix := fmt.Sprintf("f.yaml:%d: %s", tc.line, tc.want); !strings.HasPrefix(err.Error(), prefix) {
				t.Errorf("error %q, want prefix %q", err, prefix)
			}
		})
	}
}

func TestReaderUnknownKey(t *testing.T) {
	c := mustParse(t, readerConfig)
	r := c.Experiment.Reader("experiment")
	r.Float("x", 0, nil, "")
	r.Int("n", 0, 0)
	r.String("name", "")
	r.Touch("flag")
	r.Touch("empty")
	r.Touch("one")
	// "pair" (line 10) was never asked for; the message lists what was.
	want := `f.yaml:10: experiment: unknown key "pair" (expected one of: empty, flag, n, name, one, x)`
	if err := r.Err(); err == nil || err.Error() != want {
		t.Errorf("Err() = %v, want %q", err, want)
	}
}

func TestSectionErrorf(t *testing.T) {
	c := mustParse(t, readerConfig)
	s := c.Experiment
	if got, want := s.Errorf("n", "bad %d", 1).Error(), "f.yaml:7: bad 1"; got != want {
		t.Errorf("Errorf at a present key = %q, want %q", got, want)
	}
	// Absent keys fall back to the section's own line, its first key's.
	if got, want := s.Errorf("zzz", "missing").Error(), "f.yaml:6: missing"; got != want {
		t.Errorf("Errorf at an absent key = %q, want %q", got, want)
	}
	if want := []string{"empty", "flag", "n", "name", "one", "pair", "x"}; !reflect.DeepEqual(s.Keys(), want) {
		t.Errorf("Keys() = %q, want %q", s.Keys(), want)
	}
	if !s.Has("x") || s.Has("zzz") {
		t.Errorf("Has(x) = %v, Has(zzz) = %v", s.Has("x"), s.Has("zzz"))
	}
}

func TestModelGrid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		model string
		want  []string // CanonicalKey of each point's Params, in order
	}{
		{
			// Widths outer, sizes inner, each in the order written (not sorted).
			name:  "widths × components",
			model: "model:\n  kernel: gaussian\n  c: [0.5, 0.1]\n  components: [10, 2, 5]\n",
			want: []string{
				"c=0.5,components=10,kernel=gaussian",
				"c=0.5,components=2,kernel=gaussian",
				"c=0.5,components=5,kernel=gaussian",
				"c=0.1,components=10,kernel=gaussian",
				"c=0.1,components=2,kernel=gaussian",
				"c=0.1,components=5,kernel=gaussian",
			},
		},
		{
			name:  "scalar width, energy grid",
			model: "model:\n  kernel: gaussian\n  gamma: 2\n  energy: [0.9, 0.99]\n",
			want:  []string{"energy=0.9,gamma=2,kernel=gaussian", "energy=0.99,gamma=2,kernel=gaussian"},
		},
		{
			name:  "linear kernel has no width axis",
			model: "model:\n  kernel: linear\n  components: [1, 2]\n",
			want:  []string{"components=1,kernel=linear", "components=2,kernel=linear"},
		},
		{
			name:  "polynomial carries degree and offset",
			model: "model:\n  kernel: polynomial\n  degree: 3\n  offset: 1\n  components: 4\n",
			want:  []string{"components=4,degree=3,kernel=polynomial,offset=1"},
		},
		{
			name:  "no model section is one empty point",
			model: "",
			want:  []string{""},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mustParse(t, head+tc.model)
			var got []string
			for _, p := range c.ModelGrid() {
				got = append(got, config.CanonicalKey(p.Params()))
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("grid keys:\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestModelPointFields(t *testing.T) {
	c := mustParse(t, head+"model:\n  kernel: gaussian\n  sigma: [1, 2]\n  components: 3\n")
	want := []config.ModelPoint{
		{Kernel: "gaussian", WidthName: "sigma", Width: 1, Components: 3},
		{Kernel: "gaussian", WidthName: "sigma", Width: 2, Components: 3},
	}
	if got := c.ModelGrid(); !reflect.DeepEqual(got, want) {
		t.Errorf("ModelGrid() = %+v, want %+v", got, want)
	}
}

func TestMethodExpand(t *testing.T) {
	c := mustParse(t, head+`methods:
  - name: tikhonov
    label: Tikhonov
    params:
      q: [2, 4, 8]
      lambda: [0.1, 1]
      centre: true
  - name: mika
`)
	got := c.Methods[0].Expand(7)
	// 2 lambdas × 3 qs = 6 points; keys are taken in sorted order (centre,
	// lambda, q), so q, the last, varies fastest; the scalar centre is in
	// every point.
	want := []map[string]any{
		{"centre": true, "lambda": 0.1, "q": 2},
		{"centre": true, "lambda": 0.1, "q": 4},
		{"centre": true, "lambda": 0.1, "q": 8},
		{"centre": true, "lambda": 1, "q": 2},
		{"centre": true, "lambda": 1, "q": 4},
		{"centre": true, "lambda": 1, "q": 8},
	}
	if len(got) != len(want) {
		t.Fatalf("Expand gave %d points, want %d: %+v", len(got), len(want), got)
	}
	for i, p := range got {
		if p.Index != 7 || p.Name != "tikhonov" || p.Label != "Tikhonov" {
			t.Errorf("point %d: index %d name %q label %q, want 7 tikhonov Tikhonov", i, p.Index, p.Name, p.Label)
		}
		if config.CanonicalKey(p.Params) != config.CanonicalKey(want[i]) {
			t.Errorf("point %d: params %v, want %v", i, p.Params, want[i])
		}
	}
	// A method without params is a single point with no parameters.
	plain := c.Methods[1].Expand(1)
	if len(plain) != 1 || len(plain[0].Params) != 0 || plain[0].Name != "mika" {
		t.Errorf("Expand without params = %+v, want one empty point", plain)
	}
}

func TestCanonicalKey(t *testing.T) {
	// The same parameters written in a different key order and number
	// notation are the same cell.
	a := mustParse(t, head+"methods:\n  - name: m\n    params: {lambda: 0.5, q: 1.0, kind: fast}\n")
	b := mustParse(t, head+"methods:\n  - name: m\n    params: {kind: fast, q: 1, lambda: 5e-1}\n")
	ka := config.CanonicalKey(a.Methods[0].Params.Values)
	kb := config.CanonicalKey(b.Methods[0].Params.Values)
	if want := "kind=fast,lambda=0.5,q=1"; ka != want || kb != want {
		t.Errorf("keys %q and %q, want both %q", ka, kb, want)
	}
	// Go randomises map iteration; building the map in other insertion
	// orders must not matter either.
	for i := 0; i < 20; i++ {
		m := map[string]any{}
		keys := []string{"z", "a", "m", "b"}
		for j := range keys {
			m[keys[(i+j)%len(keys)]] = 1
		}
		if got, want := config.CanonicalKey(m), "a=1,b=1,m=1,z=1"; got != want {
			t.Fatalf("CanonicalKey(%v) = %q, want %q", m, got, want)
		}
	}
	if got := config.CanonicalKey(nil); got != "" {
		t.Errorf("CanonicalKey(nil) = %q, want empty", got)
	}
}

func TestFormatValue(t *testing.T) {
	// Parse the two spellings of one half from YAML so the test depends on
	// how the number was written, not on Go literals (which would already
	// be the same float64).
	c := mustParse(t, head+"experiment:\n  a: 0.5\n  b: 5e-1\n  i: 1\n  f: 1.0\n")
	v := c.Experiment.Values
	for _, pair := range [][2]string{{"a", "b"}, {"i", "f"}} {
		x, y := v[pair[0]], v[pair[1]]
		if config.FormatValue(x) != config.FormatValue(y) {
			t.Errorf("FormatValue(%#v) = %q, FormatValue(%#v) = %q; want equal", x, config.FormatValue(x), y, config.FormatValue(y))
		}
	}
	if _, ok := v["i"].(int); !ok {
		t.Errorf("YAML 1 read as %T, want int (the test needs int vs float64)", v["i"])
	}
	if _, ok := v["f"].(float64); !ok {
		t.Errorf("YAML 1.0 read as %T, want float64", v["f"])
	}

	for _, tc := range []struct {
		v    any
		want string
	}{
		{0.5, "0.5"},
		{1, "1"},
		{1.0, "1"},
		{-3.0, "-3"},
		{1e-7, "1e-07"}, // strconv 'g', shortest round-trip
		{0.30000000000000004, "0.30000000000000004"}, // 0.1+0.2 at run time: all 17 digits kept
		{123456.0, "123456"},                         // integral floats below 1e15 print as integers
		{math.NaN(), "NaN"},
		{math.Inf(1), "+Inf"},
		{"mika", "mika"},
		{"D-C(3)", "D-C(3)"},
		{"a,b", `"a,b"`}, // would split a key
		{"k=v", `"k=v"`},
		{"[x]", `"[x]"`},
		{true, "true"},
		{nil, "null"},
		{[]any{1, 0.5, "a,b"}, `[1 0.5 "a,b"]`},
		{map[string]any{"b": 2.0, "a": "x"}, "{a=x,b=2}"},
	} {
		if got := config.FormatValue(tc.v); got != tc.want {
			t.Errorf("FormatValue(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

// TestFormatValueKeepsTypesApart checks the canonical form used in cell and
// cache keys never merges values of different meaning.
func TestFormatValueKeepsTypesApart(t *testing.T) {
	for _, pair := range [][2]any{
		{"1", 1},
		{"true", true},
		{"null", nil},
		{[]any{"a b"}, []any{"a", "b"}},
	} {
		if config.FormatValue(pair[0]) == config.FormatValue(pair[1]) {
			t.Errorf("config.FormatValue(%#v) == config.FormatValue(%#v) = %s", pair[0], pair[1], config.FormatValue(pair[0]))
		}
	}
	for _, pair := range [][2]any{
		{math.Copysign(0, -1), 0},
		{1e15, 1000000000000000},
		{2.0, 2},
	} {
		if config.FormatValue(pair[0]) != config.FormatValue(pair[1]) {
			t.Errorf("config.FormatValue(%#v) = %s, config.FormatValue(%#v) = %s; want equal", pair[0], config.FormatValue(pair[0]), pair[1], config.FormatValue(pair[1]))
		}
	}
}

// TestReading: the reading is one line, kept as written; a second line is
// an error at its line.
func TestReading(t *testing.T) {
	c := mustParse(t, head+"reading: noise variance 0.25 (a2)\n")
	if c.Reading != "noise variance 0.25 (a2)" {
		t.Errorf("Reading = %q", c.Reading)
	}
	_, err := config.Parse("f.yaml", []byte(head+"reading: |\n  one\n  two\n"))
	if err == nil || !strings.Contains(err.Error(), "f.yaml:5:") || !strings.Contains(err.Error(), "one line") {
		t.Errorf("two-line reading: %v", err)
	}
}

// TestRepeats: repeats is the number of corruption draws, 1..100, an error
// at its line otherwise; absent it is 0 (kinds read it as 1).
func TestRepeats(t *testing.T) {
	base := "title: t\npaper: p\nkind: k\ndataset: {name: d}\n"
	c, err := config.Parse("f.yaml", []byte(base))
	if err != nil || c.Repeats != 0 {
		t.Fatalf("no repeats: %v, %v", c, err)
	}
	c, err = config.Parse("f.yaml", []byte(base+"repeats: 7\n"))
	if err != nil || c.Repeats != 7 || c.RepeatsLine != 5 {
		t.Fatalf("repeats: 7 gave %d at line %d, %v", c.Repeats, c.RepeatsLine, err)
	}
	for _, bad := range []string{"0", "101", "-1", "2.5", "many"} {
		_, err := config.Parse("f.yaml", []byte(base+"repeats: "+bad+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), "f.yaml:5:") {
			t.Errorf("repeats: %s gave %v, want an error at f.yaml:5", bad, err)
		}
	}
}
