package suite

import "github.com/runexp/runexp/internal/runner"

// Exit statuses, as docs/exit-status.md lays them out for every
// subcommand of runexp; suite.json records them per config.
const (
	// OK: every claim as expected, nothing moved.
	OK = 0
	// Changed: a claim's verdict differs from its expectation, or a
	// compared metric, cell or verdict moved.
	Changed = 1
	// Usage: a usage, config or data error.
	Usage = 2
	// Incomplete: cells failed or a claim could not be evaluated.
	Incomplete = 3
	// Crash: a bug in runexp (a recovered panic).
	Crash = 4
	// Interrupted follows the shell's 128 + SIGINT convention.
	Interrupted = 130
)

// precedence ranks statuses: when several apply, the higher rank wins
// (130, 2, 4, 3, 1, 0).
var precedence = map[int]int{OK: 0, Changed: 1, Incomplete: 2, Crash: 3, Usage: 4, Interrupted: 5}

// Worse returns whichever of the statuses a and b takes precedence.
func Worse(a, b int) int {
	if precedence[b] > precedence[a] {
		return b
	}
	return a
}

// SummaryStatus is the status a finished run (or merge) earns.
func SummaryStatus(s *runner.Summary) int {
	code := OK
	if s.Unexpected > 0 {
		code = Worse(code, Changed)
	}
	if s.Failed > 0 || s.NotEvaluated > 0 || len(s.ReportErrors) > 0 {
		code = Worse(code, Incomplete)
	}
	if s.Crashed > 0 {
		code = Worse(code, Crash)
	}
	return code
}
