package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// setManifest rewrites dir's manifest with variant_of, diagnostic and a
// one-part paper fit.
func setManifest(t *testing.T, dir, variantOf string, diagnostic bool, fit PaperFit) {
	t.Helper()
	path := filepath.Join(dir, "manifest.json")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	m.VariantOf, m.Diagnostic, m.PaperFit = variantOf, diagnostic, []PaperFit{fit}
	if err := m.Write(path); err != nil {
		t.Fatal(err)
	}
}

// TestRunPageReadings: base b's page shows its readings b-r (distance
// 0.5 against b's 1.2 over 4 cells each: 0.5·2 ≤ 1.2, named), b-far
// (0.7·2 > 1.2, not named) and the diagnostic b-d (0.1, never named),
// each with its figure of the base's name (or that name and a suffix),
// linked into its own folder,
// and its paper table; a figure only the reading has is not shown; the
// reading's own page shows no readings; every link resolves.
func TestRunPageReadings(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"b", "b-r", "b-far", "b-d"} {
		dir := filepath.Join(root, n)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		figs := []string{"fig2.png"}
		switch n {
		case "b-r":
			figs = append(figs, "extra.png")
		case "b-far":
			figs = []string{"fig2-far.png"} // a reading's copy of fig2, renamed
		}
		writeFakeRun(t, dir, "Run "+n, nil, figs...)
	}
	setManifest(t, filepath.Join(root, "b"), "", false, PaperFit{Distance: 1.2, Cells: 4})
	setManifest(t, filepath.Join(root, "b-r"), "b.yaml", false, PaperFit{Distance: 0.5, Cells: 4, Missing: 1})
	setManifest(t, filepath.Join(root, "b-far"), "b.yaml", false, PaperFit{Distance: 0.7, Cells: 4})
	setManifest(t, filepath.Join(root, "b-d"), "b.yaml", true, PaperFit{Distance: 0.1, Cells: 4})
	if err := WriteIndex(root); err != nil {
		t.Fatal(err)
	}
	page := filepath.Join(root, "b", "index.html")
	p := parseXHTML(t, page)
	checkLinks(t, page, p.links)
	text := strings.Join(strings.Fields(p.text), " ")
	for _, s := range []string{
		"Under each reading",
		"The paper's printed values point to the reading b-r: its median |ln(ours/paper)| is 0.500 over 4 cells against this config's 1.200 over 4, a factor 2.4 closer",
		"This config, the stated protocol: median |ln(ours/paper)| 1.200 over 4 cells.",
		"Fit to the printed table: median |ln(ours/paper)| 0.500 over 4 cells, 1 without a value of ours.",
		"b-d (diagnostic, not a reading of the paper)",
	} {
		if !strings.Contains(text, s) {
			t.Errorf("b's page lacks %q:\n%s", s, text)
		}
	}
	if strings.Contains(text, "reading b-far:") || strings.Contains(text, "reading b-d:") {
		t.Errorf("b's page names a reading the rule does not: %s", text)
	}
	for _, l := range []string{"../b-r/fig2.png", "../b-far/fig2-far.png", "../b-d/fig2.png", "../b-r/index.html"} {
		if !strings.Contains(strings.Join(p.links, " "), l) {
			t.Errorf("b's page does not link %s: %v", l, p.links)
		}
	}
	if strings.Contains(strings.Join(p.links, " "), "extra.png") {
		t.Errorf("b's page shows a figure the base does not have: %v", p.links)
	}
	if strings.Count(strings.Join(p.ids, " "), "reading-b-r-table") != 1 {
		t.Errorf("b's page lacks the reading's paper table: ids %v", p.ids)
	}
	if r := parseXHTML(t, filepath.Join(root, "b-r", "index.html")); strings.Contains(r.text, "Under each reading") {
		t.Errorf("a reading's own page shows readings")
	}
}
