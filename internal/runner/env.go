package runner

import (
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"sync"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
)

// Env is what an experiment sees of a run: its config, the data root, the
// shared model cache and a logger. It is safe for concurrent use.
type Env struct {
	Config *config.Config
	Log    *slog.Logger
	// CacheDir is the run's cache directory, or "" when caching is off
	// (--no-cache). Besides finished cells it may hold derived data that
	// is costly to recompute (Scene-15 GIST descriptors), under a key
	// naming its inputs by content.
	CacheDir string

	dataFlag string
	rootOnce sync.Once
	root     *datasets.Root
	rootErr  error

	// scope holds the memo keys asked for, when the Env was made for a
	// Plan (nil otherwise).
	scope *memoScope

	// data holds the dataset options Validate parsed, when the Env was
	// made for a Plan.
	data struct {
		parsed bool
		opts   any
	}

	// points is the most training plus test points any LoadData call
	// returned, for the component check.
	pointsMu sync.Mutex
	points   int
}

// memo is shared by every Env of the process: configs run together on the
// same data (Zheng & Lai's four tables, the LPKPCA tables on one set of
// GIST descriptors) compute derived data and model fits once. Keys must
// therefore name their inputs by content, not by role.
//
// An entry lives while a config that asked for it runs: an Env made for a
// Plan holds every key it asked for and lets go of them when its config
// is done (Job.Close), and an entry no config holds any more is dropped,
// so a suite does not keep every config's data and fits to its end. An
// entry asked for outside a config (a nil Env, or one made by NewEnv
// alone: the CLI's denoise, tests) is kept for the process.
var memo = struct {
	sync.Mutex
	m map[string]*memoEntry
}{m: map[string]*memoEntry{}}

type memoEntry struct {
	once sync.Once
	v    any
	err  error
	refs int  // configs (Envs of a Plan) holding the entry
	kept bool // asked for outside a config: kept for the process
}

// memoScope is the memo keys an Env of a Plan holds; memo's lock guards
// it.
type memoScope struct {
	keys map[string]bool
}

// hold records that e asked for key, whose entry is ent. memo is locked.
func (e *Env) hold(key string, ent *memoEntry) {
	switch {
	case e == nil || e.scope == nil:
		ent.kept = true
	case !e.scope.keys[key]:
		e.scope.keys[key] = true
		ent.refs++
	}
}

// releaseMemo lets go of every memo entry e holds: an entry no other
// config holds is dropped, and its value goes with the last reference to
// it. It is safe to call more than once.
func (e *Env) releaseMemo() {
	if e == nil || e.scope == nil {
		return
	}
	memo.Lock()
	defer memo.Unlock()
	for key := range e.scope.keys {
		ent := memo.m[key]
		if ent.refs--; ent.refs == 0 && !ent.kept {
			delete(memo.m, key)
		}
	}
	e.scope.keys = map[string]bool{}
}

// Memo returns the value computed by fn under key, calling fn once
// however many cells, configs or goroutines ask while the value lives
// (see memo); the others wait for it. An error is remembered like a
// value. The key must name, by content, everything fn reads (a data hash,
// the kernel, the options), and nothing it does not, so that every caller
// that can share a value does. It is the one place derived data shared
// across cells lives.
func Memo[T any](env *Env, key string, fn func() (T, error)) (T, error) {
	memo.Lock()
	ent, ok := memo.m[key]
	if !ok {
		ent = &memoEntry{}
		memo.m[key] = ent
	}
	env.hold(key, ent)
	memo.Unlock()
	ent.once.Do(func() {
		if env != nil {
			env.Log.Debug("computing shared value", "key", key)
		}
		ent.v, ent.err = fn()
	})
	v, ok := ent.v.(T)
	if !ok && ent.err == nil {
		var zero T
		return zero, fmt.Errorf("runner: memo key %q holds %T, not %T", key, ent.v, zero)
	}
	return v, ent.err
}

// NewEnv returns an environment for cfg; dataFlag is the --data value ("" to
// fall back to RUNEXP_DATA).
func NewEnv(cfg *config.Config, dataFlag string, log *slog.Logger) *Env {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Env{Config: cfg, Log: log, dataFlag: dataFlag}
}

// env returns an environment for the plan's config that hands LoadData
// the dataset options the plan parsed and holds the memo entries it asks
// for until releaseMemo.
func (p *Plan) env(c *config.Config, dataFlag string, log *slog.Logger) *Env {
	e := NewEnv(c, dataFlag, log)
	e.data.parsed, e.data.opts = true, p.DataOptions
	e.scope = &memoScope{keys: map[string]bool{}}
	return e
}

// Root opens the data root on first use, so synthetic data needs none.
func (e *Env) Root() (*datasets.Root, error) {
	e.rootOnce.Do(func() { e.root, e.rootErr = datasets.OpenRoot(e.dataFlag) })
	return e.root, e.rootErr
}

// DataFiles lists the data files read so far with their SHA-256.
func (e *Env) DataFiles() []report.FileSum {
	if e.root == nil {
		return nil
	}
	var out []report.FileSum
	for _, f := range e.root.Files() {
		out = append(out, report.FileSum{Path: f.Path, SHA256: f.SHA256})
	}
	return out
}

// Rand returns a stream derived from the root seed and purpose (e.g.
// "data", "corruption"), the same whatever cells or workers there are.
func (e *Env) Rand(purpose string) *rand.Rand { return NewRand(e.Config.Seed, purpose) }

// LoadData loads the config's dataset with the stream "data", with the
// options Validate parsed (parsed here when the Env was made without a
// Plan).
func (e *Env) LoadData() (*Data, error) {
	spec, ok := LookupDataset(e.Config.Dataset.Name)
	if !ok {
		return nil, fmt.Errorf("runner: unknown dataset %q", e.Config.Dataset.Name)
	}
	opts, err := e.dataOptions(spec)
	if err != nil {
		return nil, err
	}
	d, err := e.LoadDataset(spec, opts)
	if err == nil && d != nil {
		n := 0
		for _, s := range []*datasets.Set{d.Train, d.Test} {
			if s != nil && s.X != nil {
				r, _ := s.X.Dims()
				n += r
			}
		}
		e.pointsMu.Lock()
		e.points = max(e.points, n)
		e.pointsMu.Unlock()
	}
	return d, err
}

// dataOptions returns the config's parsed dataset options: the Plan's,
// or parsed now.
func (e *Env) dataOptions(spec *DatasetSpec) (any, error) {
	if e.data.parsed {
		return e.data.opts, nil
	}
	if spec.Parse == nil {
		return nil, nil
	}
	return spec.Parse(e.Config.Dataset.Options)
}

// LoadDataset loads a dataset with options its Parse returned, opening
// the data root first when the dataset needs one. LoadData loads the
// config's own; an experiment that names others (the matrix's
// benchmarks) loads them here.
func (e *Env) LoadDataset(spec *DatasetSpec, opts any) (*Data, error) {
	var root *datasets.Root
	if spec.NeedsRoot {
		var err error
		if root, err = e.Root(); err != nil {
			return nil, err
		}
	}
	return spec.Load(e, root, opts)
}

// checkComponents refuses a model.components value above the number of
// points the data has: no kernel PCA fitted on them has more components,
// so every such cell would fail. It runs once the data is loaded, before
// any cell.
func (e *Env) checkComponents() error {
	e.pointsMu.Lock()
	n := e.points
	e.pointsMu.Unlock()
	if n == 0 {
		return nil
	}
	for _, q := range e.Config.Model.Components {
		if q > n {
			return componentsError(e.Config, q, n)
		}
	}
	return nil
}

// Model returns the model cached under key, fitting it with fit the first
// time in this process. Keys name what the fit depends on — the training
// data by content (a hash), the kernel and its width — never the PC count
// or an estimator parameter, so every such cell, of any config run in the
// same process, shares one eigendecomposition.
func (e *Env) Model(key string, fit func() (*methods.KPCA, error)) (*methods.KPCA, error) {
	return Memo(e, "model|"+key, fit)
}

// Output is where an experiment's report goes.
type Output struct {
	// Dir is the result directory.
	Dir string
	// Tables are printed to the terminal and written to tables.md and
	// tables.txt, in order.
	Tables []*report.Table
	cfg    *config.Config
	mu     sync.Mutex
	files  map[string]bool
	err    error
}

func newOutput(dir string, cfg *config.Config) *Output {
	return &Output{Dir: dir, cfg: cfg, files: map[string]bool{}}
}

// Path returns the path of a result file and records it as an output.
// A name that is not a plain file name (a separator, "..", an absolute
// path) would write outside Dir: it is refused (see Err) and the path
// returned is a harmless one inside Dir.
func (o *Output) Path(name string) string {
	o.mu.Lock()
	defer o.mu.Unlock()
	if err := config.CheckFileName(name); err != nil {
		if o.err == nil {
			o.err = fmt.Errorf("output %q refused: %v", name, err)
		}
		return filepath.Join(o.Dir, ".refused")
	}
	o.files[name] = true
	return filepath.Join(o.Dir, name)
}

// Err returns the first output name refused by Path, SavePlot or SaveGrid.
func (o *Output) Err() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.err
}

// Add records files written under Dir (absolute or relative paths).
func (o *Output) Add(paths ...string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	for _, p := range paths {
		if rel, err := filepath.Rel(o.Dir, p); err == nil && filepath.IsAbs(p) == filepath.IsAbs(o.Dir) {
			p = rel
		}
		o.files[filepath.ToSlash(p)] = true
	}
}

// Files returns the outputs recorded so far that exist as files, sorted:
// a name asked for with Path but never written (a figure an experiment
// skipped, or a base name whose files carry extensions) is not listed.
func (o *Output) Files() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	out := make([]string, 0, len(o.files))
	for f := range o.files {
		if fi, err := os.Stat(filepath.Join(o.Dir, filepath.FromSlash(f))); err != nil || !fi.Mode().IsRegular() {
			continue
		}
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Size returns the figure panel size: the config's outputs.width/height
// in centimetres, or the defaults given.
func (o *Output) Size(defW, defH vg.Length) (vg.Length, vg.Length) {
	w, h := defW, defH
	if o.cfg != nil && o.cfg.Outputs.Width > 0 {
		w = vg.Length(o.cfg.Outputs.Width) * vg.Centimeter
	}
	if o.cfg != nil && o.cfg.Outputs.Height > 0 {
		h = vg.Length(o.cfg.Outputs.Height) * vg.Centimeter
	}
	return w, h
}

// SavePlot writes name.png and name.svg.
func (o *Output) SavePlot(p *plot.Plot, w, h vg.Length, name string) error {
	if err := config.CheckFileName(name); err != nil {
		return fmt.Errorf("figure %q refused: %v", name, err)
	}
	files, err := report.SavePlot(p, w, h, filepath.Join(o.Dir, name))
	o.Add(files...)
	return err
}

// SaveGrid writes a grid of panels as name.png and name.svg.
func (o *Output) SaveGrid(panels [][]*plot.Plot, w, h vg.Length, name string) error {
	if err := config.CheckFileName(name); err != nil {
		return fmt.Errorf("figure %q refused: %v", name, err)
	}
	files, err := report.SaveGrid(panels, w, h, filepath.Join(o.Dir, name))
	o.Add(files...)
	return err
}
