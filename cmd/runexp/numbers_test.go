package main

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// provenancePath documents the data sets (counts, sizes, sources).
var provenancePath = filepath.Join("..", "..", "..", "shared", "data", "PROVENANCE.md")

// notesExempt are the numbers of running text that name rather than
// state: sections, equations, issues, tables, figures, claims, steps and
// ambiguities, with their ranges (eq. 25–26).
var notesExempt = regexp.MustCompile(`(?i)(issues? [0-9]+(?:[–-][0-9]+)?|closing note of issues? [0-9]+(?:[–-][0-9]+)?|§[0-9.]+|eqs?\. [0-9]+(?:[–-][0-9]+)?|\b(?:tables?|figs?\.?|figures?|claims?|steps?|rows?|columns?) [0-9]+(?:[–-][0-9]+)?)`)

// numberAllowed are the numbers a config's notes may state that no
// config value, paper value, data fact or record of the baseline holds,
// each with why. Keep it short: a number that can be quoted from a
// record belongs in a because: text, and one that cannot be checked does
// not belong in the notes.
var numberAllowed = map[string]map[string]string{
	// The ring data: the arc's angle is the synthetic set's construction
	// (internal/datasets), not a config key.
	"abrahamsen-hansen-fig3": {"270": "the rings' arc, set by the synthetic data set's code"},
	// A sweep of HOG geometries run once by hand (the notes say so), kept
	// out of the configs so that nothing is tuned on it.
	"huang-fig5":     {"0.23": "hand sweep", "0.37": "hand sweep", "0.40": "hand sweep"},
	"huang-fig5-k10": {"0.23": "hand sweep", "0.37": "hand sweep", "0.40": "hand sweep"},
	// γ₂ tried by hand on validation images and dropped (the notes say
	// so, with why).
	"nguyen-fig5": {"3e-6": "a γ₂ tried on validation images and dropped"},
	// 1/(2C) with the config's C = 1e7: arithmetic on a config value.
	"nguyen-table1-observed-fixed": {"5e-8": "1/(2C), C = 1e7", "18.7": "DataVdn validation draws", "21.8": "DataVdn validation draws"},
	// Validation draws on DataVdn.txt that chose C and the energy (the
	// notes say so); the test file's records cannot hold them.
	"nguyen-table1": {"18.7": "DataVdn validation draws", "21.8": "DataVdn validation draws"},
	// Yale B subset 1's image count, which zheng-lai-table1's records
	// hold (the same images).
	"zheng-lai-table2-clip": {"263": "subset 1's images, as zheng-lai-table1 records"},
	"zheng-lai-table3":      {"263": "subset 1's images, as zheng-lai-table1 records"},
	"zheng-lai-table4":      {"263": "subset 1's images, as zheng-lai-table1 records"},
}

// textNumbers returns the literal numbers of text outside its references
// and the exempt phrases, as written.
func textNumbers(text string) []string {
	text = notesExempt.ReplaceAllString(stripRefs(text), " ")
	var out []string
	for _, m := range number.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// numberSet is a set of numbers that a quoted number may round to.
type numberSet []float64

// addText adds every number written in text.
func (s *numberSet) addText(text string) {
	for _, m := range number.FindAllStringSubmatch(text, -1) {
		if v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64); err == nil {
			*s = append(*s, v)
		}
	}
	// "27 137": a thousands group written with a space.
	for _, m := range regexp.MustCompile(`\b([0-9]{1,3}) ([0-9]{3})\b`).FindAllStringSubmatch(text, -1) {
		if v, err := strconv.ParseFloat(m[1]+m[2], 64); err == nil {
			*s = append(*s, v)
		}
	}
}

// holds reports whether quoted, a number as written, is one of s at the
// precision it is written with (27137 quotes 27136.795), or a fraction of
// s in per cent (43 quotes 0.428).
func (s numberSet) holds(quoted string) bool {
	v, err := strconv.ParseFloat(strings.ReplaceAll(quoted, ",", ""), 64)
	if err != nil {
		return true // not a number after all ("1.2.3")
	}
	digits := 0
	if i := strings.IndexAny(quoted, ".e"); i >= 0 && quoted[i] == '.' {
		digits = len(strings.TrimLeft(strings.SplitN(quoted[i+1:], "e", 2)[0], ""))
	}
	if strings.Contains(quoted, "e") {
		for _, x := range s {
			if x == v || math.Abs(x-v) <= 1e-12*math.Abs(v) {
				return true
			}
		}
		return false
	}
	scale := math.Pow(10, float64(digits))
	half := 0.5/scale + 1e-9
	for _, x := range s {
		if math.Abs(x-v) <= half || math.Abs(100*x-v) <= half || math.Abs(-x-v) <= half {
			return true
		}
	}
	return false
}

// configValues are the numbers config c sets: dataset, corruption, model,
// methods, experiment, reference values and cells, claim checks, seed and
// repeats.
func configValues(c *config.Config) numberSet {
	var s numberSet
	add := func(v any) { s.addText(config.FormatValue(v)) }
	add(c.Dataset.Options.Values)
	add(c.Corruption.Options.Values)
	for _, w := range c.Model.Widths {
		s = append(s, w)
	}
	for _, q := range c.Model.Components {
		s = append(s, float64(q))
	}
	s = append(s, c.Model.Energy...)
	s = append(s, float64(c.Model.Degree), c.Model.Offset, float64(c.Seed), float64(c.Repeats))
	for _, m := range c.Methods {
		add(m.Params.Values)
	}
	add(c.Experiment.Values)
	for _, r := range c.Reference {
		s = append(s, r.Value)
		add(r.Cell)
	}
	for _, cl := range c.Claims {
		add(cl.Check.Values)
	}
	return s
}

// recordValues are the metric values and parameters of baseline/<name>'s
// records (none when it has none).
func recordValues(t *testing.T, name string) numberSet {
	t.Helper()
	f, err := os.Open(filepath.Join(repoBaseline, name, "records.jsonl"))
	if err != nil {
		return nil
	}
	defer f.Close()
	var s numberSet
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		var r struct {
			Params  map[string]any     `json:"params"`
			Metrics map[string]float64 `json:"metrics"`
		}
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("baseline/%s/records.jsonl: %v", name, err)
		}
		for _, v := range r.Metrics {
			s = append(s, v)
		}
		s.addText(config.FormatValue(r.Params))
	}
	return s
}

// TestNumbersSourced: every number a config's notes state is a value the
// config sets, a value of its paper (../shared/paper-values/<paper>.yaml,
// at the precision quoted), a fact of the data (../shared/data/
// PROVENANCE.md), or a value the baseline records of this config or of a
// config the notes name (at the precision quoted, or in per cent) —
// numberAllowed holds the few exceptions, each with why. The because: and
// attribution texts quote measurements through references; the numbers
// left in them must be config or paper values, or in their baseline
// evidence (TestBecauseTexts checks the because: texts the same way).
func TestNumbersSourced(t *testing.T) {
	cfgs := repoConfigList(t)
	names := map[string]bool{}
	for _, c := range cfgs {
		names[c.Name] = true
	}
	papers := map[string]numberSet{}
	var data numberSet
	if b, err := os.ReadFile(provenancePath); err == nil {
		data.addText(string(b))
	} else {
		t.Skipf("no data provenance at %s (the repository's sibling shared/)", provenancePath)
	}
	records := map[string]numberSet{}
	recs := func(name string) numberSet {
		if s, ok := records[name]; ok {
			return s
		}
		records[name] = recordValues(t, name)
		return records[name]
	}
	for _, c := range cfgs {
		pv, ok := papers[c.Paper]
		if !ok {
			b, err := os.ReadFile(filepath.Join(paperValues, c.Paper+".yaml"))
			if err == nil {
				pv.addText(string(b))
			}
			papers[c.Paper] = pv
		}
		own := configValues(c)
		sourced := func(n string, extra numberSet) bool {
			return own.holds(n) || pv.holds(n) || data.holds(n) || extra.holds(n)
		}
		// Notes: measured numbers must be in the records of this config
		// or of a config they name.
		measured := append(numberSet{}, recs(c.Name)...)
		for _, n := range configName.FindAllString(c.Notes, -1) {
			n = strings.TrimSuffix(n, ".yaml")
			if names[n] && n != c.Name {
				measured = append(measured, recs(n)...)
			}
		}
		for _, n := range textNumbers(c.Notes) {
			if sourced(n, measured) {
				continue
			}
			if why, ok := numberAllowed[c.Name][n]; ok && why != "" {
				continue
			}
			t.Errorf("%s: notes state %s, which is no config value, no value of paper %s, no data fact of PROVENANCE.md and no value of the baseline records of this or a named config", c.File, n, c.Paper)
		}
		base := baselineClaims(t, c.Name)
		for _, cl := range c.Claims {
			var ev numberSet
			if r, ok := base[cl.ID]; ok {
				ev.addText(r.Evidence)
			}
			for _, text := range []string{cl.DefectEvidence} {
				for _, n := range textNumbers(text) {
					if !sourced(n, ev) {
						t.Errorf("%s:%d: claim %s: defect states %s, which is no config or paper value and not in its baseline evidence; quote it through a reference", c.File, cl.Line, cl.ID, n)
					}
				}
			}
		}
	}
}
