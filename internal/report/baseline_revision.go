package report

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/runexp/runexp/internal/safefs"
)

// BaselineRevision is a baseline folder's revision.json: the revision of
// the code that computed its records, as the run's manifest.json recorded
// it, and the SHA-256 of the records.jsonl it was written with. A baseline
// keeps no manifest (its wall times and machine would change every
// refresh); this file keeps what a reader of the records needs to name the
// code, and the hash tells whether the records beside it are still the
// ones it describes (a folder refreshed by a build that did not write it
// keeps a stale one, which the hash then disowns).
type BaselineRevision struct {
	Revision      string `json:"revision"`
	Modified      bool   `json:"vcs_modified"`
	RecordsSHA256 string `json:"records_sha256"`
	// From says where the revision was read, for one recorded after the
	// fact ("" when WriteBaseline copied it from the run's manifest).
	From string `json:"from,omitempty"`
}

// BaselineRevisionFile is the file name of a BaselineRevision in a
// baseline folder.
const BaselineRevisionFile = "revision.json"

// writeBaselineRevision writes dst/revision.json from the run's
// manifest.json and dst's records; without a manifest (a run written by
// hand, a test) it removes a stale one, so that no revision is claimed
// for records it did not describe.
func writeBaselineRevision(run, dst string) error {
	path := filepath.Join(dst, BaselineRevisionFile)
	m, err := ReadManifest(run, filepath.Join(run, "manifest.json"))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return err
			}
			return nil
		}
		return fmt.Errorf("report: baseline: %w", err)
	}
	sum, err := FileSHA256(filepath.Join(dst, "records.jsonl"))
	if err != nil {
		return fmt.Errorf("report: baseline: %w", err)
	}
	b, err := json.MarshalIndent(BaselineRevision{Revision: m.Revision, Modified: m.Modified, RecordsSHA256: sum}, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, append(b, '\n'))
}

// ReadBaselineRevision reads dir's revision.json, a file inside root, and
// returns it when its records hash is that of dir's records.jsonl; nil
// when the folder has none, or one that describes other records.
func ReadBaselineRevision(root, dir string) (*BaselineRevision, error) {
	var r BaselineRevision
	if ok, err := ReadOptionalJSON(root, filepath.Join(dir, BaselineRevisionFile), &r); !ok || err != nil {
		return nil, err
	}
	if len(r.Revision) > 64 || len(r.From) > 512 {
		return nil, fmt.Errorf("%s: revision or from longer than any a baseline writes", filepath.Join(dir, BaselineRevisionFile))
	}
	if err := safefs.CheckInside(root, filepath.Join(dir, "records.jsonl")); err != nil {
		return nil, nil
	}
	sum, err := FileSHA256(filepath.Join(dir, "records.jsonl"))
	if err != nil || sum != r.RecordsSHA256 {
		return nil, nil
	}
	return &r, nil
}

// ReadOptionalJSON decodes the JSON file path, inside root and at most
// MaxJSONBytes long, into v. It reports false, and no error, when the
// file does not exist; a file that cannot be read or decoded is an error
// naming it.
func ReadOptionalJSON(root, path string, v any) (bool, error) {
	b, err := safefs.ReadFileIn(root, path, MaxJSONBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return false, fmt.Errorf("%s: %w", path, err)
	}
	return true, nil
}
