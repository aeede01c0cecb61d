package report

import (
	"encoding/json"

	"github.com/runexp/runexp/internal/safefs"

	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// WriteBaseline copies what [CompareResults] reads of the run directory
// run — its records without their arrays (figure data, never compared)
// and its claims.json — into dst, replacing what dst held, with the
// revision of the code that computed them (revision.json, from the run's
// manifest: BaselineRevision). A committed baseline stays small: the
// metrics, statuses, errors and verdicts of every cell, and which code
// computed them; with figures, also the run's figures (its .png files:
// the caller asks for them for the configs of the stated protocol), so
// that a report built from the baseline alone shows them beside the
// paper's.
func WriteBaseline(run, dst string, figures bool) error {
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
	if err := writeBaselineFigures(run, dst, figures); err != nil {
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

// MaxBaselineFigureBytes bounds a figure a baseline keeps: the repository
// tracks no file over 1 MB (its data stay in the data root), so a larger
// figure (a grid of every panel, a tall grid of faces) is kept downscaled
// (DownscalePNG), its caption saying so, or, when even that is too
// large, left out, and a report built from the baseline says it keeps no
// figure for that config.
const MaxBaselineFigureBytes = 1 << 20

// maxRunFigureBytes bounds a figure of a run a baseline reads to shrink.
const maxRunFigureBytes = 64 << 20

// writeBaselineFigures replaces dst's figures (its .png files) with the
// run's when figures is set, and removes them otherwise, so that a
// baseline never shows a figure of an earlier run. Only regular files
// are copied (links are not followed), those over MaxBaselineFigureBytes
// downscaled or, when they cannot be, left out.
func writeBaselineFigures(run, dst string, figures bool) error {
	old, _ := filepath.Glob(filepath.Join(dst, "*.png"))
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	if !figures {
		return nil
	}
	ents, err := os.ReadDir(run)
	if err != nil {
		return err
	}
	for _, e := range ents {
		n := e.Name()
		if !e.Type().IsRegular() || strings.HasPrefix(n, ".") || filepath.Ext(n) != ".png" {
			continue
		}
		fi, err := e.Info()
		if err != nil || fi.Size() > maxRunFigureBytes {
			continue
		}
		b, err := safefs.ReadFile(filepath.Join(run, n), maxRunFigureBytes)
		if err != nil {
			return err
		}
		if len(b) > MaxBaselineFigureBytes {
			if b, _, err = DownscalePNG(b, MaxBaselineFigureBytes, "the committed baseline, which keeps no file over 1 MB"); err != nil {
				continue // left out: the report says it keeps no figure for it
			}
		}
		if err := WriteFileAtomic(filepath.Join(dst, n), b); err != nil {
			return err
		}
	}
	return nil
}
