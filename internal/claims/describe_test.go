package claims

import (
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
)

// TestDescribe: each check type in words, with the boundary its verdict
// is held against (the configs' own checks: A&H Fig. 4 c1, LPKPCA c5,
// Huang c1, Zheng & Lai c9 and a value check against another cell).
func TestDescribe(t *testing.T) {
	for _, tc := range []struct {
		check          string
		test, boundary string
	}{
		{`{type: ratio, metric: band_width, summary: mean, left: {method: Mika et al., c: 10}, op: ">", factor: 2, right: {method: Mika et al., c: 500}}`,
			"the mean of `band_width` over {c: 10, method: Mika et al.} > 2 × the mean over {c: 500, method: Mika et al.}", "left − 2 × right lies above 0"},
		{`{type: value, metric: cost_lpkpca_max, where: {components: 60}, op: "<=", value: 0.1}`,
			"`cost_lpkpca_max` of {components: 60} <= 0.1", "lies at or below 0.1"},
		{`{type: best, metric: ape_mean_normal, among: method, winner: "Ours", sense: min, where: {method: [A, Ours]}}`,
			"method = Ours has the lowest `ape_mean_normal` among the methods of {method: [A, Ours]}", "closest rival lies below 0"},
		{`{type: trend, metric: sse_mean, along: neighbors, direction: increasing, where: {method: R-LPL}}`,
			"`sse_mean` increasing along neighbors over {method: R-LPL}", "Spearman's ρ between neighbors and sse_mean is at least 0.8"},
		{`{type: value, metric: dist_mean_hog, where: {method: LG}, op: "<", value: 1, against: {method: HR}}`,
			"told apart from {method: HR}", "below 1"},
		{`{type: compare, metric: m, left: {method: A}, op: "<", right: {method: B}, for_all: components}`,
			"`m` of {method: A} < `m` of {method: B}, for every components", "left − right lies below 0"},
	} {
		var cl config.Claim
		c, err := config.Parse("t.yaml", []byte("title: t\npaper: p\nkind: k\ndataset: {name: d}\nclaims:\n  - id: x\n    check: "+tc.check+"\n"))
		if err != nil {
			t.Fatal(err)
		}
		cl = c.Claims[0]
		d, err := Describe(cl)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(d.Test, tc.test) || !strings.Contains(d.Boundary, tc.boundary) {
			t.Errorf("%s:\n test %q\n boundary %q\nwant %q / %q", tc.check, d.Test, d.Boundary, tc.test, tc.boundary)
		}
	}
}
