package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/scoreboard"
)

// The repository's configs, baseline and docs, and the papers' values
// beside the repository (../shared/paper-values, which CI's clean clone
// has too).
var (
	repoConfigs  = filepath.Join("..", "..", "configs")
	repoBaseline = filepath.Join("..", "..", "baseline")
	paperValues  = filepath.Join("..", "..", "..", "shared", "paper-values")
)

// repoConfigList reads every committed config (collections left out).
func repoConfigList(t *testing.T) []*config.Config {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(repoConfigs, "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("configs: %v (%d files)", err, len(files))
	}
	var out []*config.Config
	for _, f := range files {
		if config.IsCollection(f) {
			continue // a list of configs, stating no claim
		}
		c, err := config.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// baselineClaims reads baseline/<name>/claims.json as id → entry; nil
// when the config has none.
func baselineClaims(t *testing.T, name string) map[string]claims.Result {
	t.Helper()
	var rs []claims.Result
	if !readBaseline(t, name, &rs) {
		return nil
	}
	m := map[string]claims.Result{}
	for _, r := range rs {
		m[r.ID] = r
	}
	return m
}

// readBaseline decodes baseline/<name>/claims.json into v; false when the
// config has none.
func readBaseline(t *testing.T, name string, v any) bool {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoBaseline, name, "claims.json"))
	if errors.Is(err, fs.ErrNotExist) {
		return false
	}
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return true
}

// TestEveryPaperClaimAccounted: every claim of every paper-values file is
// tested by a row of a base config (its source cites the claim), combined
// from others (an aggregate) or declared not testable here with its reason
// (configs/accounting); the scoreboard of the baseline shows them all.
func TestEveryPaperClaimAccounted(t *testing.T) {
	needPaperValues(t)
	b, err := scoreboard.Load(repoConfigs, repoBaseline, paperValues)
	if err != nil {
		t.Fatal(err)
	}
	papers := map[string]scoreboard.Paper{}
	for _, p := range b.Papers {
		papers[p.ID] = p
	}
	files, _ := filepath.Glob(filepath.Join(paperValues, "*.yaml"))
	total := 0
	for _, f := range files {
		id := strings.TrimSuffix(filepath.Base(f), ".yaml")
		pcs, err := config.PaperClaims(f)
		if err != nil {
			t.Fatal(err)
		}
		p, ok := papers[id]
		if !ok {
			t.Errorf("%s: no config of the paper states a claim", id)
			continue
		}
		if len(p.Accounts) != len(pcs) {
			t.Errorf("%s: %d paper claims accounted, the file has %d", id, len(p.Accounts), len(pcs))
		}
		for _, a := range p.Accounts {
			if a.Status() == "not accounted for" {
				t.Errorf("%s %s (%q) is neither tested by a config nor declared in configs/accounting", id, a.Claim.ID, a.Claim.Statement)
			}
			if a.Status() == "not testable here" && len(strings.Fields(a.NotTestable)) < 5 {
				t.Errorf("%s %s: not testable here needs its reason, got %q", id, a.Claim.ID, a.NotTestable)
			}
		}
		total += len(pcs)
	}
	t.Logf("%d paper claims accounted for", total)
}

// TestBaselineAsExpected: every claim of every committed baseline gets
// the verdict its config expects now (PASS, or expect: fail or
// inconclusive), whatever the file says it expected when written, so a
// stale baseline claim fails here.
func TestBaselineAsExpected(t *testing.T) {
	for _, c := range repoConfigList(t) {
		got := baselineClaims(t, c.Name)
		if got == nil {
			continue
		}
		for _, cl := range c.Claims {
			r, ok := got[cl.ID]
			if !ok {
				t.Errorf("baseline/%s lacks claim %s", c.Name, cl.ID)
				continue
			}
			v := r.Verdict
			if v == "" {
				v = r.Status
			}
			if want := claims.Expected(cl); v != want {
				t.Errorf("baseline/%s %s: %s, the config expects %s", c.Name, cl.ID, v, want)
			}
			if !r.AsExpected {
				t.Errorf("baseline/%s %s: the file records it as not as expected (expected %s): refresh it", c.Name, cl.ID, r.Expected)
			}
		}
	}
}

// number matches a literal number in running text: 0.979, 1e-5, 27 137,
// 95%, but not digits inside a word or path (c3, k5, fig4).
var number = regexp.MustCompile(`(?:^|[^\pL\pN_./#-])(-?[0-9]+(?:[.,][0-9]+)*(?:e[-+]?[0-9]+)?)`)

// exempt are the literal numbers a because: text may hold without the
// evidence: references to issues, sections and ambiguities.
var exempt = regexp.MustCompile(`(?i)(issues? [0-9]+(?:[–-][0-9]+)?|closing note of issues? [0-9]+(?:[–-][0-9]+)?|§[0-9.]+|eq\. [0-9]+)`)

// setupPhrase reads a setup statement about Yale B's lightings: "all
// lightings" or "subset(s) 1", "subsets 1–2", "subsets 1-3".
var setupPhrase = regexp.MustCompile(`(?i)(all lightings|subsets? ([0-9])(?:\s*(?:[–-]|and)\s*([0-9]))?)`)

// TestBecauseTexts: a because: text quotes measured numbers and setup
// facts only through references filled in when the claim is judged. Each
// reference must be known, each literal number left in the text must
// appear in the claim's baseline evidence or its own check (or name an
// issue, a section or an equation), and a statement of the setup (all
// lightings, subsets 1–2) must agree with the config's dataset. No
// exceptions.
func TestBecauseTexts(t *testing.T) {
	for _, c := range repoConfigList(t) {
		base := baselineClaims(t, c.Name)
		setup := claims.ConfigSetup(c)
		for _, cl := range c.Claims {
			if cl.Because == "" {
				continue
			}
			where := c.Name + " " + cl.ID
			if _, err := claims.References(cl.Because); err != nil {
				t.Errorf("%s: %v", where, err)
				continue
			}
			// Setup references must exist in this config.
			for _, ref := range refsOf(cl.Because) {
				if strings.HasPrefix(ref, "metric:") || slices.Contains([]string{"evidence", "verdict", "point", "interval", "detectable", "cannot_discriminate"}, ref) {
					continue
				}
				if _, ok := setup(ref); !ok {
					t.Errorf("%s: {%s}: the config has no such value", where, ref)
				}
			}
			text := stripRefs(cl.Because)
			text = exempt.ReplaceAllString(text, "")
			evidence := ""
			if r, ok := base[cl.ID]; ok {
				evidence = r.Evidence
			}
			checkText := config.FormatValue(cl.Check.Values)
			for _, m := range number.FindAllStringSubmatch(text, -1) {
				n := m[1]
				if containsNumber(evidence, n) || containsNumber(checkText, n) {
					continue
				}
				t.Errorf("%s: because: states %s, which neither its baseline evidence nor its check holds; quote it through {evidence}, {metric:NAME} or a config reference: %q", where, n, cl.Because)
			}
			for _, m := range setupPhrase.FindAllStringSubmatch(text, -1) {
				if why := contradicts(c, m); why != "" {
					t.Errorf("%s: because: says %q, but %s", where, m[0], why)
				}
			}
		}
	}
}

// refsOf returns the references of a because: text (already checked).
func refsOf(s string) []string {
	refs, _ := claims.References(s)
	return refs
}

// stripRefs removes the {…} references of s.
func stripRefs(s string) string {
	return regexp.MustCompile(`\{[^{}]*\}`).ReplaceAllString(s, " ")
}

// containsNumber reports whether text holds the number n as a number (not
// as part of a longer one): "0.28" is in "0.28 >= 1" but not in "10.28".
func containsNumber(text, n string) bool {
	for _, m := range number.FindAllStringSubmatch(text, -1) {
		if m[1] == n {
			return true
		}
	}
	// Numbers also stand after "=" or "×" inside the evidence.
	return regexp.MustCompile(`(?:^|[=×(\[ ,:;])` + regexp.QuoteMeta(n) + `(?:$|[^0-9.])`).MatchString(text)
}

// contradicts says how the config contradicts a setup phrase about Yale
// B's lightings, or "".
func contradicts(c *config.Config, m []string) string {
	subs, has := c.Dataset.Options.Values["subsets"]
	if strings.EqualFold(m[1], "all lightings") {
		if has {
			return "its dataset takes subsets " + config.FormatValue(subs)
		}
		return ""
	}
	lo, _ := strconv.Atoi(m[2])
	hi := lo
	if m[3] != "" {
		hi, _ = strconv.Atoi(m[3])
	}
	var want []any
	for s := lo; s <= hi; s++ {
		want = append(want, float64(s))
	}
	if !has {
		return "its dataset takes every subset"
	}
	if config.FormatValue(subs) != config.FormatValue(want) {
		return "its dataset takes subsets " + config.FormatValue(subs)
	}
	return ""
}

// needPaperValues skips a test that reads the paper values beside the
// checkout (../shared/paper-values) when a clone has none there, as a
// reader's first clone has not: without them the scoreboard has no
// printed numbers to fit, claims to account or units to check.
func needPaperValues(t *testing.T) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(paperValues, "*.yaml"))
	if len(files) == 0 {
		t.Skipf("no paper values at %s (the repository's sibling shared/)", paperValues)
	}
}

// readingsPath is docs/readings.md.
var readingsPath = filepath.Join("..", "..", "docs", "readings.md")

// countsHeader starts the table of docs/readings.md that gives every
// config's verdicts by interval status.
const countsHeader = "| config | claims | PASS (interval) | PASS (point) | FAIL (interval) | FAIL (point) | INCONCLUSIVE | NOT-EVALUATED |"

// verdictCounts are a config's baseline verdicts by interval status, in
// countsHeader's column order after claims.
func verdictCounts(rs map[string]claims.Result) [6]int {
	var n [6]int
	for _, r := range rs {
		v := r.Verdict
		if v == "" {
			v = r.Status
		}
		interval := r.Basis == "interval"
		switch {
		case v == claims.Pass && interval:
			n[0]++
		case v == claims.Pass:
			n[1]++
		case v == claims.Fail && interval:
			n[2]++
		case v == claims.Fail:
			n[3]++
		case v == claims.Inconclusive:
			n[4]++
		default:
			n[5]++
		}
	}
	return n
}

// claimVerdict matches a claim's verdict quoted in docs/readings.md:
// `config#claim` VERDICT (the verdict of its committed baseline).
var claimVerdict = regexp.MustCompile("`([a-z0-9.-]+)#([A-Za-z0-9_.-]+)`:? \\**(PASS|FAIL|INCONCLUSIVE|NOT-EVALUATED)\\b")

// TestReadingsCounts keeps docs/readings.md in line with baseline/: its
// table of verdict counts by interval status must list every config with
// claims and equal each one's baseline, and every claim verdict it quotes
// as `config#claim` VERDICT must be the baseline's.
func TestReadingsCounts(t *testing.T) {
	b, err := os.ReadFile(readingsPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, countsHeader)
	if i < 0 {
		t.Fatalf("docs/readings.md has no table headed %q", countsHeader)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(text[i:], "\n")[2:] {
		if !strings.HasPrefix(line, "|") {
			break
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for k := range cells {
			cells[k] = strings.Trim(strings.TrimSpace(cells[k]), "`*")
		}
		rows[cells[0]] = cells[1:]
	}
	var total struct {
		claims int
		n      [6]int
	}
	for _, c := range repoConfigList(t) {
		if len(c.Claims) == 0 {
			continue
		}
		rs := baselineClaims(t, c.Name)
		row, ok := rows[c.Name]
		if !ok {
			t.Errorf("docs/readings.md: the verdict counts lack %s", c.Name)
			continue
		}
		n := verdictCounts(rs)
		total.claims += len(rs)
		for i, k := range n {
			total.n[i] += k
		}
		want := []string{strconv.Itoa(len(rs))}
		for _, k := range n {
			want = append(want, strconv.Itoa(k))
		}
		if strings.Join(row, ",") != strings.Join(want, ",") {
			t.Errorf("docs/readings.md: %s counts %v, baseline/ gives %v (claims, PASS interval/point, FAIL interval/point, INCONCLUSIVE, NOT-EVALUATED)", c.Name, row, want)
		}
		delete(rows, c.Name)
	}
	for name := range rows {
		t.Errorf("docs/readings.md: the verdict counts list %s, which is no config with claims", name)
	}
	// The table's sum, in words, must be baseline/'s too.
	n := total.n
	all := fmt.Sprintf("In all: %d claims; PASS %d on an interval and %d on the point estimate, FAIL %d on an interval and %d on the point estimate, %d INCONCLUSIVE, %d NOT-EVALUATED.",
		total.claims, n[0], n[1], n[2], n[3], n[4], n[5])
	if !strings.Contains(text, all) {
		t.Errorf("docs/readings.md: the sum of the verdict counts should read %q", all)
	}
	for _, m := range claimVerdict.FindAllStringSubmatch(text, -1) {
		rs := baselineClaims(t, m[1])
		r, ok := rs[m[2]]
		if !ok {
			t.Errorf("docs/readings.md quotes %s#%s, which baseline/ lacks", m[1], m[2])
			continue
		}
		if v := r.Verdict; v != m[3] {
			t.Errorf("docs/readings.md: %s#%s is %s, baseline/ says %s", m[1], m[2], m[3], v)
		}
	}
}

// baselineRaw reads baseline/<name>/claims.json as id → its fields, for
// fields claims.Result does not declare (cannot_discriminate); nil when
// the config has none.
func baselineRaw(t *testing.T, name string) map[string]map[string]any {
	t.Helper()
	var rs []map[string]any
	if !readBaseline(t, name, &rs) {
		return nil
	}
	m := map[string]map[string]any{}
	for _, r := range rs {
		id, _ := r["id"].(string)
		m[id] = r
	}
	return m
}

// configName matches a config's name quoted in running text.
var configName = regexp.MustCompile(`[a-z0-9]+(?:-[a-z0-9.]+)+`)

// TestAttributions checks whose failure every base row not passing under
// the paper's assignment is, as the scoreboard derives it from baseline/,
// against the rules of docs/readings.md ("Attribution") applied here to
// the raw baseline, independently of that code: reading only where the
// assigned reading passes the row and the stated protocol does not;
// test only with a named defect or a comparison the run could not make,
// and no documented reading passing; data only with a diagnostic that
// moves the data toward the paper's and passes; paper only on the paper's
// own data, FAIL under the stated protocol, the assignment and every
// reading of every listed ambiguity, none left undecided, no post-hoc
// variant passing, no defect; undetermined with what would decide it. No
// claims.json, of a base or a variant, records an attribution: one
// package derives it, for every row.
func TestAttributions(t *testing.T) {
	needPaperValues(t)
	b, err := scoreboard.Load(repoConfigs, repoBaseline, paperValues)
	if err != nil {
		t.Fatal(err)
	}
	cfgs := repoConfigList(t)
	byName := map[string]*config.Config{}
	for _, c := range cfgs {
		byName[c.Name] = c
		for id, r := range baselineRaw(t, c.Name) {
			if _, ok := r["attribution"]; ok {
				t.Errorf("baseline/%s/claims.json: claim %s records an attribution (%v): whose failure a verdict is, is derived by the scoreboard alone", c.Name, id, r["attribution"])
			}
		}
	}
	// role is what a variant is over its variant_of chain: the
	// ambiguities read, whether a link is post hoc or a diagnostic (and
	// whether one moves the data).
	type role struct {
		base          string
		reads         []string
		postHoc, diag bool
		moves         bool
	}
	roleOf := func(c *config.Config) role {
		var r role
		for i := 0; c.VariantOf != "" && i < len(cfgs); i++ {
			if c.Reads != "" {
				r.reads = append(r.reads, c.Reads)
			}
			r.postHoc = r.postHoc || c.PostHoc != ""
			r.diag = r.diag || c.Diagnostic
			r.moves = r.moves || c.Moves != ""
			c = byName[strings.TrimSuffix(c.VariantOf, ".yaml")]
		}
		r.base = c.Name
		return r
	}
	counts := map[string]int{}
	for _, p := range b.Papers {
		for _, tb := range p.Tables {
			c := byName[tb.Base.Name]
			assigned, _ := tb.AssignedColumn()
			for _, row := range tb.Rows {
				d := row.Derived
				if !row.Counted || d.Kind == "" {
					continue
				}
				cl := findClaim(c, row.ID)
				where := fmt.Sprintf("%s:%d: claim %s (stated %s)", c.File, cl.Line, row.ID, row.Base.Verdict)
				counts[d.Kind]++
				base := baselineClaims(t, c.Name)[row.ID]
				assignedV := base.Verdict
				if assigned.Name != "" && assigned.Name != c.Name {
					if r, ok := baselineClaims(t, assigned.Name)[row.ID]; ok {
						assignedV = r.Verdict
					}
				}
				var otherPass, movesPass, unconfirmed bool
				tried := map[string]bool{}
				for _, v := range cfgs {
					ro := roleOf(v)
					if v.VariantOf == "" || ro.base != c.Name {
						continue
					}
					vr, ok := baselineClaims(t, v.Name)[row.ID]
					if !ok {
						continue
					}
					reading := len(ro.reads) > 0 && !ro.postHoc && !ro.diag
					if reading {
						for _, id := range ro.reads {
							tried[id] = true
						}
					}
					switch {
					case v.Name == assigned.Name:
					case (reading || ro.postHoc) && vr.Verdict == claims.Pass:
						otherPass = true
					case ro.diag && ro.moves && vr.Verdict == claims.Pass:
						movesPass = true
					case reading && vr.Verdict != claims.Fail:
						unconfirmed = true
					}
				}
				otherPass = otherPass || (base.Verdict == claims.Pass && assignedV != claims.Pass)
				untried := false
				for id := range c.Ambiguities {
					untried = untried || !tried[id]
				}
				switch d.Kind {
				case "reading":
					if assignedV != claims.Pass || base.Verdict == claims.Pass {
						t.Errorf("%s: attributed to our reading, but the assigned reading %s gives %s", where, assigned.Name, assignedV)
					}
				case "data":
					if otherPass || !movesPass {
						t.Errorf("%s: attributed to our data without a diagnostic that moves the data toward the paper's and passes it", where)
					}
				case "test":
					if otherPass || (cl.Defect == "" && base.CannotDiscriminate == "") {
						t.Errorf("%s: attributed to our test with a reading passing (%v) or without a named defect of the check", where, otherPass)
					}
				case "paper":
					if otherPass || base.Verdict != claims.Fail || assignedV != claims.Fail || c.StandIn != "" || untried || unconfirmed || cl.Defect != "" {
						t.Errorf("%s: attributed to the paper, but the rule does not give it (another reading passes %v, stand-in %q, ambiguity not read %v, a variant not confirming %v, defect %q)", where, otherPass, c.StandIn, untried, unconfirmed, cl.Defect)
					}
				case "undetermined":
					if d.Decide == "" {
						t.Errorf("%s: undetermined without what would decide it (%s)", where, d.Why)
					}
				default:
					t.Errorf("%s: attribution %q", where, d.Kind)
				}
			}
		}
	}
	t.Logf("attributions of the base rows not passing: %v", counts)
}

// findClaim is c's claim id.
func findClaim(c *config.Config, id string) config.Claim {
	for _, cl := range c.Claims {
		if cl.ID == id {
			return cl
		}
	}
	return config.Claim{}
}

// TestOneReadingPerAmbiguity recounts every paper as a referee would:
// the verdicts the scoreboard counts (each counted row under the paper's
// assignment) read each listed ambiguity one way across the whole paper,
// the one the assignment names; a config the assignment does not name
// never decides a counted row.
func TestOneReadingPerAmbiguity(t *testing.T) {
	needPaperValues(t)
	b, err := scoreboard.Load(repoConfigs, repoBaseline, paperValues)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*config.Config{}
	for _, c := range repoConfigList(t) {
		byName[c.Name] = c
	}
	// readsOf is how config name reads each ambiguity over its chain:
	// the link's name after the config it varies.
	readsOf := func(name string) map[string]string {
		out := map[string]string{}
		for c := byName[name]; c != nil && c.VariantOf != ""; {
			parent := byName[strings.TrimSuffix(c.VariantOf, ".yaml")]
			if c.Reads != "" {
				out[c.Reads] = strings.TrimPrefix(c.Name, parent.Name+"-")
			}
			c = parent
		}
		return out
	}
	for _, p := range b.Papers {
		want := p.Assignment.Set()
		seen := map[string]map[string][]string{} // ambiguity → reading → rows
		for _, a := range p.Accounts {
			for _, r := range a.Rows {
				cfg := r.AssignedConfig
				if cfg == "" {
					continue // not run under the assignment
				}
				for id, name := range readsOf(cfg) {
					if seen[id] == nil {
						seen[id] = map[string][]string{}
					}
					seen[id][name] = append(seen[id][name], r.Table+"#"+r.Row)
					if want[id] != name {
						t.Errorf("%s: %s#%s is counted under %s, which reads %s as %q; the assignment reads it as %q", p.ID, r.Table, r.Row, cfg, id, name, want[id])
					}
				}
			}
		}
		for id, names := range seen {
			if len(names) > 1 {
				t.Errorf("%s: %s is read %d ways in what is counted: %v", p.ID, id, len(names), names)
			}
		}
		var as []string
		for _, ch := range p.Assignment.Choices {
			as = append(as, ch.Ambiguity+"="+ch.Reading+" ("+ch.Rule+")")
		}
		t.Logf("%s: %s", p.ID, strings.Join(as, ", "))
	}
}

// TestOneBasePerReading: two base configs of one paper with the same kind,
// data and claim ids are two readings of one protocol, and one of them
// must be a variant of the other (docs/readings.md: one base per
// ambiguity), so that a claim passing under one reading is not counted
// as not reproduced under the other.
func TestOneBasePerReading(t *testing.T) {
	seen := map[string]string{}
	for _, c := range repoConfigList(t) {
		if c.VariantOf != "" || len(c.Claims) == 0 {
			continue
		}
		var ids []string
		for _, cl := range c.Claims {
			ids = append(ids, cl.ID)
		}
		slices.Sort(ids)
		key := strings.Join([]string{c.Paper, c.Kind, c.Dataset.Name, config.CanonicalKey(c.Dataset.Options.Values), strings.Join(ids, ",")}, "|")
		if other, dup := seen[key]; dup {
			t.Errorf("%s and %s are two base configs of one protocol (paper, kind, data and claims alike): make one a variant of the other with reads: the ambiguity it reads", other, c.File)
		}
		seen[key] = c.File
	}
}

// selfVariant matches a title or notes calling its own config a variant,
// a scan, a reading or a diagnostic: a title with one of those words, or
// notes that open a line with "Variant" or "Reading", say "variant of",
// "this variant", "this reading", "(this config)" or "this config scans".
var (
	selfVariantTitle = regexp.MustCompile(`(?i)\b(variant|scan|reading|diagnostic)\b`)
	selfVariantNotes = regexp.MustCompile(`(?im)(^\s*(variant|reading)\b|\bvariant of\b|\bthis (variant|reading|scan)\b|\(this config\)|\bthis config scans\b)`)
)

// TestVariantsDeclared: a config whose title or notes call it a variant,
// a scan or a reading declares variant_of (and diagnostic when it probes
// our data rather than reading the paper), so that its rows are never
// counted as the paper's stated protocol.
func TestVariantsDeclared(t *testing.T) {
	for _, c := range repoConfigList(t) {
		if c.VariantOf != "" {
			continue
		}
		if m := selfVariantTitle.FindString(c.Title); m != "" {
			t.Errorf("%s: its title calls it a %s (%q) but it declares no variant_of", c.File, strings.ToLower(m), c.Title)
		}
		if m := selfVariantNotes.FindString(c.Notes); m != "" {
			t.Errorf("%s: its notes call it a variant or reading (%q) but it declares no variant_of", c.File, strings.TrimSpace(m))
		}
	}
}
