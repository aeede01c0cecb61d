package kkcluster

import (
	"strings"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/cluster"
	"github.com/runexp/runexp/internal/report"
)

// The per-image arrays of a record: every image's pose label, and its
// cluster under each kernel (clusters_raw, clusters_hog), in image order.
const (
	poseArray     = "pose"
	clustersArray = "clusters_"
)

// items declares purity_<kernel> and purity_gain statistics of the
// per-image arrays, so that a claim on them gets an interval over the
// images (package claims, ItemStat.Joint): on each resample of images the
// purity is recomputed from the resampled images' poses and clusters (the
// majority pose of each cluster recounted), the clustering itself held
// fixed. A purity near chance (measured by permutation: purity_chance_<kernel>, purity_p_<kernel>) or a gain of a few images
// is then judged on the spread over images, not on one number.
func items(_ *report.Record, metric string) (claims.ItemStat, bool) {
	const unit = "images (their clusters held fixed: one k-means run)"
	if metric == string(PurityGain) {
		return claims.ItemStat{
			Arrays: []string{poseArray, clustersArray + "raw", clustersArray + "hog"},
			Joint: func(_ *report.Record, c [][]float64) float64 {
				return purityOf(c[2], c[0]) - purityOf(c[1], c[0])
			},
			Unit: unit,
		}, true
	}
	k, ok := strings.CutPrefix(metric, "purity_")
	if !ok || (k != "raw" && k != "hog") {
		return claims.ItemStat{}, false
	}
	return claims.ItemStat{
		Arrays: []string{poseArray, clustersArray + k},
		Joint:  func(_ *report.Record, c [][]float64) float64 { return purityOf(c[1], c[0]) },
		Unit:   unit,
	}, true
}

// purityOf is cluster.Purity of float-coded cluster labels against poses.
func purityOf(clusters, poses []float64) float64 {
	l, p := make([]int, len(clusters)), make([]int, len(poses))
	for i := range clusters {
		l[i], p[i] = int(clusters[i]), int(poses[i])
	}
	return cluster.Purity(l, p)
}

// tolerance is the resolution of the pre-image distances (dist_mean_*,
// dist_max_*: RMS distances on the 0–255 grey scale of experiment.scale):
// a thousandth of a grey level, far above the solvers' rounding (Local
// Gram's pre-images of the centres lie 1.3e-7 from the mean images) and
// far below the one grey level the claims judge. Two estimators whose
// distances differ by less show the same image.
//
// The feature-space cost of the pre-images (feature_cost_*: the mean of
// ‖φ(z) − m_c‖², between 0 and 2 for a Gaussian kernel) has a resolution
// of 1e-6: two pre-images one image to the distances' resolution (Local
// Gram's with every cluster member as a neighbour and Honeine–Richard's,
// both the cluster's mean image) score costs 1.8e-9 apart, two different
// images (Local Gram with 10 neighbours against Honeine–Richard) 1.6e-2
// apart; 1e-6 lies orders of magnitude from both.
func tolerance(metric string) (float64, string) {
	switch {
	case strings.HasPrefix(metric, "dist_mean_") || strings.HasPrefix(metric, "dist_max_"):
		return 1e-3, "the kind's resolution of a pre-image distance: a thousandth of a grey level on the 0–255 scale"
	case strings.HasPrefix(metric, "feature_cost_"):
		return 1e-6, "the kind's resolution of a feature-space cost: pre-images that are one image to a thousandth of a grey level score costs within it"
	}
	return 0, ""
}
