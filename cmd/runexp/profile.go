package main

import (
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/runexp/runexp/internal/config"
)

// profiler writes one CPU profile per config into a directory, so that a
// suite or a multi-config run can be broken down per config and per make
// target (docs/performance.md):
//
//	go tool pprof -top bin/runexp DIR/abrahamsen-hansen-fig4*.pprof
//
// merges the profiles of a target.
type profiler struct{ dir string }

func (p *profiler) register(fs *flag.FlagSet) {
	fs.StringVar(&p.dir, "cpuprofile", "", "write a CPU profile (pprof) of each config to `DIR`/NAME.pprof")
}

// prepare creates the directory before any config runs, so that a bad
// path is a usage error and not a failure after an hour of computing.
func (p *profiler) prepare() error {
	if p.dir == "" {
		return nil
	}
	if err := os.MkdirAll(p.dir, 0o755); err != nil {
		return fmt.Errorf("--cpuprofile: %w", err)
	}
	return nil
}

// start begins the profile of the config name; the returned function
// stops it and closes the file. With no directory it does nothing.
func (p *profiler) start(name string) (stop func() error, err error) {
	if p.dir == "" {
		return func() error { return nil }, nil
	}
	f, err := os.Create(filepath.Join(p.dir, name+".pprof"))
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	return func() error {
		pprof.StopCPUProfile()
		return f.Close()
	}, nil
}

// around is suite.Options.Around: a profile per config, a warning when
// one cannot be finished (the run itself went well). Without a directory
// it is nil: a profile is of the whole process, so with one the configs
// run one after another instead of in one pool.
func (p *profiler) around(log *slog.Logger) func(c *config.Config) (func(), error) {
	if p.dir == "" {
		return nil
	}
	return func(c *config.Config) (func(), error) {
		stop, err := p.start(c.Name)
		if err != nil {
			return nil, err
		}
		return func() {
			if err := stop(); err != nil {
				log.Warn("CPU profile not written", "config", c.Name, "err", err)
			}
		}, nil
	}
}
