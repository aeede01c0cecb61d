package denoise_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report/reporttest"
	"github.com/runexp/runexp/internal/runner"
)

var update = flag.Bool("update", false, "rewrite the golden PNGs in testdata")

const figBase = `
title: "Test Fig. 4"
paper: test-paper
kind: denoise
seed: 1
dataset: {name: synthetic-images, classes: 2, groups: 2, per_cell: 6, test_per_cell: 2, width: 8, height: 8}
corruption: {type: gaussian, std: 0.2}
methods:
  - {name: mika, params: {start: noisy, max_iter: 100}}
  - {name: tikhonov, params: {lambda: 0.001, start: noisy, max_iter: 100}}
`

// runFig runs figBase plus extra and returns the output directory.
func runFig(t *testing.T, extra string) string {
	t.Helper()
	t.Setenv("RUNEXP_DATA", "")
	c, err := config.Parse("denoise-test.yaml", []byte(figBase+extra))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = t.TempDir()
	sum, err := runner.Run(context.Background(), c, runner.Options{Workers: 2, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	return c.Outputs.Dir
}

func checkFig(t *testing.T, dir, name string) {
	t.Helper()
	got, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	reporttest.CheckPNG(t, name, got, *update)
}

// TestGoldenBands: Fig. 4 as small multiples, a row per estimator and a
// column per #PCs, one band each, one legend below.
func TestGoldenBands(t *testing.T) {
	dir := runFig(t, `
model: {kernel: gaussian, c: [2, 8, 32], components: [2, 6]}
experiment: {figure: bands}
outputs: {width: 5, height: 4}
`)
	checkFig(t, dir, "fig4-bands.png")
}

// TestGoldenImages: Fig. 6's example grid and its intensity profiles with
// the legend outside the curves.
func TestGoldenImages(t *testing.T) {
	dir := runFig(t, `
model: {kernel: gaussian, c: 8, components: 6}
experiment: {figure: images, examples: 2, profile_row: 3, profile_col: 3}
outputs: {width: 5, height: 3.5}
`)
	checkFig(t, dir, "fig6-images.png")
	checkFig(t, dir, "fig6-images-profiles.png")
}
