package lgdenoise

import (
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// RidgeFraction is the share of the test images whose local Gram solve
// needed a ridge (the estimator's "ridge" diagnostic).
const RidgeFraction report.Metric = "ridge_fraction"

// groupMetrics are the metrics of one group of test images, named with
// the group's suffix: _<group> (metricName of the dataset's group) or
// _all for every test image. detailRatio and detailError are the means
// of the de-noised images' metrics.DetailRatio and DetailError,
// noisyDetailRatio that of the noisy inputs' ratio.
type groupMetrics struct {
	apeMean, apeStd, snrMean, snrPooled, noisyAPE      report.Metric
	detailRatio, detailError, noisyDetailRatio, failed report.Metric
}

func groupOf(suffix string) groupMetrics {
	m := func(name string) report.Metric { return report.Metric(name + suffix) }
	return groupMetrics{m("ape_mean"), m("ape_std"), m("snr_mean"), m("snr_pooled"), m("noisy_ape"),
		m("detail_ratio"), m("detail_error"), m("noisy_detail_ratio"), m("failed")}
}

func (g groupMetrics) list() []report.Metric {
	return []report.Metric{g.apeMean, g.apeStd, g.snrMean, g.snrPooled, g.noisyAPE,
		g.detailRatio, g.detailError, g.noisyDetailRatio, g.failed}
}

// modelMetrics are the width, neighbour count and rank of one model: no
// suffix for the pooled model, _<group> for a group's.
type modelMetrics struct{ sigma, neighbors, components report.Metric }

func modelOf(suffix string) modelMetrics {
	return modelMetrics{report.Metric("sigma" + suffix), report.Metric("neighbors" + suffix), report.Metric("components" + suffix)}
}

// metricNames lists the metrics a record of a config with options o can
// hold (runner.Kind.Metrics). The groups are the dataset's, known once
// its data is loaded, so they are a pattern here.
func metricNames(_ *config.Config, o options) []report.Metric {
	names := append([]report.Metric{RidgeFraction}, groupOf("_*").list()...)
	m := modelOf("_*")
	if o.models == "pooled" {
		m = modelOf("")
	}
	return append(names, m.sigma, m.neighbors, m.components)
}
