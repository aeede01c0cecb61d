package main

import (
	"github.com/runexp/runexp/internal/runner"
	"github.com/runexp/runexp/internal/suite"
)

// Exit statuses, as docs/exit-status.md lays them out for every
// subcommand (package suite holds them, so suite.json agrees).
const (
	exitOK          = suite.OK
	exitClaim       = suite.Changed
	exitUsage       = suite.Usage
	exitIncomplete  = suite.Incomplete
	exitCrash       = suite.Crash
	exitInterrupted = suite.Interrupted
)

// worse returns whichever of a and b takes precedence.
func worse(a, b int) int { return suite.Worse(a, b) }

// summaryStatus is the exit status a finished run (or merge) earns.
func summaryStatus(s *runner.Summary) int { return suite.SummaryStatus(s) }
