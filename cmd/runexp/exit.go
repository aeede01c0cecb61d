package main

import "github.com/runexp/runexp/internal/runner"

// Exit statuses, as docs/exit-status.md lays them out for every
// subcommand.
const (
	exitOK = 0
	// exitClaim: changed — a claim's verdict differs from its
	// expectation, or a compared metric, cell or verdict moved.
	exitClaim = 1
	// exitUsage: usage, config or data error.
	exitUsage = 2
	// exitIncomplete: cells failed or a claim could not be evaluated.
	exitIncomplete = 3
	// exitCrash: a bug in runexp (a recovered panic).
	exitCrash = 4
	// exitInterrupted follows the shell's 128 + SIGINT convention.
	exitInterrupted = 130
)

// precedence ranks statuses: when several apply, the higher rank wins
// (130, 2, 4, 3, 1, 0).
var precedence = map[int]int{exitOK: 0, exitClaim: 1, exitIncomplete: 2, exitCrash: 3, exitUsage: 4, exitInterrupted: 5}

// worse returns whichever of a and b takes precedence.
func worse(a, b int) int {
	if precedence[b] > precedence[a] {
		return b
	}
	return a
}

// summaryStatus is the exit status a finished run (or merge) earns.
func summaryStatus(s *runner.Summary) int {
	code := exitOK
	if s.Unexpected > 0 {
		code = worse(code, exitClaim)
	}
	if s.Failed > 0 || s.NotEvaluated > 0 || len(s.ReportErrors) > 0 {
		code = worse(code, exitIncomplete)
	}
	if s.Crashed > 0 {
		code = worse(code, exitCrash)
	}
	return code
}
