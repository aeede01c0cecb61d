package report

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/runexp/runexp/internal/safefs"
)

// Bounds on what a manifest.json read back may hold: far beyond any a run
// writes, so that only a damaged or forged manifest meets them, and every
// page and report that quotes a manifest stays small (an 8 MB revision
// quoted on every line of a report made 58 MB of it).
const (
	maxManifestString = 4096    // a path, a version, a CPU model
	maxManifestCount  = 1 << 24 // cells, workers, cores, list lengths
	maxManifestWall   = 1e9     // seconds: 31 years
)

// ManifestValueError reports a manifest.json value beyond what a run
// writes.
type ManifestValueError struct {
	Path, Field, Value, Bound string
}

func (e *ManifestValueError) Error() string {
	return fmt.Sprintf("%s: %s is %s, beyond what a run writes (%s); the manifest is damaged or not runexp's: rerun the config to write it again", e.Path, e.Field, e.Value, e.Bound)
}

// ReadManifest reads and checks the manifest.json at path, a file that
// must lie inside root (safefs.ReadFileIn): a regular file of at most
// MaxJSONBytes whose values pass [Manifest.Check].
func ReadManifest(root, path string) (*Manifest, error) {
	b, err := safefs.ReadFileIn(root, path, MaxJSONBytes)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := m.Check(path); err != nil {
		return nil, err
	}
	return &m, nil
}

// Check refuses a manifest read from path whose strings, counts or times
// lie beyond any a run writes: a revision longer than any commit id, a
// GOMAXPROCS of 2⁶³−1, a negative or non-finite time.
func (m *Manifest) Check(path string) error {
	str := func(field, s string, max int) error {
		if len(s) > max {
			return &ManifestValueError{path, field, fmt.Sprintf("%d bytes long", len(s)), fmt.Sprintf("at most %d", max)}
		}
		return nil
	}
	count := func(field string, n int64) error {
		if n < 0 || n > maxManifestCount {
			return &ManifestValueError{path, field, fmt.Sprint(n), fmt.Sprintf("0 to %d", maxManifestCount)}
		}
		return nil
	}
	errs := []error{
		str("config", m.Config, maxManifestString), str("config_sha256", m.ConfigSHA256, 128),
		str("module", m.Module, maxManifestString), str("version", m.Version, 256),
		// A commit id: 40 hex digits (SHA-1) or 64 (SHA-256); "unknown".
		str("revision", m.Revision, 64), str("revision_from", m.RevisionFrom, 512),
		str("go_version", m.GoVersion, 128), str("goos", m.GOOS, 64), str("goarch", m.GOARCH, 64),
		str("code_sha256", m.Code, 128),
		count("gomaxprocs", int64(m.GOMAXPROCS)), count("workers", int64(m.Workers)),
		count("cells", int64(m.Cells)), count("failed", int64(m.Failed)),
		count("data (entries)", int64(len(m.Data))), count("outputs (entries)", int64(len(m.Outputs))),
		count("with (entries)", int64(len(m.With))), count("paper_fit (entries)", int64(len(m.PaperFit))),
		str("variant_of", m.VariantOf, maxManifestString),
		count("external_modules (entries)", int64(len(m.Modules))),
	}
	if w := m.WallSeconds; math.IsNaN(w) || w < 0 || w > maxManifestWall {
		errs = append(errs, &ManifestValueError{path, "wall_seconds", fmt.Sprint(w), fmt.Sprintf("0 to %g", maxManifestWall)})
	}
	if mc := m.Machine; mc != nil {
		errs = append(errs, str("machine.cpu_model", mc.CPUModel, 256), str("machine.backend", mc.Backend, 64),
			count("machine.cores", int64(mc.Cores)))
		if mc.MemoryBytes > 1<<60 || mc.PeakRSSBytes > 1<<60 {
			errs = append(errs, &ManifestValueError{path, "machine.memory_bytes or peak_rss_bytes", fmt.Sprint(max(mc.MemoryBytes, mc.PeakRSSBytes)), "at most 2⁶⁰"})
		}
	}
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}
