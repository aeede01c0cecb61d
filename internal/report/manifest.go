package report

import (
	"cmp"
	"encoding/json"
	"fmt"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"time"
)

// Revision is the VCS revision used in a [Manifest] when the binary's build
// information has none (go build -buildvcs=false, or a build outside a
// repository). Set it at link time:
//
//	go build -ldflags "-X github.com/runexp/runexp/internal/report.Revision=$(git rev-parse HEAD)"
var Revision string

// BuildModified is "true" when the tree the binary was built from had
// changes its revision does not hold (make build sets it with Revision,
// from git status, whatever GOFLAGS says about -buildvcs).
var BuildModified string

// FileSum is a file and its SHA-256, hex encoded.
type FileSum struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

// Manifest records the provenance of one run: what was run (config and its
// hash, data checksums), by which build on which machine, when, and what was
// written. Unlike records, tables and figures, the manifest differs between
// runs: it holds times.
type Manifest struct {
	Config       string `json:"config"` // config path as given
	ConfigSHA256 string `json:"config_sha256"`
	Module       string `json:"module"`   // main module path
	Version      string `json:"version"`  // main module version from the build info
	Revision     string `json:"revision"` // vcs.revision, else the Revision variable, else "unknown"
	// Modified says whether the binary's sources differ from Revision;
	// written as null when Revision is "unknown" (Marshal).
	Modified bool `json:"vcs_modified"`
	// RevisionFrom says where Revision came from: "build" (the binary's
	// vcs stamp or pseudo-version), "ldflags" (make build), "git" (the
	// checkout when the run started: right for go run, but a binary
	// built earlier may hold other code) or "" when unknown.
	RevisionFrom string `json:"revision_from,omitempty"`
	// Code is the SHA-256 of the library sources the binary embeds (and
	// computes with; runexp.Sources): two manifests with the same code
	// were written by the same code, whatever their revision says.
	Code        string    `json:"code_sha256,omitempty"`
	GoVersion   string    `json:"go_version"`
	GOOS        string    `json:"goos"`
	GOARCH      string    `json:"goarch"`
	GOMAXPROCS  int       `json:"gomaxprocs"`
	Workers     int       `json:"workers"`
	Seed        uint64    `json:"seed"`
	Data        []FileSum `json:"data"`
	Cells       int       `json:"cells"`
	Failed      int       `json:"failed"`
	Start       time.Time `json:"start"` // RFC 3339 (with fractional seconds)
	End         time.Time `json:"end"`
	WallSeconds float64   `json:"wall_seconds"`
	Outputs     []string  `json:"outputs"` // files written, relative to the result directory
	// With lists the estimators added on the command line (runexp
	// --with), in the order given; absent when there were none. The
	// config file alone does not say what ran when it is set.
	With []WithSpec `json:"with,omitempty"`
	// VariantOf is the config's variant_of, the base config whose paper
	// table and claims it reads another way ("" for a base), and
	// Diagnostic its diagnostic flag: the results index shows a base's
	// readings on its page by them.
	VariantOf  string `json:"variant_of,omitempty"`
	Diagnostic bool   `json:"diagnostic,omitempty"`
	// PaperFit is the run's reading fit to each part of the paper's
	// printed table (tables.PaperFits); absent without a paper_table.
	PaperFit []PaperFit `json:"paper_fit,omitempty"`
	// Machine is the computer and build that ran it (CPU model, cores,
	// memory, backend, the process's peak memory).
	Machine *Machine `json:"machine,omitempty"`
	// Modules lists what an external estimator loaded from outside its
	// own folder (the interpreter's standard library left out by its
	// helper): installed packages, each with the number of its files
	// that were loaded, and single files elsewhere. Each file's SHA-256
	// keys the cells' cache entries; this says where they came from.
	Modules []ModuleFiles `json:"external_modules,omitempty"`
}

// ModuleFiles is a package folder (or one file) an external estimator
// loaded files from, and how many.
type ModuleFiles struct {
	Path  string `json:"path"`
	Files int    `json:"files"`
}

// WithSpec is one estimator added on the command line (runexp --with
// SPEC) as it applied to one config: the SPEC as given and what it
// resolved to, or why the config did not take it.
type WithSpec struct {
	Spec      string `json:"spec"`      // as given on the command line
	Estimator string `json:"estimator"` // registered name
	// Label is the method label its records carry (the estimator's
	// title unless the SPEC set label=).
	Label string `json:"label"`
	// Params are the parameters the SPEC gives and the defaults of the
	// others, less a role parameter the SPEC leaves to the kind (its
	// value that ran is in the records; suite.AddWith).
	Params map[string]any `json:"params"`
	// Skipped says why this config did not take the estimator (its kind
	// cannot use it); "" when it was added.
	Skipped string `json:"skipped,omitempty"`
	// Ran are the parameters its cells reported they ran with (an
	// external script's own parameters, its defaults included:
	// Record.Ran), a parameter reported with different values listing
	// them; nil when none reported any.
	Ran map[string]any `json:"ran,omitempty"`
}

// NewManifest returns a Manifest with the build and runtime fields filled
// in and Start set to the current time. The caller fills in the run fields
// and calls [Manifest.Finish] before [Manifest.Write].
func NewManifest() *Manifest {
	m := &Manifest{
		Module:     "unknown",
		Version:    "unknown",
		Revision:   "unknown",
		GoVersion:  runtime.Version(),
		GOOS:       runtime.GOOS,
		GOARCH:     runtime.GOARCH,
		GOMAXPROCS: runtime.GOMAXPROCS(0),
		Machine:    thisMachine(),
		Start:      time.Now(),
	}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		if bi.Main.Path != "" {
			m.Module = bi.Main.Path
		}
		if bi.Main.Version != "" {
			m.Version = bi.Main.Version
		}
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				m.Revision, m.RevisionFrom = s.Value, "build"
			case "vcs.modified":
				m.Modified = s.Value == "true"
			}
		}
	}
	if m.Revision == "unknown" && Revision != "" {
		m.Revision, m.RevisionFrom = Revision, "ldflags"
		m.Modified = BuildModified == "true"
	}
	if m.Revision == "unknown" {
		// Without vcs.* settings (a build outside the checkout, or with
		// -buildvcs=false) the go command may still have stamped the
		// main module with a pseudo-version, whose last part is the
		// revision: v0.0.0-20260101120000-abcdef123456[+dirty].
		if rev, dirty, ok := pseudoRevision(m.Version); ok {
			m.Revision, m.Modified, m.RevisionFrom = rev, dirty, "build"
		}
	}
	return m
}

// pseudoRevision returns the commit prefix a pseudo-version ends in and
// whether it is marked +dirty.
func pseudoRevision(v string) (rev string, dirty bool, ok bool) {
	v, dirty = strings.CutSuffix(v, "+dirty")
	i := strings.LastIndex(v, "-")
	if i < 0 || !strings.HasPrefix(v, "v") {
		return "", false, false
	}
	rev = v[i+1:]
	if len(rev) != 12 {
		return "", false, false
	}
	for _, r := range rev {
		if !strings.ContainsRune("0123456789abcdef", r) {
			return "", false, false
		}
	}
	// The part before it must be a 14-digit timestamp.
	ts := v[:i]
	j := strings.LastIndexAny(ts, "-.")
	if j < 0 || len(ts[j+1:]) != 14 {
		return "", false, false
	}
	return rev, dirty, true
}

// Finish sets End to the current time and WallSeconds to the time elapsed
// since Start (on the monotonic clock when Start came from time.Now).
func (m *Manifest) Finish() {
	m.End = time.Now()
	m.WallSeconds = m.End.Sub(m.Start).Seconds()
	if m.Machine != nil {
		m.Machine.PeakRSSBytes = peakRSS()
	}
}

// Marshal returns m as indented JSON with a trailing newline. Times are
// written in UTC as RFC 3339 (with fractional seconds). Outputs are
// sorted and Data ordered by path, so that the manifest does not depend on
// the order in which workers finished; nil lists are written as [].
func (m *Manifest) Marshal() ([]byte, error) {
	c := *m
	c.Start, c.End = m.Start.UTC(), m.End.UTC()
	c.Outputs = slices.Clone(m.Outputs)
	if c.Outputs == nil {
		c.Outputs = []string{}
	}
	slices.Sort(c.Outputs)
	c.Outputs = slices.Compact(c.Outputs)
	c.Data = slices.Clone(m.Data)
	if c.Data == nil {
		c.Data = []FileSum{}
	}
	slices.SortStableFunc(c.Data, func(a, b FileSum) int { return cmp.Compare(a.Path, b.Path) })
	// A revision that is not known cannot be said to be modified or
	// not: vcs_modified is null then, and revision_from says what is
	// known instead (CheckSources).
	type plain Manifest
	out := struct {
		*plain
		Modified *bool `json:"vcs_modified"`
	}{plain: (*plain)(&c)}
	if c.Revision != "unknown" && c.Revision != "" {
		out.Modified = &c.Modified
	}
	b, err := json.MarshalIndent(&out, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("report: manifest: %w", err)
	}
	return append(b, '\n'), nil
}

// Write writes m to path as indented JSON (see [Manifest.Marshal]),
// atomically.
func (m *Manifest) Write(path string) error {
	b, err := m.Marshal()
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, b)
}
