package report

import (
	"github.com/runexp/runexp/internal/safefs"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteBaseline copies what [CompareResults] reads of the run directory
// run — its records without their arrays (figure data, never compared)
// and its claims.json — into dst, replacing what dst held, with the
// revision of the code that computed them (revision.json, from the run's
// manifest: BaselineRevision). A committed baseline stays small: the
// metrics, statuses, errors and verdicts of every cell, and which code
// computed them, nothing else.
func WriteBaseline(run, dst string) error {
	recs, err := ReadJSONL(filepath.Join(run, "records.jsonl"))
	if err != nil {
		return fmt.Errorf("report: baseline: %w", err)
	}
	for i := range recs {
		recs[i].Arrays = nil
	}
	if err := WriteJSONL(filepath.Join(dst, "records.jsonl"), recs); err != nil {
		return fmt.Errorf("report: baseline: %w", err)
	}
	if err := writeBaselineRevision(run, dst); err != nil {
		return err
	}
	cl := filepath.Join(dst, "claims.json")
	b, err := safefs.ReadFile(filepath.Join(run, "claims.json"), MaxJSONBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.Remove(cl); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	case err != nil:
		return fmt.Errorf("report: baseline: %w", err)
	}
	return WriteFileAtomic(cl, b)
}
