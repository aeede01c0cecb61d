package missing

import (
	"strings"

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
	for _, m := range []struct {
		prefix string
		stat   func([]float64) float64
	}{
		{"err_mean_", metrics.Mean},
		{"err_std_", metrics.Std},
	} {
		if p, ok := strings.CutPrefix(metric, m.prefix); ok && p != "" {
			return claims.ItemStat{Array: "err_" + p, Stat: claims.StatOf(m.stat), Unit: "repetitions (subsets and deletion masks shared by every method)"}, true
		}
	}
	return claims.ItemStat{}, false
}
