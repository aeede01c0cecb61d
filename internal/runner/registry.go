package runner

import (
	"fmt"
	"runtime"

	"github.com/runexp/runexp/internal/claims"
	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/datasets"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/registry"
	"github.com/runexp/runexp/internal/report"
)

// Kind is an experiment kind: how a family of paper tables or figures is
// computed and drawn. Build one with Define, which gives Parse and Start
// the kind's own options type.
type Kind struct {
	Name string
	Doc  string
	// Parse reads the kind's options from a config and checks every
	// kind-specific part of it (experiment options, which model and
	// methods it needs) without loading data. Validate calls it once; its
	// value is what Start receives.
	Parse func(c *config.Config) (any, error)
	// Start prepares what every cell shares: data, corruption. It runs
	// once, with the options Parse returned.
	Start func(env *Env, opts any) (Instance, error)
	// Version names the numerics of Run; the cell cache keys on it, so
	// bump it whenever a change alters a cell's record. Empty means "1".
	// The key also holds a fingerprint of the kind's code (File), so the
	// version is an extra lever, not the only guard.
	Version string
	// File is the source file that registered the kind (RegisterKind
	// fills it in from runtime.Caller).
	File string
	// Metrics lists the metric names the kind's records can hold for the
	// config c with the parsed options opts: the kind's own Metric
	// constants and the names its families build for these options, or,
	// where a part of a name is only known at run time (what an
	// estimator reports), a pattern with * for that part. Validate
	// rejects claims and reference values naming any other metric, and
	// names the closest of these; a kind that lists none gets no such
	// check. Build it with MetricsOf, which gives opts its own type.
	Metrics func(c *config.Config, opts any) []report.Metric
	// Items, when set, says how a metric of the kind's records is
	// computed from per-item arrays of the record, so that claims on it
	// get an interval verdict beside the point verdict (package claims,
	// ItemStat): a BCa bootstrap over test items (and corruption
	// repeats) for the denoise kind's errors, a t-interval over splits
	// for classify's paired gains (ItemStat.Paired), where five splits
	// are too few for a bootstrap.
	Items func(rec *report.Record, metric string) (claims.ItemStat, bool)
	// Takes is what every estimator in the kind's methods must do
	// (methods.PreImages, methods.Denoises or methods.Imputes); it is
	// how --with knows which kinds an added estimator can join. Zero
	// means the kind takes no estimators from its config (its methods
	// are fixed by the experiment, e.g. distortion and classify), and
	// --with skips it.
	Takes methods.Capability
	// Shape, when set, checks the data's shape as the dataset's options
	// give it (Validate's estimate, before anything is loaded) against
	// the kind's options: a point of another dimension than the data's,
	// say. Start checks the loaded data again.
	Shape func(c *config.Config, opts any, s Shape) error
	// Needs is what the kind asks of every config's model and methods
	// beyond its own options; Validate checks it after Parse.
	Needs Needs
	// PointReason, when set, says why a metric of the kind's records has
	// no per-item evidence ("one clustering of every image: nothing to
	// resample"), the reason a claim on it keeps its point verdict
	// (claims.Options.PointReason); "" for the generic reason.
	PointReason func(metric string) string
	// Tolerance, when set, gives the absolute difference within which two
	// values of a metric of the kind's records are equal to rounding (the
	// metric's resolution, with the words that say so): a claim whose two
	// sides lie within it cannot discriminate them
	// (claims.Options.Tolerance); 0 for the default 1e-9 relative.
	Tolerance func(metric string) (float64, string)
	// Parts, when set, splits a cell into independent parts, so that no
	// unit of work the pool or a shard schedules is a long cell
	// (parts.go): the number of parts of each stage of the cell, from
	// the config and its options alone (shards number the parts before
	// any data is read). The kind's Instance then implements Parted, and
	// its Run calls RunParts. Nil, or one stage of one part, computes
	// the cell whole.
	Parts func(c *config.Config, opts any, cell *Cell) []int
	// Repeats marks a kind that honours repeats: N (config.Repeats): it
	// runs every cell on N corruption draws, draw r seeded by
	// RepeatSeed(root, r) and shared by every method, and concatenates
	// its per-item arrays over the draws. Validate rejects repeats on
	// any other kind.
	Repeats bool
	// KeyParams, when set, gives the parameters a cell's key and record
	// show where the kind sets one from the data rather than running
	// the value bound from the estimator's defaults (Huang et al.'s
	// neighbour count, "mean-distance": the count differs per model,
	// and the bound 10 never runs), so that the key says what ran; nil
	// (or a nil map) leaves the cell as bound. Validate applies it after
	// Parse; the cell's random stream stays that of its bound key, so
	// showing the value changes no number. Build it with KeyParamsOf.
	KeyParams func(c *config.Config, opts any, cell *Cell) map[string]any
}

// KeyParamsOf returns a Kind.KeyParams of a kind defined with options of
// the type O (Define); options of another type change nothing.
func KeyParamsOf[O any](f func(c *config.Config, o O, cell *Cell) map[string]any) func(*config.Config, any, *Cell) map[string]any {
	return func(c *config.Config, opts any, cell *Cell) map[string]any {
		o, ok := opts.(O)
		if !ok {
			return nil
		}
		return f(c, o, cell)
	}
}

// Needs is what a kind asks of a config's model and methods: the checks
// kinds share, declared instead of written again in each kind's Parse.
type Needs struct {
	// Model asks for a kernel and a subspace size (components or
	// energy).
	Model bool
	// Methods, when set, asks for at least one method; it ends the
	// refusal "methods: KIND needs …" ("at least one estimator").
	Methods string
	// Why, when set, asks every method to have the capability the kind
	// Takes; it ends the refusal of one that has not, saying what the
	// kind does with it ("stability starts a pre-image iteration from
	// training points").
	Why string
	// Starts, when set, says where the kind starts every pre-image
	// iteration itself (methods.Problem.Start: "every training point"):
	// a method's own start rule is not used, so a config that sets one
	// is refused, and a report says so beside the rule's default.
	Starts string
}

// check refuses a config that lacks what n asks for, at its line.
func (n Needs) check(c *config.Config, k *Kind) error {
	if n.Model && (c.Model.Kernel == "" || (len(c.Model.Components) == 0 && len(c.Model.Energy) == 0)) {
		return c.ModelErrorf("model: %s needs a kernel and components (or energy)", k.Name)
	}
	if n.Methods != "" && len(c.Methods) == 0 {
		return c.Errorf(0, "methods: %s needs %s", k.Name, n.Methods)
	}
	if n.Why == "" {
		return nil
	}
	for i, m := range c.Methods {
		// Unknown names are left to Cells, which lists the registered
		// ones.
		if spec, ok := methods.Lookup(m.Name); ok && !spec.Can(k.Takes) {
			return c.Errorf(m.Line, "methods[%d]: %s is not a %s estimator (it does %s); %s", i, m.Name, k.Takes, spec.Does, n.Why)
		}
		if n.Starts != "" && m.Params.Has("start") {
			return m.Params.Errorf("start", "methods[%d].params.start: %s starts every iteration itself, from %s, so a start rule is not used: remove it", i, k.Name, n.Starts)
		}
	}
	return nil
}

// RepeatSeed returns the seed of corruption draw r (0-based). Draw 0 is
// the seed a kind without repeats uses, DeriveSeed(root, "corruption"),
// so repeats: 1 reproduces a run without repeats byte for byte.
func RepeatSeed(root uint64, r int) uint64 {
	if r == 0 {
		return DeriveSeed(root, "corruption")
	}
	return DeriveSeed(root, fmt.Sprintf("corruption/repeat=%d", r))
}

// Define returns a Kind whose options are parsed once, by parse, when a
// config is validated, and handed to start with their own type O: a kind
// never parses its options twice or asserts their type.
func Define[O any](name, doc string, parse func(*config.Config) (O, error), start func(*Env, O) (Instance, error)) Kind {
	return Kind{
		Name:  name,
		Doc:   doc,
		Parse: func(c *config.Config) (any, error) { return parse(c) },
		Start: func(env *Env, opts any) (Instance, error) {
			o, ok := opts.(O)
			if !ok {
				return nil, fmt.Errorf("runner: kind %s started with options of type %T, want %T", name, opts, o)
			}
			return start(env, o)
		},
	}
}

// MetricsOf returns a Kind.Metrics of a kind defined with options of the
// type O (Define): names is handed the options with their own type. Options
// of another type list no names, which refuses every claim on a metric.
func MetricsOf[O any](names func(c *config.Config, o O) []report.Metric) func(*config.Config, any) []report.Metric {
	return func(c *config.Config, opts any) []report.Metric {
		o, ok := opts.(O)
		if !ok {
			return nil
		}
		return names(c, o)
	}
}

// Instance is a prepared experiment.
type Instance interface {
	// Run computes one cell into rec (Key, Seed and Params are filled in).
	// An error marks the cell failed with that reason; numerical trouble in
	// some rows should instead be counted in metrics and set Status to
	// "partial".
	Run(cell *Cell, rec *report.Record) error
	// Report draws figures and builds tables from the records of every
	// cell, in grid order. It may only use the records and the prepared
	// data, so merged shards report exactly like one run.
	Report(out *Output, recs []report.Record) error
}

// DatasetSpec describes a dataset a config can name. Build one with
// DefineDataset, which gives Parse, Shape and Load the dataset's own
// options type.
type DatasetSpec struct {
	Name string
	Doc  string
	// NeedsRoot is false for synthetic data.
	NeedsRoot bool
	// Parse reads and checks the dataset options of a config, without
	// loading anything. Validate calls it once; its value is what Shape
	// and Load receive.
	Parse func(opts config.Section) (any, error)
	// Shape gives the data's size from the parsed options (exact, or an
	// upper bound where the data root decides), for Validate's resource
	// estimate; nil for a dataset that cannot tell (no estimate).
	Shape func(opts any) Shape
	// Load reads (or draws, with env.Rand("data")) the data the parsed
	// options describe. root is the opened data root when NeedsRoot is
	// set, nil otherwise.
	Load func(env *Env, root *datasets.Root, opts any) (*Data, error)
	// File is the source file that registered the dataset (filled in by
	// RegisterDataset); the cell cache keys on its code's fingerprint.
	File string
}

// Dataset is what DefineDataset needs to know of a dataset whose options
// have the type O.
// Its fields are DatasetSpec's, typed: Parse (NoOptions for a dataset
// that takes none), Shape (optional) and Load take the options as O.
type Dataset[O any] struct {
	Name, Doc string
	NeedsRoot bool
	Parse     func(opts config.Section) (O, error)
	Shape     func(o O) Shape
	Load      func(env *Env, root *datasets.Root, o O) (*Data, error)
}

// DefineDataset returns a DatasetSpec whose options are parsed once, by
// d.Parse, when a config is validated, and handed to Shape and Load with
// their own type O, Load with the data root it needs: a dataset never
// parses its options twice, asserts their type or opens the root itself.
func DefineDataset[O any](d Dataset[O]) DatasetSpec {
	spec := DatasetSpec{
		Name:      d.Name,
		Doc:       d.Doc,
		NeedsRoot: d.NeedsRoot,
		Parse:     func(s config.Section) (any, error) { return d.Parse(s) },
		Load: func(env *Env, root *datasets.Root, opts any) (*Data, error) {
			o, ok := opts.(O)
			if !ok {
				return nil, fmt.Errorf("runner: dataset %s loaded with options of type %T, want %T", d.Name, opts, o)
			}
			return d.Load(env, root, o)
		},
	}
	if d.Shape != nil {
		spec.Shape = func(opts any) Shape { return d.Shape(opts.(O)) }
	}
	return spec
}

// NoOptions is the Parse of a dataset that takes no options: any option
// given is an error.
func NoOptions(s config.Section) (struct{}, error) {
	return struct{}{}, s.Reader("dataset").Err()
}

// Data is a loaded dataset: training points and, where the protocol has
// them, separate test points.
type Data struct {
	Train *datasets.Set
	Test  *datasets.Set
}

var (
	kinds    = registry.New[Kind]("runner: kind")
	datasetR = registry.New[DatasetSpec]("runner: dataset")
)

// RegisterKind adds an experiment kind; duplicates panic.
func RegisterKind(k Kind) {
	if k.File == "" {
		_, k.File, _, _ = runtime.Caller(1)
	}
	kinds.Add(k.Name, k)
}

// RegisterDataset adds a dataset; duplicates panic.
func RegisterDataset(d DatasetSpec) {
	if d.File == "" {
		_, d.File, _, _ = runtime.Caller(1)
	}
	datasetR.Add(d.Name, d)
}

// Kinds returns the registered kinds sorted by name.
func Kinds() []*Kind { return kinds.All() }

// Datasets returns the registered datasets sorted by name.
func Datasets() []*DatasetSpec { return datasetR.All() }

// LookupKind returns the kind registered under name.
func LookupKind(name string) (*Kind, bool) { return kinds.Lookup(name) }

// LookupDataset returns the dataset registered under name.
func LookupDataset(name string) (*DatasetSpec, bool) { return datasetR.Lookup(name) }
