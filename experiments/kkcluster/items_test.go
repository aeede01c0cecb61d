package kkcluster_test

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/experiments/internal/kindtest"
	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/cluster"
)

// TestPurityItems: every record holds each image's pose and its cluster
// under each kernel, from which purity_raw, purity_hog and purity_gain
// are recomputed exactly (kindtest.ItemsReproduce); a claim on the gain
// gets an interval over the 18 images. On the synthetic classes both
// kernels are pure (purity 1 on every resample), so "purity_raw >= 1"
// passes on the interval [1, 1] and the gain's interval is [0, 0].
func TestPurityItems(t *testing.T) {
	src := cfg + `  - id: gain
    statement: "HOG clusters no worse than raw"
    check: {type: value, metric: purity_gain, where: {method: LG}, op: ">=", value: 0}
`
	recs, sum := run(t, src)
	for i := range recs {
		r := &recs[i]
		if n := kindtest.ItemsReproduce(t, "kkcluster", r.Key, r, func(string) int { return 18 }); n != 3 {
			t.Errorf("%s: %d purity metrics declared, want purity_raw, purity_hog, purity_gain", r.Key, n)
		}
	}
	for _, cl := range sum.Claims {
		switch cl.ID {
		case "raw-pure":
			if cl.Status != claims.Pass || cl.Basis != "interval" || *cl.CILo != 1 || *cl.CIHi != 1 || *cl.CIItems != 18 {
				t.Errorf("raw-pure: %s (%s), %s", cl.Status, cl.Basis, cl.Evidence)
			}
		case "gain":
			if cl.Status != claims.Pass || cl.Basis != "interval" || *cl.CILo != 0 || *cl.CIHi != 0 || !strings.Contains(cl.CIMethod, "images (their clusters held fixed") {
				t.Errorf("gain: %s (%s) %q, %s", cl.Status, cl.Basis, cl.CIMethod, cl.Evidence)
			}
		}
	}
}

// TestPurityGainOrder: purity_gain and block_contrast_gain are HOG minus
// raw whatever the order of experiment.kernels.
func TestPurityGainOrder(t *testing.T) {
	a, _ := run(t, cfg)
	b, _ := run(t, strings.Replace(cfg, "kernels: [raw, hog]", "kernels: [hog, raw]", 1))
	for _, m := range []string{"purity_gain", "block_contrast_gain"} {
		want := a[0].Metrics[strings.Replace(m, "gain", "hog", 1)] - a[0].Metrics[strings.Replace(m, "gain", "raw", 1)]
		if a[0].Metrics[m] != want || b[0].Metrics[m] != want {
			t.Errorf("%s: %v with [raw, hog], %v with [hog, raw]; want HOG − raw = %v", m, a[0].Metrics[m], b[0].Metrics[m], want)
		}
	}
	// The arrays are the clusterings themselves: purity of a record's
	// clusters_raw against its poses is purity_raw.
	r := a[0]
	l, p := make([]int, 18), make([]int, 18)
	for i := range l {
		l[i], p[i] = int(r.Arrays["clusters_raw"][i]), int(r.Arrays["pose"][i])
	}
	if got := cluster.Purity(l, p); got != r.Metrics["purity_raw"] {
		t.Errorf("purity of the recorded clusters %v, purity_raw %v", got, r.Metrics["purity_raw"])
	}
}
