package experiments_test

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/runexp/runexp/internal/config"
	"github.com/runexp/runexp/internal/runner"
)

// TestHostileConfigs runs the cases of issues #13 and #14 that reached
// users as panics, hangs, memory exhaustion or writes outside --out, on
// the two-ring Fig. 3 config with one thing changed each. Every case must
// end in a clean error (config errors naming file:line before anything
// runs) or a complete report whose failed cells carry their cause, with
// no panic, nothing written outside --out, within 60 s and 1 GB.
func TestHostileConfigs(t *testing.T) {
	t.Setenv("RUNEXP_DATA", "")
	base, err := os.ReadFile("../configs/abrahamsen-hansen-fig3.yaml")
	if err != nil {
		t.Fatal(err)
	}
	src := string(base)
	// A fast variant: 60 points, 4 widths (0.05 and 5 kept: the claims
	// name them, and validate refuses claims on values outside the grid).
	fast := strings.NewReplacer("n: 500 ", "n: 60 ", "c: [0.05, 0.1, 0.2, 0.5, 1, 2, 5]", "c: [0.05, 0.5, 1, 5]", "components: 50 ", "components: 10 ").Replace(src)
	edit := func(old, new string) string {
		if !strings.Contains(fast, old) {
			t.Fatalf("fixture: %q not in the config", old)
		}
		return strings.Replace(fast, old, new, 1)
	}
	bomb := "experiment:\n  a0: &a0 [x, x, x, x, x, x, x, x, x]\n"
	for i := 1; i <= 9; i++ {
		bomb += fmt.Sprintf("  a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(fmt.Sprintf("*a%d, ", i-1), 9), ", "))
	}
	var cells []string
	for i := 1; i <= 10000; i++ {
		cells = append(cells, fmt.Sprint(i))
	}
	type outcome int
	const (
		configError outcome = iota // refused before running, file:line
		report                     // ran; a complete report
	)
	for _, tc := range []struct {
		name, file, src string
		want            outcome
		msg             string // in the error, or in tables.txt
		failed          int    // failed cells expected in a report
	}{
		{"components 1e9 (float)", "c.yaml", edit("components: 10 ", "components: 1e9 "), configError, "want an integer", 0},
		{"components 10^9", "c.yaml", edit("components: 10 ", "components: 1000000000 "), configError, "model.components: 1000000000 exceeds the 60 points", 0},
		{"n: 3", "c.yaml", edit("n: 60 ", "n: 3 "), configError, "exceeds the 3 points", 0},
		{"n: 5", "c.yaml", edit("n: 60 ", "n: 5 "), configError, "exceeds the 5 points", 0},
		// Five points, five components: the centred kernel matrix has
		// rank at most 4, so every cell fails and the report shows why.
		{"n: 5, components 5, every cell fails", "c.yaml", strings.Replace(edit("n: 60 ", "n: 5 "), "components: 10 ", "components: 5 ", 1), report, "numerical rank", 4},
		{"n: 3, components 2", "c.yaml", strings.Replace(edit("n: 60 ", "n: 3 "), "components: 10 ", "components: 2 ", 1), report, "", -1},
		{"max_iter 2^63-1, tol 0", "c.yaml", strings.Replace(edit("max_iter: 1000", "max_iter: 9223372036854775807"), "tol: 1.0e-9", "tol: 0", 1), configError, "out of range", 0},
		{"point NaN, Inf", "c.yaml", edit("point: [0, 0]", "point: [.nan, .inf]"), configError, "not a finite number", 0},
		{"outputs.width 1e308", "c.yaml", edit("width: 5.5", "width: 1e308"), configError, "outputs.width", 0},
		{"outputs.width 10000", "c.yaml", edit("width: 5.5", "width: 10000"), configError, "outputs.width", 0},
		{"columns 1e9", "c.yaml", edit("columns: 4", "columns: 1000000000"), configError, "too large", 0},
		{"file ...yaml", "...yaml", fast, configError, "rename the file", 0},
		{"file ..yaml", "..yaml", fast, configError, "rename the file", 0},
		{"figure_name ../../../x", "c.yaml", edit("distinct_tol:", "figure_name: ../../../x\n  distinct_tol:"), configError, "path separator", 0},
		{"outputs.dir absolute", "c.yaml", edit("outputs:\n", "outputs:\n  dir: /tmp/escape\n"), configError, "absolute", 0},
		{"outputs.dir ../", "c.yaml", edit("outputs:\n", "outputs:\n  dir: ../escape\n"), configError, "outputs.dir", 0},
		{"alias bomb", "c.yaml", strings.Replace(fast, "experiment:\n", bomb, 1), configError, "YAML nodes", 0},
		{"second document", "c.yaml", fast + "---\n" + fast, configError, "second YAML document", 0},
		{"10^7 cells", "c.yaml", strings.Replace(edit("c: [0.05, 0.5, 1, 5]", "c: ["+strings.Join(cells, ", ")+"]"), "components: 10 ", "components: ["+strings.Join(cells[:1000], ", ")+"] ", 1), configError, "--max-cells", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			work := filepath.Join(root, "a", "b", "c")
			out := filepath.Join(work, "out")
			os.MkdirAll(work, 0o755)
			path := filepath.Join(work, tc.file)
			if err := os.WriteFile(path, []byte(tc.src), 0o644); err != nil {
				t.Fatal(err)
			}
			var before runtime.MemStats
			runtime.ReadMemStats(&before)
			start := time.Now()
			sum, err := runHostile(path, out)
			var after runtime.MemStats
			runtime.ReadMemStats(&after)
			if d := time.Since(start); d > 60*time.Second {
				t.Errorf("took %v", d)
			}
			if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<30 {
				t.Errorf("allocated %d MB", grew>>20)
			}
			// Nothing outside --out (the config file aside).
			filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() && p != path && !strings.HasPrefix(p, out+string(filepath.Separator)) {
					t.Errorf("wrote %s outside --out", p)
				}
				return nil
			})
			switch tc.want {
			case configError:
				var ce *config.Error
				if err == nil {
					t.Fatalf("ran: %+v", sum)
				}
				if !strings.Contains(err.Error(), tc.msg) {
					t.Errorf("err %v, want %q", err, tc.msg)
				}
				if !asConfigError(err, &ce) || !strings.HasPrefix(err.Error(), path) {
					t.Errorf("err %v is not a config error naming %s", err, path)
				}
			case report:
				if err != nil {
					t.Fatal(err)
				}
				if sum.Crashed != 0 {
					t.Errorf("%d panics", sum.Crashed)
				}
				if tc.failed >= 0 && sum.Failed != tc.failed {
					t.Errorf("%d failed cells, want %d", sum.Failed, tc.failed)
				}
				txt, err := os.ReadFile(filepath.Join(sum.Dir, "tables.txt"))
				if err != nil {
					t.Fatal(err)
				}
				if tc.failed > 0 && (!strings.Contains(string(txt), tc.msg) || !strings.Contains(string(txt), "Failed and partial cells")) {
					t.Errorf("tables.txt lacks the failed cells' cause %q", tc.msg)
				}
				for _, f := range sum.Outputs {
					if _, err := os.Stat(filepath.Join(sum.Dir, f)); err != nil {
						t.Errorf("manifest lists %s: %v", f, err)
					}
				}
			}
		})
	}
}

func runHostile(path, out string) (*runner.Summary, error) {
	c, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if _, err := runner.Validate(c); err != nil {
		return nil, err
	}
	return runner.Run(context.Background(), c, runner.Options{OutRoot: out, Workers: 2, NoCache: true})
}

func asConfigError(err error, ce **config.Error) bool {
	e, ok := err.(*config.Error)
	*ce = e
	return ok
}
