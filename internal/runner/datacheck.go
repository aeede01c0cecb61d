package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/safefs"
)

// A run opens the data root and reads its config's data before any cell,
// cached cells or not (the report needs the data too), verifying every
// file it reads against SHA256SUMS: no data root, a file missing or a file
// whose content is not the one SHA256SUMS lists stops it (exit status 2).
// A dry run reads no data to predict the cells; DataChecker checks what
// the run would check first, so that runexp status exits as the run would.

// DataCheck is what a dry run checked of the data a run of one config
// would read (DataChecker.Check).
type DataCheck struct {
	// Needed is false for a config whose dataset needs no data root
	// (synthetic data) and for a shard without cells.
	Needed bool
	// Files are the data files the config's last run read, as its
	// manifest (else its cache entries) lists them; Checked of them were
	// read here and verified against SHA256SUMS, Bytes in all. Files
	// checked for an earlier config of the same dry run count there.
	Files, Checked int
	Bytes          int64
	// Unchecked says why some or all files were not checked ("" when
	// every one was).
	Unchecked string
	// Err is what the run would stop on: the data root missing or
	// unreadable, a file missing or not as SHA256SUMS lists it.
	Err error
}

// DefaultDataCheckBytes bounds what one dry run reads of the data files
// (the whole data root is about 200 MB).
const DefaultDataCheckBytes = 1 << 30

// DataChecker checks the data of the configs of one dry run, each file
// once, within Budget bytes.
type DataChecker struct {
	Budget int64
	read   int64
	roots  map[string]rootOrErr
	files  map[string]error // by data root and path
}

type rootOrErr struct {
	root *datasets.Root
	err  error
}

// NewDataChecker returns a checker reading at most DefaultDataCheckBytes.
func NewDataChecker() *DataChecker {
	return &DataChecker{Budget: DefaultDataCheckBytes, roots: map[string]rootOrErr{}, files: map[string]error{}}
}

// Check checks, for a run of c with opt whose cells are cells (DryRun's),
// what the run checks before its first cell: that the data root opens,
// and that the files the config's last run read are there and as
// SHA256SUMS lists them.
func (d *DataChecker) Check(c *config.Config, opt Options, cells []CellPlan) DataCheck {
	var dc DataCheck
	ds, ok := LookupDataset(c.Dataset.Name)
	if !ok || !ds.NeedsRoot || opt.Shard.Active() && len(cells) == 0 {
		return dc
	}
	dc.Needed = true
	ro, seen := d.roots[opt.DataDir]
	if !seen {
		ro.root, ro.err = datasets.OpenRoot(opt.DataDir)
		d.roots[opt.DataDir] = ro
	}
	if ro.err != nil {
		dc.Err = ro.err
		return dc
	}
	files := lastDataFiles(c, opt, cells)
	dc.Files = len(files)
	if len(files) == 0 {
		dc.Unchecked = "no earlier run of it recorded which files it reads (the run checks each file it reads)"
		return dc
	}
	skipped := 0
	for _, f := range files {
		id := ro.root.Dir + "\x00" + f
		if err, done := d.files[id]; done {
			if err != nil && dc.Err == nil {
				dc.Err = err
			}
			continue
		}
		full := filepath.Join(ro.root.Dir, filepath.FromSlash(f))
		if fi, err := os.Stat(full); err == nil && d.read+fi.Size() > d.Budget {
			skipped++
			continue
		} else if err == nil {
			d.read += fi.Size()
			dc.Bytes += fi.Size()
		}
		// The run's own read: the same checks, the same words.
		_, err := ro.root.ReadFile(f)
		d.files[id] = err
		dc.Checked++
		if err != nil && dc.Err == nil {
			dc.Err = err
		}
	}
	if skipped > 0 {
		dc.Unchecked = fmt.Sprintf("%d files not read: over the dry run's bound of %s", skipped, Bytes(float64(d.Budget)))
	}
	return dc
}

// lastDataFiles returns the data files the config's last run read: its
// result folder's manifest's, else those the cache entries of its cells
// recorded (a few of them: every cell of a config reads its data).
func lastDataFiles(c *config.Config, opt Options, cells []CellPlan) []string {
	dir := ResultDir(c, opt.OutRoot)
	if b, err := safefs.ReadFile(filepath.Join(dir, "manifest.json"), 64<<20); err == nil {
		var m struct {
			Data []report.FileSum `json:"data"`
		}
		if json.Unmarshal(b, &m) == nil && len(m.Data) > 0 {
			var out []string
			for _, f := range m.Data {
				out = append(out, f.Path)
			}
			return out
		}
	}
	if opt.NoCache {
		return nil
	}
	cache := &Cache{Dir: opt.cacheDir()}
	set := map[string]bool{}
	const entries = 4
	n := 0
	for _, p := range cells {
		if n == entries {
			break
		}
		h := p.Key.Hash()
		if !p.Cached {
			var ok bool
			if h, ok = cache.last(c.Name, p.Cell.Key); !ok {
				continue
			}
		}
		old, err := cache.readOld(h)
		if err != nil {
			continue
		}
		n++
		for _, f := range old.Data {
			set[f.Path] = true
		}
	}
	var out []string
	for f := range set {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}
