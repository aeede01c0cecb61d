package denoise

import (
	"github.com/runexp/runexp/experiments/internal/common"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/report"
)

// The metrics of a record (one method at one model point), besides
// common's NumComponents, FailedRows and NonconvergedRows. Each error is
// read twice (the package comment says how): re-normalised, under the
// plain names, and raw, under the _raw names; with renormalize off,
// Present copies the raw values under the plain names.
const (
	// MSEMean, MSEP5, MSEMedian and MSEP95 summarise the per-pixel
	// squared error of the good rows; BandWidth is MSEP95 − MSEP5.
	MSEMean   report.Metric = "mse_mean"
	MSEP5     report.Metric = "mse_p5"
	MSEMedian report.Metric = "mse_median"
	MSEP95    report.Metric = "mse_p95"
	BandWidth report.Metric = "band_width"
	// SSEMean, SSEStd and SSEMedian summarise the per-image squared
	// error on [0, 1] images.
	SSEMean   report.Metric = "sse_mean"
	SSEStd    report.Metric = "sse_std"
	SSEMedian report.Metric = "sse_median"
	// MSE255Mean is MSEMean on the [0, 255] scale.
	MSE255Mean report.Metric = "mse255_mean"

	MSERawMean    report.Metric = "mse_raw_mean"
	MSERawP5      report.Metric = "mse_raw_p5"
	MSERawMedian  report.Metric = "mse_raw_median"
	MSERawP95     report.Metric = "mse_raw_p95"
	BandWidthRaw  report.Metric = "band_width_raw"
	SSERawMean    report.Metric = "sse_raw_mean"
	SSERawStd     report.Metric = "sse_raw_std"
	SSERawMedian  report.Metric = "sse_raw_median"
	MSE255RawMean report.Metric = "mse255_raw_mean"

	// ZeroFraction is the share of zero pixels in the good rows'
	// pre-images.
	ZeroFraction report.Metric = "zero_fraction"
	// NNAccuracy is the share of the good rows whose pre-image's nearest
	// clean training image has the test input's label (the mean of the
	// nn_correct array), and NoisyNNAccuracy the same share for the
	// corrupted inputs themselves; recorded with identify: true only.
	NNAccuracy      report.Metric = "nn_accuracy"
	NoisyNNAccuracy report.Metric = "noisy_nn_accuracy"
	// BackgroundNoise is the mean over the good rows of each pre-image's
	// background noise (backgroundNoise; the background array); recorded
	// with background: true only.
	BackgroundNoise report.Metric = "background_noise"
	// Repeats is the number of corruption draws, recorded when over one.
	Repeats report.Metric = "repeats"
	// Diagnostics is the pattern of the means of what an estimator
	// reports per row (methods.Diagnostics), diag_<name>_mean.
	Diagnostics report.Metric = "diag_*_mean"
)

// backgroundArray is the record's per-row background noise.
const backgroundArray = "background"

// diagnostic is the metric of an estimator's diagnostic name.
func diagnostic(name string) report.Metric { return report.Metric("diag_" + name + "_mean") }

// errorMetrics are the names of one reading of the error, in one order.
type errorMetrics [9]report.Metric

var (
	renormalised = errorMetrics{MSEMean, MSEP5, MSEMedian, MSEP95, BandWidth, SSEMean, SSEStd, SSEMedian, MSE255Mean}
	raw          = errorMetrics{MSERawMean, MSERawP5, MSERawMedian, MSERawP95, BandWidthRaw, SSERawMean, SSERawStd, SSERawMedian, MSE255RawMean}
)

// set records one reading of the error from its summaries.
func (m errorMetrics) set(rec *report.Record, s errorSummary) {
	for i, v := range []float64{s.mse.Mean, s.mse.P5, s.mse.Median, s.mse.P95, s.mse.P95 - s.mse.P5, s.sse.Mean, s.sse.Std, s.sse.Median, s.mse.Mean * 255 * 255} {
		rec.Set(m[i], v)
	}
}

// metricNames lists the metrics a record can hold (runner.Kind.Metrics).
func metricNames(_ *config.Config, o options) []report.Metric {
	names := []report.Metric{common.NumComponents, common.FailedRows, common.NonconvergedRows, ZeroFraction, Repeats, Diagnostics}
	if o.identify {
		names = append(names, NNAccuracy, NoisyNNAccuracy)
	}
	if o.background {
		names = append(names, BackgroundNoise)
	}
	names = append(names, renormalised[:]...)
	return append(names, raw[:]...)
}
