// Package robust is the robust reconstruction experiment of Nguyen & De la
// Torre (2008): corrupt held-out faces by square occlusions of random
// values (Fig. 5, Fig. 1 d/h) or by Gaussian noise (Table 2, Fig. 6),
// reconstruct them with every estimator and measure the mean absolute
// difference to the clean face, on the whole image and, for occlusions, on
// the occluded and non-occluded regions.
//
// # Protocol
//
// The dataset's images are split by subject (its labels) into training,
// validation and test sets: subjects are drawn in a seeded random order and
// given to each set in turn while that brings the set's image count closer
// to its target (experiment.split, the paper's 700/100/300), so no subject
// appears in two sets and the counts are as close as whole subjects allow
// (datasets.GroupDisjoint).
// The kernel PCA model is fitted on the clean training images.
//
// Corruptions: experiment.occlusion_paper_sides lists the paper's square
// sides and occlusion_paper_fractions the fraction of the face each
// covered (the paper's ratio of Base Line whole-face to occluded-region
// error, ambiguity a11); our side is round(√(fraction·W·H)), the square of
// the same share of our W×H images. The square lies inside the image at a
// uniform position and holds i.i.d. uniform values in [0, 255]. Without
// occlusions the config's Gaussian corruption is added (no clipping). Each
// image and condition draws from its own stream, so the corrupted sets are
// shared by every cell (paired comparisons across methods and energies).
// Both are datasets.Corruption descriptions (UniformOcclusion, and the
// config's GaussianNoise through common.CorruptionOf).
//
// Subspace sizes: the model's energy picks the kernel PCA components; for
// an estimator with a linear energy parameter (methods.EnergyRole) left at
// 0, and no linear component count (methods.ComponentsRole), as linear and
// robust PCA, the cell's energy is passed as its own linear energy, so
// "energy 80%" means 80% of the variance for every method. A linear energy
// or component count the config gives runs as given (0 is the parameter's
// own "the experiment's"): the precedence rule of every kind
// (docs/extending.md, "Parameter roles and precedence").
//
// Validation tuning: experiment.tune names a method label and a grid of
// its parameters, plus optionally the kernel width (the model's width
// name, e.g. gamma). For a cell of that method every grid point is run on
// the corrupted validation set, the one with the smallest mean whole-image
// error (over all conditions; points with failed rows lose to points
// without) is chosen, and the test set is run with it. The chosen values
// are recorded as metrics tuned_<name>. The grid is expanded as a method's
// parameter grid is (config.Method.Expand: keys sorted, the last varying
// fastest) and each point is bound once, when the config is validated.
//
// # Per-image errors and intervals
//
// Every metric is a mean (or standard deviation) over the test images,
// and the record keeps each image's value as an array (items.go): whole,
// occ, nonocc per occlusion size (suffix _s<side>), mae for noise, NaN
// where the estimator failed on the image. Every cell reconstructs the
// same corrupted images, so the arrays pair across methods and energies
// and claims on the metrics are judged on paired bootstrap intervals over
// the test images. For noise the record also holds the fine detail of
// each reconstruction against its clean image (Nguyen & De la Torre c7,
// "preserves much more fine details"; docs/readings.md):
// detail_ratio_mean, the mean of metrics.DetailRatio = ‖∇z‖²/‖∇x‖² (below
// 1 smoother than the clean face), and detail_error_mean, the mean of
// metrics.DetailError = ‖∇z − ∇x‖²/‖∇x‖², with their arrays detail and
// detailerr.
package robust
