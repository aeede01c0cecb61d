package denoise_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	_ "github.com/runexp/runexp/experiments"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// The identity "de-noiser" returns the corrupted input, so its error is
// the corruption's own. The synthetic clean images lie in [0, 1], and
// clamping a noisy value to [0, 1] never moves it away from a clean value
// in [0, 1] (and moves it closer whenever it was outside), so with the
// same noise draws (same seed, same streams) corruption.clip gives an
// error no larger than plain noise, and strictly smaller at std 0.5, where
// many pixels leave [0, 1].
const clipCfg = `title: clip test
paper: zheng-lai-rlpl-preimage
kind: denoise
seed: 4
dataset: {name: synthetic-images, classes: 3, groups: 1, per_cell: 4, width: 6, height: 6}
corruption: {type: gaussian, std: 0.5, clip: true}
model: {kernel: gaussian, c: 10, components: 3}
methods:
  - name: identity
experiment: {error: sse, renormalize: false, figure: none}
`

func sseMean(t *testing.T, src string) float64 {
	t.Helper()
	t.Setenv("RUNEXP_DATA", "")
	c, err := config.Parse("clip.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	c.Outputs.Dir = t.TempDir()
	sum, err := runner.Run(context.Background(), c, runner.Options{Workers: 1, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != 0 {
		t.Fatalf("%d cells failed", sum.Failed)
	}
	recs, err := report.ReadJSONL(filepath.Join(c.Outputs.Dir, "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 1 {
		t.Fatalf("%d records, want 1", len(recs))
	}
	return recs[0].Metrics["sse_mean"]
}

func TestClipCorruption(t *testing.T) {
	clipped := sseMean(t, clipCfg)
	plain := sseMean(t, strings.Replace(clipCfg, ", clip: true", "", 1))
	t.Logf("identity SSE per image: clipped %v, plain %v", clipped, plain)
	// Plain noise of std 0.5 on 36 pixels: E[SSE] = 36·0.25 = 9.
	if !(plain > 6 && plain < 12) {
		t.Errorf("plain noise: SSE %v per image, want about 36·0.5² = 9", plain)
	}
	if !(clipped < plain) {
		t.Errorf("clipped noise SSE %v, plain %v: clipping must bring values in [0, 1] nearer", clipped, plain)
	}
}
