package paperreport

import (
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"

	"github.com/runexp/runexp"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/report"
	"github.com/runexp/runexp/internal/runner"
)

// implementation writes the Implementation: the language and the
// libraries (go.mod's direct requirements), the source file of each
// estimator, experiment kind and dataset loader the paper's configs use
// and what each implements (the registries' own records: methods.Spec,
// runner.Kind, runner.DatasetSpec), the revision that computed the
// results, how to rerun them and what it took.
func (b *builder) implementation() error {
	d := &b.d
	d.h(2, "Implementation")
	libs := goModRequires(runexp.GoMod)
	var ls []string
	citedHere := map[string]bool{}
	for i, l := range libs {
		s := "`" + l[0] + "` " + l[1]
		// One citation per work, after the last library it covers.
		keys := b.bib.keysFor("library:" + l[0])
		later := false
		for _, n := range libs[i+1:] {
			later = later || slices.Equal(b.bib.keysFor("library:"+n[0]), keys)
		}
		if len(keys) > 0 && !later && !citedHere[keys[0]] {
			s += b.citeKeys(keys...)
			citedHere[keys[0]] = true
		}
		ls = append(ls, s)
	}
	d.p("runexp is written in Go (this report was written by a build with " + runtime.Version() + "; the Go version that computed the results is under Compute) with no code of the papers' authors: every method is our implementation from the paper that states it. It uses the libraries its go.mod requires directly: " + strings.Join(ls, ", ") + ". Dense linear algebra is gonum's pure Go, or OpenBLAS through gonum's netlib bindings in a build with the openblas tag; a result records which (Compute).")
	var rows [][]string
	seen := map[string]bool{}
	for _, r := range b.base {
		for _, m := range r.Config.Methods {
			if seen[m.Name] || m.Added {
				continue
			}
			seen[m.Name] = true
			spec, ok := methods.Lookup(m.Name)
			if !ok {
				rows = append(rows, []string{lit(m.Name), lit(labelsOf(b.base, m.Name)), "not registered in this build", ""})
				continue
			}
			rows = append(rows, []string{"`" + m.Name + "`", lit(labelsOf(b.base, m.Name)), "`" + sourcePath(spec.File) + "`", spec.Source + b.cite("estimator:"+m.Name)})
		}
	}
	if len(rows) > 0 {
		d.p("The estimators the configs of the stated protocol run, each as the configs label it, the file that implements it (its registration, runexp list estimators) and what it implements, as the estimator's own record says:")
		d.table([]string{"estimator", "labelled", "source file", "implements"}, rows)
	}
	b.kindsAndData()
	b.compute()
	b.reproduce()
	return nil
}

// kindsAndData writes the experiment kinds and the dataset loaders the
// configs of the stated protocol use, each with its source file and what
// it does, from the registries.
func (b *builder) kindsAndData() {
	d := &b.d
	var kinds [][]string
	seenKind := map[string]bool{}
	for _, r := range b.base {
		c := r.Config
		if seenKind[c.Kind] {
			continue
		}
		seenKind[c.Kind] = true
		var cfgs []string
		for _, x := range b.base {
			if x.Config.Kind == c.Kind {
				cfgs = append(cfgs, "`"+x.Config.Name+"`")
			}
		}
		k, ok := runner.LookupKind(c.Kind)
		if !ok {
			kinds = append(kinds, []string{"`" + c.Kind + "`", strings.Join(cfgs, ", "), "not registered in this build", ""})
			continue
		}
		kinds = append(kinds, []string{"`" + c.Kind + "`", strings.Join(cfgs, ", "), "`" + sourcePath(k.File) + "`", k.Doc + b.cite("kind:"+c.Kind)})
	}
	d.p("The experiment kinds, which prepare the data, run the cells and draw the tables and figures:")
	d.table([]string{"kind", "configs", "source file", "what it does"}, kinds)
	var sets [][]string
	seenSet := map[string]bool{}
	for _, r := range b.base {
		name := r.Config.Dataset.Name
		if seenSet[name] {
			continue
		}
		seenSet[name] = true
		ds, ok := runner.LookupDataset(name)
		if !ok {
			sets = append(sets, []string{"`" + name + "`", "not registered in this build", ""})
			continue
		}
		sets = append(sets, []string{"`" + name + "`", "`" + sourcePath(ds.File) + "`", ds.Doc + b.cite("dataset:"+name)})
	}
	d.p("The datasets, each read from the data root and checked against its SHA256SUMS (never part of the repository):")
	d.table([]string{"dataset", "loader", "what it is"}, sets)
}

// labelsOf lists the labels the configs give estimator name.
func labelsOf(runs []*run, name string) string {
	var ls []string
	for _, r := range runs {
		for _, m := range r.Config.Methods {
			l := m.Label
			if l == "" {
				l = m.Name
				if spec, ok := methods.Lookup(m.Name); ok {
					l = spec.Title
				}
			}
			if m.Name == name && !slices.Contains(ls, l) {
				ls = append(ls, l)
			}
		}
	}
	return strings.Join(ls, "; ")
}

// sourcePath is a registered file's path inside the repository: the
// build's absolute path (runtime.Caller's) or module path cut at the
// module's root.
func sourcePath(file string) string {
	file = filepath.ToSlash(file)
	if rest, ok := strings.CutPrefix(file, runexp.Module+"/"); ok {
		return rest
	}
	for _, top := range []string{"/internal/", "/experiments/"} {
		if i := strings.LastIndex(file, top); i >= 0 {
			// The last /internal/ is a package's own folder, except in
			// experiments/internal/...: take the first of the two tops
			// that starts the module's tree.
			j := strings.Index(file, "/experiments/")
			if j >= 0 && j < i {
				i = j
			}
			return file[i+1:]
		}
	}
	return filepath.Base(file)
}

// goModRequires returns the direct requirements of a go.mod (path and
// version), in its order: the libraries the code uses.
func goModRequires(mod string) [][2]string {
	var out [][2]string
	in := false
	for _, l := range strings.Split(mod, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(l, "require ("):
			in = true
			continue
		case in && l == ")":
			in = false
			continue
		case strings.HasPrefix(l, "require ") && !strings.Contains(l, "("):
			l = strings.TrimPrefix(l, "require ")
		case !in:
			continue
		}
		if strings.Contains(l, "// indirect") {
			continue
		}
		f := strings.Fields(l)
		if len(f) >= 2 {
			out = append(out, [2]string{f[0], f[1]})
		}
	}
	return out
}

// revisions are the revisions that computed the paper's results: each
// run's manifest's, else its baseline revision.json's (where it describes
// the records beside it), with where each was read; none when the root
// records none.
func (b *builder) revisions() (revs []string, from []string) {
	missing := 0
	for _, r := range b.runs() {
		var rev, src string
		switch {
		case r.Manifest != nil && r.Manifest.Revision != "":
			rev = r.Manifest.Revision
			if r.Manifest.Modified {
				rev += " (with uncommitted changes)"
			}
			src = "the runs' manifest.json"
		case r.Revision != nil:
			rev = r.Revision.Revision
			if r.Revision.Modified {
				rev += " (with uncommitted changes)"
			}
			src = "the baseline's revision.json"
			if r.Revision.From != "" {
				src += ", " + r.Revision.From
			}
		default:
			if r.Ran {
				missing++
			}
			continue
		}
		if !slices.Contains(revs, rev) {
			revs = append(revs, rev)
		}
		if !slices.Contains(from, src) {
			from = append(from, src)
		}
	}
	if len(revs) > 0 && missing > 0 {
		// Records refreshed by a build that recorded no revision: say
		// so rather than credit them to the others' revision.
		from = append(from, b.counted(missing, "config's results record", "configs' results record")+" no revision")
	}
	return revs, from
}

// revisionText names the revision of the code that computed the results,
// or says the root records none (then the binary writing the report is
// named for what it is).
func (b *builder) revisionText() string {
	revs, _ := b.revisions()
	if len(revs) == 0 {
		return "not recorded in the results; this report was written by " + BinaryRevision()
	}
	for _, r := range revs {
		b.noteHex(r)
	}
	return strings.Join(revs, ", ")
}

// noteHex notes the digit runs of a commit id as numbers the report
// copies from its sources (a hash that starts with digits reads as a
// number to the numbers-trace test).
func (b *builder) noteHex(s string) {
	for _, n := range digitRun.FindAllString(s, -1) {
		b.counts = append(b.counts, n+": in a commit id")
	}
}

func (b *builder) compute() {
	d := &b.d
	d.h(3, "Compute")
	bySuite := map[string]suiteRun{}
	if b.suite != nil {
		for _, s := range b.suite.Runs {
			bySuite[s.Name] = s
		}
	}
	var rows [][]string
	var machine, costMachines []string
	for _, r := range b.runs() {
		if !r.Ran {
			continue
		}
		cells, failed, wall, cpu, workers := "not recorded", "not recorded", "not recorded", "not recorded", "not recorded"
		if r.HasRecords {
			cells = b.count(r.Cells, "records of "+r.Config.Name)
			failed = b.count(r.Failed, "records of "+r.Config.Name+" not ok")
		}
		if m := r.Manifest; m != nil {
			wall = seconds(m.WallSeconds)
			workers = strconv.Itoa(m.Workers)
			mc := b.machineText(m)
			if !slices.Contains(machine, mc) {
				machine = append(machine, mc)
			}
		}
		if s, ok := bySuite[r.Config.Name]; ok {
			cpu = seconds(s.CPUSeconds)
			if wall == "not recorded" {
				wall = seconds(s.Seconds)
			}
		} else if c, ok := b.cellCosts(r); ok {
			cpu = b.derived(seconds(c.sum), "the sum of the cells' CPU seconds in "+r.Config.Name+"/costs.json") + " (cells, costs.json)"
			if c.Machine != "" && !slices.Contains(costMachines, c.Machine) {
				costMachines = append(costMachines, c.Machine)
			}
		}
		rows = append(rows, []string{"`" + r.Config.Name + "`", cells, failed, wall, cpu, workers, b.peakText(r.Manifest)})
	}
	switch {
	case len(machine) > 0:
		d.p("Machine and build, as the manifests record them: " + strings.Join(machine, "; ") + ".")
	case len(costMachines) > 0:
		d.p("Machine: " + lit(strings.Join(costMachines, "; ")) + ", as the cells' costs record it (costs.json: the CPU seconds of each cell when last computed, from which runexp plans runs); build, wall time and memory: not recorded (this results root keeps no manifest.json or suite.json, as a baseline keeps only what the comparison, the planning and the reports read).")
	default:
		d.p("Machine, build, wall and CPU time: not recorded (this results root keeps no manifest.json or suite.json, as a baseline keeps only what the comparison reads).")
	}
	if b.suite != nil {
		d.p("The whole suite that wrote this root: " + seconds(b.suite.Seconds) + " s wall, " + seconds(b.suite.CPUSeconds) + " s CPU on " + strconv.Itoa(b.suite.Workers) + " workers (suite.json).")
	}
	d.fold("Per config: cells, failed cells, wall and CPU seconds, workers, peak memory", func() {
		d.p("Cells and failed cells from records.jsonl, wall seconds, workers and the peak memory of the process that ran it from manifest.json (a suite runs every config in one process, so there it bounds the config's own peak from above), CPU seconds from suite.json, or the sum of the cells' CPU seconds in costs.json where a baseline keeps that instead; \"not recorded\" where the results root lacks the file.")
		d.table([]string{"config", "cells", "failed", "wall (s)", "CPU (s)", "workers", "peak memory (MiB)"}, rows)
	})
}

// cellCostsFile is what the report reads of a baseline's costs.json.
type cellCostsFile struct {
	Machine string             `json:"machine"`
	Costs   map[string]float64 `json:"costs"`
	sum     float64
}

// cellCosts reads run r's costs.json (a baseline keeps one per config:
// each cell's CPU seconds when last computed) and sums its cells; ok is
// false when there is none.
func (b *builder) cellCosts(r *run) (cellCostsFile, bool) {
	var c cellCostsFile
	if ok, err := report.ReadOptionalJSON(b.o.Root, filepath.Join(r.Dir, "costs.json"), &c); !ok || err != nil || len(c.Costs) == 0 {
		return c, false
	}
	keys := make([]string, 0, len(c.Costs))
	for k := range c.Costs {
		keys = append(keys, k)
	}
	// Summed in key order: the same bits whatever the map's order.
	slices.Sort(keys)
	for _, k := range keys {
		c.sum += c.Costs[k]
	}
	return c, true
}

// seconds formats a duration in seconds for a reader: four significant
// digits, at most one decimal ("4154 s", "3.9 s", "0.0123 s").
func seconds(s float64) string {
	switch {
	case s >= 100:
		return strconv.FormatFloat(s, 'f', 0, 64)
	case s >= 1:
		return strconv.FormatFloat(s, 'f', 1, 64)
	}
	return report.FormatFloat(s, 3)
}

func (b *builder) reproduce() {
	d := &b.d
	d.h(3, "Revision and how to rerun")
	revs, from := b.revisions()
	if len(revs) == 0 {
		d.p("The results root records no revision (no manifest.json, no baseline revision.json); the build writing this report is " + BinaryRevision() + ".")
	} else {
		d.p("The results were computed by revision " + b.revisionText() + " of runexp (" + strings.Join(from, "; ") + ").")
	}
	var names []string
	for _, r := range b.runs() {
		names = append(names, r.Config.Name)
	}
	out, with, added := b.reproduceWith()
	if len(added) > 0 {
		var items []string
		for _, a := range added {
			items = append(items, lit(a.Label)+": "+codeOrLit("--with "+a.Quoted)+", parameters "+lit(a.Params)+"; ran with "+lit(a.Ran))
		}
		d.p("Estimators added on the command line (runexp --with), beside the configs' own methods:")
		d.ul(items)
	}
	d.p("With RUNEXP_DATA naming the data root (the folder holding SHA256SUMS) and a checkout at that revision, these commands rerun every config of this report into a folder of its own, compare it with the committed baseline cell by cell, and write this report from it (the baseline/ folder itself is only ever rewritten by `--write-baseline`):")
	d.ul([]string{
		codeOrLit("runexp suite --baseline baseline --out " + report.ShellQuote(relName(out)) + with + " " + strings.Join(names, " ")),
		codeOrLit("runexp report --results " + report.ShellQuote(b.rerunRoot(out)) + " " + b.paper),
	})
	sums := map[string]string{}
	var paths []string
	for _, r := range b.runs() {
		if r.Manifest == nil {
			continue
		}
		for _, f := range r.Manifest.Data {
			if _, ok := sums[f.Path]; !ok {
				paths = append(paths, f.Path)
			}
			sums[f.Path] = f.SHA256
		}
	}
	if len(paths) == 0 {
		d.p("Data checksums: the data root's SHA256SUMS, which every run checks each file against (this results root keeps no manifest listing the files read).")
		return
	}
	slices.Sort(paths)
	const shown = 12
	var items []string
	for _, p := range paths[:min(len(paths), shown)] {
		items = append(items, "`"+p+"` sha256 `"+sums[p]+"`")
	}
	d.fold(fmt.Sprintf("Data files read: %s (SHA-256 from the manifests)", b.count(len(paths), "distinct data files in the manifests")), func() { d.ul(items) })
}

// reproduceWith returns what the reproduce commands need of the estimators
// added on the command line: the --out that writes the results root (its
// parent when the root is a --with folder, OUT/with-SLUG), the --with
// flags as a command line's words, and the added estimators as rows. A
// root that is the committed baseline is rerun into results/, never
// into baseline/.
func (b *builder) reproduceWith() (out, flags string, added []report.AddedRow) {
	var specs []string
	for _, r := range b.runs() {
		if r.Manifest == nil {
			continue
		}
		for _, a := range report.AddedRows(r.Manifest.With) {
			if !slices.Contains(specs, a.Spec) {
				specs = append(specs, a.Spec)
				flags += " --with " + a.Quoted
			}
			if !strings.HasPrefix(a.Ran, "skipped") && !slices.Contains(added, a) {
				added = append(added, a)
			}
		}
	}
	out = b.o.Root
	if b.isBaseline() {
		out = "results"
	}
	switch {
	case len(specs) == 0:
	case strings.HasPrefix(filepath.Base(filepath.Clean(out)), "with-"):
		// The default folder of a --with run, OUT/with-SLUG: the same
		// flags find it again.
		out = filepath.Dir(filepath.Clean(out))
	default:
		// --with-dir named the folder: writing into it is --with-dir .
		flags += " --with-dir ."
	}
	return out, flags, added
}

// rerunRoot is the results root the rerun writes, which the report
// command then reads: the root itself, or, rerun from a baseline, out.
func (b *builder) rerunRoot(out string) string {
	if b.isBaseline() {
		return relName(out)
	}
	return rootName(out, b.o.Root)
}

// isBaseline reports whether the results root is a baseline (no run
// keeps a manifest.json, as --write-baseline writes none): rerunning into
// it would overwrite the committed comparison.
func (b *builder) isBaseline() bool {
	for _, r := range b.runs() {
		if r.Manifest != nil {
			return false
		}
	}
	return true
}

// machineText describes the machine and build a manifest records,
// noting the numbers it derives (memory in GiB) and those of the CPU
// model's name as counts the report logs; a manifest written before
// runexp recorded the machine lacks the CPU model, memory and backend,
// and the text says so.
func (b *builder) machineText(m *report.Manifest) string {
	t := m.GOOS + "/" + m.GOARCH + ", GOMAXPROCS " + strconv.Itoa(m.GOMAXPROCS) + ", " + m.GoVersion
	mc := m.Machine
	if mc == nil {
		return t + " (CPU model, memory and backend not recorded)"
	}
	if mc.CPUModel != "" {
		for _, n := range digitRun.FindAllString(mc.CPUModel, -1) {
			b.counts = append(b.counts, n+": in the CPU model's name (manifest.json machine.cpu_model)")
		}
		t += ", " + lit(mc.CPUModel)
	}
	t += ", " + b.count(mc.Cores, "logical CPUs (manifest.json machine.cores)") + " logical CPUs"
	if mc.MemoryBytes > 0 {
		gib := strconv.FormatFloat(float64(mc.MemoryBytes)/(1<<30), 'f', 1, 64)
		b.counts = append(b.counts, gib+": manifest.json machine.memory_bytes in GiB")
		t += ", " + gib + " GiB memory"
	}
	build := "pure Go (gonum)"
	if mc.Backend == "openblas" {
		build = "OpenBLAS"
	}
	return t + ", build " + build
}

// peakText is a manifest's peak memory in MiB, noted as derived, or "not
// recorded".
func (b *builder) peakText(m *report.Manifest) string {
	if m == nil || m.Machine == nil || m.Machine.PeakRSSBytes == 0 {
		return "not recorded"
	}
	mib := strconv.FormatFloat(float64(m.Machine.PeakRSSBytes)/(1<<20), 'f', 0, 64)
	b.counts = append(b.counts, mib+": manifest.json machine.peak_rss_bytes in MiB")
	return mib
}

// codeOrLit writes a command line as a code span, or, when it holds a
// backtick (a --with label, a folder name), as text shown as written:
// the project's spans are single backticks, which such a line would end
// early, leaving the rest to be read as Markdown.
func codeOrLit(s string) string {
	if strings.Contains(s, "`") {
		return lit(s)
	}
	return "`" + s + "`"
}
