// Package codefp fingerprints the Go code a result depends on, from the
// module's own sources as embedded in the binary (package runexp), so a
// cached cell is recomputed when the code that computed it changes.
//
// A fingerprint covers a root file (an estimator's, an experiment kind's or
// a dataset's registering file) and every top-level declaration it can
// reach: each declaration of the root, then, from every declaration
// reached, the declarations of its package named by the identifiers it
// uses, and, for each module package it imports, the declarations named
// through the import; a package reached also brings its init functions
// and its vars whose values call a function (they run whether or not
// their names are used), except those of other owned roots (their
// registrations). A declaration is a function, a method (declared under
// its receiver type's name, so using a type brings every method of it), or
// a whole var, const or type group (a const block's iota ties its specs).
// The reach is computed on names, not types: a name used anywhere counts,
// so it over-approximates (a local variable named like another
// declaration pulls it in), which costs a recomputation, never a stale
// result. Declarations, not files: another estimator's use of a helper
// declared in an estimator's file brings that helper, not the estimator.
//
// Declarations are normalised before hashing: their token stream is
// hashed without comments, so an edit to comments or layout keeps the
// fingerprint (a doc fix does not recompute hours of cells), while any
// change to the code changes it, a //go: directive in its doc comment,
// its file's build constraints and the import path of every package it
// names included. Test files (_test.go) never count.
package codefp
