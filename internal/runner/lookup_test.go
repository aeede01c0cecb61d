package runner_test

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/methods"
	"github.com/runexp/runexp/internal/runner"
)

func init() {
	// A kind that honours repeats, so that the refusal of repeats on
	// fake-test has one to name.
	runner.RegisterKind(runner.Kind{
		Name:    "repeats-test",
		Doc:     "test kind with repeats",
		Repeats: true,
		Start:   func(*runner.Env, any) (runner.Instance, error) { return fakeKind{}, nil },
	})
}

// TestValidateLookups checks the refusals of an unknown dataset and of
// repeats on a kind that draws its corruption once, at the key's line,
// with the closest name and the names that would do.
func TestValidateLookups(t *testing.T) {
	for _, tc := range []struct {
		name, old, new string
		want           string   // the message's start
		known          []string // names the message must list after it
	}{
		{
			name: "misspelt dataset", old: "name: none-test", new: "name: none-tset",
			want:  `fake.yaml:6: dataset: unknown dataset "none-tset"; did you mean none-test? (known: `,
			known: []string{"none-test"},
		},
		{
			name: "unknown dataset", old: "name: none-test", new: "name: zzzzzzzzzzzz",
			want:  `fake.yaml:6: dataset: unknown dataset "zzzzzzzzzzzz" (known: `,
			known: []string{"none-test"},
		},
		{
			name: "repeats on a kind without", old: "seed: 7\n", new: "seed: 7\nrepeats: 3\n",
			want:  "fake.yaml:5: repeats: kind fake-test draws its corruption once; kinds with repeats: ",
			known: []string{"repeats-test"},
		},
	} {
		c, err := config.Parse("fake.yaml", []byte(strings.Replace(fakeConfig, tc.old, tc.new, 1)))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		_, err = runner.Validate(c)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q…", tc.name, err, tc.want)
			continue
		}
		list := strings.Split(strings.TrimSuffix(strings.TrimPrefix(err.Error(), tc.want), ")"), ", ")
		for _, k := range tc.known {
			if !slices.Contains(list, k) {
				t.Errorf("%s: %q lists %q, want %s among them", tc.name, err, list, k)
			}
		}
		if tc.name == "repeats on a kind without" && slices.Contains(list, "fake-test") {
			t.Errorf("%s: %q lists fake-test, which has no repeats", tc.name, err)
		}
	}
	// The same repeats on a kind that has them pass.
	c := parse(t, strings.Replace(strings.Replace(fakeConfig, "seed: 7\n", "seed: 7\nrepeats: 3\n", 1), "kind: fake-test", "kind: repeats-test", 1))
	if _, err := runner.Validate(c); err != nil {
		t.Errorf("repeats on repeats-test: %v", err)
	}
}

// TestPrepareCache checks where Prepare looks cells up: the default
// OUT/.cache (the cells a first run stored found again: all but the 12
// that failed, c = 13, 17, 19 × 2 sizes × 2 max_iter), no cache with
// NoCache, a --cache folder outside --out used through a link as given,
// and a .cache below --out that is a link refused.
func TestPrepareCache(t *testing.T) {
	const cells, failed = 60, 12
	top := t.TempDir()
	c := parse(t, fakeConfig)
	if _, err := runner.Run(t.Context(), c, runner.Options{OutRoot: top, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	prepare := func(o runner.Options) (all, todo int, err error) {
		t.Helper()
		o.OutRoot, o.Workers = top, 1
		j, err := runner.Prepare(c, o)
		if err != nil {
			return 0, 0, err
		}
		defer j.Close()
		all, todo = j.Cells()
		return all, todo, nil
	}
	if all, todo, err := prepare(runner.Options{}); err != nil || all != cells || todo != failed {
		t.Errorf("the default cache: %d cells, %d to compute (%v); want %d, %d", all, todo, err, cells, failed)
	}
	if all, todo, err := prepare(runner.Options{NoCache: true}); err != nil || all != cells || todo != cells {
		t.Errorf("NoCache: %d cells, %d to compute (%v); want every cell computed", all, todo, err)
	}

	// A --cache typed on the command line is the user's: a link to the
	// cache is followed.
	link := filepath.Join(t.TempDir(), "cache")
	if err := os.Symlink(filepath.Join(top, ".cache"), link); err != nil {
		t.Fatal(err)
	}
	if all, todo, err := prepare(runner.Options{CacheDir: link}); err != nil || all != cells || todo != failed {
		t.Errorf("--cache through a link: %d cells, %d to compute (%v); want the stored cells found", all, todo, err)
	}

	// Below --out nothing is followed.
	if err := os.Rename(filepath.Join(top, ".cache"), filepath.Join(top, "real")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real", filepath.Join(top, ".cache")); err != nil {
		t.Fatal(err)
	}
	_, _, err := prepare(runner.Options{})
	want := "cell cache: " + top + "/.cache is a symbolic link; runexp writes only into real folders under " + top
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("a .cache link below --out: %v, want %q…", err, want)
	}
}

// TestCellHashAndPlanCode checks the two conveniences against what they
// wrap: CellHash is the hex SHA-256 of the cell's key, different for
// every cell, and PlanCode the Code of PlanFingerprints.
func TestCellHashAndPlanCode(t *testing.T) {
	c := parse(t, fakeConfig)
	plan, err := runner.Validate(c)
	if err != nil {
		t.Fatal(err)
	}
	hex := regexp.MustCompile(`^[0-9a-f]{64}$`)
	seen := map[string]bool{}
	for _, cell := range plan.Cells {
		h, err := runner.CellHash(c, plan.Kind, cell)
		if err != nil {
			t.Fatal(err)
		}
		k, err := runner.NewCellKey(c, plan.Kind, cell)
		if err != nil {
			t.Fatal(err)
		}
		if h != k.Hash() || !hex.MatchString(h) {
			t.Errorf("cell %s: CellHash %q, its key's Hash %q", cell.Key, h, k.Hash())
		}
		if seen[h] {
			t.Errorf("cell %s: hash %s repeated", cell.Key, h)
		}
		seen[h] = true
	}
	code, err := runner.PlanCode(c, plan.Kind, plan.Cells)
	if err != nil {
		t.Fatal(err)
	}
	fp, err := runner.PlanFingerprints(c, plan.Kind, plan.Cells)
	if err != nil || code != fp.Code || code == "" {
		t.Errorf("PlanCode %q, PlanFingerprints' Code %q (%v)", code, fp.Code, err)
	}
}

// TestCodeFiles checks the files Mika's fingerprint covers: its own file
// and the kernels it evaluates, never the bookkeeping that only keys and
// ships cells; a file outside the module's library is refused.
func TestCodeFiles(t *testing.T) {
	spec, ok := methods.Lookup("mika")
	if !ok {
		t.Fatal("mika is not registered")
	}
	files, err := runner.CodeFiles(spec.File)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"internal/methods/mika.go", "internal/kernel/kernel.go"} {
		if !slices.Contains(files, f) {
			t.Errorf("%s is not among mika's files %q", f, files)
		}
	}
	for _, f := range []string{"internal/runner/cache.go", "internal/par/par.go", "internal/codefp/codefp.go"} {
		if slices.Contains(files, f) {
			t.Errorf("bookkeeping file %s is among mika's files", f)
		}
	}
	if _, err := runner.CodeFiles("/nowhere/x.go"); err == nil || err.Error() != "runner: /nowhere/x.go is not a library source file of the module" {
		t.Errorf("a file outside the module: %v", err)
	}
}
