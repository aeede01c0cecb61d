package distortion

import (
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// The metrics of a record (one (c, q) cell); the package comment says
// what the distortion measures.
const (
	// Pairs is the number of closest feature-space pairs kept.
	Pairs report.Metric = "pairs"
	// CrossRingFraction is the share of the kept pairs joining the two
	// rings.
	CrossRingFraction report.Metric = "cross_ring_fraction"
	// MeanPairLength is the kept pairs' mean input-space length.
	MeanPairLength report.Metric = "mean_pair_length"
	// InputPairLength is the mean length of as many closest input-space
	// pairs.
	InputPairLength report.Metric = "input_pair_length"
	// DistortionRatio is MeanPairLength over InputPairLength.
	DistortionRatio report.Metric = "distortion_ratio"
	// EigenEnergy is the share of the eigenvalues' sum the q components
	// hold.
	EigenEnergy report.Metric = "eigen_energy"
)

// metricNames lists the metrics every record holds (runner.Kind.Metrics).
func metricNames(*config.Config, options) []report.Metric {
	return []report.Metric{Pairs, CrossRingFraction, MeanPairLength, InputPairLength, DistortionRatio, EigenEnergy}
}
