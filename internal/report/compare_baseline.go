package report

import (
	"encoding/json"

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
	if err := writeProvenance(run, dst); err != nil {
		return fmt.Errorf("report: baseline: %w", err)
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

// writeProvenance keeps, beside a baseline's records, what its run's
// manifest says of their inputs (provenance: the config file's and data
// files' SHA-256, the backend), so that a comparison with the baseline
// says whether the config, the code or the data moved a cell. A run
// without a manifest leaves none.
func writeProvenance(run, dst string) error {
	p := readRunInputs(run)
	file := filepath.Join(dst, ProvenanceFile)
	if !p.known {
		if err := os.Remove(file); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	p.Machine = nil
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(file, append(b, '\n'))
}
