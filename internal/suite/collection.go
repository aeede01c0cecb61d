package suite

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/safefs"
	"github.com/runexp/runexp/internal/suggest"
)

// NotFoundError is a config named on the command line that does not
// exist, with the names in the configs folder that come closest.
type NotFoundError struct {
	// Arg is the name as given; File the path tried last.
	Arg, File string
	// Dir is the configs folder searched; Closest the configs and
	// collections of Dir nearest to Arg, best first.
	Dir     string
	Closest []string
}

func (e *NotFoundError) Error() string {
	msg := fmt.Sprintf("no config %s", e.File)
	if e.File != e.Arg {
		msg = fmt.Sprintf("no config %s (%s)", e.Arg, e.File)
	}
	if len(e.Closest) > 0 {
		return msg + "; did you mean " + suggest.Or(e.Closest) + "? (runexp list configs lists them all)"
	}
	return msg + " (runexp list configs lists the configs and collections of " + e.Dir + ")"
}

// IsName reports whether arg reads as a bare config name rather than a
// path: no separator and no .yaml or .yml extension.
func IsName(arg string) bool {
	return !strings.ContainsAny(arg, `/\`) && !strings.HasSuffix(arg, ".yaml") && !strings.HasSuffix(arg, ".yml")
}

// Resolve turns a config named on the command line into its file: a file
// that exists is itself; a bare name (IsName) is dir/NAME.yaml. Anything
// else is a *NotFoundError naming the configs and collections of dir that
// come closest (those of the folder the path names, when it has one).
func Resolve(dir, arg string) (string, error) {
	if fi, err := os.Stat(arg); err == nil && fi.Mode().IsRegular() {
		return arg, nil
	}
	file, look := arg, dir
	if IsName(arg) {
		file = filepath.Join(dir, arg+".yaml")
		if fi, err := os.Stat(file); err == nil && fi.Mode().IsRegular() {
			return file, nil
		}
	} else if d := filepath.Dir(arg); d != "." {
		look = d
	}
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return "", fmt.Errorf("%s is a folder; name a config in it (runexp list configs --configs %s)", file, file)
	} else if err == nil && !fi.Mode().IsRegular() {
		// A named pipe or a device is there: say so rather than that
		// nothing is (it is never opened, so never waited on).
		return "", &safefs.NotRegularError{Path: file, Mode: fi.Mode()}
	}
	name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(arg), ".yaml"), ".yml")
	names, _ := names(look)
	return "", &NotFoundError{Arg: arg, File: file, Dir: look, Closest: suggest.Closest(name, names, 5)}
}

// ResolveAll resolves every argument (Resolve), reporting the first that
// does not exist.
func ResolveAll(dir string, args []string) ([]string, error) {
	files := make([]string, 0, len(args))
	for _, a := range args {
		f, err := Resolve(dir, a)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	return files, nil
}

// names lists the configs and collections of dir by name.
func names(dir string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = strings.TrimSuffix(filepath.Base(f), ".yaml")
	}
	return out, nil
}

// Expanded is one config of an expansion, with the collections, outermost
// first, it was reached through.
type Expanded struct {
	File string
	Via  []string
}

// Expand replaces every collection among paths by its members, in order,
// collections among them expanded in turn, and keeps each config once
// (the first time it is met). It returns the configs and the collections
// met, each once. A cycle is an error at the line of the member that
// closes it; a member that does not exist, one at that member's line
// (config.Open).
func Expand(paths []string) ([]Expanded, []*config.Collection, error) {
	x := expander{seen: map[string]bool{}, cols: map[string]bool{}}
	for _, p := range paths {
		if err := x.add(p, nil, nil); err != nil {
			return nil, nil, err
		}
	}
	return x.out, x.collections, nil
}

type expander struct {
	out         []Expanded
	collections []*config.Collection
	seen, cols  map[string]bool
}

// add expands path, reached through the collections via (outermost
// first, open is their files) .
func (x *expander) add(path string, via []string, open []string) error {
	key := filepath.Clean(path)
	if !config.IsCollection(path) {
		if !x.seen[key] {
			x.seen[key] = true
			x.out = append(x.out, Expanded{File: path, Via: via})
		}
		return nil
	}
	col, err := config.LoadCollection(path)
	if err != nil {
		return err
	}
	if !x.cols[key] {
		x.cols[key] = true
		x.collections = append(x.collections, col)
	}
	open = append(open, key)
	via = append(via[:len(via):len(via)], col.Name)
	for i, m := range col.Members {
		mk := filepath.Clean(m.File)
		for j, o := range open {
			if o == mk {
				chain := append(append([]string{}, via[j:]...), m.Name)
				return col.Errorf(m.Line, "collection[%d]: %s forms a cycle: %s", i, m.Name, strings.Join(chain, " → "))
			}
		}
		if err := x.add(m.File, via, open); err != nil {
			return err
		}
	}
	return nil
}

// Files returns the configs' files of an expansion.
func Files(xs []Expanded) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = x.File
	}
	return out
}

// Listing is one line of runexp list configs: a config or a collection
// of a configs folder.
type Listing struct {
	Name, File, Title string
	// Members lists a collection's members; nil for a config.
	Members []string
	// Err is why the file could not be read (it is listed all the same).
	Err error
}

// List reads every *.yaml of dir, in name order, as a config or a
// collection.
func List(dir string) ([]Listing, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no configs (*.yaml) in %s", dir)
	}
	out := make([]Listing, 0, len(files))
	for _, f := range files {
		l := Listing{Name: strings.TrimSuffix(filepath.Base(f), ".yaml"), File: f}
		c, col, err := config.Open(f)
		switch {
		case err != nil:
			l.Err = err
		case col != nil:
			l.Title = col.Title
			for _, m := range col.Members {
				l.Members = append(l.Members, m.Name)
			}
		default:
			l.Title = c.Title
		}
		out = append(out, l)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}
