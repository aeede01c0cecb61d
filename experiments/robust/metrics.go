package robust

import (
	"fmt"
	"maps"
	"slices"

	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// ValWholeMean is the whole-face validation error of the grid point a
// tuned method chose (experiment.tune).
const ValWholeMean report.Metric = "val_whole_mean"

// tunedPrefix starts the metric of each value a tuned method chose,
// tuned_<param> (the model's width name among them).
const tunedPrefix = "tuned_"

func tuned(param string) report.Metric { return report.Metric(tunedPrefix + param) }

// The error measures a record holds per condition: whole face, occluded
// and non-occluded regions under an occlusion, the whole image (mae)
// under noise, where the detail measures (the means of metrics.
// DetailRatio and DetailError over the images, without a spread) follow.
var (
	occlusionMeasures = []string{"whole", "occ", "nonocc"}
	noiseMeasures     = []string{"mae"}
	detailMeasures    = []string{"detail_ratio", "detail_error"}
)

// measureOf is the measure named in the metrics of a per-image array
// (items.go): the arrays detail and detailerr hold detail_ratio and
// detail_error; the others are named as their measure.
func measureOf(array string) string {
	switch array {
	case "detail":
		return "detail_ratio"
	case "detailerr":
		return "detail_error"
	}
	return array
}

// condName names the occlusion condition of the paper's side (in pixels
// of its images) in metric suffixes: s8.
func condName(paperSide int) string { return fmt.Sprintf("s%d", paperSide) }

// errMean and errStd are the mean and the standard deviation over the test
// images of a measure under the condition cond: whole_mean_s8 for the
// paper's 8-pixel occlusion, mae_mean for noise (its condition unnamed).
func errMean(measure, cond string) report.Metric {
	return report.Metric(measure + "_mean" + suffix(cond))
}
func errStd(measure, cond string) report.Metric {
	return report.Metric(measure + "_std" + suffix(cond))
}

// metricNames lists the metrics a record of the config c with options o
// can hold (runner.Kind.Metrics).
func metricNames(c *config.Config, o options) []report.Metric {
	names := []report.Metric{common.NumComponents, common.FailedRows, common.NonconvergedRows}
	conds, measures := []string{""}, noiseMeasures
	if len(o.paperSides) > 0 {
		conds, measures = nil, occlusionMeasures
		for _, s := range o.paperSides {
			conds = append(conds, condName(s))
		}
	}
	for _, cond := range conds {
		for _, m := range measures {
			names = append(names, errMean(m, cond), errStd(m, cond))
		}
	}
	if len(o.paperSides) == 0 {
		for _, m := range detailMeasures {
			names = append(names, errMean(m, ""))
		}
	}
	if len(o.tunes) > 0 {
		names = append(names, ValWholeMean, tuned(c.Model.WidthName))
	}
	params := map[string]bool{}
	for _, ts := range o.tunes {
		for p := range ts.params.Values {
			params[p] = true
		}
	}
	for _, p := range slices.Sorted(maps.Keys(params)) {
		names = append(names, tuned(p))
	}
	return names
}
