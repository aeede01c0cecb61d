package main

import (
	"os"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/scoreboard"
)

// TestReadingFitDocs: docs/readings.md's reading-fit table is the one the
// scoreboard computes from baseline/ (scoreboard.FitMarkdownTable), row
// for row. On a difference it prints the table to paste (after a
// baseline refresh, the new configs' rows change from "not run").
func TestReadingFitDocs(t *testing.T) {
	needPaperValues(t)
	b, err := scoreboard.Load(repoConfigs, repoBaseline, paperValues)
	if err != nil {
		t.Fatal(err)
	}
	want := b.FitMarkdownTable()
	doc, err := os.ReadFile(readingsPath)
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	i := strings.Index(text, scoreboard.FitHeader)
	if i < 0 {
		t.Fatalf("docs/readings.md has no table headed %q; paste:\n%s", scoreboard.FitHeader, want)
	}
	var got []string
	for _, line := range strings.Split(text[i:], "\n") {
		if !strings.HasPrefix(line, "|") {
			break
		}
		got = append(got, line)
	}
	if strings.Join(got, "\n")+"\n" != want {
		t.Errorf("docs/readings.md's reading-fit table differs from baseline/'s; replace it with:\n%s", want)
	}
	// Every printed table of a config with a paper_table is in it.
	for _, c := range repoConfigList(t) {
		if c.PaperTable != nil && !strings.Contains(want, "`"+c.Name+"`") {
			t.Errorf("the reading fit lacks %s, which has a paper_table", c.Name)
		}
	}
}

// TestReadingsGenerated: the blocks of docs/readings.md marked generated
// (each paper's reading assignment with its fits, the reading fit of
// every printed table, every config's verdict counts) are what the
// scoreboard computes from baseline/ (scoreboard.GeneratedBlocks), so
// that no number of them is kept by hand; make scoreboard rewrites them.
func TestReadingsGenerated(t *testing.T) {
	needPaperValues(t)
	b, err := scoreboard.Load(repoConfigs, repoBaseline, paperValues)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(readingsPath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := scoreboard.UpdateGenerated(string(doc), b.GeneratedBlocks())
	if err != nil {
		t.Fatal(err)
	}
	if want != string(doc) {
		t.Errorf("docs/readings.md's generated blocks differ from what baseline/ gives: run make scoreboard")
	}
}
