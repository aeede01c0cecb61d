// Package runner turns a config into cells, runs them on a worker pool and
// hands the records to the report stage.
//
// # Cells, keys and seeds
//
// A cell is one point of the config's grid: a model point (kernel width,
// subspace size) times, when the config lists methods, one estimator with
// one point of its parameter grid. Its canonical key (config.CanonicalKey of
// its flat parameters, estimator defaults filled in) does not depend on key
// order or on how numbers were written, and its random stream is derived
// from the root seed and that key alone: adding a cell, reordering the grid
// or changing the worker count never changes another cell's numbers.
//
// # Kinds and datasets
//
// Experiment kinds (Fig. 2 distortion, Fig. 3 local minima, denoising, …)
// and datasets register themselves here from the experiments packages, so
// the CLI can list and check them. A Kind checks its part of a config,
// prepares shared state once (data, corruption, nothing per cell), runs
// cells and draws its figures and tables from the records alone.
//
// # Models
//
// Env.Model fits a kernel PCA once per key (data and kernel, never the PC
// count, λ or neighbours) and shares it between cells and workers.
package runner
