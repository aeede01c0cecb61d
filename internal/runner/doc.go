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
// # One pool for many configs
//
// Run is a Pool of one Job. A Job splits a config's run into phases:
// Prepare (validate, lock the result directory, look the cells up in the
// cache: no data read), Start (the kind's data and corruption), the cells
// left to compute, and Finish (the report, or a shard's records). A Pool
// runs the jobs of every config of a suite on one set of workers: it
// starts a config when those started cannot keep the workers busy, runs
// the longest cell first by the time recorded for it, writes each
// report when its last cell lands, and on a stop (SIGTERM) waits at most
// a few seconds for the cells running. Each cell's wall and CPU time is
// measured on the worker's own OS thread (package par) and kept in its
// cache entry and the Summary.
//
// # Cells in parts
//
// A kind whose cells are long splits them into independent parts
// (Kind.Parts, parts.go): a config's repetitions, a classifier's splits,
// blocks of a pre-image batch's rows, a tuned estimator's validation
// points then its test rows. Each part is a unit of work the pool
// schedules and a shard selects as it does a cell, cached under its own
// key; the cell's record is combined from its parts' results in part
// order, bit for bit the record of the cell computed whole, and the
// Summary times each unit.
//
// # Models
//
// Env.Model fits a kernel PCA once per key (data and kernel, never the PC
// count, λ or neighbours) and shares it between cells and workers.
package runner
