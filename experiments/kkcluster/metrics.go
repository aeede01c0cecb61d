package kkcluster

import (
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// The metrics of a record (one estimator) that do not depend on a kernel;
// the package comment says what each measures.
const (
	// PurityGain and BlockContrastGain are the HOG kernel's purity and
	// block contrast minus the raw kernel's (when both are run, in either
	// order): the claim is that HOG clusters by pose better.
	PurityGain        report.Metric = "purity_gain"
	BlockContrastGain report.Metric = "block_contrast_gain"
	// KernelsSolved counts the kernels the estimator did not refuse.
	KernelsSolved report.Metric = "kernels_solved"
	// Fig6Failed is 1 when Fig. 6's pre-image with P_t failed.
	Fig6Failed report.Metric = "fig6_failed"
	// Fig6Spearman is the Spearman correlation between α_i and the
	// closeness of the P_i pre-image to the P_t one.
	Fig6Spearman report.Metric = "fig6_spearman"
	// Fig6DistMean is the mean distance of the P_i pre-images to the P_t
	// one.
	Fig6DistMean report.Metric = "fig6_dist_mean"
)

// kernelMetrics are the metrics of each kernel of experiment.kernels, a
// family each, named after the kernel (purity_raw, purity_hog).
type kernelMetrics struct {
	purity, contrast, sigma, neighbors report.Metric
	// chance is the mean purity of the clusters against randomly
	// permuted poses (the same sizes), and pvalue the permutation p-value
	// of the observed purity (cluster.PurityChance): "clusters poorly"
	// is judged against chance measured on these images, not assumed.
	chance, pvalue report.Metric
	// refused is 1 when the estimator refuses the kernel, 0 otherwise;
	// failed counts its failed centres; the distance and the cost are
	// recorded when some centre's pre-image did not fail.
	refused, failed, distMean, distMax, featureCost report.Metric
}

func metricsOf(kernel string) kernelMetrics {
	m := func(prefix string) report.Metric { return report.Metric(prefix + kernel) }
	return kernelMetrics{
		purity: m("purity_"), contrast: m("block_contrast_"), sigma: m("sigma_"), neighbors: m("neighbors_"),
		chance: m("purity_chance_"), pvalue: m("purity_p_"),
		refused: m("refused_"), failed: m("failed_"), distMean: m("dist_mean_"), distMax: m("dist_max_"), featureCost: m("feature_cost_"),
	}
}

// metricNames lists the metrics a record of a config with options o can
// hold (runner.Kind.Metrics).
func metricNames(_ *config.Config, o options) []report.Metric {
	names := []report.Metric{KernelsSolved}
	if len(o.kernels) > 1 {
		names = append(names, PurityGain, BlockContrastGain)
	}
	if o.fig6 {
		names = append(names, Fig6Failed, Fig6Spearman, Fig6DistMean)
	}
	for _, k := range o.kernels {
		m := metricsOf(k)
		names = append(names, m.purity, m.chance, m.pvalue, m.contrast, m.sigma, m.neighbors, m.refused, m.failed, m.distMean, m.distMax, m.featureCost)
	}
	return names
}
