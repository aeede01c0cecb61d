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
		prefix, array string
		stat          func([]float64) float64
	}{
		{"whole_mean", "whole", metrics.Mean}, {"whole_std", "whole", metrics.Std},
		{"occ_mean", "occ", metrics.Mean}, {"occ_std", "occ", metrics.Std},
		{"nonocc_mean", "nonocc", metrics.Mean}, {"nonocc_std", "nonocc", metrics.Std},
		{"mae_mean", "mae", metrics.Mean}, {"mae_std", "mae", metrics.Std},
		{"detail_ratio_mean", "detail", metrics.Mean}, {"detail_error_mean", "detailerr", metrics.Mean},
	} {
		sfx, ok := strings.CutPrefix(metric, m.prefix)
		if !ok || (sfx != "" && !strings.HasPrefix(sfx, "_s")) {
			continue
		}
		return claims.ItemStat{Array: m.array + sfx, Stat: claims.StatOf(m.stat), Unit: "test images"}, true
	}
	return claims.ItemStat{}, false
}
