package claims_test

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

const becauseConfig = `title: t
paper: p
kind: k
dataset: {name: yaleb, subsets: [1, 2], width: 92}
corruption: {type: gaussian, variance: 0.5, stretch: true, copies: 2}
model: {kernel: gaussian, c: 1.0e+5, energy: 0.95}
experiment: {splits: 5}
claims:
  - id: x
    statement: s
    source: src
    expect: fail
    because: "%s"
    check: {type: value, metric: m, op: '<', value: 1}
`

// TestExpandBecause: a because: text's references are filled from the
// verdict, the records and the config, so that what it states is what
// was measured and configured.
func TestExpandBecause(t *testing.T) {
	text := "on {dataset} (subsets {dataset.subsets}, {corruption}, c = {model.c}, {experiment.splits} splits): {verdict}, m = {metric:m}; {evidence}"
	c, err := config.Parse("f.yaml", []byte(strings.Replace(becauseConfig, "%s", text, 1)))
	if err != nil {
		t.Fatal(err)
	}
	recs := []report.Record{rec(map[string]any{"a": 1.0}, map[string]float64{"m": 2}), rec(map[string]any{"a": 2.0}, map[string]float64{"m": 3})}
	o := claims.Options{Setup: claims.ConfigSetup(c)}
	res := claims.EvaluateWith(c.Claims[0], recs, o)
	want := "on yaleb (subsets [1 2], width 92) (subsets [1 2], variance 0.5 (std 0.7071), stretched to [0, 1], 2 copies per image, c = 100000, 5 splits): FAIL, m = 2–3 over 2 cells; m: "
	if !strings.HasPrefix(res.Because, want) || !strings.HasSuffix(res.Because, res.Evidence) {
		t.Errorf("because\n%q\nwant the prefix\n%q\nand the evidence %q", res.Because, want, res.Evidence)
	}
	if res.Expected != claims.Fail || !res.AsExpected {
		t.Errorf("expected %s, as expected %v", res.Expected, res.AsExpected)
	}
	// A reference that cannot be filled says so in the text rather than
	// leaving a claim about what was not measured.
	for _, bad := range []string{"{metric:nope}", "{dataset.colour}", "{detectable}"} {
		if _, err := claims.Expand(bad, res, recs, claims.ConfigSetup(c)); err == nil {
			t.Errorf("Expand(%s) gave no error", bad)
		}
	}
}

// TestReferences: braces are reserved for references, and Check rejects
// an unknown or unclosed one at config validation.
func TestReferences(t *testing.T) {
	refs, err := claims.References("a {evidence} b {dataset.subsets} {metric:same_label_k5}")
	if err != nil || strings.Join(refs, ",") != "evidence,dataset.subsets,metric:same_label_k5" {
		t.Errorf("References = %v, %v", refs, err)
	}
	for _, bad := range []string{"{evidence", "evidence}", "{colour}", "{metric:}", "{a{b}}"} {
		if _, err := claims.References(bad); err == nil {
			t.Errorf("References(%q) gave no error", bad)
		}
		c, err := config.Parse("f.yaml", []byte(strings.Replace(becauseConfig, "%s", bad, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if err := claims.Check(c.Claims[0]); err == nil || !strings.Contains(err.Error(), "f.yaml:") {
			t.Errorf("Check with because %q: %v, want a FILE:LINE error", bad, err)
		}
	}
}

// TestDefect: a claim's defect: {kind, evidence} names a defect of our
// check and its sentence, whose references are filled from the verdict as
// because:'s are; a config stating whose failure a verdict is (the
// attribution: key the scoreboard now derives) is refused, as are an
// unknown defect and one without evidence.
func TestDefect(t *testing.T) {
	const cfg = `title: t
paper: p
kind: k
dataset: {name: yaleb, subsets: [1, 2]}
claims:
  - id: x
    statement: s
    expect: fail
    because: "{evidence}"
    defect: {kind: quantifier, evidence: "our 'on every split': win fraction {metric:m}; {verdict}"}
    check: {type: value, metric: m, op: '<', value: OP}
`
	recs := []report.Record{rec(map[string]any{"a": 1.0}, map[string]float64{"m": 2})}
	// m = 2 < 1 fails; m = 2 < 3 passes.
	for _, tc := range []struct {
		value, status, ev string
	}{
		{"1", claims.Fail, "our 'on every split': win fraction 2; FAIL"},
		{"3", claims.Pass, "our 'on every split': win fraction 2; PASS"},
	} {
		c, err := config.Parse("f.yaml", []byte(strings.Replace(cfg, "OP", tc.value, 1)))
		if err != nil {
			t.Fatal(err)
		}
		res := claims.EvaluateWith(c.Claims[0], recs, claims.Options{Setup: claims.ConfigSetup(c)})
		if res.Status != tc.status || res.Defect != "quantifier" || res.DefectEvidence != tc.ev {
			t.Errorf("m < %s: %s, defect %q %q; want %s, quantifier %q", tc.value, res.Status, res.Defect, res.DefectEvidence, tc.status, tc.ev)
		}
	}
	const good = `defect: {kind: quantifier, evidence: "our 'on every split': win fraction {metric:m}; {verdict}"}`
	for bad, want := range map[string]string{
		`defect: {kind: ours, evidence: "x"}`:            `f.yaml:10: claims[0].defect.kind: "ours": want one of degenerate, quantifier, threshold, visual-metric`,
		`defect: {kind: quantifier}`:                     `f.yaml:10: claims[0].defect: needs kind`,
		`defect: {kind: quantifier, evidence: " "}`:      `f.yaml:10: claims[0].defect.evidence: say why`,
		`defect: {kind: threshold, evidence: "x", y: 1}`: `f.yaml:10: claims[0].defect: unknown key "y"`,
		`defect: test`: `f.yaml:10: claims[0].defect: want a mapping`,
		`attribution: {kind: paper, evidence: "{evidence}"}`:           `f.yaml:10: claims[0].attribution: whose failure a verdict is, is derived`,
		`attribution: {kind: test, defect: quantifier, evidence: "x"}`: `f.yaml:10: claims[0].attribution: whose failure a verdict is, is derived`,
	} {
		text := strings.Replace(strings.Replace(cfg, good, bad, 1), "OP", "1", 1)
		_, err := config.Parse("f.yaml", []byte(text))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q…", bad, err, want)
		}
	}
	// An unknown reference is caught at validation, as in because:.
	c, err := config.Parse("f.yaml", []byte(strings.Replace(strings.Replace(cfg, "{metric:m}; {verdict}", "{metric:m} {colour}", 1), "OP", "1", 1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := claims.Check(c.Claims[0]); err == nil || !strings.Contains(err.Error(), "f.yaml:") || !strings.Contains(err.Error(), "defect") {
		t.Errorf("Check with {colour} in the defect: %v, want a FILE:LINE error", err)
	}
}
