package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestJSONSchemas: status, list and compare print, with --json, one JSON
// object that validates against its schema in docs/schemas/, whatever
// they say (cells to compute or none, a data root missing, every list or
// one section, changes or none).
func TestJSONSchemas(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	status := loadSchema(t, "../../docs/schemas/status.schema.json")
	list := loadSchema(t, "../../docs/schemas/list.schema.json")
	compare := loadSchema(t, "../../docs/schemas/compare.schema.json")
	check := func(what string, v *schemaValidator, wantCode int, args ...string) map[string]any {
		t.Helper()
		code, stdout, stderr := runCLI(args...)
		if code != wantCode {
			t.Fatalf("%s: exit %d, want %d\n%s%s", what, code, wantCode, stdout, stderr)
		}
		for _, e := range v.validate([]byte(stdout)) {
			t.Errorf("%s: %s", what, e)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(stdout), &m); err != nil {
			t.Fatalf("%s: %v\n%s", what, err, stdout)
		}
		return m
	}

	all := check("list --json", list, exitOK, "list", "--json", "--configs", "../../configs")
	for _, k := range []string{"estimators", "kinds", "datasets", "configs", "collections"} {
		if _, ok := all[k]; !ok {
			t.Errorf("list --json lacks %s", k)
		}
	}
	kinds := check("list --json kinds", list, exitOK, "list", "--json", "kinds")
	if _, ok := kinds["estimators"]; ok || kinds["kinds"] == nil {
		t.Errorf("list --json kinds: %v", kinds)
	}

	dir := t.TempDir()
	cfg, out := writeTiny(t, dir, ""), filepath.Join(dir, "out")
	before := check("status --json", status, exitOK, "status", "--json", "--out", out, cfg)
	if tot := before["totals"].(map[string]any); tot["to_compute"] != 4.0 || before["prediction"] != nil {
		t.Errorf("status --json before a run: %v", before)
	}
	if code, _, stderr := runCLI("-q", "--out", out, cfg); code != exitOK {
		t.Fatalf("the run: exit %d\n%s", code, stderr)
	}
	after := check("status --json --cached", status, exitOK, "status", "--json", "--cached", "--out", out, cfg)
	if tot := after["totals"].(map[string]any); tot["cached"] != 4.0 {
		t.Errorf("status --json after the run: %v", after)
	}
	oil := filepath.Join(dir, "oil.yaml")
	writeFile(t, oil, oilConfig("0.1"))
	failed := check("status --json without a data root", status, exitUsage, "status", "--json", "--out", out, oil)
	if errs := failed["errors"].([]any); len(errs) != 1 || !strings.Contains(errs[0].(map[string]any)["error"].(string), "no data root") {
		t.Errorf("status --json without a data root: %v", failed)
	}

	none := check("compare --json, nothing changed", compare, exitOK, "compare", "--json", filepath.Join(out, "tiny"), filepath.Join(out, "tiny"))
	if none["changed"] != false {
		t.Errorf("compare --json of a folder with itself: %v", none)
	}
}

// TestNightlyDiffReadable is a real nightly diff: Abrahamsen & Hansen's
// Fig. 3 run with Mika's tol edited (1e-9 → 1e-8) against the committed
// baseline. compare pairs each cell with its former self under the edit,
// says that the config caused it, fits 80 and 120 columns without cutting
// a name, sorts its Markdown rows by relative change with delta and
// ratio, and its JSON validates.
func TestNightlyDiffReadable(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	b, err := os.ReadFile("../../configs/abrahamsen-hansen-fig3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "      tol: 1.0e-9\n", "      tol: 1.0e-8\n", 1)
	if edited == string(b) {
		t.Fatal("configs/abrahamsen-hansen-fig3.yaml no longer sets Mika's tol to 1.0e-9")
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "abrahamsen-hansen-fig3.yaml")
	writeFile(t, cfg, edited)
	out := filepath.Join(dir, "out")
	if code, _, stderr := runCLI("-q", "--out", out, cfg); code != exitOK {
		t.Fatalf("the run: exit %d\n%s", code, stderr)
	}
	old, now := "../../baseline/abrahamsen-hansen-fig3", filepath.Join(out, "abrahamsen-hansen-fig3")
	for _, width := range []int{80, 120} {
		t.Setenv("COLUMNS", strconv.Itoa(width))
		code, stdout, stderr := runCLI("compare", old, now)
		if code != exitClaim {
			t.Fatalf("compare: exit %d, want 1\n%s%s", code, stdout, stderr)
		}
		for i, l := range strings.Split(stdout, "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("at %d columns, line %d is %d columns: %s", width, i+1, n, l)
			}
		}
		flat := strings.Join(strings.Fields(stdout), " ")
		for _, want := range []string{"(tol 1e-09 → 1e-08)", "caused by: config: its parameters: tol 1e-09 → 1e-08 (7 cells)"} {
			if !strings.Contains(flat, want) {
				t.Errorf("at %d columns, no %q in\n%s", width, want, stdout)
			}
		}
		if strings.Contains(stdout, "…") || strings.Contains(stdout, "new cell") || strings.Contains(stdout, "missing in new") {
			t.Errorf("at %d columns, a name cut or a cell unpaired:\n%s", width, stdout)
		}
		if width == 80 {
			t.Logf("compare at 80 columns:\n%s", stdout)
		}
	}
	t.Setenv("COLUMNS", "")

	_, md, _ := runCLI("compare", "--markdown", old, now)
	doc := parseMarkdownTable(t, md)
	if len(doc) < 2 || strings.Join(doc[0], "|") != "Config|Cell|Change|Old|New|Delta|Ratio|Cause" {
		t.Fatalf("--markdown:\n%s", md)
	}
	prev := math.Inf(1)
	for _, r := range doc[1:] {
		if !strings.HasPrefix(r[2], "metric ") {
			continue
		}
		ratio, err := strconv.ParseFloat(r[6], 64)
		if err != nil || r[5] == "—" || !strings.Contains(r[7], "config") {
			t.Errorf("--markdown row %q: want a delta, a ratio and the config as cause", r)
			continue
		}
		if dev := math.Abs(ratio - 1); dev > prev {
			t.Errorf("--markdown row %q after a smaller change", r)
		} else {
			prev = dev
		}
	}

	v := loadSchema(t, "../../docs/schemas/compare.schema.json")
	code, js, _ := runCLI("compare", "--json", old, now)
	if code != exitClaim {
		t.Errorf("compare --json: exit %d", code)
	}
	for _, e := range v.validate([]byte(js)) {
		t.Errorf("compare --json: %s", e)
	}
}

// parseMarkdownTable returns the header and rows of the one Markdown
// table in s.
func parseMarkdownTable(t *testing.T, s string) [][]string {
	t.Helper()
	var rows [][]string
	for _, l := range strings.Split(s, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, "|") || strings.HasPrefix(l, "|:") || strings.HasPrefix(l, "|-") {
			continue
		}
		var cells []string
		for _, c := range strings.Split(strings.Trim(l, "|"), "|") {
			cells = append(cells, strings.TrimSpace(c))
		}
		rows = append(rows, cells)
	}
	return rows
}
