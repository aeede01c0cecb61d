package scoreboard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// accountFixture is the board fixture with paper p's claims c1–c6 in its
// paper-values file and, unless accounting is "", the accounting file
// configs/accounting/p.yaml.
func accountFixture(t *testing.T, accounting string) (configs, root string) {
	t.Helper()
	configs, root = fixture(t)
	pv := "citation:\n  title: The Paper\nambiguities:\n- id: a1\n  topic: the unit\n  text: which unit\nclaims:\n"
	for _, id := range []string{"c1", "c2", "c3", "c4", "c5", "c6"} {
		pv += "- id: " + id + "\n  statement: Paper claim " + id + ".\n"
	}
	if err := os.WriteFile(filepath.Join(configs, "pv", "p.yaml"), []byte(pv), 0o644); err != nil {
		t.Fatal(err)
	}
	if accounting != "" {
		if err := os.MkdirAll(filepath.Join(configs, "accounting"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(configs, "accounting", "p.yaml"), []byte(accounting), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return configs, root
}

const accounting = `paper: p
claims:
  - claim: c5
    not_testable: "no data could decide it"
  - claim: c6
    aggregate: [c1, c2]
    reading: "every table's claim"
`

// TestAccount: b and m test c1–c4 (their sources cite pv.yaml#c1 …), c5
// is declared not testable here and counted in its own column, c6
// combines c1 (as stated, twice: in b and in m, which is not run) and c2
// (under another reading) — any row not run makes the aggregate not run.
// Without the accounting file c5 and c6 are not accounted for.
func TestAccount(t *testing.T) {
	configs, root := accountFixture(t, accounting)
	b, err := Load(configs, root, filepath.Join(configs, "pv"))
	if err != nil {
		t.Fatal(err)
	}
	p := b.Papers[0]
	if len(p.Accounts) != 6 || len(p.Unaccounted) != 0 {
		t.Fatalf("accounts %+v, unaccounted %v", p.Accounts, p.Unaccounted)
	}
	want := map[string]string{"c1": "tested", "c2": "tested", "c3": "tested", "c4": "tested", "c5": "not testable here", "c6": "aggregate"}
	for _, a := range p.Accounts {
		if a.Status() != want[a.Claim.ID] {
			t.Errorf("%s: %s, want %s", a.Claim.ID, a.Status(), want[a.Claim.ID])
		}
	}
	if p.Accounts[0].Rows[0].Table != "b" || len(p.Accounts[0].Rows) != 2 {
		t.Errorf("c1 rows %+v, want b#c1 and m#c1", p.Accounts[0].Rows)
	}
	if p.Accounts[5].Category != NotRun {
		t.Errorf("c6 aggregate: %v, want not run (m's c1)", p.Accounts[5].Category)
	}
	// The paper's claims are the unit: c1 not run (m's row); c2 not
	// reproduced, undetermined: the reading r passes it, but no printed
	// value bears on a1, so the assignment keeps the stated protocol's
	// reading and r is sensitivity; c3 and c4 not reproduced as the paper
	// states them (s's rows), c5 not testable, c6 not run (an aggregate
	// with c1 not run).
	wantTotals := Totals{NotReproduced: 3, NotTestable: 1, NotRun: 2}
	if b.Totals != wantTotals {
		t.Errorf("totals %v, want %v", b.Totals, wantTotals)
	}
	if s := p.Accounts[1].Sensitivity; len(s) != 1 || s[0].Reading != "r (a1)" || s[0].Verdict != Pass || !s[0].Passes {
		t.Errorf("c2's sensitivity %+v, want PASS under r (a1)", s)
	}
	if c := p.Assignment.Choices; len(c) != 1 || c[0].Ambiguity != "a1" || c[0].Reading != "" || c[0].Rule != RuleStatedNoFit {
		t.Errorf("assignment %+v, want a1 read as stated (no printed value bears on it)", c)
	}
	for i, want := range []string{"", "undetermined", "paper", "paper", "", ""} {
		if got := p.Accounts[i].Attribution; got != want {
			t.Errorf("c%d: attribution %q, want %q (%s)", i+1, got, want, p.Accounts[i].Why)
		}
	}
	md := string(b.Markdown(Options{Command: "x", ConfigsDir: configs, LinkDir: root}))
	for _, s := range []string{"| not testable |", "| c5 [5] | — | not testable |", "5. c5: Paper claim c5. not testable here: no data could decide it", "| c6 [6] | aggregate of c1, c2 | not run |", "aggregate: every table's claim"} {
		if !strings.Contains(md, s) {
			t.Errorf("page lacks %q", s)
		}
	}

	configs, root = accountFixture(t, "")
	b, err = Load(configs, root, filepath.Join(configs, "pv"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b.Papers[0].Unaccounted, ","); got != "c5,c6" {
		t.Errorf("unaccounted %q, want c5,c6", got)
	}
	if !strings.Contains(string(b.Markdown(Options{})), "**not accounted for**") {
		t.Error("the page does not say that claims are not accounted for")
	}
}

// TestAccountErrors: an accounting entry for a claim a config tests, for
// an unknown claim, an aggregate of unknown claims, both a reason and an
// aggregate, and a row citing a claim the paper lacks are errors.
func TestAccountErrors(t *testing.T) {
	for _, tc := range []struct{ accounting, want string }{
		{"paper: p\nclaims:\n  - claim: c1\n    not_testable: x\n", "c1 is tested by b#c1"},
		{"paper: p\nclaims:\n  - claim: c9\n    not_testable: x\n", "c9 is not a claim of paper p"},
		{"paper: p\nclaims:\n  - claim: c6\n    aggregate: [c1, c7]\n    reading: r\n", "c7 is not another claim"},
		{"paper: p\nclaims:\n  - claim: c6\n    aggregate: [c1]\n    not_testable: x\n", "exactly one of not_testable"},
		{"paper: p\nclaims:\n  - claim: c6\n    aggregate: [c1]\n", "needs reading"},
		{"paper: p\nclaim:\n", `unknown key "claim"`},
	} {
		configs, root := accountFixture(t, tc.accounting)
		if _, err := Load(configs, root, filepath.Join(configs, "pv")); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.accounting, err, tc.want)
		}
	}
	configs, root := accountFixture(t, "")
	body, _ := os.ReadFile(filepath.Join(configs, "b.yaml"))
	if err := os.WriteFile(filepath.Join(configs, "b.yaml"), []byte(strings.Replace(string(body), "pv.yaml#c2", "pv.yaml#claims/c12", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(configs, root, filepath.Join(configs, "pv")); err == nil || !strings.Contains(err.Error(), "cites c12, which is not a claim of paper p") {
		t.Errorf("a row citing an unknown claim: %v", err)
	}
}

// TestBecauseFilled: the page shows a because: text with its references
// filled from the base's claims.json (evidence, verdict) and config
// (dataset), and INCONCLUSIVE, not NOT-EVALUATED, for an expected
// inconclusive.
func TestBecauseFilled(t *testing.T) {
	configs, root := fixture(t)
	body, _ := os.ReadFile(filepath.Join(configs, "b.yaml"))
	src := strings.Replace(string(body), `because: "measured FAIL in issue 9"`, `because: "on {dataset}: {verdict}, {evidence}"`, 1)
	src = strings.Replace(src, "  - id: c3\n", "  - id: c3\n    expect: inconclusive\n    because: \"{interval} {detectable}\"\n", 1)
	src = strings.Replace(src, "  - id: c2\n", "  - id: c2\n    expect: inconclusive\n    because: \"{cannot_discriminate}\"\n", 1)
	if err := os.WriteFile(filepath.Join(configs, "b.yaml"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "b", "claims.json"), []byte(`[
 {"id": "c1", "status": "PASS"},
 {"id": "c2", "status": "INCONCLUSIVE", "verdict_basis": "point: one clustering", "cannot_discriminate": "cannot discriminate here: m 1 (A) and 1 (B)"},
 {"id": "c3", "verdict": "INCONCLUSIVE", "ci_lo": -0.5, "ci_hi": 1.25, "ci_level": 0.95, "detectable": 0.875},
 {"id": "c4", "verdict": "FAIL", "evidence": "m: 3 < 1 ✗"}
]`), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := Load(configs, root, "")
	if err != nil {
		t.Fatal(err)
	}
	rows := b.Papers[0].Tables[0].Rows
	if got := rows[3].Because; got != "on d: FAIL, m: 3 < 1 ✗" {
		t.Errorf("c4 because %q", got)
	}
	if got := expectText(rows[2]); got != "INCONCLUSIVE — [-0.5, 1.25] ±0.875" {
		t.Errorf("c3 expected %q", got)
	}
	// A cannot-discriminate verdict fills its reference, and the point
	// rows list it with that reason rather than why it has no interval.
	if got := rows[1].Because; got != "cannot discriminate here: m 1 (A) and 1 (B)" {
		t.Errorf("c2 because %q", got)
	}
	found := false
	for _, r := range b.Basis.PointRows {
		found = found || strings.HasSuffix(r, "#c2: cannot discriminate here: m 1 (A) and 1 (B)")
	}
	if !found {
		t.Errorf("point rows %q lack c2's cannot-discriminate reason", b.Basis.PointRows)
	}
}
