// Package runexp holds the module's own Go sources, embedded at build
// time, so that a binary can fingerprint the code that computes each
// result (see internal/codefp). The fingerprint is therefore always that of
// the binary's own sources: it cannot go stale the way a hand-bumped
// version or a generated file can.
package runexp

import "embed"

// Sources holds every .go file of the module's library packages (tests
// included; internal/codefp ignores them). cmd/ is left out: no cell is
// computed there. TestSourcesEmbedded checks that nothing is missed.
//
//go:embed internal/*/*.go internal/*/*/*.go experiments/*.go experiments/*/*.go experiments/*/*/*.go
var Sources embed.FS

// SourcePatterns are the patterns of the go:embed line above, as
// fs.Glob and path.Match read them: a manifest compares the files they
// match in a commit with the embedded ones (report.Manifest.CheckSources).
// TestSourcePatterns checks that they are the line's.
var SourcePatterns = []string{"internal/*/*.go", "internal/*/*/*.go", "experiments/*.go", "experiments/*/*.go", "experiments/*/*/*.go"}

// Module is the module path, which import paths inside the module start with.
const Module = "github.com/runexp/runexp"
