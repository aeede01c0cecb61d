package runner

import (
	"github.com/runexp/runexp/internal/report"
)

// checkResultDir refuses a result directory that is a symbolic link (or
// not a directory): following it would write outside the results root.
func checkResultDir(dir string) error { return report.CheckDir(dir) }

// stageDir creates the hidden sibling of dir that a report is written
// into before it replaces dir as a whole (report.StageDir).
func stageDir(top, dir string) (string, error) { return report.StageDir(top, dir) }

// commitDir replaces dir by stage, so an interrupted report leaves either
// the old set of outputs or the new one, never a mix. The shards/ folder
// of an array job is not part of a report and moves across. The caller
// holds dir's lock.
func commitDir(stage, dir string) error { return report.CommitDir(stage, dir, "shards") }

// cleanStale removes the staging and old folders an interrupted report
// left beside dir (report.CleanStale), shards moved into a staging folder
// going back where merge looks for them. The caller holds dir's lock.
func cleanStale(dir string) { report.CleanStale(dir, "shards") }
