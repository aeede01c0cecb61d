// Package suite runs a set of configs as one job: the configs named on the
// command line or every config of a folder, each with the estimators a
// user added with --with, then the results index, the scoreboard, the
// comparison with a committed baseline and suite.json.
//
// # Overview
//
// Load reads and validates every config before any runs, so a typo in
// the last config surfaces before an hour of the first; AddWith adds the
// --with estimators to the configs whose kind can take them (the kind
// says which, runner.Kind.Takes). Run runs the configs, reporting each as
// it completes; Suite does what runexp suite does around Run: the index,
// the scoreboard, the baseline comparison and suite.json.
//
// The command line (cmd/runexp) parses flags, prints and chooses the exit
// status from what these functions return; Status and Worse hold the
// statuses of docs/exit-status.md so that suite.json and the command agree.
package suite
