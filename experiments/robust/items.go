package robust

import (
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// items declares each error metric as a statistic of its per-image array
// (measure): <name>_mean<sfx> and <name>_std<sfx> are the mean and sample
// standard deviation of the finite entries of <name><sfx>, for name whole,
// occ, nonocc (occlusions, suffix _s<side>) and mae (noise, no suffix), and
// detail_ratio_mean / detail_error_mean the means of detail / detailerr.
// Every method reconstructs the same corrupted test images (shared by
// every cell), so the arrays pair across methods and energies, and claims
// on these metrics get the paired bootstrap interval over test images.
func items(_ *report.Record, metric string) (claims.ItemStat, bool) {
	for _, m := range []struct {
		prefix, array, stat string
	}{
		{"whole_mean", "whole", "mean"}, {"whole_std", "whole", "std"},
		{"occ_mean", "occ", "mean"}, {"occ_std", "occ", "std"},
		{"nonocc_mean", "nonocc", "mean"}, {"nonocc_std", "nonocc", "std"},
		{"mae_mean", "mae", "mean"}, {"mae_std", "mae", "std"},
		{"detail_ratio_mean", "detail", "mean"}, {"detail_error_mean", "detailerr", "mean"},
	} {
		sfx, ok := strings.CutPrefix(metric, m.prefix)
		if !ok || (sfx != "" && !strings.HasPrefix(sfx, "_s")) {
			continue
		}
		f := func(_ *report.Record, x []float64) float64 { return metrics.Mean(x) }
		if m.stat == "std" {
			f = func(_ *report.Record, x []float64) float64 { return metrics.Std(x) }
		}
		return claims.ItemStat{Array: m.array + sfx, Stat: f, Unit: "test images"}, true
	}
	return claims.ItemStat{}, false
}
