// Package matrix is the cross-paper matrix: every pre-image
// and de-noising estimator on every de-noising benchmark of the five
// papers, on one results page, with a bootstrap confidence interval per
// score, ranks, the mean rank and paired wins and losses.
//
// # Shape
//
// One config holds every benchmark (experiment.benchmarks), because a
// kind's report sees only its own config's records: the ranks and the
// mean rank across benchmarks, and the paired comparisons, need every
// benchmark's per-image errors in one report. A cell is one estimator (a
// methods entry, or one of the estimators experiment.all_estimators
// adds, with default parameters, leaving out experiment.exclude: by
// default external, which needs a command, and the imputers that only
// fill entries a mask marks missing); it de-noises the test images of
// every benchmark, so a method added by --with (a methods entry) is one
// more cell of the same page. A
// benchmark an estimator cannot take (its kernel, say) is recorded as
// refused with the reason, one that fails as failed with the reason;
// neither is dropped from the page.
//
// # Benchmarks
//
// Each benchmark names its data set (default: the config's dataset), the
// corruption of its test images (Gaussian noise, or an occlusion), the
// range [lo, hi] of its pixel values, the Gaussian kernel width (a number,
// or sigma: mean-distance for Huang et al.'s σ = mean pairwise distance of
// the training images), the subspace size (components or energy, the
// experiments/setup rule) and how many training and test images it keeps:
// a seeded subsample, so that the default matrix runs in minutes; a slow
// estimator can be held to the first k test images of every benchmark
// (experiment.method_test: {lasso-gps: 8}), its other images NaN, so its
// mean and its paired comparisons use those k and the page says so. Kernel
// PCA is fitted on the clean training images once per process
// (setup.Model); the test images are corrupted with datasets.Corruption,
// one stream per image derived from the root seed and the benchmark.
//
// # Score
//
// A test image's error is the mean squared error per pixel on a common
// [0, 1] scale: ((z − x)/(hi − lo))² averaged over pixels, x the clean
// image and z the estimate. MSE is the metric most of the papers report
// (Abrahamsen & Hansen, Zheng & Lai); the common scale keeps the numbers
// of 0–255 faces and [−1, 1] digits readable side by side. Nothing is
// re-normalised: the base line (identity) scores exactly the corruption's
// own mean square.
//
// # Uncertainty, ranks, wins
//
// A method's score on a benchmark is the mean error over test images with
// a BCa bootstrap interval (stats.Mean, its stream derived from the cell's
// seed and the benchmark). Ranks order the methods with a score on a
// benchmark by that mean (ties share the mean of their positions); the
// mean rank averages a method's ranks over the benchmarks it was ranked
// on, and says on how many. A paired comparison of A and B on a benchmark
// is the interval of mean(error_A − error_B) over the images both
// de-noised (stats.PairedDiff): A wins when the interval lies below 0
// (stats.Decide, Below), loses when it lies above 0, and neither wins
// when it covers 0.
package matrix
