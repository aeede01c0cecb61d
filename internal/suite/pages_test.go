package suite

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestScoreboardLinksRunPages checks the order of a suite's pages (issue
// 45): on a fresh results root, every verdict of scoreboard.html links
// its claim's row on its run's page (the run pages are written before
// the scoreboard), never the run's claims.json, and every such link
// resolves to an element of that page; the index, written again after
// the scoreboard, links it and shows each paper's headline.
func TestScoreboardLinksRunPages(t *testing.T) {
	// tinyA's claim cites claim c1 of paper tp, whose paper values lie
	// where the configs of a checkout find them (PaperValuesDir).
	dir := t.TempDir()
	configs := filepath.Join(dir, "repo", "configs")
	pv := PaperValuesDir(configs)
	for p, body := range map[string]string{
		filepath.Join(configs, "a.yaml"): strings.Replace(strings.Replace(tinyA, "paper: none", "paper: tp", 1),
			`check: {type: value`, `source: "../shared/paper-values/tp.yaml#claims/c1"`+"\n    "+`check: {type: value`, 1),
		filepath.Join(pv, "tp.yaml"): "citation: {title: \"A tiny paper\"}\nclaims:\n  - {id: c1, statement: \"HR de-noises well.\"}\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	files, err := Select(configs, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	entries, err := Load(files, nil, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	rep, err := Suite(context.Background(), entries, suiteOptions(configs, out, 2))
	if err != nil || len(rep.Problems) > 0 {
		t.Fatalf("suite: %v, problems %q", err, rep.Problems)
	}
	page, err := os.ReadFile(filepath.Join(out, "scoreboard.html"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "claims.json\"") {
		t.Error("scoreboard.html links a raw claims.json though every run has a page")
	}
	links := regexp.MustCompile(`href="([^"#]+/index\.html)#(claim-[^"]+)"`).FindAllStringSubmatch(string(page), -1)
	if len(links) == 0 {
		t.Fatal("scoreboard.html links no claim on a run page")
	}
	for _, l := range links {
		run, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(l[1])))
		if err != nil {
			t.Errorf("verdict link %s#%s: %v", l[1], l[2], err)
			continue
		}
		if !strings.Contains(string(run), `id="`+l[2]+`"`) {
			t.Errorf("verdict link %s#%s: no such row on the page", l[1], l[2])
		}
	}
	idx, err := os.ReadFile(filepath.Join(out, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{`href="scoreboard.html"`, `<h2 id="papers">Papers</h2>`, `href="scoreboard.html#tp"`, "[Re]"} {
		if !strings.Contains(string(idx), s) {
			t.Errorf("index.html lacks %s", s)
		}
	}
}
