package denoise_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/claims"
)

// points is a denoise config on 2-D synthetic points (two-rings): no
// width and height, so no pixel.
const points = `title: degenerate points
paper: test
kind: denoise
seed: 2
dataset: {name: two-rings, n: 40, radii: [1, 2], noise: 0.05}
corruption: {type: gaussian, std: 0.2}
model: {kernel: gaussian, c: [1], components: [2]}
`

// TestRenormalizeNeedsImages: the re-normalised error maps each 2-D
// result onto its clean point's range, so every estimator scored median
// MSE 0 there (issue 37); the kind refuses it at the option's line, and
// the raw error runs.
func TestRenormalizeNeedsImages(t *testing.T) {
	methods := "methods: [{name: identity}, {name: mika, params: {max_iter: 50}}]\n"
	for _, exp := range []string{"experiment: {renormalize: true}\n", "experiment: {figure: none}\n"} {
		err := kindtest.StartError(t, "points.yaml", points+methods+exp)
		if err == nil || !strings.Contains(err.Error(), "points.yaml:") || !strings.Contains(err.Error(), "renormalize") || !strings.Contains(err.Error(), "2-D") {
			t.Errorf("%s: start error %v, want a refusal of renormalize at its line naming the 2-D points", strings.TrimSpace(exp), err)
		}
	}
	recs, _ := kindtest.Run(t, points+methods+"experiment: {renormalize: false, figure: none}\n")
	if d := claims.Degenerate(recs, "mse_median", nil); d != "" {
		t.Errorf("raw error on 2-D points: %s; the identity and Mika should differ", d)
	}
}

// TestDegenerateFlagged: two estimators that return the same numbers
// (the identity twice) make a comparison between them degenerate, and
// claims.json says so in the verdict's evidence and its degenerate field.
func TestDegenerateFlagged(t *testing.T) {
	src := points + `methods: [{name: identity, label: A}, {name: identity, label: B}]
experiment: {renormalize: false, figure: none}
claims:
  - id: a-beats-b
    statement: "A de-noises better than B"
    check: {type: compare, metric: mse_median, left: {method: A}, right: {method: B}, op: "<="}
`
	_, sum := kindtest.Run(t, src)
	b, err := os.ReadFile(filepath.Join(sum.Dir, "claims.json"))
	if err != nil {
		t.Fatal(err)
	}
	var res []claims.Result
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || !strings.HasPrefix(res[0].Degenerate, "degenerate: every estimator scores") || !strings.HasPrefix(res[0].Evidence, "degenerate:") {
		t.Errorf("claims.json %s, want the comparison of two identities flagged degenerate", b)
	}
}
