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
	return claims.ItemsByPrefix(errorStats, metric, func(sfx string) bool { return sfx == "" || strings.HasPrefix(sfx, "_s") }, "test images")
}

// errorStats are the statistics items declares, by the metric's prefix.
var errorStats = []claims.PrefixStat{
	{Prefix: "whole_mean", Array: "whole", Stat: metrics.Mean},
	{Prefix: "whole_std", Array: "whole", Stat: metrics.Std},
	{Prefix: "occ_mean", Array: "occ", Stat: metrics.Mean},
	{Prefix: "occ_std", Array: "occ", Stat: metrics.Std},
	{Prefix: "nonocc_mean", Array: "nonocc", Stat: metrics.Mean},
	{Prefix: "nonocc_std", Array: "nonocc", Stat: metrics.Std},
	{Prefix: "mae_mean", Array: "mae", Stat: metrics.Mean},
	{Prefix: "mae_std", Array: "mae", Stat: metrics.Std},
	{Prefix: "detail_ratio_mean", Array: "detail", Stat: metrics.Mean},
	{Prefix: "detail_error_mean", Array: "detailerr", Stat: metrics.Mean},
}
