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
	want := "on yaleb (subsets [1 2], width 92) (subsets [1 2], variance 0.5 (std 0.7071067811865476), stretched to [0, 1], 2 copies per image, c = 100000, 5 splits): FAIL, m = 2–3 over 2 cells; m: "
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
