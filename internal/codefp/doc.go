// Package codefp fingerprints the Go code a result depends on, from the
// module's own sources as embedded in the binary (package runexp), so a
// cached cell is recomputed when the code that computed it changes.
//
// A fingerprint covers a root file (an estimator's, an experiment kind's or
// a dataset's registering file) and everything it can reach: the other
// files of its package that are not themselves "owned" roots (the shared
// code of the package), every file of its package that declares a name
// those files use, and, for each module package they import, the files
// declaring the names used through the import and the files with init
// functions, and so on from each file added.
// The reach is computed on names, not types: a name used anywhere counts,
// so it over-approximates (a local variable named like another file's
// function pulls that file in), which costs a recomputation, never a stale
// result. Methods belong to their receiver type, so using a type pulls in
// every file that declares methods on it.
//
// Files are normalised before hashing: their token stream is hashed
// without comments, so an edit to comments or layout keeps the
// fingerprint (a doc fix does not recompute hours of cells), while any
// change to the code, a //go: directive included, changes it. Test files
// (_test.go) never count.
//
// The same sources tell which metric names an experiment can write into
// its records (Index.Metrics): every rec.Metrics[key] = … in the
// experiments' code gives a pattern, key's string literals kept and the
// rest a wildcard, so `runexp validate` can reject a claim naming a metric
// no cell will hold. When a write cannot be read that way (a key computed
// whole, the map handed to a function) the set is open and accepts any
// name.
package codefp
