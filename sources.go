// Package runexp holds the module's own Go sources, embedded at build
// time, so that a binary can fingerprint the code that computes each
// result (see internal/codefp). The fingerprint is therefore always that of
// the binary's own sources: it cannot go stale the way a hand-bumped
// version or a generated file can.
package runexp

import "embed"

// Sources holds every .go file of the module (tests included;
// internal/codefp ignores them): the library packages, whose code
// fingerprints key each cell, and the commands and this package, which no
// cell is computed in but which are the binary too, so that a manifest's
// code_sha256 and its check of the sources against a commit
// (report.Manifest.CheckSources) cover every package the binary is built
// from. TestSourcesEmbedded checks that nothing is missed.
//
//go:embed *.go cmd/*/*.go internal/*/*.go internal/*/*/*.go experiments/*.go experiments/*/*.go experiments/*/*/*.go
var Sources embed.FS

// SourcePatterns are the patterns of the go:embed line above, as
// fs.Glob and path.Match read them: a manifest compares the files they
// match in a commit with the embedded ones (report.Manifest.CheckSources).
// TestSourcePatterns checks that they are the line's.
var SourcePatterns = []string{"*.go", "cmd/*/*.go", "internal/*/*.go", "internal/*/*/*.go", "experiments/*.go", "experiments/*/*.go", "experiments/*/*/*.go"}

// Module is the module path, which import paths inside the module start with.
const Module = "github.com/runexp/runexp"
