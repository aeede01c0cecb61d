package config

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"strings"

	"go.yaml.in/yaml/v3"
)

// Config is a parsed, validated experiment config.
type Config struct {
	// File is the path the config was read from; Name is its base name
	// without extension, which names the result directory.
	File, Name string
	// SHA256 is the hex digest of the file's bytes, for the manifest.
	SHA256 string

	Title string
	Paper string
	Kind  string
	// KindLine is the line of the key kind, for the error an unknown
	// kind gets (kinds are registered outside this package).
	KindLine int
	Seed     uint64
	// Repeats is the number of corruption draws (repeats: N, 1..100);
	// 0 when the config does not say, which kinds treat as 1.
	// RepeatsLine is the key's line, for errors of kinds without repeats.
	Repeats, RepeatsLine int
	Notes                string
	// Reading names, in one line, the reading of the paper's ambiguous
	// text this config takes (e.g. "noise variance 0.25, ambiguity a2");
	// figure captions and the results page show it.
	Reading string
	// VariantOf names the base config (a file beside this one, e.g.
	// "huang-table1.yaml") that this config changes in one respect, a
	// documented reading of the paper (docs/readings.md); "" for a base.
	// The scoreboard shows a variant's verdicts as a column of its base's
	// claims, so the variant keeps the base's claim ids.
	VariantOf string
	// Diagnostic marks a variant that is not a reading of the paper but a
	// probe of our stand-in (e.g. LPKPCA with a graph from the labels): the
	// scoreboard shows it and never counts it as reproducing a claim.
	// Probe says what it probes (the diagnostic: key's text).
	Diagnostic bool
	Probe      string
	// Reads is the id of the paper's ambiguity (a1, a2, … of its
	// paper-values file) that a reading variant reads otherwise than its
	// base; ReadsLine is the key's line, for the error an unknown id
	// gets (the ids are checked against the paper values, which this
	// package does not locate: CheckAmbiguities).
	Reads     string
	ReadsLine int
	// PostHoc says why a variant that reads no ambiguity the paper values
	// list was added: it is shown and labelled, never a reading.
	PostHoc string
	// Moves names, for a diagnostic, the property of the data it moves
	// toward the paper's data, everything else kept: a diagnostic with
	// it that turns a claim is the evidence a data attribution needs.
	Moves string
	// Ambiguities maps the ids of the paper's ambiguities that can change
	// this config's verdicts to how the config reads each (a base's
	// settled readings); AmbiguityLines gives each id's line.
	Ambiguities    map[string]string
	AmbiguityLines map[string]int
	// StandIn, when not empty, says what our data stand in for: the
	// config does not run on the paper's own data.
	StandIn string

	Dataset    Dataset
	Corruption Corruption
	Model      Model
	Methods    []Method
	Experiment Section
	Outputs    Outputs
	// PaperTable lays the reference values out as the paper prints them;
	// nil when the config declares no layout.
	PaperTable *PaperTable
	Reference  []Reference
	Claims     []Claim
}

// Dataset names the data and carries its options.
type Dataset struct {
	Name    string
	Options Section
}

// Corruption is the noise added to the inputs to be denoised.
type Corruption struct {
	// Type is "none", "gaussian" or "occlusion".
	Type string
	// Std is the noise standard deviation (from std, or √variance).
	Std float64
	// MinSide and MaxSide bound the sides of an occluding rectangle, in
	// pixels; each side is drawn uniformly from them.
	MinSide, MaxSide int
	// Stretch maps each corrupted image linearly onto [0, 1] afterwards
	// (Zheng & Lai: "every image linearly stretched to [0,1]").
	Stretch bool
	// Clip clamps each corrupted image's entries to [0, 1] afterwards, as
	// image-noise routines do (the other reading of Zheng & Lai's noise);
	// it excludes Stretch.
	Clip bool
	// Copies is the number of corrupted copies per image (default 1).
	Copies int
	// Printed records how the config stated it, e.g. "variance 0.25".
	Printed string
	Options Section
}

// Model is the kernel and the principal-component grid.
type Model struct {
	// Kernel is "gaussian", "linear", "polynomial" or "" (none given).
	Kernel string
	// WidthName is the Gaussian parameterisation: "c", "gamma" or "sigma".
	WidthName string
	// Widths is the grid of Gaussian widths in that parameterisation.
	Widths []float64
	Degree int
	Offset float64
	// Components and Energy are alternative grids for the subspace size;
	// at most one is set.
	Components []int
	Energy     []float64
	line       int
}

// Method is one estimator entry with its parameter grid.
type Method struct {
	Name  string
	Label string
	// Params holds raw values; a list is a grid axis.
	Params Section
	Line   int
	// Added marks a method given on the command line (runexp --with),
	// not in the file: claims and reference values, which name the
	// file's methods, do not see its records.
	Added bool
}

// Outputs controls where and how results are written.
type Outputs struct {
	Dir           string
	Width, Height float64 // centimetres; 0 means the experiment's default
}

// Reference is one value printed in the paper.
type Reference struct {
	Source string
	// Cell selects the cells it applies to, by parameter value.
	Cell   map[string]any
	Metric string
	Value  float64
	// Row and Column place the value in the paper's table (PaperTable),
	// as the paper labels them; Part names the table when the paper's one
	// is shown as several (one per quantity of a cell, e.g. "APE" and
	// "SNR"), "" otherwise.
	Row, Column, Part string
	// Printed is the paper's cell as printed when it holds more than
	// Value (e.g. "9.28 ± 2.77"); "" prints Value.
	Printed string
	// Std names our metric printed as "± std" after ours, for a paper
	// that prints mean ± std; "" for none.
	Std string
	// Absent says why ours has no counterpart to this printed value (a
	// method we do not run, a group our data lack), for a value the paper
	// prints that the table must still show; such a reference has no
	// metric or cell, and no comparison reads it.
	Absent string
	Line   int
}

// PaperTable is the layout of the paper's table that the reference
// values fill: its title (which names the reading of the paper's metric
// the values are compared under), the header of its row labels, and its
// parts, rows and columns in the paper's order (every reference value's
// Part, Row and Column is one of them).
type PaperTable struct {
	Title   string
	Corner  string
	Parts   []string
	Rows    []string
	Columns []string
	// Supported lists the columns that are readings of one printed
	// number (interpretations: the same value referenced under several
	// metrics, e.g. Zheng & Lai's MSE as a per-image SSE or a per-pixel
	// MSE) which the paper's text and figures support, with SupportedWhy;
	// empty when the config declares none (every interpretation counts).
	Supported    []string
	SupportedWhy string
	Line         int
}

// Claim is one of the paper's qualitative claims with its check.
type Claim struct {
	ID        string
	Statement string
	Source    string
	Check     Section
	// Expect is the verdict the claim is known to get on our data: ""
	// (PASS), "fail" or "inconclusive" (an interval covering the
	// boundary). Because names the evidence for an expectation other than
	// PASS and is required with it; it quotes numbers and setup only
	// through references filled in when the claim is judged (package
	// claims, Expand).
	Expect, Because string
	// Defect names a defect of our check that the verdicts cannot show
	// (Defects: a quantifier or threshold of ours, our number for a
	// visual claim, a degenerate comparison) and DefectEvidence its
	// sentence of evidence, quoting numbers only through references, as
	// Because does; DefectLine is the line of the defect: key. Whose
	// failure a verdict is, is not stated here: package scoreboard derives
	// it from the verdicts and the configs' reads:, diagnostic: and
	// post_hoc: tags.
	Defect, DefectEvidence string
	DefectLine             int
	// Beyond, when not empty, says why the claim is a check beyond the
	// paper's claim its source cites (a condition, group or quantity the
	// paper's table or sentence does not have): it is shown and never
	// counted toward that claim.
	Beyond string
	Line   int
}

// Attributions are the kinds of attribution: whose failure a verdict
// other than PASS is (docs/readings.md, "Attribution"). No config states
// one: package scoreboard derives it.
//
//   - paper: the faithful protocol, on the paper's data or a stand-in with
//     no known property that breaks the claim's premise, and the claim
//     still fails;
//   - data: a named, measured property of our stand-in breaks the premise
//     (the evidence quotes the diagnostic metric, {metric:NAME});
//   - reading: another documented reading of a paper ambiguity changes
//     the verdict (the evidence names the reading's config);
//   - test: a named defect of our check (Defects): a comparison our
//     metric cannot make here, a quantifier or threshold of ours, our
//     metric for a visual claim;
//   - undetermined: none of the above is shown; the evidence names the
//     experiment that would decide it.
//
// Package scoreboard derives the kind from the verdicts of the base and
// its variants and the declarations of the configs (docs/readings.md,
// "Attribution").
var Attributions = []string{"paper", "data", "reading", "test", "undetermined"}

// Defects are the defects of our check a claim's defect: names:
//
//   - degenerate: the check compares quantities equal by construction or
//     to rounding on this data (claims.json's cannot_discriminate);
//   - quantifier: the check adds a quantifier the paper's sentence does
//     not have ("for every #PCs", "on every split"): the row goes beyond
//     the paper's sentence and never decides its claim;
//   - threshold: the check's threshold or margin is ours (the paper
//     gives none): likewise beyond the sentence, never deciding;
//   - visual-metric: the paper's claim is visual, and the number we check
//     it by is ours.
var Defects = []string{"degenerate", "quantifier", "threshold", "visual-metric"}

// Load reads and validates the config at path. A collection (a file
// listing other configs) is an error here: Open reads either.
func Load(path string) (*Config, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, b)
}

// Parse validates the YAML in b; file names it in errors.
func Parse(file string, b []byte) (*Config, error) {
	w := &walker{file: file}
	root, _, err := decodeOne(file, b)
	if err != nil {
		return nil, err
	}
	if k := collectionKey(root); k != nil {
		return nil, &Error{File: file, Line: k.Line, Msg: "a collection of configs (collection:), not one experiment: run or validate it with runexp, which runs each member"}
	}
	sum := sha256.Sum256(b)
	c := &Config{
		File:   file,
		Name:   strings.TrimSuffix(filepath.Base(file), filepath.Ext(file)),
		SHA256: hex.EncodeToString(sum[:]),
		Seed:   1,
	}
	// The file's name names the result folder under --out.
	if err := CheckFileName(c.Name); err != nil {
		return nil, &Error{File: file, Line: 1, Msg: fmt.Sprintf("the file name gives the result folder name %q, which would write outside --out or over runexp's own files (%v): rename the file", c.Name, err)}
	}
	f, keys, err := w.fields(root, "config", "title", "paper", "kind", "seed", "repeats", "notes", "reading", "variant_of", "diagnostic", "reads", "post_hoc", "moves",
		"ambiguities", "stand_in", "dataset",
		"corruption", "model", "methods", "experiment", "outputs", "paper_table", "reference", "claims")
	if err != nil {
		return nil, err
	}
	for _, req := range []string{"title", "paper", "kind", "dataset"} {
		if f[req] == nil {
			return nil, w.errf(root, "config: missing required key %q", req)
		}
	}
	c.KindLine = keys["kind"].Line
	if err := c.parseHeader(w, f); err != nil {
		return nil, err
	}
	if err := c.parseVariant(w, f); err != nil {
		return nil, err
	}
	if err := c.parseDataset(w, f["dataset"]); err != nil {
		return nil, err
	}
	c.Corruption = Corruption{Type: "none", Copies: 1}
	c.Experiment = Section{Values: map[string]any{}, file: file, lines: map[string]int{}}
	// The optional sections, in the order their errors are reported.
	for _, sec := range []struct {
		key   string
		parse func(*walker, *yaml.Node) error
	}{
		{"corruption", c.parseCorruption}, {"model", c.parseModel}, {"methods", c.parseMethods},
		{"experiment", c.parseExperiment}, {"outputs", c.parseOutputs}, {"paper_table", c.parsePaperTable},
		{"reference", c.parseReference},
	} {
		if n := f[sec.key]; n != nil {
			if err := sec.parse(w, n); err != nil {
				return nil, err
			}
		}
	}
	if err := c.checkLayout(f["paper_table"]); err != nil {
		return nil, err
	}
	if n := f["claims"]; n != nil {
		if err := c.parseClaims(w, n); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// parseHeader reads the config's scalar keys: title, paper and kind
// (present, Parse checked), seed, repeats, notes and reading.
func (c *Config) parseHeader(w *walker, f map[string]*yaml.Node) error {
	if err := w.strings(f, strField{"title", &c.Title}, strField{"paper", &c.Paper}, strField{"kind", &c.Kind}); err != nil {
		return err
	}
	// paper names a file of the paper-values folder (PAPER.yaml there),
	// resolved only inside it: a plain name, as a collection's members.
	if err := CheckFileName(c.Paper); err != nil {
		return w.errf(f["paper"], "paper: %v; want the paper's id, the name of its file in the paper-values folder without .yaml (e.g. abrahamsen-hansen)", err)
	}
	if n := f["seed"]; n != nil {
		s, err := w.int(n, "seed")
		if err != nil {
			return err
		}
		if s < 0 {
			return w.errf(n, "seed: %d is impossible, want an integer ≥ 0", s)
		}
		c.Seed = uint64(s)
	}
	if n := f["repeats"]; n != nil {
		r, err := w.int(n, "repeats")
		if err != nil {
			return err
		}
		if r < 1 || r > MaxRepeats {
			return w.errf(n, "repeats: %d, want the number of corruption draws, 1 to %d", r, MaxRepeats)
		}
		c.Repeats, c.RepeatsLine = r, n.Line
	}
	if err := w.strings(f, strField{"notes", &c.Notes}, strField{"reading", &c.Reading}); err != nil {
		return err
	}
	if n := f["reading"]; n != nil && strings.ContainsAny(c.Reading, "\n\r") {
		return w.errf(n, "reading: want one line naming the reading (details go under notes)")
	}
	return nil
}

// strField is a string key of a mapping and where its value goes.
type strField struct {
	key string
	dst *string
}

// strings reads the string fields of f given, each when present.
func (w *walker) strings(f map[string]*yaml.Node, fields ...strField) error {
	for _, k := range fields {
		if n := f[k.key]; n != nil {
			v, err := w.str(n, k.key)
			if err != nil {
				return err
			}
			*k.dst = v
		}
	}
	return nil
}

// parseExperiment reads the kind's own options, which the kind parses;
// options naming an output file must be plain names.
func (c *Config) parseExperiment(w *walker, n *yaml.Node) error {
	var err error
	if c.Experiment, err = w.section(n, "experiment"); err != nil {
		return err
	}
	for _, k := range c.Experiment.Keys() {
		if k != "figure_name" && !strings.HasSuffix(k, "_name") {
			continue
		}
		if v, ok := c.Experiment.Values[k].(string); ok {
			if err := CheckFileName(v); err != nil {
				return c.Experiment.Errorf(k, "experiment.%s: %v (it names a file in the result folder)", k, err)
			}
		}
	}
	return nil
}

func (c *Config) parseDataset(w *walker, n *yaml.Node) error {
	s, err := w.section(n, "dataset")
	if err != nil {
		return err
	}
	name, ok := s.Values["name"].(string)
	if !ok {
		return s.Errorf("name", "dataset: want a name: string (e.g. name: usps)")
	}
	delete(s.Values, "name")
	c.Dataset = Dataset{Name: name, Options: s}
	return nil
}

func (c *Config) parseCorruption(w *walker, n *yaml.Node) error {
	s, err := w.section(n, "corruption")
	if err != nil {
		return err
	}
	r := s.Reader("corruption")
	c.Corruption.Type = r.String("type", "", "none", "gaussian", "occlusion")
	c.Corruption.Stretch = r.Bool("stretch", false)
	c.Corruption.Clip = r.Bool("clip", false)
	if c.Corruption.Clip && c.Corruption.Stretch {
		return s.Errorf("clip", "corruption: clip and stretch exclude each other: clip clamps each corrupted image to [0, 1], stretch maps it linearly onto [0, 1]; give one")
	}
	c.Corruption.Copies = r.Int("copies", 1, 1)
	switch c.Corruption.Type {
	case "":
		return s.Errorf("type", "corruption: want type: none | gaussian | occlusion")
	case "occlusion":
		c.Corruption.MinSide = r.Int("min_side", 0, 1)
		c.Corruption.MaxSide = r.Int("max_side", 0, 1)
		if !s.Has("min_side") || !s.Has("max_side") {
			return s.Errorf("type", "corruption: occlusion needs min_side and max_side (pixels)")
		}
		if c.Corruption.MaxSide < c.Corruption.MinSide {
			return s.Errorf("max_side", "corruption: max_side %d is below min_side %d", c.Corruption.MaxSide, c.Corruption.MinSide)
		}
		c.Corruption.Printed = fmt.Sprintf("black rectangle, sides uniform in [%d, %d] px", c.Corruption.MinSide, c.Corruption.MaxSide)
	case "gaussian":
		pos := func(v float64) bool { return v >= 0 }
		if s.Has("std") == s.Has("variance") {
			return s.Errorf("std", "corruption: gaussian noise needs exactly one of std or variance")
		}
		if s.Has("std") {
			c.Corruption.Std = r.Float("std", 0, pos, "a standard deviation ≥ 0")
			c.Corruption.Printed = fmt.Sprintf("std %g", c.Corruption.Std)
		} else {
			v := r.Float("variance", 0, pos, "a variance ≥ 0")
			c.Corruption.Std = sqrt(v)
			c.Corruption.Printed = fmt.Sprintf("variance %g (std %.4g)", v, c.Corruption.Std)
		}
	}
	if c.Corruption.Stretch {
		c.Corruption.Printed += ", stretched to [0, 1]"
	}
	if c.Corruption.Clip {
		c.Corruption.Printed += ", clipped to [0, 1]"
	}
	if c.Corruption.Copies > 1 {
		c.Corruption.Printed += fmt.Sprintf(", %d copies per image", c.Corruption.Copies)
	}
	c.Corruption.Options = s
	// Any other type failed the enum above; r.Err reports it (returning nil
	// for it would accept "type: salt" silently).
	return r.Err()
}

func (c *Config) parseModel(w *walker, n *yaml.Node) error {
	f, keys, err := w.fields(n, "model", "kernel", "c", "gamma", "sigma", "degree", "offset", "components", "energy")
	if err != nil {
		return err
	}
	m := &c.Model
	m.line = n.Line
	if k := f["kernel"]; k != nil {
		if m.Kernel, err = w.str(k, "model.kernel"); err != nil {
			return err
		}
	}
	var widths []string
	for _, name := range []string{"c", "gamma", "sigma"} {
		if f[name] != nil {
			widths = append(widths, name)
		}
	}
	switch m.Kernel {
	case "gaussian":
		if len(widths) != 1 {
			return w.errf(n, "model: a gaussian kernel needs exactly one of c (exp(−‖x−y‖²/c)), gamma (exp(−γ‖x−y‖²)) or sigma (exp(−‖x−y‖²/σ²))")
		}
		m.WidthName = widths[0]
		if m.Widths, err = w.floatList(f[m.WidthName], "model."+m.WidthName, func(v float64) bool { return v > 0 }, "a width > 0"); err != nil {
			return err
		}
	case "linear", "polynomial", "":
		if len(widths) > 0 {
			return w.errf(keys[widths[0]], "model.%s: only a gaussian kernel has a width (kernel is %q)", widths[0], Excerpt(m.Kernel))
		}
	default:
		return w.errf(f["kernel"], "model.kernel: want gaussian, linear or polynomial, got %q", Excerpt(m.Kernel))
	}
	if m.Kernel == "polynomial" {
		if f["degree"] == nil {
			return w.errf(n, "model: a polynomial kernel needs degree")
		}
		if m.Degree, err = w.int(f["degree"], "model.degree"); err != nil {
			return err
		}
		if m.Degree < 1 {
			return w.errf(f["degree"], "model.degree: %d is impossible, want an integer ≥ 1", m.Degree)
		}
		if o := f["offset"]; o != nil {
			if m.Offset, err = w.float(o, "model.offset"); err != nil {
				return err
			}
		}
	} else {
		for _, k := range []string{"degree", "offset"} {
			if f[k] != nil {
				return w.errf(keys[k], "model.%s: only a polynomial kernel has a %s", k, k)
			}
		}
	}
	if f["components"] != nil && f["energy"] != nil {
		return w.errf(keys["energy"], "model: give components or energy, not both")
	}
	if x := f["components"]; x != nil {
		if m.Components, err = w.intList(x, "model.components", 1); err != nil {
			return err
		}
	}
	if x := f["energy"]; x != nil {
		if m.Energy, err = w.floatList(x, "model.energy", func(v float64) bool { return v > 0 && v <= 1 }, "a fraction in (0, 1]"); err != nil {
			return err
		}
	}
	return nil
}

func (c *Config) parseMethods(w *walker, n *yaml.Node) error {
	labels := map[string]int{}
	return w.eachItem(n, "methods", "estimators (- name: mika)", []string{"name", "label", "params"}, func(i int, item *yaml.Node, what string, f map[string]*yaml.Node) error {
		var err error
		if f["name"] == nil {
			return w.errf(item, "%s: missing name (a registered estimator; see runexp list)", what)
		}
		m := Method{Line: item.Line}
		if m.Name, err = w.str(f["name"], what+".name"); err != nil {
			return err
		}
		if l := f["label"]; l != nil {
			if m.Label, err = w.str(l, what+".label"); err != nil {
				return err
			}
		}
		m.Params = Section{Values: map[string]any{}, file: w.file, line: item.Line, lines: map[string]int{}}
		if p := f["params"]; p != nil {
			if m.Params, err = w.section(p, what+".params"); err != nil {
				return err
			}
		}
		id := m.Label
		if id == "" {
			id = m.Name
		}
		if prev, dup := labels[id]; dup {
			return w.errf(item, "%s: %q already used by methods[%d]; give one of them a distinct label", what, Excerpt(id), prev)
		}
		labels[id] = i
		c.Methods = append(c.Methods, m)
		return nil
	})
}

func (c *Config) parseOutputs(w *walker, n *yaml.Node) error {
	s, err := w.section(n, "outputs")
	if err != nil {
		return err
	}
	r := s.Reader("outputs")
	c.Outputs.Dir = r.String("dir", "")
	if s.Has("dir") {
		if err := checkRelDir(c.Outputs.Dir); err != nil {
			r.Fail("dir", "%v (outputs.dir is a folder inside --out)", err)
		}
	}
	size := func(v float64) bool { return v > 0 && v <= MaxFigureCm }
	want := fmt.Sprintf("a size in cm in (0, %d]", MaxFigureCm)
	c.Outputs.Width = r.Float("width", 0, size, want)
	c.Outputs.Height = r.Float("height", 0, size, want)
	return r.Err()
}

func (c *Config) parseReference(w *walker, n *yaml.Node) error {
	return w.eachItem(n, "reference", "paper values", []string{"source", "cell", "metric", "value", "row", "column", "part", "printed", "std", "absent"}, func(i int, item *yaml.Node, what string, f map[string]*yaml.Node) error {
		var err error
		req := []string{"source", "metric", "value"}
		if f["absent"] != nil {
			// A value the paper prints that we have no counterpart to:
			// nothing of ours is read for it.
			req = []string{"source", "value"}
			for _, k := range []string{"metric", "cell", "std"} {
				if f[k] != nil {
					return w.errf(f[k], "%s.%s: a reference with absent: has no value of ours to read (absent says why)", what, k)
				}
			}
			if r, err := w.str(f["absent"], what+".absent"); err != nil || strings.TrimSpace(r) == "" {
				if err == nil {
					err = w.errf(f["absent"], "%s.absent: say why ours has no counterpart", what)
				}
				return err
			}
		}
		for _, req := range req {
			if f[req] == nil {
				return w.errf(item, "%s: missing %s", what, req)
			}
		}
		r := Reference{Line: item.Line, Cell: map[string]any{}}
		if r.Source, err = w.str(f["source"], what+".source"); err != nil {
			return err
		}
		if f["absent"] != nil {
			if r.Absent, err = w.str(f["absent"], what+".absent"); err != nil {
				return err
			}
		} else if r.Metric, err = w.str(f["metric"], what+".metric"); err != nil {
			return err
		}
		if r.Value, err = w.float(f["value"], what+".value"); err != nil {
			return err
		}
		for _, s := range []struct {
			key string
			dst *string
		}{{"row", &r.Row}, {"column", &r.Column}, {"part", &r.Part}, {"printed", &r.Printed}, {"std", &r.Std}} {
			if f[s.key] == nil {
				continue
			}
			if *s.dst, err = w.label(f[s.key], what+"."+s.key); err != nil {
				return err
			}
		}
		if cn := f["cell"]; cn != nil {
			s, err := w.section(cn, what+".cell")
			if err != nil {
				return err
			}
			r.Cell = s.Values
		}
		c.Reference = append(c.Reference, r)
		return nil
	})
}

func (c *Config) parseClaims(w *walker, n *yaml.Node) error {
	ids := map[string]bool{}
	return w.eachItem(n, "claims", "claims", []string{"id", "statement", "source", "check", "expect", "because", "attribution", "defect", "beyond"}, func(i int, item *yaml.Node, what string, f map[string]*yaml.Node) error {
		var err error
		if f["id"] == nil || f["check"] == nil {
			return w.errf(item, "%s: a claim needs an id and a check", what)
		}
		cl := Claim{Line: item.Line}
		if cl.ID, err = w.str(f["id"], what+".id"); err != nil {
			return err
		}
		if ids[cl.ID] {
			return w.errf(f["id"], "%s: claim id %q used twice", what, Excerpt(cl.ID))
		}
		ids[cl.ID] = true
		for key, dst := range map[string]*string{"statement": &cl.Statement, "source": &cl.Source, "expect": &cl.Expect, "because": &cl.Because, "beyond": &cl.Beyond} {
			if x := f[key]; x != nil {
				if *dst, err = w.str(x, what+"."+key); err != nil {
					return err
				}
			}
		}
		if cl.Check, err = w.section(f["check"], what+".check"); err != nil {
			return err
		}
		switch cl.Expect {
		case "", "pass", "fail", "inconclusive":
		default:
			return w.errf(f["expect"], "%s.expect: %q: want pass, fail or inconclusive", what, Excerpt(cl.Expect))
		}
		if cl.Expect == "pass" {
			cl.Expect = ""
		}
		if cl.Expect != "" && strings.TrimSpace(cl.Because) == "" {
			return w.errf(f["expect"], "%s: expect: %s needs because: naming the evidence (a result, an issue, a paper's table)", what, cl.Expect)
		}
		if cl.Expect == "" && cl.Because != "" {
			return w.errf(f["because"], "%s: because: explains an expectation; add expect: fail or expect: inconclusive, or remove it", what)
		}
		if n := f["beyond"]; n != nil && strings.TrimSpace(cl.Beyond) == "" {
			return w.errf(n, "%s.beyond: say why the check goes beyond the paper's claim (a group or quantity the paper does not have)", what)
		}
		if a := f["attribution"]; a != nil {
			return w.errf(a, "%s.attribution: whose failure a verdict is, is derived from the verdicts and the configs' reads:, diagnostic: and post_hoc: tags (package scoreboard, docs/readings.md); a config states only a defect of our check the verdicts cannot show: defect: {kind: %s, evidence: …}", what, strings.Join(Defects, " | "))
		}
		if d := f["defect"]; d != nil {
			if err := w.defect(d, what+".defect", &cl); err != nil {
				return err
			}
		}
		c.Claims = append(c.Claims, cl)
		return nil
	})
}

// defect reads a claim's defect: {kind: KIND, evidence: TEXT}: a defect
// of our check (Defects) with its sentence of evidence, which quotes
// numbers only through references (package claims checks them).
func (w *walker) defect(n *yaml.Node, what string, cl *Claim) error {
	f, _, err := w.fields(n, what, "kind", "evidence")
	if err != nil {
		return err
	}
	if f["kind"] == nil || f["evidence"] == nil {
		return w.errf(n, "%s: needs kind (%s) and evidence", what, strings.Join(Defects, ", "))
	}
	if cl.Defect, err = w.str(f["kind"], what+".kind"); err != nil {
		return err
	}
	if !contains(Defects, cl.Defect) {
		return w.errf(f["kind"], "%s.kind: %q: want one of %s", what, Excerpt(cl.Defect), strings.Join(Defects, ", "))
	}
	if cl.DefectEvidence, err = w.str(f["evidence"], what+".evidence"); err != nil {
		return err
	}
	if strings.TrimSpace(cl.DefectEvidence) == "" {
		return w.errf(f["evidence"], "%s.evidence: say why the check's %s is ours, not the paper's", what, cl.Defect)
	}
	cl.DefectLine = n.Line
	return nil
}

// eachItem reads n, the list name (of want, for the error when it is
// none), calling fn on each of its items, a mapping with keys among
// allowed: its index, node, name ("methods[2]") and fields.
func (w *walker) eachItem(n *yaml.Node, name, want string, allowed []string, fn func(i int, item *yaml.Node, what string, f map[string]*yaml.Node) error) error {
	if n.Kind != yaml.SequenceNode {
		return w.errf(n, "%s: want a list of %s, got %s", name, want, describe(n))
	}
	for i, item := range n.Content {
		what := fmt.Sprintf("%s[%d]", name, i)
		f, _, err := w.fields(item, what, allowed...)
		if err != nil {
			return err
		}
		if err := fn(i, item, what, f); err != nil {
			return err
		}
	}
	return nil
}

// ModelErrorf returns an error placed at the model section.
func (c *Config) ModelErrorf(format string, args ...any) error {
	return &Error{File: c.File, Line: c.Model.line, Msg: fmt.Sprintf(format, args...)}
}

// Errorf returns an error placed at line of the config file.
func (c *Config) Errorf(line int, format string, args ...any) error {
	return &Error{File: c.File, Line: line, Msg: fmt.Sprintf(format, args...)}
}
