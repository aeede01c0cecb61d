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

// Module is the module path, which import paths inside the module start with.
const Module = "github.com/runexp/runexp"
