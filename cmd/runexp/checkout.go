package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/runexp/runexp"
)

// checkouts returns the runexp checkouts a newcomer's command may mean,
// nearest first, each once: the one the working directory is in (a
// folder above it whose go.mod declares the module), the one the binary
// sits in (bin/runexp of make build), and the one it was built from (its
// sources' folder when compiled, if it is still there). A binary built
// with -trimpath, moved, or run far from any checkout may have none.
func checkouts() []string {
	var out []string
	seen := map[string]bool{}
	add := func(dir string) {
		for d := dir; ; d = filepath.Dir(d) {
			if isCheckout(d) {
				if !seen[d] {
					seen[d] = true
					out = append(out, d)
				}
				return
			}
			if filepath.Dir(d) == d {
				return
			}
		}
	}
	if wd, err := os.Getwd(); err == nil {
		add(wd)
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err = filepath.EvalSymlinks(exe); err == nil {
			add(filepath.Dir(exe))
		}
	}
	if _, file, _, ok := runtime.Caller(0); ok && filepath.IsAbs(file) {
		add(filepath.Dir(file))
	}
	return out
}

// isCheckout reports whether dir holds runexp's go.mod.
func isCheckout(dir string) bool {
	b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) == 2 && f[0] == "module" && f[1] == runexp.Module {
			return true
		}
	}
	return false
}

// configsDir returns dir when it exists; for the default "configs" that
// does not exist here, the configs folder of the nearest checkout
// (checkouts), with found true.
func configsDir(dir string) (string, bool) {
	if _, err := os.Stat(dir); err == nil || dir != "configs" {
		return dir, false
	}
	for _, c := range checkouts() {
		if d := filepath.Join(c, "configs"); isDir(d) {
			return d, true
		}
	}
	return dir, false
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// dataRootHint follows an error about a data root that does not exist or
// holds no SHA256SUMS with the data roots that do exist where a checkout
// expects one (a shared/data folder beside or above a checkout, or above
// the working directory), or says that none was found.
func dataRootHint(err error) string {
	msg := err.Error()
	if !strings.Contains(msg, "datasets: data root") && !strings.Contains(msg, "is not a runexp data root") && !strings.Contains(msg, "datasets: no data root") {
		return ""
	}
	var found []string
	seen := map[string]bool{}
	look := func(dir string) {
		for d := dir; ; d = filepath.Dir(d) {
			cand := filepath.Join(d, "shared", "data")
			if _, err := os.Stat(filepath.Join(cand, "SHA256SUMS")); err == nil && !seen[cand] {
				seen[cand] = true
				found = append(found, cand)
			}
			if filepath.Dir(d) == d {
				return
			}
		}
	}
	wd, _ := os.Getwd()
	if wd != "" {
		look(wd)
	}
	for _, c := range checkouts() {
		look(c)
	}
	if len(found) == 0 {
		return "; no shared/data folder with a SHA256SUMS was found above " + wd + " or a runexp checkout: see the README's Data section for what the data root holds"
	}
	return "; a data root exists at " + strings.Join(found, ", ") + " (export RUNEXP_DATA=" + found[0] + ")"
}
