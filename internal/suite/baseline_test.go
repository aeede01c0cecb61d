package suite_test

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// TestWorse checks the precedence docs/exit-status.md states for several
// statuses at once: 130, then 2, 4, 3, 1, 0. Worse is symmetric and picks
// the earlier of the two in that list.
func TestWorse(t *testing.T) {
	order := []int{suite.Interrupted, suite.Usage, suite.Crash, suite.Incomplete, suite.Changed, suite.OK}
	if !slices.Equal(order, []int{130, 2, 4, 3, 1, 0}) {
		t.Fatalf("exit statuses %v, want 130, 2, 4, 3, 1, 0 as docs/exit-status.md numbers them", order)
	}
	for i, a := range order {
		for j, b := range order {
			want := order[min(i, j)]
			if got := suite.Worse(a, b); got != want {
				t.Errorf("Worse(%d, %d) = %d, want %d", a, b, got, want)
			}
		}
	}
}

// TestSummaryStatus checks the status a run earns from its summary, one
// cause at a time and together.
func TestSummaryStatus(t *testing.T) {
	for _, tc := range []struct {
		name string
		s    runner.Summary
		want int
	}{
		{"clean", runner.Summary{}, suite.OK},
		{"unexpected verdict", runner.Summary{Unexpected: 1}, suite.Changed},
		{"failed cell", runner.Summary{Failed: 2}, suite.Incomplete},
		{"claim not evaluated", runner.Summary{NotEvaluated: 1}, suite.Incomplete},
		{"report error", runner.Summary{ReportErrors: []string{"figure"}}, suite.Incomplete},
		{"crash", runner.Summary{Crashed: 1}, suite.Crash},
		{"unexpected and failed", runner.Summary{Unexpected: 1, Failed: 1}, suite.Incomplete},
		{"all", runner.Summary{Unexpected: 1, Failed: 1, Crashed: 1}, suite.Crash},
	} {
		if got := suite.SummaryStatus(&tc.s); got != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, got, tc.want)
		}
	}
}

// TestCheckGlob checks --only patterns: path.Match's syntax, a malformed
// one refused by name.
func TestCheckGlob(t *testing.T) {
	for _, g := range []string{"huang-*", "zheng-lai-table[12]", "matrix", "?"} {
		if err := suite.CheckGlob(g); err != nil {
			t.Errorf("CheckGlob(%q): %v", g, err)
		}
	}
	for _, g := range []string{"[", "zheng-[", `a\`} {
		if err := suite.CheckGlob(g); err == nil || !strings.HasPrefix(err.Error(), fmt.Sprintf("bad glob %q", g)) {
			t.Errorf("CheckGlob(%q): %v, want a refusal naming it", g, err)
		}
	}
}

// TestCheckExternal checks that a suite refuses, before anything runs, a
// config whose own methods run a command, naming the file, line and
// command, unless --allow-external is given; the first such config is
// named, whatever comes after.
func TestCheckExternal(t *testing.T) {
	parse := func(file, methods string) suite.Entry {
		c, err := config.Parse(file, []byte("title: t\npaper: p\nkind: k\ndataset: {name: d}\nmethods:\n"+methods))
		if err != nil {
			t.Fatal(err)
		}
		return suite.Entry{Config: c}
	}
	plain := parse("plain.yaml", "  - {name: mika}\n")
	ext := parse("ext.yaml", "  - {name: mika}\n  - name: external\n    label: Mine\n    params: {command: [python3, mine.py]}\n")
	ext2 := parse("ext2.yaml", "  - {name: external, params: {command: ./other}}\n")
	if err := suite.CheckExternal([]suite.Entry{plain}, false); err != nil {
		t.Errorf("no external method: %v", err)
	}
	err := suite.CheckExternal([]suite.Entry{plain, ext, ext2}, false)
	var ne *runner.ExternalNotAllowedError
	if !errors.As(err, &ne) || ne.File != "ext.yaml" {
		t.Fatalf("error %v, want an ExternalNotAllowedError for ext.yaml", err)
	}
	for _, want := range []string{"ext.yaml:9: method Mine runs the command", "python3", "--allow-external"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q lacks %q", err, want)
		}
	}
	if err := suite.CheckExternal([]suite.Entry{plain, ext, ext2}, true); err != nil {
		t.Errorf("--allow-external: %v", err)
	}
}

// writeRun writes records (and claims.json when claims is not "") into
// dir.
func writeRun(t *testing.T, dir string, recs []report.Record, claims string) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := report.WriteJSONL(filepath.Join(dir, "records.jsonl"), recs); err != nil {
		t.Fatal(err)
	}
	if claims != "" {
		if err := os.WriteFile(filepath.Join(dir, "claims.json"), []byte(claims), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func rec(method string, mse float64) report.Record {
	return report.Record{Key: "method=" + method, Params: map[string]any{"method": method}, Status: report.StatusOK,
		Metrics: map[string]float64{"mse": mse}, Arrays: map[string][]float64{"x": {1, 2}}}
}

// TestCompareBaseline checks the comparison of a suite with its baseline:
// only the configs that ran are compared (a partial suite names no
// missing run), a config the baseline lacks is a new run, a config whose
// run failed is not compared, and every change names its config.
func TestCompareBaseline(t *testing.T) {
	base, out := t.TempDir(), t.TempDir()
	writeRun(t, filepath.Join(base, "same"), []report.Record{rec("a", 1)}, "")
	writeRun(t, filepath.Join(base, "moved"), []report.Record{rec("a", 1)}, "")
	writeRun(t, filepath.Join(base, "not-run"), []report.Record{rec("a", 1)}, "")
	writeRun(t, filepath.Join(base, "broken"), []report.Record{rec("a", 1)}, "")
	runs := []suite.ConfigRun{
		{Name: "same", Dir: writeRun(t, filepath.Join(out, "same"), []report.Record{rec("a", 1)}, "")},
		{Name: "moved", Dir: writeRun(t, filepath.Join(out, "moved"), []report.Record{rec("a", 2)}, "")},
		{Name: "fresh", Dir: writeRun(t, filepath.Join(out, "fresh"), []report.Record{rec("a", 1)}, "")},
		{Name: "broken", Error: "config error", Dir: filepath.Join(out, "broken")},
	}
	ch, err := suite.CompareBaseline(base, runs, report.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []report.Change{
		{Config: "moved", Key: "method=a", What: "metric mse", Old: "1", New: "2"},
		{Config: "fresh", What: "new run", Old: "absent", New: "present"},
	}
	for i := range ch {
		// The cell's label, the numbers and the causes are the views'
		// (internal/report).
		ch[i].Cell, ch[i].OldValue, ch[i].NewValue, ch[i].Causes = "", nil, nil, nil
	}
	if !reflect.DeepEqual(ch, want) {
		t.Errorf("changes %v, want %v", ch, want)
	}
	// Within tolerance the moved metric is no change.
	ch, err = suite.CompareBaseline(base, runs[:2], report.CompareOptions{RelTol: 1})
	if err != nil || len(ch) != 0 {
		t.Errorf("relative tolerance 1: %v, %v", ch, err)
	}
}

// TestSetAsideAdded checks how cells added by --with are kept out of a
// baseline comparison: their "new cell" changes are counted per config
// and method instead; any other change of theirs, and every change of the
// config's own methods, stays; a --with that the config skipped adds
// nothing.
func TestSetAsideAdded(t *testing.T) {
	out := t.TempDir()
	dir := writeRun(t, filepath.Join(out, "c1"), []report.Record{rec("Own", 1), rec("Mine", 2), {Key: "method=Mine,x=2", Params: map[string]any{"method": "Mine", "x": 2}, Status: report.StatusOK}}, "")
	dir2 := writeRun(t, filepath.Join(out, "c2"), []report.Record{rec("Own", 1)}, "")
	runs := []suite.ConfigRun{{Name: "c1", Dir: dir}, {Name: "c2", Dir: dir2}}
	entries := []suite.Entry{
		{Config: &config.Config{Name: "c1"}, Added: []report.WithSpec{{Spec: "mika:label=Mine", Label: "Mine"}}},
		{Config: &config.Config{Name: "c2"}, Added: []report.WithSpec{{Spec: "mika:label=Mine", Label: "Mine", Skipped: "kind cannot use it"}}},
	}
	ch := []report.Change{
		{Config: "c1", Key: "method=Mine", What: "new cell", Old: "absent", New: "ok"},
		{Config: "c1", Key: "method=Mine,x=2", What: "new cell", Old: "absent", New: "ok"},
		{Config: "c1", Key: "method=Mine", What: "metric mse", Old: "1", New: "2"},
		{Config: "c1", Key: "method=Own", What: "new cell", Old: "absent", New: "ok"},
		{Config: "c2", Key: "method=Mine", What: "new cell", Old: "absent", New: "ok"},
	}
	kept, added, err := suite.SetAsideAdded(ch, runs, entries)
	if err != nil {
		t.Fatal(err)
	}
	if want := []report.Change{ch[2], ch[3], ch[4]}; !reflect.DeepEqual(kept, want) {
		t.Errorf("kept %v, want %v", kept, want)
	}
	if want := []suite.AddedCells{{Config: "c1", Method: "Mine", Spec: "mika:label=Mine", Cells: 2}}; !slices.Equal(added, want) {
		t.Errorf("added %+v, want %+v", added, want)
	}
	tb := suite.AddedTable(added)
	if len(tb.Rows) != 1 || !slices.Equal(tb.Rows[0], []string{"c1", "Mine", "mika:label=Mine", "2"}) || !strings.HasPrefix(tb.Caption, "2 cells of estimators added by --with") {
		t.Errorf("table %q, caption %q", tb.Rows, tb.Caption)
	}
}

// TestWriteBaselines checks the refresh of a baseline: records without
// their figure arrays and the claims, per config; a run that failed is
// left alone, and a run that cannot be written (its records gone) is an
// error that does not stop the others.
func TestWriteBaselines(t *testing.T) {
	out, base := t.TempDir(), t.TempDir()
	runs := []suite.ConfigRun{
		{Name: "gone", Dir: filepath.Join(out, "gone")},
		{Name: "good", Dir: writeRun(t, filepath.Join(out, "good"), []report.Record{rec("a", 1)}, `{"claims":[]}`)},
		{Name: "failed", Error: "boom", Dir: writeRun(t, filepath.Join(out, "failed"), []report.Record{rec("a", 1)}, "")},
	}
	err := suite.WriteBaselines(runs, nil, base)
	if err == nil || !strings.Contains(err.Error(), "gone") {
		t.Errorf("error %v, want one naming the run without records", err)
	}
	recs, err := report.ReadJSONL(filepath.Join(base, "good", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 || recs[0].Arrays != nil || recs[0].Metrics["mse"] != 1 {
		t.Errorf("baseline records %+v, want the record without arrays", recs)
	}
	if b, err := os.ReadFile(filepath.Join(base, "good", "claims.json")); err != nil || string(b) != `{"claims":[]}` {
		t.Errorf("claims.json %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(base, "failed")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a failed run was written to the baseline: %v", err)
	}
}

// TestWriteBaselinesFigures: a baseline keeps the figure files of a config
// of the stated protocol, which its paper's report shows, and no others:
// not a variant's, and a figure an earlier refresh kept is removed when
// the config no longer has it, so that a report built from the baseline
// never shows an earlier run's.
func TestWriteBaselinesFigures(t *testing.T) {
	out, base := t.TempDir(), t.TempDir()
	png := []byte("\x89PNG\r\n\x1a\nnot a real image, copied as bytes")
	var runs []suite.ConfigRun
	var entries []suite.Entry
	for _, name := range []string{"base", "variant"} {
		dir := writeRun(t, filepath.Join(out, name), []report.Record{rec("a", 1), rec("b", 2)}, `{"claims":[]}`)
		if err := os.WriteFile(filepath.Join(dir, "fig.png"), png, 0o644); err != nil {
			t.Fatal(err)
		}
		// Over the bound the repository tracks: a file that is no PNG
		// is left out, a PNG kept downscaled.
		if err := os.WriteFile(filepath.Join(dir, "big.png"), make([]byte, report.MaxBaselineFigureBytes+1), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "grid.png"), noisePNG(t, 700, 600), 0o644); err != nil {
			t.Fatal(err)
		}
		runs = append(runs, suite.ConfigRun{Name: name, Dir: dir})
		c := &config.Config{Name: name, Title: name}
		if name == "variant" {
			c.VariantOf = "base.yaml"
		}
		entries = append(entries, suite.Entry{Config: c})
	}
	// Figures an earlier refresh kept: one the base's run no longer
	// draws, one of the variant.
	for _, f := range []string{filepath.Join(base, "base", "gone.png"), filepath.Join(base, "variant", "old.png")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, png, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := suite.WriteBaselines(runs, entries, base); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(base, "base", "fig.png")); err != nil || !bytes.Equal(b, png) {
		t.Errorf("the base config's figure: %q, %v; want the run's bytes", b, err)
	}
	if _, err := os.Stat(filepath.Join(base, "base", "big.png")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a figure over %d bytes was kept: %v", report.MaxBaselineFigureBytes, err)
	}
	grid := filepath.Join(base, "base", "grid.png")
	if fi, err := os.Stat(grid); err != nil || fi.Size() > report.MaxBaselineFigureBytes {
		t.Errorf("a figure over %d bytes was not kept downscaled: %v, %v", report.MaxBaselineFigureBytes, fi, err)
	} else if c, _ := report.ReadCaption(grid); !strings.Contains(c, "Downscaled 2× (from 700 × 600 to 350 × 300 pixels)") {
		t.Errorf("the downscaled figure's caption %q does not say so", c)
	}
	if _, err := os.Stat(filepath.Join(base, "base", "gone.png")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a figure the run no longer draws stayed in the baseline: %v", err)
	}
	if left, _ := filepath.Glob(filepath.Join(base, "variant", "*.png")); len(left) != 0 {
		t.Errorf("the variant's baseline holds figures %v, want none", left)
	}
}

// noisePNG encodes a w × h image of random colours: about 3wh bytes,
// since noise does not compress.
func noisePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	rng := rand.New(rand.NewPCG(3, 4))
	im := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range im.Pix {
		im.Pix[i] = uint8(rng.Uint32())
		if i%4 == 3 {
			im.Pix[i] = 0xff
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, im); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
