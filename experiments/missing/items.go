package missing

import (
	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/metrics"
	"github.com/runexp/runexp/internal/report"
)

// items declares err_mean_<p> and err_std_<p> as the mean and sample
// standard deviation of the per-repetition errors err_<p> (finite
// entries: a failed repetition is NaN and left out, as Run leaves it out
// of the metrics). The repetitions are the items: every method imputes
// the same subsets under the same masks, so the arrays pair across
// methods.
func items(_ *report.Record, metric string) (claims.ItemStat, bool) {
	return claims.ItemsByPrefix(errStats, metric, func(p string) bool { return p != "" },
		"repetitions (subsets and deletion masks shared by every method)")
}

// errStats are the statistics items declares, by the metric's prefix; the
// suffix is the deletion probability p.
var errStats = []claims.PrefixStat{
	{Prefix: "err_mean_", Array: "err_", Stat: metrics.Mean},
	{Prefix: "err_std_", Array: "err_", Stat: metrics.Std},
}
